import type { Attr } from '../graph/attr.js';
import { backEdgeIndices, bindingLookup, boundOuterValue, type Body, type InputBinding } from '../graph/body.js';
import type { Node } from '../graph/node.js';
import type { Value } from '../graph/value.js';
import { formatAttr } from '../ir/attr-format.js';
import { onnxSchema } from '../onnx/op-schema.js';
import { isCommutative } from './families.js';
import type { Paths } from './paths.js';
import { comparePayloads, payloadOf } from './payload.js';

/**
 * Whether two graphs of ONE dialect compute the same thing, op for op: the structural half of
 * `ovir check` between two files (types alone cannot tell a Relu from a Sigmoid).
 *
 * From every pair of corresponding main-graph outputs, values are paired backwards:
 * - two constants hold the same numbers (payload.ts: within the precision each keeps, dims of 1
 *   aside; an fp16 constant behind its decompression Convert counts as the constant);
 * - two main-graph inputs are the pair the interface made;
 * - two node outputs have the same output index, and their nodes are the same op of the same
 *   version (ONNX: the same schema, `since`) with the same attributes (IR: as the IR text spells
 *   them; ONNX: the same typed values), inputs paired in order (the two inputs of a commutative op
 *   in either order); a node with bodies pairs each body result by the node output it feeds, and
 *   its inputs through the bindings: two body parameters pair when they are bound alike (the same
 *   port-map extras) to inputs that pair, and, carried by a loop, when the results that feed them
 *   back pair too;
 * - anything else (an op against another, a constant against a computation, an input against a
 *   node output) is a difference, reported with both paths; nothing below it is compared.
 * A pair already met is taken as paired (loops feed values back), so the walk is a work list,
 * linear in the values, without recursion.
 */
export interface FormDifference {
  readonly pathA: string;
  readonly pathB: string;
  readonly detail: string;
}

export interface ComputationResult {
  /** The places where the two graphs differ (at most `limit`); empty: the same computation. */
  differences: FormDifference[];
  /** How many places differ in all (may exceed `differences.length`). */
  count: number;
}

export function compareComputation(
  inputs: ReadonlyMap<Value, Value>, outputs: readonly (readonly [Value, Value])[], paths: Paths, limit = 10,
): ComputationResult {
  return new Walk(inputs, paths, limit).run(outputs);
}

const key = (x: { id: number }, y: { id: number }): string => `${x.id}:${y.id}`;

class Walk {
  private readonly work: [Value, Value][] = [];
  private readonly seen = new Set<string>();
  private readonly nodesSeen = new Set<string>();
  private readonly result: ComputationResult = { differences: [], count: 0 };
  private readonly lookups = new Map<Body, (p: Value) => InputBinding | undefined>();

  constructor(
    private readonly inputs: ReadonlyMap<Value, Value>,
    private readonly paths: Paths,
    private readonly limit: number,
  ) {}

  run(outputs: readonly (readonly [Value, Value])[]): ComputationResult {
    for (const [u, v] of outputs) this.push(u, v);
    while (this.work.length) {
      const [u, v] = this.work.pop()!;
      this.pair(u, v);
    }
    return this.result;
  }

  private push(u: Value | null | undefined, v: Value | null | undefined): void {
    if (!u || !v) {
      if (u || v) this.differ(u ?? null, v ?? null, `an input is absent in ${u ? 'B' : 'A'} only`);
      return;
    }
    if (this.fresh(u, v)) this.work.push([u, v]);
  }

  /** Marks a pair met; false when it was met before. */
  private fresh(u: Value, v: Value): boolean {
    const k = key(u, v);
    if (this.seen.has(k)) return false;
    this.seen.add(k);
    return true;
  }

  private differ(u: Value | null, v: Value | null, detail: string, nodes?: [Node, Node]): void {
    this.result.count++;
    if (this.result.differences.length >= this.limit) return;
    const where = (x: Value | null, n: Node | undefined) => (n ? this.paths.node(n) : x ? this.paths.value(x) : '(none)');
    this.result.differences.push({ pathA: where(u, nodes?.[0]), pathB: where(v, nodes?.[1]), detail });
  }

