"""Writes the TensorFlow SavedModels the real-ir-tf conformance suite turns into IR with OpenVINO's
TensorFlow frontend, with TensorFlow's own outputs for seeded inputs (TensorFlow cannot run in the
oracle process: this runs in the TF venv of scripts/setup-tf.sh).

Control flow first: tf.cond (nested, branches capturing outer tensors, branches of different shapes
merging, several outputs of several types), tf.while_loop (counters, carried tensors of several
types, data-dependent trip counts, loops in conds, conds in loops, loops in loops), tf.switch_case,
TensorArray write/stack and unstack/read, tf.map_fn, tf.scan, tf.foldl, keras RNNs (LSTM, GRU,
SimpleRNN with unroll=False: a while loop over TensorLists), and a few plain CNN/MLP graphs.

Usage: gen-tf-models.py OUT_DIR. Writes OUT_DIR/<name>/saved_model/ (and for the models of FROZEN,
OUT_DIR/<name>_frozen/frozen.pb, a frozen GraphDef) and OUT_DIR/<name>/io.json:
  {"inputs": [{"name", "dtype", "shape"}], "outputs": [names], "sets": [{"inputs": {name: file},
   "outputs": {name: file}}]}
each tensor a raw little-endian file (<name>/set<k>-in-<input>.bin, set<k>-out-<output>.bin) with
its dtype and shape in io.json ("tensors": {file: {"dtype", "shape"}}). Dtypes as the harness names
them: f32, f64, i32, i64, boolean.
"""
import json
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")  # TF's own numbers without oneDNN's reordered sums

import numpy as np
import tensorflow as tf
import keras

DT = {np.float32: "f32", np.float64: "f64", np.float16: "f16", np.int32: "i32", np.int64: "i64", np.int8: "i8", np.uint8: "u8",
      np.int16: "i16", np.bool_: "boolean"}
TF_DT = {"f32": tf.float32, "f64": tf.float64, "f16": tf.float16, "i32": tf.int32, "i64": tf.int64, "i8": tf.int8, "u8": tf.uint8,
         "i16": tf.int16, "boolean": tf.bool}

MODELS = {}


def model(*specs):
    """Registers fn(module) -> tf.Module-callable as a model; specs: (name, dtype, shape, gen)."""
    def wrap(make):
        MODELS[make.__name__] = (make, specs)
        return make
    return wrap


def normal(shape, scale=1.0):
    return lambda rng, k: (rng.standard_normal(shape) * scale).astype(np.float32)


def ints(lo, hi, shape=(), dtype=np.int32):
    """Integers in [lo, hi]; set 1 takes another draw."""
    return lambda rng, k: rng.integers(lo, hi + 1, size=shape).astype(dtype)


def each(values, dtype):
    """Set k takes values[k]: both branches of a cond, a loop run 0 and n times."""
    gen = lambda rng, k: np.array(values[k % len(values)], dtype=dtype)  # noqa: E731
    gen.sets = len(values)
    return gen


def signed(shape):
    """Set 0 mostly positive, set 1 mostly negative: conds on a sum take both branches."""
    return lambda rng, k: ((np.abs(rng.standard_normal(shape)) + 0.1) * (1 if k % 2 == 0 else -1)).astype(np.float32)


# ── tf.cond ─────────────────────────────────────────────────────────────────────────────────────

@model(("x", "f32", [2, 3], signed([2, 3])))
def cond_basic():
    return lambda x: {"y": tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0 + 1.0, lambda: x - 3.0)}


@model(("x", "f32", [2, 3], signed([2, 3])), ("y", "f32", [2, 4], normal([2, 4])))
def cond_capture():
    w = tf.constant(np.random.default_rng(7).standard_normal((3, 4)).astype(np.float32))

    def f(x, y):
        s = tf.reduce_sum(x)
        return {"out": tf.cond(s > 0, lambda: tf.matmul(x, w) + y, lambda: y * s - tf.matmul(x, w))}
    return f


@model(("x", "f32", [3], signed([3])), ("p", "boolean", [], each([True, False], np.bool_)))
def cond_nested():
    def f(x, p):
        def outer_then():
            return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.exp(x), lambda: tf.abs(x) + 10.0)

        def outer_else():
            return tf.cond(tf.reduce_max(x) > -0.5, lambda: x * x, lambda: -x)
        return {"y": tf.cond(p, outer_then, outer_else)}
    return f


