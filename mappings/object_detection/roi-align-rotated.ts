import { A } from '../../src/graph/attr.js';
import { tensorFromFloat32 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Scalar } from '../helpers.js';
import { cast, irOnly, never, on } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { roiAlignSamples } from './roi-align-samples.js';

/**
 * ROIAlignRotated-15 (rotated-box detectors: OpenVINO's PyTorch frontend writes it for
 * detectron2 / mmcv roi_align_rotated), which ONNX lacks, as OpenVINO's reference and CPU plugin
 * compute it (measured equal). data [N, C, H, W]; rois [R, 5] = [cx, cy, w, h, angle] (radians);
 * batch_indices [R]; output [R, C, pooled_h, pooled_w]. For each ROI: centre cx·s − ½, cy·s − ½,
 * size w·s × h·s (s = spatial_scale, no minimum size), angle negated when clockwise_mode; the box
 * is split into pooled_h × pooled_w bins of sy × sx samples (sampling_ratio, or per ROI
 * ⌈bin size⌉ when it is 0), sample (iy, ix) of bin (i, j) at the box-frame point
 * p = (−w/2 + j·bw + (ix + ½)·bw/sx, −h/2 + i·bh + (iy + ½)·bh/sy) turned into the image as
 * y = py·cos − px·sin + cy, x = py·sin + px·cos + cx. A sample outside [−1, W] × [−1, H] is 0;
 * else clamped at 0, bilinear between ⌊y⌋ and ⌊y⌋ + 1 (at the last row both are H − 1, y = H − 1),
 * likewise x. A bin is the mean of its sx·sy samples (0 when a size is 0).
 *
 * ONNX form: roi-align-samples.ts (every sample of every bin at once; with sampling_ratio 0 as many
 * as the largest ROI needs, masked; four Gathers of rows of channels), turned by the angle.
 * Computed in f32 (f16 / bf16 data cast), as the plugin does.
 */
const f32 = (c: ConvertContext, v: number): Value => c.constant(tensorFromFloat32([v], []));
const op = (c: ConvertContext, name: string, a: Value, b: Value): Value => on(c, name, [a, b]);

function roiAlignRotatedToOnnx(c: ConvertContext): void {
  const ph = Number(c.attr.int('pooled_h') ?? 0n);
  const pw = Number(c.attr.int('pooled_w') ?? 0n);
  const ratio = Number(c.attr.int('sampling_ratio') ?? 0n);
  const scale = c.attr.float('spatial_scale');
  const clockwise = c.attr.bool('clockwise_mode') ?? false;
  for (const [name, v] of [['pooled_h', ph], ['pooled_w', pw]] as const) if (!(v >= 1)) { c.unsupportedAttr(name, String(v), 'a positive integer'); return; }
  if (ratio < 0) { c.unsupportedAttr('sampling_ratio', String(ratio), '0 (adaptive) or a positive integer'); return; }
  if (scale === undefined) { c.unsupportedAttr('spatial_scale', '', 'a value (OpenVINO requires it)'); return; }
  const elem = c.elem(0);
  if (elem !== 'f32' && elem !== 'f16' && elem !== 'bf16') { c.error(`ROIAlignRotated needs f32, f16 or bf16 data, not ${elem ?? 'an unknown type'}`); return; }
  if (c.rank(0) !== null && c.rank(0) !== 4) { c.error(`ROIAlignRotated needs data of rank 4, not ${c.rank(0)}`); return; }
  const data = elem === 'f32' ? c.input(0)! : cast(c, c.input(0)!, 'f32');
  const rois = c.elem(1) === 'f32' ? c.input(1)! : cast(c, c.input(1)!, 'f32');
  const batch = c.elem(2) === 'i64' ? c.input(2)! : cast(c, c.input(2)!, 'i64');
  const col = (k: number): Value => on(c, 'Gather', [rois, i64Scalar(c, BigInt(k))], { axis: A.int(1) }); // [R]
  const s = f32(c, scale);
  const half = f32(c, 0.5);
  const w = op(c, 'Mul', col(2), s);
  const h = op(c, 'Mul', col(3), s);
  const angle = clockwise ? on(c, 'Neg', [col(4)]) : col(4);
  const result = roiAlignSamples(c, data, batch, {
    startX: op(c, 'Div', on(c, 'Neg', [w]), f32(c, 2)), startY: op(c, 'Div', on(c, 'Neg', [h]), f32(c, 2)),
    binW: op(c, 'Div', w, f32(c, pw)), binH: op(c, 'Div', h, f32(c, ph)),
    turn: { cos: on(c, 'Cos', [angle]), sin: on(c, 'Sin', [angle]), cx: op(c, 'Sub', op(c, 'Mul', col(0), s), half), cy: op(c, 'Sub', op(c, 'Mul', col(1), s), half) },
  }, ph, pw, ratio);
  c.output(0, elem === 'f32' ? result : cast(c, result, elem));
}

export const ROI_ALIGN_ROTATED: readonly OpMapping[] = [
  {
    onnx: { op: 'Gather', since: 13 },
    ir: { op: 'ROIAlignRotated', version: 'opset15' },
    when: never,
    handles: { ir: ['pooled_h', 'pooled_w', 'sampling_ratio', 'spatial_scale', 'clockwise_mode'] },
    note: 'every sample of every bin at once (sampling_ratio 0: as many as the largest ROI needs, masked), rotated into the image, four Gathers of rows of channels, ReduceSum',
    toIr: irOnly,
    toOnnx: roiAlignRotatedToOnnx,
  },
];
