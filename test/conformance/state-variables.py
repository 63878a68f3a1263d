"""Stateful OpenVINO IRs (ReadValue / Assign) for state-variables.test.ts.

`build DIR`: writes each case's IR (OpenVINO's Python API builds and serializes it) as DIR/<name>.xml
and prints {name: {inputs: {name: shape}}} as JSON.
`judge DIR`: for each case with a DIR/<name>.onnx (ovir's conversion) and DIR/<name>.back.xml (that
ONNX converted back, stateful again), runs three inference calls of OpenVINO on the stateful IR and
on the round trip (one infer request each: the state carries over) and of onnxruntime on
the ONNX, feeding each call's `<variable>.next` outputs to the next call's `<variable>` inputs (the
first call: OpenVINO's initial value, which the case states and ovir's warning names), and
prints {name: null | "what differs"} as JSON: every model output and every variable's value after
each call must agree (f32 rtol 1e-4, atol 1e-5).
"""
import json
import sys

import numpy as np
import openvino as ov
import openvino.opset3 as o3
import openvino.opset13 as o
from openvino.op.util import Variable, VariableInfo

mode, out = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(11)


def variable(vid, shape, dtype=ov.Type.f32):
    info = VariableInfo()
    info.data_shape = ov.PartialShape(shape)
    info.data_type = dtype
    info.variable_id = vid
    return Variable(info)


def param(name, shape):
    p = o.parameter(shape, np.float32, name=name)
    p.output(0).get_tensor().set_names({name})
    return p


def result(node, name):
    r = o.result(node)
    r.output(0).get_tensor().set_names({name})
    return r


CASES = {}
# the initial value a caller gives (variables whose initial value has no constant form), per case
INITIAL = {}


def case(name, shapes, initial=None):
    def register(fn):
        CASES[name] = (fn, shapes)
        INITIAL[name] = initial or {}
        return fn
    return register


ACC0 = rng.standard_normal([2, 3]).astype(np.float32)
C0 = np.array([1.5, -2.25, 0.125, 8], np.float16)


@case("accumulate_const_init", {"x": [2, 3]}, {"acc": ACC0})
def _():
    # state = init (a constant) on the first call, then state + x each call
    x = param("x", [2, 3])
    var = variable("acc", [2, 3])
    rv = o.read_value(o.constant(ACC0), var)
    s = o.add(rv, x)
    return ov.Model([result(o.multiply(s, np.float32(0.5)), "y")], [o.assign(s, var)], [x], "accumulate")


@case("compressed_init", {"x": [4]}, {"c": C0.astype(np.float32)})
def _():
    # the init is an f16 constant and a Convert (as ovc's compress_to_fp16 writes constants)
    x = param("x", [4])
    var = variable("c", [4])
    init = o.convert(o.constant(C0), ov.Type.f32)
    rv = o.read_value(init, var)
    s = o.subtract(x, rv)
    return ov.Model([result(s, "y")], [o.assign(s, var)], [x], "compressed")


@case("no_init_zeros", {"x": [1, 5]}, {"z": np.zeros([1, 5], np.float32)})
def _():
    # ReadValue-6 without an init input: OpenVINO starts from zeros of the variable's shape
    x = param("x", [1, 5])
    var = variable("z", [1, 5])
    rv = o.read_value(var)
    s = o.add(o.multiply(rv, np.float32(0.9)), x)
    return ov.Model([result(o.relu(s), "y")], [o.assign(s, var)], [x], "no_init")


@case("two_variables", {"x": [3]}, {"a": np.array([1, 2, 3], np.float32), "b": np.array([-1, 0, 1], np.float32)})
def _():
    # two variables that feed each other: a's new value reads b, b's reads a
    # (OpenVINO's CPU plugin runs one ReadValue per variable: "doesn't have sibling output")
    x = param("x", [3])
    va = variable("a", [3])
    vb = variable("b", [3])
    ra = o.read_value(o.constant(np.array([1, 2, 3], np.float32)), va)
    rb = o.read_value(o.constant(np.array([-1, 0, 1], np.float32)), vb)
    new_a = o.add(rb, x)
    new_b = o.multiply(ra, np.float32(0.5))
    y = o.concat([ra, rb], 0)
    return ov.Model([result(y, "y")], [o.assign(new_a, va), o.assign(new_b, vb)], [x], "two_vars")


