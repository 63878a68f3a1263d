import { isStatic, isSymbol, type Dim, type Shape } from '../graph/shape.js';
import { dimRange, mergeDim, normAxis } from './dim.js';

/** A broadcast either gives a shape (null = unknown rank) or says why it cannot. */
export type BroadcastResult = { ok: true; shape: Shape } | { ok: false; reason: string };

const fail = (reason: string): BroadcastResult => ({ ok: false, reason });
const show = (d: Dim): string => (d === null ? '?' : isStatic(d) ? String(d) : isSymbol(d) ? d.sym : `${d.min}..${d.max === Infinity ? '' : d.max}`);

/**
 * ONNX multidirectional broadcasting as onnx's shape inference does it
 * (multidirectionalBroadcastShapeInference): per aligned position, a static size other than 1
 * wins (two different ones are an error); all 1 → 1; otherwise exactly one distinct symbol (or
 * one unknown, counted as the empty symbol) is kept, and several distinct ones give unknown.
 */
export function onnxBroadcast(shapes: readonly Shape[]): BroadcastResult {
  if (shapes.some((s) => s === null)) return { ok: true, shape: null };
  const ss = shapes as readonly (readonly Dim[])[];
  const rank = Math.max(0, ...ss.map((s) => s.length));
  const out: Dim[] = [];
  for (let i = 0; i < rank; i++) {
    let value = 1;
    let symbolic: Dim | undefined;
    let distinct = 0;
    for (const s of ss) {
      const k = i - (rank - s.length);
      if (k < 0) continue;
      const d = s[k]!;
      if (isStatic(d)) {
        if (d !== 1) {
          if (value !== 1 && value !== d) return fail(`incompatible dimensions ${value} and ${d} at axis ${i}`);
          value = d;
        }
      } else {
        const param = isSymbol(d) ? d.sym : '';
        if (distinct === 0) { symbolic = isSymbol(d) ? d : null; distinct = 1; }
        else if (param !== (symbolic && isSymbol(symbolic) ? symbolic.sym : '')) distinct++;
      }
    }
    if (value !== 1 || distinct === 0) out.push(value);
    else if (distinct === 1) out.push(symbolic ?? null);
    else out.push(null);
  }
  return { ok: true, shape: out };
}

/**
 * OpenVINO's Dimension::broadcast_merge (NUMPY): a side that may be 1 yields to the other; when
 * both may be 1 the result spans both; otherwise the two must merge.
 */
export function ovBroadcastDim(a: Dim, b: Dim): Dim | undefined {
  const [al, ah] = dimRange(a);
  const [bl, bh] = dimRange(b);
  const aHas1 = al <= 1 && ah >= 1;
  const bHas1 = bl <= 1 && bh >= 1;
  if (aHas1 && bHas1) {
    if (isStatic(a) && a === 1) return b;
    if (isStatic(b) && b === 1) return a;
    const lo = Math.min(al, bl);
    const hi = Math.max(ah, bh);
    return lo <= 0 && hi === Infinity ? null : { min: lo, max: hi };
  }
  if (aHas1) return b;
  if (bHas1) return a;
  return mergeDim(a, b);
}

/** OpenVINO numpy auto-broadcast of two shapes (right-aligned). */
export function ovNumpyBroadcast(a: Shape, b: Shape): BroadcastResult {
  if (a === null || b === null) return { ok: true, shape: null };
  const rank = Math.max(a.length, b.length);
  const out: Dim[] = [];
  for (let i = 0; i < rank; i++) {
    const da = i - (rank - a.length) >= 0 ? a[i - (rank - a.length)]! : 1;
    const db = i - (rank - b.length) >= 0 ? b[i - (rank - b.length)]! : 1;
    const m = ovBroadcastDim(da, db);
    if (m === undefined) return fail(`argument shapes are inconsistent: ${show(da)} and ${show(db)} at axis ${i}`);
    out.push(m);
  }
  return { ok: true, shape: out };
}

/**
 * OpenVINO PDPD auto-broadcast: `b` is broadcast onto `a` starting at `axis` (-1: right-aligned);
 * the result has `a`'s shape.
 */
export function ovPdpdBroadcast(a: Shape, b: Shape, axis: number): BroadcastResult {
  if (a === null) return { ok: true, shape: null };
  if (b === null) return { ok: true, shape: a };
  let bb = [...b];
  const start = axis === -1 ? a.length - bb.length : axis;
  // trailing ones of b are dropped, as PDPD does
  while (bb.length > 0 && bb[bb.length - 1] === 1 && start + bb.length > a.length) bb = bb.slice(0, -1);
  if (start < 0 || start + bb.length > a.length) return fail(`pdpd broadcast of rank ${b.length} at axis ${axis} onto rank ${a.length}`);
  const out = [...a];
  for (let i = 0; i < bb.length; i++) {
    const d = bb[i]!;
    if (isStatic(d) && d === 1) continue;
    const m = mergeDim(out[start + i]!, d);
    if (m === undefined) return fail(`pdpd broadcast: ${show(out[start + i]!)} and ${show(d)} at axis ${start + i}`);
    out[start + i] = m;
  }
  return { ok: true, shape: out };
}

/** Numpy broadcast as OpenVINO's `auto_broadcast` attribute selects it (numpy, none, pdpd). */
export function ovAutoBroadcast(spec: string, a: Shape, b: Shape, axis = -1): BroadcastResult {
  const s = spec.toLowerCase();
  if (s === 'none' || s === 'explicit') {
    if (a === null) return { ok: true, shape: b };
    if (b === null) return { ok: true, shape: a };
    if (a.length !== b.length) return fail(`auto_broadcast=none needs equal ranks, got ${a.length} and ${b.length}`);
    const out: Dim[] = [];
    for (let i = 0; i < a.length; i++) {
      const m = mergeDim(a[i]!, b[i]!);
      if (m === undefined) return fail(`auto_broadcast=none: ${show(a[i]!)} and ${show(b[i]!)} at axis ${i}`);
      out.push(m);
    }
    return { ok: true, shape: out };
  }
  if (s === 'pdpd') return ovPdpdBroadcast(a, b, axis);
  return ovNumpyBroadcast(a, b);
}

/** Broadcast of a shape to a target shape (ONNX Expand, OpenVINO Broadcast bidirectional). */
export function normalizeAxes(axes: readonly number[], rank: number): number[] | string {
  const out: number[] = [];
  for (const a of axes) {
    const n = normAxis(a, rank);
    if (n === undefined) return `axis ${a} is out of range for rank ${rank}`;
    if (out.includes(n)) return `axis ${a} is repeated`;
    out.push(n);
  }
  return out;
}
