import { diag, type Diagnostic } from '../diag/diagnostic.js';
import type { Body } from '../graph/body.js';
import type { Graph } from '../graph/graph.js';
import type { Node } from '../graph/node.js';
import type { Value } from '../graph/value.js';
import { pairInterface, type StateNames } from './interface.js';
import { conditionResult, isConcatenated, isLoop, loopInputSlots, loopRoles, type LoopRole } from './loop-roles.js';
import { Paths } from './paths.js';
import { throughReshapes } from './relayout.js';
import type { Side } from './symbols.js';

/**
 * Which tensor of model A is which tensor of model B.
 *
 * In a pair of corresponding graphs (the main graphs; then the bodies of corresponding nodes),
 * values are matched:
 * - by tensor name (ONNX value name ↔ any name of an IR port's `names` set); IR Parameters also
 *   by layer name when no tensor name matches (`via: 'layer name'`);
 * - body parameters by binding: a parameter of A's body corresponds to the parameter of B's body
 *   fed from the If input that corresponds to the one feeding A's (`via: 'binding'`); used when
 *   the parameter has no name match. When both exist and disagree, the bindings are wired
 *   differently: a warning (EQUIV_BINDING_MISMATCH), and the name pair is the one compared;
 *   an If's parameters left over on both sides in equal numbers pair in declaration order
 *   (`via: 'position'`, with the same warning when their feeders do not correspond). A loop's
 *   parameters pair by the role their binding gives them (loop-roles.ts: counter, condition,
 *   carried — fed from, and fed back by, corresponding values —, sliced, invariant), never by
 *   declaration order: only ONNX's formal positions mean something;
 * - body results by output binding: A's body output feeding node output t ↔ B's body output
 *   feeding the corresponding node output (`via: 'result'`), compared even when a name pair
 *   exists, so a result bound to the wrong node output is compared against what it replaced; a
 *   loop's condition results (they feed no node output) by that role;
 * - the main graphs' inputs and outputs first, one to one (interface.ts: by name, by position
 *   only where one side has no names); what does not pair is a problem (a contradiction).
 * Nodes with bodies correspond when one produces the counterpart of the other's output, else by
 * node name. Bodies by key, `then_branch` ↔ `then_body` (suffix `_branch`/`_body` ignored).
 * Iterative over nesting (a work list of graph pairs), linear in the number of values.
 */
export type Via = 'name' | 'layer name' | 'binding' | 'result' | 'result name' | 'position' | 'dataflow' | 'feeder' | 'back edge';

export interface ValuePair {
  readonly a: Value;
  readonly b: Value;
  readonly via: Via;
  /** Path of A's graph holding the pair (`main`, `main/If_0/then`). */
  readonly scope: string;
  /** A graph input or output of the main graphs, paired one to one (interface.ts). */
  readonly interface?: boolean;
}

export interface Unmatched {
  readonly side: Side;
  readonly name: string;
  readonly path: string;
}

export interface Correspondence {
  pairs: ValuePair[];
  unmatched: Unmatched[];
  /** Warnings (binding or result wired differently, bodies without a counterpart). */
  diagnostics: Diagnostic[];
  /** Contradictions: graph inputs/outputs that do not pair one to one (EQUIV_INTERFACE_UNPAIRED). */
  problems: Diagnostic[];
}

interface ScopeWork {
  a: Graph;
  b: Graph;
  body?: {
    nodeA: Node; nodeB: Node; bodyA: Body; bodyB: Body; key: string;
    /** A node input index → B node input indices holding the corresponding value. */
    inputMap: Map<number, number[]>;
    /** A node output index → B node output index. */
    outputMap: Map<number, number>;
  };
}

const layerName = (v: Value): string | undefined => {
  const n = v.metaView['layerName'];
  return typeof n === 'string' && n !== '' ? n : undefined;
};

/** Every value a graph defines, in definition order. */
function valuesOf(g: Graph): Value[] {
  const out = [...g.inputs, ...g.initializers];
  for (const n of g.nodes) out.push(...n.outputs);
  return out;
}

/** A body's key without its dialect's suffix: `then_branch` and `then_body` are `then`. */
export const normKey = (k: string): string => k.replace(/_(branch|body)$/, '');