@model(("x", "f32", [2, 3], signed([2, 3])))
def cond_shapes():
    def f(x):
        z = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.concat([x, x * 2.0], axis=1), lambda: x[:, :2])
        return {"z": z, "s": tf.reduce_sum(z, axis=1), "n": tf.shape(z)}
    return f


@model(("x", "f32", [4], signed([4])), ("k", "i32", [], ints(0, 9)))
def cond_multi():
    def f(x, k):
        def a():
            return x + tf.cast(k, tf.float32), k * 2, tf.reduce_any(x > 0.5)

        def b():
            return x * 0.5, k - 1, tf.reduce_all(x < 0.0)
        y, kk, flag = tf.cond(tf.reduce_mean(x) > 0, a, b)
        return {"y": y, "k2": kk, "flag": flag}
    return f


# ── tf.while_loop ───────────────────────────────────────────────────────────────────────────────

@model(("x", "f32", [2, 2], normal([2, 2])))
def while_counter():
    def f(x):
        i, y = tf.while_loop(lambda i, y: i < 10, lambda i, y: (i + 1, y * 0.9 + 1.0), (tf.constant(0), x))
        return {"i": i, "y": y}
    return f


@model(("x", "f32", [3], normal([3])), ("n", "i64", [], each([4, 0, 7], np.int64)))
def while_types():
    def f(x, n):
        def body(i, y, acc64, seen, d):
            return (i + 1, y + tf.cast(i, tf.float32), acc64 + tf.cast(i, tf.int64) * 3, tf.logical_or(seen, tf.reduce_any(y > 2.0)),
                    d * 1.5)
        i, y, acc, seen, d = tf.while_loop(lambda i, y, a, s, d: tf.cast(i, tf.int64) < n, body,
                                           (tf.constant(0), x, tf.constant(5, tf.int64), tf.constant(False), tf.constant(1.0, tf.float64)))
        return {"i": i, "y": y, "acc": acc, "seen": seen, "d": d}
    return f


@model(("x", "f32", [4], lambda rng, k: (np.abs(rng.standard_normal(4)) + 0.5 + k).astype(np.float32)))
def while_data_trip():
    def f(x):
        # the trip count depends on the data: doubles until the sum passes 100
        i, y = tf.while_loop(lambda i, y: tf.reduce_sum(y) < 100.0, lambda i, y: (i + 1, y * 2.0), (tf.constant(0), x))
        return {"i": i, "y": y}
    return f


@model(("x", "f32", [2, 3], normal([2, 3])), ("n", "i32", [], each([3, 6], np.int32)))
def while_unused_carried():
    w = tf.constant(np.random.default_rng(11).standard_normal((3, 3)).astype(np.float32) * 0.5)

    def f(x, n):
        # a carried value the body never reads (passed through), one it reads but never changes, a captured weight
        def body(i, y, passthrough, fixed):
            return i + 1, tf.tanh(tf.matmul(y, w) + fixed), passthrough, fixed
        i, y, p, fx = tf.while_loop(lambda i, y, p, fx: i < n, body, (tf.constant(0), x, x * 3.0, tf.ones([2, 3]) * 0.1))
        return {"y": y, "p": p, "i": i}
    return f


@model(("x", "f32", [3], signed([3])), ("n", "i32", [], each([4, 2], np.int32)))
def while_in_cond():
    def f(x, n):
        def then():
            _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y + tf.cast(i, tf.float32)), (tf.constant(0), x))
            return y

        return {"y": tf.cond(tf.reduce_sum(x) > 0, then, lambda: x * -1.0)}
    return f


@model(("x", "f32", [3], normal([3])))
def cond_in_while():
    def f(x):
        def body(i, y):
            y = tf.cond(tf.equal(i % 2, 0), lambda: y + 1.0, lambda: y * 2.0)
            return i + 1, y
        i, y = tf.while_loop(lambda i, y: i < 5, body, (tf.constant(0), x))
        return {"y": y}
    return f


@model(("x", "f32", [2], normal([2])), ("n", "i32", [], each([3, 1], np.int32)))
def while_nested():
    def f(x, n):
        def outer(i, y):
            _, y = tf.while_loop(lambda j, z: j < i + 1, lambda j, z: (j + 1, z * 0.5 + tf.cast(j, tf.float32)), (tf.constant(0), y))
            return i + 1, y
        _, y = tf.while_loop(lambda i, y: i < n, outer, (tf.constant(0), x))
        return {"y": y}
    return f


