/**
 * A small builder for ONNX fixtures made in code (no hand-written bytes). It builds plain
 * ModelProto objects — the shapes of src/onnx/proto-types.ts — and encodes them with the project's
 * own schema. Nothing is validated: unknown names, shadowing, Ifs without branches and other
 * ill-formed models are allowed, so tests can check how the decoder reports them.
 *
 *   import * as ob from './onnx-builder.js';
 *   const bytes = ob.encodeModelProto(ob.model({
 *     opset: 17,
 *     graph: ob.graph({
 *       name: 'g',
 *       inputs: [ob.valueInfo('c', 'boolean', []), ob.valueInfo('x', 'f32', [2, 'N'])],
 *       outputs: [ob.valueInfo('y', 'f32', null)],
 *       initializers: [ob.floatTensor('w', [2], [1, 2])],
 *       nodes: [
 *         ob.node('If', ['c'], ['y'], {
 *           then_branch: ob.graph({ name: 't', outputs: [ob.valueInfo('t0', 'f32')], nodes: [ob.node('Add', ['x', 'w'], ['t0'])] }),
 *           else_branch: ob.graph({ name: 'e', outputs: [ob.valueInfo('e0', 'f32')], nodes: [ob.node('Neg', ['x'], ['e0'])] }),
 *         }),
 *       ],
 *     }),
 *   }));
 *
 * Attribute values are inferred: bigint or integral number → INT, other number → FLOAT, string →
 * STRING, Uint8Array → STRING (bytes), a graph() → GRAPH, a tensor → TENSOR, arrays of those → INTS,
 * FLOATS, STRINGS, TENSORS, GRAPHS (an empty array → INTS). Use `attr.*` to say the kind exactly
 * (attr.float(1) is a FLOAT 1.0; attr.ints([]) an empty INTS; attr.ref('alpha') a ref_attr_name).
 */
import { elementType, type ElementTypeName } from '../../src/graph/element-type.js';
import type {
  AttributeProto, FunctionProto, GraphProto, ModelProto, NodeProto, StringStringEntryProto, TensorProto,
  TypeProto, ValueInfoProto,
} from '../../src/onnx/proto-types.js';
import { AttrType, DataType, T } from '../../src/onnx/schema.js';
import { encodeMessage } from '../../src/onnx/wire.js';

export { AttrType, DataType };
export type { AttributeProto, GraphProto, ModelProto, NodeProto, TensorProto, ValueInfoProto };

/** An element type: our name ('f32', 'i64', 'boolean'…) or a TensorProto.DataType code. */
export type Elem = ElementTypeName | number;
export const dataType = (e: Elem): number => (typeof e === 'number' ? e : elementType(e).onnx ?? 0);

/** A dim: number/bigint → dim_value, string → dim_param, null → neither. */
export type DimSpec = number | bigint | string | null;

export function tensorType(elem: Elem, shape: readonly DimSpec[] | null = null): TypeProto {
  return {
    tensor_type: {
      elem_type: dataType(elem),
      ...(shape === null ? {} : {
        shape: {
          dim: shape.map((d) => (d === null ? {} : typeof d === 'string' ? { dim_param: d } : { dim_value: BigInt(d) })),
        },
      }),
    },
  };
}

/** ValueInfoProto: `shape` null (the default) = no shape; `elem` undefined = no type at all. */
export function valueInfo(name: string, elem?: Elem, shape: readonly DimSpec[] | null = null): ValueInfoProto {
  return elem === undefined ? { name } : { name, type: tensorType(elem, shape) };
}

// ── tensors ────────────────────────────────────────────────────────────────────
/** A tensor with the given fields (raw_data, float_data, int32_data, external_data…) as written. */
export function tensor(name: string, elem: Elem, dims: readonly (number | bigint)[], fields: Partial<TensorProto> = {}): TensorProto {
  return { name, data_type: dataType(elem), dims: dims.map((d) => BigInt(d)), ...fields };
}
export const rawTensor = (name: string, elem: Elem, dims: readonly (number | bigint)[], raw: Uint8Array): TensorProto =>
  tensor(name, elem, dims, { raw_data: raw });
export const floatTensor = (name: string, dims: readonly number[], values: readonly number[]): TensorProto =>
  tensor(name, 'f32', dims, { float_data: [...values] });
export const int64Tensor = (name: string, dims: readonly number[], values: readonly (number | bigint)[]): TensorProto =>
  tensor(name, 'i64', dims, { int64_data: values.map((v) => BigInt(v)) });
