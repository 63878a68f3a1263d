/**
 * Structure-aware mutations of hostile models, for the fuzz driver (test/hostile/fuzz-run.ts) and
 * the unit test that keeps a bounded, seeded share of them (test/hostile/structured.test.ts).
 *
 * ONNX: the ModelProto decoded with the project's own schema, edited as objects (attribute kinds
 * and values, dims, names, cycles, duplicates, bodies, opset imports, initializers' bytes,
 * external data, functions), encoded again. IR: the XML edited as text (ids, edges, ports, port
 * maps, bodies, Const offsets, element types, dims, nesting, huge values, entities, NULs), the .bin
 * cut or grown. Every mutation is a function of a seeded generator, so a case repeats from
 * (seed, source) alone. No vitest import: the driver runs these outside vitest.
 */
import type {
  AttributeProto, GraphProto, ModelProto, NodeProto, TensorProto, TypeProto, ValueInfoProto,
} from '../../src/onnx/proto-types.js';
import { T } from '../../src/onnx/schema.js';
import { decodeMessage, encodeMessage } from '../../src/onnx/wire.js';
import { mulberry32 } from '../helpers/mulberry32.js';

export type Rnd = () => number;

/** Sizes of the big mutations (nesting depth, repeated inputs, XML depth, attribute length); the unit test makes them small. */
export const LIMITS = {
  // (1,200 levels around a real model: an IR text of many GB, its indentation growing with the depth: see the report)
  ifDepths: [1, 2, 30, 300],
  hugeCounts: [1000, 20000],
  xmlDepths: [1000, 100000],
  hugeValues: [100000, 2000000],
};

/** The fuzz driver's generator: mulberry32 (small, fast, deterministic). */
export const generator = (seed: number): Rnd => mulberry32(seed);

export const int = (rnd: Rnd, n: number): number => Math.floor(rnd() * n);
export const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[int(rnd, xs.length)]!;

/** Integers that break things: signs, widths, limits. */
export const HOSTILE_INTS: readonly bigint[] = [
  0n, -1n, 1n, 2n, -2n, 3n, 7n, 64n, 255n, 256n, 65535n, 65536n, -65536n, 2147483647n, 2147483648n, -2147483648n, 4294967295n,
  4294967296n, 1n << 40n, 1n << 53n, (1n << 53n) + 1n, (1n << 62n), (1n << 63n) - 1n, -(1n << 63n), 1000000n, -1000000n, 100000000n,
];
export const HOSTILE_FLOATS: readonly number[] = [0, -0, 1, -1, 0.5, NaN, Infinity, -Infinity, 1e38, 3.5e38, -1e-45, 65504, 65536, 2 ** 31, 1e300];
const NAMES = ['', 'x', 'y', 'missing_name', 'a/b', '../x', '\u0000', 'é', ' ', 'then_branch', 'main', 'If_0', 'a'.repeat(300)];

// ── ONNX ───────────────────────────────────────────────────────────────────────

export function decodeModelProto(bytes: Uint8Array): ModelProto {
  return decodeMessage<ModelProto>(T.ModelProto, bytes);
}
export function encodeModelProto(m: ModelProto): Uint8Array {
  return encodeMessage(T.ModelProto, m);
}

/** Every graph of the model (main first, then bodies, functions' node lists as pseudo-graphs). */
export function graphsOf(m: ModelProto): GraphProto[] {
  const out: GraphProto[] = [];
  const stack: GraphProto[] = m.graph ? [m.graph] : [];
  for (const f of m.functions ?? []) stack.push({ node: f.node ?? [], name: `fn:${f.name}` } as GraphProto);
  while (stack.length) {
    const g = stack.pop()!;
    out.push(g);
    for (const n of g.node ?? []) for (const a of n.attribute ?? []) {
      if (a.g) stack.push(a.g);
      for (const s of a.graphs ?? []) stack.push(s);
    }
  }
  return out;
}

interface NodeAt { g: GraphProto; n: NodeProto; i: number }
function nodesOf(m: ModelProto): NodeAt[] {
  const out: NodeAt[] = [];
  for (const g of graphsOf(m)) (g.node ?? []).forEach((n, i) => out.push({ g, n, i }));
  return out;
}
function attrsOf(m: ModelProto): { n: NodeProto; a: AttributeProto }[] {
  const out: { n: NodeProto; a: AttributeProto }[] = [];
  for (const { n } of nodesOf(m)) for (const a of n.attribute ?? []) out.push({ n, a });
  return out;
}
function tensorsOf(m: ModelProto): TensorProto[] {
  const out: TensorProto[] = [];
  for (const g of graphsOf(m)) {
    out.push(...(g.initializer ?? []));
    for (const n of g.node ?? []) for (const a of n.attribute ?? []) { if (a.t) out.push(a.t); out.push(...(a.tensors ?? [])); }
  }
  return out;
}
function valueInfosOf(m: ModelProto): ValueInfoProto[] {
  const out: ValueInfoProto[] = [];
  for (const g of graphsOf(m)) out.push(...(g.input ?? []), ...(g.output ?? []), ...(g.value_info ?? []));
  return out;
}
/** Names defined in a graph: inputs, initializers, node outputs. */
function definedNames(g: GraphProto): string[] {
  return [...(g.input ?? []).map((v) => v.name ?? ''), ...(g.initializer ?? []).map((t) => t.name ?? ''), ...(g.node ?? []).flatMap((n) => n.output ?? [])].filter((s) => s !== '');
}

const ATTR_FIELDS = ['f', 'i', 's', 't', 'g', 'floats', 'ints', 'strings', 'tensors', 'graphs', 'tp', 'sparse_tensor'] as const;
const ELEM_TYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 99, -1, 1 << 30];

function hostileInt(rnd: Rnd): bigint { return pick(rnd, HOSTILE_INTS) * (rnd() < 0.2 ? -1n : 1n); }

function randomTypeProto(rnd: Rnd, depth = 0): TypeProto {
  const r = rnd();
  const shape = rnd() < 0.3 ? undefined : { dim: Array.from({ length: int(rnd, 5) }, () => (rnd() < 0.3 ? { dim_param: pick(rnd, NAMES) } : rnd() < 0.2 ? {} : { dim_value: hostileInt(rnd) })) };
  if (r < 0.6 || depth > 2) return { tensor_type: { elem_type: pick(rnd, ELEM_TYPES), ...(shape ? { shape } : {}) } };
  if (r < 0.7) return { sequence_type: { elem_type: randomTypeProto(rnd, depth + 1) } };
  if (r < 0.8) return { optional_type: { elem_type: randomTypeProto(rnd, depth + 1) } };
  if (r < 0.88) return { map_type: { key_type: pick(rnd, ELEM_TYPES), value_type: randomTypeProto(rnd, depth + 1) } };
  if (r < 0.95) return { sparse_tensor_type: { elem_type: pick(rnd, ELEM_TYPES), ...(shape ? { shape } : {}) } };
  return {};
}

