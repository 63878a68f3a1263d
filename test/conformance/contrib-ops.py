"""Builds the ONNX models of test/conformance/contrib-ops.test.ts: onnxruntime's com.microsoft
quantization contrib ops as quantize_static / quantize_dynamic write them (QLinear* ops, quantized
matmuls, MatMulNBits, GatherBlockQuantized, DynamicQuantizeLSTM, QLinearReduceMean, QAttention,
QEmbedLayerNormalization), with seeded inputs.

Usage: contrib-ops.py OUT_DIR → writes OUT_DIR/<case>.onnx and prints one JSON list:
[{"name", "onnx", "inputs": {name: {"dtype", "shape", "hex"}}, "refused": bool, "ties": hex | null,
"reference": path | null, "expected"?: [{"dtype", "shape", "hex"}]}] (`reference`: the model whose onnxruntime outputs are
expected, when not the case's own; MatMulNBits accuracy_level 4 only, see below; `expected`: the outputs computed here in
numpy from the op's definition, for an op onnxruntime's CPU EP has no kernel for — QLinearReduceMean — the reference the
conversion is judged against instead).

`ties` (quantized outputs of the QLinear* ops): one byte per element of output 0, 1 where the
value before rounding, computed by a float twin of the model in standard ops (DequantizeLinear,
the float op, Div by y_scale, Add y_zero_point) in onnxruntime or by numpy in float64, lies within
1e-3 of a half (x.5): there two float computations of the same formula may round to neighbours, and an
off-by-one is a rounding difference, not a wrong conversion.
"""
import json
import os
import sys

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
MS = "com.microsoft"
cases = []
rng = np.random.default_rng(20261128)

NP = {np.float32: TensorProto.FLOAT, np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8, np.int32: TensorProto.INT32, np.float16: TensorProto.FLOAT16,
      np.uint16: TensorProto.UINT16, np.int16: TensorProto.INT16}
WIRE = {np.bool_: "boolean", np.float32: "f32", np.uint8: "u8", np.int8: "i8", np.int32: "i32", np.float16: "f16", np.uint16: "u16", np.int16: "i16"}


def wire(a):
    return {"dtype": WIRE[a.dtype.type], "shape": list(a.shape), "hex": np.ascontiguousarray(a).tobytes().hex()}


def qdata(dtype, shape):
    lo, hi = (0, 256) if dtype == np.uint8 else (-128, 128)
    return rng.integers(lo, hi, size=shape).astype(dtype)


def zp(dtype, v=None):
    if v is None:
        v = int(rng.integers(100, 156)) if dtype == np.uint8 else int(rng.integers(-20, 21))
    return np.array(v, dtype=dtype)


def scale(lo=0.005, hi=0.05):
    return np.array(rng.uniform(lo, hi), dtype=np.float32)


def model(nodes, inputs, out_elem, inits, opset_ms=1, out_shape=None):
    ins = [helper.make_tensor_value_info(k, NP[v.dtype.type], list(v.shape)) for k, v in inputs.items()]
    outs = [helper.make_tensor_value_info("Y", out_elem, out_shape)]
    g = helper.make_graph(nodes, "g", ins, outs, [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, opset_ms)])
    m.ir_version = 8
    return m


def run(m, inputs):
    s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return s.run(None, inputs)


def save(name, m, inputs, refused=False, twin=None, before_rounding=None, reference=None, expected=None):
    path = os.path.join(OUT, name + ".onnx")
    with open(path, "wb") as f:
        f.write(m.SerializeToString())
    ref_path = None
    if reference is not None:
        ref_path = os.path.join(OUT, name + ".reference.onnx")
        with open(ref_path, "wb") as f:
            f.write(reference.SerializeToString())
    ties = None
    if before_rounding is not None:
        v = np.asarray(before_rounding, np.float64)
        ties = (np.abs(v - np.floor(v) - 0.5) < 1e-3).astype(np.uint8).tobytes().hex()
    if twin is not None:
        try:
            v = run(twin, inputs)[0].astype(np.float64)
            ties = (np.abs(v - np.floor(v) - 0.5) < 1e-3).astype(np.uint8).tobytes().hex()
        except Exception as e:  # the twin is a harness aid: without it no off-by-one is accepted
            print(f"twin of {name}: {e}", file=sys.stderr)
    case = {"name": name, "onnx": path, "inputs": {k: wire(v) for k, v in inputs.items()}, "refused": refused, "ties": ties, "reference": ref_path}
    if expected is not None:
        case["expected"] = [wire(a) for a in expected]
    cases.append(case)


def deq(x, s, z, out):
    return helper.make_node("DequantizeLinear", [x, s, z] if z else [x, s], [out])


def twin_model(pre_nodes, float_nodes, y_float, inputs, inits, y_scale, y_zp):
    """Standard ops: dequantize, the float op, then y / y_scale + y_zp (no rounding)."""
    nodes = pre_nodes + float_nodes + [
        helper.make_node("Div", [y_float, y_scale], ["tw_div"]),
        helper.make_node("Cast", [y_zp], ["tw_zp"], to=TensorProto.FLOAT) if y_zp else helper.make_node("Constant", [], ["tw_zp"], value=numpy_helper.from_array(np.array(0, np.float32))),
        helper.make_node("Add", ["tw_div", "tw_zp"], ["Y"]),
    ]
    return model(nodes, inputs, TensorProto.FLOAT, inits)


# ── QLinearAdd / QLinearMul ────────────────────────────────────────────────────────────────────
for op, fop in [("QLinearAdd", "Add"), ("QLinearMul", "Mul")]:
    for dt in (np.uint8, np.int8):
        # an absent A_zero_point / B_zero_point: onnxruntime 1.31 refuses the model ("[TypeInferenceError] Input
        # data type does not match"), so only the trailing C_zero_point is left out
        for variant in ("same", "broadcast", "no_c_zp"):
            sa, sb = (scale(0.01, 0.05), scale(0.01, 0.05)) if op == "QLinearAdd" else (scale(0.02, 0.08), scale(0.02, 0.08))
            sc = scale(0.02, 0.1) if op == "QLinearAdd" else scale(0.05, 0.4)
            shape_a, shape_b = ([2, 3, 8], [2, 3, 8]) if variant != "broadcast" else ([2, 3, 8], [3, 1])
            inputs = {"A": qdata(dt, shape_a), "B": qdata(dt, shape_b)}
            inits = {"a_s": sa, "b_s": sb, "c_s": sc}
            za = zb = zc = None
            if variant != "no_zps":
                inits.update({"a_zp": zp(dt), "b_zp": zp(dt)})
                za, zb = "a_zp", "b_zp"
            if variant not in ("no_c_zp", "no_zps"):
                inits["c_zp"] = zp(dt)
                zc = "c_zp"
            ins = ["A", "a_s", za or "", "B", "b_s", zb or ""] + ["c_s"] + ([zc] if zc else [])
            node = helper.make_node(op, ins, ["Y"], domain=MS)
            m = model([node], inputs, NP[dt], inits)
            twin = twin_model([deq("A", "a_s", za, "fa"), deq("B", "b_s", zb, "fb")], [helper.make_node(fop, ["fa", "fb"], ["fy"])], "fy", inputs, inits, "c_s", zc)
            save(f"{op}_{WIRE[dt]}_{variant}", m, inputs, twin=twin)

