import { isAbsolute, win32 } from 'node:path';
import { DEFAULT_ONNX_OPSET, onnxMinIrVersion } from './versions.js';
import { Diagnostics } from '../diag/diagnostic.js';
import type { Attr } from '../graph/attr.js';
import { onnxHas } from '../graph/element-type.js';
import { allGraphs, type Graph } from '../graph/graph.js';
import { defaultOnnxInfo, type Model, type OnnxModelInfo } from '../graph/model.js';
import type { Node } from '../graph/node.js';
import { rawData, type Tensor } from '../graph/tensor.js';
import type { Value } from '../graph/value.js';
import type { FileToWrite } from '../fs/atomic.js';
import { filled } from '../fs/sparse-file.js';
import { elementType } from '../graph/element-type.js';
import type { ValueType } from '../graph/types.js';
import { encodeAttr } from './attrs.js';
import { IdTable, nodeIds, ValueTable } from '../graph/id-table.js';
import { tensorTypeSize, writePlainNode, writeTensorType, writeValueInfo } from './encode-inline.js';
import type { AttributeProto, SparseTensorProto } from './proto-types.js';
import { concatChunks, LEN, lenFieldSize, ProtoWriter, stringSize } from './proto-writer.js';
import { AttrType, DATA_LOCATION_EXTERNAL, T } from './schema.js';
import { decodeMessage, encodeMessage } from './wire.js';

export interface EncodeOptions {
  /** Write tensors of at least `threshold` bytes (default 1024) to `location`, relative to the model. */
  externalData?: { location: string; threshold?: number };
  /** Where large tensors go when the model would exceed protobuf's 2 GB limit and no externalData is given. */
  defaultLocation?: string;
}

/** How many recently written types keep their encoded TypeProto (Encoder.typeField). */
const TYPE_FIELDS = 4;

/** Protobuf messages cannot exceed 2 GiB; stay clear of it. */
const PROTO_LIMIT = 2 ** 31 - 64 * 2 ** 20;
const EXTERNAL_ALIGN = 64;
/** ai.onnx opset for a model built in memory whose nodes name none. */

/**
 * Encodes a Model (dialect 'onnx') as ONNX ModelProto bytes. Captures become plain references to
 * the outer name again; every value gets a name unique in the whole model (the value's own name
 * when free, else `<name>__<k>`, unnamed values `ovir_<k>`), so nothing shadows an outer name.
 * Nodes are written in topological order, types where known (value_info for intermediate values).
 * Tensors go to external data when asked, or when the model would exceed 2 GB.
 */
export function encodeOnnx(model: Model, opts: EncodeOptions = {}): { bytes: Uint8Array; external: FileToWrite[] } {
  const { chunks, external } = encodeOnnxChunks(model, opts);
  // in memory: the bytes of weights read on demand are read now
  const read = (c: FileToWrite['chunks']) => (typeof c === 'string' ? c : c instanceof Uint8Array ? filled(c) : c.map(filled));
  return { bytes: concatChunks(chunks), external: external.map((f) => ({ path: f.path, chunks: read(f.chunks) })) };
}

/**
 * encodeOnnx for writing a file: the model's bytes as chunks (their concatenation is encodeOnnx's
 * bytes) in which every initializer of 64 KiB or more is the tensor's own view, not a copy, so
 * writing a model costs about its weights once in memory, not twice.
 */
export function encodeOnnxChunks(model: Model, opts: EncodeOptions = {}): { chunks: Uint8Array[]; external: FileToWrite[] } {
  try {
    return new Encoder(model, opts).run();
  } finally {
    ProtoWriter.release();
  }
}

/** Node inputs from this index on are captures (outer values read by its bodies). */
export function captureStart(n: Node): number {
  const m = n.metaView['onnxInputCount'];
  if (typeof m === 'number') return m;
  return n.is('If') ? 1 : n.inputs.length;
}

const utf8 = new TextEncoder();

