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

# DeformableConvolution-8: groups, deformable groups, mask, strides / pads / dilations
for name, cin, cout, g, dg, mask, st, pb, pe, dil in [
    ("deform_basic", 2, 3, 1, 1, False, [1, 1], [0, 0], [0, 0], [1, 1]),
    ("deform_mask_pads", 4, 4, 2, 2, True, [1, 1], [1, 1], [1, 1], [1, 1]),
    ("deform_strides_dil", 2, 2, 1, 2, True, [2, 1], [1, 0], [0, 1], [1, 2]),
]:
    kh, kw = 3, 2
    H, W = 7, 6
    oh = (H + pb[0] + pe[0] - ((kh - 1) * dil[0] + 1)) // st[0] + 1
    ow = (W + pb[1] + pe[1] - ((kw - 1) * dil[1] + 1)) // st[1] + 1
    x = param("x", [1, cin, H, W])
    off = param("offset", [1, dg * kh * kw * 2, oh, ow])
    w = rng.uniform(-1, 1, [cout, cin // g, kh, kw]).astype(np.float32)
    params = [x, off]
    m = None
    if mask:
        m = param("mask", [1, dg * kh * kw, oh, ow])
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

print(json.dumps(cases))