  private pair(u0: Value, v0: Value): void {
    // an Identity computes nothing: compared through (ovc removes them; ONNX graphs keep them)
    const u = throughIdentity(u0);
    const v = throughIdentity(v0);
    if ((u !== u0 || v !== v0) && !this.fresh(u, v)) return;
    const pu = payloadOf(u);
    const pv = payloadOf(v);
    if (pu || pv) {
      if (!pu || !pv) { this.differ(u, v, `a constant in ${pu ? 'A' : 'B'}, ${describe(pu ? v : u)} in ${pu ? 'B' : 'A'}`); return; }
      const diff = comparePayloads(pu, pv);
      if (diff === undefined) this.differ(u, v, `constants of other shapes: [${pu.tensor.dims.join(',')}] in A, [${pv.tensor.dims.join(',')}] in B`);
      else if (diff !== null) this.differ(u, v, `constants hold other numbers: ${diff}`);
      return;
    }
    const kindU = kindOf(u);
    const kindV = kindOf(v);
    if (kindU !== kindV) { this.differ(u, v, `${describe(u)} in A, ${describe(v)} in B`); return; }
    if (kindU === 'input') {
      if (this.inputs.get(u) !== v) this.differ(u, v, 'graph inputs that do not pair');
      return;
    }
    if (kindU === 'parameter') { this.parameters(u, v); return; }
    if (u.outputIndex !== v.outputIndex) { this.differ(u, v, `output ${u.outputIndex} of ${describe(u)} in A, output ${v.outputIndex} of ${describe(v)} in B`); return; }
    this.nodes(u.producer!, v.producer!, u, v);
  }

  /** Two body parameters: bound alike to inputs that pair (and, carried, fed back by results that pair). */
  private parameters(u: Value, v: Value): void {
    const ou = u.graph.owner!;
    const ov = v.graph.owner!;
    const bodyA = ou.node.bodies.get(ou.key)!;
    const bodyB = ov.node.bodies.get(ov.key)!;
    const bu = this.binding(bodyA, u);
    const bv = this.binding(bodyB, v);
    const ku = u.graph.inputs.indexOf(u);
    const kv = v.graph.inputs.indexOf(v);
    if (!bu || !bv) {
      // unbound on both sides: the same formal parameter (ONNX Loop's iteration number, Scan's state…)
      if (bu || bv || ku !== kv) this.differ(u, v, `body parameters bound differently (${bu ? `input ${bu.from}` : 'unbound'} in A, ${bv ? `input ${bv.from}` : 'unbound'} in B)`);
    } else {
      const ea = extrasText(bu.extra);
      const eb = extrasText(bv.extra);
      if (ea !== eb) { this.differ(u, v, `body parameters bound with other port-map attributes (${ea || 'none'} in A, ${eb || 'none'} in B)`); return; }
      this.push(ou.node.inputs[bu.from], ov.node.inputs[bv.from]);
    }
    const ra = carriedFrom(ou.node, bodyA, u, ku, this.backEdgesOf);
    const rb = carriedFrom(ov.node, bodyB, v, kv, this.backEdgesOf);
    if ((ra === null) !== (rb === null)) { this.differ(u, v, `a loop-carried parameter in ${ra === null ? 'B' : 'A'} only`); return; }
    if (ra !== null && rb !== null) this.push(bodyA.graph.outputs[ra], bodyB.graph.outputs[rb]);
  }

  /** An IR body's back edges as indices, parameter → result, made once per body (as binding lookups are). */
  private readonly backEdgesOf = (body: Body): ReadonlyMap<number, number> => {
    let m = this.backEdgeMaps.get(body);
    if (!m) {
      m = new Map();
      for (const e of backEdgeIndices(body)) if (e && !m.has(e.param)) m.set(e.param, e.result);
      this.backEdgeMaps.set(body, m);
    }
    return m;
  };

