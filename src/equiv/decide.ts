import { diag, type Diagnostic } from '../diag/diagnostic.js';
import type { Node } from '../graph/node.js';
import type { Value } from '../graph/value.js';
import { normKey, type ValuePair, type Via } from './correspond.js';
import { isCommutative, sameOp } from './families.js';
import { throughIntegerConvert, type ElemOf } from './integer-width.js';
import { CarriedValues, isConcatenated } from './loop-roles.js';
import type { Paths } from './paths.js';
import { comparePayloads, payloadOf } from './payload.js';
import { reshaped, throughReshapes } from './relayout.js';

/**
 * Which pairs decide the verdict, and whether the two forms are wired alike.
 *
 * Deciding pairs start from the seeds: the interface (main inputs and outputs), body parameters
 * and results paired through the bindings (port maps), and — when both forms come from one
 * conversion (`names: 'decide'`) — every pair of same-named values. From there, a work list walks
 * the data flow backwards, adding pairs:
 * - **provenance**: corresponding body parameters must be fed from corresponding outer values
 *   (at each level of nesting); corresponding body results must feed corresponding node outputs.
 *   The outer feeders of a parameter pair become a pair (`via: 'feeder'`).
 * - **loop state**: two corresponding carried parameters are fed back by corresponding results,
 *   and two corresponding results feed back corresponding parameters (`via: 'back edge'`);
 * - **bodies**: two corresponding outputs of nodes with bodies are made by corresponding body
 *   results (`via: 'result'`);
 * - **data flow**: where both forms keep an op one to one (families.ts) and its paired outputs
 *   have the same index, input i pairs with input i (`via: 'dataflow'`); for commutative ops, in
 *   any order that agrees with what is already paired; through an integer Convert one form has
 *   and the other not, where it is what makes the types differ (integer-width.ts). An If pairs its
 *   condition.
 * A new pair whose A value already has deciding partners, none of them its B value (nor a
 * constant with the same payload), while the B value is the counterpart of another A value, is a
 * wiring contradiction (EQUIV_PROVENANCE / EQUIV_DATAFLOW) naming both wirings: the two forms
 * read different things there. When only one side is paired (the other reads a value its form
 * alone has, such as a Convert ovc inserts), nothing is paired or concluded. Each pair is visited
 * once: linear in the values.
 */
export interface Decision {
  /** Deciding pairs: seeds and derived (derived ones have `via: 'feeder' | 'dataflow'`). */
  pairs: ValuePair[];
  decides: (p: { a: Value; b: Value }) => boolean;
  problems: Diagnostic[];
}

interface Binding { node: Node; from: number; key: string }

/** The node input feeding a body parameter, if `v` is one. */
function paramBinding(v: Value): Binding | undefined {
  const owner = v.graph.owner;
  if (!owner || v.producer || v.constant) return undefined;
  const body = owner.node.bodies.get(owner.key);
  const b = body?.inputs.find((x) => x.param === v);
  return b ? { node: owner.node, from: b.from, key: owner.key } : undefined;
}

/** The node outputs a body result feeds, if `v` is one. */
function resultTargets(v: Value): { node: Node; to: number[] } | undefined {
  const owner = v.graph.owner;
  if (!owner) return undefined;
  const body = owner.node.bodies.get(owner.key);
  if (!body) return undefined;
  const to = body.outputs.filter((o) => v.graph.outputs[o.result] === v).map((o) => o.to);
  return to.length ? { node: owner.node, to } : undefined;
}