/** Repeated StringStringEntryProto (metadata_props, external_data) from [key, value] pairs. */
function writeKv(w: ProtoWriter, field: number, pairs: unknown): void {
  if (!Array.isArray(pairs)) return;
  for (const [key, value] of pairs as [string | undefined, string | undefined][]) {
    const e = ProtoWriter.make();
    if (key != null) e.stringField(1, key);
    if (value != null) e.stringField(2, value);
    w.message(field, e);
  }
}

/** A message protobufjs encodes (carried-through parts kept as encoded bytes, re-encoded as the proto objects were). */
function writeEncoded(w: ProtoWriter, field: number, bytes: Uint8Array): void {
  w.tag(field, LEN).varint(bytes.byteLength).raw(bytes);
}

/**
 * A TypeProto for `t`, written as typeToProto (value-type.ts) builds it: null when ONNX has no
 * type to write (unknown), or the reason it cannot express it. Sequence/optional/map wrappers are
 * written inside out, without recursion.
 */
function writeTypeProto(t: ValueType): { w: ProtoWriter | null; problem?: string } {
  const code = (e: string): number | null => (e === 'dynamic' ? 0 : elementType(e as Parameters<typeof elementType>[0]).onnx);
  const wraps: ValueType[] = [];
  let cur: ValueType | null = t;
  let leaf: ProtoWriter | null = null;
  for (;;) {
    if (cur === null) break;
    if (cur.kind === 'tensor' || cur.kind === 'sparse_tensor') {
      const c = code(cur.elem);
      if (c === null) return { w: null, problem: `element type ${cur.elem} does not exist in ONNX` };
      const body = ProtoWriter.make().int32Field(1, c);
      if (cur.shape !== null) {
        const shape = ProtoWriter.make();
        for (const d of cur.shape) {
          const dim = ProtoWriter.make();
          if (typeof d === 'number') dim.int64Field(1, d);
          else if (d !== null && 'sym' in d) dim.stringField(2, d.sym);
          shape.message(1, dim);
        }
        body.message(2, shape);
      }
      leaf = ProtoWriter.make().message(cur.kind === 'tensor' ? 1 : 8, body);
      break;
    }
    if (cur.kind === 'unknown') break;
    if (cur.kind === 'map' && code(cur.key) === null) return { w: null, problem: `map key type ${cur.key} does not exist in ONNX` };
    wraps.push(cur);
    cur = cur.kind === 'map' ? cur.value : cur.elem;
  }
  let out: ProtoWriter | null = leaf;
  for (let i = wraps.length - 1; i >= 0; i--) {
    const k = wraps[i]!;
    const inner = ProtoWriter.make();
    if (k.kind === 'map') {
      inner.int32Field(1, code(k.key)!);
      if (out) inner.message(2, out);
    } else if (out) inner.message(1, out);
    out = ProtoWriter.make().message(k.kind === 'sequence' ? 4 : k.kind === 'optional' ? 9 : 5, inner);
  }
  return { w: out };
}

/**
 * A node with bodies, written once its bodies are: its fields before `attribute` (head), each
 * attribute (a finished AttributeProto, or a graph attribute's name before and doc/type after its
 * body), and the fields after (tail).
 */
interface PendingNode {
  head: ProtoWriter;
  attrs: (ProtoWriter | { pre: ProtoWriter; graph: Graph; post: ProtoWriter })[];
  tail: ProtoWriter;
}

/** A graph's GraphProto in parts: its nodes (field 1, some waiting for bodies) and every later field. */
interface GraphParts {
  nodes: (ProtoWriter | PendingNode)[];
  rest: ProtoWriter;
}

class Encoder {
  private readonly diags = new Diagnostics();
  /**
   * Each value's name in the file (a ValueTable: an array over the model's value ids; a value as a
   * Map key cost an identity hash per value, measured: these lookups were most of writing the
   * nodes of chain100k). Made in run, over every graph's values.
   */
  private names = new ValueTable<string>(null);
  private readonly used = new Set<string>();
  private generated = 0;
  private readonly parts = new Map<Graph, GraphParts>();
  private readonly external: Uint8Array[] = [];
  private externalSize = 0;
  private externalize = false;
  private readonly threshold: number;
  private readonly location: string;

