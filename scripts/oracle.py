#!/usr/bin/env python3
"""The oracle bridge: real engines (OpenVINO, onnx, onnxruntime) behind JSON lines on stdin/stdout.

One long-running process serves a whole test suite (importing openvino per model is too slow).
Each request is one line `{"id": n, "op": "...", ...}`; each answer is one line
`{"id": n, "result": ...}` or `{"id": n, "error": "..."}`. A failing request never ends the bridge.

Tensors travel as `{"dtype": <OpenVINO element type name>, "shape": [...], "b64": <raw bytes>}`
(or `"file": <path of raw bytes>` instead of b64 on input); string tensors as
`{"dtype": "string", "shape": [...], "strings_b64": [<utf-8 bytes of each element>]}`.
Every element type travels, the narrow ones too (bf16, f8e4m3/f8e5m2 and their fnuz forms, f8e8m0,
i4/u4, f4e2m1, i2/u2): their raw bytes are the engines' own layout (sub-byte types packed, first element
in the low bits, as in ONNX raw_data and the OpenVINO .bin) and are handed to each engine as a
tensor of that type (OpenVINO: ov.Tensor of the element type; onnxruntime: an OrtValue of the ONNX
type); numpy arrays of ml_dtypes types coming back are named by their ml_dtypes type.

Inputs are matched to an engine's inputs by tensor name, then by `#<index>`, then by position when
the request has exactly one tensor per engine input (ovc may rename Parameters).

Ops:
  hello                         -> versions of the engines
  run_ir {xml, inputs}          -> {outputs: [{index, names, tensor}]}  (CPU, f32 accuracy mode)
  ovc {onnx, out_xml, input_shapes?, compress_to_fp16?} -> {}  (openvino.convert_model [input=shapes] + save_model;
                                compress_to_fp16 False unless given: True is ovc's default, f16 Consts + decompression Converts)
  partial_shapes {xml}          -> {inputs, outputs: [{names, dtype, shape}]}
  port_shapes {xml}             -> {ports: [{path, node, type, port, dtype, shape}]}  (every op output, bodies too)
  onnx_infer_shapes {onnx}      -> {values: [{name, kind, dtype, shape}]}  (data_prop=True)
  onnx_check {onnx}             -> {ok, error?}  (onnx.checker full_check)
  run_ort {onnx, inputs}        -> {outputs: [{index, names, tensor}]}  (python onnxruntime, CPU)
  run_onnx_reference {onnx, inputs} -> {outputs: [...]}  (onnx.reference.ReferenceEvaluator)
"""
import base64
import json
import os
import sys
import traceback

# Everything the engines print (C++ included) goes to stderr; stdout carries only our answers.
_answers = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
os.dup2(2, 1)
sys.stdout = sys.stderr

import ctypes  # noqa: E402

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

_NUMPY = {
    "f64": np.float64, "f32": np.float32, "f16": np.float16,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "boolean": np.bool_,
}
_FROM_NUMPY = {np.dtype(v).str: k for k, v in _NUMPY.items()}

# The narrow element types: OpenVINO name -> (ml_dtypes type, bits per element, ONNX TensorProto code).
# OpenVINO has no fnuz f8 types and no 2-bit integers; those reach onnxruntime only.
_NARROW = {
    "bf16": (ml_dtypes.bfloat16, 16, 16),
    "f8e4m3": (ml_dtypes.float8_e4m3fn, 8, 17),
    "f8e4m3fnuz": (ml_dtypes.float8_e4m3fnuz, 8, 18),
    "f8e5m2": (ml_dtypes.float8_e5m2, 8, 19),
    "f8e5m2fnuz": (ml_dtypes.float8_e5m2fnuz, 8, 20),
    "u4": (ml_dtypes.uint4, 4, 21),
    "i4": (ml_dtypes.int4, 4, 22),
    "f4e2m1": (ml_dtypes.float4_e2m1fn, 4, 23),
    "f8e8m0": (ml_dtypes.float8_e8m0fnu, 8, 24),
    "u2": (ml_dtypes.uint2, 2, 25),
    "i2": (ml_dtypes.int2, 2, 26),
}
_NARROW_BY_ML = {np.dtype(kind).name: name for name, (kind, bits, _) in _NARROW.items() if bits >= 8}


