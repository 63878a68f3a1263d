import { backEdgeIndices, type Body, type OutputBinding } from '../graph/body.js';
import type { Node } from '../graph/node.js';
import type { Value } from '../graph/value.js';

/**
 * What a loop body's parameter is, by its binding: the one description of a loop's port map that
 * holds in both dialects, so that the parameters of two loops pair by what they are bound to, never
 * by where they are declared (IR→ONNX→IR puts a Loop-5's carried values first, ONNX Loop's order;
 * OpenVINO's TensorFlow frontend writes them in any order).
 *
 * - `counter`: the iteration number (ONNX Loop's iteration_num, Loop-5's current_iteration);
 * - `condition`: the loop condition read in the body (ONNX Loop's cond, a Loop-5 Parameter bound to
 *   input 1, the execution condition);
 * - `carried`: initial value from node input `from`, fed back by body result `next` (IR: a back
 *   edge; ONNX Loop and Scan: the formal positions);
 * - `sliced`: a part of node input `from` per iteration (IR: a port-map `axis`; ONNX Scan: a scan
 *   input);
 * - `invariant`: node input `from`, the same in every iteration (IR: neither of the above; ONNX: a
 *   capture of an outer value).
 * `slot` is the index among its kind where the position means it (ONNX Loop's carried value k, ONNX
 * Scan's state k or scan input k); IR port maps have no such order.
 */
export type LoopRole =
  | { readonly kind: 'counter' }
  | { readonly kind: 'condition' }
  | { readonly kind: 'carried'; readonly from: number; readonly next: number | null; readonly slot?: number }
  | { readonly kind: 'sliced'; readonly from: number; readonly slot?: number }
  | { readonly kind: 'invariant'; readonly from: number };

/** Whether a node is a loop whose body's parameters have roles (IR Loop, TensorIterator; ONNX Loop, Scan). */
export function isLoop(n: Node): boolean {
  if (n.dialect === 'ov') return n.op === 'Loop' || n.op === 'TensorIterator';
  return (n.domain === '' || n.domain === 'ai.onnx') && (n.op === 'Loop' || n.op === 'Scan');
}

/**
 * The role of each bound parameter of a loop's body (a parameter bound twice: its first binding);
 * null for a node that is no loop (If, another domain's op).
 */
export function loopRoles(node: Node, body: Body): Map<Value, LoopRole> | null {
  if (!isLoop(node)) return null;
  const roles = new Map<Value, LoopRole>();
  if (node.dialect === 'ov') {
    const next = new Map<number, number>();
    for (const e of backEdgeIndices(body)) if (e && !next.has(e.param)) next.set(e.param, e.result);
    const index = new Map(body.graph.inputs.map((p, k) => [p, k]));
    for (const b of body.inputs) {
      if (roles.has(b.param)) continue;
      const k = index.get(b.param) ?? -1;
      let role: LoopRole;
      if (b.from === -1 && b.extra?.['purpose'] === 'current_iteration') role = { kind: 'counter' };
      else if (node.op === 'Loop' && b.from === 1) role = { kind: 'condition' };
      else if (b.extra?.['axis'] !== undefined) role = { kind: 'sliced', from: b.from };
      else if (next.has(k)) role = { kind: 'carried', from: b.from, next: next.get(k)! };
      else role = { kind: 'invariant', from: b.from };
      roles.set(b.param, role);
    }
    return roles;
  }
  const formal = body.graph.inputs.filter((p) => p.metaView['onnxCapture'] !== true);
  const index = new Map(formal.map((p, k) => [p, k]));
  const scans = node.op === 'Scan' ? scanInputs(node) : 0;
  const states = formal.length - scans;
  const outputs = body.graph.outputs.length;
  for (const b of body.inputs) {
    if (roles.has(b.param)) continue;
    const k = index.get(b.param) ?? -1;
    let role: LoopRole;
    if (k < 0) role = { kind: 'invariant', from: b.from };
    else if (node.op === 'Loop') {
      // body (iteration_num, cond, v…) → (cond, v…, scan…): v_k is fed back by output 1 + k
      if (k === 0) role = { kind: 'counter' };
      else if (k === 1) role = { kind: 'condition' };
      else role = { kind: 'carried', from: b.from, next: k - 1 < outputs ? k - 1 : null, slot: k - 2 };
    } else if (k < states) role = { kind: 'carried', from: b.from, next: k < outputs ? k : null, slot: k };
    else role = { kind: 'sliced', from: b.from, slot: k - states };
    roles.set(b.param, role);
  }
  return roles;
}