  constructor(private readonly model: Model, private readonly opts: EncodeOptions) {
    this.threshold = opts.externalData?.threshold ?? 1024;
    this.location = opts.externalData?.location ?? opts.defaultLocation ?? 'model.onnx.data';
  }

  run(): { chunks: Uint8Array[]; external: FileToWrite[] } {
    const root = this.model.graph;
    const loc = this.location;
    if (loc === '' || isAbsolute(loc) || win32.isAbsolute(loc) || loc.split(/[\\/]/).includes('..')) {
      this.diags.add('ONNX_ENCODE', '', { detail: `external data location '${loc}' must be a relative path inside the model folder` });
    }
    let total = 0;
    const graphs = [...allGraphs(root)];
    // (indexed loops on hot paths: a for-of over an array in code not yet optimized allocates a
    // result object per element, 30 of the 48 MB IR → ONNX encoding allocated for chain100k)
    for (const g of graphs) {
      for (const v of g.inputs) if (v.constant) total += rawData(v.constant).byteLength;
      for (const v of g.initializers) if (v.constant) total += rawData(v.constant).byteLength;
      // (size first: iterating even an empty Map allocates an iterator and its result, per node)
      const nodes = g.nodes;
      for (let i = 0; i < nodes.length; i++) {
        const n = nodes[i]!;
        if (n.attrsView.size) for (const a of n.attrsView.values()) for (const t of attrTensors(a)) total += rawData(t).byteLength;
      }
    }
    this.externalize = this.opts.externalData !== undefined || total > PROTO_LIMIT;

    this.names = new ValueTable<string>(root);
    // Each body's captures, found once for naming and writing.
    const caps = graphs.map((g) => this.captures(g));
    for (let i = 0; i < graphs.length; i++) this.nameGraph(graphs[i]!, caps[i]!);
    // Pre-order (the order tensors go to external data), then bodies before the graphs holding them.
    for (let i = 0; i < graphs.length; i++) this.graphParts(graphs[i]!, caps[i]!);
    const done = new Map<Graph, ProtoWriter>();
    for (let i = graphs.length - 1; i >= 0; i--) done.set(graphs[i]!, this.assemble(graphs[i]!, done));

    // Opsets: the model's own imports; domains they miss (and, for a model built in memory, all
    // domains) take the highest version its nodes say.
    const info: OnnxModelInfo = this.model.onnx ?? { ...defaultOnnxInfo(), opsetImports: new Map() };
    const opsets = new Map(info.opsetImports);
    const fromNodes = new Map<string, number>();
    for (const g of graphs) {
      for (let i = 0; i < g.nodes.length; i++) {
        const n = g.nodes[i]!;
        if (n.dialect !== 'onnx') {
          this.diags.add('ONNX_ENCODE', n.path, { detail: `node ${n.op} is in the ${n.dialect} dialect; convert it to ONNX first` });
          continue;
        }
        const d = n.domain === 'ai.onnx' ? '' : n.domain;
        const v = Number(n.version);
        if (Number.isInteger(v) && v > 0 && v > (fromNodes.get(d) ?? 0)) fromNodes.set(d, v);
      }
    }
    for (const [d, v] of fromNodes) if (!opsets.has(d)) opsets.set(d, v);
    if (!this.model.onnx && !opsets.has('')) opsets.set('', DEFAULT_ONNX_OPSET);
    this.diags.throwIfErrors();

    // ModelProto, fields in field-number order. The model's own IR version; for a model built
    // elsewhere, the one released with its opset.
    const w = ProtoWriter.make();
    w.int64Field(1, this.model.onnx ? info.irVersion : onnxMinIrVersion(opsets.get('') ?? DEFAULT_ONNX_OPSET));
    w.stringField(2, info.producerName);
    w.stringField(3, info.producerVersion);
    w.stringField(4, info.domain);
    w.int64Field(5, info.modelVersion);
    w.stringField(6, info.docString);
    w.message(7, done.get(root)!);
    for (const [domain, version] of opsets) w.message(8, ProtoWriter.make().stringField(1, domain).int64Field(2, BigInt(version)));
    writeKv(w, 14, info.metadataProps);
    const carry = (id: number, field: 'functions' | 'training_info' | 'configuration', type: typeof T.FunctionProto) => {
      for (const b of info.passthrough[field] ?? []) writeEncoded(w, id, encodeMessage(type, decodeMessage(type, b)));
    };
    carry(20, 'training_info', T.TrainingInfoProto);
    carry(25, 'functions', T.FunctionProto);
    carry(26, 'configuration', T.DeviceConfigurationProto);
    const external: FileToWrite[] = this.external.length ? [{ path: this.location, chunks: this.external }] : [];
    return { chunks: w.finish(), external };
  }