class NameIndex {
  private readonly byName = new Map<string, Value>();
  private readonly byLayer = new Map<string, Value>();

  constructor(g: Graph) {
    for (const v of valuesOf(g)) {
      for (const n of v.names) if (n && !this.byName.has(n)) this.byName.set(n, v);
      const l = layerName(v);
      if (l && !this.byLayer.has(l)) this.byLayer.set(l, v);
    }
  }

  lookup(v: Value): { value: Value; via: Via } | undefined {
    for (const n of v.names) {
      const hit = n ? this.byName.get(n) : undefined;
      if (hit) return { value: hit, via: 'name' };
    }
    const keys = [...v.names.filter((n) => n), ...(layerName(v) ? [layerName(v)!] : [])];
    for (const k of keys) {
      const hit = this.byLayer.get(k) ?? this.byName.get(k);
      if (hit) return { value: hit, via: 'layer name' };
    }
    return undefined;
  }
}

export function correspond(rootA: Graph, rootB: Graph, paths: Paths = new Paths(), states: { a?: StateNames; b?: StateNames } = {}): Correspondence {
  const pairs: ValuePair[] = [];
  const unmatched: Unmatched[] = [];
  const diagnostics: Diagnostic[] = [];
  /** All B counterparts of an A value, first one first. */
  const partners = new Map<Value, Value[]>();
  const pairedB = new Set<Value>();
  /** A's values in model order (scope by scope, definition order within), to sort pairs by. */
  const order = new Map<Value, number>();

  const problems: Diagnostic[] = [];
  /** Where each A value's pairs are in `pairs`, in the order of its partners (a binding confirming a name pair finds it there). */
  const at = new Map<Value, number[]>();
  const addPair = (a: Value, b: Value, via: Via, scope: string, iface = false): void => {
    const list = partners.get(a);
    const k = list ? list.indexOf(b) : -1;
    if (k >= 0) {
      // Already paired (by name): a binding or the interface confirms the pair, which says so.
      if (iface || via === 'binding' || via === 'result') {
        const i = at.get(a)![k]!;
        pairs[i] = iface ? { ...pairs[i]!, interface: true } : { ...pairs[i]!, via };
      }
      return; // a value has one or two partners: a list is enough
    }
    pairs.push(iface ? { a, b, via, scope, interface: true } : { a, b, via, scope });
    if (list) { list.push(b); at.get(a)!.push(pairs.length - 1); } else { partners.set(a, [b]); at.set(a, [pairs.length - 1]); }
    pairedB.add(b);
  };

  const work: ScopeWork[] = [{ a: rootA, b: rootB }];
  while (work.length) {
    const w = work.shift()!;
    const scope = paths.graph(w.a);
    const index = new NameIndex(w.b);

    for (const va of valuesOf(w.a)) order.set(va, order.size);
    // 0. The interface: main graph inputs and outputs, one to one.
    if (!w.body) problems.push(...pairInterface(w.a, w.b, scope, addPair, paths, states));

    // 1. By name.
    for (const va of valuesOf(w.a)) {
      const hit = index.lookup(va);
      if (hit && !pairedB.has(hit.value)) addPair(va, hit.value, hit.via, scope);
    }

    if (w.body) {
      matchParameters(w, scope, partners, pairedB, addPair, diagnostics, paths);
      matchResults(w, scope, partners, pairedB, addPair, diagnostics, paths);
    }

    // Nodes with bodies, then their bodies.
    const matchedB = new Set<Node>();
    for (const na of w.a.nodes) {
      if (na.bodies.size === 0) continue;
      const nb = findNodeCounterpart(na, w.b, partners, matchedB);
      if (!nb) {
        diagnostics.push(onSide('A', diag('EQUIV_BODY_UNMATCHED', paths.node(na), { side: 'A', other: 'B', node: paths.label(na) })));
        continue;
      }
      matchedB.add(nb);
      const inputMap = mapInputs(na, nb, partners);
      const outputMap = mapOutputs(na, nb, partners);
      for (const [ka, bodyA] of na.bodies) {
        const kb = [...nb.bodies.keys()].find((k) => normKey(k) === normKey(ka));
        if (kb === undefined) {
          diagnostics.push(onSide('A', diag('EQUIV_BODY_UNMATCHED', paths.node(na), { side: 'A', other: 'B', node: `${paths.label(na)} body '${ka}'` })));
          continue;
        }
        const bodyB = nb.bodies.get(kb)!;
        work.push({ a: bodyA.graph, b: bodyB.graph, body: { nodeA: na, nodeB: nb, bodyA, bodyB, key: normKey(ka), inputMap, outputMap } });
      }
    }
    for (const nb of w.b.nodes) {
      if (nb.bodies.size > 0 && !matchedB.has(nb)) {
        diagnostics.push(onSide('B', diag('EQUIV_BODY_UNMATCHED', paths.node(nb), { side: 'B', other: 'A', node: paths.label(nb) })));
      }
    }

    // What stays unmatched (named tensors only).
    for (const va of valuesOf(w.a)) {
      if (!partners.has(va) && va.names.some((n) => n)) unmatched.push({ side: 'a', name: va.name, path: paths.value(va) });
    }
    for (const vb of valuesOf(w.b)) {
      if (!pairedB.has(vb) && vb.names.some((n) => n)) unmatched.push({ side: 'b', name: vb.name, path: paths.value(vb) });
    }
  }
  pairs.sort((x, y) => order.get(x.a)! - order.get(y.a)!); // stable: several pairs of one value keep their order
  return { pairs, unmatched, diagnostics, problems };
}

