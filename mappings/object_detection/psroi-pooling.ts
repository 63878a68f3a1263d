import { A } from '../../src/graph/attr.js';
import { tensorFromFloat32, tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, dimOf, irOnly, never, on, reduce, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * PSROIPooling-1 (R-FCN detectors of the Open Model Zoo), which ONNX lacks, as OpenVINO's CPU
 * plugin computes it (psroi_pooling.cpp; the reference psroi_pooling.hpp differs only on
 * degenerate ROIs). rois [R, 5] = [batch_id, x1, y1, x2, y2]; output [R, output_dim, G, G]
 * (G = group_size); a ROI whose batch_id is −1 ends the list: it and every later one are 0.
 *  - average: data has output_dim·G·G channels; output (d, ph, pw) averages channel
 *    (d·G + ph)·G + pw over the bin rows ⌊ph·bh + y1'⌋ … ⌈(ph + 1)·bh + y1'⌉ (clamped to [0, H]) and
 *    the columns likewise, where y1' = round(y1)·scale, y2' = round(y2 + 1)·scale (half away from
 *    zero), bh = max(y2' − y1', 0.1) / G; an empty bin is 0. The bin sums are four reads of the
 *    data's summed-area table (exclusive CumSums in f64 over a zero-padded copy, so the
 *    differences are exact to f32), one Gather each.
 *  - bilinear: data has output_dim·bins_x·bins_y channels; output (d, ph, pw) is the mean over the
 *    spatial bins (by, bx) of channel d + (by·bins_x + bx)·output_dim sampled bilinearly at
 *    y = ph·(ymax − ymin)·(H − 1)/(G − 1) + ymin·(H − 1) (G = 1: (ymin + ymax)·(H − 1)/2), with
 *    ymin, ymax the bin's bounds y1·scale + by·(y2 − y1)·scale/bins_y, likewise x; a sample outside
 *    [0, H − 1] × [0, W − 1] adds 0. Four Gathers of the corners, the reference's interpolation.
 * Everything is computed in f32 (f16 data is cast), as the plugin does.
 */
const f32 = (c: ConvertContext, values: readonly number[], dims: readonly number[]): Value => c.constant(tensorFromFloat32([...values], [...dims]));
const f32Scalar = (c: ConvertContext, v: number): Value => f32(c, [v], []);
const range = (n: number, from = 0): number[] => Array.from({ length: n }, (_, i) => i + from);

interface Geometry { readonly data: Value; readonly N: Value; readonly C: Value; readonly H: Value; readonly W: Value; readonly batch: Value; readonly alive: Value; col(k: number): Value }

/** The data (f32), its dims, each ROI's batch clamped into range, and which ROIs precede the first −1. */
function geometry(c: ConvertContext): Geometry {
  const data = c.elem(0) === 'f32' ? c.input(0)! : cast(c, c.input(0)!, 'f32');
  const rois = c.elem(1) === 'f32' ? c.input(1)! : cast(c, c.input(1)!, 'f32');
  const col = (k: number): Value => on(c, 'Gather', [rois, i64Scalar(c, BigInt(k))], { axis: A.int(1) }); // [R]
  const id = cast(c, col(0), 'i64'); // truncation toward zero, as static_cast<int>
  const ended = on(c, 'CumSum', [cast(c, on(c, 'Equal', [id, i64Scalar(c, -1n)]), 'i64'), i64Scalar(c, 0n)]);
  const alive = on(c, 'Equal', [ended, i64Scalar(c, 0n)]);
  const N = dimOf(c, data, 0n);
  const batch = on(c, 'Min', [on(c, 'Max', [id, i64Scalar(c, 0n)]), on(c, 'Sub', [N, i64Scalar(c, 1n)])]);
  return { data, N, C: dimOf(c, data, 1n), H: dimOf(c, data, 2n), W: dimOf(c, data, 3n), batch, alive, col };
}