  // ── names ─────────────────────────────────────────────────────────────────────
  private claim(v: Value): string {
    const want = v.name;
    let name: string;
    if (want && !this.used.has(want)) name = want;
    else if (want) {
      let k = 1;
      while (this.used.has(`${want}__${k}`)) k++;
      name = `${want}__${k}`;
    } else {
      do name = `ovir_${++this.generated}`; while (this.used.has(name));
    }
    this.used.add(name);
    this.names.set(v, name);
    return name;
  }

  /** Capture parameters of a body graph: param (by id: no identity hash per value) → the outer value (node input) it stands for. */
  private captures(g: Graph): Map<number, Value> {
    const out = new Map<number, Value>();
    const owner = g.owner?.node;
    if (!owner) return out;
    const body = owner.bodies.get(g.owner!.key)!;
    const start = captureStart(owner);
    for (const b of body.inputs) {
      const outer = owner.inputs[b.from];
      if (b.from >= start && outer) out.set(b.param.id, outer);
    }
    return out;
  }

  private nameGraph(g: Graph, caps: Map<number, Value>): void {
    const outputs = idSet(g.outputs);
    for (const v of g.inputs) {
      const outer = caps.get(v.id);
      if (outer) this.names.set(v, this.names.get(outer) ?? this.claim(outer));
      else this.claim(v);
    }
    for (const v of g.initializers) this.claim(v);
    for (let i = 0; i < g.nodes.length; i++) {
      const outs = g.nodes[i]!.outputs;
      for (let k = 0; k < outs.length; k++) {
        const v = outs[k]!;
        if (!v.name && v.uses.length === 0 && !outputs.has(v.id)) this.names.set(v, '');
        else this.claim(v);
      }
    }
  }

  private nameOf(v: Value | null): string {
    if (!v) return '';
    const n = this.names.get(v);
    if (n !== undefined) return n;
    this.diags.add('ONNX_ENCODE', v.graph.path, { detail: `value '${v.label}' is read outside the graph that defines it (missing body binding)` });
    return this.claim(v);
  }

  // ── messages ──────────────────────────────────────────────────────────────────
  /** ValueInfoProto of `v` as field `field` of `w`: written in place when it is only a name and a tensor type (encode-inline.ts). */
  private valueInfoField(w: ProtoWriter, field: number, v: Value): void {
    const m = v.metaView;
    if (m['onnxTypeProto'] === undefined && m['docString'] === undefined && m['metadataProps'] === undefined) {
      const t = v.type;
      if (t === null || t.kind === 'unknown') {
        writeValueInfo(w, field, this.nameOf(v), t, -1);
        return;
      }
      const type = this.typeField(t);
      if (type) {
        // writeValueInfo's bytes, the type's field copied as made for the last value of this type
        const name = this.nameOf(v);
        w.tag(field, LEN).varint(lenFieldSize(stringSize(name)) + type.length).stringField(1, name).raw(type);
        return;
      }
    }
    w.message(field, this.valueInfo(v));
  }

  /** The last few types written in place (TYPE_FIELDS), with their TypeProto as ValueInfoProto field 2 (null: not writable in place). */
  private readonly typeFields: { readonly type: ValueType; readonly bytes: Uint8Array | null }[] = [];
  private typeFieldNext = 0;

