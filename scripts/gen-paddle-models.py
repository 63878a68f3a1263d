"""Writes the PaddlePaddle inference models the real-ir-paddle conformance suite turns into IR with
OpenVINO's PaddlePaddle frontend, with Paddle's own outputs for seeded inputs (Paddle cannot run in
the oracle process: this runs in the Paddle venv of scripts/setup-paddle.sh).

The frontend reads the legacy program format only (<prefix>.pdmodel + <prefix>.pdiparams; not the
PIR <prefix>.json that Paddle 3 saves by default), which Paddle 2.6 writes by default, from static
programs (paddle.static.save_inference_model) and from dygraph layers (paddle.jit.to_static +
paddle.jit.save).

Control flow first: paddle.static.nn.cond (nested, capturing outer values and parameters, branches
of different shapes, several outputs of several types: conditional_block + select_input),
paddle.static.nn.while_loop (counters, several carried values of several types, data-dependent trip
counts, loops in conds, conds in loops, loops in loops), case and switch_case, and dygraph functions
whose Python if/while/for on tensors paddle.jit.to_static turns into the same ops; then ordinary
nets (conv/batch norm/pool/linear, LSTM/GRU, attention, layer norm, interpolate, gather/scatter,
top-k, cumsum, where, dynamic batch and sequence dims), int64, bool, f64 and f16 tensors.

Usage: gen-paddle-models.py OUT_DIR [NAME...]. Writes OUT_DIR/<name>/model.pdmodel (+ model.pdiparams
where the model has parameters) and OUT_DIR/<name>/io.json:
  {"inputs": [{"name", "dtype", "shape"}], "outputs": [names], "sets": [{"inputs": {name: file},
   "outputs": {name: file}}]}
each tensor a raw little-endian file (set<k>-in-<input>.bin, set<k>-out-<output>.bin) with its dtype
and shape in io.json ("tensors": {file: {"dtype", "shape"}}). Outputs in the model's fetch order
(the order of the IR's Results); dtypes as the harness names them: f32, f64, f16, i32, i64, boolean.
"""
import json
import os
import shutil
import sys

import numpy as np
import paddle

DT = {"float32": "f32", "float64": "f64", "float16": "f16", "int32": "i32", "int64": "i64", "bool": "boolean"}
PD_DT = {"f32": "float32", "f64": "float64", "f16": "float16", "i32": "int32", "i64": "int64", "boolean": "bool"}

MODELS = {}


def static_model(*specs):
    """Registers build(*input_vars) -> {name: var}, run in a fresh static program; specs: (name, dtype, shape, gen)."""
    def wrap(build):
        MODELS[build.__name__] = ("static", build, specs)
        return build
    return wrap


def layer_model(*specs):
    """Registers make() -> paddle.nn.Layer whose forward returns a tuple, saved by paddle.jit.to_static + paddle.jit.save."""
    def wrap(make):
        MODELS[make.__name__] = ("layer", make, specs)
        return make
    return wrap


def normal(shape, scale=1.0):
    return lambda rng, k: (rng.standard_normal(shape) * scale).astype(np.float32)


def ints(lo, hi, shape=(), dtype=np.int64):
    """Integers in [lo, hi]; set 1 takes another draw."""
    return lambda rng, k: rng.integers(lo, hi + 1, size=shape).astype(dtype)


def each(values, dtype, shape=()):
    """Set k takes values[k] (as a tensor of `shape`): both branches of a cond, a loop run 0 and n times."""
    gen = lambda rng, k: np.full(shape, values[k % len(values)], dtype=dtype)  # noqa: E731
    gen.sets = len(values)
    return gen


def signed(shape):
    """Set 0 mostly positive, set 1 mostly negative: conds on a sum take both branches."""
    return lambda rng, k: ((np.abs(rng.standard_normal(shape)) + 0.1) * (1 if k % 2 == 0 else -1)).astype(np.float32)


def rows(shapes):
    """Set k: normal values of shapes[k] (dynamic dimensions)."""
    gen = lambda rng, k: rng.standard_normal(shapes[k % len(shapes)]).astype(np.float32)  # noqa: E731
    gen.sets = len(shapes)
    return gen


def full(value, dtype="int64"):
    return paddle.full([1], value, dtype)