class HarnessLimit(Exception):
    """Something this bridge cannot hand to an engine: a harness limit, never an engine's verdict."""


class Narrow:
    """A tensor of a narrow element type as its raw (packed) bytes, checked against its element count."""

    def __init__(self, dtype, shape, raw):
        self.dtype = dtype
        self.shape = shape
        _, bits, self.onnx_code = _NARROW[dtype]
        n = int(np.prod(shape)) if shape else 1
        want = (n * bits + 7) // 8
        if len(raw) != want:
            raise HarnessLimit(f"{dtype} tensor {shape}: {len(raw)} data bytes, expected {want}")
        self.raw = bytes(raw)

    def ov_tensor(self):
        o = ov()
        if self.dtype not in ("bf16", "f8e4m3", "f8e5m2", "f8e8m0", "u4", "i4", "f4e2m1", "u2"):
            raise ValueError(f"OpenVINO has no element type {self.dtype}")
        t = o.Tensor(getattr(o.Type, self.dtype), o.Shape(self.shape))
        view = np.asarray(t.data).reshape(-1).view(np.uint8)
        if view.nbytes != len(self.raw):
            raise ValueError(f"OpenVINO {self.dtype} tensor holds {view.nbytes} bytes, the data {len(self.raw)}")
        view[:] = np.frombuffer(self.raw, dtype=np.uint8)
        return t

    def ort_value(self):
        import onnxruntime as ort
        v = ort.OrtValue.ortvalue_from_shape_and_type(list(self.shape), self.onnx_code)
        ctypes.memmove(v.data_ptr(), self.raw, len(self.raw))
        return v

# TensorProto.DataType -> OpenVINO element type name (our canonical names).
_ONNX_ELEM = {
    0: "dynamic", 1: "f32", 2: "u8", 3: "i8", 4: "u16", 5: "i16", 6: "i32", 7: "i64", 8: "string",
    9: "boolean", 10: "f16", 11: "f64", 12: "u32", 13: "u64", 14: "c64", 15: "c128", 16: "bf16",
    17: "f8e4m3", 18: "f8e4m3fnuz", 19: "f8e5m2", 20: "f8e5m2fnuz", 21: "u4", 22: "i4",
    23: "f4e2m1", 24: "f8e8m0", 25: "u2", 26: "i2",
}

_ov = None
_core = None


def ov():
    global _ov, _core
    if _ov is None:
        import openvino
        _ov = openvino
        _core = openvino.Core()
    return _ov


def core():
    ov()
    return _core


def _shape(s):
    return [int(d) for d in s]


def tensor_in(spec):
    """A request tensor as a numpy array (strings: array of str)."""
    dtype = spec["dtype"]
    shape = _shape(spec.get("shape", []))
    if dtype == "string":
        items = [base64.b64decode(s).decode("utf-8") for s in spec.get("strings_b64", [])]
        return np.array(items, dtype=object).reshape(shape)
    if "file" in spec:
        with open(spec["file"], "rb") as f:
            raw = f.read()
    else:
        raw = base64.b64decode(spec.get("b64", ""))
    if dtype in _NARROW:
        return Narrow(dtype, shape, raw)
    if dtype not in _NUMPY:
        raise HarnessLimit(f"the bridge has no element type {dtype}")
    return np.frombuffer(raw, dtype=_NUMPY[dtype]).reshape(shape).copy()


