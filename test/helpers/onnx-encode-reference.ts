/*
 * The ONNX encoder as it was before it wrote bytes straight from the graph: proto objects encoded
 * by protobufjs's generated coders. Kept for tests only, as the reference the streaming encoder
 * (src/onnx/encode.ts) must match byte for byte (test/onnx/encode-differential.test.ts).
 */
import { isAbsolute, win32 } from 'node:path';
import { DEFAULT_ONNX_OPSET, onnxMinIrVersion } from '../../src/onnx/versions.js';
import { Diagnostics } from '../../src/diag/diagnostic.js';
import type { Attr } from '../../src/graph/attr.js';
import { onnxHas } from '../../src/graph/element-type.js';
import { allGraphs, type Graph } from '../../src/graph/graph.js';
import { defaultOnnxInfo, type Model, type OnnxModelInfo } from '../../src/graph/model.js';
import type { Node } from '../../src/graph/node.js';
import type { Tensor } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import type { FileToWrite } from '../../src/fs/atomic.js';
import { encodeAttr } from '../../src/onnx/attrs.js';
import type {
  AttributeProto, GraphProto, ModelProto, NodeProto, SparseTensorProto, StringStringEntryProto, TensorProto, TypeProto,
  ValueInfoProto,
} from '../../src/onnx/proto-types.js';
import { AttrType, DATA_LOCATION_EXTERNAL, T } from '../../src/onnx/schema.js';
import { encodeTensor } from '../../src/onnx/tensor-data.js';
import { typeToProto } from '../../src/onnx/value-type.js';
import { decodeMessage, encodeMessage, encodeMessageChunks } from '../../src/onnx/wire.js';

interface EncodeOptions {
  /** Write tensors of at least `threshold` bytes (default 1024) to `location`, relative to the model. */
  externalData?: { location: string; threshold?: number };
  /** Where large tensors go when the model would exceed protobuf's 2 GB limit and no externalData is given. */
  defaultLocation?: string;
}

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
export function encodeOnnxReference(model: Model, opts: EncodeOptions = {}): { bytes: Uint8Array; external: FileToWrite[] } {
  const { proto, external } = new Encoder(model, opts).run();
  return { bytes: encodeMessage(T.ModelProto, proto), external };
}

/**
 * encodeOnnx for writing a file: the model's bytes as chunks (their concatenation is encodeOnnx's
 * bytes) in which every initializer of 64 KiB or more is the tensor's own view, not a copy, so
 * writing a model costs about its weights once in memory, not twice.
 */
export function encodeOnnxChunksReference(model: Model, opts: EncodeOptions = {}): { chunks: Uint8Array[]; external: FileToWrite[] } {
  const { proto, external } = new Encoder(model, opts).run();
  return { chunks: encodeMessageChunks(T.ModelProto, proto), external };
}

/** Node inputs from this index on are captures (outer values read by its bodies). */
function captureStart(n: Node): number {
  const m = n.meta['onnxInputCount'];
  if (typeof m === 'number') return m;
  return n.is('If') ? 1 : n.inputs.length;
}

const kv = (pairs: unknown): StringStringEntryProto[] =>
  Array.isArray(pairs) ? (pairs as [string, string][]).map(([key, value]) => ({ key, value })) : [];

class Encoder {
  private readonly diags = new Diagnostics();
  private readonly names = new Map<Value, string>();
  private readonly used = new Set<string>();
  private generated = 0;
  private readonly protos = new Map<Graph, GraphProto>();
  private readonly external: Uint8Array[] = [];
  private externalSize = 0;
  private externalize = false;
  private readonly threshold: number;
  private readonly location: string;

  constructor(private readonly model: Model, private readonly opts: EncodeOptions) {
    this.threshold = opts.externalData?.threshold ?? 1024;
    this.location = opts.externalData?.location ?? opts.defaultLocation ?? 'model.onnx.data';
  }