@model(("x", "f32", [2, 3], normal([2, 3])))
def while_shape_invariant():
    def f(x):
        # a carried tensor that grows each iteration: shape_invariants [2, None]
        _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.concat([y, y[:, :1] * 2.0], axis=1)), (tf.constant(0), x),
                             shape_invariants=(tf.TensorShape([]), tf.TensorShape([2, None])))
        return {"y": y}
    return f


@model(("x", "f32", [3], signed([3])))
def cond_passthrough():
    def f(x):
        # a branch that returns its input untouched, a branch that returns a constant and reads nothing
        a = tf.cond(tf.reduce_sum(x) > 0, lambda: x, lambda: x * 3.0)
        b = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.constant([1.0, 2.0, 3.0]), lambda: tf.zeros([3]) + 7.0)
        return {"a": a, "b": b}
    return f


@model(("x", "f32", [2, 2], signed([2, 2])), ("y", "f32", [2], normal([2])))
def cond_deep_capture():
    def f(x, y):
        # the innermost branch reads tensors from two levels out
        def outer():
            z = x + 1.0
            return tf.cond(tf.reduce_max(y) > 0, lambda: tf.linalg.matvec(z, y) + tf.reduce_sum(x), lambda: y - tf.reduce_min(z))
        return {"o": tf.cond(tf.reduce_sum(x) > 0, outer, lambda: y * 2.0)}
    return f


@model(("x", "f32", [3], normal([3])), ("k", "i32", [], each([0, 1, 2, 5], np.int32)))
def case_chain():
    def f(x, k):
        return {"y": tf.case([(tf.equal(k, 0), lambda: x + 1.0), (tf.equal(k, 1), lambda: x * 2.0), (tf.less(k, 4), lambda: -x)],
                             default=lambda: x * 0.0 + 9.0)}
    return f


@model(("x", "f32", [3], normal([3])), ("n", "i32", [], each([3, 20], np.int32)))
def while_max_iterations():
    def f(x, n):
        i, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * 1.1 + 0.1), (tf.constant(0), x), maximum_iterations=6)
        return {"i": i, "y": y}
    return f


@model(("x", "f32", [2], normal([2])), ("n", "i32", [], each([5, 0, 2], np.int32)))
def tensor_array_dynamic():
    def f(x, n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[2])
        _, ta = tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, x * tf.cast(i + 1, tf.float32))), (tf.constant(0), ta))
        st = ta.stack()
        return {"stacked": st, "total": tf.reduce_sum(st, axis=0)}
    return f


@model(("x", "f32", [4, 3], signed([4, 3])))
def map_fn_cond():
    def f(x):
        def row(r):
            return tf.cond(tf.reduce_sum(r) > 0, lambda: r * 2.0, lambda: r - 1.0), tf.cast(tf.argmax(r), tf.int32)
        y, idx = tf.map_fn(row, x, fn_output_signature=(tf.float32, tf.int32))
        return {"y": y, "idx": idx}
    return f


@model(("x", "f32", [5, 2], normal([5, 2])))
def scan_reverse_multi():
    def f(x):
        a, b = tf.scan(lambda acc, r: (acc[0] + r, acc[1] * 0.5 + tf.reduce_sum(r)), x, initializer=(tf.zeros([2]), tf.constant(1.0)), reverse=True)
        return {"a": a, "b": b}
    return f


@model(("x", "f32", [2, 3], signed([2, 3])))
def cond_rank():
    # branches of different ranks: the If's output has a dynamic rank
    def f(x):
        z = tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: tf.reshape(x, [6]) + 1.0)
        return {"z": z, "m": tf.reduce_mean(z), "r": tf.rank(z)}
    return f


@model(("x", "f32", [6], signed([6])))
def cond_where():
    # data-dependent shapes inside the branches (tf.where, boolean_mask)
    def f(x):
        z = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.boolean_mask(x, x > 0.5), lambda: tf.cast(tf.where(x < 0.0)[:, 0], tf.float32))
        return {"z": z, "n": tf.size(z)}
    return f


@model(("x", "f32", [5], normal([5])), ("n", "i32", [], each([3, 1], np.int32)))
def while_mask_body():
    # a loop whose body keeps only the positive values and appends their sum: shapes change inside the body
    def f(x, n):
        def body(i, y):
            kept = tf.boolean_mask(y, y > 0.0)
            return i + 1, tf.concat([kept, tf.reshape(tf.reduce_sum(y) * 0.5, [1]), tf.range(tf.cast(i, tf.float32), limit=2.0)], 0)
        _, y = tf.while_loop(lambda i, y: i < n, body, (tf.constant(0), x), shape_invariants=(tf.TensorShape([]), tf.TensorShape([None])))
        return {"y": y}
    return f