/** Marks which model a diagnostic is about (`file` 'A' or 'B'; compareInferred puts the label in). */
function onSide(side: 'A' | 'B', d: Diagnostic): Diagnostic {
  d.file = side;
  return d;
}

type AddPair = (a: Value, b: Value, via: Via, scope: string, iface?: boolean) => void;

function findNodeCounterpart(na: Node, gb: Graph, partners: Map<Value, Value[]>, taken: Set<Node>): Node | undefined {
  for (const o of na.outputs) {
    for (const vb of partners.get(o) ?? []) {
      const p = vb.producer;
      if (p && p.graph === gb && p.bodies.size > 0 && !taken.has(p)) return p;
    }
  }
  if (na.name) return gb.nodes.find((n) => n.bodies.size > 0 && n.name === na.name && !taken.has(n));
  return undefined;
}

/** A input index → B input indices whose value corresponds; unnamed inputs by position when the counts agree (and the nodes order inputs alike: samePositions). */
function mapInputs(na: Node, nb: Node, partners: Map<Value, Value[]>): Map<number, number[]> {
  const m = new Map<number, number[]>();
  const positional = samePositions(na, nb);
  na.inputs.forEach((va, i) => {
    if (!va) return;
    const ps = partners.get(va);
    if (ps) {
      const js: number[] = [];
      nb.inputs.forEach((vb, j) => { if (vb && ps.includes(vb)) js.push(j); });
      m.set(i, js);
    } else if (na.inputs.length === nb.inputs.length && nb.inputs[i] && i < positional) {
      m.set(i, [i]);
    }
  });
  return m;
}

/**
 * How many leading inputs of two nodes with bodies mean the same by position alone. Loops: what
 * their kind says (loopInputSlots: a Loop's trip count and condition; ONNX's formal inputs, when
 * both are ONNX loops of one kind), nothing of a Scan against a TensorIterator: Loop-5 and
 * TensorIterator inputs are in any order their port maps say, ONNX lists captures in the order
 * read. Other nodes: all of them in one dialect and for If (ONNX If's captures are in the order
 * ovir's If-8 writes them).
 */
function samePositions(na: Node, nb: Node): number {
  if (isLoop(na) || isLoop(nb)) return sameLoopKind(na, nb) ? Math.min(loopInputSlots(na), loopInputSlots(nb)) : 0;
  if (na.dialect === nb.dialect || na.op === 'If') return Infinity;
  return 0;
}

/** Two loops whose positions mean the same as far as loopInputSlots goes: one op (Scan: with or without Scan-8's sequence_lens). */
function sameLoopKind(na: Node, nb: Node): boolean {
  if (!isLoop(na) || !isLoop(nb) || na.op !== nb.op) return false;
  return na.op !== 'Scan' || (na.dialect === nb.dialect && (na.version === '8') === (nb.version === '8'));
}