/** One named structure-aware ONNX mutation: edits `m` in place; false when it found nothing to edit. */
type OnnxMutation = (m: ModelProto, rnd: Rnd, ctx: OnnxCtx) => boolean;
export interface OnnxCtx {
  /** Extra files written next to the model (external data targets), name → bytes. */
  files: Map<string, Uint8Array>;
}

const onnxMutations: Record<string, OnnxMutation> = {
  attrTypeSwap(m, rnd) {
    const as = attrsOf(m); if (!as.length) return false;
    const { a } = pick(rnd, as);
    a.type = pick(rnd, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 99]);
    if (rnd() < 0.5) {
      // move the value to another field
      const from = ATTR_FIELDS.find((f) => (a as Record<string, unknown>)[f] !== undefined && Object.prototype.hasOwnProperty.call(a, f));
      if (from) delete (a as Record<string, unknown>)[from];
      const to = pick(rnd, ATTR_FIELDS);
      (a as Record<string, unknown>)[to] = ({ f: 1.5, i: hostileInt(rnd), s: new TextEncoder().encode(pick(rnd, NAMES)), t: { data_type: 1, dims: [2n], float_data: [1] }, g: { name: 'g' }, floats: [1, NaN], ints: [hostileInt(rnd)], strings: [new Uint8Array([0xff])], tensors: [], graphs: [{ name: 'gg' }], tp: randomTypeProto(rnd), sparse_tensor: { dims: [3n] } } as Record<string, unknown>)[to];
    }
    return true;
  },
  attrIntHostile(m, rnd) {
    const as = attrsOf(m).filter(({ a }) => a.type === 2 || a.type === 7); if (!as.length) return false;
    const { a } = pick(rnd, as);
    if (a.type === 2) a.i = hostileInt(rnd);
    else { const xs = a.ints ?? []; if (xs.length && rnd() < 0.7) xs[int(rnd, xs.length)] = hostileInt(rnd); else a.ints = rnd() < 0.5 ? [] : Array.from({ length: int(rnd, 9) }, () => hostileInt(rnd)); }
    return true;
  },
  attrFloatHostile(m, rnd) {
    const as = attrsOf(m).filter(({ a }) => a.type === 1 || a.type === 6); if (!as.length) return false;
    const { a } = pick(rnd, as);
    if (a.type === 1) a.f = pick(rnd, HOSTILE_FLOATS); else a.floats = Array.from({ length: int(rnd, 5) }, () => pick(rnd, HOSTILE_FLOATS));
    return true;
  },
  attrStringHostile(m, rnd) {
    const as = attrsOf(m).filter(({ a }) => a.type === 3 || a.type === 8); if (!as.length) return false;
    const { a } = pick(rnd, as);
    const s = rnd() < 0.3 ? new Uint8Array([0xc3, 0x28, 0, 0xff]) : new TextEncoder().encode(pick(rnd, ['', 'NOTSET', 'SAME_UPPER', 'nearest', 'bogus', 'a'.repeat(10000)]));
    if (a.type === 3) a.s = s; else a.strings = [s, s];
    return true;
  },
  attrDuplicateOrDrop(m, rnd) {
    const ns = nodesOf(m).filter(({ n }) => (n.attribute ?? []).length); if (!ns.length) return false;
    const { n } = pick(rnd, ns);
    const as = n.attribute!;
    const k = int(rnd, as.length);
    if (rnd() < 0.5) as.splice(k, 1); else as.push({ ...as[k]! });
    return true;
  },
  attrAddUnknown(m, rnd) {
    const ns = nodesOf(m); if (!ns.length) return false;
    const { n } = pick(rnd, ns);
    (n.attribute ??= []).push(pick(rnd, [
      { name: 'bogus_attr', type: 2, i: 1n },
      { name: 'axis', type: 2, i: hostileInt(rnd) },
      { name: 'then_branch', type: 5, g: { name: 'stray' } },
      { name: '', type: 1, f: 1 },
      { name: 'ref', ref_attr_name: 'nothere', type: 2 },
      { name: 'perm', type: 7, ints: [5n, 5n, -9n] },
    ] as AttributeProto[]));
    return true;
  },
  dimHostile(m, rnd) {
    const vs = valueInfosOf(m).filter((v) => v.type?.tensor_type?.shape?.dim?.length); if (!vs.length) return false;
    const v = pick(rnd, vs);
    const dims = v.type!.tensor_type!.shape!.dim!;
    const d = dims[int(rnd, dims.length)]!;
    if (rnd() < 0.8) { delete d.dim_param; d.dim_value = hostileInt(rnd); } else d.dim_param = pick(rnd, NAMES);
    return true;
  },
  rankChange(m, rnd) {
    const vs = valueInfosOf(m).filter((v) => v.type?.tensor_type); if (!vs.length) return false;
    const tt = pick(rnd, vs).type!.tensor_type!;
    const n = pick(rnd, [0, 1, 7, 40]);
    tt.shape = { dim: Array.from({ length: n }, () => ({ dim_value: BigInt(1 + int(rnd, 3)) })) };
    return true;
  },
  typeProtoHostile(m, rnd) {
    const vs = valueInfosOf(m); if (!vs.length) return false;
    pick(rnd, vs).type = rnd() < 0.1 ? null : randomTypeProto(rnd);
    return true;
  },
  inputRenamedMissing(m, rnd) {
    const ns = nodesOf(m).filter(({ n }) => (n.input ?? []).length); if (!ns.length) return false;
    const { n } = pick(rnd, ns);
    n.input![int(rnd, n.input!.length)] = pick(rnd, ['missing_name', 'nope/x', '\u0000', 'é']);
    return true;
  },
  inputExtraOrDropped(m, rnd) {
    const ns = nodesOf(m); if (!ns.length) return false;
    const { g, n } = pick(rnd, ns);
    const ins = (n.input ??= []);
    const r = rnd();
    if (r < 0.3 && ins.length) ins.splice(int(rnd, ins.length), 1);
    else if (r < 0.5) ins.push('');
    else if (r < 0.7 && ins.length) ins[int(rnd, ins.length)] = '';
    else { const names = definedNames(g); if (names.length) ins.push(...Array.from({ length: 1 + int(rnd, 4) }, () => pick(rnd, names))); }
    return true;
  },
  outputsChanged(m, rnd) {
    const ns = nodesOf(m); if (!ns.length) return false;
    const { n } = pick(rnd, ns);
    const outs = (n.output ??= []);
    const r = rnd();
    if (r < 0.3 && outs.length) outs.splice(int(rnd, outs.length), 1);
    else if (r < 0.5) outs.push(`extra_${int(rnd, 9)}`);
    else if (r < 0.7 && outs.length) outs[int(rnd, outs.length)] = '';
    else outs.length = 0;
    return true;
  },
  cycle(m, rnd) {
    // a node reads an output of itself or of a later node of its graph
    const gs = graphsOf(m).filter((g) => (g.node ?? []).length); if (!gs.length) return false;
    const g = pick(rnd, gs); const nodes = g.node!;
    const i = int(rnd, nodes.length); const j = i + int(rnd, nodes.length - i);
    const later = nodes[j]!.output ?? []; if (!later.length || !(nodes[i]!.input ?? []).length) return false;
    nodes[i]!.input![int(rnd, nodes[i]!.input!.length)] = pick(rnd, later);
    return true;
  },
  duplicateOutput(m, rnd) {
    const gs = graphsOf(m).filter((g) => definedNames(g).length >= 1); if (!gs.length) return false;
    const g = pick(rnd, gs);
    const names = definedNames(g);
    const r = rnd();
    if (r < 0.4 && (g.node ?? []).length) { const n = pick(rnd, g.node!); if (!(n.output ?? []).length) return false; n.output![int(rnd, n.output!.length)] = pick(rnd, names); }
    else if (r < 0.7 && (g.output ?? []).length) g.output!.push({ ...pick(rnd, g.output!) });
    else if ((g.initializer ?? []).length) g.initializer!.push({ ...pick(rnd, g.initializer!) });
    else if ((g.input ?? []).length) g.input!.push({ ...pick(rnd, g.input!) });
    else return false;
    return true;
  },
  graphOutputBad(m, rnd) {
    const gs = graphsOf(m).filter((g) => !String(g.name).startsWith('fn:')); if (!gs.length) return false;
    const g = pick(rnd, gs);
    const r = rnd();
    if (r < 0.3) g.output = [];
    else if (r < 0.6) (g.output ??= []).push({ name: pick(rnd, ['missing_name', '']) });
    else if ((g.output ?? []).length) { const names = definedNames(g); g.output![int(rnd, g.output!.length)]!.name = names.length ? pick(rnd, names) : 'zz'; } else return false;
    return true;
  },
  bodyOutputCount(m, rnd) {
    const as = attrsOf(m).filter(({ a }) => a.g); if (!as.length) return false;
    const g = pick(rnd, as).a.g!;
    const outs = (g.output ??= []);
    if (rnd() < 0.5 && outs.length) outs.splice(int(rnd, outs.length), 1);
    else { const names = definedNames(g); outs.push({ name: names.length ? pick(rnd, names) : 'nothing', type: rnd() < 0.5 ? randomTypeProto(rnd) : null }); }
    return true;
  },
  bodyInputs(m, rnd) {
    const as = attrsOf(m).filter(({ a }) => a.g); if (!as.length) return false;
    const g = pick(rnd, as).a.g!;
    const ins = (g.input ??= []);
    if (rnd() < 0.5 && ins.length) ins.splice(int(rnd, ins.length), 1);
    else ins.push({ name: `extra_in_${int(rnd, 3)}`, type: randomTypeProto(rnd) });
    return true;
  },
  bodyOuterUndefined(m, rnd) {
    const as = attrsOf(m).filter(({ a }) => a.g && (a.g.node ?? []).some((n) => (n.input ?? []).length)); if (!as.length) return false;
    const g = pick(rnd, as).a.g!;
    const n = pick(rnd, g.node!.filter((x) => (x.input ?? []).length));
    n.input![int(rnd, n.input!.length)] = pick(rnd, ['outer_undefined', 'missing_name']);
    return true;
  },
  bodyDropped(m, rnd) {
    const ns = nodesOf(m).filter(({ n }) => (n.attribute ?? []).some((a) => a.g)); if (!ns.length) return false;
    const { n } = pick(rnd, ns);
    const as = n.attribute!;
    const k = as.findIndex((a) => a.g);
    if (rnd() < 0.5) as.splice(k, 1); else { as[k]!.g = { name: 'empty' }; }
    return true;
  },
  bodyShadowing(m, rnd) {
    const as = attrsOf(m).filter(({ a }) => a.g && (a.g.node ?? []).length); if (!as.length) return false;
    const g = pick(rnd, as).a.g!;
    const outer = definedNames(m.graph ?? {}); if (!outer.length) return false;
    const n = pick(rnd, g.node!); if (!(n.output ?? []).length) return false;
    n.output![0] = pick(rnd, outer);
    return true;
  },
  emptyGraph(m, rnd) {
    const gs = graphsOf(m); if (!gs.length) { m.graph = { name: 'x' }; return true; }
    const g = pick(rnd, gs);
    const r = rnd();
    if (r < 0.25) g.node = [];
    else if (r < 0.5) { g.node = []; g.output = []; g.input = []; g.initializer = []; }
    else if (r < 0.65 && g === m.graph) m.graph = null;
    else if (r < 0.8) g.input = [];
    else g.initializer = [];
    return true;
  },
  opsetImport(m, rnd) {
    const ops = (m.opset_import ??= []);
    const r = rnd();
    if (r < 0.2) m.opset_import = [];
    else if (r < 0.4 && ops.length) ops[int(rnd, ops.length)]!.version = hostileInt(rnd);
    else if (r < 0.55) ops.push({ domain: '', version: pick(rnd, [1n, 7n, 30n, 1000n]) });
    else if (r < 0.7 && ops.length) ops[int(rnd, ops.length)]!.domain = pick(rnd, ['ai.onnx.ml', 'com.microsoft', 'bogus', '']);
    else if (r < 0.85) m.ir_version = hostileInt(rnd);
    else ops.splice(int(rnd, ops.length + 1), 1);
    return true;
  },
  nodeOpOrDomain(m, rnd) {
    const ns = nodesOf(m); if (!ns.length) return false;
    const { n } = pick(rnd, ns);
    const r = rnd();
    if (r < 0.4) n.op_type = pick(rnd, ['If', 'Loop', 'Scan', 'Add', 'Conv', 'Reshape', 'Identity', 'Constant', 'SequenceAt', 'Optional', 'Split', 'Bogus', '', 'Gemm', 'Concat', 'Slice', 'Pad', 'Resize', 'TopK', 'Expand', 'Tile']);
    else if (r < 0.7) n.domain = pick(rnd, ['ai.onnx.ml', 'com.microsoft', 'bogus', 'ai.onnx', 'ai.onnx.preview.training']);
    else n.name = pick(rnd, NAMES);
    return true;
  },
  swapNodes(m, rnd) {
    const gs = graphsOf(m).filter((g) => (g.node ?? []).length >= 2); if (!gs.length) return false;
    const nodes = pick(rnd, gs).node!;
    const i = int(rnd, nodes.length); const j = int(rnd, nodes.length);
    [nodes[i], nodes[j]] = [nodes[j]!, nodes[i]!];
    if (rnd() < 0.3) nodes.reverse();
    return true;
  },
  initializerBytes(m, rnd) {
    const ts = tensorsOf(m); if (!ts.length) return false;
    const t = pick(rnd, ts);
    const r = rnd();
    const raw = t.raw_data;
    if (r < 0.25 && raw && raw.byteLength) t.raw_data = raw.subarray(0, int(rnd, raw.byteLength));
    else if (r < 0.4) t.raw_data = new Uint8Array((raw?.byteLength ?? 0) + 1 + int(rnd, 7));
    else if (r < 0.55) t.dims = Array.from({ length: int(rnd, 4) }, () => hostileInt(rnd));
    else if (r < 0.7) t.data_type = pick(rnd, ELEM_TYPES);
    else if (r < 0.8) { delete t.raw_data; t.float_data = [1, 2, 3]; t.int64_data = [5n]; }
    else if (r < 0.9) { t.segment = { begin: 0n, end: 1n }; }
    else { delete t.raw_data; t.string_data = [new Uint8Array([0xff]), new Uint8Array(0)]; }
    return true;
  },
  externalData(m, rnd, ctx) {
    const ts = tensorsOf(m).filter((t) => t.name); if (!ts.length) return false;
    const t = pick(rnd, ts);
    delete t.raw_data;
    t.data_location = rnd() < 0.9 ? 1 : pick(rnd, [0, 2, 99]);
    const here = 'weights.bin';
    ctx.files.set(here, new Uint8Array(16 + int(rnd, 64)));
    const location = pick(rnd, [here, here, '../outside.bin', '/etc/passwd', '/etc', 'missing.bin', '', '.', 'sub/../weights.bin', 'weights.bin\u0000x', '..', 'C:\\x', '%2e%2e/x']);
    const kv: { key: string; value: string }[] = [{ key: 'location', value: location }];
    if (rnd() < 0.6) kv.push({ key: 'offset', value: pick(rnd, ['0', '8', '-1', '1e3', 'abc', '99999999999', '18446744073709551616', ' 4', '0x10']) });
    if (rnd() < 0.6) kv.push({ key: 'length', value: pick(rnd, ['0', '4', '16', '-4', '1000000', 'x', '9007199254740993']) });
    if (rnd() < 0.2) kv.push({ key: 'location', value: 'other.bin' });
    if (rnd() < 0.2) kv.push({ key: 'checksum', value: 'x' });
    if (rnd() < 0.1) kv.shift();
    t.external_data = kv;
    return true;
  },
  sparseInitializer(m, rnd) {
    const g = m.graph; if (!g) return false;
    (g.sparse_initializer ??= []).push({
      values: { name: pick(rnd, ['sp', 'x', '']), data_type: pick(rnd, [1, 7, 99]), dims: [BigInt(int(rnd, 4))], float_data: [1, 2] },
      indices: { data_type: pick(rnd, [7, 1]), dims: [BigInt(int(rnd, 4)), ...(rnd() < 0.5 ? [2n] : [])], int64_data: [0n, hostileInt(rnd), 5n] },
      dims: Array.from({ length: 1 + int(rnd, 2) }, () => pick(rnd, [0n, 3n, -1n, 1n << 40n])),
    });
    return true;
  },
  functions(m, rnd) {
    const g = m.graph; if (!g) return false;
    const name = pick(rnd, ['F', 'G']);
    const r = rnd();
    (m.functions ??= []).push({
      name, domain: 'local', input: ['a'], output: ['b'], attribute: ['alpha'],
      opset_import: r < 0.2 ? [] : [{ domain: '', version: 17n }, { domain: 'local', version: 1n }],
      node: r < 0.4
        ? [{ op_type: pick(rnd, ['F', 'G']), domain: 'local', input: ['a'], output: ['b'] }] // recursion
        : [{ op_type: 'Relu', input: [rnd() < 0.3 ? 'undefined_in_fn' : 'a'], output: ['b'], attribute: rnd() < 0.4 ? [{ name: 'alpha', ref_attr_name: 'nothere', type: 1 }] : [] }],
    });
    if (!m.opset_import?.some((o) => o.domain === 'local') && rnd() < 0.8) (m.opset_import ??= []).push({ domain: 'local', version: 1n });
    const names = definedNames(g);
    (g.node ??= []).push({ op_type: name, domain: 'local', input: rnd() < 0.3 ? [] : [names.length ? pick(rnd, names) : 'x', ...(rnd() < 0.2 ? ['x'] : [])], output: [`fn_out_${int(rnd, 5)}`, ...(rnd() < 0.2 ? ['fn_o2'] : [])] });
    return true;
  },
  wrapInIfs(m, rnd) {
    // the main graph's nodes moved into nested If branches (deep nesting, outer reads at every level)
    const g = m.graph; if (!g || !(g.node ?? []).length || !(g.output ?? []).length || (g.input ?? []).some((v) => v.name === 'fuzz_cond')) return false;
    const depth = pick(rnd, LIMITS.ifDepths);
    const original = g.node!;
    let nodes = original;
    const outs = g.output!.map((o) => o.name ?? '');
    (g.input ??= []).push({ name: 'fuzz_cond', type: { tensor_type: { elem_type: 9, shape: { dim: [] } } } });
    for (let k = 0; k < depth; k++) {
      // then: the levels below; else: the original nodes (one copy per level: the size stays linear)
      const branch = (tag: string): GraphProto => ({ name: `${tag}${k}`, node: tag === 't' ? nodes : original, output: outs.map((o) => ({ name: o })) });
      const inner = outs.map((o) => `${o}__if${k}`);
      const ifNode: NodeProto = { op_type: 'If', name: `If_w${k}`, input: ['fuzz_cond'], output: inner, attribute: [{ name: 'then_branch', type: 5, g: branch('t') }, { name: 'else_branch', type: 5, g: branch('e') }] };
      nodes = [ifNode, ...inner.map((o, i): NodeProto => ({ op_type: 'Identity', input: [o], output: [outs[i]!] }))];
    }
    g.node = nodes;
    return true;
  },
  loopScanAttrs(m, rnd) {
    const ns = nodesOf(m).filter(({ n }) => n.op_type === 'Loop' || n.op_type === 'Scan' || n.op_type === 'If'); if (!ns.length) return false;
    const { n } = pick(rnd, ns);
    const r = rnd();
    if (n.op_type === 'Scan') (n.attribute ??= []).push(pick(rnd, [
      { name: 'num_scan_inputs', type: 2, i: hostileInt(rnd) }, { name: 'scan_input_axes', type: 7, ints: [hostileInt(rnd)] },
      { name: 'scan_output_directions', type: 7, ints: [5n, 5n, 5n] }, { name: 'scan_input_directions', type: 7, ints: [] },
    ] as AttributeProto[]));
    else if (r < 0.5) (n.input ??= []).splice(0, 1);
    else (n.input ??= []).unshift('');
    if (rnd() < 0.5) n.attribute = (n.attribute ?? []).filter((a) => a.name !== 'num_scan_inputs');
    return true;
  },
  constValues(m, rnd) {
    // integer constants (shapes, axes, starts, repeats, k…) given hostile values: what folding and inference read
    const ts = tensorsOf(m).filter((t) => t.data_type === 7 || t.data_type === 6); if (!ts.length) return false;
    const t = pick(rnd, ts);
    const wide = t.data_type === 7;
    const vals = [0n, -1n, -2n, 1n, 2n, 3n, 1000000n, 1n << 31n, 1n << 40n, -(1n << 63n), (1n << 63n) - 1n, -1000n];
    const v = pick(rnd, vals);
    const n = t.raw_data ? t.raw_data.byteLength / (wide ? 8 : 4) : (wide ? t.int64_data ?? [] : t.int32_data ?? []).length;
    if (!n) return false;
    const k = int(rnd, n);
    const all = rnd() < 0.3;
    if (t.raw_data) {
      const raw = new Uint8Array(t.raw_data);
      const dv = new DataView(raw.buffer);
      for (let i = all ? 0 : k; i < (all ? n : k + 1); i++) if (wide) dv.setBigInt64(i * 8, v, true); else dv.setInt32(i * 4, Number(BigInt.asIntN(32, v)), true);
      t.raw_data = raw;
    } else if (wide) { const xs = [...(t.int64_data ?? [])]; for (let i = all ? 0 : k; i < (all ? n : k + 1); i++) xs[i] = v; t.int64_data = xs; }
    else { const xs = [...(t.int32_data ?? [])]; for (let i = all ? 0 : k; i < (all ? n : k + 1); i++) xs[i] = Number(BigInt.asIntN(32, v)); t.int32_data = xs; }
    return true;
  },
  dimZero(m, rnd) {
    const vs = valueInfosOf(m).filter((v) => v.type?.tensor_type?.shape?.dim?.length); if (!vs.length) return false;
    const dims = pick(rnd, vs).type!.tensor_type!.shape!.dim!;
    const d = dims[int(rnd, dims.length)]!;
    delete d.dim_param; d.dim_value = pick(rnd, [0n, 1n, 1000000n]);
    return true;
  },
  attrPlausible(m, rnd) {
    // a plausible-looking value of the same kind: axes at and past the rank's edges, zero strides, short or long lists
    const as = attrsOf(m).filter(({ a }) => a.type === 2 || a.type === 7); if (!as.length) return false;
    const { a } = pick(rnd, as);
    const vals = [-5n, -4n, -3n, -2n, -1n, 0n, 1n, 2n, 3n, 4n, 5n, 8n];
    if (a.type === 2) a.i = pick(rnd, vals);
    else {
      const xs = [...(a.ints ?? [])];
      const r = rnd();
      if (r < 0.4 && xs.length) xs[int(rnd, xs.length)] = pick(rnd, vals);
      else if (r < 0.6) xs.push(pick(rnd, vals));
      else if (r < 0.8 && xs.length) xs.pop();
      else xs.reverse();
      a.ints = xs;
    }
    return true;
  },
  hugeCounts(m, rnd) {
    const ns = nodesOf(m).filter(({ n }) => (n.input ?? []).length); if (!ns.length) return false;
    const { n } = pick(rnd, ns);
    const k = pick(rnd, LIMITS.hugeCounts);
    if (rnd() < 0.5) n.input = Array.from({ length: k }, () => n.input![0]!);
    else n.output = Array.from({ length: k }, (_, i) => `big_${i}`);
    return true;
  },
};