@model(("x", "f32", [2, 3], normal([2, 3])))
def while_unknown_rank():
    # a carried value of unknown rank (shape_invariants TensorShape(None))
    def f(x):
        def body(i, y):
            return i + 1, tf.cond(tf.equal(i, 1), lambda: tf.reshape(y, [-1]), lambda: y * 2.0)
        _, y = tf.while_loop(lambda i, y: i < 3, body, (tf.constant(0), x), shape_invariants=(tf.TensorShape([]), tf.TensorShape(None)))
        return {"y": y}
    return f


@model(("x", "f32", [3, 4, 2], normal([3, 4, 2])))
def map_fn_nested():
    def f(x):
        return {"y": tf.map_fn(lambda m: tf.map_fn(lambda r: r * tf.reduce_max(r) + 1.0, m), x)}
    return f


@model(("x", "f32", [3], normal([3])))
def while_const_body():
    # a body that returns a constant for one carried value and never reads it; max iterations only
    def f(x):
        i, c, y = tf.while_loop(lambda i, c, y: True, lambda i, c, y: (i + 1, tf.constant([4.0, 5.0]), y + c[0]),
                                (tf.constant(0), tf.constant([1.0, 2.0]), x), maximum_iterations=4)
        return {"i": i, "c": c, "y": y}
    return f


@model(("x", "f16", [3], lambda rng, k: rng.standard_normal(3).astype(np.float16)), ("b", "u8", [4], ints(0, 200, (4,), np.uint8)))
def while_small_types():
    # carried f16, uint8, int8 and int16 values
    def f(x, b):
        def body(i, y, u, s8, s16):
            return i + 1, y * tf.constant(1.5, tf.float16) - tf.constant(0.25, tf.float16), u + tf.constant(7, tf.uint8), s8 - tf.constant(3, tf.int8), s16 * 3
        i, y, u, s8, s16 = tf.while_loop(lambda i, y, u, s8, s16: i < 4, body,
                                         (tf.constant(0), x, b, tf.constant([5, -7], tf.int8), tf.constant([2, -3, 11], tf.int16)))
        return {"y": y, "u": u, "s8": s8, "s16": s16}
    return f


@model(("x", "f32", [6, 2], normal([6, 2])), ("idx", "i32", [3], lambda rng, k: rng.permutation(6)[:3].astype(np.int32)))
def tensor_array_gather_scatter():
    def f(x, idx):
        ta = tf.TensorArray(tf.float32, size=6).scatter(tf.range(6), x)

        def body(i, ta):
            return i + 1, ta.write(i, ta.read(i) * tf.cast(i + 1, tf.float32))
        _, ta = tf.while_loop(lambda i, ta: i < 6, body, (tf.constant(0), ta))
        return {"picked": ta.gather(idx)}
    return f


@model(("a", "f32", [2], normal([2])), ("b", "f32", [2], normal([2])), ("n", "i32", [], each([3, 4, 0], np.int32)))
def while_swap():
    # carried values that trade places each iteration, one result feeding two carried values
    def f(a, b, n):
        def body(i, x, y, z, w):
            return i + 1, y, x, x + 1.0, x + 1.0
        _, x, y, z, w = tf.while_loop(lambda i, x, y, z, w: i < n, body, (tf.constant(0), a, b, a * 0.0 + 3.0, b * 0.0 - 2.0))
        return {"x": x, "y": y, "z": z, "w": w}
    return f


@model(("x", "f32", [3], signed([3])))
def cond_same_outputs():
    # a branch that returns one tensor twice, the other the input twice
    def f(x):
        a, b = tf.cond(tf.reduce_sum(x) > 0, lambda: (tf.exp(x),) * 2, lambda: (x, x))
        return {"a": a, "b": b * 2.0}
    return f


@model(("x", "f32", [4], normal([4])))
def while_done_flag():
    # `while not done`: the condition is a carried bool the body computes; the body calls a tf.function
    @tf.function
    def step(y):
        return tf.sin(y) + 0.5

    def f(x):
        def body(done, i, y):
            y = step(y)
            return tf.logical_or(tf.reduce_max(tf.abs(y)) > 1.3, i >= 9), i + 1, y
        done, i, y = tf.while_loop(lambda d, i, y: tf.logical_not(d), body, (tf.constant(False), tf.constant(0), x))
        return {"i": i, "y": y}
    return f