/**
 * Whether two nodes order their outputs alike: ONNX loops of one kind (final carried values, then
 * scan outputs), If, other nodes of one dialect; not a Loop-5 or TensorIterator, whose outputs are
 * in any order.
 */
function outputsInOrder(na: Node, nb: Node): boolean {
  if (isLoop(na) || isLoop(nb)) return sameLoopKind(na, nb) && na.dialect === 'onnx' && nb.dialect === 'onnx';
  return samePositions(na, nb) === Infinity;
}

function mapOutputs(na: Node, nb: Node, partners: Map<Value, Value[]>): Map<number, number> {
  const m = new Map<number, number>();
  const positional = outputsInOrder(na, nb);
  na.outputs.forEach((va, t) => {
    const ps = partners.get(va) ?? [];
    const j = nb.outputs.findIndex((vb) => ps.includes(vb));
    if (j >= 0) m.set(t, j);
    else if (positional && na.outputs.length === nb.outputs.length) m.set(t, t);
  });
  return m;
}

/** Two iteration counters of one element type and rank (or either not known yet). */
function sameCounting(a: Value, b: Value): boolean {
  const ta = a.type;
  const tb = b.type;
  if (ta?.kind !== 'tensor' || tb?.kind !== 'tensor') return true;
  return ta.elem === tb.elem && (ta.shape === null || tb.shape === null || ta.shape.length === tb.shape.length);
}

const inputLabel = (paths: Paths, n: Node, i: number): string => `${i} ('${n.inputs[i] ? paths.valueLabel(n.inputs[i]!) : '?'}')`;

/** A loop's iteration counter and condition Parameters: each pairs only with its like (`isSpecial`). */
const isSpecial = (r: LoopRole | undefined): boolean => r?.kind === 'counter' || r?.kind === 'condition';

/**
 * Body parameters, through their bindings (see `correspond`). In loops, a parameter pairs only
 * with one of the same role (loop-roles.ts): the counter with the counter, the condition with the
 * condition, a carried value with a carried value fed from a corresponding input or fed back by a
 * corresponding result (both, where both are known; a carried value's initial input may feed
 * several, as zeros feed an LSTM's h and c), a sliced or invariant one with its like fed from a
 * corresponding input. Never by declaration order in a loop, only by ONNX's formal positions.
 */
