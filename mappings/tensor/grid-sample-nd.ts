import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext } from '../spec.js';

/**
 * ONNX GridSample-20 of k ≠ 2 spatial dims (X [N, C, D1..Dk], grid [N, O1..Ok, k]) → IR ops:
 * OpenVINO's GridSample-9 samples 4-D data only. As onnx's reference (op_grid_sample.py)
 * computes, per spatial axis j (grid component k − 1 − j: the grid lists x, y, z, …):
 *   p = (g + 1) / 2 · (s − 1) (align_corners), else ((g + 1) · s − 1) / 2;
 *   nearest: p = round half to even (p);
 *   p outside [lo, hi] ([0, s − 1] with align_corners, else [−0.5, s − 0.5]): border clamps it
 *   to [0, s − 1], reflection reflects it by the near border until inside;
 *   nearest reads index p, linear indices ⌊p⌋ and ⌊p⌋ + 1 with weights 1 − (p − ⌊p⌋), p − ⌊p⌋;
 *   an index outside [0, s) reads 0 (zeros), the clamped index (border), the reflected one
 *   (reflection).
 * X is read as rows of channels [N·D1·…·Dk, C] by one Gather per corner at the flattened index;
 * linear combines the 2^k corners axis by axis, the last axis first (the reference's nesting),
 * in f32, converted back to X's type. Sizes may be known only at run time. cubic is 2-D only in
 * ONNX (refused for other ranks).
 */
