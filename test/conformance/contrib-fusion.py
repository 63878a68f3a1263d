"""Builds the ONNX models of test/conformance/contrib-fusion.test.ts: onnxruntime's com.microsoft
contrib ops of transformer models (GELU family, BiasAdd, fused MatMul / Conv / Gemm, layer
normalizations, Attention, MultiHeadAttention, GroupQueryAttention, RotaryEmbedding, Range, Trilu, Pad, GatherND, GroupNorm, SkipGroupNorm; and SimplifiedLayerNormalization, its
contrib op in the ONNX domain), one node per model, with seeded inputs.

Usage: contrib-fusion.py OUT_DIR → writes OUT_DIR/<case>.onnx and prints one JSON list:
[{"name", "onnx", "inputs": {name: {"dtype", "shape", "hex"}}, "refused": bool, "expected"?: [{"dtype", "shape", "hex"}]}]
("refused": ovir is meant to refuse the model with a coded diagnostic naming the node; "expected": the
outputs computed here in numpy from the op's definition, for ops onnxruntime's CPU EP has no kernel
for — GroupNorm, SkipGroupNorm — the reference the conversion is judged against instead).
"""
import json
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
MS = "com.microsoft"
cases = []
rng = np.random.default_rng(20261128)

ELEM = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16, np.int32: TensorProto.INT32, np.int64: TensorProto.INT64}
WIRE = {np.float32: "f32", np.float16: "f16", np.int32: "i32", np.int64: "i64"}


