import { backEdgeIndices, type Body, type InputBinding } from '../../../graph/body.js';
import type { Dim } from '../../../graph/shape.js';
import type { Node } from '../../../graph/node.js';
import type { ValueType } from '../../../graph/types.js';
import { out, type InferFn, type OutputInfo, type Rule, type RuleContext } from '../../rule.js';
import { iterationRangeProblem } from './iteration-range.js';
import { normAxis } from '../../dim.js';

/**
 * OpenVINO TensorIterator-1 (TensorIterator::validate_and_infer_types):
 * - a sliced input (port map `axis`) gives its body Parameter a part of `part_size` along `axis`;
 *   the number of iterations is |end − start| / part_size, with a negative start/end counting
 *   from the length + 1 (so end = -1 is the full length);
 * - a merged input (target of a back edge) starts from its initial value's shape, and the back
 *   edge must bring the same element type; where the shape changes between iterations, the
 *   dims that differ are unknown;
 * - an invariant input is the bound value;
 * - a concatenated output (`axis`) is the body Result with its axis dim × the number of
 *   iterations (exact when a sliced input's length is known, or with no sliced input from the
 *   first concatenated output's |end − start| / part_size), any other output the last value.
 */

const num = (e: Readonly<Record<string, string>> | undefined, k: string, d: number): number => (e?.[k] === undefined ? d : Number(e[k]));

const bodyOf = (node: Node): Body | undefined => node.bodies.get('body');

/** Body parameter index → whether a back edge feeds it. */
function backEdgeTargets(body: Body): Set<number> {
  const s = new Set<number>();
  for (const e of backEdgeIndices(body)) if (e) s.add(e.param);
  return s;
}

/** The part of a sliced input the body sees: the bound shape with `axis` of size part_size. */
function part(bound: ValueType | null, b: InputBinding): ValueType | null {
  if (!bound || bound.kind !== 'tensor' || bound.shape === null) return bound && bound.kind === 'tensor' ? { ...bound, shape: null } : bound;
  const axis = normAxis(num(b.extra, 'axis', 0), bound.shape.length);
  if (axis === undefined) return { kind: 'tensor', elem: bound.elem, shape: null };
  const dims = [...bound.shape];
  dims[axis] = num(b.extra, 'part_size', 1);
  return { kind: 'tensor', elem: bound.elem, shape: dims };
}

const tiParam: Rule['bodyParam'] = (node, formal, bound, declared) => {
  const body = bodyOf(node);
  const param = body?.graph.inputs[formal];
  const b = body?.inputs.find((x) => x.param === param);
  if (!body || !b) return declared;
  if (b.extra?.['axis'] !== undefined) return part(bound, b);
  if (backEdgeTargets(body).has(formal)) {
    // A loop-carried value: OpenVINO gives the Parameter its initial value's shape (and keeps the
    // element type as written: the back edge's type is checked by the node's rule).
    if (!bound || bound.kind !== 'tensor') return declared;
    const elem = declared?.kind === 'tensor' && declared.elem !== 'dynamic' ? declared.elem : bound.elem;
    return { kind: 'tensor', elem, shape: bound.shape };
  }
  return bound ?? declared;
};

/** The number of iterations the sliced inputs give (null: unknown). */
function iterations(c: Parameters<InferFn>[0], body: Body): number | null {
  for (const b of body.inputs) {
    if (b.extra?.['axis'] === undefined) continue;
    const s = c.shape(b.from);
    if (!s) continue;
    const axis = normAxis(num(b.extra, 'axis', 0), s.length);
    const len = axis === undefined ? undefined : s[axis];
    if (typeof len !== 'number') continue;
    const norm = (x: number): number => (x < 0 ? len + x + 1 : x);
    const n = Math.abs(norm(num(b.extra, 'end', -1)) - norm(num(b.extra, 'start', 0))) / num(b.extra, 'part_size', 1);
    if (Number.isInteger(n)) return n;
  }
  if (body.inputs.some((b) => b.extra?.['axis'] !== undefined)) return null;
  // No sliced input: |end − start| / part_size of the first concatenated output, as written
  // (TensorIterator::try_to_set_num_iterations_if_no_slice_inputs); OpenVINO's CPU plugin runs it so.
  const first = body.outputs.find((o) => o.extra?.['axis'] !== undefined);
  if (!first) return null;
  const n = Math.abs(num(first.extra, 'end', -1) - num(first.extra, 'start', 0)) / num(first.extra, 'part_size', 1);
  return Math.trunc(n);
}

