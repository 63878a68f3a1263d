import { A } from '../../src/graph/attr.js';
import { tensorFromFloat32 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, dimOf, irOnly, never, on, reduce, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

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
 * ONNX form: every sample of every bin at once, axes [R, ph, pw, sy, sx]; with sampling_ratio 0
 * the sample axes are as long as the largest ROI needs (a run-time ReduceMax) and the samples past
 * a ROI's own count are masked. The data is read as rows of channels [N·H·W, C] by one Gather per
 * corner. Computed in f32 (f16 / bf16 data cast), as the plugin does.
 */
const f32 = (c: ConvertContext, v: number): Value => c.constant(tensorFromFloat32([v], []));
const op = (c: ConvertContext, name: string, a: Value, b: Value): Value => on(c, name, [a, b]);

/** The sample indices (+ ½) of one axis, the sample count per ROI [R] (f32) and a mask [R, S] of the samples a ROI has. */
function samples(c: ConvertContext, bin: Value, ratio: number): { at: Value; count: Value; mask: Value | null } {
  if (ratio > 0) return { at: c.constant(tensorFromFloat32(Array.from({ length: ratio }, (_, k) => k + 0.5), [1, ratio])), count: f32(c, ratio), mask: null };
  const count = cast(c, on(c, 'Ceil', [bin]), 'i64'); // static_cast<int>(ceil(bin))
  const most = reduce(c, 'ReduceMax', on(c, 'Concat', [count, i64Const(c, [0n])], { axis: A.int(0) }), [0n], false);
  const k = unsqueeze(c, on(c, 'Range', [i64Scalar(c, 0n), most, i64Scalar(c, 1n)]), [0n]); // [1, S]
  const mask = op(c, 'Less', k, unsqueeze(c, count, [1n])); // [R, S]
  return { at: op(c, 'Add', cast(c, k, 'f32'), f32(c, 0.5)), count: cast(c, count, 'f32'), mask };
}

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
  const cx = op(c, 'Sub', op(c, 'Mul', col(0), s), half);
  const cy = op(c, 'Sub', op(c, 'Mul', col(1), s), half);
  const w = op(c, 'Mul', col(2), s);
  const h = op(c, 'Mul', col(3), s);
  const angle = clockwise ? on(c, 'Neg', [col(4)]) : col(4);
  const cos = on(c, 'Cos', [angle]);
  const sin = on(c, 'Sin', [angle]);
  const bw = op(c, 'Div', w, f32(c, pw));
  const bh = op(c, 'Div', h, f32(c, ph));
  const sx = samples(c, bw, ratio);
  const sy = samples(c, bh, ratio);
  // box-frame points: py [R, ph, 1, sy, 1], px [R, 1, pw, 1, sx]
  const axis = (start: Value, bin: Value, n: number, smp: { at: Value; count: Value }): Value => {
    const first = op(c, 'Add', unsqueeze(c, start, [1n]), op(c, 'Mul', c.constant(tensorFromFloat32(Array.from({ length: n }, (_, k) => k), [1, n])), unsqueeze(c, bin, [1n]))); // [R, n]
    const step = unsqueeze(c, op(c, 'Div', bin, smp.count), [1n]); // [R, 1]
    return op(c, 'Add', unsqueeze(c, first, [2n]), unsqueeze(c, op(c, 'Mul', step, smp.at), [1n])); // [R, n, S]
  };
  const py = unsqueeze(c, axis(op(c, 'Div', on(c, 'Neg', [h]), f32(c, 2)), bh, ph, sy), [2n, 4n]);
  const px = unsqueeze(c, axis(op(c, 'Div', on(c, 'Neg', [w]), f32(c, 2)), bw, pw, sx), [1n, 3n]);
  const r5 = (v: Value): Value => unsqueeze(c, v, [1n, 2n, 3n, 4n]);
  let y = op(c, 'Add', op(c, 'Sub', op(c, 'Mul', py, r5(cos)), op(c, 'Mul', px, r5(sin))), r5(cy)); // [R, ph, pw, sy, sx]
  let x = op(c, 'Add', op(c, 'Add', op(c, 'Mul', py, r5(sin)), op(c, 'Mul', px, r5(cos))), r5(cx));
  const H = dimOf(c, data, 2n);
  const W = dimOf(c, data, 3n);
  const Hf = cast(c, H, 'f32');
  const Wf = cast(c, W, 'f32');
  const minus1 = f32(c, -1);
  const outside = (v: Value, size: Value): Value => on(c, 'Or', [op(c, 'Less', v, minus1), op(c, 'Greater', v, size)]);
  let valid = on(c, 'Not', [on(c, 'Or', [outside(x, Wf), outside(y, Hf)])]);
  if (sy.mask) valid = on(c, 'And', [valid, unsqueeze(c, sy.mask, [1n, 2n, 4n])]);
  if (sx.mask) valid = on(c, 'And', [valid, unsqueeze(c, sx.mask, [1n, 2n, 3n])]);
  const zero = f32(c, 0);
  // the samples left out read (0, 0): no NaN or far index reaches a Gather
  y = on(c, 'Where', [valid, op(c, 'Max', y, zero), zero]);
  x = on(c, 'Where', [valid, op(c, 'Max', x, zero), zero]);
  const corners = (v: Value, size: Value): { lo: Value; hi: Value; v: Value } => {
    const last = cast(c, op(c, 'Sub', size, i64Scalar(c, 1n)), 'f32');
    const floor = on(c, 'Floor', [v]);
    const atEnd = on(c, 'Not', [op(c, 'Less', floor, last)]);
    const lo = on(c, 'Where', [atEnd, last, floor]);
    return { lo: cast(c, lo, 'i64'), hi: cast(c, on(c, 'Where', [atEnd, last, op(c, 'Add', floor, f32(c, 1))]), 'i64'), v: on(c, 'Where', [atEnd, last, v]) };
  };
  const yc = corners(y, H);
  const xc = corners(x, W);
  const ly = op(c, 'Sub', yc.v, cast(c, yc.lo, 'f32'));
  const lx = op(c, 'Sub', xc.v, cast(c, xc.lo, 'f32'));
  const one = f32(c, 1);
  const hy = op(c, 'Sub', one, ly);
  const hx = op(c, 'Sub', one, lx);
  // data as rows of channels [N·H·W, C]
  const rows = on(c, 'Reshape', [on(c, 'Transpose', [data], { perm: A.ints([0n, 2n, 3n, 1n]) }), on(c, 'Concat', [i64Const(c, [-1n]), unsqueeze(c, dimOf(c, data, 1n), [0n])], { axis: A.int(0) })]);
  const base = op(c, 'Mul', r5(batch), H);
  const read = (yi: Value, xi: Value): Value => on(c, 'Gather', [rows, op(c, 'Add', op(c, 'Mul', op(c, 'Add', base, yi), W), xi)], { axis: A.int(0) }); // [R, ph, pw, sy, sx, C]
  const wt = (a: Value, b: Value): Value => unsqueeze(c, op(c, 'Mul', a, b), [5n]);
  const term = (a: Value, b: Value, yi: Value, xi: Value): Value => op(c, 'Mul', wt(a, b), read(yi, xi));
  const value = op(c, 'Add', op(c, 'Add', op(c, 'Add', term(hy, hx, yc.lo, xc.lo), term(hy, lx, yc.lo, xc.hi)), term(ly, hx, yc.hi, xc.lo)), term(ly, lx, yc.hi, xc.hi));
  const kept = on(c, 'Where', [unsqueeze(c, valid, [5n]), value, zero]);
  const count = op(c, 'Mul', sx.count, sy.count); // [R] or a scalar
  const n = ratio > 0 ? count : unsqueeze(c, op(c, 'Max', count, one), [1n, 2n, 3n]);
  const pooled = op(c, 'Div', reduce(c, 'ReduceSum', kept, [3n, 4n], false), n); // [R, ph, pw, C]
  const result = on(c, 'Transpose', [pooled], { perm: A.ints([0n, 3n, 1n, 2n]) });
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