export const int32Tensor = (name: string, dims: readonly number[], values: readonly number[]): TensorProto =>
  tensor(name, 'i32', dims, { int32_data: [...values] });
export const boolTensor = (name: string, dims: readonly number[], values: readonly boolean[]): TensorProto =>
  tensor(name, 'boolean', dims, { int32_data: values.map((b) => (b ? 1 : 0)) });
export const stringTensor = (name: string, dims: readonly number[], values: readonly string[]): TensorProto =>
  tensor(name, 'string', dims, { string_data: values.map((s) => new TextEncoder().encode(s)) });
/** A tensor whose data lives in an external file (relative `location`). */
export function externalTensor(name: string, elem: Elem, dims: readonly number[], location: string, offset?: number, length?: number): TensorProto {
  const ext: StringStringEntryProto[] = [{ key: 'location', value: location }];
  if (offset !== undefined) ext.push({ key: 'offset', value: String(offset) });
  if (length !== undefined) ext.push({ key: 'length', value: String(length) });
  return tensor(name, elem, dims, { data_location: 1, external_data: ext });
}

// ── attributes ─────────────────────────────────────────────────────────────────
type AttrBody = Omit<AttributeProto, 'name'>;
const MARK = Symbol('attr');
export interface ExactAttr { readonly [MARK]: true; readonly proto: AttrBody }
const exact = (proto: AttrBody): ExactAttr => ({ [MARK]: true, proto });

export const attr = {
  float: (f: number) => exact({ type: AttrType.FLOAT, f }),
  int: (i: number | bigint) => exact({ type: AttrType.INT, i: BigInt(i) }),
  string: (s: string) => exact({ type: AttrType.STRING, s: new TextEncoder().encode(s) }),
  tensor: (t: TensorProto) => exact({ type: AttrType.TENSOR, t }),
  graph: (g: GraphProto) => exact({ type: AttrType.GRAPH, g }),
  type: (tp: TypeProto) => exact({ type: AttrType.TYPE_PROTO, tp }),
  floats: (floats: readonly number[]) => exact({ type: AttrType.FLOATS, floats: [...floats] }),
  ints: (ints: readonly (number | bigint)[]) => exact({ type: AttrType.INTS, ints: ints.map((v) => BigInt(v)) }),
  strings: (ss: readonly string[]) => exact({ type: AttrType.STRINGS, strings: ss.map((s) => new TextEncoder().encode(s)) }),
  tensors: (tensors: readonly TensorProto[]) => exact({ type: AttrType.TENSORS, tensors: [...tensors] }),
  graphs: (graphs: readonly GraphProto[]) => exact({ type: AttrType.GRAPHS, graphs: [...graphs] }),
  types: (tps: readonly TypeProto[]) => exact({ type: AttrType.TYPE_PROTOS, type_protos: [...tps] }),
  /** A function-body attribute referring to the caller's attribute `ref` (type as given). */
  ref: (ref: string, type: number = AttrType.FLOAT) => exact({ type, ref_attr_name: ref }),
  /** Any AttributeProto fields as written. */
  proto: (p: AttrBody) => exact(p),
};

export type AttrValue =
  | number | bigint | string | Uint8Array | GraphSpec | TensorProto | ExactAttr
  | readonly number[] | readonly bigint[] | readonly string[] | readonly TensorProto[] | readonly GraphSpec[];
type GraphSpec = GraphProto & { readonly [GRAPH]?: true };
const GRAPH = Symbol('graph');

const isExact = (v: unknown): v is ExactAttr => typeof v === 'object' && v !== null && MARK in v;
const isGraph = (v: unknown): v is GraphProto => typeof v === 'object' && v !== null && GRAPH in v;
const isTensor = (v: unknown): v is TensorProto => typeof v === 'object' && v !== null && 'data_type' in v && !(GRAPH in v);