# ── QLinearSigmoid / QLinearLeakyRelu ──────────────────────────────────────────────────────────
for op in ("QLinearSigmoid", "QLinearLeakyRelu"):
    for dt in (np.uint8, np.int8):
        for variant in ("zps", "no_zps"):
            inputs = {"X": qdata(dt, [2, 4, 16])}
            ys = scale(1 / 256, 1 / 200) if op == "QLinearSigmoid" else scale(0.01, 0.05)
            inits = {"x_s": scale(0.02, 0.06), "y_s": ys}
            zx = zy = None
            if variant == "zps":
                inits.update({"x_zp": zp(dt), "y_zp": zp(dt, 0 if (op == "QLinearSigmoid" and dt == np.uint8) else None)})
                zx, zy = "x_zp", "y_zp"
            attrs = {"alpha": 0.1} if (op == "QLinearLeakyRelu" and variant == "zps") else {}
            # no zero points: both named empty (onnxruntime 1.31 aborts on a node of 4 inputs, Y_zero_point not written)
            node = helper.make_node(op, ["X", "x_s", zx or "", "y_s", zy or ""], ["Y"], domain=MS, **attrs)
            m = model([node], inputs, NP[dt], inits)
            fnode = helper.make_node("Sigmoid", ["fx"], ["fy"]) if op == "QLinearSigmoid" else helper.make_node("LeakyRelu", ["fx"], ["fy"], alpha=attrs.get("alpha", 0.01))
            twin = twin_model([deq("X", "x_s", zx, "fx")], [fnode], "fy", inputs, inits, "y_s", zy)
            save(f"{op}_{WIRE[dt]}_{variant}", m, inputs, twin=twin)

# ── QLinearConcat ──────────────────────────────────────────────────────────────────────────────
for dt in (np.uint8, np.int8):
    for axis, shapes in [(1, [[2, 3, 4], [2, 5, 4], [2, 1, 4]]), (-1, [[3, 2], [3, 6]])]:
        inputs = {f"X{i}": qdata(dt, s) for i, s in enumerate(shapes)}
        inits = {"y_s": scale(0.02, 0.05), "y_zp": zp(dt)}
        ins = ["y_s", "y_zp"]
        pre = []
        for i in range(len(shapes)):
            # the first input shares Y's quantization (onnxruntime copies it as it is)
            inits[f"s{i}"] = inits["y_s"] if i == 0 else scale(0.01, 0.08)
            inits[f"z{i}"] = inits["y_zp"] if i == 0 else zp(dt)
            ins += [f"X{i}", f"s{i}", f"z{i}"]
            pre.append(deq(f"X{i}", f"s{i}", f"z{i}", f"f{i}"))
        node = helper.make_node("QLinearConcat", ins, ["Y"], domain=MS, axis=axis)
        m = model([node], inputs, NP[dt], inits)
        twin = twin_model(pre, [helper.make_node("Concat", [f"f{i}" for i in range(len(shapes))], ["fy"], axis=axis)], "fy", inputs, inits, "y_s", "y_zp")
        save(f"QLinearConcat_{WIRE[dt]}_axis{axis}_{len(shapes)}in", m, inputs, twin=twin)

# ── QLinearGlobalAveragePool / QLinearAveragePool ──────────────────────────────────────────────
POOLS = [
    ("k3_s2_p1", [1, 3, 9, 9], dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])),
    ("k3_s2_p1_incl", [1, 3, 9, 9], dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], count_include_pad=1)),
    ("k2_ceil", [2, 2, 7, 7], dict(kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1)),
    ("k3_same_upper", [1, 4, 8, 8], dict(kernel_shape=[3, 3], auto_pad="SAME_UPPER")),
    ("k3_1d", [2, 3, 11], dict(kernel_shape=[3], strides=[1], pads=[1, 1])),
    ("k3_s2_p1_nhwc", [1, 9, 9, 3], dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], channels_last=1)),
]
for dt in (np.uint8, np.int8):
    for last in (0, 1):
        shape = [2, 5, 5, 3] if last else [2, 3, 5, 5]
        inputs = {"X": qdata(dt, shape)}
        inits = {"x_s": scale(), "x_zp": zp(dt), "y_s": scale(0.005, 0.02), "y_zp": zp(dt)}
        node = helper.make_node("QLinearGlobalAveragePool", ["X", "x_s", "x_zp", "y_s", "y_zp"], ["Y"], domain=MS, channels_last=last)
        m = model([node], inputs, NP[dt], inits)
        fl = [helper.make_node("ReduceMean", ["fx"], ["fy"], axes=[1, 2] if last else [2, 3], keepdims=1)]
        twin = twin_model([deq("X", "x_s", "x_zp", "fx")], fl, "fy", inputs, inits, "y_s", "y_zp")
        save(f"QLinearGlobalAveragePool_{WIRE[dt]}_{'nhwc' if last else 'nchw'}", m, inputs, twin=twin)
    for name, shape, attrs in POOLS:
        inputs = {"X": qdata(dt, shape)}
        inits = {"x_s": scale(), "x_zp": zp(dt), "y_s": scale(0.005, 0.03), "y_zp": zp(dt)}
        node = helper.make_node("QLinearAveragePool", ["X", "x_s", "x_zp", "y_s", "y_zp"], ["Y"], domain=MS, **attrs)
        m = model([node], inputs, NP[dt], inits)
        fattrs = {k: v for k, v in attrs.items() if k != "channels_last"}
        if attrs.get("channels_last"):
            fl = [helper.make_node("Transpose", ["fx"], ["fxt"], perm=[0, 3, 1, 2]), helper.make_node("AveragePool", ["fxt"], ["fyt"], **fattrs),
                  helper.make_node("Transpose", ["fyt"], ["fy"], perm=[0, 2, 3, 1])]
        else:
            fl = [helper.make_node("AveragePool", ["fx"], ["fy"], **fattrs)]
        twin = twin_model([deq("X", "x_s", "x_zp", "fx")], fl, "fy", inputs, inits, "y_s", "y_zp")
        save(f"QLinearAveragePool_{WIRE[dt]}_{name}", m, inputs, twin=twin)