export const ONNX_MUTATIONS = Object.keys(onnxMutations);

/** A generic edit: any field of the message tree, chosen at random, set to a hostile value of its kind. */
function genericEdit(m: ModelProto, rnd: Rnd): boolean {
  const slots: { o: Record<string, unknown>; k: string }[] = [];
  const stack: unknown[] = [m];
  let seen = 0;
  while (stack.length && seen < 20000) {
    const o = stack.pop();
    seen++;
    if (o === null || typeof o !== 'object' || o instanceof Uint8Array) continue;
    for (const k of Object.keys(o)) {
      const v = (o as Record<string, unknown>)[k];
      slots.push({ o: o as Record<string, unknown>, k });
      if (v && typeof v === 'object' && !(v instanceof Uint8Array)) stack.push(v);
    }
  }
  if (!slots.length) return false;
  const { o, k } = pick(rnd, slots);
  const v = o[k];
  if (typeof v === 'bigint') o[k] = hostileInt(rnd);
  else if (typeof v === 'number') o[k] = Number.isInteger(v) && rnd() < 0.7 ? Number(BigInt.asIntN(32, hostileInt(rnd))) : pick(rnd, HOSTILE_FLOATS);
  else if (typeof v === 'string') o[k] = pick(rnd, NAMES);
  else if (v instanceof Uint8Array) o[k] = rnd() < 0.5 ? v.subarray(0, int(rnd, v.byteLength + 1)) : new Uint8Array(int(rnd, 40));
  else if (Array.isArray(v)) {
    if (!v.length) return false;
    const r = rnd();
    if (r < 0.4) v.splice(int(rnd, v.length), 1);
    else if (r < 0.7) v.push(v[int(rnd, v.length)]);
    else v.reverse();
  } else if (v && typeof v === 'object') { if (rnd() < 0.5) delete o[k]; else o[k] = null; }
  else return false;
  return true;
}