def weight(seed, shape, scale=0.5):
    return paddle.to_tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32) * scale) if paddle.in_dynamic_mode() \
        else paddle.assign(np.random.default_rng(seed).standard_normal(shape).astype(np.float32) * scale)


cond = paddle.static.nn.cond
while_loop = paddle.static.nn.while_loop


# ── paddle.static.nn.cond: conditional_block + select_input ───────────────────────────────────────

@static_model(("x", "f32", [2, 3], signed([2, 3])))
def cond_basic(x):
    return {"y": cond(paddle.sum(x) > 0, lambda: x * 2.0 + 1.0, lambda: x - 3.0)}


@static_model(("x", "f32", [2, 3], signed([2, 3])), ("y", "f32", [2, 4], normal([2, 4])))
def cond_capture(x, y):
    # both branches read outer values: an input, a constant weight, a value computed before the cond
    w = weight(7, (3, 4))
    s = paddle.sum(x)
    return {"out": cond(s > 0, lambda: paddle.matmul(x, w) + y, lambda: y * s - paddle.matmul(x, w))}


@static_model(("x", "f32", [2, 3], signed([2, 3])))
def cond_capture_parameter(x):
    # a branch reads a parameter (a Linear's weight and bias)
    lin = paddle.nn.Linear(3, 4)
    return {"out": cond(paddle.sum(x) > 0, lambda: lin(x), lambda: paddle.zeros([2, 4]))}


@static_model(("x", "f32", [3], signed([3])), ("p", "boolean", [1], each([True, False], np.bool_, [1])))
def cond_nested(x, p):
    def outer_then():
        return cond(paddle.sum(x) > 0, lambda: paddle.exp(x), lambda: paddle.abs(x) + 10.0)

    def outer_else():
        return cond(paddle.max(x) > -0.5, lambda: x * x, lambda: -x)
    return {"y": cond(p, outer_then, outer_else)}


@static_model(("x", "f32", [2, 3], signed([2, 3])))
def cond_shapes(x):
    # branches of different shapes: select_input of [2, 6] and [2, 2]
    z = cond(paddle.sum(x) > 0, lambda: paddle.concat([x, x * 2.0], axis=1), lambda: x[:, :2])
    return {"z": z, "s": paddle.sum(z, axis=1), "n": paddle.shape(z)}


@static_model(("x", "f32", [4], signed([4])), ("k", "i64", [1], ints(0, 9, [1])))
def cond_multi(x, k):
    def a():
        return x + paddle.cast(k, "float32"), k * 2, paddle.any(x > 0.5)

    def b():
        return x * 0.5, k - 1, paddle.all(x < 0.0)
    y, kk, flag = cond(paddle.mean(x) > 0, a, b)
    return {"y": y, "k2": kk, "flag": flag}


@static_model(("x", "f32", [2, 3], signed([2, 3])))
def cond_passthrough(x):
    # one branch returns the input itself, the other a constant
    return {"y": cond(paddle.sum(x) > 0, lambda: x, lambda: paddle.full([2, 3], 7.0))}


@static_model(("x", "f32", [2, 2], signed([2, 2])), ("y", "f32", [2, 2], normal([2, 2])))
def cond_deep_capture(x, y):
    # the inner branch reads a value from two levels out and one from the outer branch
    t = paddle.tanh(y)

    def outer():
        u = x * 3.0
        return cond(paddle.mean(y) > 0, lambda: u + t, lambda: u - t * 2.0)
    return {"z": cond(paddle.sum(x) > 0, outer, lambda: t)}


@static_model(("x", "f32", [3], normal([3])), ("k", "i64", [1], each([0, 2, 5], np.int64, [1])))
def case_chain(x, k):
    # paddle.static.nn.case: a chain of conds, the first true predicate wins, else the default
    y = paddle.static.nn.case([(k == 0, lambda: x + 1.0), (k < 3, lambda: x * 2.0)], default=lambda: x - 5.0)
    return {"y": y}


@static_model(("x", "f32", [3], normal([3])), ("i", "i64", [1], each([0, 1, 2, 7], np.int64, [1])))
def switch_case(x, i):
    y = paddle.static.nn.switch_case(i, {0: lambda: x + 1.0, 1: lambda: x * x, 2: lambda: paddle.exp(x)}, default=lambda: -x)
    return {"y": y}