# ── QLinearSoftmax ─────────────────────────────────────────────────────────────────────────────
for dt in (np.uint8, np.int8):
    for opset, axis, shape in [(13, -1, [2, 3, 10]), (13, 1, [2, 6, 4]), (12, 1, [2, 3, 4]), (12, -1, [4, 12])]:
        inputs = {"X": qdata(dt, shape)}
        inits = {"x_s": scale(0.02, 0.1), "x_zp": zp(dt), "y_s": np.array(1 / 256, np.float32), "y_zp": zp(dt, 0 if dt == np.uint8 else -128)}
        node = helper.make_node("QLinearSoftmax", ["X", "x_s", "x_zp", "y_s", "y_zp"], ["Y"], domain=MS, axis=axis, opset=opset)
        m = model([node], inputs, NP[dt], inits)
        if opset >= 13:
            fl = [helper.make_node("Softmax", ["fx"], ["fy"], axis=axis)]
        else:
            a = axis % len(shape)
            fl = [helper.make_node("Flatten", ["fx"], ["ff"], axis=a), helper.make_node("Softmax", ["ff"], ["fs"], axis=1),
                  helper.make_node("Reshape", ["fs", "shp"], ["fy"])]
            inits_tw = dict(inits, shp=np.array(shape, np.int64))
        twin = twin_model([deq("X", "x_s", "x_zp", "fx")], fl, "fy", inputs, inits if opset >= 13 else inits_tw, "y_s", "y_zp")
        save(f"QLinearSoftmax_{WIRE[dt]}_opset{opset}_axis{axis}", m, inputs, twin=twin)

# ── MatMulIntegerToFloat / DynamicQuantizeMatMul / QGemm ───────────────────────────────────────
def mm_model(op, ins, inputs, inits, out_elem=TensorProto.FLOAT, **attrs):
    return model([helper.make_node(op, ins, ["Y"], domain=MS, **attrs)], inputs, out_elem, inits)


for bt in (np.uint8, np.int8):
    for variant in ("zps_bias", "plain", "per_column"):
        inputs = {"A": qdata(np.uint8, [2, 3, 16])}
        inits = {"B": qdata(bt, [16, 8]), "a_s": scale(), "b_s": scale()}
        ins = ["A", "B", "a_s", "b_s"]
        if variant == "zps_bias":
            inits.update({"a_zp": zp(np.uint8), "b_zp": zp(bt), "bias": rng.normal(size=[8]).astype(np.float32)})
            ins += ["a_zp", "b_zp", "bias"]
        if variant == "per_column":
            inits.update({"b_s": rng.uniform(0.005, 0.05, size=[8]).astype(np.float32), "a_zp": zp(np.uint8), "b_zp": np.array([zp(bt) for _ in range(8)], bt)})
            ins += ["a_zp", "b_zp"]
        save(f"MatMulIntegerToFloat_u8x{WIRE[bt]}_{variant}", mm_model("MatMulIntegerToFloat", ins, inputs, inits), inputs)

for bt in (np.uint8, np.int8):
    for variant in ("zp_bias", "plain", "negative", "zeros", "per_column"):
        a = rng.normal(size=[4, 16]).astype(np.float32)
        if variant == "negative":
            a = -np.abs(a)
        if variant == "zeros":
            a = np.zeros([4, 16], np.float32)
        inputs = {"A": a}
        inits = {"B": qdata(bt, [16, 8]), "b_s": scale()}
        ins = ["A", "B", "b_s"]
        if variant in ("zp_bias", "negative", "zeros"):
            inits.update({"b_zp": zp(bt), "bias": rng.normal(size=[8]).astype(np.float32)})
            ins += ["b_zp", "bias"]
        if variant == "per_column":
            inits.update({"b_s": rng.uniform(0.005, 0.05, size=[8]).astype(np.float32), "b_zp": np.array([zp(bt) for _ in range(8)], bt)})
            ins += ["b_zp"]
        save(f"DynamicQuantizeMatMul_{WIRE[bt]}_{variant}", mm_model("DynamicQuantizeMatMul", ins, inputs, inits), inputs)


def qgemm_case(name, at, bt, ta=0, tb=0, alpha=1.0, with_c=True, out_q=True, per_column=False):
    m_, k_, n_ = 4, 16, 8
    a = qdata(at, [k_, m_] if ta else [m_, k_])
    b = qdata(bt, [n_, k_] if tb else [k_, n_])
    inputs = {"A": a}
    a_s, a_zp = scale(), zp(at)
    b_s = rng.uniform(0.005, 0.05, size=[n_]).astype(np.float32) if per_column else scale()
    b_zp = np.array([zp(bt) for _ in range(n_)], bt) if per_column else zp(bt)
    inits = {"a_s": a_s, "a_zp": a_zp, "B": b, "b_s": b_s, "b_zp": b_zp}
    ins = ["A", "a_s", "a_zp", "B", "b_s", "b_zp"]
    c = rng.integers(-2000, 2000, size=[n_]).astype(np.int32) if with_c else None
    ins.append("C" if with_c else "")
    if with_c:
        inits["C"] = c
    y_elem = TensorProto.FLOAT
    if out_q:
        inits.update({"y_s": scale(0.05, 0.2), "y_zp": zp(at)})
        ins += ["y_s", "y_zp"]
        y_elem = NP[at]
    attrs = {k: v for k, v in dict(transA=ta, transB=tb).items() if v}
    if alpha != 1.0:
        attrs["alpha"] = alpha
    acc = ((a.T if ta else a).astype(np.int64) - int(a_zp)) @ ((b.T if tb else b).astype(np.int64) - b_zp.astype(np.int64))
    if with_c:
        acc = acc + c
    before = None
    if out_q:
        before = acc * (np.float64(alpha) * np.float64(a_s) * b_s.astype(np.float64) / np.float64(inits["y_s"])) + int(inits["y_zp"])
    save(name, mm_model("QGemm", ins, inputs, inits, y_elem, **attrs), inputs, before_rounding=before)


