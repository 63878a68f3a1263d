"""Writes small OpenVINO IRs of ROIAlign-9, Col2Im-15 and DeformableConvolution-8 (built with
OpenVINO's Python API and serialized by it) into the folder given as argv[1], one <name>.xml per
case, and prints their names with their Parameter shapes as JSON. Used by native-ir-ops.test.ts."""
import json
import sys

import numpy as np
import openvino as ov
import openvino.opset8 as o8
import openvino.opset9 as o9
import openvino.opset15 as o15

out = sys.argv[1]
cases = {}
rng = np.random.default_rng(7)


def save(name, params, results):
    model = ov.Model(results, params, name)
    ov.save_model(model, f"{out}/{name}.xml", compress_to_fp16=False)
    cases[name] = {p.get_friendly_name(): list(p.get_partial_shape().to_shape()) for p in params}


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

print(json.dumps(cases))