@model(("h0", "f32", [1, 6], normal([1, 6])), ("max_len", "i32", [], each([7, 3], np.int32)))
def greedy_decoder():
    # a seq2seq greedy decoder: an embedding lookup and a GRU-like cell per step, argmax, stop at EOS
    # (token 0) or max_len, the tokens in a dynamic TensorArray
    rng = np.random.default_rng(21)
    emb = tf.constant(rng.standard_normal((5, 6)).astype(np.float32))
    wz = tf.constant(rng.standard_normal((12, 6)).astype(np.float32) * 0.5)
    wh = tf.constant(rng.standard_normal((12, 6)).astype(np.float32) * 0.5)
    wo = tf.constant(rng.standard_normal((6, 5)).astype(np.float32))

    def f(h0, max_len):
        def body(i, tok, h, ta, done):
            xh = tf.concat([tf.gather(emb, tok), h], axis=1)
            z = tf.sigmoid(tf.matmul(xh, wz))
            h = z * h + (1.0 - z) * tf.tanh(tf.matmul(xh, wh))
            tok = tf.argmax(tf.matmul(h, wo), axis=1, output_type=tf.int32)
            return i + 1, tok, h, ta.write(i, tok[0]), tf.equal(tok[0], 0)
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        i, _, h, ta, _ = tf.while_loop(lambda i, t, h, ta, d: tf.logical_and(i < max_len, tf.logical_not(d)), body,
                                       (tf.constant(0), tf.constant([1]), h0, ta, tf.constant(False)))
        return {"tokens": ta.stack(), "h": h, "steps": i}
    return f


# ── tf.switch_case ──────────────────────────────────────────────────────────────────────────────

@model(("x", "f32", [3], normal([3])), ("idx", "i32", [], each([1, 2, 0, 7], np.int32)))
def switch_case():
    def f(x, idx):
        return {"y": tf.switch_case(idx, [lambda: x + 1.0, lambda: x * x, lambda: tf.sin(x)])}
    return f


# ── TensorArray, map_fn, scan, foldl ─────────────────────────────────────────────────────────────

@model(("x", "f32", [3], normal([3])))
def tensor_array_write():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=5)
        _, ta, _ = tf.while_loop(lambda i, ta, y: i < 5, lambda i, ta, y: (i + 1, ta.write(i, y * tf.cast(i, tf.float32)), y + 1.0),
                                 (tf.constant(0), ta, x))
        return {"stacked": ta.stack()}
    return f


@model(("x", "f32", [4, 3], normal([4, 3])))
def tensor_array_unstack():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=4).unstack(x)
        out = tf.TensorArray(tf.float32, size=4)

        def body(i, acc, out):
            acc = acc + ta.read(i)
            return i + 1, acc, out.write(i, acc * 2.0)
        _, acc, out = tf.while_loop(lambda i, a, o: i < 4, body, (tf.constant(0), tf.zeros([3]), out))
        return {"acc": acc, "cum": out.stack()}
    return f


@model(("x", "f32", [5, 3], normal([5, 3])))
def map_fn():
    return lambda x: {"y": tf.map_fn(lambda r: r * 2.0 + tf.reduce_sum(r), x)}


@model(("x", "f32", [6, 2], normal([6, 2])))
def scan():
    return lambda x: {"y": tf.scan(lambda a, r: a * 0.5 + r, x, initializer=tf.zeros([2]))}


@model(("x", "f32", [5], normal([5])))
def foldl():
    return lambda x: {"y": tf.foldl(lambda a, v: a * 2.0 + v, x, initializer=tf.constant(0.0))}


# ── keras RNNs (unroll=False: a while loop) ──────────────────────────────────────────────────────

def keras_model(build, seed):
    keras.utils.set_random_seed(seed)
    m = build()

    def f(x):
        return {"y": m(x)}
    f.keep = m  # tracked by the module, so its variables are saved
    return f


@model(("x", "f32", [2, 7, 4], normal([2, 7, 4])))
def keras_lstm():
    return keras_model(lambda: keras.Sequential([keras.Input((7, 4), batch_size=2), keras.layers.LSTM(5, unroll=False)]), 1)


