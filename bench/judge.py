"""Judges a bench model's conversions by the engines (bench/compare.js --judge; the oracle venv).

python bench/judge.py ORIGINAL.onnx OVIR.xml OVIR_BACK.onnx

onnxruntime runs the original on random inputs (every graph input must have a static shape and a
float or bool type); OpenVINO (CPU, f32 inference) runs ovir's IR and onnxruntime runs ovir's IR converted
back to ONNX on the same inputs. Prints one JSON line: per form, whether every output equals the
original's (rtol 1e-4, atol 1e-6) and the largest absolute difference. Exit 0 when both agree, 1
when one does not, 2 when the models cannot be run (the reason in "error").

onnxruntime reads ONNX IR versions up to 13: a model written with a later one (onnx's helpers
write 14) is run from a copy with IR version 8, written beside it (its external data stays where
it is), and removed afterwards.
"""
import json
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
import openvino as ov

ORT_MAX_IR_VERSION = 13


def session(path):
    m = onnx.load(path, load_external_data=False)
    if m.ir_version <= ORT_MAX_IR_VERSION:
        return ort.InferenceSession(path, providers=["CPUExecutionProvider"]), m
    m.ir_version = 8
    copy = path + ".ir8.onnx"
    onnx.save(m, copy)
    try:
        return ort.InferenceSession(copy, providers=["CPUExecutionProvider"]), m
    finally:
        os.remove(copy)


def inputs_of(m):
    rng = np.random.default_rng(1)
    feeds = {}
    for vi in m.graph.input:
        t = vi.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]
        if None in dims:
            raise ValueError(f"input {vi.name} has a dynamic shape")
        dtype = onnx.helper.tensor_dtype_to_np_dtype(t.elem_type)
        if dtype.kind == "f":
            feeds[vi.name] = rng.standard_normal(dims).astype(dtype)
        elif dtype.kind == "b":
            feeds[vi.name] = np.asarray(rng.integers(0, 2, dims).astype(bool))
        else:
            raise ValueError(f"input {vi.name} is neither a float nor a bool tensor")
    return feeds


def agree(got, want):
    worst = 0.0
    ok = True
    for name, y in want.items():
        g = got.get(name)
        if g is None or g.shape != y.shape:
            return False, None
        worst = max(worst, float(np.max(np.abs(g.astype(np.float64) - y))) if y.size else 0.0)
        ok = ok and bool(np.allclose(g, y, rtol=1e-4, atol=1e-6))
    return ok, worst


def main(original, xml, back):
    try:
        ref_sess, m = session(original)
        feeds = inputs_of(m)
        names = [o.name for o in ref_sess.get_outputs()]
        want = dict(zip(names, (np.asarray(y, dtype=np.float64) for y in ref_sess.run(None, feeds))))
        core = ov.Core()
        cm = core.compile_model(core.read_model(xml), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        res = cm(feeds)
        got_ir = {}
        for out in cm.outputs:
            for n in out.get_names():
                got_ir[n] = np.asarray(res[out])
        back_sess, _ = session(back)
        got_back = dict(zip([o.name for o in back_sess.get_outputs()], back_sess.run(None, feeds)))
    except Exception as e:  # the models could not be run: say why
        print(json.dumps({"ok": False, "error": f"{type(e).__name__}: {e}"[:300]}))
        return 2
    ir_ok, ir_worst = agree(got_ir, want)
    back_ok, back_worst = agree(got_back, want)
    print(json.dumps({"ok": ir_ok and back_ok, "openvino_ir": {"ok": ir_ok, "max_abs_diff": ir_worst},
                      "onnxruntime_back": {"ok": back_ok, "max_abs_diff": back_worst}}))
    return 0 if ir_ok and back_ok else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
