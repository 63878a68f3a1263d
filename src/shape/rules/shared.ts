import { interval, isStatic, type Dim, type Shape } from '../../graph/shape.js';
import { readFloats } from '../../graph/tensor.js';
import { normalizeAxes, type BroadcastResult } from '../broadcast.js';
import { addDims, dimRange, mergeDim, mulDims } from '../dim.js';
import type { PartialValue, RuleContext } from '../rule.js';
import { axisOr, broadcastOr } from './common.js';

/**
 * Shape functions both dialects share (ONNX and OpenVINO define these ops alike): Concat,
 * Gather, Range, reductions, MatMul. `intervals` selects OpenVINO's interval arithmetic.
 */

/** Concat: equal ranks, other axes merge, the axis sums; data concatenates. */
export function concatShapes(c: RuleContext, shapes: Shape[], axisAttr: number, intervals: boolean): Shape {
  const known = shapes.filter((s): s is readonly Dim[] => s !== null);
  if (known.length === 0) return null;
  const rank = known[0]!.length;
  if (known.some((s) => s.length !== rank)) { c.error(`inputs have different ranks ${known.map((s) => s.length).join(', ')}`); return null; }
  const axis = axisOr(c, axisAttr, rank);
  if (axis === undefined) return null;
  const dims: Dim[] = [...known[0]!];
  let sum: Dim = 0;
  for (const s of shapes) sum = s === null ? null : addDims(sum, s[axis]!, intervals);
  for (let i = 0; i < rank; i++) {
    if (i === axis) continue;
    for (const s of known.slice(1)) {
      const m = mergeDim(dims[i]!, s[i]!);
      if (m === undefined) { c.error(`dimension ${i} differs between inputs`); dims[i] = null; }
      else dims[i] = m;
    }
  }
  dims[axis] = sum;
  return dims;
}

export function concatValues(c: RuleContext): PartialValue | null {
  const vals: Dim[] = [];
  for (let i = 0; i < c.numInputs; i++) {
    const v = c.value(i);
    const s = c.shape(i);
    if (!v || !s || s.length > 1) return null;
    vals.push(...v);
  }
  return vals;
}

/** Gather: data[:axis] + indices + data[axis+1:]; data of a 1-D tensor gathered too. */
export function gatherShape(c: RuleContext, data: Shape, indices: Shape, axisIn: number, batchDims = 0): Shape {
  if (data === null || indices === null) return null;
  const axis = axisOr(c, axisIn, data.length);
  if (axis === undefined) return null;
  return [...data.slice(0, axis), ...indices.slice(batchDims), ...data.slice(axis + 1)];
}

export function gatherValue(data: PartialValue | null, dataShape: Shape, idx: number[] | null, axis: number): PartialValue | null {
  if (!data || !idx || !dataShape || dataShape.length !== 1 || (axis !== 0 && axis !== -1)) return null;
  const n = data.length;
  const outv: Dim[] = [];
  for (const i of idx) {
    const k = i < 0 ? i + n : i;
    if (k < 0 || k >= n) return null;
    outv.push(data[k]!);
  }
  return outv;
}

/** A scalar input as a number (integers from data propagation, floats from constants). */
export function scalarOf(c: RuleContext, i: number): number | null {
  const v = c.ints(i);
  if (v && v.length === 1) return v[0]!;
  const t = c.constant(i);
  if (t && (t.elem === 'f32' || t.elem === 'f64') && t.dims.length <= 1) return readFloats(t)[0] ?? null;
  return null;
}

export function rangeLength(start: number | null, limit: number | null, delta: number | null): Dim {
  if (start === null || limit === null || delta === null || delta === 0) return null;
  return Math.max(Math.ceil((limit - start) / delta), 0);
}