@model(("x", "f32", [2, 6, 3], normal([2, 6, 3])))
def keras_gru_seq():
    return keras_model(lambda: keras.Sequential([keras.Input((6, 3), batch_size=2), keras.layers.GRU(4, return_sequences=True, unroll=False),
                                                 keras.layers.GRU(3, go_backwards=True, unroll=False)]), 2)


@model(("x", "f32", [1, 5, 3], normal([1, 5, 3])))
def keras_simple_rnn():
    return keras_model(lambda: keras.Sequential([keras.Input((5, 3), batch_size=1), keras.layers.SimpleRNN(4, unroll=False)]), 3)


@model(("x", "f32", [2, 5, 3], normal([2, 5, 3])))
def keras_bilstm():
    return keras_model(lambda: keras.Sequential([keras.Input((5, 3), batch_size=2),
                                                 keras.layers.Bidirectional(keras.layers.LSTM(4, return_sequences=True, unroll=False)),
                                                 keras.layers.LSTM(3, unroll=False)]), 6)


@model(("x", "f32", [2, 8, 3], normal([2, 8, 3])))
def keras_conv_gru():
    return keras_model(lambda: keras.Sequential([keras.Input((8, 3), batch_size=2), keras.layers.Conv1D(4, 3, activation="relu"),
                                                 keras.layers.GRU(5, reset_after=False, unroll=False), keras.layers.Dense(2)]), 7)


@model(("ids", "i32", [2, 6], lambda rng, k: np.where(np.arange(6) < [[4 - k], [6]], rng.integers(1, 20, (2, 6)), 0).astype(np.int32)))
def keras_masked_lstm():
    # Embedding(mask_zero) → LSTM: the mask selects the carried state inside the loop
    return keras_model(lambda: keras.Sequential([keras.Input((6,), batch_size=2, dtype="int32"), keras.layers.Embedding(20, 4, mask_zero=True),
                                                 keras.layers.LSTM(3, unroll=False)]), 9)


@model(("x", "f16", [2, 5, 3], lambda rng, k: rng.standard_normal((2, 5, 3)).astype(np.float16)))
def keras_lstm_f16():
    # an f16 model: f16 weights and arithmetic inside the loop body
    return keras_model(lambda: keras.Sequential([keras.Input((5, 3), batch_size=2, dtype="float16"),
                                                 keras.layers.LSTM(4, unroll=False, dtype="float16")]), 10)


@model(("x", "f64", [2, 5, 3], lambda rng, k: rng.standard_normal((2, 5, 3))))
def keras_gru_f64():
    return keras_model(lambda: keras.Sequential([keras.Input((5, 3), batch_size=2, dtype="float64"),
                                                 keras.layers.GRU(4, unroll=False, dtype="float64")]), 11)


# ── dynamic dimensions: the signature leaves them open, the IR keeps them dynamic ─────────────────

@model(("x", "f32", [None, 3], signed([2, 3])))
def dyn_cond():
    return lambda x: {"y": tf.cond(tf.reduce_sum(x) > 0, lambda: tf.concat([x, x], axis=0), lambda: x[:1] * 2.0)}


@model(("x", "f32", [None, None], lambda rng, k: rng.standard_normal((3 + k, 2 + k)).astype(np.float32)))
def dyn_while_rows():
    def f(x):
        n = tf.shape(x)[0]
        ta = tf.TensorArray(tf.float32, size=n)

        def body(i, acc, ta):
            acc = acc * 0.5 + x[i]
            return i + 1, acc, ta.write(i, acc)
        _, acc, ta = tf.while_loop(lambda i, a, t: i < n, body, (tf.constant(0), tf.zeros_like(x[0]), ta))
        return {"acc": acc, "all": ta.stack()}
    return f


@model(("x", "f32", [None, 4], lambda rng, k: rng.standard_normal((2 + 3 * k, 4)).astype(np.float32)))
def dyn_map_fn():
    return lambda x: {"y": tf.map_fn(lambda r: tf.reduce_max(r) - r, x)}


@model(("x", "f32", [None, None, 3], lambda rng, k: rng.standard_normal((1 + k, 4 + 2 * k, 3)).astype(np.float32)))
def dyn_keras_lstm():
    return keras_model(lambda: keras.Sequential([keras.Input((None, 3)), keras.layers.LSTM(4, return_sequences=True, unroll=False),
                                                 keras.layers.GRU(2, unroll=False)]), 8)