  private readonly backEdgeMaps = new Map<Body, Map<number, number>>();

  private binding(body: Body, p: Value): InputBinding | undefined {
    let f = this.lookups.get(body);
    if (!f) { f = bindingLookup(body); this.lookups.set(body, f); }
    return f(p);
  }

  private nodes(p: Node, q: Node, u: Value, v: Value): void {
    const k = key(p, q);
    if (this.nodesSeen.has(k)) return;
    this.nodesSeen.add(k);
    const op = opDifference(p, q);
    if (op) { this.differ(u, v, op, [p, q]); return; }
    const attrs = attrDifference(p, q);
    if (attrs) { this.differ(u, v, `${p.op}: ${attrs}`, [p, q]); return; }
    if (p.outputs.length !== q.outputs.length) { this.differ(u, v, `${p.op} with ${p.outputs.length} outputs in A, ${q.outputs.length} in B`, [p, q]); return; }
    if (p.bodies.size || q.bodies.size) { this.withBodies(p, q, u, v); return; }
    if (p.inputs.length !== q.inputs.length) { this.differ(u, v, `${p.op} with ${p.inputs.length} inputs in A, ${q.inputs.length} in B`, [p, q]); return; }
    const n = p.inputs.length;
    const swap = n === 2 && isCommutative(p) && !this.looksAlike(p.inputs[0], q.inputs[0]) && this.looksAlike(p.inputs[0], q.inputs[1]) && this.looksAlike(p.inputs[1], q.inputs[0]);
    for (let i = 0; i < n; i++) this.push(p.inputs[i], q.inputs[swap ? 1 - i : i]);
  }

  /** Bodies by key; each body output binding pairs its results; inputs no body reads pair by position. */
  private withBodies(p: Node, q: Node, u: Value, v: Value): void {
    const keys = [...p.bodies.keys()].sort();
    const keysB = [...q.bodies.keys()].sort();
    if (keys.join() !== keysB.join()) { this.differ(u, v, `${p.op} with bodies ${keys.join(', ') || 'none'} in A, ${keysB.join(', ') || 'none'} in B`, [p, q]); return; }
    const boundA = new Set<number>();
    const boundB = new Set<number>();
    for (const bk of keys) {
      const bodyA = p.bodies.get(bk)!;
      const bodyB = q.bodies.get(bk)!;
      for (const x of bodyA.inputs) boundA.add(x.from);
      for (const x of bodyB.inputs) boundB.add(x.from);
      const outsB = new Map(bodyB.outputs.map((o) => [outputKey(o.to, o.extra), o]));
      if (outsB.size !== bodyB.outputs.length || bodyA.outputs.length !== bodyB.outputs.length) {
        this.differ(u, v, `${p.op} body ${bk}: ${bodyA.outputs.length} output bindings in A, ${bodyB.outputs.length} in B`, [p, q]);
        continue;
      }
      for (const o of bodyA.outputs) {
        const ob = outsB.get(outputKey(o.to, o.extra));
        if (!ob || extrasText(o.extra) !== extrasText(ob.extra)) {
          this.differ(u, v, `${p.op} body ${bk}: node output ${o.to} is bound differently (${extrasText(o.extra) || 'plain'} in A)`, [p, q]);
          continue;
        }
        this.push(bodyA.graph.outputs[o.result], bodyB.graph.outputs[ob.result]);
      }
    }
    // inputs no binding reads (an If's condition, a Loop's trip count and condition): by position
    const n = Math.max(p.inputs.length, q.inputs.length);
    for (let i = 0; i < n; i++) {
      if (boundA.has(i) || boundB.has(i)) continue;
      this.push(p.inputs[i], q.inputs[i]);
    }
  }