/** The sliced inputs' axes and iteration ranges, where their lengths are known. */
function checkSlicedInputs(c: RuleContext, body: Body): void {
  for (const b of body.inputs) {
    if (b.extra?.['axis'] === undefined) continue;
    const s = c.shape(b.from);
    if (s === null) continue;
    const a = num(b.extra, 'axis', 0);
    const axis = normAxis(a, s.length);
    if (axis === undefined) { c.error(`input ${b.from}: axis ${a} is out of range for rank ${s.length}`); continue; }
    checkRange(c, `input ${b.from}`, b.extra, s[axis]!);
  }
}

function checkRange(c: RuleContext, what: string, extra: Readonly<Record<string, string>>, space: Dim): void {
  if (typeof space !== 'number') return;
  const problem = iterationRangeProblem(num(extra, 'start', 0), num(extra, 'end', -1), num(extra, 'stride', 1), space);
  if (problem) c.error(`${what}: ${problem}`);
}

const tensorIterator: InferFn = (c) => {
  const body = bodyOf(c.node);
  const results = c.body('body');
  if (!body || !results) { c.error('missing body'); return []; }
  checkSlicedInputs(c, body);
  const n = iterations(c, body);
  const edges = backEdgeIndices(body);
  if (edges.some((e) => e === null)) c.error('a back edge names a layer that is no body Parameter/Result');
  return c.node.outputs.map((_, j): OutputInfo | null => {
    const ob = body.outputs.find((o) => o.to === j);
    const t = results.types[j] ?? null;
    if (!ob || !t || t.kind !== 'tensor') return { type: t };
    if (ob.extra?.['axis'] !== undefined) {
      if (t.shape === null) return out(t.elem, null);
      const a = num(ob.extra, 'axis', 0);
      const axis = normAxis(a, t.shape.length);
      if (axis === undefined) { c.error(`output ${j}: axis ${a} is out of range for rank ${t.shape.length}`); return out(t.elem, null); }
      const dims = [...t.shape];
      const d = dims[axis];
      dims[axis] = n !== null && typeof d === 'number' ? d * n : null;
      checkRange(c, `output ${j}`, ob.extra, dims[axis]!);
      return out(t.elem, dims);
    }
    // The last value; a loop-carried one must keep its initial value's element type.
    const edge = edges.find((e) => e && e.result === ob.result);
    if (!edge) return { type: t };
    const init = body.inputs.find((x) => x.param === body.graph.inputs[edge.param]);
    const it = init ? c.tensor(init.from) : null;
    if (!it) return { type: t };
    if (it.elem !== 'dynamic' && t.elem !== 'dynamic' && it.elem !== t.elem) {
      c.error(`the back edge into '${String(body.graph.inputs[edge.param]?.label)}' brings ${t.elem} to a value that starts as ${it.elem}`);
    }
    if (!it.shape || !t.shape || it.shape.length !== t.shape.length) return out(t.elem, it.shape && t.shape ? null : t.shape);
    const dims: Dim[] = t.shape.map((d, k) => (d === it.shape![k] ? d : null));
    return out(t.elem, dims);
  });
};

export const ovTensorIteratorRules: Rule[] = [
  { dialect: 'ov', op: 'TensorIterator', since: 1, infer: tensorIterator, bodyParam: tiParam },
];
