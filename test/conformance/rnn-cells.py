"""Builds the IRs of test/conformance/rnn-cells.test.ts with OpenVINO's own Python API.

Usage: rnn-cells.py OUT_DIR  → writes OUT_DIR/<case>.xml/.bin and prints one JSON list:
[{"name", "xml", "inputs": {name: shape}, "refused": bool}].

Cells: LSTMCell-4, LSTMCell-1 (zero peepholes, as OpenVINO writes it by default), GRUCell-3 and
RNNCell-0, standalone and inside a TensorIterator body (X sliced along the sequence axis, H/C
merged with back edges, Ho of every step concatenated: the classic layout of Model Optimizer's
IRs), with every activation set the CPU plugin runs, clip, linear_before_reset, dynamic batch and
run-time weights. `refused` cases are IRs ovir must refuse with a coded diagnostic (LSTMCell-1
peepholes, input_forget, weights_format, hardsigmoid: OpenVINO ignores or cannot compile them).
"""
import json
import os
import sys

import numpy as np
import openvino as ov
import openvino.opset1 as o1
import openvino.opset3 as o3
import openvino.opset4 as o4
from openvino import op as ovop
from openvino.utils.node_factory import NodeFactory

OUT = sys.argv[1]
B, T, I, H = 2, 4, 3, 5
rng = np.random.default_rng(7)
cases = []


def const(*shape):
    return o1.constant((rng.standard_normal(shape) * 0.8).astype(np.float32))


GATES = {"lstm4": 4, "lstm1": 4, "gru": 3, "rnn": 1}


def make_cell(kind, x, h, c, weights, opts):
    """weights: W, R, B nodes (constants or parameters)."""
    w, r, b = weights
    acts = opts.get("acts")
    alpha = opts.get("alpha", [])
    beta = opts.get("beta", [])
    clip = opts.get("clip", 0.0)
    if kind == "lstm4":
        return o4.lstm_cell(x, h, c, w, r, b, H, activations=acts or ["sigmoid", "tanh", "tanh"],
                            activations_alpha=alpha, activations_beta=beta, clip=clip)
    if kind == "lstm1":
        inputs = [x, h, c, w, r, b]  # OpenVINO's serializer writes no peepholes input
        attrs = {"hidden_size": H, "activations": acts or ["sigmoid", "tanh", "tanh"], "activations_alpha": alpha,
                 "activations_beta": beta, "clip": clip, "input_forget": opts.get("input_forget", False),
                 "weights_format": opts.get("weights_format", "fico")}
        return NodeFactory("opset1").create("LSTMCell", inputs, attrs)
    if kind == "gru":
        return o3.gru_cell(x, h, w, r, b, H, activations=acts or ["sigmoid", "tanh"], activations_alpha=alpha,
                           activations_beta=beta, clip=clip, linear_before_reset=opts.get("lbr", False))
    return o3.rnn_cell(x, h, w, r, b, H, acts or ["tanh"], alpha, beta, clip)


def weights(kind, opts, params):
    g = GATES[kind]
    nb = g + 1 if opts.get("lbr") else g
    shapes = {"W": [g * H, I], "R": [g * H, H], "B": [nb * H]}
    out = []
    for n in ("W", "R", "B"):
        if n in opts.get("runtime", ()):
            p = o1.parameter(shapes[n], np.float32, name=n)
            params.append(p)
            out.append(p)
        else:
            out.append(const(*shapes[n]))
    return out


def save(name, outputs, params, refused=False):
    path = os.path.join(OUT, f"{name}.xml")
    ov.save_model(ov.Model(outputs, params, name), path, compress_to_fp16=False)
    shapes = {p.get_friendly_name(): [d.get_length() if d.is_static else B for d in p.get_partial_shape()] for p in params}
    cases.append({"name": name, "xml": path, "inputs": shapes, "refused": refused})


def standalone(name, kind, opts, refused=False):
    batch = -1 if opts.get("dynamic") else B
    x = o1.parameter([batch, I], np.float32, name="x")
    h = o1.parameter([batch, H], np.float32, name="h")
    params = [x, h]
    c = None
    if kind.startswith("lstm"):
        c = o1.parameter([batch, H], np.float32, name="c")
        params.append(c)
    cell = make_cell(kind, x, h, c, weights(kind, opts, params), opts)
    save(name, [cell.output(k) for k in range(len(cell.outputs()))], params, refused)