def tensor_out(arr, dtype=None):
    """A numpy array (or list of str) as a response tensor."""
    arr = np.asarray(arr)
    if arr.dtype.kind in ("U", "S", "O"):
        flat = [x.encode("utf-8") if isinstance(x, str) else bytes(x) for x in arr.reshape(-1).tolist()]
        return {"dtype": "string", "shape": list(arr.shape),
                "strings_b64": [base64.b64encode(b).decode("ascii") for b in flat]}
    if dtype is None:
        dtype = _FROM_NUMPY.get(arr.dtype.str) if arr.dtype.kind != "V" else _NARROW_BY_ML.get(arr.dtype.name)
        if dtype is None:
            raise ValueError(f"numpy dtype {arr.dtype} has no element type name")
    return {"dtype": dtype, "shape": list(arr.shape),
            "b64": base64.b64encode(np.ascontiguousarray(arr).tobytes()).decode("ascii")}


def _pick(inputs, names, index, n_ports):
    """The request tensor for engine input `index`: by name, by `#index`, else by position."""
    for n in sorted(names):
        if n in inputs:
            return inputs[n]
    key = f"#{index}"
    if key in inputs:
        return inputs[key]
    if len(inputs) == n_ports:
        return list(inputs.values())[index]
    raise HarnessLimit(f"no input given for port {index} ({', '.join(sorted(names)) or 'unnamed'}); "
                   f"the request has {len(inputs)} tensors for {n_ports} inputs")


def op_hello(req):
    import onnx
    import onnxruntime
    from importlib.metadata import PackageNotFoundError, version
    try:
        litert = version("ai-edge-litert")
    except PackageNotFoundError:
        litert = None
    return {"openvino": ov().get_version(), "onnx": onnx.__version__, "litert": litert,
            "onnxruntime": onnxruntime.__version__, "numpy": np.__version__, "python": sys.version.split()[0]}


_compiled = {}


def op_run_ir(req):
    o = ov()
    xml = req["xml"]
    model = core().read_model(xml)
    compiled = core().compile_model(model, "CPU", {
        "INFERENCE_PRECISION_HINT": "f32",
        "EXECUTION_MODE_HINT": "ACCURACY",
        # One thread per bridge: the suite runs a few bridges side by side on small models.
        "INFERENCE_NUM_THREADS": int(os.environ.get("OVIR_ORACLE_THREADS", "1")),
        "NUM_STREAMS": 1,
    })
    inputs = req.get("inputs", {})
    request = compiled.create_infer_request()
    for i, port in enumerate(compiled.inputs):
        arr = _pick(inputs, port.get_names(), i, len(compiled.inputs))
        if isinstance(arr, np.ndarray) and arr.dtype == np.uint16 and port.get_element_type().get_type_name() == "bf16":
            arr = Narrow("bf16", list(arr.shape), arr.tobytes())  # old ONNX test data stores bfloat16 as uint16
        if isinstance(arr, Narrow):
            request.set_input_tensor(i, arr.ov_tensor())
        elif arr.dtype == object:
            request.set_input_tensor(i, o.Tensor(arr))
        else:
            request.set_input_tensor(i, o.Tensor(arr, shared_memory=False))
    request.infer()
    outputs = []
    for i, port in enumerate(compiled.outputs):
        t = request.get_output_tensor(i)
        et = t.get_element_type().get_type_name()
        if et == "string":
            tensor = tensor_out(np.array(t.str_data, dtype=object).reshape(_shape(t.shape)))
        else:
            data = np.array(t.data, copy=True)
            tensor = {"dtype": et, "shape": _shape(t.shape),
                      "b64": base64.b64encode(np.ascontiguousarray(data).tobytes()).decode("ascii")}
        outputs.append({"index": i, "names": sorted(port.get_names()), "tensor": tensor})
    return {"outputs": outputs}


def op_ovc(req):
    o = ov()
    shapes = req.get("input_shapes")  # {name: [dims]}: what `ovc --input name[dims]` does
    if shapes:
        model = o.convert_model(req["onnx"], input=[(n, o.PartialShape(d)) for n, d in shapes.items()])
    else:
        model = o.convert_model(req["onnx"])
    out = req["out_xml"]
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    o.save_model(model, out, compress_to_fp16=bool(req.get("compress_to_fp16", False)))
    return {}


