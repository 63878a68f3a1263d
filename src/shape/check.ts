import type { Dialect } from '../graph/node.js';
import { formatShape, isInterval, isStatic, type Dim, type Shape } from '../graph/shape.js';
import { describeType, type ValueType } from '../graph/types.js';
import { dimRange } from './dim.js';

/**
 * Declared (as decoded from the file) against inferred: the clauses on which they cannot both be
 * right, empty when they agree or one side does not know. Definite contradictions only: element
 * types both known and different, ranks both known and different, static sizes that differ or lie
 * outside an interval. Symbols are names, not facts, and never contradict.
 *
 * IR ports write a dynamic-rank tensor and a scalar alike (no `<dim>`), so on the ov dialect a
 * declared rank 0 says nothing about the rank.
 */
export function contradictions(dialect: Dialect, declared: ValueType | null, inferred: ValueType | null): readonly string[] {
  if (declared === null || inferred === null || declared === inferred || declared.kind === 'unknown' || inferred.kind === 'unknown') return NONE;
  if (declared.kind !== inferred.kind) return [`${describeType(declared)} vs ${describeType(inferred)}`];
  if (declared.kind !== 'tensor' || inferred.kind !== 'tensor') return NONE;
  // asked for every declared value of a model: agreeing types (the usual case) make no array
  if (declared.elem === inferred.elem && sameStaticShape(declared.shape, inferred.shape)) return NONE;
  const out: string[] = [];
  if (declared.elem !== inferred.elem && declared.elem !== 'dynamic' && inferred.elem !== 'dynamic') {
    out.push(`element type ${declared.elem} vs ${inferred.elem}`);
  }
  shapeContradictions(dialect, declared.shape, inferred.shape, out);
  return out.length ? out : NONE;
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * Whether a declared and an inferred type can contradict on their shapes only: both tensors whose
 * element types agree (or either is dynamic). An ONNX graph output's declared shape is a hint
 * (SHAPE_OUTPUT_DECLARED_HINT); its kind and element type are not.
 */
export function shapeOnly(declared: ValueType, inferred: ValueType | null): boolean {
  if (declared.kind !== 'tensor' || inferred?.kind !== 'tensor') return false;
  return declared.elem === inferred.elem || declared.elem === 'dynamic' || inferred.elem === 'dynamic';
}

/** Whether two shapes are the same list of static dims (or both of unknown rank). */
function sameStaticShape(a: Shape, b: Shape): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] || typeof a[i] !== 'number') return false;
  return true;
}

/** Appends the clauses on which two shapes disagree to `out`. */
function shapeContradictions(dialect: Dialect, d: Shape, i: Shape, out: string[]): void {
  if (d === null || i === null || d === i) return;
  if (dialect === 'ov' && d.length === 0) return;
  if (d.length !== i.length) {
    out.push(`rank ${d.length} ${formatShape(d)} vs ${i.length} ${formatShape(i)}`);
    return;
  }
  for (let k = 0; k < d.length; k++) {
    if (!dimsCompatible(d[k]!, i[k]!)) out.push(`dim ${k}: ${formatShape([d[k]!])} vs ${formatShape([i[k]!])}`);
  }
}

function dimsCompatible(a: Dim, b: Dim): boolean {
  if (a === null || b === null || a === b) return true;
  if (!(isStatic(a) || isInterval(a)) || !(isStatic(b) || isInterval(b))) return true;
  const [al, ah] = dimRange(a);
  const [bl, bh] = dimRange(b);
  return Math.max(al, bl) <= Math.min(ah, bh);
}