def in_tensor_iterator(name, kind, opts):
    """X [batch, T, input] sliced along 1 (seq_major: [T, batch, input] along 0; reverse: stride -1)."""
    axis = 0 if opts.get("seq_major") else 1
    xshape = [T, B, I] if axis == 0 else [B, T, I]
    X = o1.parameter(xshape, np.float32, name="X")
    H0 = o1.parameter([B, H], np.float32, name="H0")
    outer = [X, H0]
    lstm = kind.startswith("lstm")
    if lstm:
        C0 = o1.parameter([B, H], np.float32, name="C0")
        outer.append(C0)
    part = [1, B, I] if axis == 0 else [B, 1, I]
    xi = o1.parameter(part, np.float32, name="xi")
    hi = o1.parameter([B, H], np.float32, name="hi")
    body_params = [xi, hi]
    ci = None
    if lstm:
        ci = o1.parameter([B, H], np.float32, name="ci")
        body_params.append(ci)
    x = o1.squeeze(xi, o1.constant(np.array([axis], np.int64)))
    cell = make_cell(kind, x, hi, ci, weights(kind, opts, []), opts)
    ho = o1.result(cell.output(0))
    results = [ho]
    co = None
    if lstm:
        co = o1.result(cell.output(1))
        results.append(co)
    yo = o1.result(o1.unsqueeze(cell.output(0), o1.constant(np.array([axis], np.int64))))
    results.append(yo)
    ti = ovop.tensor_iterator()
    ti.set_body(ov.Model(results, body_params, "body"))
    start, stride, end = (-1, -1, 0) if opts.get("reverse") else (0, 1, -1)
    ti.set_sliced_input(xi, X.output(0), start, stride, 1, end, axis)
    ti.set_merged_input(hi, H0.output(0), ho.output(0))
    if lstm:
        ti.set_merged_input(ci, C0.output(0), co.output(0))
    outs = [ti.get_iter_value(ho.output(0), -1)]
    if lstm:
        outs.append(ti.get_iter_value(co.output(0), -1))
    outs.append(ti.get_concatenated_slices(yo.output(0), start, stride, 1, end, axis))
    save(name, outs, outer)


LSTM_ACTS = [["sigmoid", "tanh", "tanh"], ["tanh", "relu", "sigmoid"], ["relu", "sigmoid", "relu"]]
for k, acts in enumerate(LSTM_ACTS):
    standalone(f"lstm4-acts{k}", "lstm4", {"acts": acts})
standalone("lstm4-clip", "lstm4", {"clip": 0.6, "alpha": [0.3, 0.2, 0.1], "beta": [0.1, 0.2, 0.3]})
standalone("lstm4-dynamic-batch", "lstm4", {"dynamic": True})
standalone("lstm4-runtime-weights", "lstm4", {"runtime": ("W", "R", "B")})
standalone("lstm1", "lstm1", {})
standalone("lstm1-no-peepholes-clip", "lstm1", {"clip": 0.9, "acts": ["sigmoid", "relu", "tanh"]})
for k, acts in enumerate([["sigmoid", "tanh"], ["relu", "sigmoid"], ["tanh", "tanh"]]):
    standalone(f"gru-acts{k}", "gru", {"acts": acts})
    standalone(f"gru-lbr-acts{k}", "gru", {"acts": acts, "lbr": True})
standalone("gru-clip", "gru", {"clip": 0.5})
standalone("gru-lbr-clip-dynamic-batch", "gru", {"lbr": True, "clip": 0.7, "dynamic": True})
standalone("gru-runtime-weights", "gru", {"runtime": ("W", "R", "B")})
standalone("gru-lbr-runtime-bias", "gru", {"lbr": True, "runtime": ("B",)})
for acts in ["tanh", "relu", "sigmoid"]:
    standalone(f"rnn-{acts}", "rnn", {"acts": [acts]})
standalone("rnn-clip", "rnn", {"clip": 0.4})
standalone("rnn-runtime-weights", "rnn", {"runtime": ("W", "R", "B")})

in_tensor_iterator("ti-lstm4", "lstm4", {})
in_tensor_iterator("ti-lstm4-seq-major", "lstm4", {"seq_major": True})
in_tensor_iterator("ti-lstm4-reverse", "lstm4", {"reverse": True})
in_tensor_iterator("ti-lstm4-clip", "lstm4", {"clip": 0.5})
in_tensor_iterator("ti-lstm4-acts", "lstm4", {"acts": ["sigmoid", "relu", "tanh"]})
in_tensor_iterator("ti-gru-clip-acts", "gru", {"clip": 0.5, "acts": ["relu", "tanh"]})
in_tensor_iterator("ti-lstm1", "lstm1", {})
in_tensor_iterator("ti-gru", "gru", {})
in_tensor_iterator("ti-gru-lbr-reverse", "gru", {"lbr": True, "reverse": True})
in_tensor_iterator("ti-rnn", "rnn", {"acts": ["relu"]})
in_tensor_iterator("ti-rnn-seq-major-reverse", "rnn", {"seq_major": True, "reverse": True})

standalone("refused-lstm1-input-forget", "lstm1", {"input_forget": True}, refused=True)
standalone("refused-lstm1-weights-format", "lstm1", {"weights_format": "iofc"}, refused=True)
standalone("refused-lstm4-hardsigmoid", "lstm4", {"acts": ["hardsigmoid", "tanh", "tanh"], "alpha": [0.2], "beta": [0.5]}, refused=True)

print(json.dumps(cases))