def _dim(d):
    if d.is_static:
        return d.get_length()
    lo, hi = d.get_min_length(), d.get_max_length()
    if lo <= 0 and hi < 0:
        return None
    return f"{max(lo, 0)}..{'' if hi < 0 else hi}"


def _pshape(ps):
    if ps.rank.is_dynamic:
        return None
    return [_dim(d) for d in ps]


def op_partial_shapes(req):
    model = core().read_model(req["xml"])

    def port(p):
        return {"names": sorted(p.get_names()), "dtype": p.get_element_type().get_type_name(),
                "shape": _pshape(p.get_partial_shape())}

    return {"inputs": [port(p) for p in model.inputs], "outputs": [port(p) for p in model.outputs]}


def _bodies(op):
    """The bodies of a multi-graph op by their IR element name (If: then_body/else_body, Loop/TensorIterator: body)."""
    if op.get_type_name() == "If":
        return [("then_body", op.get_then_body()), ("else_body", op.get_else_body())]
    if hasattr(op, "get_function"):
        try:
            return [("body", op.get_function())]
        except Exception:  # noqa: BLE001 - an op without a body
            return []
    return []


def op_port_shapes(req):
    """Every output port of every op, bodies included (iteratively), as OpenVINO reads the IR."""
    model = core().read_model(req["xml"])
    ports = []
    todo = [("", model)]
    while todo:
        path, m = todo.pop()
        for op in m.get_ordered_ops():
            name = op.get_friendly_name()
            for k, out in enumerate(op.outputs()):
                ports.append({"path": path, "node": name, "type": op.get_type_name(), "port": k,
                              "dtype": out.get_element_type().get_type_name(), "shape": _pshape(out.get_partial_shape())})
            for key, body in _bodies(op):
                todo.append((f"{path}{name}/{key}/", body))
    return {"ports": ports}


def _onnx_value(vi, kind):
    t = vi.type
    which = t.WhichOneof("value")
    if which != "tensor_type":
        return {"name": vi.name, "kind": kind, "dtype": which or "unknown", "shape": None, "dims": None}
    tt = t.tensor_type
    dtype = _ONNX_ELEM.get(tt.elem_type, f"onnx{tt.elem_type}")
    if not tt.HasField("shape"):
        shape = None
    else:
        shape = []
        for d in tt.shape.dim:
            w = d.WhichOneof("value")
            shape.append(d.dim_value if w == "dim_value" else d.dim_param if w == "dim_param" else None)
    return {"name": vi.name, "kind": kind, "dtype": dtype, "shape": shape, "dims": shape}


def op_onnx_infer_shapes(req):
    import onnx
    model = onnx.load(req["onnx"])
    inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
    g = inferred.graph
    values = [_onnx_value(v, "input") for v in g.input]
    values += [_onnx_value(v, "value_info") for v in g.value_info]
    values += [_onnx_value(v, "output") for v in g.output]
    return {"values": values}


def op_onnx_check(req):
    import onnx
    try:
        onnx.checker.check_model(req["onnx"], full_check=True)
        return {"ok": True}
    except Exception as e:  # the checker's verdict, not a bridge failure
        return {"ok": False, "error": _one_line(e)}


_ORT_ELEM = {
    "tensor(float)": "f32", "tensor(double)": "f64", "tensor(float16)": "f16", "tensor(int8)": "i8",
    "tensor(int16)": "i16", "tensor(int32)": "i32", "tensor(int64)": "i64", "tensor(uint8)": "u8",
    "tensor(uint16)": "u16", "tensor(uint32)": "u32", "tensor(uint64)": "u64", "tensor(bool)": "boolean",
    "tensor(string)": "string", "tensor(bfloat16)": "bf16", "tensor(float8e4m3fn)": "f8e4m3",
    "tensor(float8e4m3fnuz)": "f8e4m3fnuz", "tensor(float8e5m2)": "f8e5m2", "tensor(float8e5m2fnuz)": "f8e5m2fnuz",
    "tensor(uint4)": "u4", "tensor(int4)": "i4", "tensor(float4e2m1)": "f4e2m1", "tensor(uint2)": "u2",
    "tensor(int2)": "i2", "tensor(float8e8m0)": "f8e8m0",
}