function toAttr(name: string, v: AttrValue): AttributeProto {
  const enc = (s: string) => new TextEncoder().encode(s);
  if (isExact(v)) return { name, ...v.proto };
  if (typeof v === 'bigint') return { name, type: AttrType.INT, i: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { name, type: AttrType.INT, i: BigInt(v) } : { name, type: AttrType.FLOAT, f: v };
  if (typeof v === 'string') return { name, type: AttrType.STRING, s: enc(v) };
  if (v instanceof Uint8Array) return { name, type: AttrType.STRING, s: v };
  if (isGraph(v)) return { name, type: AttrType.GRAPH, g: v };
  if (isTensor(v)) return { name, type: AttrType.TENSOR, t: v };
  const arr = v as readonly unknown[];
  if (arr.length === 0 || arr.every((x) => typeof x === 'bigint' || (typeof x === 'number' && Number.isInteger(x)))) {
    return { name, type: AttrType.INTS, ints: arr.map((x) => BigInt(x as number)) };
  }
  if (arr.every((x) => typeof x === 'number')) return { name, type: AttrType.FLOATS, floats: [...(arr as number[])] };
  if (arr.every((x) => typeof x === 'string')) return { name, type: AttrType.STRINGS, strings: (arr as string[]).map(enc) };
  if (arr.every(isGraph)) return { name, type: AttrType.GRAPHS, graphs: [...arr] as GraphProto[] };
  if (arr.every(isTensor)) return { name, type: AttrType.TENSORS, tensors: [...arr] as TensorProto[] };
  throw new Error(`onnx-builder: cannot tell the kind of attribute '${name}'`);
}

// ── nodes, graphs, models ──────────────────────────────────────────────────────
export interface NodeOpts { name?: string; domain?: string; docString?: string }

/** A NodeProto; '' in inputs/outputs is an absent optional one, as in ONNX. */
export function node(op: string, inputs: readonly string[], outputs: readonly string[], attrs: Record<string, AttrValue> = {}, opts: NodeOpts = {}): NodeProto {
  const n: NodeProto = {
    op_type: op,
    input: [...inputs],
    output: [...outputs],
    attribute: Object.entries(attrs).map(([k, v]) => toAttr(k, v)),
  };
  if (opts.name !== undefined) n.name = opts.name;
  if (opts.domain !== undefined) n.domain = opts.domain;
  if (opts.docString !== undefined) n.doc_string = opts.docString;
  return n;
}

/** `If(cond)` with the given branches; pass null to leave a branch out (ill-formed on purpose). */
export function ifNode(cond: string, outputs: readonly string[], thenBranch: GraphProto | null, elseBranch: GraphProto | null, opts: NodeOpts = {}): NodeProto {
  const attrs: Record<string, AttrValue> = {};
  if (thenBranch) attrs['then_branch'] = attr.graph(thenBranch);
  if (elseBranch) attrs['else_branch'] = attr.graph(elseBranch);
  return node('If', [cond], outputs, attrs, opts);
}

export interface GraphInit {
  name?: string;
  inputs?: readonly ValueInfoProto[];
  outputs?: readonly ValueInfoProto[];
  initializers?: readonly TensorProto[];
  nodes?: readonly NodeProto[];
  valueInfo?: readonly ValueInfoProto[];
  docString?: string;
}

export function graph(g: GraphInit): GraphProto {
  const out: GraphSpec = {
    [GRAPH]: true,
    name: g.name ?? 'g',
    input: [...(g.inputs ?? [])],
    output: [...(g.outputs ?? [])],
    initializer: [...(g.initializers ?? [])],
    node: [...(g.nodes ?? [])],
    value_info: [...(g.valueInfo ?? [])],
  };
  if (g.docString !== undefined) out.doc_string = g.docString;
  return out;
}

export interface ModelInit {
  graph: GraphProto;
  /** ai.onnx opset (default 17). */
  opset?: number;
  /** Other domains: domain → version. */
  opsets?: Record<string, number>;
  irVersion?: number | bigint;
  producerName?: string;
  producerVersion?: string;
  docString?: string;
  metadata?: Record<string, string>;
  functions?: readonly FunctionProto[];
}

export function model(m: ModelInit): ModelProto {
  const out: ModelProto = {
    ir_version: BigInt(m.irVersion ?? 8),
    opset_import: [{ domain: '', version: BigInt(m.opset ?? 17) }, ...Object.entries(m.opsets ?? {}).map(([domain, v]) => ({ domain, version: BigInt(v) }))],
    graph: m.graph,
    producer_name: m.producerName ?? 'onnx-builder',
  };
  if (m.producerVersion !== undefined) out.producer_version = m.producerVersion;
  if (m.docString !== undefined) out.doc_string = m.docString;
  if (m.metadata) out.metadata_props = Object.entries(m.metadata).map(([key, value]) => ({ key, value }));
  if (m.functions) out.functions = [...m.functions];
  return out;
}

/** Serializes a ModelProto built here (or decoded elsewhere) to ONNX bytes. */
export function encodeModelProto(m: ModelProto): Uint8Array {
  return encodeMessage(T.ModelProto, m);
}

/** Serializes a TensorProto (for test_data_set-style .pb files). */
export function encodeTensorProtoMessage(t: TensorProto): Uint8Array {
  return encodeMessage(T.TensorProto, t);
}