  run(): { proto: ModelProto; external: FileToWrite[] } {
    const root = this.model.graph;
    const loc = this.location;
    if (loc === '' || isAbsolute(loc) || win32.isAbsolute(loc) || loc.split(/[\\/]/).includes('..')) {
      this.diags.add('ONNX_ENCODE', '', { detail: `external data location '${loc}' must be a relative path inside the model folder` });
    }
    let total = 0;
    for (const g of allGraphs(root)) {
      for (const v of [...g.inputs, ...g.initializers]) if (v.constant) total += v.constant.data.byteLength;
      for (const n of g.nodes) for (const a of n.attrsView.values()) for (const t of attrTensors(a)) total += t.data.byteLength;
    }
    this.externalize = this.opts.externalData !== undefined || total > PROTO_LIMIT;

    for (const g of allGraphs(root)) this.nameGraph(g);
    for (const g of allGraphs(root)) this.graphProto(g);

    // Opsets: the model's own imports; domains they miss (and, for a model built in memory, all
    // domains) take the highest version its nodes say.
    const info: OnnxModelInfo = this.model.onnx ?? { ...defaultOnnxInfo(), opsetImports: new Map() };
    const opsets = new Map(info.opsetImports);
    const fromNodes = new Map<string, number>();
    for (const g of allGraphs(root)) {
      for (const n of g.nodes) {
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
    // The model's own IR version; for a model built elsewhere, the one released with its opset.
    const mp: ModelProto = {
      ir_version: this.model.onnx ? info.irVersion : onnxMinIrVersion(opsets.get('') ?? DEFAULT_ONNX_OPSET),
      opset_import: [...opsets].map(([domain, version]) => ({ domain, version: BigInt(version) })),
      producer_name: info.producerName,
      producer_version: info.producerVersion,
      domain: info.domain,
      model_version: info.modelVersion,
      doc_string: info.docString,
      graph: this.protos.get(root)!,
      metadata_props: info.metadataProps.map(([key, value]) => ({ key, value })),
    };
    const carry = (field: 'functions' | 'training_info' | 'configuration', type: typeof T.FunctionProto) => {
      const items = info.passthrough[field];
      if (items?.length) (mp as Record<string, unknown>)[field] = items.map((b) => decodeMessage(type, b));
    };
    carry('functions', T.FunctionProto);
    carry('training_info', T.TrainingInfoProto);
    carry('configuration', T.DeviceConfigurationProto);
    this.diags.throwIfErrors();
    const external: FileToWrite[] = this.external.length ? [{ path: this.location, chunks: this.external }] : [];
    return { proto: mp, external };
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

  /** Capture parameters of a body graph: param → the outer value (node input) it stands for. */
  private captures(g: Graph): Map<Value, Value> {
    const out = new Map<Value, Value>();
    const owner = g.owner?.node;
    if (!owner) return out;
    const body = owner.bodies.get(g.owner!.key)!;
    const start = captureStart(owner);
    for (const b of body.inputs) {
      const outer = owner.inputs[b.from];
      if (b.from >= start && outer) out.set(b.param, outer);
    }
    return out;
  }

  private nameGraph(g: Graph): void {
    const caps = this.captures(g);
    const outputs = new Set(g.outputs);
    for (const v of g.inputs) {
      const outer = caps.get(v);
      if (outer) this.names.set(v, this.names.get(outer) ?? this.claim(outer));
      else this.claim(v);
    }
    for (const v of g.initializers) this.claim(v);
    for (const n of g.nodes) {
      for (const v of n.outputs) {
        if (!v.name && v.uses.length === 0 && !outputs.has(v)) this.names.set(v, '');
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

  // ── graphs ────────────────────────────────────────────────────────────────────
  private protoOf(g: Graph): GraphProto {
    let p = this.protos.get(g);
    if (!p) this.protos.set(g, (p = {}));
    return p;
  }

  private valueInfo(v: Value): ValueInfoProto {
    const vi: ValueInfoProto = { name: this.nameOf(v) };
    const bytes = v.meta['onnxTypeProto'];
    if (bytes instanceof Uint8Array && v.meta['onnxTypeFor'] === v.type) {
      vi.type = decodeMessage<TypeProto>(T.TypeProto, bytes);
    } else if (v.type) {
      const t = typeToProto(v.type);
      if (t.proto) vi.type = t.proto;
      else if (t.problem) this.diags.add('ONNX_ENCODE', v.graph.path, { detail: `value '${v.label}': ${t.problem}` });
    }
    if (typeof v.meta['docString'] === 'string') vi.doc_string = v.meta['docString'];
    if (v.meta['metadataProps']) vi.metadata_props = kv(v.meta['metadataProps']);
    return vi;
  }

  private tensor(t: Tensor, name: string, where: string): TensorProto {
    if (!onnxHas(t.elem)) {
      this.diags.add('ONNX_ENCODE', where, { detail: `tensor '${name}' has element type ${t.elem}, which ONNX does not have` });
    }
    const p = encodeTensor(t, name);
    if (this.externalize && t.elem !== 'string' && t.data.byteLength >= this.threshold) {
      const pad = (EXTERNAL_ALIGN - (this.externalSize % EXTERNAL_ALIGN)) % EXTERNAL_ALIGN;
      if (pad) {
        this.external.push(new Uint8Array(pad));
        this.externalSize += pad;
      }
      delete p.raw_data;
      p.data_location = DATA_LOCATION_EXTERNAL;
      p.external_data = [
        { key: 'location', value: this.location },
        { key: 'offset', value: String(this.externalSize) },
        { key: 'length', value: String(t.data.byteLength) },
      ];
      this.external.push(t.data);
      this.externalSize += t.data.byteLength;
    }
    return p;
  }

  private initializerProto(v: Value, where: string): TensorProto {
    const p = this.tensor(v.constant!, this.nameOf(v), where);
    if (typeof v.meta['docString'] === 'string') p.doc_string = v.meta['docString'];
    if (v.meta['tensorMetadataProps']) p.metadata_props = kv(v.meta['tensorMetadataProps']);
    return p;
  }

  private graphProto(g: Graph): void {
    const p = this.protoOf(g);
    const caps = this.captures(g);
    p.name = typeof g.meta['onnxName'] === 'string' && g.meta['onnxName'] ? g.meta['onnxName'] : g.owner ? g.owner.key : 'main';
    p.input = [];
    p.initializer = [];
    p.sparse_initializer = [];
    for (const v of g.inputs) {
      if (caps.has(v)) continue;
      const sparse = v.meta['onnxSparseInitializer'];
      if (sparse instanceof Uint8Array) {
        const sp = decodeMessage<SparseTensorProto>(T.SparseTensorProto, sparse);
        if (sp.values) sp.values.name = this.nameOf(v);
        p.sparse_initializer.push(sp);
        continue;
      }
      p.input.push(this.valueInfo(v));
      if (v.constant) p.initializer.push(this.initializerProto(v, g.path));
    }
    for (const v of g.initializers) p.initializer.push(this.initializerProto(v, g.path));
    const outputs = new Set(g.outputs);
    p.node = [];
    p.value_info = [];
    for (const n of this.topoOrder(g)) {
      p.node.push(this.nodeProto(n));
      for (const v of n.outputs) {
        const name = this.names.get(v);
        if (name && !outputs.has(v) && v.type !== null && v.type.kind !== 'unknown') p.value_info.push(this.valueInfo(v));
      }
    }
    p.output = g.outputs.map((v) => this.valueInfo(v));
    if (typeof g.meta['docString'] === 'string') p.doc_string = g.meta['docString'];
    if (g.meta['metadataProps']) p.metadata_props = kv(g.meta['metadataProps']);
    const qa = g.meta['quantizationAnnotation'];
    if (Array.isArray(qa)) p.quantization_annotation = (qa as Uint8Array[]).map((b) => decodeMessage(T.TensorAnnotation, b));
  }

  /** The graph's nodes, reordered only when they are not already in topological order. */
  private topoOrder(g: Graph): Node[] {
    const local = new Set(g.nodes);
    const done = new Set<Node>();
    let sorted = true;
    for (const n of g.nodes) {
      if (n.inputs.some((v) => v?.producer && local.has(v.producer) && !done.has(v.producer))) { sorted = false; break; }
      done.add(n);
    }
    if (sorted) return g.nodes;
    const indeg = new Map<Node, number>();
    const users = new Map<Node, Node[]>();
    for (const n of g.nodes) {
      const deps = new Set(n.inputs.map((v) => v?.producer).filter((p): p is Node => !!p && local.has(p)));
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

  private nodeProto(n: Node): NodeProto {
    const np: NodeProto = {
      input: n.inputs.slice(0, captureStart(n)).map((v) => this.nameOf(v)),
      output: n.outputs.map((v) => this.names.get(v) ?? ''),
      op_type: n.op,
    };
    // ONNX allows trailing absent inputs to be left out; keep them only when written so.
    if (n.name) np.name = n.name;
    if (n.domain) np.domain = n.domain;
    if (typeof n.meta['docString'] === 'string') np.doc_string = n.meta['docString'];
    if (typeof n.meta['overload'] === 'string') np.overload = n.meta['overload'];
    if (n.meta['metadataProps']) np.metadata_props = kv(n.meta['metadataProps']);
    const devs = n.meta['deviceConfigurations'];
    if (Array.isArray(devs)) np.device_configurations = (devs as Uint8Array[]).map((b) => decodeMessage(T.NodeDeviceConfigurationProto, b));
    const order = Array.isArray(n.meta['onnxAttrOrder']) ? n.meta['onnxAttrOrder'] : [];
    const names = [...new Set([...order, ...n.attrsView.keys(), ...n.bodies.keys()])];
    const docs = (n.meta['attrDocs'] ?? {}) as Record<string, string>;
    np.attribute = [];
    for (const name of names) {
      let a: AttributeProto | null = null;
      const body = n.bodies.get(name);
      const attr: Attr | undefined = n.attr(name);
      if (body) a = { name, type: AttrType.GRAPH, g: this.protoOf(body.graph) };
      else if (attr) {
        if (attr.type === 'tensor') a = { name, type: AttrType.TENSOR, t: this.tensor(attr.value, '', n.path) };
        else if (attr.type === 'tensors') a = { name, type: AttrType.TENSORS, tensors: attr.value.map((t) => this.tensor(t, '', n.path)) };
        else {
          const e = encodeAttr(name, attr);
          if (!e.proto) this.diags.add('ONNX_ENCODE', n.path, { detail: `attribute '${name}': ${e.problem}` });
          a = e.proto;
        }
      }
      if (!a) continue;
      if (docs[name]) a.doc_string = docs[name];
      np.attribute.push(a);
    }
    return np;
  }
}

function attrTensors(a: Attr): readonly Tensor[] {
  if (a.type === 'tensor') return [a.value];
  if (a.type === 'tensors') return a.value;
  return [];
}

