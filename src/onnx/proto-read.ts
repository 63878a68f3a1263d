import protobuf from 'protobufjs/light.js';
import type { AttributeProto, NodeProto, SparseTensorProto, StringStringEntryProto, TensorProto, TypeProto, ValueInfoProto } from './proto-types.js';
import { T } from './schema.js';
import { decodeMessage, makeReader } from './wire.js';

/**
 * ONNX messages read straight from the file bytes with protobufjs's low-level Reader, for the
 * decoder: the structure (ModelProto, GraphProto, NodeProto, ValueInfoProto, metadata entries) as
 * small records holding only the fields present, names as strings, and everything else as the
 * protobufjs objects of the small leaf messages (TensorProto, TypeProto, attributes) decoded from
 * their own bytes. Graphs are read when first looked at (a body graph of an attribute is a
 * `LazyGraph` over its bytes), so reading is iterative: no recursion over nesting, no depth limit.
 * The records have the protobufjs objects' field names, so `wire.ts`'s `str`/`list`/`has` read
 * both. Malformed bytes throw protobufjs's errors (the decoder turns them into ONNX_BAD_PROTOBUF).
 */
type Reader = protobuf.Reader & { buf: Uint8Array; pos: number; len: number };

/** Malformed protobuf bytes (protobufjs's message), told apart from any other error. */
export class WireError extends Error {}

function wire<V>(read: () => V): V {
  try {
    return read();
  } catch (e) {
    throw new WireError((e as Error).message);
  }
}

/** Position of the end of a length-delimited field starting at r.pos (after its length). */
function sub(r: Reader): number {
  const n = r.uint32();
  const end = r.pos + n;
  if (end > r.len) throw new RangeError(`index out of range: ${r.pos} + ${n} > ${r.len}`);
  return end;
}

function slice(r: Reader, end: number): Uint8Array {
  const b = r.buf.subarray(r.pos, end);
  r.pos = end;
  return b;
}

function entry(r: Reader, end: number): StringStringEntryProto {
  const e: StringStringEntryProto = {};
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === 10) e.key = r.string();
    else if (tag === 18) e.value = r.string();
    else r.skipType(tag & 7);
  }
  return e;
}

function push<V>(rec: Record<string, unknown>, field: string, v: V): void {
  const a = rec[field] as V[] | undefined;
  if (a) a.push(v);
  else rec[field] = [v];
}

/** A message of a leaf type, as protobufjs decodes it from its own bytes. */
function leaf<M>(type: protobuf.Type, r: Reader, end: number): M {
  const bytes = slice(r, end);
  return decodeMessage<M>(type, bytes);
}

export interface ModelRec {
  ir_version?: bigint;
  opset_import?: { domain?: string; version?: bigint }[];
  producer_name?: string;
  producer_version?: string;
  domain?: string;
  model_version?: bigint;
  doc_string?: string;
  graph?: LazyGraph;
  metadata_props?: StringStringEntryProto[];
  training_info?: object[];
  functions?: object[];
  configuration?: object[];
}

/** Reads a ModelProto; its graph is read when first looked at. */
export function readModel(bytes: Uint8Array): ModelRec {
  return wire(() => readModelFields(bytes));
}

function readModelFields(bytes: Uint8Array): ModelRec {
  const r = makeReader(bytes) as Reader;
  const m: ModelRec = {};
  const rec = m as Record<string, unknown>;
  while (r.pos < r.len) {
    const tag = r.uint32();
    switch (tag >>> 3) {
      case 1: m.ir_version = r.int64() as unknown as bigint; break;
      case 2: m.producer_name = r.string(); break;
      case 3: m.producer_version = r.string(); break;
      case 4: m.domain = r.string(); break;
      case 5: m.model_version = r.int64() as unknown as bigint; break;
      case 6: m.doc_string = r.string(); break;
      case 7: m.graph = new LazyGraph(slice(r, sub(r))); break;
      case 8: push(rec, 'opset_import', leaf(T.OperatorSetIdProto, r, sub(r))); break;
      case 14: push(rec, 'metadata_props', entry(r, sub(r))); break;
      case 20: push(rec, 'training_info', leaf(T.TrainingInfoProto, r, sub(r))); break;
      case 25: push(rec, 'functions', leaf(T.FunctionProto, r, sub(r))); break;
      case 26: push(rec, 'configuration', leaf(T.DeviceConfigurationProto, r, sub(r))); break;
      default: r.skipType(tag & 7);
    }
  }
  return m;
}

/** A GraphProto over its bytes, read on first access to any field. */
export class LazyGraph {
  private bytes: Uint8Array | null;
  private read: Record<string, unknown> | null = null;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  private fields(): Record<string, unknown> {
    if (!this.read) {
      const bytes = this.bytes!;
      this.read = wire(() => readGraph(bytes));
      this.bytes = null;
    }
    return this.read;
  }