export interface OnnxCase {
  bytes: Uint8Array;
  files: Map<string, Uint8Array>;
  /** Which mutations were applied, for the report. */
  what: string[];
}

/** 1–3 structure-aware mutations of an ONNX model (the bytes undecodable: a byte-level one). */
export function mutateOnnx(source: Uint8Array, rnd: Rnd, only?: string): OnnxCase {
  const files = new Map<string, Uint8Array>();
  const what: string[] = [];
  let m: ModelProto;
  try { m = decodeModelProto(source); } catch { return { bytes: mutateBytes(source, rnd, false), files, what: ['bytes'] }; }
  const k = 1 + (rnd() < 0.3 ? int(rnd, 3) : 0);
  for (let i = 0; i < k; i++) {
    const name = only ?? (rnd() < 0.15 ? 'generic' : pick(rnd, ONNX_MUTATIONS));
    let ok = false;
    // a mutation that trips over what an earlier one left (a node list with holes) is skipped
    try { ok = name === 'generic' ? genericEdit(m, rnd) : onnxMutations[name]!(m, rnd, { files }); } catch { ok = false; }
    if (ok) what.push(name);
  }
  let bytes: Uint8Array;
  try { bytes = encodeModelProto(m); } catch (e) { what.push(`encode-failed:${(e as Error).message}`); bytes = mutateBytes(source, rnd, false); }
  return { bytes, files, what };
}