function matchParameters(
  w: ScopeWork, scope: string, partners: Map<Value, Value[]>, pairedB: Set<Value>, addPair: AddPair, out: Diagnostic[], paths: Paths,
): void {
  const { nodeA, nodeB, bodyA, bodyB, key, inputMap } = w.body!;
  const feederB = new Map<Value, number>(bodyB.inputs.map((bb) => [bb.param, bb.from]));
  /** B's parameter `param` is fed from input `fromB` where its counterpart in A is fed from `fromA`: wired differently. */
  const mismatch = (param: Value, fromB: number, fromA: string): void => {
    out.push(onSide('B', diag('EQUIV_BINDING_MISMATCH', paths.node(nodeB), { body: key, param: paths.valueLabel(param), fromB: inputLabel(paths, nodeB, fromB), fromA })));
  };
  const rolesA = loopRoles(nodeA, bodyA);
  const rolesB = loopRoles(nodeB, bodyB);
  const loops = rolesA !== null && rolesB !== null;
  const roleA = (p: Value): LoopRole | undefined => rolesA?.get(p);
  const roleB = (p: Value): LoopRole | undefined => rolesB?.get(p);
  const fedBackAlike = (p: Value, q: Value): boolean => fedBackByCounterparts(w, roleA(p), roleB(q), partners);
  for (const ba of bodyA.inputs) {
    const ra = roleA(ba.param);
    // A loop's iteration counter: ONNX Loop's iteration_num (bound to M, input 0) is Loop-5's
    // current_iteration Parameter (external port -1), whatever feeds the trip count. A loop's
    // condition Parameter: ONNX Loop's cond_in is a Loop-5 Parameter bound to input 1. Paired only
    // with each other, never by elimination: a Loop-5 body without one (TensorFlow's frontend
    // writes its while loops so) leaves ONNX's cond_in without a counterpart.
    if (loops && isSpecial(ra)) {
      const like = bodyB.inputs.find((bb) => roleB(bb.param)?.kind === ra!.kind);
      // (Not when the counter's name already pairs it: an i32 or [1] IR counter pairs with the
      // Cast/Reshape of ONNX's int64 scalar that carries its name. Nor when the two count in other
      // types (i32 or [1] against ONNX's i64 scalar: OpenVINO takes those, and onnxruntime a [1]
      // iteration_num, which paddle2onnx declares) and no such Cast/Reshape pairs them: the body
      // does not read the counter, and there is nothing to compare.)
      if (like && !pairedB.has(like.param) && !partners.has(ba.param) && (ra!.kind !== 'counter' || sameCounting(ba.param, like.param))) {
        addPair(ba.param, like.param, 'binding', scope);
      }
      continue;
    }
    const expected = inputMap.get(ba.from) ?? [];
    const named = partners.get(ba.param)?.[0];
    if (named) {
      const from = feederB.get(named);
      if (from !== undefined && expected.length > 0 && !expected.includes(from) && roleB(named)?.kind !== 'counter') mismatch(named, from, inputLabel(paths, nodeA, ba.from));
      continue;
    }
    // Bound alike: fed from a corresponding input; in a loop, of the same role, or (carried) fed
    // back by a corresponding result. Of several carried ones, the one both fed and fed back alike
    // first, then one fed back alike (what a state becomes, and the node output it ends as, is what
    // it is; an initial value may start several), then one fed alike.
    const rank = (bb: Binding): number => {
      if (!loops) return expected.includes(bb.from) ? 1 : 0;
      if (!ra || roleB(bb.param)?.kind !== ra.kind) return 0;
      return (fedBackAlike(ba.param, bb.param) ? 2 : 0) + (expected.includes(bb.from) ? 1 : 0);
    };
    const candidates = bodyB.inputs.filter((bb) => rank(bb) > 0).sort((x, y) => rank(y) - rank(x)).map((bb) => bb.param);
    const free = candidates.find((c) => !pairedB.has(c));
    if (free) {
      addPair(ba.param, free, 'binding', scope);
      // fed back alike but fed from another input than its counterpart's: wired differently
      const from = feederB.get(free)!;
      if (expected.length > 0 && !expected.includes(from)) mismatch(free, from, inputLabel(paths, nodeA, ba.from));
    } else if (candidates.length > 0) {
      mismatch(candidates[0]!, feederB.get(candidates[0]!)!, `${inputLabel(paths, nodeA, ba.from)}, which feeds '${paths.valueLabel(ba.param)}' there`);
    }
  }
  // By elimination: parameters left unpaired on both sides (no name, and bindings that disagree)
  // pair where their position means the same: an If's in declaration order, as many on both sides;
  // a loop's only by ONNX's formal positions (carried value k, scan input k), never by IR's
  // declaration order. Their wiring differs, so say so.
  const leftA = bodyA.inputs.filter((b) => !partners.has(b.param) && !isSpecial(roleA(b.param)));
  const leftB = bodyB.inputs.filter((b) => !pairedB.has(b.param) && !isSpecial(roleB(b.param)));
  const byPosition = loops ? bySlot(leftA, leftB, roleA, roleB) : samePositions(nodeA, nodeB) === Infinity ? inOrder(leftA, leftB) : [];
  for (const [ba, bb] of byPosition) {
    addPair(ba.param, bb.param, 'position', scope);
    const expected = inputMap.get(ba.from);
    if (expected && expected.length > 0 && !expected.includes(bb.from)) mismatch(bb.param, bb.from, inputLabel(paths, nodeA, ba.from));
  }
}

type Binding = Body['inputs'][number];

/**
 * Whether a carried parameter of role `ra` (A) and one of role `rb` (B) are fed back by
 * corresponding results: the two results share a name, or feed corresponding node outputs (a
 * carried value's final state), as matchResults pairs them.
 */
