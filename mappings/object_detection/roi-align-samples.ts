import { A } from '../../src/graph/attr.js';
import { tensorFromFloat32 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, dimOf, on, reduce, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext } from '../spec.js';

/**
 * The bilinear sampling OpenVINO's ROIAlign-family kernels share (Caffe2's ROIAlign: the reference
 * roi_align.hpp and the CPU plugin's ExperimentalDetectronROIFeatureExtractor): each ROI split into
 * ph × pw bins of sy × sx samples (`ratio`, or per ROI ⌈bin size⌉ when 0), sample (iy, ix) of bin
 * (i, j) at (startY + i·binH + (iy + ½)·binH/sy, startX + j·binW + (ix + ½)·binW/sx), optionally
 * turned (y' = y·cos − x·sin + cy, x' = y·sin + x·cos + cx). A sample outside [−1, W] × [−1, H] is 0;
 * else clamped at 0, bilinear between ⌊y⌋ and ⌊y⌋ + 1 (at the last row both are H − 1), likewise x.
 * A bin is the mean of its sx·sy samples (0 when there are none).
 *
 * Every sample of every bin at once, axes [R, ph, pw, sy, sx]; with ratio 0 the sample axes are as
 * long as the largest ROI needs (a run-time ReduceMax) and the samples past a ROI's own count are
 * masked. The data (f32 [N, C, H, W]) is read as rows of channels [N·H·W, C], one Gather per corner.
 * Returns [R, C, ph, pw] (f32).
 */
export interface RoiGeometry {
  readonly startX: Value; readonly startY: Value; readonly binW: Value; readonly binH: Value; // [R] each
  readonly turn?: { readonly cos: Value; readonly sin: Value; readonly cx: Value; readonly cy: Value };
}

const f32 = (c: ConvertContext, v: number): Value => c.constant(tensorFromFloat32([v], []));
const op = (c: ConvertContext, name: string, a: Value, b: Value): Value => on(c, name, [a, b]);

/** The sample indices (+ ½) of one axis, the sample count per ROI [R] (f32, or a scalar) and a mask [R, S] of the samples a ROI has. */
function samples(c: ConvertContext, bin: Value, ratio: number): { at: Value; count: Value; mask: Value | null } {
  if (ratio > 0) return { at: c.constant(tensorFromFloat32(Array.from({ length: ratio }, (_, k) => k + 0.5), [1, ratio])), count: f32(c, ratio), mask: null };
  const count = cast(c, on(c, 'Ceil', [bin]), 'i64'); // static_cast<int>(ceil(bin))
  const most = reduce(c, 'ReduceMax', on(c, 'Concat', [count, i64Const(c, [0n])], { axis: A.int(0) }), [0n], false);
  const k = unsqueeze(c, on(c, 'Range', [i64Scalar(c, 0n), most, i64Scalar(c, 1n)]), [0n]); // [1, S]
  const mask = op(c, 'Less', k, unsqueeze(c, count, [1n])); // [R, S]
  return { at: op(c, 'Add', cast(c, k, 'f32'), f32(c, 0.5)), count: cast(c, count, 'f32'), mask };
}

export function roiAlignSamples(c: ConvertContext, data: Value, batch: Value, g: RoiGeometry, ph: number, pw: number, ratio: number): Value {
  const sx = samples(c, g.binW, ratio);
  const sy = samples(c, g.binH, ratio);
  // points: py [R, ph, 1, sy, 1], px [R, 1, pw, 1, sx]
  const axis = (start: Value, bin: Value, n: number, smp: { at: Value; count: Value }): Value => {
    const first = op(c, 'Add', unsqueeze(c, start, [1n]), op(c, 'Mul', c.constant(tensorFromFloat32(Array.from({ length: n }, (_, k) => k), [1, n])), unsqueeze(c, bin, [1n]))); // [R, n]
    const step = unsqueeze(c, op(c, 'Div', bin, smp.count), [1n]); // [R, 1]
    return op(c, 'Add', unsqueeze(c, first, [2n]), unsqueeze(c, op(c, 'Mul', step, smp.at), [1n])); // [R, n, S]
  };
  const py = unsqueeze(c, axis(g.startY, g.binH, ph, sy), [2n, 4n]);
  const px = unsqueeze(c, axis(g.startX, g.binW, pw, sx), [1n, 3n]);
  const r5 = (v: Value): Value => unsqueeze(c, v, [1n, 2n, 3n, 4n]);
  let y: Value;
  let x: Value;
  if (g.turn) {
    const t = g.turn;
    y = op(c, 'Add', op(c, 'Sub', op(c, 'Mul', py, r5(t.cos)), op(c, 'Mul', px, r5(t.sin))), r5(t.cy)); // [R, ph, pw, sy, sx]
    x = op(c, 'Add', op(c, 'Add', op(c, 'Mul', py, r5(t.sin)), op(c, 'Mul', px, r5(t.cos))), r5(t.cx));
  } else {
    const zeros = on(c, 'Expand', [f32(c, 0), on(c, 'Shape', [op(c, 'Add', py, px)])]);
    y = op(c, 'Add', py, zeros);
    x = op(c, 'Add', px, zeros);
  }
  const H = dimOf(c, data, 2n);
  const W = dimOf(c, data, 3n);
  const minus1 = f32(c, -1);
  const outside = (v: Value, size: Value): Value => on(c, 'Or', [op(c, 'Less', v, minus1), op(c, 'Greater', v, cast(c, size, 'f32'))]);
  let valid = on(c, 'Not', [on(c, 'Or', [outside(x, W), outside(y, H)])]);
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
    return {
      lo: cast(c, on(c, 'Where', [atEnd, last, floor]), 'i64'),
      hi: cast(c, on(c, 'Where', [atEnd, last, op(c, 'Add', floor, f32(c, 1))]), 'i64'),
      v: on(c, 'Where', [atEnd, last, v]),
    };
  };
  const yc = corners(y, H);
  const xc = corners(x, W);
  const ly = op(c, 'Sub', yc.v, cast(c, yc.lo, 'f32'));
  const lx = op(c, 'Sub', xc.v, cast(c, xc.lo, 'f32'));
  const one = f32(c, 1);
  const hy = op(c, 'Sub', one, ly);
  const hx = op(c, 'Sub', one, lx);
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
  return on(c, 'Transpose', [pooled], { perm: A.ints([0n, 3n, 1n, 2n]) });
}