export function decide(seeds: readonly ValuePair[], paths: Paths, elemOf: ElemOf = () => undefined): Decision {
  const partners = new Map<Value, Value[]>();
  const pairs: ValuePair[] = [];
  const problems: Diagnostic[] = [];
  const queue: ValuePair[] = [];
  const keyOf = new Set<string>();
  const key = (a: Value, b: Value) => `${a.id}:${b.id}`;

  const add = (p: ValuePair): void => {
    if (keyOf.has(key(p.a, p.b))) return;
    keyOf.add(key(p.a, p.b));
    pairs.push(p);
    const l = partners.get(p.a);
    if (l) l.push(p.b); else partners.set(p.a, [p.b]);
    const r = partnersB.get(p.b);
    if (r) r.push(p.a); else partnersB.set(p.b, [p.a]);
    queue.push(p);
  };
  const partnersB = new Map<Value, Value[]>();
  const samePayload = (x: Value, y: Value): boolean => {
    const px = payloadOf(x);
    const py = px ? payloadOf(y) : undefined;
    return px !== undefined && py !== undefined && comparePayloads(px, py) === null;
  };
  /**
   * Whether a may pair with b: 'yes' (nothing decided contradicts it), 'no' (a's counterpart is
   * another value, and b is the counterpart of another A value: the two read different things),
   * or 'unknown' (one side is paired, the other is a value the other form does not have, such as
   * a Convert ovc inserts: a decomposition, not guessed at, and not paired).
   */
  const relation = (a: Value, b: Value): 'yes' | 'no' | 'unknown' => {
    const ps = partners.get(a);
    const qs = partnersB.get(b);
    if (ps?.includes(b)) return 'yes';
    if (!ps && !qs) return 'yes';
    if (ps?.some((x) => samePayload(x, b)) || qs?.some((x) => samePayload(x, a))) return 'yes';
    if (ps && qs) return 'no';
    return 'unknown';
  };
  const consistent = (a: Value, b: Value): boolean => relation(a, b) !== 'no';
  const carried = new CarriedValues();
  const wiring = (a: Value) => (partners.get(a) ?? []).map((x) => paths.value(x)).join(' or ');

  for (const s of seeds) add(s);
  // a cursor, not shift(): the queue holds every pair of the model (75,000 in ifs2000)
  for (let head = 0; head < queue.length; head++) {
    const { a, b, scope } = queue[head]!;
    // Provenance of body parameters: the outer values feeding them must correspond.
    const ba = paramBinding(a);
    const bb = paramBinding(b);
    if (ba && bb) {
      const fa = ba.node.inputs[ba.from];
      const fb = bb.node.inputs[bb.from];
      const rel = fa && fb ? relation(fa, fb) : 'unknown';
      if (fa && fb && rel !== 'unknown') {
        if (rel === 'yes') add({ a: fa, b: fb, via: 'feeder', scope: paths.graph(fa.graph) });
        else {
          problems.push(onA(diag('EQUIV_PROVENANCE', paths.value(a), {
            what: `body parameter '${paths.value(a)}' (B: ${paths.value(b)})`,
            detail: `${paths.value(b)} ← ${paths.value(fb)} in B, ← ${paths.value(fa)} in A (whose counterpart in B is ${wiring(fa)})`,
          })));
        }
      }
    }
    // A loop's state: a carried parameter and the result feeding it back in the next iteration.
    // Two corresponding carried parameters are fed back by corresponding results, and two
    // corresponding results feed back corresponding parameters (one each: a result feeding back
    // several is not guessed at).
    const nextA = carried.next(a);
    const nextB = carried.next(b);
    if (nextA && nextB) relateState(a, b, nextA, nextB, 'next');
    const backA = carried.fedBack(a);
    const backB = carried.fedBack(b);
    if (backA.length === 1 && backB.length === 1) relateState(a, b, backA[0]!, backB[0]!, 'fed back');
    // Data flow through ops both forms keep one to one.
    const pa = a.producer;
    const pb = b.producer;
    if (!pa || !pb) continue;
    if (pa.bodies.size > 0 || pb.bodies.size > 0) {
      // Outputs of two nodes with bodies: the body results bound to them correspond.
      if (pa.bodies.size > 0 && pb.bodies.size > 0) pairResults(pa, pb, a.outputIndex, b.outputIndex);
      // If ⇄ If: captures are paired through the bodies' bindings (above); the condition here.
      if (pa.bodies.size > 0 && pb.bodies.size > 0 && pa.op === 'If' && pb.op === 'If') {
        // An If condition holds one element whatever its layout: a converter may reshape it (IR
        // takes [] or [1]; ovir reshapes an ONNX [1,1] condition), so re-layouts are looked through.
        const ca = pa.inputs[0] ? throughReshapes(pa.inputs[0]) : null;
        const cb = pb.inputs[0] ? throughReshapes(pb.inputs[0]) : null;
        if (ca && cb) pairValues(pa, pb, 0, ca, cb);
      }
      continue;
    }
    if (a.outputIndex !== b.outputIndex || !sameOp(pa, pb)) continue;
    const n = pa.inputs.length;
    if (n !== pb.inputs.length) continue; // optional inputs written differently: not guessed
    pairInputs(pa, pb, [...Array(n).keys()], scope);
  }

  // Provenance of body results, once everything is paired: they must feed corresponding node outputs.
  for (const { a, b } of pairs) {
    const ra = resultTargets(a);
    const rb = resultTargets(b);
    if (ra && rb && ra.node.bodies.size && rb.node.bodies.size) {
      const outsA = ra.to.map((t) => ra.node.outputs[t]).filter((v): v is Value => !!v);
      const outsB = rb.to.map((t) => rb.node.outputs[t]).filter((v): v is Value => !!v);
      const known = outsA.filter((o) => partners.has(o));
      if (known.length > 0 && !known.some((o) => outsB.some((x) => partners.get(o)!.some((y) => reshaped(y).includes(x))))) {
        problems.push(onA(diag('EQUIV_PROVENANCE', paths.value(a), {
          what: `body result '${paths.value(a)}' (B: ${paths.value(b)})`,
          detail: `${paths.value(b)} → ${outsB.map((o) => paths.value(o)).join(', ')} in B, ${paths.value(a)} → ${outsA.map((o) => paths.value(o)).join(', ')} in A`,
        })));
      }
    }
  }

  /**
   * Carried parameters (or results) `a` and `b` correspond, so `x` and `y` — the results feeding
   * them back (`next`), or the parameters they feed back (`fed back`) — do too: paired, or, when
   * each already corresponds to another value, a wiring contradiction.
   */
  function relateState(a: Value, b: Value, x: Value, y: Value, what: 'next' | 'fed back'): void {
    const rel = relation(x, y);
    if (rel === 'yes') add({ a: x, b: y, via: 'back edge', scope: paths.graph(x.graph) });
    else if (rel === 'no') {
      const role = what === 'next' ? 'loop-carried parameter' : 'body result';
      const link = what === 'next' ? '←' : '→';
      problems.push(onA(diag('EQUIV_PROVENANCE', paths.value(a), {
        what: `${role} '${paths.value(a)}' (B: ${paths.value(b)})`,
        detail: `${paths.value(b)} ${link} ${paths.value(y)} in B, ${paths.value(a)} ${link} ${paths.value(x)} in A, across the back edge (whose counterpart in B is ${wiring(x)})`,
      })));
    }
  }

  /** Output `ia` of `na` and output `ib` of `nb` correspond: so do the results bound to them, body by body. */
  function pairResults(na: Node, nb: Node, ia: number, ib: number): void {
    for (const [ka, bodyA] of na.bodies) {
      const bodyB = [...nb.bodies].find(([kb]) => normKey(kb) === normKey(ka))?.[1];
      const oa = bodyA.outputs.find((o) => o.to === ia);
      const ob = bodyB?.outputs.find((o) => o.to === ib);
      if (!bodyB || !oa || !ob) continue;
      // a Loop-5 output concatenated along an axis against an ONNX Loop's stacked scan output: the
      // results hold other slices (correspond.ts)
      if (isConcatenated(oa) !== isConcatenated(ob)) continue;
      const va = bodyA.graph.outputs[oa.result];
      const vb = bodyB.graph.outputs[ob.result];
      // (a result wired to another output is named by the provenance of body results, below)
      if (va && vb && relation(va, vb) === 'yes') add({ a: va, b: vb, via: 'result', scope: paths.graph(va.graph) });
    }
  }

  function pairInputs(na: Node, nb: Node, idx: number[], scope: string): void {
    const ins = idx.filter((i) => na.inputs[i] && nb.inputs[i]);
    let order = ins.map((i) => i);
    if (isCommutative(na) && !ins.every((i) => consistent(na.inputs[i]!, nb.inputs[i]!))) {
      // Any order agreeing with what is paired: greedy matching, consistent ones first.
      const used = new Set<number>();
      const found: number[] = [];
      for (const i of ins) {
        const j = ins.find((k) => !used.has(k) && consistent(na.inputs[i]!, nb.inputs[k]!));
        if (j === undefined) break;
        used.add(j);
        found.push(j);
      }
      if (found.length === ins.length) order = found;
    }
    ins.forEach((i, k) => pairValues(na, nb, i, na.inputs[i]!, nb.inputs[order[k]!]!));
    void scope;
  }

  /** Input `i` of `na` reads `va` and its counterpart in `nb` reads `vb`: they pair, or the two forms read different things. */
  function pairValues(na: Node, nb: Node, i: number, a0: Value, b0: Value): void {
    const [va, vb] = throughIntegerConvert(a0, b0, elemOf);
    const rel = relation(va, vb);
    if (rel === 'yes') add({ a: va, b: vb, via: 'dataflow', scope: paths.graph(va.graph) });
    else if (rel === 'no') {
      problems.push(onA(diag('EQUIV_DATAFLOW', paths.node(na), {
        node: paths.node(na), index: i,
        detail: `${paths.node(nb)} reads ${paths.value(vb)} in B, ${paths.node(na)} reads ${paths.value(va)} in A (whose counterpart in B is ${wiring(va)})`,
      })));
    }
  }

  return { pairs, problems, decides: (p) => keyOf.has(key(p.a, p.b)) };
}

function onA(d: Diagnostic): Diagnostic {
  d.file = 'A';
  return d;
}

export type { Via };