function fedBackByCounterparts(w: ScopeWork, ra: LoopRole | undefined, rb: LoopRole | undefined, partners: Map<Value, Value[]>): boolean {
  if (ra?.kind !== 'carried' || rb?.kind !== 'carried' || ra.next === null || rb.next === null) return false;
  const { bodyA, bodyB, outputMap } = w.body!;
  const na = bodyA.graph.outputs[ra.next];
  const nb = bodyB.graph.outputs[rb.next];
  if (!na || !nb) return false;
  if ((partners.get(na) ?? []).includes(nb)) return true;
  const toB = new Set(bodyB.outputs.filter((o) => o.result === rb.next && !isConcatenated(o)).map((o) => o.to));
  return bodyA.outputs.some((o) => o.result === ra.next && !isConcatenated(o) && toB.has(outputMap.get(o.to) ?? NaN));
}

/** Leftover parameters of two loops that hold one formal position (ONNX's carried value k, scan input k). */
function bySlot(leftA: Binding[], leftB: Binding[], roleA: (p: Value) => LoopRole | undefined, roleB: (p: Value) => LoopRole | undefined): [Binding, Binding][] {
  const slot = (r: LoopRole | undefined): string | undefined => (r && 'slot' in r && r.slot !== undefined ? `${r.kind} ${r.slot}` : undefined);
  const out: [Binding, Binding][] = [];
  for (const ba of leftA) {
    const s = slot(roleA(ba.param));
    const bb = s === undefined ? undefined : leftB.find((b) => slot(roleB(b.param)) === s);
    if (bb) out.push([ba, bb]);
  }
  return out;
}

/** Leftover parameters in declaration order, as many on both sides (an If's). */
const inOrder = (leftA: Binding[], leftB: Binding[]): [Binding, Binding][] =>
  (leftA.length > 0 && leftA.length === leftB.length ? leftA.map((ba, k) => [ba, leftB[k]!]) : []);

function matchResults(w: ScopeWork, scope: string, partners: Map<Value, Value[]>, pairedB: Set<Value>, addPair: AddPair, out: Diagnostic[], paths: Paths): void {
  const { nodeA, nodeB, bodyA, bodyB, key, outputMap } = w.body!;
  for (const oa of bodyA.outputs) {
    const to = outputMap.get(oa.to);
    if (to === undefined) continue;
    const ob = bodyB.outputs.find((o) => o.to === to);
    // A Loop-5 output concatenated along an axis holds per-iteration slices with that axis; an
    // ONNX Loop scan output stacks values without it: the node outputs are compared, not these.
    if (ob && nodeA.op === 'Loop' && nodeB.op === 'Loop' && isConcatenated(oa) !== isConcatenated(ob)) continue;
    const va = bodyA.graph.outputs[oa.result];
    const vb = ob ? bodyB.graph.outputs[ob.result] : undefined;
    if (!va || !vb) continue;
    const named = partners.get(va)?.[0];
    // (A value listed twice as a body output is an Identity of itself the second time in ONNX.)
    const sameValue = vb.producer?.op === 'Identity' && vb.producer.inputs[0] === named;
    if (named && named !== vb && !sameValue && bodyB.graph.outputs.includes(named)) {
      out.push(onSide('B', diag('EQUIV_RESULT_MISMATCH', paths.node(nodeB), {
        body: key, result: paths.valueLabel(named), outA: `${oa.to} ('${nodeA.outputs[oa.to] ? paths.valueLabel(nodeA.outputs[oa.to]!) : '?'}')`,
      })));
    }
    addPair(va, vb, 'result', scope);
  }
  // A loop's condition result (ONNX Loop's cond_out, Loop-5's execution condition) feeds no node
  // output: it pairs by that role, through reshapes (one element: IR takes [] or [1]). Not where a
  // form writes it as a constant (ovc and ovir write a condition passed through unchanged as true):
  // the condition is not computed there.
  const condA = conditionResult(nodeA, bodyA);
  const condB = conditionResult(nodeB, bodyB);
  const ca = condA && throughReshapes(condA);
  const cb = condB && throughReshapes(condB);
  // (Compared even when names pair them, as results are; not when B's is another A value's counterpart.)
  if (ca && cb && !ca.constant && !cb.constant && (!pairedB.has(cb) || partners.get(ca)?.includes(cb))) addPair(ca, cb, 'result', scope);
}
