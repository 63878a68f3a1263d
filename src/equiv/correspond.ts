import { diag, type Diagnostic } from '../diag/diagnostic.js';
import type { Body } from '../graph/body.js';
import type { Graph } from '../graph/graph.js';
import type { Node } from '../graph/node.js';
import type { Value } from '../graph/value.js';
import { pairInterface, type StateNames } from './interface.js';
import { Paths } from './paths.js';
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
 *   parameters left over on both sides in equal numbers pair in declaration order
 *   (`via: 'position'`, with the same warning when their feeders do not correspond);
 * - body results by output binding: A's body output feeding node output t ↔ B's body output
 *   feeding the corresponding node output (`via: 'result'`), compared even when a name pair
 *   exists, so a result bound to the wrong node output is compared against what it replaced;
 * - the main graphs' inputs and outputs first, one to one (interface.ts: by name, by position
 *   only where one side has no names); what does not pair is a problem (a contradiction).
 * Nodes with bodies correspond when one produces the counterpart of the other's output, else by
 * node name. Bodies by key, `then_branch` ↔ `then_body` (suffix `_branch`/`_body` ignored).
 * Iterative over nesting (a work list of graph pairs), linear in the number of values.
 */
export type Via = 'name' | 'layer name' | 'binding' | 'result' | 'result name' | 'position' | 'dataflow' | 'feeder';

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

const normKey = (k: string): string => k.replace(/_(branch|body)$/, '');

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
      matchResults(w, scope, partners, addPair, diagnostics, paths);
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
 * How many leading inputs of two nodes with bodies mean the same by position alone: all of them in
 * one dialect and for If (ONNX If's captures are in the order ovir's If-8 writes them); across
 * dialects a Loop's trip count and condition only (ONNX Loop lists its carried values, then its
 * captures; Loop-5 any order its port map says), and nothing of a Scan against a TensorIterator.
 */
function samePositions(na: Node, nb: Node): number {
  if (na.dialect === nb.dialect || na.op === 'If') return Infinity;
  if (na.op === 'Loop' && nb.op === 'Loop') return 2;
  return 0;
}

/** Whether two nodes order all their inputs and body parameters alike (samePositions). */
const sameOrder = (na: Node, nb: Node): boolean => samePositions(na, nb) === Infinity;

function mapOutputs(na: Node, nb: Node, partners: Map<Value, Value[]>): Map<number, number> {
  const m = new Map<number, number>();
  // outputs by position only where inputs are (ONNX Loop's final carried values come first, Loop-5's in any order)
  const positional = sameOrder(na, nb);
  na.outputs.forEach((va, t) => {
    const ps = partners.get(va) ?? [];
    const j = nb.outputs.findIndex((vb) => ps.includes(vb));
    if (j >= 0) m.set(t, j);
    else if (positional && na.outputs.length === nb.outputs.length) m.set(t, t);
  });
  return m;
}

/** A loop's iteration counter Parameter: ONNX Loop's first body input, Loop-5's current_iteration. */
function isIterationCounter(n: Node, b: Body['inputs'][number]): boolean {
  if (n.dialect === 'ov') return b.from === -1 && b.extra?.['purpose'] === 'current_iteration';
  return n.op === 'Loop' && b.from === 0 && b.param.metaView['onnxCapture'] !== true && b.param === n.bodies.get('body')?.graph.inputs[0];
}

/** Two iteration counters of one element type and rank (or either not known yet). */
function sameCounting(a: Value, b: Value): boolean {
  const ta = a.type;
  const tb = b.type;
  if (ta?.kind !== 'tensor' || tb?.kind !== 'tensor') return true;
  return ta.elem === tb.elem && (ta.shape === null || tb.shape === null || ta.shape.length === tb.shape.length);
}

/**
 * A loop's condition Parameter: ONNX Loop's second body input (cond_in, bound to the node's cond),
 * a Loop-5 body Parameter bound to the execution condition (input 1). Paired only with each other,
 * never by elimination: a Loop-5 body without one (TensorFlow's frontend writes its while loops so)
 * leaves ONNX's cond_in without a counterpart.
 */
function isLoopCondition(n: Node, b: Body['inputs'][number]): boolean {
  if (n.op !== 'Loop' || b.from !== 1) return false;
  return n.dialect === 'ov' || (b.param.metaView['onnxCapture'] !== true && b.param === n.bodies.get('body')?.graph.inputs[1]);
}

const isConcatenated = (o: Body['outputs'][number]): boolean => o.extra !== undefined && 'axis' in o.extra;

