"""Writes small OpenVINO IRs of ROIAlign-9, Col2Im-15, DeformableConvolution-8, the IR-only ops of
OpenVINO's other frontends and older IR versions of ops ovir reads (built with OpenVINO's Python API
and serialized by it) into the folder given as argv[1], one <name>.xml per
case, and prints their names with their Parameter shapes as JSON. Used by native-ir-ops.test.ts."""
import json
import sys

import numpy as np
import openvino as ov
import openvino.opset1 as o1
import openvino.opset2 as o2
import openvino.opset3 as o3
import openvino.opset7 as o7
import openvino.opset8 as o8
import openvino.opset10 as o10
import openvino.opset9 as o9
import openvino.opset15 as o15

out = sys.argv[1]
cases = {}
rng = np.random.default_rng(7)


def save(name, params, results, shapes=None):
    """shapes: the input shapes to run with, for Parameters of dynamic shape."""
    model = ov.Model(results, params, name)
    ov.save_model(model, f"{out}/{name}.xml", compress_to_fp16=False)
    cases[name] = shapes or {p.get_friendly_name(): list(p.get_partial_shape().to_shape()) for p in params}


def param(name, shape):
    p = o8.parameter(shape, np.float32, name=name)
    p.output(0).get_tensor().set_names({name})
    return p


# ROIAlign-9: the coordinate modes ONNX spells, avg over a given and an adaptive sampling ratio
rois = np.array([[0, 0, 9, 9], [0, 5, 4, 9], [5, 5, 9, 9], [1.3, 2.2, 7.7, 6.1]], np.float32)
batch = np.array([0, 1, 0, 1], np.int32)
for aligned in ["asymmetric", "half_pixel_for_nn"]:
    for sampling in [0, 2]:
        x = param("x", [2, 3, 10, 10])
        y = o9.roi_align(x, rois, batch, 3, 4, sampling, 0.8 if sampling else 1.0, "avg", aligned)
        save(f"roialign_{aligned}_s{sampling}", [x], [y])
x = param("x", [1, 2, 10, 10])
save("roialign_v3", [x], [ov.opset3.roi_align(x, rois, np.zeros(4, np.int64), 2, 2, 2, 1.0, "avg")])

# Col2Im-15: defaults, strides + pads, dilations
for name, kw, kernel, size, L in [
    ("col2im_plain", {}, [2, 2], [5, 5], 16),
    ("col2im_strides_pads", {"strides": [2, 2], "pads_begin": [1, 0], "pads_end": [1, 2]}, [3, 3], [6, 5], 9),
    ("col2im_dilations", {"dilations": [2, 1]}, [2, 2], [6, 4], 12),
]:
    x = param("x", [2, 3 * kernel[0] * kernel[1], L])
    y = o15.col2im(x, np.array(size, np.int64), np.array(kernel, np.int64), **kw)
    save(name, [x], [y])
x = param("x", [12, 16])
save("col2im_unbatched", [x], [o15.col2im(x, np.array([5, 5], np.int64), np.array([2, 2], np.int64))])