  /**
   * ValueInfoProto field 2 (tag, length, TypeProto) of `t` as writeTensorType writes it, or null
   * when tensorTypeSize has no size for it. Values share type objects (the IR reader makes one per
   * run of equal port types; conversion keeps them), so the bytes are made once per type object
   * seen lately, not per value (the sizes and the four nested messages were most of value_info).
   */
  private typeField(t: ValueType): Uint8Array | null {
    const known = this.typeFields;
    for (let i = 0; i < known.length; i++) if (known[i]!.type === t) return known[i]!.bytes;
    let bytes: Uint8Array | null = null;
    if (tensorTypeSize(t) >= 0) {
      const s = ProtoWriter.make();
      writeTensorType(s, 2, t as ValueType & { kind: 'tensor' | 'sparse_tensor' });
      // a copy: the writer's buffer is cut from a shared slab that later writers reuse
      bytes = concatChunks(s.finish()).slice();
    }
    const entry = { type: t, bytes };
    if (known.length < TYPE_FIELDS) known.push(entry);
    else known[this.typeFieldNext] = entry;
    this.typeFieldNext = (this.typeFieldNext + 1) % TYPE_FIELDS;
    return bytes;
  }

  /** ValueInfoProto of `v`: name, type (the TypeProto read from the file while the type is unchanged), doc, metadata. */
  private valueInfo(v: Value): ProtoWriter {
    const w = ProtoWriter.make().stringField(1, this.nameOf(v));
    const bytes = v.metaView['onnxTypeProto'];
    if (bytes instanceof Uint8Array && v.metaView['onnxTypeFor'] === v.type) {
      writeEncoded(w, 2, encodeMessage(T.TypeProto, decodeMessage(T.TypeProto, bytes)));
    } else if (v.type) {
      const t = writeTypeProto(v.type);
      if (t.w) w.message(2, t.w);
      else if (t.problem) this.diags.add('ONNX_ENCODE', v.graph.path, { detail: `value '${v.label}': ${t.problem}` });
    }
    if (typeof v.metaView['docString'] === 'string') w.stringField(3, v.metaView['docString']);
    writeKv(w, 4, v.metaView['metadataProps']);
    return w;
  }

  /** TensorProto of `t` (raw_data a view; external data when asked or past 2 GB), plus an initializer's doc and metadata. */
  private tensor(t: Tensor, name: string, where: string, v: Value | null = null): ProtoWriter {
    const code = elementType(t.elem).onnx;
    if (!onnxHas(t.elem)) {
      this.diags.add('ONNX_ENCODE', where, { detail: `tensor '${name}' has element type ${t.elem}, which ONNX does not have` });
    }
    const w = ProtoWriter.make();
    if (t.dims.length) w.packedInt64(1, t.dims);
    w.int32Field(2, code ?? 0);
    // (weights read on demand stay unread: the file writer copies them from their file)
    const data = rawData(t);
    const outside = this.externalize && t.elem !== 'string' && data.byteLength >= this.threshold;
    if (t.elem === 'string') for (const s of t.strings ?? []) w.bytesField(6, s);
    if (name) w.stringField(8, name);
    if (t.elem !== 'string' && !outside) w.bytesField(9, data);
    if (v && typeof v.metaView['docString'] === 'string') w.stringField(12, v.metaView['docString']);
    if (outside) {
      const pad = (EXTERNAL_ALIGN - (this.externalSize % EXTERNAL_ALIGN)) % EXTERNAL_ALIGN;
      if (pad) {
        this.external.push(new Uint8Array(pad));
        this.externalSize += pad;
      }
      writeKv(w, 13, [['location', this.location], ['offset', String(this.externalSize)], ['length', String(data.byteLength)]]);
      w.int32Field(14, DATA_LOCATION_EXTERNAL);
      this.external.push(data);
      this.externalSize += data.byteLength;
    }
    if (v) writeKv(w, 16, v.metaView['tensorMetadataProps']);
    return w;
  }

