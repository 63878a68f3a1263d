import { interval, isInterval, isStatic, isSymbol, type Dim, type Shape } from '../graph/shape.js';

/**
 * The dimension algebra both dialects share. A dim is static (number), symbolic ({sym}), an
 * interval ({min,max}, OpenVINO) or unknown (null); a shape is a list of dims or null (unknown rank).
 *
 * `merge` is "these two must be the same size" (Concat's other axes, MatMul's K, OpenVINO's
 * Dimension::merge): it returns the most precise dim both allow, or undefined when no size fits.
 */

/** The closed range of sizes a dim allows: [n,n] for static, [0,∞] for symbols and unknown. */
export function dimRange(d: Dim): [number, number] {
  if (isStatic(d)) return [d, d];
  if (isInterval(d)) return [d.min, d.max];
  return [0, Infinity];
}

/** Whether size `n` is allowed by `d`. */
export function dimAllows(d: Dim, n: number): boolean {
  const [lo, hi] = dimRange(d);
  return n >= lo && n <= hi;
}

/** Dimension::merge: undefined when the two cannot be the same size. */
export function mergeDim(a: Dim, b: Dim): Dim | undefined {
  if (a === null) return b;
  if (b === null) return a;
  if (isStatic(a) && isStatic(b)) return a === b ? a : undefined;
  if (isSymbol(a) && isSymbol(b)) return a; // both name the size; nothing rules either out
  if (isSymbol(a)) return b; // a static or an interval says more than a name
  if (isSymbol(b)) return a;
  const [al, ah] = dimRange(a);
  const [bl, bh] = dimRange(b);
  const lo = Math.max(al, bl);
  const hi = Math.min(ah, bh);
  if (lo > hi) return undefined;
  return interval(lo, hi);
}

/** Merges two shapes of the same rank dim by dim; unknown rank takes the other. undefined: conflict. */
export function mergeShape(a: Shape, b: Shape): Shape | undefined {
  if (a === null) return b;
  if (b === null) return a;
  if (a.length !== b.length) return undefined;
  const out: Dim[] = [];
  for (let i = 0; i < a.length; i++) {
    const m = mergeDim(a[i]!, b[i]!);
    if (m === undefined) return undefined;
    out.push(m);
  }
  return out;
}

/** The smallest dim holding both (If-8's branch union): equal → kept, static/intervals → hull. */
export function unionDimInterval(a: Dim, b: Dim): Dim {
  if (a === null || b === null) return null;
  if (isSymbol(a) || isSymbol(b)) return isSymbol(a) && isSymbol(b) && a.sym === b.sym ? a : null;
  const [al, ah] = dimRange(a);
  const [bl, bh] = dimRange(b);
  return interval(Math.min(al, bl), Math.max(ah, bh));
}

// ── arithmetic, for partial values (Shape → Gather → Mul …) and for size formulas ─────────────

/** Sum; static + static is exact, intervals add, symbols and unknowns give unknown unless `intervals`. */
export function addDims(a: Dim, b: Dim, intervals: boolean): Dim {
  if (isStatic(a) && isStatic(b)) return a + b;
  if (isStatic(a) && a === 0) return b;
  if (isStatic(b) && b === 0) return a;
  if (!intervals) return null;
  const [al, ah] = dimRange(a);
  const [bl, bh] = dimRange(b);
  return interval(al + bl, ah + bh);
}

export function mulDims(a: Dim, b: Dim, intervals: boolean): Dim {
  if (isStatic(a) && isStatic(b)) return a * b;
  if ((isStatic(a) && a === 0) || (isStatic(b) && b === 0)) return 0;
  if (isStatic(a) && a === 1) return b;
  if (isStatic(b) && b === 1) return a;
  if (!intervals) return null;
  const [al, ah] = dimRange(a);
  const [bl, bh] = dimRange(b);
  return interval(al * bl, ah === Infinity || bh === Infinity ? Infinity : ah * bh);
}

/** Product of a shape's dims (1 for a scalar); null rank gives unknown. */
export function shapeProduct(s: Shape, intervals: boolean): Dim {
  if (s === null) return null;
  let p: Dim = 1;
  for (const d of s) p = mulDims(p, d, intervals);
  return p;
}

/** Integer division of interval a by interval b as sizes (used for Reshape's -1). */
export function divDims(a: Dim, b: Dim, intervals: boolean): Dim {
  if (isStatic(a) && isStatic(b)) return b === 0 ? null : Math.floor(a / b);
  if (isStatic(b) && b === 1) return a;
  if (!intervals) return null;
  const [al, ah] = dimRange(a);
  const [bl, bh] = dimRange(b);
  const lo = bh === Infinity ? 0 : Math.ceil(al / Math.max(bh, 1));
  const hi = bl === 0 ? Infinity : Math.floor(ah / bl);
  return lo > hi ? null : interval(lo, hi);
}

/**
 * Reshape's -1: the input's element count over the other output dims. Symbols present on both
 * sides cancel (N·3·4 / N = 12), so a batch symbol carried through Shape data does not hide a size.
 */
export function solveMinusOne(input: readonly Dim[], others: readonly Dim[], intervals: boolean): Dim {
  const rest = [...others];
  const left: Dim[] = [];
  for (const d of input) {
    const k = isSymbol(d) ? rest.findIndex((o) => isSymbol(o) && o.sym === d.sym) : -1;
    if (k >= 0) rest.splice(k, 1);
    else left.push(d);
  }
  return divDims(shapeProduct(left, intervals), shapeProduct(rest, intervals), intervals);
}

/** An axis in [-rank, rank) made non-negative; undefined when out of range. */
export function normAxis(axis: number, rank: number): number | undefined {
  const a = axis < 0 ? axis + rank : axis;
  return a >= 0 && a < rank ? a : undefined;
}

/** Clamps a slice bound the way numpy / ONNX Slice / StridedSlice do. */
export function clampIndex(i: number, size: number, step: number): number {
  let v = i < 0 ? i + size : i;
  if (step > 0) v = Math.min(Math.max(v, 0), size);
  else v = Math.min(Math.max(v, -1), size - 1);
  return v;
}

/** Number of elements a slice [start, end) with `step` takes from a static size. */
export function sliceLength(start: number, end: number, step: number, size: number): number {
  const s = clampIndex(start, size, step);
  const e = clampIndex(end, size, step);
  if (step > 0) return Math.max(0, Math.ceil((e - s) / step));
  return Math.max(0, Math.ceil((s - e) / -step));
}

/** Sizes a dim may take after slicing with static start/end/step (intervals: OpenVINO's bounds). */
export function sliceDim(start: number, end: number, step: number, d: Dim, intervals: boolean): Dim {
  if (isStatic(d)) return sliceLength(start, end, step, d);
  if (!intervals) return null;
  const [dl, dh] = dimRange(d);
  if (dh !== Infinity && dh - dl <= 4096) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let n = dl; n <= dh; n++) {
      const len = sliceLength(start, end, step, n);
      lo = Math.min(lo, len);
      hi = Math.max(hi, len);
    }
    return interval(lo, hi);
  }
  // Non-negative bounds going forward: the length grows with the size up to (end - start) / step.
  if (step > 0 && start >= 0 && end >= 0) return interval(sliceLength(start, end, step, dl), Math.ceil((end - start) / step));
  return null;
}