export function reduceShape(c: RuleContext, s: Shape, axes: number[] | null | undefined, keep: boolean, noopEmpty: boolean): Shape {
  if (s === null) return null;
  if (axes === null) return keep ? s.map(() => null) : null;
  if (axes === undefined || axes.length === 0) {
    if (noopEmpty) return s;
    return keep ? s.map(() => 1) : [];
  }
  const norm = normalizeAxes(axes, s.length);
  if (typeof norm === 'string') { c.error(norm); return null; }
  const dims: Dim[] = [];
  s.forEach((d, i) => { if (!norm.includes(i)) dims.push(d); else if (keep) dims.push(1); });
  return dims;
}

/**
 * ReduceProd / ReduceSum (and, with `intervals`, ReduceMax / ReduceMin) of 1-D shape data (a
 * Flatten's element count) as data propagation. `intervals` follows OpenVINO's bound evaluation
 * (measured, openvino 2026.4): ReduceProd multiplies bounds, ReduceMax/ReduceMin take the max/min
 * of the lower and of the upper bounds, ReduceSum gives data only when every element is known.
 */
export function reduceValue(op: string, v: PartialValue | null, s: Shape, intervals: boolean): PartialValue | null {
  if (!v || !s || s.length !== 1) return null;
  if (op === 'ReduceProd') return [v.reduce<Dim>((a, d) => mulDims(a, d, intervals), 1)];
  if (op === 'ReduceSum') return intervals && !v.every(isStatic) ? [null] : [v.reduce<Dim>((a, d) => addDims(a, d, false), 0)];
  if (intervals && (op === 'ReduceMax' || op === 'ReduceMin') && v.length > 0) {
    const pick = op === 'ReduceMax' ? Math.max : Math.min;
    const ranges = v.map(dimRange);
    return [interval(pick(...ranges.map((r) => r[0])), pick(...ranges.map((r) => r[1])))];
  }
  return null;
}

/**
 * MatMul (numpy matmul: 1-D operands promoted and the added dim removed, batch dims broadcast,
 * inner dims must agree) and Gemm (2-D, transA/transB). `broadcast` is the batch broadcast of
 * the dialect (ONNX multidirectional, OpenVINO numpy).
 */
export function matmulShape(c: RuleContext, a: Shape, b: Shape, ta: boolean, tb: boolean,
  broadcast: (x: Shape, y: Shape) => BroadcastResult): Shape {
  if (a === null || b === null) return null;
  if (a.length === 0 || b.length === 0) { c.error('MatMul operands must not be scalars'); return null; }
  let a2: Dim[] = a.length === 1 ? [1, a[0]!] : [...a];
  let b2: Dim[] = b.length === 1 ? [b[0]!, 1] : [...b];
  const swap = (s: Dim[]) => [...s.slice(0, -2), s[s.length - 1]!, s[s.length - 2]!];
  if (ta && a.length > 1) a2 = swap(a2);
  if (tb && b.length > 1) b2 = swap(b2);
  const k1 = a2[a2.length - 1]!;
  const k2 = b2[b2.length - 2]!;
  if (mergeDim(k1, k2) === undefined) c.error(`inner dimensions differ: ${JSON.stringify(k1)} and ${JSON.stringify(k2)}`);
  const batch = broadcastOr(c, broadcast(a2.slice(0, -2), b2.slice(0, -2)));
  if (batch === null) return null;
  const dims = [...batch];
  if (a.length > 1) dims.push(a2[a2.length - 2]!);
  if (b.length > 1) dims.push(b2[b2.length - 1]!);
  return dims;
}

/** The data of a 1-D tensor split into parts of static sizes (shape data split by VariadicSplit). */
export function splitValue(v: PartialValue | null, s: Shape, sizes: readonly (Dim | null)[] | null): PartialValue[] | null {
  if (!v || !s || s.length !== 1 || !sizes || !sizes.every((d) => typeof d === 'number')) return null;
  const out: PartialValue[] = [];
  let at = 0;
  for (const n of sizes as number[]) { out.push(v.slice(at, at + n)); at += n; }
  return at === v.length ? out : null;
}