  /** The graph's fields; nodes with bodies wait for them (assemble). */
  private graphParts(g: Graph, caps: Map<number, Value>): void {
    const name = typeof g.meta['onnxName'] === 'string' && g.meta['onnxName'] ? g.meta['onnxName'] : g.owner ? g.owner.key : 'main';
    const input = ProtoWriter.make();
    const initializer = ProtoWriter.make();
    const sparse = ProtoWriter.make();
    for (const v of g.inputs) {
      if (caps.has(v.id)) continue;
      const sp = v.metaView['onnxSparseInitializer'];
      if (sp instanceof Uint8Array) {
        const m = decodeMessage<SparseTensorProto>(T.SparseTensorProto, sp);
        if (m.values) m.values.name = this.nameOf(v);
        writeEncoded(sparse, 15, encodeMessage(T.SparseTensorProto, m));
        continue;
      }
      this.valueInfoField(input, 11, v);
      if (v.constant) initializer.message(5, this.tensor(v.constant, this.nameOf(v), g.path, v));
    }
    for (const v of g.initializers) initializer.message(5, this.tensor(v.constant!, this.nameOf(v), g.path, v));
    const outputs = idSet(g.outputs);
    const nodes: (ProtoWriter | PendingNode)[] = [];
    let run = ProtoWriter.make();
    const valueInfo = ProtoWriter.make();
    const order = this.topoOrder(g);
    for (let i = 0; i < order.length; i++) {
      const n = order[i]!;
      if (this.plainNode(run, n)) {
        this.valueInfos(valueInfo, n, outputs);
        continue;
      }
      const p = this.nodeProto(n);
      if (p instanceof ProtoWriter) run.message(1, p);
      else {
        if (run.length) nodes.push(run);
        nodes.push(p);
        run = ProtoWriter.make();
      }
      this.valueInfos(valueInfo, n, outputs);
    }
    if (run.length) nodes.push(run);
    const output = ProtoWriter.make();
    for (const v of g.outputs) this.valueInfoField(output, 12, v);
    // GraphProto fields after `node`, in field-number order
    const rest = ProtoWriter.make().stringField(2, name).append(initializer);
    if (typeof g.meta['docString'] === 'string') rest.stringField(10, g.meta['docString']);
    rest.append(input).append(output).append(valueInfo);
    const qa = g.meta['quantizationAnnotation'];
    if (Array.isArray(qa)) for (const b of qa as Uint8Array[]) writeEncoded(rest, 14, encodeMessage(T.TensorAnnotation, decodeMessage(T.TensorAnnotation, b)));
    rest.append(sparse);
    writeKv(rest, 16, g.meta['metadataProps']);
    this.parts.set(g, { nodes, rest });
  }

  /** The finished GraphProto of `g`; its bodies' are in `done`. */
  private assemble(g: Graph, done: Map<Graph, ProtoWriter>): ProtoWriter {
    const { nodes, rest } = this.parts.get(g)!;
    this.parts.delete(g);
    const w = ProtoWriter.make();
    for (let i = 0; i < nodes.length; i++) {
      const item = nodes[i]!;
      if (item instanceof ProtoWriter) {
        w.append(item);
        continue;
      }
      // The NodeProto and its graph attributes written straight into `w` (sizes first): a body's
      // bytes are copied once per level, not also into an attribute writer and a node writer.
      const attrs = item.attrs;
      let size = item.head.length + item.tail.length;
      for (let k = 0; k < attrs.length; k++) {
        const a = attrs[k]!;
        size += lenFieldSize(a instanceof ProtoWriter ? a.length : graphAttrSize(a, done.get(a.graph)!));
      }
      w.tag(1, LEN).varint(size).append(item.head);
      for (let k = 0; k < attrs.length; k++) {
        const a = attrs[k]!;
        if (a instanceof ProtoWriter) {
          w.message(5, a);
          continue;
        }
        const body = done.get(a.graph)!;
        w.tag(5, LEN).varint(graphAttrSize(a, body)).append(a.pre).message(6, body).append(a.post);
      }
      w.append(item.tail);
    }
    for (let i = 0; i < g.nodes.length; i++) {
      const b = g.nodes[i]!;
      if (b.bodies.size) for (const body of b.bodies.values()) done.delete(body.graph);
    }
    return w.append(rest);
  }