/**
 * The body result that decides whether a loop goes on (ONNX Loop's cond_out, body output 0; a
 * Loop-5 Result bound to the execution condition), or null: a TensorIterator, an ONNX Scan or a
 * Loop-5 without one runs every iteration.
 */
export function conditionResult(node: Node, body: Body): Value | null {
  if (!isLoop(node) || node.op !== 'Loop') return null;
  if (node.dialect === 'onnx') return body.graph.outputs[0] ?? null;
  const o = body.outputs.find((x) => x.to === -1 && x.extra?.['purpose'] === 'execution_condition');
  return o ? body.graph.outputs[o.result] ?? null : null;
}

/** A loop output concatenated along an axis over the iterations (an IR port-map `axis`), not the last iteration's value. */
export const isConcatenated = (o: OutputBinding): boolean => o.extra !== undefined && 'axis' in o.extra;

/** ONNX Scan's num_scan_inputs (0 when absent or mistyped: inference reports that). */
function scanInputs(n: Node): number {
  const a = n.attr('num_scan_inputs');
  return a?.type === 'int' ? Number(a.value) : 0;
}

/** The node inputs whose position means the same in two loops of these kinds (their trip count and condition; ONNX's formal inputs). */
export function loopInputSlots(n: Node): number {
  if (n.dialect === 'ov') return n.op === 'Loop' ? 2 : 0;
  const formal = n.bodies.get('body')?.graph.inputs.filter((p) => p.metaView['onnxCapture'] !== true).length ?? 0;
  // Loop: M, cond, v_initial… for body (iteration_num, cond, v…); Scan: [sequence_lens,] state…, scan…
  return n.op === 'Loop' ? formal : formal + (n.op === 'Scan' && n.version === '8' ? 1 : 0);
}

/**
 * A loop's carried values in both directions, for a walk over many values: the result feeding a
 * carried parameter back, and the carried parameters a result feeds back. Each body's roles are
 * worked out once (on first use), so a walk stays linear in the values.
 */
export class CarriedValues {
  private readonly bodies = new Map<Body, { next: Map<Value, Value>; fedBack: Map<Value, Value[]> }>();

  /** The body result feeding carried parameter `p` back in the next iteration (undefined: `p` is none). */
  next(p: Value): Value | undefined {
    return this.of(p)?.next.get(p);
  }

  /** The carried parameters body result `r` feeds back (empty: none). */
  fedBack(r: Value): readonly Value[] {
    return this.of(r)?.fedBack.get(r) ?? [];
  }

  private of(v: Value): { next: Map<Value, Value>; fedBack: Map<Value, Value[]> } | undefined {
    const owner = v.graph.owner;
    const body = owner?.node.bodies.get(owner.key);
    if (!owner || !body) return undefined;
    let known = this.bodies.get(body);
    if (!known) {
      known = { next: new Map(), fedBack: new Map() };
      for (const [param, role] of loopRoles(owner.node, body) ?? []) {
        const r = role.kind === 'carried' && role.next !== null ? body.graph.outputs[role.next] : undefined;
        if (!r) continue;
        known.next.set(param, r);
        const list = known.fedBack.get(r);
        if (list) list.push(param); else known.fedBack.set(r, [param]);
      }
      this.bodies.set(body, known);
    }
    return known;
  }
}