for at, bt in ((np.uint8, np.uint8), (np.uint8, np.int8), (np.int8, np.int8)):
    tag = f"{WIRE[at]}x{WIRE[bt]}"
    qgemm_case(f"QGemm_{tag}_q_out", at, bt)
    qgemm_case(f"QGemm_{tag}_float_out", at, bt, out_q=False)
    qgemm_case(f"QGemm_{tag}_transB_per_column", at, bt, tb=1, per_column=True)
qgemm_case("QGemm_u8xu8_transA_alpha_no_c", np.uint8, np.uint8, ta=1, alpha=0.5, with_c=False)
qgemm_case("QGemm_i8xi8_float_transA_transB", np.int8, np.int8, ta=1, tb=1, out_q=False)

# ── com.microsoft QuantizeLinear / DequantizeLinear ────────────────────────────────────────────
for qt in (np.uint8, np.int8, np.uint16, np.int16, None):
    for per_axis in (False, True):
        x = (rng.normal(size=[2, 3, 4]) * 3).astype(np.float32)
        inputs = {"X": x}
        name = f"QuantizeLinear_{WIRE.get(qt, 'noZp') if qt else 'noZp'}_{'axis-1' if per_axis else 'tensor'}"
        if qt is None:
            inits = {"y_s": np.array(0.03, np.float32)}
            ins, out_t, z_f = ["X", "y_s"], TensorProto.UINT8, 0.0
        else:
            info = np.iinfo(qt)
            lo, hi = int(info.min), int(info.max)
            span = hi - lo
            s_ = (np.array([0.02, 0.05, 0.03, 0.04]) * 255 / span).astype(np.float32) if per_axis else np.array(0.03 * 255 / span, np.float32)
            zz = np.array([lo + span // 2 + d for d in (-3, 0, 5, 9)], qt) if per_axis else np.array(lo + span // 2 + 7, qt)
            inits = {"y_s": s_, "y_zp": zz}
            ins, out_t, z_f = ["X", "y_s", "y_zp"], NP.get(qt, TensorProto.INT16), zz.astype(np.float64)
        if qt is None and per_axis:
            continue
        attrs = {"axis": -1} if per_axis else {}
        m = model([helper.make_node("QuantizeLinear", ins, ["Y"], domain=MS, **attrs)], inputs, out_t, inits)
        before = x.astype(np.float64) / inits["y_s"].astype(np.float64) + z_f
        save(name, m, inputs, before_rounding=before)

for xt in (np.uint8, np.int8, np.uint16, np.int16, np.int32):
    for per_axis in (False, True):
        info = np.iinfo(xt)
        x = rng.integers(max(info.min, -30000), min(info.max, 30000) + 1, size=[2, 3, 4]).astype(xt)
        inputs = {"X": x}
        s_ = rng.uniform(0.001, 0.05, size=[3]).astype(np.float32) if per_axis else scale()
        zz = rng.integers(max(info.min, -100), min(info.max, 100) + 1, size=[3] if per_axis else []).astype(xt)
        inits = {"x_s": s_, "x_zp": zz}
        m = model([helper.make_node("DequantizeLinear", ["X", "x_s", "x_zp"], ["Y"], domain=MS, **({"axis": 1} if per_axis else {}))], inputs, TensorProto.FLOAT, inits)
        save(f"DequantizeLinear_{WIRE.get(xt, str(xt))}_{'axis1' if per_axis else 'tensor'}", m, inputs)

# ── MatMulNBits ────────────────────────────────────────────────────────────────────────────────
def pack(values, bits):
    """Rows of small unsigned values → bytes, low bits first (onnxruntime's MatMulNBits layout)."""
    per = 8 // bits
    v = values.reshape(values.shape[0], -1)
    pad = (-v.shape[1]) % per
    v = np.concatenate([v, np.zeros([v.shape[0], pad], v.dtype)], axis=1).reshape(v.shape[0], -1, per).astype(np.uint16)
    out = np.zeros(v.shape[:2], np.uint16)
    for j in range(per):
        out |= v[:, :, j] << (bits * j)
    return out.astype(np.uint8)


def nbits_case(name, K, N, bits, bs, zp_kind="u8", bias=True, b_input=False, level=None, a_dtype=np.float32, scales_2d=False, g_idx=False, refused=False):
    nb = (K + bs - 1) // bs
    q = rng.integers(0, 2 ** bits, size=[N, nb, bs])
    B = pack(q.reshape(N * nb, bs), bits).reshape(N, nb, bs * bits // 8)
    sc = rng.uniform(0.01, 0.05, size=[N, nb] if scales_2d else [N * nb]).astype(a_dtype)
    inputs = {"A": rng.normal(size=[2, 3, K]).astype(a_dtype)}
    inits = {"scales": sc}
    if b_input:
        inputs["B"] = B
    else:
        inits["B"] = B
    ins = ["A", "B", "scales"]
    if zp_kind == "u8":
        inits["zp"] = pack(rng.integers(0, 2 ** bits, size=[N, nb]), bits).reshape(-1)
        ins.append("zp")
    elif zp_kind == "float":
        inits["zp"] = rng.uniform(0, 2 ** bits - 1, size=[N * nb]).astype(a_dtype)
        ins.append("zp")
    else:
        ins.append("")
    ins.append("")  # g_idx
    if bias:
        inits["bias"] = rng.normal(size=[N]).astype(a_dtype)
        ins.append("bias")
    if g_idx:
        # act-order: each column's block drawn at random (its scale and zero point)
        inits["g_idx"] = rng.integers(0, nb, size=[K]).astype(np.int32)
        ins[4] = "g_idx"
    while ins[-1] == "":
        ins.pop()
    attrs = dict(K=K, N=N, bits=bits, block_size=bs)
    if level is not None:
        attrs["accuracy_level"] = level
    out_t = NP[a_dtype.type if hasattr(a_dtype, "type") else a_dtype]
    m = model([helper.make_node("MatMulNBits", ins, ["Y"], domain=MS, **attrs)], inputs, out_t, inits)
    # accuracy_level 4 lets onnxruntime compute A in int8 (its numbers then are the float product up
    # to its quantization of A): the reference is the same model at accuracy_level 0, the op's float
    # product; the test notes how far onnxruntime's level-4 numbers are from it
    ref = None
    if level:
        ref = model([helper.make_node("MatMulNBits", ins, ["Y"], domain=MS, **dict(attrs, accuracy_level=0))], inputs, out_t, inits)
    save(name, m, inputs, reference=ref, refused=refused)


nbits_case("MatMulNBits_4bit_bs32_zp_bias", 64, 16, 4, 32)
nbits_case("MatMulNBits_4bit_bs16_no_zp", 64, 8, 4, 16, zp_kind=None, bias=False)
nbits_case("MatMulNBits_4bit_bs16_K40_odd_blocks", 40, 8, 4, 16)
nbits_case("MatMulNBits_4bit_float_zp", 64, 8, 4, 32, zp_kind="float")
nbits_case("MatMulNBits_4bit_scales_2d", 64, 8, 4, 32, scales_2d=True)
nbits_case("MatMulNBits_8bit_bs16", 48, 8, 8, 16)
nbits_case("MatMulNBits_2bit_bs16", 64, 8, 2, 16)
nbits_case("MatMulNBits_4bit_B_input", 64, 8, 4, 32, b_input=True)
nbits_case("MatMulNBits_4bit_accuracy_level4", 64, 16, 4, 32, level=4)
nbits_case("MatMulNBits_4bit_f16", 64, 8, 4, 32, a_dtype=np.float16)

# ── whole models as onnxruntime's quantizers write them ────────────────────────────────────────
# A small float CNN + MLP head (Conv, LeakyRelu, Sigmoid, Mul, Add, AveragePool, GlobalAveragePool,
# Concat, MatMul, Gemm, Softmax), quantized by onnxruntime.quantization: quantize_static in the
# QOperator format (QLinearConv, QLinearMatMul and the com.microsoft QLinear* ops, QGemm), and
# quantize_dynamic saved after onnxruntime's own graph optimizations (DynamicQuantizeMatMul).
def float_model():
    r = np.random.default_rng(7)
    w = lambda *s: r.normal(size=s).astype(np.float32) * 0.3
    inits = {"cw": w(8, 3, 3, 3), "cb": w(8), "cw2": w(8, 8, 1, 1), "gw": w(16, 32), "gb": w(16), "mw": w(16, 32)}
    nodes = [
        helper.make_node("Conv", ["x", "cw", "cb"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("LeakyRelu", ["c1"], ["r1"], alpha=0.1),
        helper.make_node("Conv", ["r1", "cw2"], ["c2"]),
        helper.make_node("Sigmoid", ["c2"], ["s2"]),
        helper.make_node("Mul", ["r1", "s2"], ["m1"]),
        helper.make_node("Add", ["m1", "c1"], ["a1"]),
        helper.make_node("AveragePool", ["a1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Concat", ["p1", "p1"], ["cc"], axis=1),
        helper.make_node("GlobalAveragePool", ["cc"], ["g2"]),
        helper.make_node("Flatten", ["g2"], ["f2"]),
        helper.make_node("MatMul", ["f2", "mw"], ["mm"]),
        helper.make_node("Gemm", ["mm", "gw", "gb"], ["gm"], transB=1),
        helper.make_node("Softmax", ["gm"], ["y"], axis=-1),
    ]
    g = helper.make_graph(nodes, "cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 16])], [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m


def quantizer_cases():
    import logging

    import onnx

    logging.getLogger().setLevel(logging.ERROR)  # the quantizers' advice to pre-process
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_dynamic, quantize_static

    fpath = os.path.join(OUT, "cnn_float.onnx")
    onnx.save(float_model(), fpath)

    class Reader(CalibrationDataReader):
        def __init__(self):
            r = np.random.default_rng(11)
            self.data = iter([{"x": r.normal(size=[2, 3, 8, 8]).astype(np.float32)} for _ in range(6)])

        def get_next(self):
            return next(self.data, None)

    x = {"x": np.random.default_rng(12).normal(size=[2, 3, 8, 8]).astype(np.float32)}
    for act, per_channel in ((QuantType.QUInt8, False), (QuantType.QInt8, False), (QuantType.QUInt8, True)):
        name = f"quantize_static_QOperator_{'u8' if act == QuantType.QUInt8 else 'i8'}{'_per_channel' if per_channel else ''}"
        out = os.path.join(OUT, name + ".onnx")
        quantize_static(fpath, out, Reader(), quant_format=QuantFormat.QOperator, activation_type=act, weight_type=QuantType.QInt8, per_channel=per_channel)
        save(name, onnx.load(out), x)
        if act == QuantType.QUInt8 and not per_channel:
            # as saved after onnxruntime's optimizations at level ALL: its layout optimizer makes
            # QLinearConv, the pools and the elementwise ops channels_last (com.microsoft QLinearConv)
            so = ort.SessionOptions()
            so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            so.log_severity_level = 3  # its warning that such a file fits this machine
            so.optimized_model_filepath = os.path.join(OUT, name + "_ort_optimized_all.onnx")
            ort.InferenceSession(out, so, providers=["CPUExecutionProvider"])
            save(name + "_ort_optimized_all", onnx.load(so.optimized_model_filepath), x)
    dyn = os.path.join(OUT, "quantize_dynamic_raw.onnx")
    quantize_dynamic(fpath, dyn, weight_type=QuantType.QInt8)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    so.optimized_model_filepath = os.path.join(OUT, "quantize_dynamic_ort_optimized.onnx")
    ort.InferenceSession(dyn, so, providers=["CPUExecutionProvider"])
    save("quantize_dynamic_ort_optimized", onnx.load(so.optimized_model_filepath), x)

# ── QLinearWhere ───────────────────────────────────────────────────────────────────────────────
def fx(a, s_, z_):
    return (a.astype(np.float64) - float(z_)) * float(s_)


for dt in (np.uint8, np.int8):
    for variant, (cs, xs, ys) in {"same_shape": ([2, 3, 4], [2, 3, 4], [2, 3, 4]), "broadcast": ([2, 1, 4], [3, 1], [2, 3, 4])}.items():
        inputs = {"cond": rng.integers(0, 2, size=cs).astype(bool), "X": qdata(dt, xs), "Y": qdata(dt, ys)}
        inits = {"x_s": scale(), "x_zp": zp(dt), "y_s": scale(), "y_zp": zp(dt), "z_s": scale(0.02, 0.06), "z_zp": zp(dt)}
        node = helper.make_node("QLinearWhere", ["cond", "X", "x_s", "x_zp", "Y", "y_s", "y_zp", "z_s", "z_zp"], ["Y_out"], domain=MS)
        g = helper.make_graph([node], "g", [helper.make_tensor_value_info(k, TensorProto.BOOL if v.dtype == bool else NP[v.dtype.type], list(v.shape)) for k, v in inputs.items()],
                              [helper.make_tensor_value_info("Y_out", NP[dt], None)], [numpy_helper.from_array(v, k) for k, v in inits.items()])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)])
        m.ir_version = 8
        before = np.where(inputs["cond"], fx(inputs["X"], inits["x_s"], inits["x_zp"]), fx(inputs["Y"], inits["y_s"], inits["y_zp"])) / float(inits["z_s"]) + float(inits["z_zp"])
        save(f"QLinearWhere_{WIRE[dt]}_{variant}", m, inputs, before_rounding=before)

# ── com.microsoft QLinearConv (channels_last, as onnxruntime's layout optimizer writes it) ─────
for dt in (np.uint8, np.int8):
    for last, group in ((1, 1), (1, 2), (0, 1)):
        shape = [1, 7, 7, 4] if last else [1, 4, 7, 7]
        inputs = {"X": qdata(dt, shape)}
        inits = {"x_s": scale(), "x_zp": zp(dt), "w": qdata(np.int8, [6, 4 // group, 3, 3]), "w_s": scale(0.005, 0.02), "w_zp": np.array(0, np.int8),
                 "y_s": scale(0.05, 0.2), "y_zp": zp(dt), "b": rng.integers(-500, 500, size=[6]).astype(np.int32)}
        node = helper.make_node("QLinearConv", ["X", "x_s", "x_zp", "w", "w_s", "w_zp", "y_s", "y_zp", "b"], ["Y"], domain=MS,
                                channels_last=last, group=group, pads=[1, 1, 1, 1], strides=[2, 2])
        save(f"QLinearConv_{WIRE[dt]}_{'nhwc' if last else 'nchw'}_group{group}", model([node], inputs, NP[dt], inits), inputs)

# ── GatherBlockQuantized (quantized embedding tables of LLM exports) ──────────────────────────
def gbq_case(name, kind, V, K, block, bits=4, with_zp=True, scale_t=np.float32, gather_axis=0, quantize_axis=1, idx_t=np.int64):
    nb = (K + block - 1) // block
    inits = []
    if kind == "u8":
        q = rng.integers(0, 2 ** bits, size=[V, K])
        inits.append(numpy_helper.from_array(pack(q, bits).reshape(V, -1), "data"))
    else:
        lo, hi = (-8, 8) if kind == "i4" else (0, 16)
        q = rng.integers(lo, hi, size=[V, K])
        inits.append(helper.make_tensor("data", TensorProto.INT4 if kind == "i4" else TensorProto.UINT4, [V, K], q.ravel().tolist()))
    inits.append(numpy_helper.from_array(rng.uniform(0.01, 0.1, size=[V, nb]).astype(scale_t), "scales"))
    ins = ["data", "indices", "scales"]
    if with_zp:
        if kind == "u8":
            inits.append(numpy_helper.from_array(pack(rng.integers(0, 2 ** bits, size=[V, nb]), bits).reshape(V, -1), "zp"))
        else:
            lo, hi = (-8, 8) if kind == "i4" else (0, 16)
            inits.append(helper.make_tensor("zp", TensorProto.INT4 if kind == "i4" else TensorProto.UINT4, [V, nb], rng.integers(lo, hi, size=[V * nb]).tolist()))
        ins.append("zp")
    attrs = dict(block_size=block, gather_axis=gather_axis, quantize_axis=quantize_axis)
    if kind == "u8":
        attrs["bits"] = bits
    inputs = {"indices": rng.integers(0, V, size=[2, 3]).astype(idx_t)}
    node = helper.make_node("GatherBlockQuantized", ins, ["Y"], domain=MS, **attrs)
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("indices", NP[idx_t] if idx_t in NP else TensorProto.INT64, [2, 3])],
                          [helper.make_tensor_value_info("Y", NP[scale_t], None)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid(MS, 1)])
    m.ir_version = 10
    save(f"GatherBlockQuantized_{name}", m, inputs)


NP[np.int64] = TensorProto.INT64
WIRE[np.int64] = "i64"
gbq_case("u8_4bit_zp", "u8", 10, 32, 16)
gbq_case("u8_4bit_no_zp_K40", "u8", 10, 40, 16, with_zp=False)
gbq_case("u8_8bit", "u8", 6, 32, 16, bits=8)
gbq_case("u8_4bit_odd_blocks_zp", "u8", 7, 48, 16)
gbq_case("i4_zp", "i4", 10, 32, 16, idx_t=np.int32)
gbq_case("u4_no_zp", "u4", 10, 32, 16, with_zp=False)
gbq_case("u8_4bit_f16", "u8", 10, 32, 16, scale_t=np.float16)


quantizer_cases()

# ── DynamicQuantizeLSTM, as quantize_dynamic writes it for an LSTM ─────────────────────────────
# batch 1 only: with a batch of 2 or more (and hidden_size ≤ 256, or a batch over 4) onnxruntime
# splits the batch over its threads and quantizes H per part, so its numbers depend on its thread
# count (measured on 2 cores, batch 3: ovir's whole-batch quantization 2.2e-4 off; the float LSTM
# OpenVINO's frontend writes is 5e-3 off at batch 1 as at batch 3)
def save_quantized_lstm(name, node, graph_ins, inits, weight_type, feeds):
    """A float LSTM model of `node`, through onnxruntime's quantize_dynamic, saved as a case."""
    import logging

    import onnx
    from onnxruntime.quantization import quantize_dynamic

    logging.getLogger().setLevel(logging.ERROR)
    g = helper.make_graph([node], "lstm", graph_ins, [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in node.output if n],
                          [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])
    m.ir_version = 8
    fpath = os.path.join(OUT, f"lstm_{name}_float.onnx")
    onnx.save(m, fpath)
    qpath = os.path.join(OUT, f"DynamicQuantizeLSTM_{name}.onnx")
    quantize_dynamic(fpath, qpath, weight_type=weight_type)
    save(f"DynamicQuantizeLSTM_{name}", onnx.load(qpath), feeds)


def lstm_cases():
    from onnxruntime.quantization import QuantType

    r = np.random.default_rng(21)
    for name, direction, S, I, H, peep, wt in [("forward", "forward", 6, 3, 8, False, QuantType.QInt8), ("reverse", "reverse", 5, 4, 6, False, QuantType.QInt8),
                                               ("bidirectional", "bidirectional", 4, 3, 5, False, QuantType.QInt8), ("peephole", "forward", 5, 3, 4, True, QuantType.QInt8),
                                               ("u8_weights", "forward", 5, 3, 4, False, QuantType.QUInt8)]:
        D = 2 if direction == "bidirectional" else 1
        inits = {"W": (r.normal(size=[D, 4 * H, I]) * 0.4).astype(np.float32), "R": (r.normal(size=[D, 4 * H, H]) * 0.4).astype(np.float32),
                 "B": (r.normal(size=[D, 8 * H]) * 0.1).astype(np.float32)}
        ins = ["X", "W", "R", "B"]
        if peep:
            inits["P"] = (r.normal(size=[D, 3 * H]) * 0.1).astype(np.float32)
            ins += ["", "", "", "P"]
        node = helper.make_node("LSTM", ins, ["Y", "Y_h", "Y_c"], hidden_size=H, direction=direction)
        feeds = {"X": r.normal(size=[S, 1, I]).astype(np.float32)}
        save_quantized_lstm(name, node, [helper.make_tensor_value_info("X", TensorProto.FLOAT, [S, 1, I])], inits, wt, feeds)


lstm_cases()

# ── QLinearReduceMean (no CPU kernel in onnxruntime: NNAPI's and other EPs' op) ───────────────
# judged against this numpy reference of its schema ("Dequantize(Input) -> ReduceMean on fp32 data ->
# Quantize(output)"): mean of (x - x_zp) · x_scale over axes, then RoundHalfToEven(y / y_scale) + y_zp
# saturated, as onnxruntime's QuantizeLinear; ties marked as for the other ops. (Without zero points
# onnxruntime refuses even to load the model, a type inference error on the empty name, as for QLinearAdd.)
for dt, shape, axes, keep, zps in [(np.uint8, [2, 3, 5, 5], [2, 3], 1, True), (np.int8, [2, 6, 4], [1], 0, True), (np.uint8, [3, 4, 7], [-1], 1, True),
                                   (np.int8, [2, 3, 4], [0, 2], 1, True), (np.uint8, [2, 3, 4], [0, 1, 2], 0, True)]:
    inputs = {"X": qdata(dt, shape)}
    inits = {"x_s": scale(0.02, 0.06), "y_s": scale(0.005, 0.02)}
    if zps:
        inits.update({"x_zp": zp(dt), "y_zp": zp(dt)})
    node = helper.make_node("QLinearReduceMean", ["X", "x_s", "x_zp" if zps else "", "y_s", "y_zp" if zps else ""], ["Y"], domain=MS, axes=axes, keepdims=keep)
    m = model([node], inputs, NP[dt], inits)
    xz, yz = (float(inits["x_zp"]), float(inits["y_zp"])) if zps else (0.0, 0.0)
    y = ((inputs["X"].astype(np.float64) - xz) * float(inits["x_s"])).mean(axis=tuple(axes), keepdims=bool(keep))
    v = y / float(inits["y_s"]) + yz
    lo, hi = (0, 255) if dt == np.uint8 else (-128, 127)
    q = np.clip(np.rint(v), lo, hi).astype(dt)
    save(f"QLinearReduceMean_{WIRE[dt]}_axes{'_'.join(map(str, axes))}_keep{keep}{'' if zps else '_no_zps'}", m, inputs, before_rounding=v, expected=[q])


# ── QAttention (quantize_dynamic's BERT attention) ─────────────────────────────────────────────
def multi_model(op, ins, feeds, inits, outs, **attrs):
    """One com.microsoft node; `ins` names ("" absent), feeds / inits by name, outs (name, elem)."""
    node = helper.make_node(op, ins, [n for n, _ in outs], domain=MS, **attrs)
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info(k, NP[v.dtype.type], list(v.shape)) for k, v in feeds.items()],
                          [helper.make_tensor_value_info(n, e, None) for n, e in outs], [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)])
    m.ir_version = 8
    return m


def qattention_case(name, wt=np.int8, per_column=False, zps=True, mask=None, past=False, attrs=None, B=2, S=5, D=16, N=2):
    H3 = 3 * D
    feeds = {"input": qdata(np.uint8, [B, S, D])}
    inits = {"weight": qdata(wt, [D, H3]), "bias": (rng.standard_normal(H3) * 0.2).astype(np.float32), "input_scale": scale(0.01, 0.03),
             "weight_scale": np.asarray(rng.uniform(0.002, 0.01, H3) if per_column else rng.uniform(0.002, 0.01), np.float32)}
    ins = ["input", "weight", "bias", "input_scale", "weight_scale", "", "", "", ""]
    if mask is not None:
        feeds["mask_index"] = mask
        ins[5] = "mask_index"
    if zps:
        inits["input_zero_point"] = zp(np.uint8)
        inits["weight_zero_point"] = np.array([zp(wt) for _ in range(H3)], wt) if per_column else zp(wt)
        ins[6], ins[7] = "input_zero_point", "weight_zero_point"
    outs = [("output", TensorProto.FLOAT)]
    if past:
        feeds["past"] = rng.standard_normal([2, B, N, 3, D // N]).astype(np.float32)
        ins[8] = "past"
        outs.append(("present", TensorProto.FLOAT))
    while ins[-1] == "":
        ins.pop()
    save(name, multi_model("QAttention", ins, feeds, inits, outs, num_heads=N, **(attrs or {})), feeds)


qattention_case("QAttention_u8_i8")
qattention_case("QAttention_u8_u8_mask_lengths", wt=np.uint8, mask=np.array([3, 5], np.int32))
qattention_case("QAttention_per_column_mask_raw", per_column=True, mask=np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], np.int32))
qattention_case("QAttention_no_zero_points_scale", zps=False, attrs={"scale": 0.2})
qattention_case("QAttention_unidirectional_past_present", S=2, past=True, attrs={"unidirectional": 1})
qattention_case("QAttention_mask_start_end_filter", mask=np.array([5, 4, 1, 0], np.int32), attrs={"mask_filter_value": -100.0})


# ── QEmbedLayerNormalization (quantize_dynamic's BERT embeddings) ──────────────────────────────
def qembed_case(name, qt=np.uint8, segment=True, mask=True, eps=None, B=2, S=6, V=20, P=9, G=3, D=16):
    feeds = {"input_ids": rng.integers(0, V, (B, S)).astype(np.int32)}
    ins = ["input_ids", "", "word", "position", "", "gamma", "beta", "", "word_s", "position_s", "", "gamma_s", "beta_s", "word_z", "position_z", "", "gamma_z", "beta_z"]
    inits = {"word": qdata(qt, [V, D]), "position": qdata(qt, [P, D]), "gamma": qdata(qt, [D]), "beta": qdata(qt, [D])}
    for t in ("word", "position", "gamma", "beta"):
        inits[f"{t}_s"], inits[f"{t}_z"] = scale(0.005, 0.03), zp(qt)
    if segment:
        feeds["segment_ids"] = rng.integers(0, G, (B, S)).astype(np.int32)
        inits.update({"segment": qdata(qt, [G, D]), "segment_s": scale(0.005, 0.03), "segment_z": zp(qt)})
        ins[1], ins[4], ins[10], ins[15] = "segment_ids", "segment", "segment_s", "segment_z"
    if mask:
        # a 2 in the mask: onnxruntime counts only the elements equal to 1
        feeds["mask"] = np.array([[1, 1, 1, 1, 0, 0], [1, 2, 1, 1, 1, 0]], np.int32)
        ins[7] = "mask"
    attrs = {} if eps is None else {"epsilon": eps}
    save(name, multi_model("QEmbedLayerNormalization", ins, feeds, inits, [("layernorm_out", TensorProto.FLOAT), ("mask_index_out", TensorProto.INT32)], **attrs), feeds)


qembed_case("QEmbedLayerNormalization_u8")
qembed_case("QEmbedLayerNormalization_i8_no_segment", qt=np.int8, segment=False, eps=1e-5)
qembed_case("QEmbedLayerNormalization_u8_no_mask", mask=False)


# MatMulNBits with g_idx (act-order), which ovir converts at 4 bits: there onnxruntime 1.31's CPU
# kernel computes the op's definition; at 8 bits it refuses g_idx ("Only 2b and 4b quantization is
# supported for unpacked compute"), at 2 bits it reads B as 4-bit values (measured: the implied
# values are the bytes' nibbles), and with packed uint8 zero points it ignores them (it subtracts
# 2^(bits − 1)) — the 2-bit and packed-zero-point cases are refused by name. Bits 3, 5, 6, 7 have
# no case: onnxruntime's CPU kernel refuses them ("Only 2b, 4b and 8b quantization").
nbits_case("MatMulNBits_4bit_g_idx_float_zp", 64, 8, 4, 16, zp_kind="float", g_idx=True)
nbits_case("MatMulNBits_4bit_g_idx_no_zp_bias", 64, 8, 4, 32, zp_kind=None, g_idx=True)
nbits_case("MatMulNBits_4bit_g_idx_float_zp_K40", 40, 8, 4, 16, zp_kind="float", bias=False, g_idx=True)
nbits_case("MatMulNBits_2bit_g_idx_no_zp_K40", 40, 8, 2, 16, zp_kind=None, bias=False, g_idx=True, refused=True)
nbits_case("MatMulNBits_4bit_g_idx_packed_zp", 64, 8, 4, 16, g_idx=True, refused=True)


# DynamicQuantizeLSTM with sequence_lens and input_forget. Batch 1, or batch 3 with hidden_size 260
# (over 256: onnxruntime then does not split the batch over its threads, so its numbers do not
# depend on their count); the batch-3 cases with rows of different lengths, Y read or not (onnxruntime
# writes zeros to an ended row's H only when Y is an output).
def lstm_more_cases():
    from onnxruntime.quantization import QuantType

    r = np.random.default_rng(22)
    for name, direction, S, N, I, H, lens, forget, peep, outs in [
            ("seq_lens_forward", "forward", 6, 1, 3, 8, [4], 0, False, ["Y", "Y_h", "Y_c"]),
            ("seq_lens_reverse", "reverse", 5, 1, 4, 6, [3], 0, False, ["Y", "Y_h", "Y_c"]),
            ("seq_lens_bidirectional", "bidirectional", 4, 1, 3, 5, [2], 0, False, ["Y", "Y_h", "Y_c"]),
            ("input_forget", "forward", 5, 1, 3, 6, None, 1, False, ["Y", "Y_h", "Y_c"]),
            ("input_forget_peephole_bidirectional", "bidirectional", 4, 1, 3, 4, None, 1, True, ["Y", "Y_h", "Y_c"]),
            ("seq_lens_batch3_h260", "forward", 5, 3, 3, 260, [5, 2, 4], 0, False, ["Y", "Y_h", "Y_c"]),
            ("seq_lens_batch3_h260_reverse_no_Y", "reverse", 5, 3, 3, 260, [5, 2, 4], 0, False, ["", "Y_h", "Y_c"])]:
        D = 2 if direction == "bidirectional" else 1
        inits = {"W": (r.normal(size=[D, 4 * H, I]) * 0.4).astype(np.float32), "R": (r.normal(size=[D, 4 * H, H]) * (0.4 if H < 100 else 0.05)).astype(np.float32),
                 "B": (r.normal(size=[D, 8 * H]) * 0.1).astype(np.float32)}
        ins = ["X", "W", "R", "B", "sequence_lens" if lens else ""]
        if peep:
            inits["P"] = (r.normal(size=[D, 3 * H]) * 0.1).astype(np.float32)
            ins += ["", "", "P"]
        attrs = {"hidden_size": H, "direction": direction}
        if forget:
            attrs["input_forget"] = 1
        node = helper.make_node("LSTM", ins, outs, **attrs)
        graph_ins = [helper.make_tensor_value_info("X", TensorProto.FLOAT, [S, N, I])]
        if lens:
            graph_ins.append(helper.make_tensor_value_info("sequence_lens", TensorProto.INT32, [N]))
        feeds = {"X": r.normal(size=[S, N, I]).astype(np.float32)}
        if lens:
            feeds["sequence_lens"] = np.array(lens, np.int32)
        save_quantized_lstm(name, node, graph_ins, inits, QuantType.QInt8, feeds)


lstm_more_cases()

print(json.dumps(cases))