  /** The graph's nodes, reordered only when they are not already in topological order. */
  private topoOrder(g: Graph): Node[] {
    // position of each node (its first, should a list hold one twice) by its id: sorted iff every
    // producer in this graph comes before its reader (one table of small integers, no closure per node)
    const pos = new IdTable<Node, number>(nodeIds(g.nodes));
    for (let i = 0; i < g.nodes.length; i++) if (!pos.has(g.nodes[i]!)) pos.set(g.nodes[i]!, i);
    let sorted = true;
    for (let i = 0; i < g.nodes.length && sorted; i++) {
      const ins = g.nodes[i]!.inputs;
      for (let j = 0; j < ins.length; j++) {
        const v = ins[j];
        const k = v?.producer ? pos.get(v.producer) : undefined;
        if (k !== undefined && k >= i) { sorted = false; break; }
      }
    }
    if (sorted) return g.nodes;
    const indeg = new Map<Node, number>();
    const users = new Map<Node, Node[]>();
    for (const n of g.nodes) {
      const deps = new Set(n.inputs.map((v) => v?.producer).filter((p): p is Node => !!p && pos.has(p)));
      indeg.set(n, deps.size);
      for (const d of deps) {
        if (!users.has(d)) users.set(d, []);
        users.get(d)!.push(n);
      }
    }
    const queue = g.nodes.filter((n) => indeg.get(n) === 0);
    const out: Node[] = [];
    for (let i = 0; i < queue.length; i++) {
      const n = queue[i]!;
      out.push(n);
      for (const u of users.get(n) ?? []) {
        const k = indeg.get(u)! - 1;
        indeg.set(u, k);
        if (k === 0) queue.push(u);
      }
    }
    if (out.length !== g.nodes.length) {
      const stuck = g.nodes.find((n) => indeg.get(n)! > 0)!;
      this.diags.add('ONNX_ENCODE', stuck.path, { detail: 'the graph has a cycle through this node' });
      return g.nodes;
    }
    return out;
  }

  /** value_info of the node's outputs that have a name and a known type and are not graph outputs. */
  private valueInfos(w: ProtoWriter, n: Node, outputs: Set<number>): void {
    const outs = n.outputs;
    for (let i = 0; i < outs.length; i++) {
      const v = outs[i]!;
      const vn = this.names.get(v);
      if (vn && !outputs.has(v.id) && v.type !== null && v.type.kind !== 'unknown') this.valueInfoField(w, 13, v);
    }
  }

  /** Names of the node being written in place (inputs, then outputs), reused from node to node. */
  private readonly nodeNames: string[] = [];

  /** Writes `n` in place as nodeProto would (encode-inline.ts) when it is a plain node; false otherwise. */
  private plainNode(w: ProtoWriter, n: Node): boolean {
    const m = n.metaView;
    if (n.attrsView.size || n.bodies.size || m['docString'] !== undefined || m['overload'] !== undefined
      || m['metadataProps'] !== undefined || m['deviceConfigurations'] !== undefined || m['onnxAttrOrder'] !== undefined) return false;
    const names = this.nodeNames;
    const own = Math.min(captureStart(n), n.inputs.length);
    let k = 0;
    for (let i = 0; i < own; i++) names[k++] = this.nameOf(n.inputs[i]!);
    const outs = n.outputs;
    for (let i = 0; i < outs.length; i++) names[k++] = this.names.get(outs[i]!) ?? '';
    writePlainNode(w, names, own, k, n.name, n.op, n.domain);
    return true;
  }