def deform_operands(H, W, cin, cout, g, dg, st, pb, pe, dil, kh=3, kw=2):
    """A DeformableConvolution's data and offset Parameters and seeded weights, and its output size."""
    oh = (H + pb[0] + pe[0] - ((kh - 1) * dil[0] + 1)) // st[0] + 1
    ow = (W + pb[1] + pe[1] - ((kw - 1) * dil[1] + 1)) // st[1] + 1
    x = param("x", [1, cin, H, W])
    off = param("offset", [1, dg * kh * kw * 2, oh, ow])
    w = rng.uniform(-1, 1, [cout, cin // g, kh, kw]).astype(np.float32)
    return x, off, w, [dg * kh * kw, oh, ow]


# DeformableConvolution-8: groups, deformable groups, mask, strides / pads / dilations
for name, cin, cout, g, dg, mask, st, pb, pe, dil in [
    ("deform_basic", 2, 3, 1, 1, False, [1, 1], [0, 0], [0, 0], [1, 1]),
    ("deform_mask_pads", 4, 4, 2, 2, True, [1, 1], [1, 1], [1, 1], [1, 1]),
    ("deform_strides_dil", 2, 2, 1, 2, True, [2, 1], [1, 0], [0, 1], [1, 2]),
]:
    x, off, w, mask_shape = deform_operands(7, 6, cin, cout, g, dg, st, pb, pe, dil)
    params = [x, off]
    m = None
    if mask:
        m = param("mask", [1, *mask_shape])
        params.append(m)
    y = o8.deformable_convolution(x, off, w, st, pb, pe, dil, m, "EXPLICIT", g, dg, True)
    save(name, params, [y])

# IR-only ops (no ONNX op of the same meaning, or an older IR version): written by ovir as ONNX
# subgraphs or as the ONNX op of a later IR version. Integer operands are constants (the harness
# feeds f32 inputs); int outputs are compared exactly.
i64 = lambda v: np.array(v, np.int64)
i32 = lambda v: np.array(v, np.int32)
C = o1.constant


def f32(shape):
    return rng.uniform(-2, 2, shape).astype(np.float32)


# ScatterUpdate-3: axis 0 with 2-D indices, a middle axis with i32 indices, a negative axis with a scalar index
for name, dshape, idx, ushape, axis in [
    ("scatter_update_axis0", [5, 3], i64([[1, 3]]), [1, 2, 3], 0),
    ("scatter_update_axis1", [2, 6, 3], i32([4, 0, 5]), [2, 3, 3], 1),
    ("scatter_update_neg_axis", [2, 3, 5], i64([3]), [2, 3, 1], -1),  # the CPU plugin takes no scalar or negative indices
    ("scatter_update_axis1_2d_idx", [2, 5, 2], i64([[0, 4], [2, 1]]), [2, 2, 2, 2], 1),
]:
    d, u = param("data", dshape), param("updates", ushape)
    save(name, [d, u], [o3.scatter_update(d, idx, u, i64(axis))])

# Bucketize-3: both bound conventions, i32 and i64 output, values that sit on a boundary
for name, right, ot in [("bucketize_right_i64", True, "i64"), ("bucketize_left_i32", False, "i32")]:
    x = param("x", [3, 4])
    xr = o1.floor(o1.multiply(x, np.float32(2)))  # halves, so some equal a boundary
    save(name, [x], [o3.bucketize(o1.multiply(xr, np.float32(0.5)), np.array([-1, -0.5, 0, 0.5, 1.5], np.float32), ot, right)])

# SearchSorted-15: 1-D and batched sequences, left and right
for name, seq, vshape, right in [
    ("search_sorted_left", np.array([-1.5, -0.5, 0, 0, 0.5, 1], np.float32), [3, 4], False),
    ("search_sorted_right", np.array([-1.5, -0.5, 0, 0, 0.5, 1], np.float32), [3, 4], True),
    ("search_sorted_batched", np.sort(f32([2, 3, 5]), axis=-1), [2, 3, 4], True),
]:
    x = param("x", vshape)
    xr = o1.multiply(o1.floor(o1.multiply(x, np.float32(2))), np.float32(0.5))
    save(name, [x], [o15.search_sorted(seq, xr, right)])

# Roll-7: several axes, a shift larger than the dim, a negative shift, one shift for repeated axes
for name, shape, shift, axes in [
    ("roll_2d", [3, 5], i64([2, -7]), i64([0, 1])),
    ("roll_repeated_axis", [2, 3, 4], i32([3, 1, -2]), i64([1, -1, 1])),
    ("roll_scalar_shift", [3, 4], i64(5), i64([0])),
    ("roll_last", [2, 7], i64([-3]), i32([-1])),
]:
    x = param("x", shape)
    save(name, [x], [o7.roll(x, shift, axes)])

# ShuffleChannels-1: channel axis, a negative axis
for name, shape, axis, group in [("shuffle_channels", [1, 6, 2, 2], 1, 3), ("shuffle_channels_neg_axis", [2, 3, 8], -1, 2)]:
    x = param("x", shape)
    save(name, [x], [o3.shuffle_channels(x, axis, group)])

# GRN-1
for name, shape, bias in [("grn_3d", [2, 4, 3], 0.5), ("grn_4d", [1, 3, 2, 2], 1e-6)]:
    x = param("x", shape)
    save(name, [x], [o1.grn(x, bias)])

# Embedding bags: packed (sum, mean, weights), offsets (empty bag, default index), segments
emb = lambda: param("emb", [10, 3])
e = emb()
save("embedding_bag_packed_sum", [e], [o3.embedding_bag_packed_sum(e, i64([[0, 2, 4], [1, 1, 9]]))])
e, w = emb(), param("w", [2, 3])
save("embedding_bag_packed_sum_weights", [e, w], [o3.embedding_bag_packed_sum(e, i32([[0, 2, 4], [1, 1, 9]]), w)])
e = emb()
save("embedding_bag_packed_mean", [e], [o15.embedding_bag_packed(e, i64([[0, 2], [7, 1], [3, 3]]), None, "mean")])
e, w = emb(), param("w", [7])
save("embedding_bag_offsets_sum", [e, w], [o3.embedding_bag_offsets_sum(e, C(i64([0, 2, 4, 1, 1, 9, 5])), C(i64([0, 3, 3, 5])), C(i64(8)), w)])
e = emb()
save("embedding_bag_offsets_no_default", [e], [o3.embedding_bag_offsets_sum(e, C(i32([3, 2, 7, 1])), C(i32([0, 0, 2])))])
e = emb()
save("embedding_bag_offsets_mean", [e], [o15.embedding_bag_offsets(e, i64([0, 2, 4, 1, 1, 9, 5]), i64([0, 3, 3, 5]), i64(8), None, "mean")])
e, w = emb(), param("w", [5])
save("embedding_segments_sum", [e, w], [o3.embedding_segments_sum(e, C(i64([0, 2, 4, 1, 9])), C(i64([0, 0, 2, 2, 4])), C(i64(5)), C(i64(7)), w)])
e = emb()
save("embedding_segments_sum_no_default", [e], [o3.embedding_segments_sum(e, C(i32([5, 2, 4])), C(i32([1, 1, 2])), C(i32(4)))])

# SliceScatter-15: a step, negative bounds, default axes
for name, dshape, ushape, start, stop, step, axes in [
    ("slice_scatter_step", [4, 6], [4, 3], i64([0]), i64([6]), i64([2]), i64([1])),
    ("slice_scatter_negative", [5, 4, 3], [2, 4, 2], i64([-1, 2]), i64([-5, 0]), i64([-2, -1]), i64([0, -1])),
    ("slice_scatter_no_axes", [4, 5], [2, 5], i64([1, 0]), i64([3, 100]), i64([1, 1]), None),
]:
    d, u = param("data", dshape), param("updates", ushape)
    save(name, [d, u], [o15.slice_scatter(d, u, start, stop, step, axes)])

# SpaceToBatch-2 / BatchToSpace-2
x = param("x", [2, 2, 4, 3])
save("space_to_batch", [x], [o2.space_to_batch(x, i64([1, 1, 2, 3]), i64([0, 0, 1, 2]), i64([0, 0, 1, 1]))])
x = param("x", [12, 2, 3, 2])
save("batch_to_space", [x], [o2.batch_to_space(x, i64([1, 1, 2, 3]), i64([0, 0, 1, 2]), i64([0, 0, 0, 1]))])
x = param("x", [2, 6, 3])
save("space_to_batch_3d_no_pads", [x], [o2.space_to_batch(x, i64([1, 3, 1]), i64([0, 0, 0]), i64([0, 0, 0]))])
x = o8.parameter([-1, 4, 3, 2], np.float32, name="x")
x.output(0).get_tensor().set_names({"x"})
save("batch_to_space_dynamic_batch", [x], [o2.batch_to_space(x, i64([1, 2, 1, 2]), i64([0, 1, 0, 0]), i64([0, 0, 0, 1]))], {"x": [8, 4, 3, 2]})
x = o8.parameter([-1, 3, 4, 4], np.float32, name="x")
x.output(0).get_tensor().set_names({"x"})
save("space_to_batch_dynamic_batch", [x], [o2.space_to_batch(x, i64([1, 1, 2, 4]), i64([0, 0, 1, 2]), i64([0, 0, 1, 2]))], {"x": [2, 3, 4, 4]})

# Older IR versions of ops ovir reads at a later version
x = param("x", [3, 5])
save("topk_v1", [x], list(o1.topk(x, i64(3), 1, "max", "value").outputs()))
x = param("x", [4, 5])
save("topk_v3_min_i64", [x], list(o3.topk(x, i64(2), 0, "min", "value", "i64").outputs()))
x = param("x", [2, 3, 4])
save("shapeof_v1", [x], [o1.multiply(o1.convert(o1.shape_of(x), "f32"), o1.reduce_sum(x, i64([0, 1, 2])))])
x = param("x", [3])
save("broadcast_v1_numpy", [x], [o1.broadcast(x, i64([2, 3]))])
x = param("x", [3])
save("broadcast_v1_explicit", [x], [o1.broadcast(x, i64([3, 2]), i64([0]), "EXPLICIT")])
x = param("x", [2, 3, 4])
save("batch_norm_v0", [x], [o1.batch_norm_inference(x, f32([3]), f32([3]), f32([3]), np.abs(f32([3])) + 0.1, 1e-3)])
x = param("x", [2, 5])
save("gelu_v2", [x], [o2.gelu(x)])
x, y = param("x", [2, 3]), param("y", [2, 3])
save("not_equal", [x, y], [o1.not_equal(o1.floor(x), o1.floor(y))])
x, y = param("x", [2, 3]), param("y", [3])
save("squared_difference", [x, y], [o1.squared_difference(x, y)])
x = param("x", [2, 3])
save("is_finite", [x], [o10.is_finite(o1.divide(np.float32(1), o1.floor(x)))])

# Interpolate-4 (data, sizes, scales, axes; older IRs of the Open Model Zoo): each shape_calculation_mode
from openvino.utils.node_factory import NodeFactory
nf4 = NodeFactory("opset4")
for name, mode, calc, ctm, nearest, sizes, scales in [
    ("interpolate4_nearest_scales", "nearest", "scales", "asymmetric", "floor", [6, 9], [2.0, 1.5]),
    ("interpolate4_linear_sizes", "linear_onnx", "sizes", "half_pixel", "round_prefer_floor", [5, 7], [5 / 4, 7 / 6]),
    ("interpolate4_cubic_sizes_align", "cubic", "sizes", "align_corners", "round_prefer_floor", [7, 4], [7 / 4, 4 / 6]),
    # sizes mode: the scales input is not what the coordinates are computed from
    ("interpolate4_linear_sizes_other_scales", "linear_onnx", "sizes", "half_pixel", "round_prefer_floor", [5, 7], [1.0, 1.0]),
]:
    x = param("x", [1, 2, 4, 6])
    attrs = {"mode": mode, "shape_calculation_mode": calc, "coordinate_transformation_mode": ctm, "nearest_mode": nearest,
             "antialias": False, "pads_begin": [0, 0, 0, 0], "pads_end": [0, 0, 0, 0], "cube_coeff": -0.75}
    y = nf4.create("Interpolate", [x.output(0), C(i64(sizes)).output(0), C(np.array(scales, np.float32)).output(0), C(i64([2, 3])).output(0)], attrs)
    save(name, [x], [y])

# Interpolate-1 (target_spatial_shape for the axes attribute; IRs of OpenVINO before Interpolate-4),
# which OpenVINO runs as the Interpolate-4 its ConvertInterpolate1ToInterpolate4 makes: each mode
# with and without align_corners, a rank-4 input over axes 2, 3 (asymmetric linear coordinates
# there) and over one axis, a rank-3 input. Not here: nearest growing one axis and shrinking
# another (a coded refusal, as for Interpolate-4 with nearest_mode simple), cubic over a rank-3
# input (onnxruntime's Resize has no such cubic kernel; ovir's ONNX is valid).
for mode in ["nearest", "linear", "cubic"]:
    for align in [True, False]:
        for shape, axes, size, tag in [([1, 2, 4, 5], [2, 3], [7, 3], "nchw"), ([2, 4, 5], [1, 2], [8, 9], "hw3d"), ([1, 2, 4, 5], [3], [9], "one_axis")]:
            if (mode == "nearest" and tag == "nchw") or (mode == "cubic" and tag == "hw3d"):
                continue
            x = param("x", shape)
            y = o1.interpolate(x, i64(size), {"axes": axes, "mode": mode, "align_corners": align, "antialias": False,
                                              "pads_begin": [0] * len(shape), "pads_end": [0] * len(shape)})
            save(f"interpolate1_{mode}_{'ac' if align else 'noac'}_{tag}", [x], [y])

# Range-1 (the element type of its operands)
x = param("x", [5])
save("range_v1", [x], [o1.multiply(x, o1.range(C(np.float32(0.5)), C(np.float32(3)), C(np.float32(0.5))))])

# AdaptiveAvgPool-8 / AdaptiveMaxPool-8 (PyTorch frontend): uneven bins, 1-D / 2-D / 3-D, an
# output of 1, spatial dims known only at run time
for name, shape, osz in [
    ("adaptive_avg_2d", [1, 2, 7, 10], [3, 4]),
    ("adaptive_avg_1d", [2, 3, 9], [4]),
    ("adaptive_avg_3d", [1, 1, 5, 6, 7], [2, 3, 4]),
    ("adaptive_avg_global", [2, 3, 5, 5], [1, 1]),
]:
    x = param("x", shape)
    save(name, [x], [o8.adaptive_avg_pool(x, i64(osz))])
x = o8.parameter([1, 2, -1, -1], np.float32, name="x")
x.output(0).get_tensor().set_names({"x"})
save("adaptive_avg_dynamic", [x], [o8.adaptive_avg_pool(x, i64([3, 2]))], {"x": [1, 2, 8, 5]})
x = param("x", [1, 2, 7, 10])
save("adaptive_max_2d", [x], [o8.adaptive_max_pool(x, i64([3, 4]), "i32").output(0)])  # the CPU plugin fails on i64 indices
x = o8.parameter([2, 3, -1], np.float32, name="x")
x.output(0).get_tensor().set_names({"x"})
save("adaptive_max_dynamic", [x], [o8.adaptive_max_pool(x, i32([5]), "i32").output(0)], {"x": [2, 3, 11]})

# MVN-1 (IR version opset2): across channels or not, with and without variance, a large eps (where
# the eps is added shows)
for name, across, variance in [("mvn_v0_across", True, True), ("mvn_v0_per_channel", False, True), ("mvn_v0_mean_only", False, False)]:
    x = param("x", [2, 3, 4, 5])
    save(name, [x], [o2.mvn(x, across, variance, 0.5)])

# SegmentMax-16: empty segments filled with zero or the lowest value, num_segments given or not, i32 data
import openvino.opset16 as o16
for name, ids, n, fill in [
    ("segment_max_zero", i64([0, 0, 2, 2, 3]), i64(5), "ZERO"),
    ("segment_max_lowest", i32([1, 1, 1, 3, 3]), i32(6), "LOWEST"),
    ("segment_max_no_count", i64([0, 2, 2, 2, 4]), None, "ZERO"),
]:
    x = param("x", [5, 2, 3])
    save(name, [x], [o16.segment_max(x, ids, n, fill)])
x = param("x", [5, 3])
save("segment_max_i32_lowest", [x], [o16.segment_max(o1.convert(o1.multiply(x, np.float32(10)), "i32"), i64([0, 0, 1, 3, 3]), i64(4), "LOWEST")])

# NonMaxSuppression-1/3/4: one output; the CPU plugin returns the selected rows only (no −1 rows)
import openvino.opset4 as o4
nms_boxes = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1], [0, 100, 1, 101]], np.float32)
for name, mod, batch, extra in [
    ("nms_v1", o1, 1, {}),
    ("nms_v3_i32", o3, 1, {"output_type": "i32"}),
    ("nms_v4_two_batches", o4, 2, {}),
]:
    s = param("scores", [batch, 2, 6])
    y = mod.non_max_suppression(C(np.stack([nms_boxes] * batch)), s, C(i64(3)), C(np.float32(0.5)), C(np.float32(-0.5)),
                                sort_result_descending=False, **extra)
    save(name, [s], [y.output(0)])