/**
 * std::round: half away from zero, exactly: ⌊x⌋ plus one when the fraction x − ⌊x⌋ (exact in f32)
 * is above ½, or is ½ and x positive. (Not Sign(x)·⌊|x| + ½⌋: |x| + ½ rounds in f32; and OpenVINO
 * 2026.4's CPU plugin computes Abs of a Gather of a constant as the identity, measured.)
 */
export function roundAway(c: ConvertContext, x: Value): Value {
  const t = on(c, 'Floor', [x]);
  const frac = on(c, 'Sub', [x, t]);
  const half = f32Scalar(c, 0.5);
  const up = on(c, 'Or', [on(c, 'Greater', [frac, half]), on(c, 'And', [on(c, 'Equal', [frac, half]), on(c, 'Greater', [x, f32Scalar(c, 0)])])]);
  return on(c, 'Add', [t, cast(c, up, 'f32')]);
}

/** Bins of one axis, average mode: [R, G] first and end (exclusive) indices, int64, clamped to [0, size]. */
function avgBins(c: ConvertContext, start: Value, end: Value, size: Value, G: number): { first: Value; last: Value } {
  const extent = on(c, 'Max', [on(c, 'Sub', [end, start]), f32Scalar(c, Math.fround(0.1))]);
  const bin = unsqueeze(c, on(c, 'Div', [extent, f32Scalar(c, G)]), [1n]); // [R, 1]
  const s = unsqueeze(c, start, [1n]);
  const sizeF = cast(c, size, 'f32');
  const clamp = (v: Value): Value => cast(c, on(c, 'Min', [on(c, 'Max', [v, f32Scalar(c, 0)]), sizeF]), 'i64');
  const first = clamp(on(c, 'Floor', [on(c, 'Add', [on(c, 'Mul', [f32(c, range(G), [1, G]), bin]), s])]));
  const last = clamp(on(c, 'Ceil', [on(c, 'Add', [on(c, 'Mul', [f32(c, range(G, 1), [1, G]), bin]), s])]));
  return { first, last };
}

function average(c: ConvertContext, g: Geometry, D: number, G: number, scale: number): Value {
  const sc = f32Scalar(c, scale);
  const one = f32Scalar(c, 1);
  const at = (k: number, plus: boolean): Value => on(c, 'Mul', [roundAway(c, plus ? on(c, 'Add', [g.col(k), one]) : g.col(k)), sc]);
  const cols = avgBins(c, at(1, false), at(3, true), g.W, G);
  const rows = avgBins(c, at(2, false), at(4, true), g.H, G);
  // summed-area table [N, C, H + 1, W + 1]: S[i, j] = Σ data[< i, < j]
  const padded = on(c, 'Pad', [cast(c, g.data, 'f64'), i64Const(c, [0n, 0n, 0n, 0n, 0n, 0n, 1n, 1n])]);
  const excl = { exclusive: A.int(1) };
  const table = on(c, 'CumSum', [on(c, 'CumSum', [padded, i64Scalar(c, 2n)], excl), i64Scalar(c, 3n)], excl);
  const flat = on(c, 'Reshape', [table, i64Const(c, [-1n])]);
  const H1 = on(c, 'Add', [g.H, i64Scalar(c, 1n)]);
  const W1 = on(c, 'Add', [g.W, i64Scalar(c, 1n)]);
  const channel = c.constant(tensorFromInt64(range(D * G * G), [1, D, G, G])); // (d·G + ph)·G + pw
  const base = on(c, 'Mul', [on(c, 'Add', [on(c, 'Mul', [unsqueeze(c, g.batch, [1n, 2n, 3n]), g.C]), channel]), H1]); // [R, D, G, G]
  const atRow = (v: Value): Value => unsqueeze(c, v, [1n, 3n]); // [R, 1, G, 1]
  const atCol = (v: Value): Value => unsqueeze(c, v, [1n, 2n]); // [R, 1, 1, G]
  const read = (h: Value, w: Value): Value => on(c, 'Gather', [flat, on(c, 'Add', [on(c, 'Mul', [on(c, 'Add', [base, atRow(h)]), W1]), atCol(w)])], { axis: A.int(0) });
  const sum = on(c, 'Add', [on(c, 'Sub', [on(c, 'Sub', [read(rows.last, cols.last), read(rows.first, cols.last)]), read(rows.last, cols.first)]), read(rows.first, cols.first)]);
  const area = on(c, 'Mul', [atRow(on(c, 'Sub', [rows.last, rows.first])), atCol(on(c, 'Sub', [cols.last, cols.first]))]); // [R, 1, G, G]
  const areaF = cast(c, area, 'f32');
  const mean = on(c, 'Div', [cast(c, sum, 'f32'), on(c, 'Max', [areaF, one])]);
  return on(c, 'Where', [on(c, 'Greater', [area, i64Scalar(c, 0n)]), mean, f32Scalar(c, 0)]);
}