/** Byte edits (the old mutation test's): a byte replaced, the rest cut, a run dropped or repeated. */
export function mutateBytes(bytes: Uint8Array, rnd: Rnd, text: boolean): Uint8Array {
  const XML_BYTES = ' <>/="0123456789-abcdefg&;\'';
  let out = Buffer.from(bytes);
  for (let k = 1 + int(rnd, 4); k > 0; k--) {
    const r = rnd();
    const i = int(rnd, out.length);
    if (r < 0.5) { if (out.length) out[i] = text ? XML_BYTES.charCodeAt(int(rnd, XML_BYTES.length)) : int(rnd, 256); }
    else if (r < 0.7) out = out.subarray(0, i);
    else if (r < 0.85) out = Buffer.concat([out.subarray(0, i), out.subarray(Math.min(out.length, i + 1 + int(rnd, 20)))]);
    else { const s = int(rnd, out.length); out = Buffer.concat([out.subarray(0, i), out.subarray(s, s + int(rnd, 60)), out.subarray(i)]); }
  }
  return out;
}

// ── IR ─────────────────────────────────────────────────────────────────────────

export interface IrCase { xml: Uint8Array; bin: Uint8Array | null; what: string[] }

interface Span { start: number; end: number; text: string }
function allMatches(s: string, re: RegExp): Span[] {
  const out: Span[] = [];
  for (const m of s.matchAll(re)) out.push({ start: m.index!, end: m.index! + m[0].length, text: m[0] });
  return out;
}
const splice = (s: string, sp: Span, text: string): string => s.slice(0, sp.start) + text + s.slice(sp.end);
function attrSpans(s: string, name: string): Span[] { return allMatches(s, new RegExp(`\\b${name}="[^"]*"`, 'g')); }