# FakeConvert-13 (NNCF FP8): per-channel scale and shift, a scalar scale without shift; the data
# spread over 2^-12 … 2^12 (below the subnormals, into saturation)
import openvino.opset13 as o13
spread = np.exp2(rng.uniform(-12, 12, [2, 3, 4, 5])).astype(np.float32)
for name, dest, scale, shift in [
    ("fake_convert_e4m3", "f8e4m3", np.abs(f32([1, 3, 1, 1])) * 4 + 0.5, f32([1, 3, 1, 1])),
    ("fake_convert_e5m2_no_shift", "f8e5m2", np.float32(0.37), None),
    ("fake_convert_e4m3_no_shift", "f8e4m3", np.float32(3.1), None),
]:
    x = param("x", [2, 3, 4, 5])
    args = [o1.multiply(x, spread), C(scale)] + ([C(shift)] if shift is not None else [])
    save(name, [x], [o13.fake_convert(*args, destination_type=dest)])

# ConvertPromoteTypes-14 (PyTorch / TensorFlow frontends): float with integer, unsigned with signed,
# PyTorch scalar promotion, u64 with a signed integer; integer inputs are Converts of scaled data
import openvino.opset14 as o14
def ints(x, t):
    return o1.convert(o1.multiply(x, np.float32(20)), t)
def eighths(x):
    return o1.divide(o1.floor(o1.multiply(x, np.float32(8))), np.float32(8))
for name, left, right, kw in [
    ("promote_f32_i16", lambda x: x, lambda y: ints(y, "i16"), {}),
    ("promote_f32_i32_unsafe", lambda x: x, lambda y: ints(y, "i32"), {"promote_unsafe": True}),
    ("promote_u8_i32", lambda x: ints(o1.abs(x), "u8"), lambda y: ints(y, "i32"), {}),
    ("promote_u16_i8_unsafe", lambda x: ints(o1.abs(x), "u16"), lambda y: ints(y, "i8"), {"promote_unsafe": True}),
    ("promote_pytorch_scalar", lambda x: ints(x, "i32"), lambda y: ints(o1.reduce_sum(y, i64([0, 1])), "i64"), {"pytorch_scalar_promotion": True, "promote_unsafe": True}),
    # eighths, exact in f16 and bf16 (OpenVINO's CPU plugin drops an f32 → f16 → f32 rounding)
    ("promote_f16_bf16_unsafe", lambda x: o1.convert(eighths(x), "f16"), lambda y: o1.convert(eighths(y), "bf16"), {"promote_unsafe": True}),
    ("promote_u64_i32_target", lambda x: ints(o1.abs(x), "u64"), lambda y: ints(y, "i32"), {"promote_unsafe": True, "u64_integer_promotion_target": "i64"}),
]:
    x, y = param("x", [2, 3]), param("y", [2, 3])
    cpt = o14.convert_promote_types(left(x), right(y), **kw)
    save(name, [x, y], [o1.convert(cpt.output(0), "f32"), o1.convert(cpt.output(1), "f32")] if "bf16" in name else list(cpt.outputs()))

# ReorgYolo-2 (YOLOv2, Open Model Zoo): stride 2 and 3, a batch of 2
for name, shape, stride in [("reorg_yolo_s2", [1, 8, 4, 6], 2), ("reorg_yolo_s3_batch2", [2, 18, 6, 3], 3)]:
    x = param("x", shape)
    save(name, [x], [o2.reorg_yolo(x, [stride])])

# RegionYolo-0: YOLOv2 (softmax over the classes, flattened output), YOLOv3 (sigmoids, a mask of 3
# of 9 regions), more input channels than the mask's regions
for name, shape, coords, classes, num, softmax, mask, axis, end in [
    ("region_yolo_v2", [1, 5 * (4 + 1 + 3), 3, 4], 4, 3, 5, True, [], 1, 3),
    ("region_yolo_v2_axis2", [2, 2 * (4 + 1 + 2), 3, 3], 4, 2, 2, True, [], 2, 3),
    ("region_yolo_v3", [2, 3 * (4 + 1 + 4), 4, 5], 4, 4, 9, False, [3, 4, 5], 1, 3),
    ("region_yolo_v3_extra_channels", [1, 3 * (4 + 1 + 2) + 5, 3, 3], 4, 2, 6, False, [0, 1], 1, 3),
]:
    x = param("x", shape)
    save(name, [x], [o1.region_yolo(x, coords, classes, num, softmax, mask, axis, end, [])])

# ExtractImagePatches-3 (TensorFlow): valid, same_upper / same_lower with odd pads, rates, strides
import openvino.opset3 as o3b
for name, shape, sizes, strides, rates, pad in [
    ("extract_patches_valid", [1, 2, 7, 6], [3, 2], [2, 1], [1, 1], "valid"),
    ("extract_patches_same_upper", [2, 3, 5, 6], [2, 3], [2, 2], [1, 1], "same_upper"),
    ("extract_patches_same_lower", [1, 2, 5, 6], [2, 3], [2, 2], [1, 1], "same_lower"),
    ("extract_patches_rates", [1, 1, 9, 8], [2, 2], [3, 2], [2, 3], "same_upper"),
]:
    x = param("x", shape)
    save(name, [x], [o3b.extract_image_patches(x, sizes, strides, rates, pad)])

# CTCGreedyDecoderSeqLen-6 / CTCGreedyDecoder-1 (TensorFlow, Open Model Zoo text recognition): few
# classes so that repeats and blanks occur; default and given blank, merge or not, i64 outputs
import openvino.opset6 as o6
for name, blank, merge, types in [
    ("ctc_seqlen_default", None, True, ("i32", "i32")),
    ("ctc_seqlen_blank0_no_merge_i64", i32(0), False, ("i64", "i64")),
    ("ctc_seqlen_blank2_i64_len", i64([2]), True, ("i32", "i64")),
]:
    x = param("x", [3, 9, 4])
    y = o6.ctc_greedy_decoder_seq_len(x, i32([9, 5, 0]) if types[1] == "i32" else i64([9, 5, 1]), blank, merge, *types)
    save(name, [x], list(y.outputs()))
for name, merge in [("ctc_greedy_v1", True), ("ctc_greedy_v1_no_merge", False)]:
    x = param("x", [9, 3, 4])
    mask = np.ones([9, 3], np.float32)
    mask[6:, 0] = 0
    mask[3, 1] = 0
    mask[:, 2] = 0
    save(name, [x], [o1.ctc_greedy_decoder(x, C(mask), merge)])

# ROIPooling-2 max (MaxRoiPool in ONNX): scaled ROIs, a malformed one (end before start), one beyond
# the map, two batches
import openvino.opset2 as o2r
rp_rois = np.array([[0, 0, 0, 9, 9], [1, 2.6, 1.4, 7.2, 5.5], [0, 8, 8, 3, 3], [1, 12, 4, 30, 30], [0, 1, 1, 1, 1]], np.float32)
for name, size, scale in [("roi_pooling_max", [3, 2], 1.0), ("roi_pooling_max_scaled", [2, 4], 0.5)]:
    x = param("x", [2, 3, 10, 12])
    save(name, [x], [o2r.roi_pooling(x, C(rp_rois), size, scale, "max")])

# NV12toRGB/BGR-8, I420toRGB/BGR-8: one plane or several, u8 (integer levels) and f32
def levels(x, t):
    lv = o1.add(o1.floor(o1.multiply(x, np.float32(60))), np.float32(128))
    return o1.convert(lv, "u8") if t == "u8" else lv
for name, fn, shapes, t in [
    ("nv12_rgb_two_planes_u8", o8.nv12_to_rgb, [[1, 4, 6, 1], [1, 2, 3, 2]], "u8"),
    ("nv12_bgr_one_plane_f32", o8.nv12_to_bgr, [[2, 6, 4, 1]], "f32"),
    ("i420_rgb_three_planes_u8", o8.i420_to_rgb, [[2, 4, 4, 1], [2, 2, 2, 1], [2, 2, 2, 1]], "u8"),
    ("i420_bgr_one_plane_u8", o8.i420_to_bgr, [[1, 6, 4, 1]], "u8"),
]:
    ps = [param(n, s) for n, s in zip(["y", "u", "v"] if len(shapes) == 3 else ["y", "uv"], shapes)]
    save(name, ps, [fn(*[levels(p, t) for p in ps])])

# PriorBoxClustered-1 (SSD): the feature map size from ShapeOf of a static input, the image size a
# constant; clip or not, one or four variances, given or derived steps
import openvino.opset1 as o1p
for name, attrs in [
    ("prior_box_clustered", {"width": [2.0, 5.5, 30.0], "height": [3.0, 1.5, 25.0], "clip": True, "offset": 0.5, "variance": [0.1, 0.1, 0.2, 0.2]}),
    ("prior_box_clustered_steps", {"width": [8.0], "height": [6.0], "clip": False, "step_w": 3.0, "step_h": 5.0, "offset": 0.25, "variance": [0.3]}),
]:
    x = param("x", [1, 2, 3, 4])
    hw = o1.strided_slice(o1.shape_of(x), i64([2]), i64([4]), i64([1]), [0], [0])
    save(name, [x], [o1p.prior_box_clustered(hw, C(i64([30, 40])), attrs)])