def _ort_out(value, meta_type):
    """An onnxruntime output OrtValue as a response tensor (narrow types read as raw bytes)."""
    dtype = _ORT_ELEM.get(value.data_type()) or _ORT_ELEM.get(meta_type)
    if dtype in _NARROW:
        shape = list(value.shape())
        n = int(np.prod(shape)) if shape else 1
        raw = ctypes.string_at(value.data_ptr(), (n * _NARROW[dtype][1] + 7) // 8)
        return {"dtype": dtype, "shape": shape, "b64": base64.b64encode(raw).decode("ascii")}
    r = value.numpy()
    if not isinstance(r, np.ndarray):
        raise ValueError(f"output is a {type(r).__name__}, not a tensor")
    return tensor_out(r, dtype)


def op_run_ort(req):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    sess = ort.InferenceSession(req["onnx"], opts, providers=["CPUExecutionProvider"])
    inputs = req.get("inputs", {})
    ports = sess.get_inputs()
    picked = [_pick(inputs, [p.name], i, len(ports)) for i, p in enumerate(ports)]
    metas = sess.get_outputs()
    # narrow types in or out (numpy has none of them): OrtValues, outputs read as raw bytes
    if any(isinstance(a, Narrow) for a in picked) or any(_ORT_ELEM.get(m.type) in _NARROW for m in metas):
        feed = {p.name: (a.ort_value() if isinstance(a, Narrow) else ort.OrtValue.ortvalue_from_numpy(a))
                for p, a in zip(ports, picked)}
        results = sess.run_with_ort_values(None, feed)
    else:
        results = sess.run(None, {p.name: a for p, a in zip(ports, picked)})
    outputs = []
    for i, (meta, r) in enumerate(zip(metas, results)):
        if isinstance(r, ort.OrtValue):
            if not r.is_tensor():
                raise ValueError(f"output {meta.name} is not a tensor")
            tensor = _ort_out(r, meta.type)
        elif not isinstance(r, np.ndarray):
            raise ValueError(f"output {meta.name} is a {type(r).__name__}, not a tensor")
        else:
            tensor = tensor_out(r, _ORT_ELEM.get(meta.type))
        outputs.append({"index": i, "names": [meta.name], "tensor": tensor})
    return {"outputs": outputs}


def op_run_tflite(req):
    """LiteRT (TensorFlow Lite's runtime, ai-edge-litert) on a .tflite model: the original's own engine."""
    from ai_edge_litert.interpreter import Interpreter
    it = Interpreter(model_path=req["tflite"], num_threads=int(os.environ.get("OVIR_ORACLE_THREADS", "1")))
    it.allocate_tensors()
    inputs = req.get("inputs", {})
    details = it.get_input_details()
    for i, d in enumerate(details):
        arr = _pick(inputs, [d["name"]], i, len(details))
        if isinstance(arr, Narrow):
            raise HarnessLimit(f"LiteRT input {d['name']}: the bridge passes no {arr.dtype} to LiteRT")
        it.set_tensor(d["index"], arr)
    it.invoke()
    return {"outputs": [{"index": i, "names": [d["name"]], "tensor": tensor_out(it.get_tensor(d["index"]))}
                        for i, d in enumerate(it.get_output_details())]}


def _widen_to_f64(graph):
    """Every f32/f16 tensor of `graph` and its bodies made f64: initializers, Constant and
    ConstantOfShape values, Cast targets and declared types (what an f64 evaluation of the same
    arithmetic needs)."""
    from onnx import AttributeProto, TensorProto, numpy_helper
    narrow = (TensorProto.FLOAT, TensorProto.FLOAT16)
    def wide(t):
        return numpy_helper.from_array(numpy_helper.to_array(t).astype(np.float64), t.name)
    for i, t in enumerate(graph.initializer):
        if t.data_type in narrow:
            graph.initializer[i].CopyFrom(wide(t))
    for vi in list(graph.input) + list(graph.output) + list(graph.value_info):
        if vi.type.tensor_type.elem_type in narrow:
            vi.type.tensor_type.elem_type = TensorProto.DOUBLE
    for n in graph.node:
        for a in n.attribute:
            if a.name == "to" and n.op_type == "Cast" and a.i in narrow:
                a.i = TensorProto.DOUBLE
            elif a.type == AttributeProto.TENSOR and a.t.data_type in narrow:
                a.t.CopyFrom(wide(a.t))
            elif a.type == AttributeProto.GRAPH:
                _widen_to_f64(a.g)
            elif a.type == AttributeProto.GRAPHS:
                for g in a.graphs:
                    _widen_to_f64(g)


def op_run_onnx_reference(req):
    """onnx.reference.ReferenceEvaluator (onnx's own Python implementation of the operators). With
    `f64`, the model's f32/f16 arithmetic is evaluated in f64 (inputs widened, outputs given back in
    their declared types): a reference for f32 engines whose rounding differs."""
    import onnx
    from onnx.reference import ReferenceEvaluator
    model = onnx.load(req["onnx"])
    declared = {o.name: o.type.tensor_type.elem_type for o in model.graph.output}
    wide = bool(req.get("f64"))
    if wide:
        _widen_to_f64(model.graph)
    ref = ReferenceEvaluator(model)
    inputs = req.get("inputs", {})
    names = list(ref.input_names)
    feed = {}
    for i, n in enumerate(names):
        a = _pick(inputs, [n], i, len(names))
        if isinstance(a, Narrow):
            raise HarnessLimit(f"the onnx reference evaluator is not given {a.dtype} inputs by this bridge")
        feed[n] = a.astype(np.float64) if wide and a.dtype in (np.float32, np.float16) else a
    results = ref.run(None, feed)
    elem = {n: _ONNX_ELEM.get(t) for n, t in declared.items()}
    outputs = []
    for i, (n, r) in enumerate(zip(ref.output_names, results)):
        a, d = np.asarray(r), elem.get(n)
        if d in _NUMPY and a.dtype != np.dtype(_NUMPY[d]):
            a = a.astype(_NUMPY[d])  # the evaluator may compute in another precision than the declared type
        outputs.append({"index": i, "names": [n], "tensor": tensor_out(a, d if d in _NUMPY else None)})
    return {"outputs": outputs}


OPS = {
    "port_shapes": op_port_shapes,
    "run_onnx_reference": op_run_onnx_reference,
    "hello": op_hello,
    "run_ir": op_run_ir,
    "run_tflite": op_run_tflite,
    "ovc": op_ovc,
    "partial_shapes": op_partial_shapes,
    "onnx_infer_shapes": op_onnx_infer_shapes,
    "onnx_check": op_onnx_check,
    "run_ort": op_run_ort,
}


def _one_line(e):
    text = str(e).strip() or type(e).__name__
    return f"{type(e).__name__}: {text}" if not text.startswith(type(e).__name__) else text


def _decode_inputs(req):
    if "inputs" in req:
        req["inputs"] = {k: tensor_in(v) for k, v in req["inputs"].items()}


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        rid = None
        try:
            req = json.loads(line)
            rid = req.get("id")
            fn = OPS.get(req.get("op"))
            if fn is None:
                raise ValueError(f"unknown op {req.get('op')!r}")
            _decode_inputs(req)
            answer = {"id": rid, "result": fn(req)}
        except Exception as e:  # noqa: BLE001 - every failure is an answer, never the end of the bridge
            if os.environ.get("OVIR_ORACLE_DEBUG"):
                traceback.print_exc(file=sys.stderr)
            answer = {"id": rid, "error": _one_line(e)}
        _answers.write(json.dumps(answer, separators=(",", ":")) + "\n")
        _answers.flush()


if __name__ == "__main__":
    main()