const HOSTILE_NUM_TEXT = ['-1', '0', '1', '2', '99', '-99999', '4294967296', '18446744073709551615', '99999999999999999999999', '1e9', '0x10', '', ' ', 'abc', '1,2', '1.5', 'NaN', '-0', '+3', '\u0000', '&amp;', '1 2'];
const ELEM_TEXT = ['f32', 'f16', 'bf16', 'i4', 'u1', 'u3', 'nf4', 'string', 'boolean', 'dynamic', 'undefined', 'bogus', '', 'FP32', 'f8e4m3', 'i64', 'u64', 'f64'];

type IrMutation = (x: string, bin: { b: Uint8Array | null }, rnd: Rnd) => string | null;
const irMutations: Record<string, IrMutation> = {
  layerIdDuplicate(x, _b, rnd) {
    const ids = allMatches(x, /<layer id="[^"]*"/g); if (ids.length < 2) return null;
    const a = pick(rnd, ids); const b = pick(rnd, ids);
    return splice(x, a, b.text);
  },
  layerIdHostile(x, _b, rnd) {
    const ids = allMatches(x, /<layer id="[^"]*"/g); if (!ids.length) return null;
    return splice(x, pick(rnd, ids), `<layer id="${pick(rnd, HOSTILE_NUM_TEXT)}"`);
  },
  layerRemoved(x, _b, rnd) {
    const ls = allMatches(x, /<layer [^>]*\/>|<layer [^>]*>[\s\S]*?<\/layer>/g); if (!ls.length) return null;
    return splice(x, pick(rnd, ls), '');
  },
  edgeHostile(x, _b, rnd) {
    const es = allMatches(x, /<edge [^>]*\/>/g); if (!es.length) return null;
    const e = pick(rnd, es);
    const r = rnd();
    if (r < 0.2) return splice(x, e, '');
    if (r < 0.35) return splice(x, e, e.text + e.text);
    const field = pick(rnd, ['from-layer', 'from-port', 'to-layer', 'to-port']);
    return splice(x, e, e.text.replace(new RegExp(`${field}="[^"]*"`), `${field}="${pick(rnd, HOSTILE_NUM_TEXT)}"`));
  },
  edgeCycle(x, _b, rnd) {
    const es = allMatches(x, /<edge from-layer="(\d+)" from-port="(\d+)" to-layer="(\d+)" to-port="(\d+)"\s*\/>/g); if (es.length < 2) return null;
    const a = pick(rnd, es); const b = pick(rnd, es);
    const to = /to-layer="(\d+)"/.exec(a.text)![1]!;
    // an edge from a consumer back into an earlier layer
    return splice(x, b, b.text.replace(/from-layer="\d+"/, `from-layer="${to}"`));
  },
  portHostile(x, _b, rnd) {
    const ps = allMatches(x, /<port id="[^"]*"/g); if (!ps.length) return null;
    const p = pick(rnd, ps);
    return splice(x, p, `<port id="${pick(rnd, HOSTILE_NUM_TEXT)}"`);
  },
  portRemoved(x, _b, rnd) {
    const ps = allMatches(x, /<port [^>]*\/>|<port [^>]*>[\s\S]*?<\/port>/g); if (!ps.length) return null;
    const p = pick(rnd, ps);
    return rnd() < 0.5 ? splice(x, p, '') : splice(x, p, p.text + p.text);
  },
  precisionHostile(x, _b, rnd) {
    const ps = attrSpans(x, 'precision'); if (!ps.length) return null;
    return splice(x, pick(rnd, ps), `precision="${pick(rnd, ['FP32', 'BOGUS', '', 'U1', 'I4', 'STRING', 'DYNAMIC', 'FP8'])}"`);
  },
  dimHostile(x, _b, rnd) {
    const ds = allMatches(x, /<dim>[^<]*<\/dim>/g); if (!ds.length) return null;
    const d = pick(rnd, ds);
    const r = rnd();
    if (r < 0.2) return splice(x, d, '');
    if (r < 0.35) return splice(x, d, d.text.repeat(pick(rnd, [2, 40])));
    return splice(x, d, `<dim>${pick(rnd, [...HOSTILE_NUM_TEXT, '?', '1..', '..5', '3..2', '-2', '-1..-1', '1..99999999999999'])}</dim>`);
  },
  shapeAttrHostile(x, _b, rnd) {
    const ss = attrSpans(x, 'shape'); if (!ss.length) return null;
    return splice(x, pick(rnd, ss), `shape="${pick(rnd, ['', '?', '...', '1,2,3', '-1', '1,,2', '[1,2]', 'abc', '99999999999999999999', '1..2,?', '-5,3'])}"`);
  },
  elementType(x, _b, rnd) {
    const es = attrSpans(x, 'element_type'); if (!es.length) return null;
    return splice(x, pick(rnd, es), `element_type="${pick(rnd, ELEM_TEXT)}"`);
  },
  constBlob(x, bin, rnd) {
    const os = [...attrSpans(x, 'offset'), ...attrSpans(x, 'size')]; if (!os.length) return null;
    const o = pick(rnd, os);
    const key = o.text.startsWith('offset') ? 'offset' : 'size';
    const len = bin.b?.byteLength ?? 0;
    return splice(x, o, `${key}="${pick(rnd, [...HOSTILE_NUM_TEXT, String(len), String(len + 1), String(len - 1), String(len * 2)])}"`);
  },
  binSize(_x, bin, rnd) {
    const b = bin.b;
    const r = rnd();
    if (r < 0.2) bin.b = null;
    else if (!b || r < 0.4) bin.b = new Uint8Array(0);
    else if (r < 0.7) bin.b = b.subarray(0, int(rnd, b.byteLength));
    else { const c = new Uint8Array(b.byteLength + 1 + int(rnd, 9)); c.set(b); bin.b = c; }
    return _x;
  },
  portMapHostile(x, _b, rnd) {
    const ms = allMatches(x, /<(input|output) [^>]*(external_port_id|internal_layer_id)="[^"]*"[^>]*\/>/g); if (!ms.length) return null;
    const m = pick(rnd, ms);
    const r = rnd();
    if (r < 0.2) return splice(x, m, '');
    if (r < 0.35) return splice(x, m, m.text + m.text);
    const field = pick(rnd, ['external_port_id', 'internal_layer_id', 'axis', 'part_size', 'stride', 'start', 'end', 'purpose']);
    if (!m.text.includes(`${field}=`)) return splice(x, m, m.text.replace('/>', `${field}="${pick(rnd, HOSTILE_NUM_TEXT)}" />`));
    return splice(x, m, m.text.replace(new RegExp(`${field}="[^"]*"`), `${field}="${pick(rnd, HOSTILE_NUM_TEXT)}"`));
  },
  bodyRemoved(x, _b, rnd) {
    const bs = allMatches(x, /<(then_body|else_body|body)>/g); if (!bs.length) return null;
    const b = pick(rnd, bs);
    const tag = b.text.slice(1, -1);
    const end = x.indexOf(`</${tag}>`, b.end); if (end < 0) return null;
    // the first body of that name after b; nested bodies make this cut a wrong span sometimes: fine, it is hostile
    const r = rnd();
    if (r < 0.5) return x.slice(0, b.start) + x.slice(end + tag.length + 3);
    if (r < 0.75) return x.slice(0, b.end) + '<layers></layers><edges></edges>' + x.slice(end);
    return x.slice(0, b.start) + `<${tag}>` + x.slice(b.end, end) + `</${tag}><${tag}>` + x.slice(b.end, end) + `</${tag}>` + x.slice(end + tag.length + 3);
  },
  portMapRemoved(x, _b, rnd) {
    const bs = allMatches(x, /<(then_port_map|else_port_map|port_map|back_edges)>[\s\S]*?<\/\1>/g); if (!bs.length) return null;
    return splice(x, pick(rnd, bs), '');
  },
  layerType(x, _b, rnd) {
    const ts = allMatches(x, /type="[^"]*" version="[^"]*"/g); if (!ts.length) return null;
    const t = pick(rnd, ts);
    const r = rnd();
    if (r < 0.5) return splice(x, t, t.text.replace(/version="[^"]*"/, `version="${pick(rnd, ['opset1', 'opset99', 'opset0', '', 'opsetX', 'extension', 'opset8'])}"`));
    return splice(x, t, t.text.replace(/type="[^"]*"/, `type="${pick(rnd, ['If', 'Loop', 'TensorIterator', 'Const', 'Parameter', 'Result', 'Add', 'Convolution', 'Bogus', '', 'ReadValue', 'Assign', 'Reshape', 'Concat'])}"`));
  },
  dataAttrHostile(x, _b, rnd) {
    const ds = allMatches(x, /<data [^>]*\/>/g); if (!ds.length) return null;
    const d = pick(rnd, ds);
    const as = allMatches(d.text, /(\w+)="[^"]*"/g); if (!as.length) return null;
    const a = pick(rnd, as);
    const name = a.text.slice(0, a.text.indexOf('='));
    const value = pick(rnd, [...HOSTILE_NUM_TEXT, '1,2,3', '-1,-1', '99999999999,1', 'true', 'false', 'bogus', 'x'.repeat(100000), '1,'.repeat(5000) + '1']);
    return x.slice(0, d.start) + splice(d.text, a, `${name}="${value}"`) + x.slice(d.end);
  },
  dataAttrDropped(x, _b, rnd) {
    const ds = allMatches(x, /<data [^>]*\/>/g); if (!ds.length) return null;
    const d = pick(rnd, ds);
    const as = allMatches(d.text, /\s(\w+)="[^"]*"/g); if (!as.length) return null;
    return x.slice(0, d.start) + splice(d.text, pick(rnd, as), '') + x.slice(d.end);
  },
  deepNesting(x, _b, rnd) {
    const ds = allMatches(x, /<data [^>]*\/>/g);
    const depth = pick(rnd, LIMITS.xmlDepths);
    const blob = '<a>'.repeat(depth) + '</a>'.repeat(depth);
    if (!ds.length) return x.replace('<layers>', `<layers>${blob}`);
    const d = pick(rnd, ds);
    return splice(x, d, d.text.replace('/>', `>${blob}</data>`));
  },
  entities(x, _b, rnd) {
    const r = rnd();
    if (r < 0.3) return x.replace('<net', '<!DOCTYPE net [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>\n<net');
    const ns = attrSpans(x, 'name'); if (!ns.length) return null;
    return splice(x, pick(rnd, ns), `name="${pick(rnd, ['&a;', '&#0;', '&#x110000;', '&#xD800;', '&#65;&lt;&gt;&amp;&quot;', '&', '&#;', '&#x;', '&#99999999999;', '\u0000', 'a\u0000b', '\uffff', '&#1;'])}"`);
  },
  nulBytes(x, _b, rnd) {
    const i = int(rnd, x.length);
    return x.slice(0, i) + '\u0000' + x.slice(i);
  },
  namesHostile(x, _b, rnd) {
    const ns = attrSpans(x, 'names'); if (!ns.length) return null;
    return splice(x, pick(rnd, ns), `names="${pick(rnd, ['', ',', 'a,a', 'x,y,z', ' a , b ', 'a\\,b', 'é', 'y'])}"`);
  },
  netVersion(x, _b, rnd) {
    return x.replace(/<net ([^>]*)version="[^"]*"/, `<net $1version="${pick(rnd, ['10', '11', '7', '12', '', 'x'])}"`);
  },
  rtInfo(x, _b, rnd) {
    const ls = allMatches(x, /<layer [^>]*>/g); if (!ls.length) return null;
    const l = pick(rnd, ls);
    return x.slice(0, l.end) + pick(rnd, ['<rt_info><attribute name="fused_names" version="0" value="&lt;x" /></rt_info>', '<rt_info><rt_info><rt_info/></rt_info></rt_info>', '<unknown_child a="1"/>', '<data/>', '<data a="1"/><data b="2"/>', '<input></input>', '<output><port id="77" precision="FP32"/></output>']) + x.slice(l.end);
  },
  constValueHostile(x, bin, rnd) {
    // an integer Const's values in the .bin overwritten (shapes, axes, indices: what folding and inference read)
    const cs = allMatches(x, /<data element_type="(i64|i32)" shape="[^"]*" offset="\d+" size="\d+"\s*\/>/g);
    if (!cs.length || !bin.b) return null;
    const c = pick(rnd, cs);
    const wide = c.text.includes('"i64"');
    const offset = Number(/offset="(\d+)"/.exec(c.text)![1]); const size = Number(/size="(\d+)"/.exec(c.text)![1]);
    const w = wide ? 8 : 4;
    if (size < w || offset + size > bin.b.byteLength) return null;
    const b = new Uint8Array(bin.b); const dv = new DataView(b.buffer);
    const v = pick(rnd, [0n, -1n, -2n, 1n, 2n, 1000000n, 1n << 31n, 1n << 40n, -(1n << 63n), (1n << 63n) - 1n, -1000n]);
    const n = size / w; const all = rnd() < 0.3; const k = int(rnd, n);
    for (let i = all ? 0 : k; i < (all ? n : k + 1); i++) if (wide) dv.setBigInt64(offset + i * 8, v, true); else dv.setInt32(offset + i * 4, Number(BigInt.asIntN(32, v)), true);
    bin.b = b;
    return x;
  },
  dimPlausible(x, _b, rnd) {
    const ds = allMatches(x, /<dim>[^<]*<\/dim>/g); if (!ds.length) return null;
    return splice(x, pick(rnd, ds), `<dim>${pick(rnd, ['0', '1', '2', '3', '-1', '5', '7', '64'])}</dim>`);
  },
  dataAttrPlausible(x, _b, rnd) {
    const ds = allMatches(x, /<data [^>]*\/>/g); if (!ds.length) return null;
    const d = pick(rnd, ds);
    const as = allMatches(d.text, /(\w+)="[^"]*"/g).filter((a) => !/^(element_type|shape|offset|size)=/.test(a.text)); if (!as.length) return null;
    const a = pick(rnd, as);
    const name = a.text.slice(0, a.text.indexOf('='));
    const old = a.text.slice(name.length + 2, -1);
    let value: string;
    if (/^-?\d+(,-?\d+)*$/.test(old)) {
      const xs = old.split(',');
      const r = rnd();
      if (r < 0.5) xs[int(rnd, xs.length)] = pick(rnd, ['-5', '-3', '-2', '-1', '0', '1', '2', '3', '4', '9']);
      else if (r < 0.7) xs.push(pick(rnd, ['0', '1', '2', '-1']));
      else if (r < 0.85) xs.pop();
      else xs.reverse();
      value = xs.join(',');
    } else value = pick(rnd, ['true', 'false', 'numpy', 'bidirectional', 'explicit', 'same_upper', 'valid', 'none', 'half_pixel', 'nearest', 'linear', 'sum', 'max', '']);
    return x.slice(0, d.start) + splice(d.text, a, `${name}="${value}"`) + x.slice(d.end);
  },
  hugeValue(x, _b, rnd) {
    const ns = attrSpans(x, 'name'); if (!ns.length) return null;
    return splice(x, pick(rnd, ns), `name="${'n'.repeat(pick(rnd, LIMITS.hugeValues))}"`);
  },
};

export const IR_MUTATIONS = Object.keys(irMutations);

/** 1–3 mutations of an IR (.xml as text, .bin bytes). */
export function mutateIr(xml: Uint8Array, bin: Uint8Array | null, rnd: Rnd, only?: string): IrCase {
  let x = Buffer.from(xml).toString('utf8');
  const b = { b: bin };
  const what: string[] = [];
  const k = 1 + (rnd() < 0.3 ? int(rnd, 3) : 0);
  for (let i = 0; i < k; i++) {
    const name = only ?? (rnd() < 0.08 ? 'bytes' : pick(rnd, IR_MUTATIONS));
    if (name === 'bytes') { x = Buffer.from(mutateBytes(Buffer.from(x), rnd, true)).toString('latin1'); what.push(name); continue; }
    let out: string | null = null;
    try { out = irMutations[name]!(x, b, rnd); } catch { out = null; }
    if (out !== null) { x = out; what.push(name); }
  }
  return { xml: Buffer.from(x, what.includes('bytes') ? 'latin1' : 'utf8'), bin: b.b, what };
}