# ---- s8-irmore: IR-only ops written as longer ONNX subgraphs ----------------------------------
# PSROIPooling-1 (R-FCN): average (pixel ROIs, scales, a ROI past the map, a degenerate one, a
# batch_id −1 that ends the list) and bilinear (normalized ROIs, some outside [0, 1]), group 1 too
ps_rois = np.array([[0, 0, 0, 19, 15], [1, 3.4, 2.5, 12.6, 9.5], [0, 6, 4, 6, 4], [1, 14, 3, 40, 30], [0, 9, 9, 2, 2],
                    [1, -3, -2, 8, 7], [-1, 1, 1, 5, 5], [0, 2, 2, 9, 9]], np.float32)
ps_norm = np.array([[0, 0, 0, 1, 1], [1, 0.13, 0.2, 0.71, 0.9], [0, 0.5, 0.45, 0.52, 0.47], [1, 0.6, -0.2, 1.3, 0.8],
                    [0, 0.9, 0.1, 0.2, 0.6], [1, 0.25, 0.3, 0.25, 0.9]], np.float32)
for name, shape, rois, dim, group, scale, bins, mode in [
    ("psroi_average", [2, 2 * 3 * 3, 10, 8], ps_rois, 2, 3, 0.5, (1, 1), "average"),
    ("psroi_average_scale1_g2", [2, 3 * 2 * 2, 9, 11], ps_rois[:6], 3, 2, 1.0, (1, 1), "average"),
    ("psroi_average_g1", [2, 4, 6, 7], ps_rois[:6], 4, 1, 0.25, (1, 1), "average"),
    ("psroi_bilinear", [2, 2 * 3 * 2, 9, 10], ps_norm, 2, 3, 1.0, (3, 2), "bilinear"),
    ("psroi_bilinear_g1", [2, 3 * 2 * 2, 7, 6], ps_norm, 3, 1, 1.0, (2, 2), "bilinear"),
    ("psroi_bilinear_scaled", [2, 1 * 2 * 1, 8, 8], ps_norm * np.array([1, 2, 2, 2, 2], np.float32), 1, 4, 0.5, (2, 1), "bilinear"),
]:
    x = param("x", shape)
    save(name, [x], [o1.psroi_pooling(x, C(rois), dim, group, scale, bins[0], bins[1], mode)])
# ROIs computed at run time (as from a Proposal): [batch, affine(Parameter)]
for name, shape, dim, group, bins, mode, mul, add in [
    ("psroi_average_runtime_rois", [2, 2 * 2 * 2, 10, 8], 2, 2, (1, 1), "average", 4.0, 5.0),
    ("psroi_bilinear_runtime_rois", [2, 2 * 2 * 2, 9, 7], 2, 3, (2, 2), "bilinear", 0.4, 0.5),
]:
    x, r = param("x", shape), param("rois", [6, 4])
    coords = o1.add(o1.multiply(r, np.float32(mul)), np.float32(add))
    rois = o1.concat([C(np.array([[0], [1], [1], [0], [1], [0]], np.float32)), coords], 1)
    save(name, [x, r], [o1.psroi_pooling(x, rois, dim, group, 0.5 if mode == "average" else 1.0, bins[0], bins[1], mode)])
# GatherTree-1 (beam search): i32 and f32; lengths below, at and past T (clamped); end tokens
# inside a path (the rest of it becomes end_token); the ids and parents are Parameters, scaled
def gather_tree_inputs(T, B, W, t):
    p_ids, p_par = param("step_ids", [T, B, W]), param("parent_ids", [T, B, W])
    ids = o1.floor(o1.multiply(o1.add(p_ids, np.float32(2)), np.float32(1.25)))  # 0 … 4
    par = o1.floor(o1.multiply(o1.add(p_par, np.float32(2)), np.float32(W / 4 - 1e-3)))  # 0 … W − 1
    return [p_ids, p_par], (o1.convert(ids, t) if t == "i32" else ids), (o1.convert(par, t) if t == "i32" else par)
for name, T, B, W, lens, end, t in [
    ("gather_tree_i32", 6, 3, 4, [6, 3, 9], 2, "i32"),
    ("gather_tree_f32", 5, 2, 3, [4, 5], 3, "f32"),
    ("gather_tree_one_beam", 7, 2, 1, [7, 1], 0, "i32"),
]:
    params, ids, par = gather_tree_inputs(T, B, W, t)
    y = o1.gather_tree(ids, par, C(np.array(lens, np.int32 if t == "i32" else np.float32)), C(np.array(end, np.int32 if t == "i32" else np.float32)))
    save(name, params, [o1.convert(y, "f32") if t == "i32" else y])
# ISTFT-16 (vocoders): with and without batch, center, normalized, an even and an odd frame size,
# a window shorter than the frame, signal_length shorter and longer than the frames give
import openvino.opset16 as o16
for name, shape, F, step, wl, center, normalized, length in [
    ("istft_batch", [2, 9, 5, 2], 16, 4, 16, False, False, None),
    ("istft_center_normalized", [2, 9, 6, 2], 16, 5, 12, True, True, None),
    ("istft_unbatched_odd", [5, 7, 2], 9, 3, 9, False, True, None),
    ("istft_length_short", [1, 9, 5, 2], 16, 4, 11, True, False, 11),
    ("istft_length_long", [2, 5, 4, 2], 8, 3, 8, False, False, 30),
]:
    x = param("x", shape)
    win = (0.5 - 0.5 * np.cos(2 * np.pi * (np.arange(wl) + 0.5) / wl)).astype(np.float32) + np.float32(0.05)
    y = o16.istft(x, C(win), C(np.int32(F)), C(np.int32(step)), center, normalized, None if length is None else C(np.int32(length)))
    save(name, [x], [y])

# Inverse-14 (PyTorch): batch dims, adjoint, one matrix; well-conditioned (x + 8·I)
import openvino.opset14 as o14i
for name, shape, adjoint in [("inverse_batch", [2, 3, 4, 4], False), ("inverse_adjoint", [3, 5, 5], True), ("inverse_single", [3, 3], False)]:
    x = param("x", shape)
    n = shape[-1]
    y = o14i.inverse(o1.add(x, C((8 * np.eye(n)).astype(np.float32))), adjoint)
    save(name, [x], [y])
# SparseFillEmptyRows-16 (TensorFlow): unsorted indices, empty rows first, inside and last, a
# repeated row; indices computed at run time too; outputs converted to f32 to compare
for name, runtime in [("sparse_fill_empty_rows", False), ("sparse_fill_empty_rows_runtime", True)]:
    v = param("values", [6])
    if runtime:
        ix = param("rows", [6, 1])  # rows 0 … 6 at run time, distinct columns: no two entries at one place
        rows = o1.convert(o1.floor(o1.multiply(o1.add(ix, np.float32(2)), np.float32(1.74))), "i32")
        idx = o1.concat([rows, C(np.array([[5], [0], [3], [1], [4], [2]], np.int32))], 1)
    else:
        idx = C(np.array([[4, 1], [1, 2], [1, 0], [6, 3], [4, 0], [3, 5]], np.int32))
    y = o16.sparse_fill_empty_rows(v, C(np.array([8, 7], np.int32)), idx, C(np.float32(-7.5)))
    save(name, [v, ix] if runtime else [v], [o1.convert(y.output(0), "f32").output(0), y.output(1), o1.convert(y.output(2), "f32").output(0)])
# CTCLoss-4 (TensorFlow): few classes so that labels repeat; lengths below T; the default and a
# given blank; merge / collapse / unique flags; labels as constants (OpenVINO's CPU plugin takes i32)
import openvino.opset4 as o4
ctc_labels = np.array([[1, 1, 2, 0, 2, 3, 0, 0], [3, 2, 2, 2, 1, 0, 0, 0], [0, 1, 0, 1, 1, 2, 2, 3]], np.int32)
for name, collapse, merge, unique, blank in [
    ("ctc_loss_default", False, True, False, None),
    ("ctc_loss_no_merge", False, False, False, None),
    ("ctc_loss_collapse", True, True, False, None),
    ("ctc_loss_unique_blank0", False, True, True, 4),
    ("ctc_loss_collapse_no_merge_blank2", True, False, False, 2),
]:
    x = param("x", [3, 8, 5])
    args = [x, C(np.array([8, 7, 8], np.int32)), C(np.where(ctc_labels == (blank if blank is not None else 4), 1, ctc_labels).astype(np.int32)), C(np.array([5, 4, 6], np.int32))]
    if blank is not None:
        args.append(C(np.int32(blank)))
    save(name, [x], [o4.ctc_loss(*args, preprocess_collapse_repeated=collapse, ctc_merge_repeated=merge, unique=unique)])
# ---- end s8-irmore ------------------------------------------------------------------------------