# ── plain graphs ─────────────────────────────────────────────────────────────────────────────────

@model(("x", "f32", [1, 16, 16, 3], normal([1, 16, 16, 3])))
def keras_cnn():
    return keras_model(lambda: keras.Sequential([
        keras.Input((16, 16, 3), batch_size=1),
        keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
        keras.layers.BatchNormalization(),
        keras.layers.MaxPooling2D(2),
        keras.layers.DepthwiseConv2D(3, padding="valid"),
        keras.layers.Conv2D(4, 1, strides=2),
        keras.layers.GlobalAveragePooling2D(),
        keras.layers.Dense(3, activation="softmax"),
    ]), 4)


@model(("x", "f32", [3, 10], normal([3, 10])))
def keras_mlp():
    return keras_model(lambda: keras.Sequential([
        keras.Input((10,), batch_size=3),
        keras.layers.Dense(16, activation="gelu"),
        keras.layers.LayerNormalization(),
        keras.layers.Dense(8, activation="tanh"),
        keras.layers.Dropout(0.5),
        keras.layers.Dense(2),
    ]), 5)


# ── TF1 control flow (Switch/Merge, Enter/Exit/NextIteration): a v1 graph saved with simple_save ──

V1_MODELS = {}


def v1_model(*specs):
    def wrap(build):
        V1_MODELS[build.__name__] = (build, specs)
        return build
    return wrap


@v1_model(("x", "f32", [2, 3], signed([2, 3])))
def v1_cond(x):
    return {"y": tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0 + 1.0, lambda: tf.exp(x))}


@v1_model(("x", "f32", [3], normal([3])), ("n", "i32", [], each([4, 0], np.int32)))
def v1_while(x, n):
    i, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * 0.5 + tf.cast(i, tf.float32)), (tf.constant(0), x))
    return {"i": i, "y": y}


@v1_model(("x", "f32", [3], signed([3])))
def v1_cond_in_while(x):
    def body(i, y):
        return i + 1, tf.cond(tf.reduce_sum(y) > 0, lambda: y - 1.0, lambda: y * -2.0)
    _, y = tf.while_loop(lambda i, y: i < 4, body, (tf.constant(0), x))
    return {"y": y}


@v1_model(("x", "f32", [2, 5, 3], normal([2, 5, 3])))
def v1_tensor_array_rnn(x):
    # what tf.compat.v1.nn.dynamic_rnn builds: TensorArrayV3 unstack/read/write in a v1 while loop
    rng = np.random.default_rng(5)
    w = tf.constant(rng.standard_normal((3, 4)).astype(np.float32) * 0.5)
    u = tf.constant(rng.standard_normal((4, 4)).astype(np.float32) * 0.5)
    xs = tf.TensorArray(tf.float32, size=5).unstack(tf.transpose(x, [1, 0, 2]))
    hs = tf.TensorArray(tf.float32, size=5)

    def body(t, h, hs):
        h = tf.tanh(tf.matmul(xs.read(t), w) + tf.matmul(h, u))
        return t + 1, h, hs.write(t, h)
    _, h, hs = tf.while_loop(lambda t, h, hs: t < 5, body, (tf.constant(0), tf.zeros([2, 4]), hs))
    return {"out": tf.transpose(hs.stack(), [1, 0, 2]), "state": h}


def write_tensor(d, fname, arr, tensors):
    arr = np.asarray(arr)  # not ascontiguousarray: that makes a scalar 1-d
    dt = DT[arr.dtype.type]
    with open(os.path.join(d, fname), "wb") as fh:
        fh.write(arr.astype(arr.dtype.newbyteorder("<"), copy=False).tobytes(order="C"))
    tensors[fname] = {"dtype": dt, "shape": list(arr.shape)}