export function gridSampleNdToIr(c: ConvertContext, mode: string, padding: string, align: boolean): void {
  const r = c.rank(0);
  const xElem = c.elem(0);
  if (r === null || r < 3) { c.error(`GridSample needs data of known rank ≥ 3 (rank ${r ?? 'unknown'})`); return; }
  if (xElem === null) { c.error('GridSample needs the element type of its data to be known'); return; }
  if (!['zeros', 'border', 'reflection'].includes(padding)) { c.unsupportedAttr('padding_mode', padding, 'zeros, border or reflection'); return; }
  if (mode !== 'linear' && mode !== 'nearest') { c.unsupportedAttr('mode', mode, `${mode} sampling is 2-D only in ONNX (data of rank ${r})`); return; }
  const k = r - 2;
  const b = irBuilder(c);
  const f = (v: number): Value => b.scalar('f32', v);
  const op = (name: string, ...xs: Value[]): Value => c.emit(name, xs, xs.length === 2 ? { auto_broadcast: 'numpy' } : {}, 1, 'opset1')[0]!;
  const x = xElem === 'f32' ? c.input(0)! : b.convert(c.input(0)!, 'f32');
  const grid = c.elem(1) === 'f32' ? c.input(1)! : b.convert(c.input(1)!, 'f32');
  const dims = b.shapeOf(x);
  const sizes = Array.from({ length: k }, (_, j) => b.gather(dims, i64Scalar(c, BigInt(j + 2)), 0n)); // i64 scalars
  const sizeI = (j: number): Value => sizes[j]!;
  // X as rows of channels [N·D1·…·Dk, C]
  const perm = [0n, ...Array.from({ length: k }, (_, j) => BigInt(j + 2)), 1n];
  const pixels = b.reshape(b.transpose(x, perm), b.concat([i64Const(c, [-1n]), b.gather(dims, i64Const(c, [1n]), 0n)], 0));

  interface Tap { index: Value; valid: Value | null }
  interface Axis { taps: Tap[]; weights: Value[] }

  /** reflect(p) into [lo, hi] as the reference's _gs_reflect (a zero-length range gives lo). */
  const reflect = (p: Value, lo: Value, hi: Value): Value => {
    const range = b.sub(hi, lo);
    const below = b.compare('Less', p, lo);
    const above = op('Greater', p, hi);
    const dx = b.select(below, b.sub(lo, p), b.sub(p, hi));
    const n = op('Floor', b.div(dx, range));
    const rest = b.sub(dx, b.mul(n, range));
    const even = b.compare('Equal', op('FloorMod', n, f(2)), f(0));
    const fromLow = b.add(lo, rest);
    const fromHigh = b.sub(hi, rest);
    const moved = b.select(below, b.select(even, fromLow, fromHigh), b.select(even, fromHigh, fromLow));
    const outside = op('LogicalOr', below, above);
    return b.select(outside, b.select(op('Greater', range, f(0)), moved, lo), p);
  };

  const axis = (j: number): Axis => {
    const sI = sizeI(j);
    const s = b.convert(sI, 'f32');
    const last = b.sub(s, f(1));
    const g = b.gather(grid, i64Scalar(c, BigInt(k - 1 - j)), BigInt(k + 1)); // [N, O1..Ok]
    let p = align ? b.mul(b.div(b.add(g, f(1)), f(2)), last) : b.div(b.sub(b.mul(b.add(g, f(1)), s), f(1)), f(2));
    if (mode === 'nearest') p = c.emit('Round', [p], { mode: 'half_to_even' }, 1, 'opset5')[0]!;
    const lo = align ? f(0) : f(-0.5);
    const hi = align ? last : b.sub(s, f(0.5));
    const clamp = (v: Value): Value => op('Minimum', op('Maximum', v, f(0)), last);
    if (padding === 'border') {
      const outside = op('LogicalOr', b.compare('Less', p, lo), op('Greater', p, hi));
      p = b.select(outside, clamp(p), p);
    } else if (padding === 'reflection') p = reflect(p, lo, hi);
    const tap = (i: Value): Tap => {
      if (padding === 'zeros') {
        const valid = b.and(b.compare('GreaterEqual', i, f(0)), b.compare('LessEqual', i, last));
        return { index: b.convert(clamp(i), 'i64'), valid };
      }
      return { index: b.convert(clamp(padding === 'reflection' ? reflect(i, lo, hi) : i), 'i64'), valid: null };
    };
    if (mode === 'nearest') return { taps: [tap(p)], weights: [] };
    const low = op('Floor', p);
    const frac = b.sub(p, low);
    return { taps: [tap(low), tap(b.add(low, f(1)))], weights: [b.sub(f(1), frac), frac] };
  };

  const axes = Array.from({ length: k }, (_, j) => axis(j));
  // batch index n · D1 · … · Dk + flattened spatial index
  const n = b.reshape(b.range(b.gather(dims, i64Scalar(c, 0n), 0n)), [-1n, ...Array.from({ length: k }, () => 1n)]);
  const last = (v: Value): Value => b.unsqueeze(v, [BigInt(k + 1)]);
  /** The gathered value [N, O1..Ok, C] at one tap per axis. */
  const read = (taps: Tap[]): Value => {
    let flat = n;
    let valid: Value | null = null;
    taps.forEach((t, j) => {
      flat = b.add(b.mul(flat, sizeI(j)), t.index);
      if (t.valid) valid = valid ? b.and(valid, t.valid) : t.valid;
    });
    const v = b.gather(pixels, flat, 0n);
    return valid ? b.select(last(valid), v, f(0)) : v;
  };
  // every corner, keyed by its tap choice per axis; then combined along the last axis first
  let corners = new Map<string, Value>();
  const choose = (j: number, picked: number[]): void => {
    if (j === k) { corners.set(picked.join(','), read(picked.map((t, a) => axes[a]!.taps[t]!))); return; }
    axes[j]!.taps.forEach((_, t) => choose(j + 1, [...picked, t]));
  };
  choose(0, []);
  if (mode === 'linear') {
    for (let j = k - 1; j >= 0; j--) {
      const next = new Map<string, Value>();
      const [w0, w1] = axes[j]!.weights.map(last) as [Value, Value];
      for (const [key, v0] of corners) {
        const parts = key.split(',');
        if (parts[j] !== '0') continue;
        const v1 = corners.get([...parts.slice(0, j), '1', ...parts.slice(j + 1)].join(','))!;
        next.set(parts.slice(0, j).join(','), b.add(b.mul(w0, v0), b.mul(w1, v1)));
      }
      corners = next;
    }
  }
  const y = [...corners.values()][0]!; // [N, O1..Ok, C]
  const back = b.transpose(y, [0n, BigInt(k + 1), ...Array.from({ length: k }, (_, j) => BigInt(j + 1))]);
  c.output(0, xElem === 'f32' ? back : b.convert(back, xElem));
}
