import protobuf from 'protobufjs/minimal.js';
import type { AttributeProto, NodeProto, SparseTensorProto, StringStringEntryProto, TensorProto, TypeProto, ValueInfoProto } from './proto-types.js';
import { T, type MessageCoder } from './schema.js';
import { decodeMessage, makeReader } from './wire.js';
import { asBuffer, StringTable } from './wire-strings.js';

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

/**
 * A reader over one structure message's bytes: `r` reads varints and leaf messages from `r.buf`
 * (the caller's bytes, so tensor views stay what the caller passed), `text` is a Buffer over the
 * same bytes that strings are decoded from, `strings` the model's intern table (wire-strings.ts).
 */
interface Ctx { r: Reader; text: Uint8Array; strings: StringTable }

function ctx(bytes: Uint8Array, strings: StringTable): Ctx {
  return { r: makeReader(bytes) as Reader, text: asBuffer(bytes), strings };
}

/** A length-delimited string field at c.r.pos (protobufjs's `Reader.string`, without a view per string). */
function string(c: Ctx): string {
  const r = c.r;
  const end = sub(r);
  const start = r.pos;
  r.pos = end;
  return c.strings.read(c.text, start, end);
}

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

function entry(c: Ctx, end: number): StringStringEntryProto {
  const r = c.r;
  const e: StringStringEntryProto = {};
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === 10) e.key = string(c);
    else if (tag === 18) e.value = string(c);
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
function leaf<M>(type: MessageCoder, r: Reader, end: number): M {
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
  const strings = new StringTable();
  const c = ctx(bytes, strings);
  const r = c.r;
  const m: ModelRec = {};
  const rec = m as Record<string, unknown>;
  while (r.pos < r.len) {
    const tag = r.uint32();
    switch (tag >>> 3) {
      case 1: m.ir_version = r.int64() as unknown as bigint; break;
      case 2: m.producer_name = string(c); break;
      case 3: m.producer_version = string(c); break;
      case 4: m.domain = string(c); break;
      case 5: m.model_version = r.int64() as unknown as bigint; break;
      case 6: m.doc_string = string(c); break;
      case 7: m.graph = new LazyGraph(slice(r, sub(r)), strings); break;
      case 8: push(rec, 'opset_import', leaf(T.OperatorSetIdProto, r, sub(r))); break;
      case 14: push(rec, 'metadata_props', entry(c, sub(r))); break;
      case 20: push(rec, 'training_info', leaf(T.TrainingInfoProto, r, sub(r))); break;
      case 25: push(rec, 'functions', leaf(T.FunctionProto, r, sub(r))); break;
      case 26: push(rec, 'configuration', leaf(T.DeviceConfigurationProto, r, sub(r))); break;
      default: r.skipType(tag & 7);
    }
  }
  return m;
}

/** The nodes of a graph by position (an array of NodeProto is one). */
export interface NodeList {
  readonly length: number;
  at(i: number): NodeProto | undefined;
}

/**
 * A GraphProto over its bytes, read on first access to any field. Its nodes are kept as the byte
 * spans of their NodeProtos and read one at a time (`nodeList`), each when the decoder reaches it:
 * a node's record is then garbage at once instead of living, with every other node's, until the
 * whole graph is decoded (which made the garbage collector copy them all). `node` reads them all.
 */
export class LazyGraph {
  private bytes: Uint8Array;
  private read: Record<string, unknown> | null = null;
  private c: Ctx | null = null;
  /** Start and end of each NodeProto in `bytes`. */
  private spans: number[] = [];
  private all: NodeProto[] | null = null;

  constructor(bytes: Uint8Array, private readonly strings: StringTable) {
    this.bytes = bytes;
  }

  private fields(): Record<string, unknown> {
    if (!this.read) {
      const c = ctx(this.bytes, this.strings);
      this.read = wire(() => readGraph(c, this.spans));
      this.c = c;
    }
    return this.read;
  }

  /** The NodeProto at `i`, read from its bytes each time (malformed bytes throw WireError). */
  private nodeAt(i: number): NodeProto | undefined {
    this.fields();
    if (i < 0 || 2 * i >= this.spans.length) return undefined;
    const c = this.c!;
    c.r.pos = this.spans[2 * i]!;
    const end = this.spans[2 * i + 1]!;
    // as wire() does, without a closure per node
    try {
      const n = readNode(c, end);
      // a field running past the node's end: malformed (read in sequence, the graph's next field would fail)
      if (c.r.pos !== end) throw new RangeError(`index out of range: a NodeProto field ends at ${c.r.pos}, past its message's end ${end}`);
      return n;
    } catch (e) {
      throw new WireError((e as Error).message);
    }
  }

