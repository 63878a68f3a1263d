import { tensorFromFloat32 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext } from '../spec.js';

/**
 * ONNX RoiAlign mode=max → IR ops (OpenVINO's ROIAlign max-pools the interpolated samples, ONNX
 * the weighted corner terms: roi-align.ts). As onnx's reference (op_roi_align.py) computes, for
 * ROI r with corners scaled by spatial_scale (shifted by -0.5 for half_pixel; otherwise its size
 * at least 1), bins of (size / output) and a grid of sampling_ratio × sampling_ratio samples per bin:
 *   y = start_h + ph·bin_h + (iy + 0.5)·bin_h / ratio   (x alike)
 * a sample outside [-1, H] (or [-1, W]) weighs 0; else y = max(y, 0), y_low = floor(y),
 * y_high = y_low + 1, both H - 1 (and y = H - 1) when y_low ≥ H - 1; ly = y - y_low, hy = 1 - ly.
 * The output is, per bin, the max over its samples of the max of the four corner terms
 * (hy·hx·X[y_low, x_low], hy·lx·X[y_low, x_high], ly·hx·X[y_high, x_low], ly·lx·X[y_high, x_high]).
 * The rows and columns are separable: per ROI the sample rows and columns (indices and weights),
 * one Gather per corner from X as [N·H·W, C] pixel rows, times the corner weights, Maximum of
 * the four, ReduceMax over each bin's grid. An adaptive grid (sampling_ratio 0: ceil(roi size / output) samples, per ROI) has no
 * fixed shape in the graph: refused.
 */
const MAX_SAMPLES = 2 ** 24;