# ---- s8-ssd: PriorBox-1/8 and DetectionOutput-1/8 (the SSD head) ----
# PriorBox: the feature map size from ShapeOf of a static input, the image size a constant
for name, ver, attrs in [
    ("prior_box_v8_ratios_first", 8, {"min_size": [2.0, 5.0], "max_size": [4.0, 9.0], "aspect_ratio": [2.0, 3.0], "flip": True, "clip": False,
                                      "step": 0.0, "offset": 0.5, "variance": [0.1, 0.1, 0.2, 0.2], "min_max_aspect_ratios_order": False}),
    ("prior_box_v8_min_max_first", 8, {"min_size": [6.0], "max_size": [12.0], "aspect_ratio": [2.0, 0.5], "flip": True, "clip": True,
                                       "step": 8.0, "offset": 0.25, "variance": [0.2], "min_max_aspect_ratios_order": True}),
    ("prior_box_v1", 1, {"min_size": [2.0, 5.0], "max_size": [4.0, 9.0], "aspect_ratio": [3.0], "flip": False, "clip": True,
                         "step": 0.0, "offset": 0.5, "variance": []}),
    ("prior_box_not_scale_all", 8, {"min_size": [0.1, 0.3], "aspect_ratio": [2.0], "flip": True, "clip": False, "step": 0.25,
                                    "offset": 0.5, "variance": [0.1, 0.1, 0.2, 0.2], "scale_all_sizes": False}),
    ("prior_box_fixed_density", 8, {"fixed_size": [8.0, 16.0], "density": [2.0, 1.0], "aspect_ratio": [2.0], "flip": False, "clip": False,
                                    "step": 0.0, "offset": 0.5, "variance": [0.1]}),
    ("prior_box_fixed_ratio", 8, {"fixed_size": [12.0], "fixed_ratio": [0.5, 2.0], "aspect_ratio": [2.0], "density": [2.0], "clip": True,
                                  "step": 6.0, "offset": 0.5, "variance": [0.1]}),
]:
    x = param("x", [1, 2, 3, 4])
    hw = o1.strided_slice(o1.shape_of(x), i64([2]), i64([4]), i64([1]), [0], [0])
    save(name, [x], [(o8.prior_box if ver == 8 else o1.prior_box)(hw, C(i64([30, 40])), attrs)])
# DetectionOutput: location offsets x·0.5 and confidences x·0.2 + 0.5 of the harness's inputs (exact
# in both engines, so no score ties or near-ties move), priors constants of overlapping boxes
ssd_rng = np.random.default_rng(8)  # this block's own draws: cases added before it leave its priors alone


def ssd_priors(n_priors, images=1, rows=2, normalized=True, end_at=None):
    out = []
    for _ in range(images):
        centre = ssd_rng.uniform(0.2, 0.8, [n_priors, 2])
        size = ssd_rng.uniform(0.1, 0.5, [n_priors, 2])
        boxes = np.concatenate([centre - size / 2, centre + size / 2], axis=1)
        if not normalized:
            boxes = np.concatenate([np.zeros([n_priors, 1]), boxes * np.array([300, 200, 300, 200])], axis=1)
            if end_at is not None:
                boxes[end_at, 0] = -1
        var = np.tile(np.array([0.1, 0.1, 0.2, 0.2]), [n_priors, 1]).reshape(-1)
        flat = boxes.reshape(-1)
        body = [flat] + ([np.concatenate([var, np.zeros(flat.size - var.size)])] if rows == 2 else [])
        out.append(np.stack(body))
    return np.stack(out).astype(np.float32)


def ssd_inputs(n, n_priors, classes, loc_classes, arm=False):
    loc = param("loc", [n, n_priors * loc_classes * 4])
    conf = param("conf", [n, n_priors * classes])
    ins = [o1.multiply(loc, np.float32(0.5)), o1.add(o1.multiply(conf, np.float32(0.2)), np.float32(0.5))]
    params = [loc, conf]
    if arm:
        arm_conf = param("arm_conf", [n, n_priors * 2])
        arm_loc = param("arm_loc", [n, n_priors * loc_classes * 4])
        ins += [o1.add(o1.multiply(arm_conf, np.float32(0.2)), np.float32(0.5)), o1.multiply(arm_loc, np.float32(0.25))]
        params += [arm_conf, arm_loc]
    return params, ins


for name, n, P, n_classes, attrs, prior_kw, ver, arm in [
    ("detection_output_center_share", 2, 40, 4, {"code_type": "caffe.PriorBoxParameter.CENTER_SIZE", "share_location": True, "background_label_id": 0,
                                                  "top_k": 20, "keep_top_k": [15], "confidence_threshold": 0.55, "nms_threshold": 0.45, "normalized": True}, {}, 8, False),
    ("detection_output_corner_per_class", 1, 30, 3, {"code_type": "caffe.PriorBoxParameter.CORNER", "share_location": False, "background_label_id": -1,
                                                     "top_k": -1, "keep_top_k": [-1], "confidence_threshold": 0.6, "nms_threshold": 0.3, "normalized": True,
                                                     "clip_before_nms": True}, {}, 8, False),
    ("detection_output_variance_in_target", 2, 30, 3, {"code_type": "caffe.PriorBoxParameter.CENTER_SIZE", "share_location": True, "background_label_id": 1,
                                                       "top_k": 12, "keep_top_k": [10], "confidence_threshold": 0.5, "nms_threshold": 0.5, "normalized": True,
                                                       "variance_encoded_in_target": True, "clip_after_nms": True}, {"rows": 1}, 8, False),
    ("detection_output_not_normalized", 2, 30, 3, {"code_type": "caffe.PriorBoxParameter.CORNER", "share_location": True, "background_label_id": 0,
                                                   "top_k": -1, "keep_top_k": [8], "confidence_threshold": 0.5, "nms_threshold": 0.45, "normalized": False,
                                                   "input_height": 200, "input_width": 300}, {"images": 2, "normalized": False, "end_at": 25}, 8, False),
    ("detection_output_mxnet", 2, 40, 4, {"code_type": "caffe.PriorBoxParameter.CENTER_SIZE", "share_location": True, "background_label_id": 0,
                                          "top_k": 25, "keep_top_k": [12], "confidence_threshold": 0.6, "nms_threshold": 0.45, "normalized": True,
                                          "decrease_label_id": True}, {}, 8, False),
    ("detection_output_v1", 1, 30, 3, {"num_classes": 3, "code_type": "caffe.PriorBoxParameter.CENTER_SIZE", "share_location": False, "background_label_id": 0,
                                       "top_k": 10, "keep_top_k": [-1], "confidence_threshold": 0.5, "nms_threshold": 0.4, "normalized": True}, {}, 1, False),
    ("detection_output_arm", 2, 30, 3, {"code_type": "caffe.PriorBoxParameter.CENTER_SIZE", "share_location": True, "background_label_id": 0,
                                        "top_k": 20, "keep_top_k": [10], "confidence_threshold": 0.5, "nms_threshold": 0.45, "normalized": True,
                                        "objectness_score": 0.45}, {}, 8, True),
]:
    params, ins = ssd_inputs(n, P, n_classes, 1 if attrs["share_location"] else n_classes, arm)
    priors = ssd_priors(P, **prior_kw)
    fn = o8.detection_output if ver == 8 else o1.detection_output
    y = fn(ins[0], ins[1], C(priors), attrs, *ins[2:])
    save(name, params, [y])

# the number of images known at run time only (rows: images × keep_top_k)
loc, conf = param("loc", [-1, 30 * 4]), param("conf", [-1, 30 * 3])
y = o8.detection_output(o1.multiply(loc, np.float32(0.5)), o1.add(o1.multiply(conf, np.float32(0.2)), np.float32(0.5)), C(ssd_priors(30)), {
    "code_type": "caffe.PriorBoxParameter.CENTER_SIZE", "share_location": True, "background_label_id": 0, "top_k": 15, "keep_top_k": [14],
    "confidence_threshold": 0.5, "nms_threshold": 0.45, "normalized": True})
save("detection_output_dynamic_images", [loc, conf], [y], {"loc": [2, 30 * 4], "conf": [2, 30 * 3]})

# f16 data (old FP16 IRs of the Open Model Zoo): the CPU plugin computes in f32
params, ins = ssd_inputs(1, 30, 3, 1)
y = o8.detection_output(*[o1.convert(v, "f16") for v in ins], C(ssd_priors(30).astype(np.float16)), {
    "code_type": "caffe.PriorBoxParameter.CENTER_SIZE", "share_location": True, "background_label_id": 0, "top_k": -1, "keep_top_k": [12],
    "confidence_threshold": 0.5, "nms_threshold": 0.45, "normalized": True})
save("detection_output_f16", params, [y])

# an SSD300-like head: PriorBox over 19×19 and 10×10 feature maps of a 300×300 image, 21 classes
img = C(i64([300, 300]))
maps = []
for size, attrs in [(19, {"min_size": [60.0], "max_size": [111.0], "aspect_ratio": [2.0], "flip": True, "step": 16.0}),
                    (10, {"min_size": [111.0], "max_size": [162.0], "aspect_ratio": [2.0, 3.0], "flip": True, "step": 32.0})]:
    fmap = param(f"fmap{size}", [1, 1, size, size])
    hw = o1.strided_slice(o1.shape_of(fmap), i64([2]), i64([4]), i64([1]), [0], [0])
    pb = o8.prior_box(hw, img, {**attrs, "clip": False, "offset": 0.5, "variance": [0.1, 0.1, 0.2, 0.2]})
    maps.append((fmap, o1.unsqueeze(pb, i64([0]))))
P = 19 * 19 * 4 + 10 * 10 * 6
params, ins = ssd_inputs(1, P, 21, 1)
y = o8.detection_output(ins[0], ins[1], o1.concat([m[1] for m in maps], 2), {
    "code_type": "caffe.PriorBoxParameter.CENTER_SIZE", "share_location": True, "background_label_id": 0, "top_k": 400, "keep_top_k": [200],
    "confidence_threshold": 0.01, "nms_threshold": 0.45, "normalized": True, "clip_before_nms": False, "clip_after_nms": False})
save("ssd300_head", params + [m[0] for m in maps], [y])
# ---- end s8-ssd ----