const inputLabel = (paths: Paths, n: Node, i: number): string => `${i} ('${n.inputs[i] ? paths.valueLabel(n.inputs[i]!) : '?'}')`;

function matchParameters(
  w: ScopeWork, scope: string, partners: Map<Value, Value[]>, pairedB: Set<Value>, addPair: AddPair, out: Diagnostic[], paths: Paths,
): void {
  const { nodeA, nodeB, bodyA, bodyB, key, inputMap } = w.body!;
  const feederB = new Map<Value, number>(bodyB.inputs.map((bb) => [bb.param, bb.from]));
  for (const ba of bodyA.inputs) {
    // A loop's iteration counter: ONNX Loop's iteration_num (bound to M, input 0) is Loop-5's
    // current_iteration Parameter (external port -1), whatever feeds the trip count.
    if (isIterationCounter(nodeA, ba)) {
      const counter = bodyB.inputs.find((bb) => isIterationCounter(nodeB, bb));
      // (Not when the counter's name already pairs it: an i32 or [1] IR counter pairs with the
      // Cast/Reshape of ONNX's int64 scalar that carries its name. Nor when the two count in other
      // types (i32 or [1] against ONNX's i64 scalar: OpenVINO takes those, and onnxruntime a [1]
      // iteration_num, which paddle2onnx declares) and no such Cast/Reshape pairs them: the body
      // does not read the counter, and there is nothing to compare.)
      if (counter && !pairedB.has(counter.param) && !partners.has(ba.param) && sameCounting(ba.param, counter.param)) addPair(ba.param, counter.param, 'binding', scope);
      if (counter) continue;
    }
    if (isLoopCondition(nodeA, ba)) {
      const cond = bodyB.inputs.find((bb) => isLoopCondition(nodeB, bb));
      if (cond && !pairedB.has(cond.param) && !partners.has(ba.param)) addPair(ba.param, cond.param, 'binding', scope);
      continue;
    }
    const expected = inputMap.get(ba.from);
    const candidates = expected ? bodyB.inputs.filter((bb) => expected.includes(bb.from) && !isIterationCounter(nodeB, bb)).map((bb) => bb.param) : [];
    const named = partners.get(ba.param)?.[0];
    if (named) {
      const from = feederB.get(named);
      if (from !== undefined && expected && expected.length > 0 && !expected.includes(from) && !bodyB.inputs.some((bb) => bb.param === named && isIterationCounter(nodeB, bb))) {
        out.push(onSide('B', diag('EQUIV_BINDING_MISMATCH', paths.node(nodeB), {
          body: key, param: paths.valueLabel(named), fromB: inputLabel(paths, nodeB, from), fromA: inputLabel(paths, nodeA, ba.from),
        })));
      }
      continue;
    }
    const free = candidates.find((c) => !pairedB.has(c));
    if (free) addPair(ba.param, free, 'binding', scope);
    else if (candidates.length > 0) {
      out.push(onSide('B', diag('EQUIV_BINDING_MISMATCH', paths.node(nodeB), {
        body: key, param: paths.valueLabel(candidates[0]!), fromB: inputLabel(paths, nodeB, feederB.get(candidates[0]!)!), fromA: `${inputLabel(paths, nodeA, ba.from)}, which feeds '${paths.valueLabel(ba.param)}' there`,
      })));
    }
  }
  // By elimination: as many parameters left unpaired on both sides (no name, and bindings that
  // disagree) pair in declaration order; their wiring differs, so say so.
  const leftA = bodyA.inputs.filter((b) => !partners.has(b.param) && !isIterationCounter(nodeA, b) && !isLoopCondition(nodeA, b));
  const leftB = bodyB.inputs.filter((b) => !pairedB.has(b.param) && !isIterationCounter(nodeB, b) && !isLoopCondition(nodeB, b));
  if (leftA.length > 0 && leftA.length === leftB.length && sameOrder(nodeA, nodeB)) {
    leftA.forEach((ba, k) => {
      const bb = leftB[k]!;
      addPair(ba.param, bb.param, 'position', scope);
      const expected = inputMap.get(ba.from);
      if (expected && expected.length > 0 && !expected.includes(bb.from)) {
        out.push(onSide('B', diag('EQUIV_BINDING_MISMATCH', paths.node(nodeB), {
          body: key, param: paths.valueLabel(bb.param), fromB: inputLabel(paths, nodeB, bb.from), fromA: inputLabel(paths, nodeA, ba.from),
        })));
      }
    });
  }
}

function matchResults(w: ScopeWork, scope: string, partners: Map<Value, Value[]>, addPair: AddPair, out: Diagnostic[], paths: Paths): void {
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
}