# ── paddle.static.nn.while_loop: while ─────────────────────────────────────────────────────────────

@static_model(("x", "f32", [2, 2], normal([2, 2])))
def while_counter(x):
    i, y = while_loop(lambda i, y: i < 10, lambda i, y: [i + 1, y * 0.9 + 1.0], [full(0), x])
    return {"i": i, "y": y}


@static_model(("x", "f32", [3], normal([3])), ("n", "i64", [1], each([4, 0, 7], np.int64, [1])))
def while_types(x, n):
    def body(i, y, acc32, seen, d):
        return [i + 1, y + paddle.cast(i, "float32"), acc32 + paddle.cast(i, "int32") * 3,
                paddle.logical_or(seen, paddle.any(y > 2.0)), d * 1.5]
    init = [full(0), x, full(5, "int32"), paddle.full([1], False, "bool"), full(1.0, "float64")]
    i, y, acc, seen, d = while_loop(lambda i, y, a, s, d: i < n, body, init)
    return {"i": i, "y": y, "acc": acc, "seen": seen, "d": d}


@static_model(("x", "f32", [4], lambda rng, k: (np.abs(rng.standard_normal(4)) + 0.5 + k).astype(np.float32)))
def while_data_trip(x):
    # the trip count depends on the data: doubles until the sum passes 100
    i, y = while_loop(lambda i, y: paddle.sum(y) < 100.0, lambda i, y: [i + 1, y * 2.0], [full(0), x])
    return {"i": i, "y": y}


@static_model(("x", "f32", [2, 3], normal([2, 3])), ("n", "i64", [1], each([3, 6], np.int64, [1])))
def while_unused_carried(x, n):
    w = weight(11, (3, 3))

    # a carried value the body never changes (passed through), one it reads but never changes, a captured weight
    def body(i, y, passthrough, fixed):
        return [i + 1, paddle.tanh(paddle.matmul(y, w) + fixed), passthrough, fixed]
    i, y, p, _ = while_loop(lambda i, y, p, f: i < n, body, [full(0), x, x * 3.0, paddle.full([2, 3], 0.1)])
    return {"y": y, "p": p, "i": i}


@static_model(("x", "f32", [3], signed([3])), ("n", "i64", [1], each([4, 2], np.int64, [1])))
def while_in_cond(x, n):
    def then():
        _, y = while_loop(lambda i, y: i < n, lambda i, y: [i + 1, y + paddle.cast(i, "float32")], [full(0), x])
        return y
    return {"y": cond(paddle.sum(x) > 0, then, lambda: x * -1.0)}


@static_model(("x", "f32", [3], normal([3])))
def cond_in_while(x):
    def body(i, y):
        y = cond(paddle.equal(i % 2, full(0)), lambda: y + 1.0, lambda: y * 2.0)
        return [i + 1, y]
    _, y = while_loop(lambda i, y: i < 5, body, [full(0), x])
    return {"y": y}


@static_model(("x", "f32", [2], normal([2])), ("n", "i64", [1], each([3, 1], np.int64, [1])))
def while_nested(x, n):
    def outer(i, y):
        _, y = while_loop(lambda j, z: j < i + 1, lambda j, z: [j + 1, z * 0.5 + paddle.cast(j, "float32")], [full(0), y])
        return [i + 1, y]
    _, y = while_loop(lambda i, y: i < n, outer, [full(0), x])
    return {"y": y}


@static_model(("x", "f32", [3], signed([3])), ("n", "i64", [1], each([3, 2], np.int64, [1])))
def while_cond_while(x, n):
    # a loop in a cond in a loop
    def outer(i, y):
        def grow():
            _, z = while_loop(lambda j, z: j < i, lambda j, z: [j + 1, z + 1.0], [full(0), y])
            return z
        return [i + 1, cond(paddle.sum(y) > 0, grow, lambda: y * 0.5)]
    _, y = while_loop(lambda i, y: i < n, outer, [full(0), x])
    return {"y": y}


@static_model(("a", "f32", [3], normal([3])), ("b", "f32", [3], normal([3])), ("n", "i64", [1], each([3, 4], np.int64, [1])))
def while_swap(a, b, n):
    # carried values that trade places each iteration
    _, a2, b2 = while_loop(lambda i, a, b: i < n, lambda i, a, b: [i + 1, b, a + b * 0.5], [full(0), a, b])
    return {"a": a2, "b": b2}