/** Sample coordinates of one axis, bilinear mode: [R, G, bins] (position, spatial bin). */
function bilinearAxis(c: ConvertContext, lo: Value, hi: Value, size: Value, G: number, bins: number, scale: number): Value {
  const sc = f32Scalar(c, scale);
  const start = unsqueeze(c, on(c, 'Mul', [lo, sc]), [1n, 2n]); // [R, 1, 1]
  const extent = on(c, 'Sub', [unsqueeze(c, on(c, 'Mul', [hi, sc]), [1n, 2n]), start]);
  const step = on(c, 'Div', [extent, f32Scalar(c, bins)]);
  const boxMin = on(c, 'Add', [start, on(c, 'Mul', [f32(c, range(bins), [1, 1, bins]), step])]);
  const boxMax = on(c, 'Add', [start, on(c, 'Mul', [f32(c, range(bins, 1), [1, 1, bins]), step])]);
  const last = cast(c, on(c, 'Sub', [size, i64Scalar(c, 1n)]), 'f32');
  if (G === 1) return on(c, 'Mul', [on(c, 'Mul', [f32Scalar(c, 0.5), on(c, 'Add', [boxMin, boxMax])]), last]);
  const unit = on(c, 'Div', [on(c, 'Mul', [on(c, 'Sub', [boxMax, boxMin]), last]), f32Scalar(c, G - 1)]);
  return on(c, 'Add', [on(c, 'Mul', [f32(c, range(G), [1, G, 1]), unit]), on(c, 'Mul', [boxMin, last])]);
}

function bilinear(c: ConvertContext, g: Geometry, D: number, G: number, bx: number, by: number, scale: number): Value {
  const ys = bilinearAxis(c, g.col(2), g.col(4), g.H, G, by, scale); // [R, G, by]
  const xs = bilinearAxis(c, g.col(1), g.col(3), g.W, G, bx, scale); // [R, G, bx]
  const zero = f32Scalar(c, 0);
  const corners = (v: Value, size: Value): { valid: Value; lo: Value; hi: Value; frac: Value } => {
    const last = cast(c, on(c, 'Sub', [size, i64Scalar(c, 1n)]), 'f32');
    const valid = on(c, 'Not', [on(c, 'Or', [on(c, 'Less', [v, zero]), on(c, 'Greater', [v, last])])]);
    const floor = on(c, 'Floor', [v]);
    const inside = (x: Value): Value => cast(c, on(c, 'Min', [on(c, 'Max', [x, zero]), last]), 'i64');
    return { valid, lo: inside(floor), hi: inside(on(c, 'Ceil', [v])), frac: on(c, 'Sub', [v, floor]) };
  };
  // output axes [R, D, ph, pw, by, bx]
  const y = corners(ys, g.H);
  const x = corners(xs, g.W);
  const atY = (v: Value): Value => unsqueeze(c, v, [1n, 3n, 5n]); // [R, 1, G, 1, by, 1]
  const atX = (v: Value): Value => unsqueeze(c, v, [1n, 2n, 4n]); // [R, 1, 1, G, 1, bx]
  const channel = c.constant(tensorFromInt64(range(D * by * bx).map((i) => { const d = Math.floor(i / (by * bx)); return d + (i % (by * bx)) * D; }), [1, D, 1, 1, by, bx]));
  const base = on(c, 'Mul', [on(c, 'Add', [on(c, 'Mul', [unsqueeze(c, g.batch, [1n, 2n, 3n, 4n, 5n]), g.C]), channel]), g.H]);
  const flat = on(c, 'Reshape', [g.data, i64Const(c, [-1n])]);
  const read = (h: Value, w: Value): Value => on(c, 'Gather', [flat, on(c, 'Add', [on(c, 'Mul', [on(c, 'Add', [base, atY(h)]), g.W]), atX(w)])], { axis: A.int(0) });
  const lerp = (a: Value, b: Value, t: Value): Value => on(c, 'Add', [a, on(c, 'Mul', [on(c, 'Sub', [b, a]), t])]);
  const top = lerp(read(y.lo, x.lo), read(y.lo, x.hi), atX(x.frac));
  const bottom = lerp(read(y.hi, x.lo), read(y.hi, x.hi), atX(x.frac));
  const sample = on(c, 'Where', [on(c, 'And', [atY(y.valid), atX(x.valid)]), lerp(top, bottom, atY(y.frac)), zero]);
  return on(c, 'Div', [reduce(c, 'ReduceSum', sample, [4n, 5n], false), f32Scalar(c, bx * by)]);
}