@case("read_value_v3", {"x": [2, 2]}, {"m": np.eye(2, dtype=np.float32)})
def _():
    # ReadValue-3 / Assign-3 (variable_id only; the variable typed by the init input)
    x = param("x", [2, 2])
    rv = o3.read_value(o.constant(np.eye(2, dtype=np.float32)), "m")
    prod = o.matmul(rv, x, False, False)
    asg = o3.assign(prod, "m")
    return ov.Model([result(prod, "y")], [asg], [x], "v3")


def inputs_for(shapes, step):
    return {k: np.random.default_rng(100 * step + i).standard_normal(s).astype(np.float32) for i, (k, s) in enumerate(shapes.items())}


def close(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return f"shape {list(a.shape)} vs {list(b.shape)}"
    if not np.allclose(a, b, rtol=1e-4, atol=1e-5):
        return f"max |d| {np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)))}"
    return None


def judge(name, shapes):
    import onnx
    import onnxruntime as ort
    model = onnx.load(f"{out}/{name}.onnx")
    pairs = json.loads({p.key: p.value for p in model.metadata_props}["ovir.state_variables"])
    sess = ort.InferenceSession(f"{out}/{name}.onnx", providers=["CPUExecutionProvider"])
    # f32 throughout, as the oracle bridge runs OpenVINO (scripts/oracle.py): the CPU plugin would
    # otherwise compute in bf16 on machines that have it
    req = ov.Core().compile_model(f"{out}/{name}.xml", "CPU", {"INFERENCE_PRECISION_HINT": "f32"}).create_infer_request()
    state = {p["input"]: INITIAL[name][p["variable_id"]] for p in pairs if p["input"]}
    back = ov.Core().compile_model(f"{out}/{name}.back.xml", "CPU", {"INFERENCE_PRECISION_HINT": "f32"}).create_infer_request()
    onnx_outputs = [o.name for o in sess.get_outputs()]
    for step in range(3):
        feeds = inputs_for(shapes, step)
        want = req.infer(feeds)
        want_by_name = {next(iter(k.get_names())): v for k, v in want.items()}
        # the round trip IR -> ONNX -> IR is stateful again: the same outputs and states
        # every name of each output (OpenVINO may merge an Identity's names into the tensor)
        again = {n: v for k, v in back.infer(feeds).items() for n in k.get_names()}
        for k, v in want_by_name.items():
            d = close(again.get(k), v) if k in again else "missing"
            if d:
                return f"call {step}: IR -> ONNX -> IR output {k}: {d}"
        back_states = {s.name: s.state.data.copy() for s in back.query_state()}
        got = dict(zip(onnx_outputs, sess.run(None, {**feeds, **state})))
        for k, v in want_by_name.items():
            d = close(got.get(k), v) if k in got else "missing"
            if d:
                return f"call {step}: output {k}: {d}"
        ov_states = {s.name: s.state.data.copy() for s in req.query_state()}
        if set(back_states) != set(ov_states):
            return f"call {step}: IR -> ONNX -> IR variables {sorted(back_states)}, expected {sorted(ov_states)}"
        for k, v in ov_states.items():
            d = close(back_states[k], v)
            if d:
                return f"call {step}: IR -> ONNX -> IR variable {k}: {d}"
        for p in pairs:
            if not p["output"]:
                continue
            d = close(got[p["output"]], ov_states[p["variable_id"]])
            if d:
                return f"call {step}: variable {p['variable_id']}: {d}"
        state = {p["input"]: got[p["output"]] for p in pairs if p["input"] and p["output"]}
    return None


if mode == "build":
    listing = {}
    for name, (fn, shapes) in CASES.items():
        ov.save_model(fn(), f"{out}/{name}.xml", compress_to_fp16=False)
        listing[name] = {"inputs": shapes}
    print(json.dumps(listing))
else:
    verdicts = {}
    for name, (_, shapes) in CASES.items():
        try:
            verdicts[name] = judge(name, shapes)
        except Exception as e:  # noqa: BLE001 - reported as the case's verdict
            verdicts[name] = f"{type(e).__name__}: {str(e).strip().splitlines()[-1] if str(e).strip() else ''}"
    print(json.dumps(verdicts))