@static_model(("h", "f32", [1, 4], normal([1, 4])), ("steps", "i64", [1], each([5, 0, 2], np.int64, [1])))
def greedy_decoder(h, steps):
    # a recurrent cell run a data-given number of steps, an argmax token fed back and summed
    w = weight(21, (4, 4))
    emb = weight(22, (4, 4))

    def body(t, h, tok, total):
        h = paddle.tanh(paddle.matmul(h, w) + paddle.gather(emb, tok))
        tok = paddle.argmax(h, axis=1)
        return [t + 1, h, tok, total + tok]
    _, h2, tok, total = while_loop(lambda t, h, tok, tot: t < steps, body, [full(0), h, full(0), full(0)])
    return {"h": h2, "tok": tok, "total": total}


# ── dygraph control flow through paddle.jit.to_static ─────────────────────────────────────────────

def ToStatic(forward, **params):
    """A Layer whose forward is `forward` (its own signature: paddle.jit.to_static reads it) holding `params` (sublayers, parameters)."""
    net = type(forward.__name__, (paddle.nn.Layer,), {"forward": forward})()
    for k, v in params.items():
        setattr(net, k, v)
    return net


@layer_model(("x", "f32", [2, 3], signed([2, 3])))
def d2s_if():
    def fn(self, x):
        if paddle.sum(x) > 0:
            y = paddle.exp(x * 0.5)
        else:
            y = x * x - 1.0
        return y
    return ToStatic(fn)


@layer_model(("x", "f32", [3], lambda rng, k: (np.abs(rng.standard_normal(3)) + 0.2 + k).astype(np.float32)))
def d2s_while():
    def fn(self, x):
        i = paddle.zeros([1], "int64")
        while paddle.max(x) < 50.0:
            x = x * 1.7 + 0.1
            i += 1
        return x, i
    return ToStatic(fn)


@layer_model(("x", "f32", [2, 2], normal([2, 2])), ("n", "i64", [1], each([3, 0, 5], np.int64, [1])))
def d2s_for_range():
    def fn(self, x, n):
        acc = paddle.zeros_like(x)
        for i in range(n):
            acc = acc + paddle.sin(x + paddle.cast(i, "float32"))
        return acc
    return ToStatic(fn)


@layer_model(("x", "f32", [4], normal([4])), ("n", "i64", [1], each([6, 3], np.int64, [1])))
def d2s_if_in_while():
    def fn(self, x, n):
        i = paddle.zeros([1], "int64")
        while i < n:
            if paddle.mean(x) > 0:
                x = x - 0.7
            else:
                x = x * -1.5 + 0.3
            i += 1
        return x
    return ToStatic(fn)


@layer_model(("x", "f32", [3, 4], normal([3, 4])))
def d2s_break():
    def fn(self, x):
        y = x
        i = paddle.zeros([1], "int64")
        while i < 10:
            y = paddle.tanh(paddle.matmul(y, self.w))
            i += 1
            if paddle.max(paddle.abs(y)) < 0.3:
                break
        return y, i
    return ToStatic(fn, w=paddle.create_parameter([4, 4], "float32", default_initializer=paddle.nn.initializer.Normal(0, 0.3)))


@layer_model(("x", "f32", [2, 4], signed([2, 4])), ("flag", "boolean", [1], each([True, False], np.bool_, [1])))
def d2s_nested_if():
    def fn(self, x, flag):
        if flag:
            if paddle.sum(x) > 0:
                y = self.lin(x)
            else:
                y = -self.lin(x)
        else:
            y = x[:, :3] * 2.0
        return y, paddle.shape(y)
    return ToStatic(fn, lin=paddle.nn.Linear(4, 3))


# ── recurrent nets ────────────────────────────────────────────────────────────────────────────────

def rnn_layer(cls, **kw):
    def fn(self, x):
        y, _ = self.rnn(x)
        return y
    return ToStatic(fn, rnn=cls(**kw))


@layer_model(("x", "f32", [2, 5, 3], normal([2, 5, 3])))
def lstm():
    return rnn_layer(paddle.nn.LSTM, input_size=3, hidden_size=4)