  /** A cheap look at whether two values could pair (for the order of a commutative op's inputs). */
  private looksAlike(x0: Value | null | undefined, y0: Value | null | undefined): boolean {
    if (!x0 || !y0) return !x0 && !y0;
    // body parameters by what feeds them, at any depth
    const x = boundOuterValue(throughIdentity(x0));
    const y = boundOuterValue(throughIdentity(y0));
    if (!x || !y) return x === y;
    if (this.seen.has(key(x, y))) return true;
    const px = payloadOf(x);
    const py = payloadOf(y);
    if (px || py) return !!px && !!py && comparePayloads(px, py) === null;
    const k = kindOf(x);
    if (k !== kindOf(y)) return false;
    if (k === 'input') return this.inputs.get(x) === y;
    if (k === 'parameter') return x.graph.inputs.indexOf(x) === y.graph.inputs.indexOf(y);
    return x.outputIndex === y.outputIndex && opDifference(x.producer!, y.producer!) === null && attrDifference(x.producer!, y.producer!) === null;
  }
}

/** The value an Identity passes on, through any number of them. */
function throughIdentity(v: Value): Value {
  let x = v;
  for (let p = x.producer; p && p.op === 'Identity' && (p.dialect === 'ov' || p.domain === '' || p.domain === 'ai.onnx') && p.inputs.length === 1 && p.inputs[0]; p = x.producer) x = p.inputs[0];
  return x;
}

type Kind = 'input' | 'parameter' | 'computed' | 'other';

function kindOf(v: Value): Kind {
  if (v.producer) return 'computed';
  if (v.graph.inputs.includes(v)) return v.graph.owner ? 'parameter' : 'input';
  return 'other';
}

function describe(v: Value): string {
  if (v.producer) return `${v.producer.op}${v.producer.dialect === 'ov' ? ` (${v.producer.version})` : ''}`;
  if (v.constant) return 'a constant';
  if (v.graph.inputs.includes(v)) return v.graph.owner ? 'a body parameter' : 'a graph input';
  return 'a value of no producer';
}

/** The op differs: another op, domain, or version (ONNX: another schema of the op). */
function opDifference(p: Node, q: Node): string | null {
  if (p.dialect !== q.dialect) return `${p.op} (${p.dialect}) in A, ${q.op} (${q.dialect}) in B`;
  if (p.dialect === 'ov') {
    if (p.op.toLowerCase() !== q.op.toLowerCase() || p.version !== q.version) return `${p.op} (${p.version}) in A, ${q.op} (${q.version}) in B`;
    return null;
  }
  const da = p.domain === 'ai.onnx' ? '' : p.domain;
  const db = q.domain === 'ai.onnx' ? '' : q.domain;
  if (p.op !== q.op || da !== db) return `${da ? `${da}.` : ''}${p.op} in A, ${db ? `${db}.` : ''}${q.op} in B`;
  if (p.version === q.version || da !== '') return null;
  const sa = onnxSchema(p.op, Number(p.version))?.since;
  const sb = onnxSchema(q.op, Number(q.version))?.since;
  return sa !== undefined && sa === sb ? null : `${p.op} of opset ${p.version} in A, of opset ${q.version} in B`;
}

/** The first attribute that differs, or null. IR attributes as the IR text spells them; ONNX ones as typed values. */
function attrDifference(p: Node, q: Node): string | null {
  const ia = p.attrsView;
  const ib = q.attrsView;
  for (const [k, x] of ia) {
    const y = ib.get(k);
    if (!y) return `attribute '${k}' in A only (${show(x)})`;
    if (!sameAttr(x, y, p.dialect === 'ov')) return `attribute '${k}' is ${show(x)} in A, ${show(y)} in B`;
  }
  for (const [k, y] of ib) if (!ia.has(k)) return `attribute '${k}' in B only (${show(y)})`;
  return null;
}