def tensor_json(a):
    return {"dtype": WIRE[a.dtype.type], "shape": list(a.shape), "hex": np.ascontiguousarray(a).tobytes().hex()}


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def save(name, op, inputs, outputs, attrs=None, domain=MS, refused=False, consts=None, out_types=None, dims=None, expected=None):
    """inputs: list of (name, array) with "" for an absent optional input; outputs: names ("" absent);
    consts: names among the inputs written as initializers (not fed); dims: an input's declared dims
    (symbolic names allowed) where they are not the array's; expected: the outputs as numpy computes
    them (ops onnxruntime cannot run)."""
    consts = consts or set()
    node = helper.make_node(op, [n for n, _ in inputs], outputs, domain=domain, **(attrs or {}))
    feeds = {n: a for n, a in inputs if n and n not in consts}
    inits = [numpy_helper.from_array(a, n) for n, a in inputs if n and n in consts]
    ins = [helper.make_tensor_value_info(n, ELEM[a.dtype.type], (dims or {}).get(n, list(a.shape))) for n, a in feeds.items()]
    out_types = out_types or {}
    outs = [helper.make_tensor_value_info(o, out_types.get(o, ELEM[inputs[0][1].dtype.type] if inputs[0][0] else TensorProto.FLOAT), None) for o in outputs if o]
    graph = helper.make_graph([node], name, ins, outs, initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)])
    model.ir_version = 8
    path = os.path.join(OUT, name + ".onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    case = {"name": name, "onnx": path, "inputs": {k: tensor_json(v) for k, v in feeds.items()}, "refused": refused}
    if expected is not None:
        case["expected"] = [tensor_json(a) for a in expected]
    cases.append(case)


# ── GELU family, BiasAdd ──────────────────────────────────────────────────────────────────────
save("gelu", "Gelu", [("X", f32(2, 3, 8, scale=2))], ["Y"])
save("bias_gelu", "BiasGelu", [("A", f32(2, 3, 8, scale=2)), ("B", f32(8))], ["Y"])
save("bias_gelu_const_bias", "BiasGelu", [("A", f32(2, 3, 8, scale=2)), ("B", f32(8))], ["Y"], consts={"B"})
save("fast_gelu", "FastGelu", [("X", f32(2, 3, 8, scale=2))], ["Y"])
save("fast_gelu_bias", "FastGelu", [("X", f32(2, 3, 8, scale=2)), ("bias", f32(8))], ["Y"])
save("quick_gelu", "QuickGelu", [("X", f32(2, 3, 8, scale=3))], ["Y"])
save("quick_gelu_alpha_1", "QuickGelu", [("X", f32(2, 3, 8, scale=3))], ["Y"], {"alpha": 1.0})
save("quick_gelu_alpha_neg", "QuickGelu", [("X", f32(4, 5, scale=3))], ["Y"], {"alpha": -0.75})
save("bias_add", "BiasAdd", [("X", f32(2, 3, 8)), ("bias", f32(8)), ("skip", f32(2, 3, 8))], ["Y"])

# ── FusedMatMul ───────────────────────────────────────────────────────────────────────────────
save("fused_matmul_alpha", "FusedMatMul", [("A", f32(2, 3, 4, 5)), ("B", f32(2, 3, 5, 6))], ["Y"], {"alpha": 0.125})
save("fused_matmul_2d", "FusedMatMul", [("A", f32(4, 5)), ("B", f32(5, 6))], ["Y"], {"alpha": 2.0})
save("fused_matmul_transA", "FusedMatMul", [("A", f32(3, 5, 4)), ("B", f32(3, 5, 6))], ["Y"], {"transA": 1})
save("fused_matmul_transB", "FusedMatMul", [("A", f32(3, 4, 5)), ("B", f32(3, 6, 5))], ["Y"], {"transB": 1, "alpha": -0.5})
save("fused_matmul_transAB", "FusedMatMul", [("A", f32(2, 5, 4)), ("B", f32(6, 5))], ["Y"], {"transA": 1, "transB": 1})
save("fused_matmul_broadcast", "FusedMatMul", [("A", f32(2, 1, 4, 5)), ("B", f32(3, 5, 6))], ["Y"], {"alpha": 0.5})
save("fused_matmul_vector", "FusedMatMul", [("A", f32(5)), ("B", f32(2, 5, 6))], ["Y"], {"alpha": 3.0})
save("fused_matmul_const_B", "FusedMatMul", [("A", f32(2, 4, 5)), ("B", f32(5, 6))], ["Y"], {"alpha": 0.25}, consts={"B"})
save("fused_matmul_transBatchA", "FusedMatMul", [("A", f32(4, 2, 3, 5)), ("B", f32(2, 3, 5, 6))], ["Y"], {"transBatchA": 1})
save("fused_matmul_transBatchB", "FusedMatMul", [("A", f32(2, 3, 4, 5)), ("B", f32(5, 2, 3, 6))], ["Y"], {"transBatchB": 1})
save("fused_matmul_transBatchA_transA", "FusedMatMul", [("A", f32(5, 2, 3, 4)), ("B", f32(2, 3, 5, 6))], ["Y"], {"transBatchA": 1, "transA": 1})
save("fused_matmul_transBatchB_transB", "FusedMatMul", [("A", f32(2, 3, 4, 5)), ("B", f32(6, 2, 3, 5))], ["Y"], {"transBatchB": 1, "transB": 1, "alpha": 0.5})
save("fused_matmul_transBatch_3d", "FusedMatMul", [("A", f32(4, 3, 5)), ("B", f32(5, 3, 6))], ["Y"], {"transBatchA": 1, "transBatchB": 1})

# ── FusedConv ─────────────────────────────────────────────────────────────────────────────────
CONV_ACTS = {"Relu": [], "Tanh": [], "Sigmoid": [], "LeakyRelu": [0.15], "Clip": [-0.6, 0.8], "HardSigmoid": [0.3, 0.45]}
for act, params in CONV_ACTS.items():
    attrs = {"activation": act}
    if params:
        attrs["activation_params"] = params
    save(f"fused_conv_{act.lower()}", "FusedConv", [("X", f32(1, 2, 6, 6)), ("W", f32(3, 2, 3, 3)), ("B", f32(3))], ["Y"], {**attrs, "pads": [1, 1, 1, 1]}, consts={"W", "B"})
save("fused_conv_relu_z", "FusedConv", [("X", f32(1, 2, 5, 5)), ("W", f32(3, 2, 3, 3)), ("B", f32(3)), ("Z", f32(1, 3, 3, 3))], ["Y"], {"activation": "Relu"}, consts={"W", "B"})
save("fused_conv_z_no_bias", "FusedConv", [("X", f32(1, 2, 5, 5)), ("W", f32(3, 2, 3, 3)), ("", None), ("Z", f32(1, 3, 3, 3))], ["Y"], {"activation": "Sigmoid"}, consts={"W"})
save("fused_conv_no_activation", "FusedConv", [("X", f32(1, 2, 5, 5)), ("W", f32(3, 2, 3, 3))], ["Y"], {"strides": [2, 2]}, consts={"W"})
save("fused_conv_grouped", "FusedConv", [("X", f32(2, 4, 6, 6)), ("W", f32(4, 2, 3, 3)), ("B", f32(4))], ["Y"], {"activation": "LeakyRelu", "activation_params": [0.01], "group": 2, "auto_pad": "SAME_UPPER"}, consts={"W", "B"})
save("fused_conv_1d_dilated", "FusedConv", [("X", f32(1, 3, 12)), ("W", f32(4, 3, 3)), ("B", f32(4))], ["Y"], {"activation": "Tanh", "dilations": [2]}, consts={"W", "B"})
save("fused_conv_runtime_weights", "FusedConv", [("X", f32(1, 2, 5, 5)), ("W", f32(3, 2, 3, 3)), ("B", f32(3))], ["Y"], {"activation": "Relu"})
# onnxruntime refuses these (unknown activation, missing parameters): skipped, never judged
save("fused_conv_elu", "FusedConv", [("X", f32(1, 2, 5, 5)), ("W", f32(3, 2, 3, 3))], ["Y"], {"activation": "Elu", "activation_params": [1.0]}, consts={"W"}, refused=True)
save("fused_conv_leakyrelu_no_params", "FusedConv", [("X", f32(1, 2, 5, 5)), ("W", f32(3, 2, 3, 3))], ["Y"], {"activation": "LeakyRelu"}, consts={"W"}, refused=True)

# ── FusedGemm ─────────────────────────────────────────────────────────────────────────────────
GEMM_ACTS = {"Relu": {}, "Tanh": {}, "Sigmoid": {}, "LeakyRelu": {"activation_alpha": 0.2}, "HardSigmoid": {"activation_alpha": 0.3, "activation_beta": 0.45},
             "Elu": {"activation_alpha": 0.7}, "Selu": {"activation_alpha": 1.6, "activation_gamma": 1.05}, "ThresholdedRelu": {"activation_alpha": 0.4},
             "Softsign": {}, "Softplus": {}, "ScaledTanh": {"activation_alpha": 1.5, "activation_beta": 0.6}, "ParametricSoftplus": {"activation_alpha": 0.8, "activation_beta": 1.3}}
for act, extra in GEMM_ACTS.items():
    save(f"fused_gemm_{act.lower()}", "FusedGemm", [("A", f32(3, 4)), ("B", f32(4, 5)), ("C", f32(5))], ["Y"], {"activation": act, "alpha": 0.75, "beta": 1.5, **extra}, consts={"B", "C"})
save("fused_gemm_trans", "FusedGemm", [("A", f32(4, 3)), ("B", f32(5, 4)), ("C", f32(3, 5))], ["Y"], {"activation": "Relu", "transA": 1, "transB": 1})
save("fused_gemm_no_c", "FusedGemm", [("A", f32(3, 4)), ("B", f32(4, 5))], ["Y"], {"activation": "Tanh"}, consts={"B"})
save("fused_gemm_leakyrelu_no_alpha", "FusedGemm", [("A", f32(3, 4)), ("B", f32(4, 5))], ["Y"], {"activation": "LeakyRelu"}, consts={"B"}, refused=True)
save("fused_gemm_clip", "FusedGemm", [("A", f32(3, 4)), ("B", f32(4, 5))], ["Y"], {"activation": "Clip"}, consts={"B"}, refused=True)

# ── SkipLayerNormalization, SkipSimplifiedLayerNormalization, SimplifiedLayerNormalization ────
H = 16
save("skip_layer_norm_full", "SkipLayerNormalization",
     [("input", f32(2, 5, H)), ("skip", f32(2, 5, H)), ("gamma", f32(H)), ("beta", f32(H)), ("bias", f32(H))],
     ["output", "mean", "inv_std_var", "input_skip_bias_sum"], {"epsilon": 1e-5}, consts={"gamma", "beta", "bias"})
save("skip_layer_norm_min", "SkipLayerNormalization", [("input", f32(2, 5, H)), ("skip", f32(2, 5, H)), ("gamma", f32(H))], ["output"], consts={"gamma"})
save("skip_layer_norm_sum_only", "SkipLayerNormalization",
     [("input", f32(2, 5, H)), ("skip", f32(2, 5, H)), ("gamma", f32(H)), ("beta", f32(H))], ["output", "", "", "input_skip_bias_sum"], {"epsilon": 1e-6}, consts={"gamma", "beta"})
save("skip_layer_norm_skip_broadcast", "SkipLayerNormalization", [("input", f32(2, 5, H)), ("skip", f32(5, H)), ("gamma", f32(H)), ("beta", f32(H))], ["output"], {"epsilon": 1e-5})
save("skip_layer_norm_2d", "SkipLayerNormalization", [("input", f32(6, H)), ("skip", f32(6, H)), ("gamma", f32(H)), ("", None), ("bias", f32(H))], ["output", "mean"], {"epsilon": 1e-5})
save("skip_simplified_layer_norm", "SkipSimplifiedLayerNormalization",
     [("input", f32(2, 5, H)), ("skip", f32(2, 5, H)), ("gamma", f32(H)), ("bias", f32(H))], ["output", "", "inv_std_var", "input_skip_bias_sum"], {"epsilon": 1e-5}, consts={"gamma", "bias"})
save("skip_simplified_layer_norm_min", "SkipSimplifiedLayerNormalization", [("input", f32(2, 5, H)), ("skip", f32(2, 5, H)), ("gamma", f32(H))], ["output"], {"epsilon": 1e-6})
# its mean output onnxruntime never writes: refused when read
save("skip_simplified_layer_norm_mean", "SkipSimplifiedLayerNormalization", [("input", f32(2, 5, H)), ("skip", f32(2, 5, H)), ("gamma", f32(H))], ["output", "mean"], {"epsilon": 1e-6}, refused=True)
save("simplified_layer_norm", "SimplifiedLayerNormalization", [("X", f32(2, 5, H)), ("scale", f32(H))], ["Y"], {"epsilon": 1e-5, "axis": -1}, domain="", consts={"scale"})
save("simplified_layer_norm_inv", "SimplifiedLayerNormalization", [("X", f32(2, 5, H)), ("scale", f32(H))], ["Y", "inv_std_var"], {"epsilon": 1e-6}, domain="")
save("simplified_layer_norm_axis1", "SimplifiedLayerNormalization", [("X", f32(2, 3, 4)), ("scale", f32(3, 4))], ["Y", "inv_std_var"], {"axis": 1}, domain="")
# stash_type 10 with inv_std_var unread: onnxruntime still computes in f32
save("simplified_layer_norm_stash_f16", "SimplifiedLayerNormalization", [("X", f32(2, 3, 4, scale=30)), ("scale", f32(4))], ["Y"], {"stash_type": 10}, domain="")

# ── GroupNorm, SkipGroupNorm (diffusion models; onnxruntime has CUDA / ROCm / WebGPU kernels only) ─
# judged against this numpy reference of the schema's definition (diffusion_defs.cc): the groups of
# C / groups channels normalized over them and the spatial dims (epsilon inside the root; the
# kernels accumulate in float), · gamma + beta per channel, SiLU for activation 1; SkipGroupNorm
# first sums X + skip (+ bias), skip [N, H, W, C], [N, 1, 1, C] or [N, C], and returns the sum as S
def group_norm_ref(x, gamma, beta, groups, eps=1e-5, activation=0, channels_last=1):
    t = x.astype(np.float64)
    if channels_last:
        t = np.moveaxis(t, -1, 1)
    n, c = t.shape[:2]
    g = t.reshape(n, groups, -1)
    g = (g - g.mean(axis=2, keepdims=True)) / np.sqrt(g.var(axis=2, keepdims=True) + np.float32(eps))
    per = (c,) + (1,) * (t.ndim - 2)
    y = g.reshape(t.shape) * gamma.astype(np.float64).reshape(per) + beta.astype(np.float64).reshape(per)
    if activation:
        y = y / (1 + np.exp(-y))
    if channels_last:
        y = np.moveaxis(y, 1, -1)
    return y.astype(x.dtype)


def group_norm(name, shape, groups, attrs=None, elem=np.float32, consts=()):
    attrs = {"groups": groups, "activation": 0, **(attrs or {})}
    x, gamma, beta = f32(*shape, scale=2).astype(elem) + 0.5, 1 + f32(shape[-1 if attrs.get("channels_last", 1) else 1], scale=0.2), f32(shape[-1 if attrs.get("channels_last", 1) else 1], scale=0.2)
    y = group_norm_ref(x, gamma, beta, groups, attrs.get("epsilon", 1e-5), attrs["activation"], attrs.get("channels_last", 1))
    save(name, "GroupNorm", [("X", x), ("gamma", gamma), ("beta", beta)], ["Y"], attrs, consts=set(consts), expected=[y])


def skip_group_norm(name, shape, groups, skip_shape=None, bias=True, attrs=None, elem=np.float32, outputs=("Y", "S")):
    attrs = {"groups": groups, "activation": 0, **(attrs or {})}
    C = shape[-1]
    x, skip = f32(*shape).astype(elem), f32(*(skip_shape or shape)).astype(elem)
    gamma, beta, b = 1 + f32(C, scale=0.2), f32(C, scale=0.2), f32(C, scale=0.5).astype(elem)
    k = skip.reshape(skip.shape[0], *([1] * (len(shape) - 2)), C) if skip.ndim == 2 else skip
    s = (x.astype(np.float32) + k + (b if bias else 0)).astype(elem)
    y = group_norm_ref(s, gamma, beta, groups, attrs.get("epsilon", 1e-5), attrs["activation"])
    ins = [("X", x), ("gamma", gamma), ("beta", beta), ("skip", skip)] + ([("bias", b)] if bias else [])
    save(name, "SkipGroupNorm", ins, list(outputs), attrs, consts={"gamma", "beta"}, expected=[y, s][:len([o for o in outputs if o])])


group_norm("group_norm", (2, 5, 6, 16), 4)
group_norm("group_norm_silu_eps", (2, 4, 4, 32), 8, {"activation": 1, "epsilon": 1e-6}, consts=("gamma", "beta"))
group_norm("group_norm_one_group", (1, 3, 5, 12), 1)
group_norm("group_norm_group_per_channel", (2, 3, 3, 6), 6, {"activation": 1})
group_norm("group_norm_nchw", (2, 12, 4, 5), 3, {"channels_last": 0, "activation": 1})
group_norm("group_norm_f16", (2, 4, 4, 16), 4, {"activation": 1}, elem=np.float16)
skip_group_norm("skip_group_norm", (2, 4, 4, 16), 4)
skip_group_norm("skip_group_norm_skip_nc_silu", (2, 3, 5, 16), 8, skip_shape=(2, 16), attrs={"activation": 1})
skip_group_norm("skip_group_norm_skip_n11c_no_bias", (2, 4, 3, 8), 2, skip_shape=(2, 1, 1, 8), bias=False)
skip_group_norm("skip_group_norm_y_only", (1, 4, 4, 16), 4, attrs={"epsilon": 1e-6}, outputs=("Y",))
skip_group_norm("skip_group_norm_f16", (2, 4, 4, 16), 4, attrs={"activation": 1}, elem=np.float16)

# ── EmbedLayerNormalization ───────────────────────────────────────────────────────────────────
B, S, V, P, G = 2, 6, 20, 9, 3
def ids(hi, *shape):
    return rng.integers(0, hi, shape).astype(np.int32)
mask = np.array([[1, 1, 1, 1, 0, 0], [1, 0, 1, 1, 1, 0]], np.int32)
emb = lambda: [("word_embedding", f32(V, H)), ("position_embedding", f32(P, H))]
save("embed_layer_norm_full", "EmbedLayerNormalization",
     [("input_ids", ids(V, B, S)), ("segment_ids", ids(G, B, S)), *emb(), ("segment_embedding", f32(G, H)), ("gamma", f32(H)), ("beta", f32(H)), ("mask", mask)],
     ["output", "mask_index", "embedding_sum"], {"epsilon": 1e-5}, consts={"word_embedding", "position_embedding", "segment_embedding", "gamma", "beta"},
     out_types={"output": TensorProto.FLOAT, "mask_index": TensorProto.INT32, "embedding_sum": TensorProto.FLOAT})
save("embed_layer_norm_no_segment_no_mask", "EmbedLayerNormalization",
     [("input_ids", ids(V, B, S)), ("", None), *emb(), ("", None), ("gamma", f32(H)), ("beta", f32(H))],
     ["output", "mask_index"], consts={"word_embedding", "position_embedding", "gamma", "beta"},
     out_types={"output": TensorProto.FLOAT, "mask_index": TensorProto.INT32})
save("embed_layer_norm_position_ids", "EmbedLayerNormalization",
     [("input_ids", ids(V, B, S)), ("segment_ids", ids(G, B, S)), *emb(), ("segment_embedding", f32(G, H)), ("gamma", f32(H)), ("beta", f32(H)), ("mask", mask), ("position_ids", ids(P, B, S))],
     ["output", "mask_index", "embedding_sum"], {"epsilon": 1e-5}, consts={"word_embedding", "position_embedding", "segment_embedding", "gamma", "beta"},
     out_types={"output": TensorProto.FLOAT, "mask_index": TensorProto.INT32, "embedding_sum": TensorProto.FLOAT})
save("embed_layer_norm_position_ids_row", "EmbedLayerNormalization",
     [("input_ids", ids(V, B, S)), ("segment_ids", ids(G, B, S)), *emb(), ("segment_embedding", f32(G, H)), ("gamma", f32(H)), ("beta", f32(H)), ("", None), ("position_ids", ids(P, 1, S))],
     ["output", "mask_index"], {"epsilon": 1e-5, "mask_index_type": 0},
     out_types={"output": TensorProto.FLOAT, "mask_index": TensorProto.INT32})

# ── Attention ─────────────────────────────────────────────────────────────────────────────────
D, NH = 16, 2
def attn(name, extra_inputs=(), attrs=None, outputs=("output",), S=5, W=None, bias=True, refused=False, consts=("weights", "bias")):
    W = W if W is not None else 3 * D
    ins = [("input", f32(2, S, D)), ("weights", f32(D, W, scale=0.5)), ("bias", f32(W, scale=0.2)) if bias else ("", None)]
    ins += list(extra_inputs)
    while ins and ins[-1][0] == "":
        ins.pop()
    save(name, "Attention", ins, list(outputs), {"num_heads": NH, **(attrs or {})}, consts=set(consts), refused=refused)
i32 = lambda *a: np.array(a, np.int32)
save_mask = lambda m: [("mask_index", m)]
attn("attention")
attn("attention_no_bias", bias=False, consts=("weights",))
attn("attention_runtime_weights", consts=())
attn("attention_mask_raw_2d", save_mask(np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], np.int32)))
attn("attention_mask_raw_3d", save_mask((rng.random((2, 5, 5)) < 0.7).astype(np.int32)))
attn("attention_mask_end", save_mask(i32(3, 5)))
attn("attention_mask_end_start", save_mask(i32(5, 4, 1, 0)))
attn("attention_mask_all_masked_row", save_mask(i32(0, 2)))
attn("attention_unidirectional", attrs={"unidirectional": 1})
attn("attention_unidirectional_mask", save_mask(np.array([[1, 1, 1, 1, 0], [0, 1, 1, 1, 1]], np.int32)), attrs={"unidirectional": 1})
attn("attention_unidirectional_mask_zero_length", save_mask(i32(0, 3)), attrs={"unidirectional": 1})
attn("attention_scale_filter", save_mask(i32(4, 2)), attrs={"scale": 0.3, "mask_filter_value": -50.0})
attn("attention_qkv_hidden_sizes", W=40, attrs={"qkv_hidden_sizes": [16, 16, 8]})
attn("attention_attention_bias", [("", None), ("", None), ("attention_bias", f32(1, NH, 5, 5))])
attn("attention_present", outputs=("output", "present"))
attn("attention_past", [("", None), ("past", f32(2, 2, NH, 3, D // NH))], attrs={"unidirectional": 1}, outputs=("output", "present"), S=2)
attn("attention_past_mask", [("mask_index", np.array([[0, 1, 1, 1, 1], [1, 1, 1, 1, 1]], np.int32)), ("past", f32(2, 2, NH, 3, D // NH))], outputs=("output", "present"), S=2)
attn("attention_do_rotary", attrs={"do_rotary": 1}, refused=True)

# ── RotaryEmbedding, Range, Trilu ─────────────────────────────────────────────────────────────
RB, RS, RN, RH = 2, 4, 2, 8
cos_cache, sin_cache = f32(12, RH // 2), f32(12, RH // 2)
pos_ids = rng.integers(0, 12, (RB, RS)).astype(np.int64)
def rot(name, x, pos, attrs=None, caches=(cos_cache, sin_cache)):
    save(name, "RotaryEmbedding", [("input", x), ("position_ids", pos), ("cos_cache", caches[0]), ("sin_cache", caches[1])], ["output"], attrs or {}, consts={"cos_cache", "sin_cache"})
rot("rotary_embedding", f32(RB, RS, RN * RH), pos_ids)
rot("rotary_embedding_interleaved", f32(RB, RS, RN * RH), pos_ids, {"interleaved": 1})
rot("rotary_embedding_offset", f32(RB, RS, RN * RH), np.array([5], np.int64))
rot("rotary_embedding_4d", f32(RB, RN, RS, RH), pos_ids, {"interleaved": 1})
rot("rotary_embedding_partial", f32(RB, RS, RN * RH), pos_ids, {"num_heads": RN, "rotary_embedding_dim": 4}, caches=(f32(12, 2), f32(12, 2)))
rot("rotary_embedding_num_heads_scale", f32(RB, RS, RN * RH), np.array([0], np.int64), {"num_heads": RN, "scale": 2.0})
save("range", "Range", [("start", np.array(2, np.int64)), ("limit", np.array(17, np.int64)), ("delta", np.array(4, np.int64))], ["Y"], out_types={"Y": TensorProto.INT64})
save("range_no_delta", "Range", [("start", np.array(-1.5, np.float32)), ("limit", np.array(3.0, np.float32))], ["Y"])
save("trilu", "Trilu", [("X", f32(2, 4, 5)), ("k", np.array(1, np.int64))], ["Y"])
save("trilu_lower", "Trilu", [("X", f32(5, 3))], ["Y"], {"upper": 0})

save("pad_constant_2d_pads", "Pad", [("X", f32(3, 4)), ("pads", np.array([[0, 1, 2, 0]], np.int64)), ("value", np.array([7.5], np.float32))], ["Y"])
save("pad_reflect", "Pad", [("X", f32(2, 3, 4)), ("pads", np.array([0, 1, 2, 0, 2, 1], np.int64))], ["Y"], {"mode": "reflect"}, consts={"pads"})
save("pad_edge_default_value", "Pad", [("X", f32(3, 4)), ("pads", np.array([1, 0, 0, 2], np.int64))], ["Y"], {"mode": "edge"})
save("pad_constant_zero", "Pad", [("X", f32(3, 4)), ("pads", np.array([1, 1, 1, 1], np.int64))], ["Y"], consts={"pads"})
save("gather_nd", "GatherND", [("X", f32(3, 4, 5)), ("I", np.array([[0, 1], [2, -1], [1, 3]], np.int64))], ["Y"])
save("gather_nd_full_index", "GatherND", [("X", f32(3, 4)), ("I", np.array([[[0, 1]], [[2, 3]]], np.int64))], ["Y"])


# ── MultiHeadAttention ────────────────────────────────────────────────────────────────────────
def mha(name, ins, outputs=("output",), attrs=None, consts=(), refused=False):
    while ins and ins[-1][0] == "":
        ins = ins[:-1]
    save(name, "MultiHeadAttention", ins, list(outputs), {"num_heads": 2, **(attrs or {})}, consts=set(consts), refused=refused)
E = ("", None)
mha("mha_self_bias", [("query", f32(2, 5, 16)), ("key", f32(2, 5, 16)), ("value", f32(2, 5, 16)), ("bias", f32(48))], consts=("bias",))
mha("mha_cross_raw_mask", [("query", f32(2, 5, 16)), ("key", f32(2, 7, 16)), ("value", f32(2, 7, 12)), E, ("key_padding_mask", np.array([[1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 1, 1, 1, 1]], np.int32))])
mha("mha_key_lengths", [("query", f32(2, 5, 16)), ("key", f32(2, 7, 16)), ("value", f32(2, 7, 16)), E, ("key_padding_mask", np.array([4, 7], np.int32))])
mha("mha_mask_3d_scale", [("query", f32(2, 5, 16)), ("key", f32(2, 5, 16)), ("value", f32(2, 5, 16)), E, ("key_padding_mask", (rng.random((2, 5, 5)) < 0.8).astype(np.int32))], attrs={"scale": 0.2})
mha("mha_attention_bias", [("query", f32(2, 5, 16)), ("key", f32(2, 6, 16)), ("value", f32(2, 6, 16)), E, E, ("attention_bias", f32(1, 2, 5, 6))])
mha("mha_bnsh_kv", [("query", f32(2, 5, 16)), ("key", f32(2, 2, 7, 8)), ("value", f32(2, 2, 7, 8))])
mha("mha_packed_kv", [("query", f32(2, 5, 16)), ("key", f32(2, 7, 2, 2, 8))])
mha("mha_packed_qkv", [("query", f32(2, 5, 2, 3, 8))])
mha("mha_past_unidirectional", [("query", f32(2, 2, 16)), ("key", f32(2, 2, 16)), ("value", f32(2, 2, 16)), ("bias", f32(48)), E, E, ("past_key", f32(2, 2, 3, 8)), ("past_value", f32(2, 2, 3, 8))],
    outputs=("output", "present_key", "present_value"), attrs={"unidirectional": 1})
mha("mha_unidirectional_mask", [("query", f32(2, 5, 16)), ("key", f32(2, 5, 16)), ("value", f32(2, 5, 16)), E, ("key_padding_mask", np.array([[0, 1, 1, 1, 1], [1, 1, 1, 0, 0]], np.int32))], attrs={"unidirectional": 1})


# ── GroupQueryAttention (onnxruntime-genai's LLM attention) ──────────────────────────────────
# query / key / value [B, S, N·h] / [B, S, N_kv·h] (or query packed), past [B, N_kv, P, h],
# seqlens_k [B] (each row's keys − 1), total_sequence_length; present = past ++ new per row


def rope_caches(positions, half, dtype):
    inv = 1.0 / (10000 ** (np.arange(half) / half))
    ang = np.arange(positions)[:, None] * inv[None, :]
    return np.cos(ang).astype(dtype), np.sin(ang).astype(dtype)


def gqa(name, B, S, P, seqlens, T, N=4, Nkv=2, h=8, dtype=np.float32, attrs=None, packed=False, past=True, rotary=None, extra=(), refused=False, symbolic=False):
    """P None: no past inputs; rotary: (positions, half) of the caches (do_rotary set by attrs)."""
    x = lambda *shape: f32(*shape).astype(dtype)
    if packed:
        ins = [("query", x(B, S, (N + 2 * Nkv) * h)), ("", None), ("", None)]
    else:
        ins = [("query", x(B, S, N * h)), ("key", x(B, S, Nkv * h)), ("value", x(B, S, Nkv * h))]
    ins += [("past_key", x(B, Nkv, P, h)), ("past_value", x(B, Nkv, P, h))] if past else [("", None), ("", None)]
    ins += [("seqlens_k", np.array(seqlens, np.int32)), ("total_sequence_length", np.array(T, np.int32))]
    consts = set()
    if rotary:
        cos, sin = rope_caches(*rotary, dtype)
        ins += [("cos_cache", cos), ("sin_cache", sin)]
        consts = {"cos_cache", "sin_cache"}
    ins += list(extra)
    while ins and ins[-1][0] == "":
        ins.pop()
    outputs = ["output", "present_key", "present_value"]
    if attrs and attrs.get("qk_output"):
        outputs.append("output_qk")
    # symbolic: batch, sequence and past length as an LLM export declares them (hidden sizes known)
    # ("all": the hidden sizes too)
    dims = {n: ["batch", "sequence", f"{n}_hidden" if symbolic == "all" else a.shape[2]] if a.ndim == 3
            else ["batch", a.shape[1], "past_sequence", "head" if symbolic == "all" else a.shape[3]] if a.ndim == 4 else ["batch"]
            for n, a in ins if n and symbolic and n not in consts and n != "total_sequence_length"}
    save(name, "GroupQueryAttention", ins, outputs, {"num_heads": N, "kv_num_heads": Nkv, **(attrs or {})}, consts=consts, refused=refused, dims=dims)


gqa("gqa_prompt_no_past", 2, 4, 0, [3, 3], 4, past=False)
gqa("gqa_prompt_empty_past", 2, 4, 0, [3, 3], 4)
gqa("gqa_prompt_heads_equal", 2, 3, 0, [2, 2], 3, N=2, Nkv=2)
gqa("gqa_prompt_padded_rows", 2, 4, 0, [3, 1], 4)
gqa("gqa_decode_past_1", 2, 1, 1, [1, 1], 2)
gqa("gqa_decode_past_5_rows_differ", 2, 1, 5, [5, 3], 6)
gqa("gqa_decode_past_2_three_rows", 3, 1, 2, [2, 1, 0], 3)
gqa("gqa_decode_static_cache", 2, 1, 8, [5, 2], 6)
gqa("gqa_decode_one_kv_head", 2, 1, 4, [4, 2], 5, N=4, Nkv=1)
gqa("gqa_subsequent_prompt", 1, 3, 5, [7], 8)
# batch 1 with a past: the one form OpenVINO's own GroupQueryAttention (ovc) takes
gqa("gqa_decode_batch_1", 1, 1, 5, [5], 6)
gqa("gqa_rotary_prompt_batch_1", 1, 4, 0, [3], 4, h=16, attrs={"do_rotary": 1}, rotary=(8, 8))
# batch, sequence and past length symbolic, as onnxruntime-genai's exports declare them
gqa("gqa_symbolic_dims_decode", 2, 1, 5, [5, 3], 6, symbolic=True)
gqa("gqa_symbolic_dims_rotary_packed_prompt", 2, 4, 0, [3, 3], 4, h=16, packed=True, attrs={"do_rotary": 1}, rotary=(8, 8), symbolic=True)
gqa("gqa_symbolic_all_rotary_interleaved_decode", 2, 1, 4, [4, 2], 5, h=16, attrs={"do_rotary": 1, "rotary_interleaved": 1}, rotary=(8, 8), symbolic="all")
gqa("gqa_symbolic_all_rotary_partial_decode", 2, 1, 3, [3, 1], 4, h=32, attrs={"do_rotary": 1}, rotary=(8, 8), symbolic="all")
gqa("gqa_scale", 2, 1, 3, [3, 1], 4, attrs={"scale": 0.3})
gqa("gqa_packed_prompt", 2, 4, 0, [3, 3], 4, packed=True)
gqa("gqa_packed_decode", 2, 1, 4, [4, 1], 5, packed=True)
gqa("gqa_rotary_prompt", 2, 4, 0, [3, 3], 4, h=16, attrs={"do_rotary": 1}, rotary=(12, 8))
gqa("gqa_rotary_decode", 2, 1, 5, [5, 2], 6, h=16, attrs={"do_rotary": 1}, rotary=(12, 8))
gqa("gqa_rotary_interleaved_decode", 2, 1, 5, [5, 3], 6, h=16, attrs={"do_rotary": 1, "rotary_interleaved": 1}, rotary=(12, 8))
gqa("gqa_rotary_partial", 2, 1, 3, [3, 1], 4, h=32, attrs={"do_rotary": 1}, rotary=(8, 8))
gqa("gqa_rotary_packed_decode", 2, 1, 3, [3, 2], 4, h=16, packed=True, attrs={"do_rotary": 1}, rotary=(8, 8))
gqa("gqa_rotary_subsequent_prompt", 1, 3, 4, [6], 7, h=16, attrs={"do_rotary": 1, "rotary_interleaved": 1}, rotary=(10, 8))
gqa("gqa_softcap_prompt", 2, 4, 0, [3, 3], 4, attrs={"softcap": 2.0})
gqa("gqa_softcap_decode", 2, 1, 4, [4, 2], 5, attrs={"softcap": 1.5, "scale": 0.9})
gqa("gqa_local_window_prompt", 1, 6, 0, [5], 6, attrs={"local_window_size": 2})
gqa("gqa_local_window_decode", 2, 1, 6, [6, 3], 7, attrs={"local_window_size": 3})
gqa("gqa_prompt_f16", 2, 4, 0, [3, 3], 4, dtype=np.float16)
gqa("gqa_decode_f16", 2, 1, 5, [5, 3], 6, dtype=np.float16)
gqa("gqa_rotary_decode_f16", 2, 1, 5, [5, 2], 6, h=16, dtype=np.float16, attrs={"do_rotary": 1}, rotary=(12, 8))
gqa("gqa_packed_softcap_window_f16", 2, 1, 5, [5, 4], 6, dtype=np.float16, packed=True, attrs={"softcap": 3.0, "local_window_size": 2})


def gqa_chain(name, B=2, S=4, N=4, Nkv=2, h=16):
    """A prompt step, then a decode step reading its present as past (as a generation loop feeds
    them), in one model: rotary on, symbolic batch / sequence / past; rows of different lengths."""
    E = TensorProto.FLOAT
    nodes = [
        helper.make_node("GroupQueryAttention", ["q0", "k0", "v0", "", "", "seqlens_0", "total_0", "cos_cache", "sin_cache"], ["out_0", "pk", "pv"],
                         domain=MS, num_heads=N, kv_num_heads=Nkv, do_rotary=1),
        helper.make_node("GroupQueryAttention", ["q1", "k1", "v1", "pk", "pv", "seqlens_1", "total_1", "cos_cache", "sin_cache"], ["out_1", "present_key", "present_value"],
                         domain=MS, num_heads=N, kv_num_heads=Nkv, do_rotary=1),
    ]
    cos, sin = rope_caches(S + 2, h // 2, np.float32)
    feeds = {"q0": f32(B, S, N * h), "k0": f32(B, S, Nkv * h), "v0": f32(B, S, Nkv * h), "seqlens_0": np.full(B, S - 1, np.int32), "total_0": np.array(S, np.int32),
             "q1": f32(B, 1, N * h), "k1": f32(B, 1, Nkv * h), "v1": f32(B, 1, Nkv * h), "seqlens_1": np.array([S, S - 2] + [S] * (B - 2), np.int32), "total_1": np.array(S + 1, np.int32)}
    dims = lambda n, a: ["batch", "sequence" if n.endswith("0") else 1, a.shape[2]] if a.ndim == 3 else ["batch"] if a.ndim == 1 else []
    ins = [helper.make_tensor_value_info(n, TensorProto.INT32 if a.dtype == np.int32 else E, dims(n, a)) for n, a in feeds.items()]
    outs = [helper.make_tensor_value_info(o, E, None) for o in ("out_0", "out_1", "present_key", "present_value")]
    graph = helper.make_graph(nodes, name, ins, outs, initializer=[numpy_helper.from_array(cos, "cos_cache"), numpy_helper.from_array(sin, "sin_cache")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)])
    model.ir_version = 8
    path = os.path.join(OUT, name + ".onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    cases.append({"name": name, "onnx": path, "inputs": {k: tensor_json(v) for k, v in feeds.items()}, "refused": False})


gqa_chain("gqa_prompt_then_decode_chained")

# what the IR does not compute: refused by name
gqa("gqa_smooth_softmax", 2, 1, 3, [3, 1], 4, attrs={"smooth_softmax": 1}, refused=True)
gqa("gqa_qk_output", 2, 1, 3, [3, 1], 4, attrs={"qk_output": 1}, refused=True)
gqa("gqa_head_sink", 2, 1, 3, [3, 1], 4, extra=[("", None), ("", None), ("", None), ("", None), ("head_sink", f32(4))], refused=True)
gqa("gqa_attention_bias", 2, 1, 3, [3, 1], 4, extra=[("", None), ("", None), ("", None), ("attention_bias", f32(2, 1, 1, 4))], refused=True)
gqa("gqa_position_ids", 2, 1, 3, [3, 1], 4, h=16, attrs={"do_rotary": 1}, rotary=(8, 8), extra=[("position_ids", np.array([[3], [1]], np.int64))], refused=True)

# ── float16 (onnxruntime's CPU kernels run these in f16; compared at the f16 tolerance) ────────
h16 = lambda *shape, scale=1.0: f32(*shape, scale=scale).astype(np.float16)
save("gelu_f16", "Gelu", [("X", h16(2, 3, 8, scale=2))], ["Y"])
save("fast_gelu_bias_f16", "FastGelu", [("X", h16(2, 3, 8, scale=2)), ("bias", h16(8))], ["Y"])
save("bias_gelu_f16", "BiasGelu", [("A", h16(2, 3, 8, scale=2)), ("B", h16(8))], ["Y"])
save("quick_gelu_f16", "QuickGelu", [("X", h16(2, 3, 8, scale=3))], ["Y"])
save("fused_matmul_f16", "FusedMatMul", [("A", h16(2, 4, 5)), ("B", h16(2, 6, 5))], ["Y"], {"transB": 1, "alpha": 0.5})
save("skip_layer_norm_f16", "SkipLayerNormalization", [("input", h16(2, 5, 16)), ("skip", h16(2, 5, 16)), ("gamma", h16(16)), ("beta", h16(16)), ("bias", h16(16))],
     ["output", "", "", "input_skip_bias_sum"], {"epsilon": 1e-5})
save("skip_simplified_layer_norm_f16", "SkipSimplifiedLayerNormalization", [("input", h16(2, 5, 16)), ("skip", h16(2, 5, 16)), ("gamma", h16(16))], ["output"], {"epsilon": 1e-5})
save("simplified_layer_norm_f16", "SimplifiedLayerNormalization", [("X", h16(2, 5, 16)), ("scale", h16(16))], ["Y"], {"epsilon": 1e-5}, domain="")

# ── a small BERT encoder as PyTorch exports it, fused by onnxruntime's transformers optimizer ──
# (EmbedLayerNormalization, Attention with the mask it computes, SkipLayerNormalization, BiasGelu
# or FastGelu: the contrib ops as they meet in a real optimized model)
def bert(name, gelu="erf", layers=2):
    import contextlib
    from onnx import checker
    from onnxruntime.transformers.fusion_options import FusionOptions
    from onnxruntime.transformers.optimizer import optimize_model
    Bb, Sb, Db, Nb, Vb, Pb, FFb = 2, 8, 32, 4, 50, 16, 64
    hd = Db // Nb
    nodes, inits, count = [], [], [0]

    def fresh(p):
        count[0] += 1
        return f"{p}_{count[0]}"

    def const(a):
        n = fresh("c")
        inits.append(numpy_helper.from_array(np.asarray(a), n))
        return n

    def op(t, ins, **attrs):
        o = fresh(t)
        nodes.append(helper.make_node(t, ins, [o], **attrs))
        return o

    i64 = lambda *v: const(np.array(v, np.int64))
    scalar = lambda v: const(np.array(v, np.float32))
    layer_norm = lambda x: op("LayerNormalization", [x, const(1 + f32(Db, scale=0.1)), const(f32(Db, scale=0.1))], axis=-1, epsilon=1e-12)
    linear = lambda x, i, o: op("Add", [op("MatMul", [x, const(f32(i, o, scale=0.2))]), const(f32(o, scale=0.05))])
    heads = lambda t: op("Transpose", [op("Reshape", [t, i64(0, 0, Nb, hd)])], perm=[0, 2, 1, 3])
    seqlen = op("Unsqueeze", [op("Gather", [op("Shape", ["input_ids"]), const(np.array(1, np.int64))], axis=0), i64(0)])
    positions = op("Slice", [const(np.arange(Pb, dtype=np.int64)[None, :]), i64(0), seqlen, i64(1), i64(1)])
    emb = op("Add", [op("Add", [op("Gather", [const(f32(Vb, Db)), "input_ids"]), op("Gather", [const(f32(Pb, Db)), positions])]),
                     op("Gather", [const(f32(3, Db)), "token_type_ids"])])
    x = layer_norm(emb)
    m = op("Unsqueeze", [op("Unsqueeze", ["attention_mask", i64(1)]), i64(2)])
    m = op("Mul", [op("Sub", [scalar(1.0), op("Cast", [m], to=TensorProto.FLOAT)]), scalar(-10000.0)])
    for _ in range(layers):
        q, k, v = heads(linear(x, Db, Db)), heads(linear(x, Db, Db)), heads(linear(x, Db, Db))
        scores = op("Add", [op("Div", [op("MatMul", [q, op("Transpose", [k], perm=[0, 1, 3, 2])]), scalar(np.sqrt(hd))]), m])
        ctx = op("MatMul", [op("Softmax", [scores], axis=-1), v])
        ctx = op("Reshape", [op("Transpose", [ctx], perm=[0, 2, 1, 3]), i64(0, 0, Db)])
        x = layer_norm(op("Add", [linear(ctx, Db, Db), x]))
        h = linear(x, Db, FFb)
        if gelu == "erf":
            g = op("Mul", [op("Mul", [h, op("Add", [op("Erf", [op("Div", [h, scalar(np.sqrt(2))])]), scalar(1.0)])]), scalar(0.5)])
        else:  # the tanh approximation as PyTorch's gelu(approximate="tanh") exports it
            inner = op("Mul", [op("Add", [h, op("Mul", [op("Pow", [h, scalar(3.0)]), scalar(0.044715)])]), scalar(np.sqrt(2 / np.pi))])
            g = op("Mul", [op("Mul", [h, scalar(0.5)]), op("Add", [op("Tanh", [inner]), scalar(1.0)])])
        x = layer_norm(op("Add", [linear(g, FFb, Db), x]))
    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    ins = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "sequence"]) for n in ("input_ids", "token_type_ids", "attention_mask")]
    graph = helper.make_graph(nodes, name, ins, [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", Db])], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    checker.check_model(model)
    options = FusionOptions("bert")
    options.enable_shape_inference = False  # symbolic shape inference needs sympy, which the oracle venv lacks
    with contextlib.redirect_stdout(sys.stderr):
        fused = optimize_model(model, model_type="bert", num_heads=Nb, hidden_size=Db, opt_level=0, optimization_options=options)
    ops = sorted({n.op_type for n in fused.model.graph.node if n.domain == MS})
    path = os.path.join(OUT, name + ".onnx")
    fused.save_model_to_file(path)
    attention_mask = np.ones((Bb, Sb), np.int64)
    attention_mask[0, 5:] = 0
    feeds = {"input_ids": rng.integers(0, Vb, (Bb, Sb)).astype(np.int64), "token_type_ids": (np.arange(Sb)[None, :] >= 4).repeat(Bb, 0).astype(np.int64),
             "attention_mask": attention_mask}
    cases.append({"name": name, "onnx": path, "inputs": {k: tensor_json(v) for k, v in feeds.items()}, "refused": False, "fused": ops})

bert("bert_ort_optimized")
bert("bert_ort_optimized_fast_gelu", gelu="tanh")

json.dump(cases, sys.stdout)