@layer_model(("x", "f32", [2, 5, 3], normal([2, 5, 3])))
def lstm_bidirectional_2layers():
    return rnn_layer(paddle.nn.LSTM, input_size=3, hidden_size=4, num_layers=2, direction="bidirect")


@layer_model(("x", "f32", [2, 5, 3], normal([2, 5, 3])))
def gru():
    return rnn_layer(paddle.nn.GRU, input_size=3, hidden_size=4)


@layer_model(("x", "f32", [2, 5, 3], normal([2, 5, 3])))
def simple_rnn():
    return rnn_layer(paddle.nn.SimpleRNN, input_size=3, hidden_size=4)


@layer_model(("x", "f32", [-1, -1, 3], rows([[2, 5, 3], [1, 7, 3]])))
def lstm_dynamic():
    def fn(self, x):
        y, (h, c) = self.rnn(x)
        return y, h
    return ToStatic(fn, rnn=paddle.nn.LSTM(3, 4))


@layer_model(("x", "f32", [2, 4, 3], normal([2, 4, 3])))
def lstm_cell_loop():
    # an LSTMCell stepped by a Python loop over a tensor's length (a while op with the cell inside)
    def fn(self, x):
        h = paddle.zeros([2, 4])
        c = paddle.zeros([2, 4])
        t = paddle.zeros([1], "int64")
        steps = paddle.shape(x)[1]
        while t < steps:
            _, (h, c) = self.cell(paddle.squeeze(paddle.slice(x, [1], t, t + 1), [1]), (h, c))
            t += 1
        return h, c
    return ToStatic(fn, cell=paddle.nn.LSTMCell(3, 4))


# ── ordinary nets ─────────────────────────────────────────────────────────────────────────────────

@layer_model(("x", "f32", [1, 3, 16, 16], normal([1, 3, 16, 16])))
def cnn():
    net = paddle.nn.Sequential(
        paddle.nn.Conv2D(3, 8, 3, padding=1), paddle.nn.BatchNorm2D(8), paddle.nn.ReLU(), paddle.nn.MaxPool2D(2),
        paddle.nn.Conv2D(8, 8, 3, stride=2, groups=2), paddle.nn.BatchNorm2D(8), paddle.nn.Hardswish(),
        paddle.nn.AdaptiveAvgPool2D(1), paddle.nn.Flatten(), paddle.nn.Linear(8, 5), paddle.nn.Softmax())
    net.eval()

    def fn(self, x):
        return self.net(x)
    return ToStatic(fn, net=net)


@layer_model(("x", "f32", [-1, 3, 8, 8], rows([[1, 3, 8, 8], [2, 3, 8, 8]])))
def cnn_dynamic_batch():
    net = paddle.nn.Sequential(
        paddle.nn.Conv2D(3, 4, 3, padding=1), paddle.nn.BatchNorm2D(4), paddle.nn.LeakyReLU(0.1), paddle.nn.AvgPool2D(2),
        paddle.nn.Conv2DTranspose(4, 2, 2, stride=2), paddle.nn.Sigmoid())
    net.eval()

    def fn(self, x):
        return self.net(x)
    return ToStatic(fn, net=net)


@layer_model(("x", "f32", [2, 6], normal([2, 6])))
def mlp():
    net = paddle.nn.Sequential(paddle.nn.Linear(6, 8), paddle.nn.LayerNorm(8), paddle.nn.GELU(), paddle.nn.Linear(8, 8),
                               paddle.nn.Swish(), paddle.nn.Linear(8, 3))

    def fn(self, x):
        return paddle.nn.functional.softmax(self.net(x), axis=-1)
    return ToStatic(fn, net=net)


@layer_model(("x", "f32", [2, 5, 8], normal([2, 5, 8])))
def attention():
    def fn(self, x):
        return self.norm(x + self.mha(x, x, x))
    return ToStatic(fn, mha=paddle.nn.MultiHeadAttention(8, 2), norm=paddle.nn.LayerNorm(8))


@layer_model(("x", "f32", [-1, -1, 8], rows([[1, 4, 8], [2, 7, 8]])))
def transformer_dynamic():
    enc = paddle.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
    enc.eval()

    def fn(self, x):
        return self.enc(x)
    return ToStatic(fn, enc=enc)