  /** The nodes, each read when asked for (see the class comment). */
  get nodeList(): NodeList {
    const spans = this.fields() && this.spans;
    return { length: spans.length / 2, at: (i) => this.nodeAt(i) };
  }

  get node(): NodeProto[] | undefined {
    if (!this.all) {
      const n = this.fields() && this.spans.length / 2;
      if (!n) return undefined;
      this.all = [];
      for (let i = 0; i < n; i++) this.all.push(this.nodeAt(i)!);
    }
    return this.all;
  }
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

/** A graph's fields but its nodes, whose spans go to `spans`. */
function readGraph(c: Ctx, spans: number[]): Record<string, unknown> {
  const r = c.r;
  const g: Record<string, unknown> = {};
  while (r.pos < r.len) {
    const tag = r.uint32();
    switch (tag >>> 3) {
      case 1: {
        const end = sub(r);
        spans.push(r.pos, end);
        r.pos = end;
        break;
      }
      case 2: g['name'] = string(c); break;
      case 5: push(g, 'initializer', leaf(T.TensorProto, r, sub(r))); break;
      case 10: g['doc_string'] = string(c); break;
      case 11: push(g, 'input', readValueInfo(c, sub(r))); break;
      case 12: push(g, 'output', readValueInfo(c, sub(r))); break;
      case 13: push(g, 'value_info', readValueInfo(c, sub(r))); break;
      case 14: push(g, 'quantization_annotation', leaf(T.TensorAnnotation, r, sub(r))); break;
      case 15: push(g, 'sparse_initializer', leaf(T.SparseTensorProto, r, sub(r))); break;
      case 16: push(g, 'metadata_props', entry(c, sub(r))); break;
      default: r.skipType(tag & 7);
    }
  }
  return g;
}

function readValueInfo(c: Ctx, end: number): ValueInfoProto {
  const r = c.r;
  const v: ValueInfoProto = {};
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag >>> 3) {
      case 1: v.name = string(c); break;
      case 2: v.type = leaf<TypeProto>(T.TypeProto, r, sub(r)); break;
      case 3: v.doc_string = string(c); break;
      case 4: push(v as Record<string, unknown>, 'metadata_props', entry(c, sub(r))); break;
      default: r.skipType(tag & 7);
    }
  }
  return v;
}

/**
 * Inputs and outputs are gathered here, then copied at their exact size: an array grown by push
 * from one element gets 17 slots (most nodes have 1–3 names). readNode does not nest (body graphs
 * are read later, by LazyGraph), so one pair serves every node.
 */
const INS: string[] = [];
const OUTS: string[] = [];

function readNode(c: Ctx, end: number): NodeProto {
  const r = c.r;
  const n: NodeProto = {};
  const rec = n as Record<string, unknown>;
  // counts, not `INS.length = 0` (a runtime call each time)
  let nIn = 0;
  let nOut = 0;
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag >>> 3) {
      case 1: INS[nIn++] = string(c); break;
      case 2: OUTS[nOut++] = string(c); break;
      case 3: n.name = string(c); break;
      case 4: n.op_type = string(c); break;
      case 5: push(rec, 'attribute', readAttribute(c, sub(r))); break;
      case 6: n.doc_string = string(c); break;
      case 7: n.domain = string(c); break;
      case 8: n.overload = string(c); break;
      case 9: push(rec, 'metadata_props', entry(c, sub(r))); break;
      case 10: push(rec, 'device_configurations', leaf(T.NodeDeviceConfigurationProto, r, sub(r))); break;
      default: r.skipType(tag & 7);
    }
  }
  if (nIn) n.input = INS.slice(0, nIn);
  if (nOut) n.output = OUTS.slice(0, nOut);
  return n;
}

/**
 * An attribute: a graph attribute (name, type, doc_string and the graph, nothing else) as a record
 * whose graph is a LazyGraph; any other attribute as protobufjs decodes it.
 */
function readAttribute(c: Ctx, end: number): AttributeProto {
  const r = c.r;
  const start = r.pos;
  let graph: Uint8Array | null = null;
  let plain = true;
  const a: AttributeProto = {};
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag >>> 3) {
      case 1: a.name = string(c); break;
      case 13: a.doc_string = string(c); break;
      case 20: a.type = r.int32(); break;
      case 6: graph = slice(r, sub(r)); break;
      default: plain = false; r.skipType(tag & 7);
    }
  }
  if (graph && plain) {
    a.g = new LazyGraph(graph, c.strings) as unknown as AttributeProto['g'];
    return a;
  }
  return decodeMessage<AttributeProto>(T.AttributeProto, r.buf.subarray(start, end));
}