# ── s8-nms: OpenVINO's detection post-processing (MulticlassNms-8/9, MatrixNms-8, …) ──────────────
# Boxes are clusters of overlapping boxes (one inverted, one of zero width) moved by a run-time input
# (scale 0.05), scores a run-time input in [-2, 2]: no ties, so the order is determined.
nms_base = np.array([[0, 0, 1, 1], [0.1, 0.05, 1.1, 1.0], [0.05, 0.1, 0.9, 1.2], [2, 2, 3, 3.5], [2.2, 2.1, 3.1, 3.4],
                     [5, 5, 4, 4], [6, 0, 6, 1], [0.3, 0.2, 1.3, 1.1]], np.float32)


def nms_inputs(batch, classes, scale=1.0):
    b, s = param("boxes", [batch, 8, 4]), param("scores", [batch, classes, 8])
    boxes = o1.multiply(o1.add(C(np.stack([nms_base] * batch)), o1.multiply(b, np.float32(0.05))), np.float32(scale))
    return [b, s], boxes, s


import openvino.opset8 as o8n
import openvino.opset9 as o9n
for name, mod, batch, kw in [
    ("mcnms8_score_across", o8n, 2, dict(sort_result_type="score", sort_result_across_batch=True, iou_threshold=0.5, score_threshold=0.0, nms_top_k=4, keep_top_k=5)),
    ("mcnms8_classid_bg_i32", o8n, 2, dict(sort_result_type="classid", output_type="i32", iou_threshold=0.3, score_threshold=-0.5, background_class=0)),
    ("mcnms9_none_unnormalized_eta", o9n, 2, dict(sort_result_type="none", iou_threshold=0.4, score_threshold=-1.0, keep_top_k=6, nms_eta=0.5, normalized=False)),
    ("mcnms9_classid_across", o9n, 3, dict(sort_result_type="classid", sort_result_across_batch=True, iou_threshold=0.6, score_threshold=0.2, nms_top_k=6, keep_top_k=4)),
]:
    ps, boxes, scores = nms_inputs(batch, 3, 10.0 if "unnormalized" in name else 1.0)
    y = mod.multiclass_nms(boxes, scores, **kw)
    save(name, ps, list(y.outputs()))
# MulticlassNms-9 with per-class boxes [C, ΣM, 4], scores [C, ΣM] and roisnum (an empty image between two)
for name, rois, kw in [
    ("mcnms9_roisnum_score", i32([5, 0, 7]), dict(sort_result_type="score", iou_threshold=0.5, score_threshold=-0.8, background_class=1)),
    ("mcnms9_roisnum_classid_across_i64", i64([7, 5]), dict(sort_result_type="classid", sort_result_across_batch=True, iou_threshold=0.45, score_threshold=0.0, nms_top_k=3, keep_top_k=5)),
]:
    b, s = param("boxes", [3, 12, 4]), param("scores", [3, 12])
    base = np.stack([np.concatenate([nms_base, nms_base[:4] + 0.5])] * 3)
    boxes = o1.add(C(base), o1.multiply(b, np.float32(0.05)))
    y = o9n.multiclass_nms(boxes, s, C(rois), **kw)
    save(name, [b, s], list(y.outputs()))

# MatrixNms-8: linear and gaussian decay, each order, normalized or not
for name, batch, kw in [
    ("matrix_nms_linear_score_across", 2, dict(sort_result_type="score", sort_result_across_batch=True, score_threshold=0.0, nms_top_k=5, keep_top_k=6, post_threshold=0.1)),
    ("matrix_nms_gaussian_classid_bg_i32", 2, dict(sort_result_type="classid", output_type="i32", score_threshold=-0.5, background_class=0, decay_function="gaussian", gaussian_sigma=2.0, post_threshold=0.05)),
    ("matrix_nms_linear_unnormalized_none", 2, dict(sort_result_type="none", score_threshold=0.3, keep_top_k=7, normalized=False)),
    ("matrix_nms_gaussian_classid_across", 3, dict(sort_result_type="classid", sort_result_across_batch=True, score_threshold=0.1, nms_top_k=3, decay_function="gaussian", gaussian_sigma=0.5, post_threshold=0.2)),
]:
    ps, boxes, scores = nms_inputs(batch, 3, 10.0 if "unnormalized" in name else 1.0)
    save(name, ps, list(o8n.matrix_nms(boxes, scores, **kw).outputs()))

# Proposal-1/4 (Faster R-CNN): Caffe and TensorFlow anchors, padding rows after the kept ones (v1),
# a second output filled (v4: the plugin leaves its padding unwritten), image_shape of 3 and 4 values;
# scores are sigmoids (no ties, none at 0), deltas scaled by 0.3
import openvino.opset4 as o4p
for name, mod, batch, hw, info, attrs in [
    ("proposal_v1_caffe_padded", o1, 1, [4, 5], [80.0, 100.0, 1.0],
     dict(base_size=16, pre_nms_topn=50, post_nms_topn=45, nms_thresh=0.5, feat_stride=16, min_size=2, ratio=[0.5, 1.0, 2.0], scale=[1.0, 2.5])),
    ("proposal_v1_caffe_two_batches_clip_after", o1, 2, [3, 4], [60.0, 70.0, 1.5, 0.5],
     dict(base_size=8, pre_nms_topn=30, post_nms_topn=40, nms_thresh=0.6, feat_stride=16, min_size=3, ratio=[1.0, 1.7], scale=[2.0, 4.0],
          clip_after_nms=True, normalize=True)),
    ("proposal_v4_tensorflow", o4p, 2, [4, 4], [90.0, 70.0, 1.2, 0.8],
     dict(base_size=16, pre_nms_topn=40, post_nms_topn=8, nms_thresh=0.7, feat_stride=8, min_size=1, ratio=[0.5, 1.0, 2.0], scale=[0.5, 1.0],
          framework="tensorflow", box_size_scale=2.0, box_coordinate_scale=5.0, clip_after_nms=True)),
]:
    a = len(attrs["ratio"]) * len(attrs["scale"])
    attrs = {k: (np.uint32(v) if isinstance(v, int) and not isinstance(v, bool) else np.float32(v) if isinstance(v, float) else
                 np.array(v, np.float32) if isinstance(v, list) else np.bool_(v) if isinstance(v, bool) else v) for k, v in attrs.items()}
    cp, bd = param("class_probs", [batch, 2 * a] + hw), param("bbox_deltas", [batch, 4 * a] + hw)
    y = mod.proposal(o1.sigmoid(cp), o1.multiply(bd, np.float32(0.3)), C(np.array(info, np.float32)),
                     {"clip_before_nms": np.bool_(True), "clip_after_nms": np.bool_(False), "normalize": np.bool_(False), "box_size_scale": np.float32(1),
                      "box_coordinate_scale": np.float32(1), "framework": "", **attrs})
    save(name, [cp, bd], list(y.outputs()))

# ExperimentalDetectronTopKROIs-6 / ExperimentalDetectronPriorGridGenerator-6 (Mask R-CNN)
nf6 = NodeFactory("opset6")
for name, n, k in [("ed_topk_rois", 12, 5), ("ed_topk_rois_all", 6, 6)]:
    r, p = param("rois", [n, 4]), param("probs", [n])
    save(name, [r, p], [nf6.create("ExperimentalDetectronTopKROIs", [r.output(0), p.output(0)], {"max_rois": k})])
for name, attrs, fmap, img in [
    ("ed_prior_grid_flat", {"flatten": True, "h": 0, "w": 0, "stride_x": 0.0, "stride_y": 0.0}, [1, 2, 3, 5], [1, 3, 30, 45]),
    ("ed_prior_grid_attrs", {"flatten": False, "h": 3, "w": 5, "stride_x": 8.0, "stride_y": 6.5}, [1, 2, 3, 5], [1, 3, 30, 45]),
    ("ed_prior_grid_uneven_steps", {"flatten": True, "h": 0, "w": 0, "stride_x": 0.0, "stride_y": 0.0}, [1, 2, 7, 3], [1, 3, 50, 20]),
]:
    pr, fm, im = param("priors", [3, 4]), param("fmap", fmap), param("img", img)
    save(name, [pr, fm, im], [nf6.create("ExperimentalDetectronPriorGridGenerator", [pr.output(0), fm.output(0), im.output(0)], attrs)])

# ExperimentalDetectronGenerateProposalsSingleImage-6: anchors around each cell of a 3 × 4 map,
# padding rows (post_nms_count above what NMS keeps) and a full output
gp_anchors = np.array([[w * 16 - s * r, h * 16 - s / r, w * 16 + s * r, h * 16 + s / r] for h in range(3) for w in range(4)
                       for s, r in [(10, 1.0), (14, 1.4), (20, 0.7)]], np.float32)
for name, attrs in [
    ("ed_generate_proposals_padded", {"min_size": 2.0, "nms_threshold": 0.5, "post_nms_count": 30, "pre_nms_count": 25}),
    ("ed_generate_proposals_full", {"min_size": 0.0, "nms_threshold": 0.7, "post_nms_count": 6, "pre_nms_count": 1000}),
]:
    dl, sc = param("deltas", [12, 3, 4]), param("scores", [3, 3, 4])
    y = nf6.create("ExperimentalDetectronGenerateProposalsSingleImage",
                   [C(np.array([40.0, 60.0, 1.0], np.float32)).output(0), C(gp_anchors).output(0),
                    o1.multiply(dl, np.float32(0.3)).output(0), o1.sigmoid(sc).output(0)], attrs)
    save(name, [dl, sc], list(y.outputs()))

# ── s19-irops: the IR ops IR → ONNX read last ────────────────────────────────────────────────────
# Where OpenVINO's CPU plugin cannot run an op (no kernel, no evaluate), the harness's inputs are
# made here as native-ir-ops.test.ts makes them (seededF32) and numpy computes the op's definition:
# the expected outputs, in references.json (raw little-endian bytes, base64).
import base64
references = {}