@layer_model(("x", "f32", [1, 2, 4, 5], normal([1, 2, 4, 5])))
def interpolate():
    def fn(self, x):
        f = paddle.nn.functional
        return (f.interpolate(x, scale_factor=2, mode="nearest"), f.interpolate(x, size=[7, 9], mode="bilinear", align_corners=False),
                f.interpolate(x, size=[3, 3], mode="bilinear", align_corners=True), f.interpolate(x, scale_factor=1.5, mode="bicubic"))
    return ToStatic(fn)


@layer_model(("x", "f32", [4, 5], normal([4, 5])), ("idx", "i64", [3], ints(0, 3, [3])))
def gather_scatter():
    def fn(self, x, idx):
        g = paddle.gather(x, idx)
        gn = paddle.gather_nd(x, paddle.stack([idx, idx], axis=1))
        s = paddle.scatter(x, idx[:1], g[:1] * 10.0, overwrite=True)
        t = paddle.take_along_axis(x, paddle.topk(x, 5, axis=1)[1], axis=1)
        return g, gn, s, t
    return ToStatic(fn)


@layer_model(("x", "f32", [3, 6], normal([3, 6])))
def topk_cumsum_where():
    def fn(self, x):
        v, i = paddle.topk(x, 3, axis=1)
        c = paddle.cumsum(x, axis=1)
        w = paddle.where(x > 0, x, paddle.zeros_like(x) - 1.0)
        return v, i, c, w, paddle.argmax(x, axis=0)
    return ToStatic(fn)


@layer_model(("ids", "i64", [2, 5], ints(0, 9, [2, 5])), ("mask", "boolean", [2, 5], lambda rng, k: rng.random((2, 5)) > 0.4))
def int_bool_ops():
    def fn(self, ids, mask):
        e = self.emb(ids)
        m = paddle.cast(mask, "float32").unsqueeze(-1)
        pooled = paddle.sum(e * m, axis=1) / (paddle.sum(m, axis=1) + 1e-6)
        count = paddle.sum(paddle.cast(mask, "int64"), axis=1)
        odd = paddle.logical_and(mask, paddle.equal(ids % 2, paddle.ones_like(ids)))
        return pooled, count, odd, paddle.max(ids, axis=1) * 3 - paddle.min(ids, axis=1)
    return ToStatic(fn, emb=paddle.nn.Embedding(10, 4))


@layer_model(("x", "f32", [-1, 6], rows([[3, 6], [5, 6]])))
def dynamic_rows():
    def fn(self, x):
        n = paddle.shape(x)[0]
        y = paddle.reshape(x, [n, 2, 3]).transpose([0, 2, 1])
        z = paddle.concat([y, paddle.flip(y, [0])], axis=2)
        return z, paddle.tile(paddle.mean(x, axis=0, keepdim=True), [2, 1]), paddle.cast(n, "int64")
    return ToStatic(fn)


@layer_model(("x", "f32", [2, 3, 8], normal([2, 3, 8])))
def shape_ops():
    def fn(self, x):
        a, b = paddle.split(x, 2, axis=2)
        p = paddle.nn.functional.pad(x, [1, 2], mode="constant", value=0.5, data_format="NCL")
        e = paddle.expand(a[:, :1], [2, 3, 4])
        s = paddle.stack([a, b], axis=1)
        return p, e + b, s.reshape([2, -1]), paddle.unsqueeze(paddle.squeeze(x[:, :1], [1]), 0)
    return ToStatic(fn)


@layer_model(("x", "f64", [3, 4], lambda rng, k: rng.standard_normal((3, 4))))
def f64_math():
    def fn(self, x):
        y = paddle.exp(x * 0.3) + paddle.sqrt(paddle.abs(x)) - paddle.log(paddle.abs(x) + 1.0)
        return paddle.matmul(y, x, transpose_y=True), paddle.cumsum(y, axis=0)
    return ToStatic(fn)


@layer_model(("x", "f16", [3, 4], lambda rng, k: rng.standard_normal((3, 4)).astype(np.float16)))
def f16_math():
    def fn(self, x):
        # Paddle has no f16 arithmetic on CPU: f16 in and out, computed in f32
        y = paddle.cast(x, "float32")
        return paddle.cast(paddle.nn.functional.relu(y * 2.0 - 0.5), "float16"), y * 0.25
    return ToStatic(fn)