def generate(name, out_root):
    make, specs = MODELS[name]
    d = os.path.join(out_root, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    fn = make()
    sig = [tf.TensorSpec(shape, TF_DT[dt], name=n) for n, dt, shape, _ in specs]

    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.fn = fn
            self.keep = getattr(fn, "keep", None)

        @tf.function(input_signature=sig)
        def __call__(self, *args):
            return self.fn(*args)
    m = M()
    sm = os.path.join(d, "saved_model")
    tf.saved_model.save(m, sm, signatures=m.__call__.get_concrete_function())
    serve = tf.saved_model.load(sm).signatures["serving_default"]
    names = list(serve.structured_outputs.keys())
    write_sets(d, name, specs, names, lambda feeds: {n: v.numpy() for n, v in serve(**{k: tf.constant(a) for k, a in feeds.items()}).items()})


def generate_v1(name, out_root):
    build, specs = V1_MODELS[name]
    d = os.path.join(out_root, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    tf.compat.v1.disable_control_flow_v2()
    g = tf.Graph()
    try:
        with g.as_default():
            tf.compat.v1.set_random_seed(sum(map(ord, name)))
            phs = {n: tf.compat.v1.placeholder(TF_DT[dt], shape, name=n) for n, dt, shape, _ in specs}
            outs = build(**phs)
            names = list(outs.keys())
            with tf.compat.v1.Session(graph=g) as sess:
                sess.run(tf.compat.v1.global_variables_initializer())
                tf.compat.v1.saved_model.simple_save(sess, os.path.join(d, "saved_model"), phs, outs)
                write_sets(d, name, specs, names, lambda feeds: dict(zip(names, sess.run([outs[n] for n in names], {phs[n]: v for n, v in feeds.items()}))))
    finally:
        tf.compat.v1.enable_control_flow_v2()


def write_sets(d, name, specs, names, run):
    sets, tensors = [], {}
    seed = sum(map(ord, name))
    for k in range(max([2] + [getattr(s[3], "sets", 2) for s in specs])):
        rng = np.random.default_rng(seed * 10 + k)
        feeds = {n: gen(rng, k) for n, _, _, gen in specs}
        got = run(feeds)
        s = {"inputs": {}, "outputs": {}}
        for n, v in feeds.items():
            f = f"set{k}-in-{n}.bin"
            write_tensor(d, f, v, tensors)
            s["inputs"][n] = f
        for n in names:
            f = f"set{k}-out-{n}.bin"
            write_tensor(d, f, np.asarray(got[n]), tensors)
            s["outputs"][n] = f
        sets.append(s)
    with open(os.path.join(d, "io.json"), "w") as fh:
        json.dump({"inputs": [{"name": n, "dtype": dt, "shape": shape} for n, dt, shape, _ in specs], "outputs": names,
                   "sets": sets, "tensors": tensors, "tensorflow": tf.__version__, "keras": keras.__version__}, fh, indent=1)


# Models also written as frozen graphs (convert_variables_to_constants_v2 of the serving signature):
# the frontend reads a GraphDef whose control flow sits in its function library, named by tensors
# (x:0 in, Identity:0 out).
FROZEN = ["cond_nested", "cond_multi", "while_types", "while_unused_carried", "tensor_array_unstack", "map_fn_cond", "keras_lstm",
          "greedy_decoder", "dyn_while_rows"]


def freeze(name, out_root):
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    src = os.path.join(out_root, name)
    d = os.path.join(out_root, f"{name}_frozen")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    loaded = tf.saved_model.load(os.path.join(src, "saved_model"))  # kept: the signature reads its variables
    frozen = convert_variables_to_constants_v2(loaded.signatures["serving_default"])
    tf.io.write_graph(frozen.graph.as_graph_def(), d, "frozen.pb", as_text=False)
    with open(os.path.join(src, "io.json")) as fh:
        io = json.load(fh)
    # the frozen outputs are the signature's, flattened in the order of their sorted keys
    outs = dict(zip(sorted(io["outputs"]), [t.name for t in frozen.outputs]))
    ins = {t.name.split(":")[0]: t.name for t in frozen.inputs}
    for f in io["tensors"]:
        shutil.copy(os.path.join(src, f), os.path.join(d, f))
    io["inputs"] = [{**i, "name": ins[i["name"]]} for i in io["inputs"]]
    io["outputs"] = [outs[n] for n in sorted(io["outputs"])]
    io["sets"] = [{"inputs": {ins[n]: f for n, f in st["inputs"].items()}, "outputs": {outs[n]: st["outputs"][n] for n in sorted(st["outputs"])}}
                  for st in io["sets"]]
    with open(os.path.join(d, "io.json"), "w") as fh:
        json.dump(io, fh, indent=1)


def main():
    out = sys.argv[1]
    only = sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    for name in [*MODELS, *V1_MODELS]:
        if only and name not in only:
            continue
        (generate if name in MODELS else generate_v1)(name, out)
        print("wrote", name)
        if name in FROZEN:
            freeze(name, out)
            print("wrote", f"{name}_frozen")


if __name__ == "__main__":
    main()