export function roiAlignMaxToIr(c: ConvertContext, halfPixel: boolean): void {
  const ratio = Number(c.attr.int('sampling_ratio', 0n));
  const ph = Number(c.attr.int('output_height', 1n));
  const pw = Number(c.attr.int('output_width', 1n));
  const scale = c.attr.float('spatial_scale', 1);
  if (ratio <= 0) { c.unsupportedAttr('mode', 'max', 'with sampling_ratio 0 (a grid of ceil(roi size / output) samples per ROI, which has no fixed shape in the graph); OpenVINO ROIAlign max-pools the interpolated samples, ONNX the weighted corner terms'); return; }
  if (ph < 1 || pw < 1) { c.error(`output_height and output_width must be positive (got ${ph}, ${pw})`); return; }
  // the sample positions of an axis are a constant of output × sampling_ratio elements (2^40 of
  // them ended Node with a fatal "invalid size error", no diagnostic): past 2^24 they are refused
  const samples = Math.max(ph, pw) * ratio;
  if (samples > MAX_SAMPLES) { c.error(`output_height / output_width × sampling_ratio make ${samples} samples per ROI axis, more than the ${MAX_SAMPLES} ovir writes as a constant`); return; }
  const elem = c.elem(0);
  if (elem !== 'f32' && elem !== 'f16' && elem !== 'f64' && elem !== 'bf16') { c.error(`RoiAlign mode max is written in f32 IR ops for float X only (X is ${elem ?? 'of unknown type'})`); return; }
  const b = irBuilder(c);
  const f = (v: number): Value => b.scalar('f32', v);
  const toF32 = (v: Value, i: number): Value => (c.elem(i) === 'f32' ? v : b.convert(v, 'f32'));
  // X as rows of channels [N·H·W, C], read at (batch index · H + y) · W + x
  const pixels = b.reshape(b.transpose(toF32(c.input(0)!, 0), [0n, 2n, 3n, 1n]), b.concat([i64Const(c, [-1n]), b.gather(b.shapeOf(c.input(0)!), i64Const(c, [1n]), 0n)], 0));
  const rois = toF32(c.input(1)!, 1); // [R, 4]: x1, y1, x2, y2
  const corner = (k: number): Value => b.sub(b.mul(b.gather(rois, i64Scalar(c, BigInt(k)), 1n), f(scale)), f(halfPixel ? 0.5 : 0)); // [R]
  const dims = b.shapeOf(c.input(0)!);
  const extent = (axis: number): Value => b.convert(b.gather(dims, i64Scalar(c, BigInt(axis)), 0n), 'f32');
  const op = (name: string, ...xs: Value[]): Value => c.emit(name, xs, xs.length === 2 ? { auto_broadcast: 'numpy' } : {}, 1, 'opset1')[0]!;

  /** One axis: the 2·bins·ratio sample rows (or columns) [R, K] and their low/high weights [R, K]. */
  const axis = (startK: number, endK: number, bins: number, size: Value): { idx: [Value, Value]; w: [Value, Value] } => {
    const start = corner(startK);
    let length = b.sub(corner(endK), start);
    if (!halfPixel) length = op('Maximum', length, f(1));
    const bin = b.unsqueeze(b.div(length, f(bins)), [1n]); // [R, 1]
    const whole: number[] = [];
    const part: number[] = [];
    for (let p = 0; p < bins; p++) for (let i = 0; i < ratio; i++) { whole.push(p); part.push(i + 0.5); }
    const k = (v: number[]): Value => c.constant(tensorFromFloat32(v));
    // start + p·bin + (i + 0.5)·bin / ratio
    const at = b.add(b.add(b.unsqueeze(start, [1n]), b.mul(k(whole), bin)), b.div(b.mul(k(part), bin), f(ratio)));
    const last = b.sub(size, f(1));
    const inside = b.and(b.compare('LessEqual', f(-1), at), b.compare('LessEqual', at, size));
    const y = op('Maximum', at, f(0));
    const low = op('Floor', y);
    const edge = b.compare('GreaterEqual', low, last);
    const lo = b.select(edge, last, low);
    const hi = b.select(edge, last, b.add(low, f(1)));
    const l = b.sub(b.select(edge, last, y), lo);
    const zero = f(0);
    const weights: [Value, Value] = [b.select(inside, b.sub(f(1), l), zero), b.select(inside, l, zero)];
    return { idx: [b.convert(lo, 'i64'), b.convert(hi, 'i64')], w: weights };
  };
  const rows = axis(1, 3, ph, extent(2));
  const cols = axis(0, 2, pw, extent(3));
  const dimI = (ax: number): Value => b.gather(dims, i64Scalar(c, BigInt(ax)), 0n);
  const image = b.mul(b.unsqueeze(c.elem(2) === 'i64' ? c.input(2)! : b.convert(c.input(2)!, 'i64'), [1n, 2n]), dimI(2)); // [R, 1, 1]
  let best: Value | null = null;
  for (const a of [0, 1]) {
    const row = b.mul(b.add(image, b.unsqueeze(rows.idx[a]!, [2n])), dimI(3)); // [R, K, 1]
    const wy = b.unsqueeze(rows.w[a]!, [2n, 3n]); // [R, K, 1, 1]
    for (const bb of [0, 1]) {
      const v = b.gather(pixels, b.add(row, b.unsqueeze(cols.idx[bb]!, [1n])), 0n); // [R, K, L, C]
      const w = b.mul(wy, b.unsqueeze(cols.w[bb]!, [1n, 3n])); // [R, K, L, 1]
      const term = b.mul(w, v);
      best = best ? op('Maximum', best, term) : term;
    }
  }
  const grid = b.reshape(best!, [0n, BigInt(ph), BigInt(ratio), BigInt(pw), BigInt(ratio), -1n]);
  const pooled = c.emit('ReduceMax', [grid, i64Const(c, [2n, 4n])], { keep_dims: 'false' }, 1, 'opset1')[0]!; // [R, PH, PW, C]
  const out = b.transpose(pooled, [0n, 3n, 1n, 2n]);
  c.output(0, elem === 'f32' ? out : b.convert(out, elem));
}