@layer_model(("x", "f32", [2, 3], signed([2, 3])), ("n", "i32", [1], each([3, 0], np.int32, [1])))
def d2s_int32_loop():
    def fn(self, x, n):
        i = paddle.zeros([1], "int32")
        s = paddle.zeros([1], "float32")
        while i < n:
            s = s + paddle.sum(x) * paddle.cast(i + 1, "float32")
            i = i + 1
        return s, i
    return ToStatic(fn)


# ── writing ────────────────────────────────────────────────────────────────────────────────────────

def write_tensor(d, fname, arr, tensors):
    arr = np.asarray(arr)
    dt = DT[arr.dtype.name]
    with open(os.path.join(d, fname), "wb") as fh:
        fh.write(arr.astype(arr.dtype.newbyteorder("<"), copy=False).tobytes(order="C"))
    tensors[fname] = {"dtype": dt, "shape": list(arr.shape)}


def save_static(build, specs, prefix, seed):
    main, startup = paddle.static.Program(), paddle.static.Program()
    main.random_seed = startup.random_seed = seed
    with paddle.static.program_guard(main, startup):
        feeds = [paddle.static.data(n, shape, PD_DT[dt]) for n, dt, shape, _ in specs]
        outs = build(*feeds)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    paddle.static.save_inference_model(prefix, feeds, list(outs.values()), exe, program=main)
    return list(outs.keys())


def save_layer(make, specs, prefix, seed):
    paddle.disable_static()
    try:
        paddle.seed(seed)
        net = make()
        net.eval()
        spec = [paddle.static.InputSpec(shape, PD_DT[dt], n) for n, dt, shape, _ in specs]
        paddle.jit.save(paddle.jit.to_static(net, input_spec=spec, full_graph=True), prefix)
    finally:
        paddle.enable_static()
    return None


def generate(name, out_root):
    kind, make, specs = MODELS[name]
    d = os.path.join(out_root, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    prefix = os.path.join(d, "model")
    seed = sum(map(ord, name))
    with paddle.utils.unique_name.guard(), paddle.static.scope_guard(paddle.static.Scope()):
        names = (save_static if kind == "static" else save_layer)(make, specs, prefix, seed)
        # Paddle's outputs: the saved inference program itself, run by Paddle's executor
        exe = paddle.static.Executor(paddle.CPUPlace())
        program, feed_names, fetches = paddle.static.load_inference_model(prefix, exe)
        names = names or [f"out{i}" for i in range(len(fetches))]
        sets, tensors = [], {}
        for k in range(max([2] + [getattr(s[3], "sets", 2) for s in specs])):
            rng = np.random.default_rng(seed * 10 + k)
            feeds = {n: gen(rng, k) for n, _, _, gen in specs}
            got = exe.run(program, feed={n: feeds[n] for n in feed_names}, fetch_list=fetches)
            s = {"inputs": {}, "outputs": {}}
            for n, v in feeds.items():
                s["inputs"][n] = f"set{k}-in-{n}.bin"
                write_tensor(d, s["inputs"][n], v, tensors)
            for n, v in zip(names, got):
                s["outputs"][n] = f"set{k}-out-{n}.bin"
                write_tensor(d, s["outputs"][n], v, tensors)
            sets.append(s)
    with open(os.path.join(d, "io.json"), "w") as fh:
        json.dump({"inputs": [{"name": n, "dtype": dt, "shape": shape} for n, dt, shape, _ in specs], "outputs": names,
                   "sets": sets, "tensors": tensors, "paddlepaddle": paddle.__version__}, fh, indent=1)


def main():
    out = sys.argv[1]
    only = sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    paddle.enable_static()
    failed = []
    for name in MODELS:
        if only and name not in only:
            continue
        try:
            generate(name, out)
            print("wrote", name)
        except Exception as e:  # noqa: BLE001: a model Paddle itself cannot build or save is a generator bug, reported at the end
            failed.append(f"{name}: {type(e).__name__}: {str(e).strip().splitlines()[-1] if str(e).strip() else ''}")
            shutil.rmtree(os.path.join(out, name), ignore_errors=True)
    if failed:
        sys.exit("Paddle could not write:\n  " + "\n  ".join(failed))


if __name__ == "__main__":
    main()