def seeded_f32(shape, seed):
    """test/helpers/oracle.ts seededF32, the same doubles (JavaScript's (s * 1103515245 + 12345) >>> 0)."""
    s = (seed * 2654435761) % 2**32
    out = np.empty(int(np.prod(shape)), np.float32)
    for i in range(out.size):
        s = int(float(s) * 1103515245.0 + 12345.0) % 2**32
        out[i] = np.float32((s / 2**32) * 4 - 2)
    return out.reshape(shape)


def harness_inputs(name):
    return {k: seeded_f32(s, i + 1) for i, (k, s) in enumerate(cases[name].items())}


def reference(name, outputs):
    references[name] = [{"dtype": {"float32": "f32", "int32": "i32", "int64": "i64", "bool": "boolean", "uint8": "u8"}[str(o.dtype)],
                         "shape": list(o.shape), "data": base64.b64encode(np.ascontiguousarray(o).tobytes()).decode()} for o in outputs]


# GroupedMatMul-17 (MoE): mat_b [G, N, K] holds each group's weights transposed. 3-D × 3-D; 2-D × 3-D
# with i32 / i64 offsets, an empty group, rows after the last offset (zeros), a group of all rows.
# OpenVINO 2026.4's CPU plugin has no kernel for it (and the op no evaluate): numpy is the reference.
import openvino.opset17 as o17


def gmm_reference(a, b, offsets):
    if offsets is None:
        return np.einsum("gmk,gnk->gmn", a.astype(np.float64), b.astype(np.float64)).astype(np.float32)
    y = np.zeros([a.shape[0], b.shape[1]], np.float64)
    start = 0
    for g, end in enumerate(offsets):
        y[start:end] = a[start:end].astype(np.float64) @ b[g].astype(np.float64).T
        start = end
    return y.astype(np.float32)


for name, ashape, bshape, offsets in [
    ("grouped_matmul_3d", [3, 4, 5], [3, 6, 5], None),
    ("grouped_matmul_2d_i32", [9, 5], [3, 4, 5], i32([2, 2, 7])),
    ("grouped_matmul_2d_i64_tail", [10, 3], [4, 2, 3], i64([1, 4, 4, 8])),
    ("grouped_matmul_2d_one_group", [6, 4], [1, 5, 4], i64([6])),
]:
    a, b = param("mat_a", ashape), param("mat_b", bshape)
    y = o17.grouped_matmul(a, b, None if offsets is None else C(offsets))
    save(name, [a, b], [y])
    ins = harness_inputs(name)
    reference(name, [gmm_reference(ins["mat_a"], ins["mat_b"], offsets)])
# the weights a constant (as in an LLM IR), the tokens a run-time input: OpenVINO's CPU plugin runs
# these (its GatherMatmul; it fails on rows after the last offset), so OpenVINO is the reference
for name, ashape, bshape, offsets in [
    ("grouped_matmul_const_weights", [7, 4], [3, 5, 4], i32([0, 3, 7])),
    ("grouped_matmul_3d_const_weights", [3, 2, 4], [3, 5, 4], None),
]:
    a = param("mat_a", ashape)
    save(name, [a], [o17.grouped_matmul(a, C(rng.uniform(-1, 1, bshape).astype(np.float32)), None if offsets is None else C(offsets))])

# Xor-1 (v0::Xor of old IRs, LogicalXor before its rename): numpy broadcasting
nf1 = NodeFactory("opset1")
x, y = param("x", [2, 3, 4]), param("y", [3, 1])
save("xor_v0", [x, y], [nf1.create("Xor", [o1.greater(x, np.float32(0)).output(0), o1.less(y, np.float32(0.3)).output(0)], {"auto_broadcast": "numpy"})])

# DeformableConvolution-1 (and -8 with bilinear_interpolation_pad false): a point counts only inside
# [0, H) × [0, W), past H − 1 it reads row H − 1; offsets of ±3 put many points outside and past the
# border; groups, deformable groups, strides, pads, dilations; a mask (v8)
for name, ver, cin, cout, g, dg, st, pb, pe, dil, mask in [
    ("deform_v1_basic", 1, 2, 3, 1, 1, [1, 1], [0, 0], [0, 0], [1, 1], False),
    ("deform_v1_groups_pads", 1, 4, 4, 2, 2, [1, 1], [1, 1], [1, 2], [1, 1], False),
    ("deform_v1_strides_dil", 1, 2, 2, 1, 2, [2, 1], [1, 0], [0, 1], [1, 2], False),
    ("deform_v8_no_pad_mask", 8, 4, 2, 2, 1, [1, 2], [2, 1], [1, 1], [2, 1], True),
]:
    x, off, w, mask_shape = deform_operands(6, 5, cin, cout, g, dg, st, pb, pe, dil)
    params = [x, off]
    wide = o1.multiply(off, np.float32(1.5))
    if ver == 1:
        y = o1.deformable_convolution(x, wide, w, st, pb, pe, dil, "explicit", g, dg)
    else:
        m = param("mask", [1, *mask_shape])
        params.append(m)
        y = o8.deformable_convolution(x, wide, w, st, pb, pe, dil, m, "explicit", g, dg, False)
    save(name, params, [y])

# RGBtoNV12-17 / BGRtoNV12-17: OpenVINO 2026.4's CPU plugin has no kernel and the op no evaluate:
# numpy computes OpenVINO's reference (convert_color_to_nv12.hpp). Pixels x·60 + 128 (past 0 and 255
# at the ends: clamped), integers their floor as u8; one plane and two, RGB and BGR.
nf17 = NodeFactory("opset17")


