import { isStatic, isSymbol, sym, dimsEqual, type Dim, type Shape } from '../graph/shape.js';
import { describeType, type ValueType } from '../graph/types.js';
import { unionDimInterval } from './dim.js';
import type { IfMergePolicy } from './rule.js';

/**
 * Merging the type of one If output from its two branches. Three policies, one per source
 * (see shared/reference/onnx-if-and-shapes.md):
 * - onnx: onnx's UnionTypeInfo — element types must agree; rank mismatch drops the shape; equal
 *   dims (static or the same dim_param) kept, anything else anonymous.
 * - symbolic: onnx-light ComputeShapeIf (seed 002) — dtype undefined ('dynamic') when branches
 *   disagree; rank mismatch rejected; differing dims become the symbol `If_<output>_d<i>`.
 * - openvino: If-8 — element types merge (dynamic merges with any); ranks differ → [?] when
 *   both ≤ 1, else dynamic rank; per dim: either dynamic → ?, equal → kept, else min..max.
 */
export type MergeOutcome = { type: ValueType | null; problem?: { code: 'SHAPE_IF_TYPE_MISMATCH' | 'SHAPE_IF_RANK_MISMATCH'; detail: string } };

export function mergeBranchTypes(policy: IfMergePolicy, a: ValueType | null, b: ValueType | null, outputName: string): MergeOutcome {
  if (a === null || a.kind === 'unknown') return { type: policy === 'openvino' || policy === 'symbolic' ? b : null };
  if (b === null || b.kind === 'unknown') return { type: policy === 'openvino' || policy === 'symbolic' ? a : null };
  if (a.kind !== 'tensor' || b.kind !== 'tensor') {
    if (describeType(a) === describeType(b)) return { type: a };
    return { type: null, problem: { code: 'SHAPE_IF_TYPE_MISMATCH', detail: `${describeType(a)} vs ${describeType(b)}` } };
  }
  let elem = a.elem;
  let problem: MergeOutcome['problem'];
  if (a.elem !== b.elem) {
    if (policy === 'symbolic') elem = 'dynamic';
    else if (policy === 'openvino' && (a.elem === 'dynamic' || b.elem === 'dynamic')) elem = a.elem === 'dynamic' ? b.elem : a.elem;
    else {
      elem = 'dynamic';
      problem = { code: 'SHAPE_IF_TYPE_MISMATCH', detail: `element types ${a.elem} and ${b.elem}` };
    }
  }
  const shape = mergeBranchShapes(policy, a.shape, b.shape, outputName);
  if (typeof shape === 'string') return { type: { kind: 'tensor', elem, shape: null }, problem: problem ?? { code: 'SHAPE_IF_RANK_MISMATCH', detail: shape } };
  const out: MergeOutcome = { type: { kind: 'tensor', elem, shape } };
  if (problem) out.problem = problem;
  return out;
}

/** The merged shape, or a string saying why the policy rejects the pair. */
export function mergeBranchShapes(policy: IfMergePolicy, a: Shape, b: Shape, outputName: string): Shape | string {
  if (a === null || b === null) return null;
  if (a.length !== b.length) {
    if (policy === 'onnx') return null;
    if (policy === 'symbolic') return `branches give ranks ${a.length} and ${b.length}`;
    return a.length <= 1 && b.length <= 1 ? [null] : null;
  }
  const out: Dim[] = [];
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (policy === 'openvino') out.push(unionDimInterval(x, y));
    else if (x !== null && dimsEqual(x, y) && (isStatic(x) || isSymbol(x))) out.push(x);
    else if (policy === 'symbolic') out.push(sym(`If_${outputName}_d${i}`));
    else out.push(null);
  }
  return out;
}