function psroiPoolingToOnnx(c: ConvertContext): void {
  const mode = (c.attr.string('mode') ?? 'average').trim();
  if (mode !== 'average' && mode !== 'bilinear') { c.unsupportedAttr('mode', mode, 'average or bilinear'); return; }
  const scale = c.attr.float('spatial_scale');
  if (scale === undefined) { c.unsupportedAttr('spatial_scale', '', 'a value (OpenVINO requires it)'); return; }
  const sizes: [string, number][] = [['output_dim', Number(c.attr.int('output_dim') ?? 0n)], ['group_size', Number(c.attr.int('group_size') ?? 1n)]];
  if (mode === 'bilinear') sizes.push(['spatial_bins_x', Number(c.attr.int('spatial_bins_x') ?? 1n)], ['spatial_bins_y', Number(c.attr.int('spatial_bins_y') ?? 1n)]);
  for (const [name, v] of sizes) if (!(v >= 1)) { c.unsupportedAttr(name, String(v), 'a positive integer'); return; }
  const elem = c.elem(0);
  if (elem !== 'f32' && elem !== 'f16' && elem !== 'bf16') { c.error(`PSROIPooling needs f32, f16 or bf16 data (the CPU plugin's), not ${elem ?? 'an unknown type'}`); return; }
  if (c.rank(0) !== null && c.rank(0) !== 4) { c.error(`PSROIPooling needs data of rank 4, not ${c.rank(0)}`); return; }
  const [D, G, bx = 1, by = 1] = sizes.map(([, v]) => v) as [number, number, number?, number?];
  const g = geometry(c);
  const pooled = mode === 'average' ? average(c, g, D, G, scale) : bilinear(c, g, D, G, bx, by, scale);
  const kept = on(c, 'Where', [unsqueeze(c, g.alive, [1n, 2n, 3n]), pooled, f32Scalar(c, 0)]);
  c.output(0, elem === 'f32' ? kept : cast(c, kept, elem));
}

export const PSROI_POOLING: readonly OpMapping[] = [
  {
    onnx: { op: 'CumSum', since: 11 },
    ir: { op: 'PSROIPooling', version: 'opset1' },
    when: never,
    handles: { ir: ['mode', 'output_dim', 'group_size', 'spatial_scale', 'spatial_bins_x', 'spatial_bins_y'] },
    note: 'average: bin sums from a summed-area table (f64 CumSums, four Gathers); bilinear: four Gathers of the corners per spatial bin, ReduceSum',
    toIr: irOnly,
    toOnnx: psroiPoolingToOnnx,
  },
];