  get node(): NodeProto[] | undefined { return this.fields()['node'] as NodeProto[] | undefined; }
  get name(): string | undefined { return this.fields()['name'] as string | undefined; }
  get initializer(): TensorProto[] | undefined { return this.fields()['initializer'] as TensorProto[] | undefined; }
  get sparse_initializer(): SparseTensorProto[] | undefined { return this.fields()['sparse_initializer'] as SparseTensorProto[] | undefined; }
  get doc_string(): string | undefined { return this.fields()['doc_string'] as string | undefined; }
  get input(): ValueInfoProto[] | undefined { return this.fields()['input'] as ValueInfoProto[] | undefined; }
  get output(): ValueInfoProto[] | undefined { return this.fields()['output'] as ValueInfoProto[] | undefined; }
  get value_info(): ValueInfoProto[] | undefined { return this.fields()['value_info'] as ValueInfoProto[] | undefined; }
  get quantization_annotation(): object[] | undefined { return this.fields()['quantization_annotation'] as object[] | undefined; }
  get metadata_props(): StringStringEntryProto[] | undefined { return this.fields()['metadata_props'] as StringStringEntryProto[] | undefined; }
}

function readGraph(bytes: Uint8Array): Record<string, unknown> {
  const r = makeReader(bytes) as Reader;
  const g: Record<string, unknown> = {};
  while (r.pos < r.len) {
    const tag = r.uint32();
    switch (tag >>> 3) {
      case 1: push(g, 'node', readNode(r, sub(r))); break;
      case 2: g['name'] = r.string(); break;
      case 5: push(g, 'initializer', leaf(T.TensorProto, r, sub(r))); break;
      case 10: g['doc_string'] = r.string(); break;
      case 11: push(g, 'input', readValueInfo(r, sub(r))); break;
      case 12: push(g, 'output', readValueInfo(r, sub(r))); break;
      case 13: push(g, 'value_info', readValueInfo(r, sub(r))); break;
      case 14: push(g, 'quantization_annotation', leaf(T.TensorAnnotation, r, sub(r))); break;
      case 15: push(g, 'sparse_initializer', leaf(T.SparseTensorProto, r, sub(r))); break;
      case 16: push(g, 'metadata_props', entry(r, sub(r))); break;
      default: r.skipType(tag & 7);
    }
  }
  return g;
}

function readValueInfo(r: Reader, end: number): ValueInfoProto {
  const v: ValueInfoProto = {};
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag >>> 3) {
      case 1: v.name = r.string(); break;
      case 2: v.type = leaf<TypeProto>(T.TypeProto, r, sub(r)); break;
      case 3: v.doc_string = r.string(); break;
      case 4: push(v as Record<string, unknown>, 'metadata_props', entry(r, sub(r))); break;
      default: r.skipType(tag & 7);
    }
  }
  return v;
}

function readNode(r: Reader, end: number): NodeProto {
  const n: NodeProto = {};
  const rec = n as Record<string, unknown>;
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag >>> 3) {
      case 1: push(rec, 'input', r.string()); break;
      case 2: push(rec, 'output', r.string()); break;
      case 3: n.name = r.string(); break;
      case 4: n.op_type = r.string(); break;
      case 5: push(rec, 'attribute', readAttribute(r, sub(r))); break;
      case 6: n.doc_string = r.string(); break;
      case 7: n.domain = r.string(); break;
      case 8: n.overload = r.string(); break;
      case 9: push(rec, 'metadata_props', entry(r, sub(r))); break;
      case 10: push(rec, 'device_configurations', leaf(T.NodeDeviceConfigurationProto, r, sub(r))); break;
      default: r.skipType(tag & 7);
    }
  }
  return n;
}

/**
 * An attribute: a graph attribute (name, type, doc_string and the graph, nothing else) as a record
 * whose graph is a LazyGraph; any other attribute as protobufjs decodes it.
 */
function readAttribute(r: Reader, end: number): AttributeProto {
  const start = r.pos;
  let graph: Uint8Array | null = null;
  let plain = true;
  const a: AttributeProto = {};
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag >>> 3) {
      case 1: a.name = r.string(); break;
      case 13: a.doc_string = r.string(); break;
      case 20: a.type = r.int32(); break;
      case 6: graph = slice(r, sub(r)); break;
      default: plain = false; r.skipType(tag & 7);
    }
  }
  if (graph && plain) {
    a.g = new LazyGraph(graph) as unknown as AttributeProto['g'];
    return a;
  }
  return decodeMessage<AttributeProto>(T.AttributeProto, r.buf.subarray(start, end));
}