def to_nv12_reference(img, bgr, single, integral):
    f = np.float32
    r, g, b = (img[..., 2], img[..., 1], img[..., 0]) if bgr else (img[..., 0], img[..., 1], img[..., 2])
    r, g, b = r.astype(f), g.astype(f), b.astype(f)

    def clip(a):
        if integral:
            a = np.where(a >= 0, np.floor(a + f(0.5)), np.ceil(a - f(0.5))).astype(f)
        return np.clip(a, f(0), f(255))
    y = clip(f(0.257) * r + f(0.504) * g + f(0.098) * b + f(16))
    u = clip(f(-0.148) * r - f(0.291) * g + f(0.439) * b + f(128))
    v = clip(f(0.439) * r - f(0.368) * g - f(0.071) * b + f(128))

    def block(p):
        s = p[:, 0::2, 0::2] + p[:, 0::2, 1::2] + p[:, 1::2, 0::2] + p[:, 1::2, 1::2]
        m = (s / f(4)).astype(f)
        return np.floor(m + f(0.5)) if integral else m
    t = np.uint8 if integral else np.float32
    Y = y[..., None].astype(t)
    UV = np.stack([block(u), block(v)], axis=-1).astype(t)
    if single:
        n, h, w = img.shape[:3]
        return [np.concatenate([Y, UV.reshape(n, h // 2, w, 1)], axis=1)]
    return [Y, UV]


for name, op, single, integral in [
    ("rgb_to_nv12_one_plane_f32", "RGBtoNV12", True, False),
    ("bgr_to_nv12_two_planes_f32", "BGRtoNV12", False, False),
    ("rgb_to_nv12_two_planes_u8", "RGBtoNV12", False, True),
    ("bgr_to_nv12_one_plane_u8", "BGRtoNV12", True, True),
]:
    x = param("x", [2, 4, 6, 3])
    img = o1.add(o1.multiply(x, np.float32(60)), np.float32(128))
    if integral:
        img = o1.convert(o1.clamp(o1.floor(img), 0, 255), "u8")
    y = nf17.create(op, [img.output(0)], {"single_plane": single})
    save(name, [x], list(y.outputs()))
    xin = harness_inputs(name)["x"]
    pix = xin * np.float32(60) + np.float32(128)
    if integral:
        pix = np.clip(np.floor(pix), 0, 255).astype(np.uint8)
    reference(name, to_nv12_reference(pix, op == "BGRtoNV12", single, integral))

# ── s19-det: the detection ops IR → ONNX read last ───────────────────────────────────────────────
# ROIAlignRotated-15: rois [cx, cy, w, h, angle]; a ROI inside, one crossing the top-left border, one
# past the bottom-right (samples outside [−1, W] × [−1, H] count as 0), one of zero width (adaptive
# sampling: no sample, 0), angles 0, ±, π/2 and past π; clockwise and not; sampling 0 (per ROI
# ⌈bin⌉ samples), 1, 2; spatial scales; i32 and i64 batch indices; ROIs moved at run time.
import openvino.opset15 as o15r
rar_rois = np.array([[4, 4, 6, 3, 0.3], [1, 0.5, 5, 4, -1.2], [8.5, 7, 10, 2, 2.5], [4, 3, 0, 2, 0.7],
                     [2.2, 5.1, 3.3, 6.6, np.pi / 2], [5, 2, 2.5, 9, 4.0]], np.float32)
rar_batch = np.array([0, 1, 1, 0, 1, 0])
for name, shape, ph, pw, sr, scale, cw, bt in [
    ("roi_align_rotated_adaptive_cw", [2, 3, 8, 9], 2, 3, 0, 1.0, True, np.int32),
    ("roi_align_rotated_s2_ccw_half_scale", [2, 2, 10, 7], 3, 2, 2, 0.5, False, np.int64),
    ("roi_align_rotated_adaptive_ccw_scaled", [2, 4, 6, 6], 2, 2, 0, 0.8, False, np.int64),
    ("roi_align_rotated_s1_one_bin", [2, 3, 7, 8], 1, 1, 1, 1.0, True, np.int32),
]:
    x = param("x", shape)
    save(name, [x], [o15r.roi_align_rotated(x, C(rar_rois), C(rar_batch.astype(bt)), ph, pw, sr, scale, cw)])
for name, sr, cw in [("roi_align_rotated_runtime_rois_adaptive", 0, True), ("roi_align_rotated_runtime_rois_s3", 3, False)]:
    x, r = param("x", [2, 3, 9, 8]), param("rois", [6, 5])
    rois = o1.add(C(rar_rois), o1.multiply(r, np.float32(0.75)))
    save(name, [x, r], [o15r.roi_align_rotated(x, rois, C(rar_batch.astype(np.int32)), 3, 2, sr, 1.0, cw)])

# NMSRotated-13: clusters of rotated boxes moved by a run-time input (scale 0.3), scores a run-time
# input; thresholds that suppress little and much, a score threshold that drops boxes, a class full
# before its boxes end, both rotations, each order, i32. Then the boxes as they are (two identical:
# IoU 1, edges shared) with scores rounded to halves (many ties: lower index first; sorted rows by
# batch, class, index).
import openvino.opset13 as o13n
nmsr_base = np.array([[2, 2, 3, 1.5, 0.2], [2.3, 2.1, 3, 1.6, 0.5], [2.1, 1.8, 2.5, 2, -0.6], [6, 6, 2, 2, 0], [6.2, 6.1, 2, 2, 0.785],
                      [6, 6, 2, 2, 0], [9, 2, 4, 1, 1.3], [9.4, 2.2, 3.6, 1.2, -1.7], [1, 8, 1.5, 3, 3.1], [1.2, 7.7, 1.4, 3.2, 0.1]], np.float32)
for name, batch, classes, most, iou, sthr, desc, cw, otype in [
    ("nms_rotated_sorted_cw", 2, 2, 10, 0.3, -1.0, True, True, "i64"),
    ("nms_rotated_by_class_ccw", 2, 3, 10, 0.5, -0.5, False, False, "i64"),
    ("nms_rotated_few_i32", 1, 2, 3, 0.1, 0.0, True, False, "i32"),
    ("nms_rotated_low_iou_by_class", 2, 1, 6, 0.05, -2.0, False, True, "i64"),
]:
    b, s = param("boxes", [batch, 10, 5]), param("scores", [batch, classes, 10])
    boxes = o1.add(C(np.stack([nmsr_base] * batch)), o1.multiply(b, np.float32(0.3)))
    y = o13n.nms_rotated(boxes, s, np.int64(most), np.float32(iou), np.float32(sthr), desc, otype, cw)
    save(name, [b, s], list(y.outputs()))
for name, desc, cw in [("nms_rotated_ties_identical_sorted", True, True), ("nms_rotated_ties_identical_by_class", False, False)]:
    s = param("scores", [2, 2, 10])
    ties = o1.divide(o1.floor(o1.multiply(s, np.float32(2))), np.float32(2))
    y = o13n.nms_rotated(C(np.stack([nmsr_base, nmsr_base[::-1].copy()])), ties, np.int64(10), np.float32(0.4), np.float32(-1.5), desc, "i64", cw)
    save(name, [s], list(y.outputs()))

# GenerateProposals-9: anchors [H, W, A, 4] around each cell of a 3 × 4 map, two images; unnormalized
# (+1 sizes) and normalized, im_info of 3 and 4 values, boxes under min_size (they hold their rank but
# are never output), pre_nms_count below and above the proposals, post_nms_count cutting and not,
# i32 roi_num. Scores are sigmoids (no ties: the plugin's partial_sort leaves them in no order).
import openvino.opset9 as o9g
g9_anchors = gp_anchors.reshape(3, 4, 3, 4)
for name, info, kw in [
    ("generate_proposals_unnormalized", [[40.0, 60.0, 1.0], [35.0, 50.0, 2.0]], dict(min_size=3.0, nms_threshold=0.5, pre_nms_count=25, post_nms_count=12, normalized=False)),
    ("generate_proposals_normalized_hw_scales", [[40.0, 60.0, 1.0, 0.5], [30.0, 64.0, 0.8, 1.2]], dict(min_size=6.0, nms_threshold=0.6, pre_nms_count=1000, post_nms_count=50)),
    ("generate_proposals_few_i32", [[40.0, 60.0, 1.0], [40.0, 60.0, 1.0]], dict(min_size=0.0, nms_threshold=0.3, pre_nms_count=30, post_nms_count=4, normalized=False, roi_num_type="i32")),
]:
    dl, sc = param("deltas", [2, 12, 3, 4]), param("scores", [2, 3, 3, 4])
    y = o9g.generate_proposals(C(np.array(info, np.float32)), C(g9_anchors), o1.multiply(dl, np.float32(0.3)), o1.sigmoid(sc), **kw)
    save(name, [dl, sc], list(y.outputs()))

# ExperimentalDetectronROIFeatureExtractor-6 (Mask R-CNN): ROIs of every pyramid level (√area about
# 224 · 2^(level − 2); below the first and past the last clamped), one of zero area (no level: zeros),
# boxes past the map, aligned and not, sampling 2 and adaptive (0), the rois output (the input's copy).
fe_rois = np.array([[0, 0, 20, 30], [10, 5, 120, 90], [30, 40, 230, 250], [4, 4, 4, 60], [100, 100, 500, 420], [60, 20, 400, 130],
                    [-20, -10, 40, 30], [0, 0, 600, 500]], np.float32)
for name, attrs, sizes in [
    ("ed_roi_feature_extractor_s2", {"output_size": 3, "sampling_ratio": 2, "pyramid_scales": [4, 8, 16, 32], "aligned": False}, [64, 32, 16, 8]),
    ("ed_roi_feature_extractor_adaptive_aligned", {"output_size": 2, "sampling_ratio": 0, "pyramid_scales": [8, 16, 32], "aligned": True}, [40, 20, 10]),
]:
    r = param("rois", [8, 4])
    maps = [param(f"level{i}", [1, 3, n, n + 2]) for i, n in enumerate(sizes)]
    rois = o1.add(C(fe_rois), o1.multiply(r, np.float32(2.0)))
    y = nf6.create("ExperimentalDetectronROIFeatureExtractor", [rois.output(0)] + [m.output(0) for m in maps], attrs)
    save(name, [r] + maps, list(y.outputs()))

# ExperimentalDetectronDetectionOutput-6 (Mask R-CNN box head): overlapping ROIs, one inverted (no
# boxes), deltas moving boxes past the top-left corner (clamped at 0); more rows than
# max_detections_per_image (the best by score) and fewer (class order, zero rows), post_nms_count
# cutting a class. Scores are sigmoids (no ties).
ed_do_rois = np.array([[10, 10, 50, 40], [12, 8, 52, 44], [30, 30, 90, 80], [0, 0, 20, 20], [60, 10, 100, 70], [65, 12, 98, 75],
                       [40, 40, 30, 60], [5, 50, 45, 95], [8, 52, 44, 90], [70, 60, 110, 100], [2, 2, 30, 12], [50, 50, 70, 70]], np.float32)
for name, attrs in [
    ("ed_detection_output_overflow", {"score_threshold": 0.3, "nms_threshold": 0.5, "max_delta_log_wh": 2.0, "num_classes": 4, "post_nms_count": 5,
                                      "max_detections_per_image": 6, "class_agnostic_box_regression": False, "deltas_weights": [10.0, 10.0, 5.0, 5.0]}),
    ("ed_detection_output_class_order", {"score_threshold": 0.2, "nms_threshold": 0.3, "max_delta_log_wh": 4.135, "num_classes": 3, "post_nms_count": 3,
                                         "max_detections_per_image": 20, "class_agnostic_box_regression": False, "deltas_weights": [1.0, 2.0, 1.0, 0.5]}),
]:
    k = attrs["num_classes"]
    dl, sc = param("deltas", [12, 4 * k]), param("scores", [12, k])
    y = nf6.create("ExperimentalDetectronDetectionOutput", [C(ed_do_rois).output(0), o1.multiply(dl, np.float32(0.5)).output(0), o1.sigmoid(sc).output(0),
                                                            C(np.array([[120.0, 120.0, 1.0]], np.float32)).output(0)], attrs)
    save(name, [dl, sc], list(y.outputs()))

# DeformablePSROIPooling-1 (bilinear_deformable, the mode OpenVINO's CPU plugin runs): offsets of two
# classes over 2 × 2 parts (trans_std 0.1) moving samples past the map, several spatial bins, ROIs
# with halves to round, one past the map, a batch of −1 ending them; and without offsets, ROIs at run time.
dps_rois = np.array([[0, 1.5, 2.5, 12, 9], [1, 0, 0, 15, 13], [1, 10.5, 6, 30, 22], [0, -4, -3, 6, 5], [-1, 0, 0, 4, 4], [0, 2, 2, 8, 8]], np.float32)
x, t = param("x", [2, 4 * 3 * 3, 10, 12]), param("trans", [6, 4, 2, 2])
save("deformable_psroi_offsets", [x, t], [o1.deformable_psroi_pooling(x, C(dps_rois), 4, 0.5, 3, "bilinear_deformable", 3, 2, 0.1, 2, t)])
x, r = param("x", [2, 2 * 2 * 2, 9, 8]), param("rois", [6, 5])
rois = o1.add(C(np.concatenate([dps_rois[:, :1], dps_rois[:, 1:] * 0.5], 1)), o1.multiply(r, C(np.array([0, 1, 1, 1, 1], np.float32))))
save("deformable_psroi_no_offsets_runtime_rois", [x, r], [o1.deformable_psroi_pooling(x, rois, 2, 1.0, 2, "bilinear_deformable", 1, 1)])

with open(f"{out}/references.json", "w") as f:
    json.dump(references, f)

print(json.dumps(cases))