function sameAttr(x: Attr, y: Attr, ir: boolean): boolean {
  if (ir || x.type === 'raw' || y.type === 'raw') {
    const fx = formatAttr(x);
    const fy = formatAttr(y);
    return fx !== undefined && fy !== undefined && sameText(fx, fy);
  }
  if (x.type !== y.type) return false;
  switch (x.type) {
    case 'float': return Math.fround(x.value) === Math.fround(y.value as number) || (Number.isNaN(x.value) && Number.isNaN(y.value as number));
    case 'floats': {
      const w = y.value as readonly number[];
      return x.value.length === w.length && x.value.every((f, i) => Math.fround(f) === Math.fround(w[i]!) || (Number.isNaN(f) && Number.isNaN(w[i]!)));
    }
    case 'tensor': {
      const t = y.value as typeof x.value;
      return t.elem === x.value.elem && comparePayloads({ tensor: x.value, kept: x.value.elem }, { tensor: t, kept: t.elem }) === null;
    }
    case 'tensors': {
      const ts = y.value as typeof x.value;
      return x.value.length === ts.length && x.value.every((t, i) => t.elem === ts[i]!.elem && comparePayloads({ tensor: t, kept: t.elem }, { tensor: ts[i]!, kept: ts[i]!.elem }) === null);
    }
    default: return JSON.stringify(x.value, big) === JSON.stringify(y.value, big);
  }
}

/**
 * Two IR attribute texts that say the same: item by item (`1,1` is `1, 1`), numbers by value
 * (`0.00001` is `1.0000000000000001e-05`: the same double), anything else exactly.
 */
function sameText(x: string, y: string): boolean {
  if (x === y) return true;
  const a = x.split(',');
  const b = y.split(',');
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const p = a[i]!.trim();
    const q = b[i]!.trim();
    if (p === q) continue;
    const m = Number(p);
    if (p === '' || q === '' || Number.isNaN(m) || m !== Number(q)) return false;
  }
  return true;
}

const big = (_k: string, v: unknown): unknown => (typeof v === 'bigint' ? `${v}n` : v);

function show(a: Attr): string {
  if (a.type === 'tensor') return `a tensor ${a.value.elem}[${a.value.dims.join(',')}]`;
  const t = formatAttr(a) ?? JSON.stringify(a.value, big);
  return t.length > 60 ? `'${t.slice(0, 57)}...'` : `'${t}'`;
}

function extrasText(extra: Readonly<Record<string, string>> | undefined): string {
  if (!extra) return '';
  return Object.keys(extra).sort().map((k) => `${k}=${extra[k]}`).join(' ');
}

/** An output binding's identity: the node output it feeds, or its purpose (a Loop's execution condition feeds none). */
function outputKey(to: number, extra: Readonly<Record<string, string>> | undefined): string {
  return to >= 0 ? String(to) : `purpose:${extra?.['purpose'] ?? ''}`;
}

/**
 * The body result that feeds parameter `k` back in the next iteration, or null: IR Loop and
 * TensorIterator by their back edges (the first edge into `k`, as the scan before this map found it); ONNX Loop by position (`cond` and every carried value: body
 * input k ≥ 1 is fed by body output k − 1); ONNX Scan's state variables (input k < N of N states
 * is fed by output k).
 */
function carriedFrom(node: Node, body: Body, param: Value, k: number, backEdges: (b: Body) => ReadonlyMap<number, number>): number | null {
  if (node.dialect === 'ov') return backEdges(body).get(k) ?? null;
  // an outer value the body reads (ONNX scoping) is no formal input: never carried
  if (param.metaView['onnxCapture'] === true || node.domain !== '' && node.domain !== 'ai.onnx') return null;
  if (node.op === 'Loop') return k >= 1 && k - 1 < body.graph.outputs.length ? k - 1 : null;
  if (node.op === 'Scan') {
    const a = node.attr('num_scan_inputs');
    const scans = a?.type === 'int' ? Number(a.value) : 0;
    const formal = body.graph.inputs.filter((x) => x.metaView['onnxCapture'] !== true).length;
    return k < formal - scans ? k : null;
  }
  return null;
}