  /** NodeProto fields of `n` (field-number order); a node with bodies is finished by assemble. */
  private nodeProto(n: Node): ProtoWriter | PendingNode {
    const head = ProtoWriter.make();
    // ONNX allows trailing absent inputs to be left out; keep them only when written so.
    const own = captureStart(n);
    for (let i = 0; i < own && i < n.inputs.length; i++) head.stringField(1, this.nameOf(n.inputs[i]!));
    for (const v of n.outputs) head.stringField(2, this.names.get(v) ?? '');
    if (n.name) head.stringField(3, n.name);
    head.stringField(4, n.op);
    const tail = ProtoWriter.make();
    if (typeof n.metaView['docString'] === 'string') tail.stringField(6, n.metaView['docString']);
    if (n.domain) tail.stringField(7, n.domain);
    if (typeof n.metaView['overload'] === 'string') tail.stringField(8, n.metaView['overload']);
    writeKv(tail, 9, n.metaView['metadataProps']);
    const devs = n.metaView['deviceConfigurations'];
    if (Array.isArray(devs)) {
      for (const b of devs as Uint8Array[]) writeEncoded(tail, 10, encodeMessage(T.NodeDeviceConfigurationProto, decodeMessage(T.NodeDeviceConfigurationProto, b)));
    }
    const order = Array.isArray(n.metaView['onnxAttrOrder']) ? n.metaView['onnxAttrOrder'] : [];
    const attrs = n.attrsView;
    const bodies = n.bodies;
    if (!order.length && !attrs.size && !bodies.size) return head.append(tail);
    const names = [...new Set([...order, ...attrs.keys(), ...bodies.keys()])];
    const docs = (n.metaView['attrDocs'] ?? {}) as Record<string, string>;
    const out: PendingNode['attrs'] = [];
    for (const name of names) {
      const body = bodies.get(name);
      const attr = attrs.get(name);
      const doc = docs[name];
      if (body) {
        const post = ProtoWriter.make();
        if (doc) post.stringField(13, doc);
        post.int32Field(20, AttrType.GRAPH);
        out.push({ pre: ProtoWriter.make().stringField(1, name), graph: body.graph, post });
      } else if (attr) {
        const a = this.attribute(n, name, attr, doc);
        if (a) out.push(a);
      }
    }
    if (!bodies.size) {
      for (const a of out) head.message(5, a as ProtoWriter);
      return head.append(tail);
    }
    return { head, attrs: out, tail };
  }

  /** AttributeProto `name` (fields in number order: name, value, doc_string, type); null when it has no ONNX form. */
  private attribute(n: Node, name: string, attr: Attr, doc: string | undefined): ProtoWriter | null {
    const w = ProtoWriter.make().stringField(1, name);
    let type: number;
    switch (attr.type) {
      case 'float': w.floatField(2, attr.value); type = AttrType.FLOAT; break;
      case 'int': w.int64Field(3, attr.value); type = AttrType.INT; break;
      case 'bool': w.int64Field(3, attr.value ? 1 : 0); type = AttrType.INT; break;
      case 'string': w.bytesField(4, utf8.encode(attr.value)); type = AttrType.STRING; break;
      case 'tensor': w.message(5, this.tensor(attr.value, '', n.path)); type = AttrType.TENSOR; break;
      case 'floats': w.packedFloat(7, attr.value); type = AttrType.FLOATS; break;
      case 'ints': w.packedInt64(8, attr.value); type = AttrType.INTS; break;
      case 'strings': for (const s of attr.value) w.bytesField(9, utf8.encode(s)); type = AttrType.STRINGS; break;
      case 'tensors': for (const t of attr.value) w.message(10, this.tensor(t, '', n.path)); type = AttrType.TENSORS; break;
      default: {
        // type, types, raw: rare; as the AttributeProto encodeAttr builds, encoded by protobufjs
        const e = encodeAttr(name, attr);
        if (!e.proto) {
          this.diags.add('ONNX_ENCODE', n.path, { detail: `attribute '${name}': ${e.problem}` });
          return null;
        }
        const p: AttributeProto = e.proto;
        if (doc) p.doc_string = doc;
        return ProtoWriter.make().raw(encodeMessage(T.AttributeProto, p));
      }
    }
    if (doc) w.stringField(13, doc);
    return w.int32Field(20, type);
  }
}

/** Bytes of a graph attribute's AttributeProto: its fields before the graph, the graph (field 6), the fields after. */
function graphAttrSize(a: { pre: ProtoWriter; post: ProtoWriter }, body: ProtoWriter): number {
  return a.pre.length + lenFieldSize(body.length) + a.post.length;
}

/** The ids of `values` (a set of small integers hashes them by value: no identity hash per value). */
function idSet(values: readonly Value[]): Set<number> {
  const s = new Set<number>();
  for (let i = 0; i < values.length; i++) s.add(values[i]!.id);
  return s;
}

function attrTensors(a: Attr): readonly Tensor[] {
  if (a.type === 'tensor') return [a.value];
  if (a.type === 'tensors') return a.value;
  return [];
}

