import type { DiagCode } from '../diag/codes.js';
import { Diagnostics, OvirError, type Diagnostic, type ParamsArg } from '../diag/diagnostic.js';
import type { Attr } from '../graph/attr.js';
import type { Body } from '../graph/body.js';
import { bodyPath, Graph } from '../graph/graph.js';
import { Model, type OnnxModelInfo } from '../graph/model.js';
import type { Node } from '../graph/node.js';
import type { Value } from '../graph/value.js';
import { decodeAttr } from './attrs.js';
import { bodyLayout } from './body-layout.js';
import { ExternalData } from './external.js';
import { FunctionInliner, modelNames } from './functions.js';
import type {
  FunctionProto, GraphProto, ModelProto, NodeProto, SparseTensorProto, StringStringEntryProto, TensorProto, TypeProto, ValueInfoProto,
} from './proto-types.js';
import { T } from './schema.js';
import { LazyGraph, readModel, WireError, type ModelRec, type NodeList } from './proto-read.js';
import { dependencyOrder } from './topo-order.js';
import { NEWEST_ONNX_IR_VERSION, NEWEST_ONNX_OPSET } from './versions.js';
import { decodeTensor, type TensorContext } from './tensor-data.js';
import { typeFromProto } from './value-type.js';
import { encodeMessage, has, int64, list, str } from './wire.js';

/*
 * What the decoder records besides the graph itself (and the encoder reads back):
 * - node.meta.onnxInputCount: number of the node's own ONNX inputs; inputs past it are captures
 *   (encoder default: 1 for If, all inputs for other ops). onnxAttrOrder, attrDocs, docString,
 *   overload, metadataProps, deviceConfigurations (encoded bytes).
 * - body parameter value.meta.onnxCapture = true: it stands for an outer value (bound to a
 *   capture input). Loop/Scan formal inputs are bound by position (see body-layout.ts).
 * - value.meta.onnxInitializerDefault: a graph input with an initializer (old-style default);
 *   the value is in graph.inputs and has `constant` set. onnxSparseInitializer: a sparse
 *   initializer (SparseTensorProto bytes), kept as a graph input. docString, metadataProps,
 *   tensorMetadataProps; onnxTypeProto (+ onnxTypeFor): the declared TypeProto when a ValueType
 *   cannot hold it exactly (opaque types, denotations), written back while the type is unchanged;
 *   declaredType: a value_info type declared for an initializer.
 * - graph.meta.onnxName (the GraphProto name; the root Graph is always named 'main' for paths),
 *   docString, metadataProps, quantizationAnnotation (bytes).
 * - model.onnx.passthrough: functions, training_info, configuration (encoded bytes).
 */

export interface DecodeOptions {
  /** Reported in diagnostics. */
  file?: string;
  /** Folder that external data locations are relative to (and confined to). */
  baseDir?: string;
  /** At most this many nodes made by inlining model-local functions (default 1,000,000: functions.ts). */
  maxInlinedNodes?: number;
}

/**
 * Decodes ONNX ModelProto bytes into a Model (dialect 'onnx'). Tensors in raw_data stay views of
 * `bytes`. Names are resolved through a scope stack: each read of an enclosing graph's value
 * becomes a capture input of the owning node plus a body input binding, on every graph between
 * the use and the definition. Unknown names, shadowing and reads before definition are reported
 * together (one OvirError). Iterative: nesting depth is bounded by memory, not the call stack.
 */
export function decodeOnnx(bytes: Uint8Array, opts: DecodeOptions = {}): Model {
  const diags = new Diagnostics();
  let model: Model;
  try {
    // graphs are read from the bytes as the decoder reaches them (proto-read.ts)
    model = decodeModelProto(readModel(bytes), opts, diags);
  } catch (e) {
    if (!(e instanceof WireError)) throw e;
    const bad = new Diagnostics();
    bad.add('ONNX_BAD_PROTOBUF', '', { what: `${bytes.byteLength} bytes`, reason: e.message });
    throw new OvirError(bad.list, opts.file);
  }
  diags.throwIfErrors(opts.file);
  // warnings (e.g. ONNX_NODE_ORDER) travel with the model, as the IR reader's do
  if (diags.list.length) model.graph.meta['diagnostics'] = diags.list;
  return model;
}

/** A domain as messages name it: '' is ai.onnx. */
const domainName = (domain: string): string => (domain === '' ? 'ai.onnx' : domain);

/**
 * Opset imports: a version is a positive integer (onnxruntime refuses others); an ai.onnx opset
 * past the newest whose schemas ovir has is read as that newest one, with a warning (OpenVINO's
 * frontend takes its newest translator for such a version the same way; onnxruntime refuses it).
 */
function checkOpsetImports(opsets: ReadonlyMap<string, number>, diags: Diagnostics): void {
  for (const [domain, version] of opsets) {
    const d = domainName(domain);
    if (!Number.isSafeInteger(version) || version < 1) diags.add('ONNX_OPSET_BAD', '', { domain: d, version: String(version) });
    else if (d === 'ai.onnx' && version > NEWEST_ONNX_OPSET) diags.add('ONNX_OPSET_NEWER', '', { version: String(version), newest: String(NEWEST_ONNX_OPSET) });
  }
}

const kv = (m: object | null | undefined, field = 'metadata_props'): [string, string][] =>
  list<StringStringEntryProto>(m, field).map((e) => [str(e, 'key'), str(e, 'value')]);

/** Model-level fields; the graph is decoded by GraphDecoder. Diagnostics are added, not thrown. */
export function decodeModelProto(mp: ModelProto | ModelRec, opts: DecodeOptions, diags: Diagnostics): Model {
  const opsets = new Map<string, number>();
  for (const o of list<object>(mp, 'opset_import')) opsets.set(str(o, 'domain'), Number(int64(o, 'version')));
  checkOpsetImports(opsets, diags);
  const irVersion = int64(mp, 'ir_version');
  // a newer IR version may mean fields ovir does not know (the protobuf reader skips them, as onnx's does)
  if (irVersion > NEWEST_ONNX_IR_VERSION) diags.add('ONNX_IR_VERSION_NEWER', '', { version: String(irVersion), newest: String(NEWEST_ONNX_IR_VERSION) });
  const info: OnnxModelInfo = {
    irVersion,
    opsetImports: opsets,
    producerName: str(mp, 'producer_name'),
    producerVersion: str(mp, 'producer_version'),
    domain: str(mp, 'domain'),
    modelVersion: int64(mp, 'model_version'),
    docString: str(mp, 'doc_string'),
    metadataProps: kv(mp),
    passthrough: {},
  };
  const carry = (field: string, type: typeof T.FunctionProto) => {
    const items = list<object>(mp, field);
    if (items.length) info.passthrough[field] = items.map((m) => encodeMessage(type, m));
  };
  carry('functions', T.FunctionProto);
  carry('training_info', T.TrainingInfoProto);
  carry('configuration', T.DeviceConfigurationProto);

  const model = new Model('onnx');
  model.onnx = info;
  if (!has(mp, 'graph')) {
    diags.add('ONNX_NO_GRAPH', '');
    return model;
  }
  // Read the nodes as written first: a graph in order (nearly every file) then needs no sorting
  // pass, no map of every name's producer. A read of a name some later node produces always ends
  // in an error there (unknown name, read before definition, or that node's output shadowing what
  // the read found outside), so a read without errors means the nodes were in order, and the model
  // is what the sorting decoder would build. Otherwise read again, sorting each graph first
  // (topo-order.ts): the same model and diagnostics as a decoder that always sorts.
  // The first read stops at its first error (StopAtError): a file out of order is then read about
  // once and a bit, not twice.
  // Model-local functions are inlined where they are called (functions.ts); each read inlines
  // afresh, so both reads make the same names.
  const functions = list<FunctionProto>(mp, 'functions');
  const names = functions.length ? modelNames(mp.graph as GraphProto) : null;
  const inliner = (d: Diagnostics) => (names ? new FunctionInliner(functions, new Set(names), d, opts.maxInlinedNodes) : null);
  const first = new StopAtError();
  try {
    new GraphDecoder(opsets, new ExternalData(opts.baseDir, first), first, false, inliner(first)).run(mp.graph as GraphProto, model.graph);
    if (!first.hasErrors()) {
      for (const d of first.list) diags.list.push(d); // (no spread: a list may be long)
      return model;
    }
  } catch (e) {
    if (e !== STOPPED) throw e;
  }
  model.graph = new Graph('main');
  new GraphDecoder(opsets, new ExternalData(opts.baseDir, diags), diags, true, inliner(diags)).run(mp.graph as GraphProto, model.graph);
  return model;
}

const STOPPED = new Error('the first read of the graphs stopped at an error');

/** Diagnostics of the first read (decodeModelProto): the first error stops it, throwing STOPPED. */
class StopAtError extends Diagnostics {
  override add<C extends DiagCode>(code: C, where: string, ...params: ParamsArg<C>): Diagnostic {
    const d = super.add(code, where, ...params);
    if (d.severity === 'error') throw STOPPED;
    return d;
  }

  override push(...ds: Diagnostic[]): void {
    super.push(...ds);
    if (ds.some((d) => d.severity === 'error')) throw STOPPED;
  }
}

/** One graph being decoded; frames form the scope stack. */
interface Frame {
  proto: GraphProto;
  graph: Graph;
  parent: Frame | null;
  /** The node owning this body (in parent.graph), its Body, and the layout of its bindings. */
  owner: Node | null;
  body: Body | null;
  /** Names defined so far in this graph (incl. capture parameters). */
  scope: Map<string, Value>;
  /** Every name some node of this graph defines (to tell "defined later" from "unknown"), made when first needed. */
  later: Set<string> | null;
  /** Declared types by name (inputs, outputs, value_info). */
  declared: Map<string, ValueInfoProto>;
  /** Outer value (a value of parent.graph) → its capture parameter here. */
  captures: Map<Value, Value>;
  next: number;
  /** The node whose bodies are being decoded, its output names, and the bodies still to do. */
  current: { node: Node; outputs: readonly string[]; pending: PendingBody[] } | null;
  /** graph.path, computed once. */
  path: string;
  /** The graph's nodes in the order they are read (as written, or in dependency order: see decodeModelProto). */
  nodes: NodeList;
}

/**
 * Where a diagnostic points: a path, or a node of the frame's graph (its path, `${fr.path}/${label}`,
 * made only when a diagnostic is: node.path would walk up the graphs each time).
 */
type Where = string | Node;
const at = (fr: Frame, w: Where): string => (typeof w === 'string' ? w : `${fr.path}/${w.label}`);

/** What a name is to a diagnostic: a text, input i (a number ≥ 0) or output i (-1 - i). */
type What = string | number;
const whatText = (w: What): string => (typeof w === 'string' ? w : w >= 0 ? `input ${w}` : `output ${-1 - w}`);

interface PendingBody { proto: GraphProto; graph: Graph; owner: Node; body: Body }

/** A string field as str() reads it. */
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const NO_ITEMS: readonly never[] = [];
/** A repeated field as list() reads it. */
const items = <V>(v: unknown): readonly V[] => (Array.isArray(v) ? (v as V[]) : NO_ITEMS);

/** Every name some node of the frame's graph defines (built once per frame, only for a diagnostic). */
function laterNames(fr: Frame): Set<string> {
  if (!fr.later) {
    fr.later = new Set();
    for (let i = 0; i < fr.nodes.length; i++) for (const o of list<string>(fr.nodes.at(i), 'output')) if (o) fr.later.add(o);
  }
  return fr.later;
}

/**
 * The domains of ONNX's own operator sets, whose ops' meaning depends on the opset imported (a node
 * of another domain without an import is left to the converter: its op has no conversion anyway).
 */
const STANDARD_DOMAINS: ReadonlySet<string> = new Set(['', 'ai.onnx', 'ai.onnx.ml']);

/**
 * Domains whose ops have one version (onnxruntime's com.microsoft contrib ops: since 1): a node of
 * one without an import is read at that version (ONNX_OPSET_ASSUMED), as onnxruntime runs such a
 * model (it imports the domain's version itself).
 */
const SINGLE_VERSION_DOMAINS: ReadonlyMap<string, number> = new Map([['com.microsoft', 1]]);

/** Per node with bodies: outer value → index of its capture input (shared by all bodies). */
const CAPTURE_INDEX = new WeakMap<Node, Map<Value, number>>();

class GraphDecoder {
  constructor(
    private readonly opsets: Map<string, number>,
    private readonly external: ExternalData,
    private readonly diags: Diagnostics,
    /** Whether each graph's nodes are put in dependency order before they are read (see decodeModelProto). */
    private readonly sortNodes: boolean,
    /** Inlines calls of model-local functions (null: the model has none). */
    private readonly inliner: FunctionInliner | null,
  ) {}

  run(root: GraphProto, graph: Graph): void {
    const stack: Frame[] = [this.open(root, graph, null, null, null)];
    while (stack.length) {
      const fr = stack[stack.length - 1]!;
      if (fr.current) {
        const child = fr.current.pending.shift();
        if (child) {
          stack.push(this.open(child.proto, child.graph, fr, child.owner, child.body));
          continue;
        }
        this.finishNode(fr);
        continue;
      }
      const nodes = fr.nodes;
      if (fr.next < nodes.length) {
        this.startNode(fr, nodes.at(fr.next)!);
        fr.next++;
        continue;
      }
      this.finishGraph(fr);
      stack.pop();
    }
  }

  /** One string per distinct op type, domain and version (each node would otherwise hold its own copy). */
  private readonly strings = new Map<string, string>();

  private intern(s: string): string {
    const k = this.strings.get(s);
    if (k !== undefined) return k;
    this.strings.set(s, s);
    return s;
  }

  private tctx(where: string): TensorContext {
    return { diags: this.diags, where, external: this.external };
  }

  /** Creates a frame and defines the graph's inputs and initializers. */
  private open(proto: GraphProto, graph: Graph, parent: Frame | null, owner: Node | null, body: Body | null): Frame {
    const fr: Frame = {
      proto, graph, parent, owner, body,
      scope: new Map(), later: null, declared: new Map(), captures: new Map(), next: 0, current: null,
      // from the parent's: graph.path walks up the nesting, which made decoding quadratic in depth (If nested 5,000 deep)
      path: parent ? bodyPath(parent.path, graph) : graph.path,
      // read one at a time when the graph is read from bytes (proto-read.ts), all at once to sort them
      nodes: proto instanceof LazyGraph && !this.sortNodes ? proto.nodeList : list<NodeProto>(proto, 'node'),
    };
    if (this.inliner) fr.nodes = this.inliner.expand(fr.nodes, proto, fr.path);
    const sorted = this.sortNodes ? dependencyOrder(fr.nodes as readonly NodeProto[]) : null;
    if (sorted) {
      this.diags.add('ONNX_NODE_ORDER', fr.path, { count: sorted.filter((n, i) => n !== fr.nodes.at(i)).length });
      fr.nodes = sorted;
    }
    graph.meta['onnxName'] = str(proto, 'name');
    if (str(proto, 'doc_string')) graph.meta['docString'] = str(proto, 'doc_string');
    if (list(proto, 'metadata_props').length) graph.meta['metadataProps'] = kv(proto);
    const annotations = list<object>(proto, 'quantization_annotation');
    if (annotations.length) graph.meta['quantizationAnnotation'] = annotations.map((a) => encodeMessage(T.TensorAnnotation, a));
    for (const vi of [...list<ValueInfoProto>(proto, 'input'), ...list<ValueInfoProto>(proto, 'output'), ...list<ValueInfoProto>(proto, 'value_info')]) {
      if (!fr.declared.has(str(vi, 'name'))) fr.declared.set(str(vi, 'name'), vi);
    }

    const inits = new Map<string, TensorProto>();
    for (const t of list<TensorProto>(proto, 'initializer')) {
      const name = str(t, 'name');
      if (inits.has(name)) this.diags.add('ONNX_DUPLICATE_NAME', fr.path, { what: 'initializer', name });
      else inits.set(name, t);
    }
    const layout = owner ? bodyLayout(owner.op, owner.domain, Number(owner.version)) : null;
    list<ValueInfoProto>(proto, 'input').forEach((vi, i) => {
      const name = str(vi, 'name');
      const v = graph.addInput(null, [name]);
      this.applyDeclared(fr, v, name);
      const init = inits.get(name);
      if (init) {
        inits.delete(name);
        v.constant = decodeTensor(init, this.tctx(fr.path));
        v.meta['onnxInitializerDefault'] = true;
        this.tensorMeta(v, init);
      }
      this.define(fr, name, v, 'graph input', fr.path, true);
      if (owner && body && layout?.formalInputs) {
        // only the node's own inputs: an earlier sibling body may already have appended captures
        const own = owner.metaView['onnxInputCount'] ?? 0;
        const from = layout.inputOffset + i;
        if (from < own && owner.inputs[from]) body.inputs.push({ param: v, from });
      }
    });
    for (const [name, t] of inits) {
      const tensor = decodeTensor(t, this.tctx(fr.path));
      const v = tensor
        ? graph.addInitializer(tensor, [name])
        : graph.addInitializer({ elem: 'u8', dims: [0], data: new Uint8Array(0) }, [name]);
      this.tensorMeta(v, t);
      if (fr.declared.has(name)) this.applyDeclared(fr, v, name, true);
      this.define(fr, name, v, 'initializer');
    }
    for (const sp of list<SparseTensorProto>(proto, 'sparse_initializer')) {
      const name = str(sp.values, 'name');
      const v = graph.addInput(null, [name]);
      v.meta['onnxSparseInitializer'] = encodeMessage(T.SparseTensorProto, sp);
      this.applyDeclared(fr, v, name);
      this.define(fr, name, v, 'sparse initializer');
    }
    return fr;
  }

  private tensorMeta(v: Value, t: TensorProto): void {
    if (str(t, 'doc_string')) v.meta['docString'] = str(t, 'doc_string');
    if (list(t, 'metadata_props').length) v.meta['tensorMetadataProps'] = kv(t);
  }

  /** Sets the declared type (graph input/output/value_info) and its doc_string/metadata. */
  private applyDeclared(fr: Frame, v: Value, name: string, keepConstType = false): void {
    const vi = fr.declared.get(name);
    if (!vi) return;
    if (text(vi.doc_string)) v.meta['docString'] = text(vi.doc_string);
    if (items(vi.metadata_props).length) v.meta['metadataProps'] = kv(vi);
    if (vi.type == null) return;
    const d = typeFromProto(vi.type as TypeProto, `value '${name}'`, fr.path, this.diags);
    if (!keepConstType) v.type = d.type;
    else v.meta['declaredType'] = d.type;
    if (!d.lossless) {
      v.meta['onnxTypeProto'] = encodeMessage(T.TypeProto, vi.type as object);
      v.meta['onnxTypeFor'] = keepConstType ? v.meta['declaredType'] : d.type;
    }
  }

  /**
   * Records a definition, reporting duplicates in this graph and shadowing of visible outer names
   * by node outputs and initializers. A body's declared inputs may reuse outer names (onnx.checker
   * allows it; inside the body the name then means the input).
   */
  private define(fr: Frame, name: string, v: Value, what: What, where: Where = fr.path, mayShadow = false): void {
    if (name === '') return;
    const prev = fr.scope.get(name);
    if (prev && !prev.metaView['onnxCapture']) {
      this.diags.add('ONNX_DUPLICATE_NAME', at(fr, where), { what: whatText(what), name });
      return;
    }
    for (let a = prev ? fr : fr.parent; a && !mayShadow; a = a.parent) {
      if (a.scope.has(name)) {
        const o = a.scope.get(name)!;
        const outer = o.metaView['onnxCapture'] ? this.origin(a, o) : a.path;
        this.diags.add('ONNX_SHADOWING', at(fr, where), { what: whatText(what), name, outer });
        return;
      }
    }
    fr.scope.set(name, v);
  }

  /** Path of the graph that really defines a captured value. */
  private origin(fr: Frame, v: Value): string {
    let a: Frame | null = fr;
    let cur = v;
    while (a && cur.metaView['onnxCapture']) {
      const parentValue: Value | undefined = [...a.captures].find(([, p]) => p === cur)?.[0];
      if (!parentValue || !a.parent) break;
      cur = parentValue;
      a = a.parent;
    }
    return a ? a.path : '?';
  }

  /**
   * The value `name` denotes in frame `fr`: local, or an outer value threaded in as a capture
   * through every graph between. null (with a diagnostic) when unknown or not yet defined.
   */
  private resolve(fr: Frame, name: string, what: What, where: Where): Value | null {
    const local = fr.scope.get(name);
    if (local) return local;
    const chain: Frame[] = [fr];
    let a = fr.parent;
    while (a && !a.scope.has(name)) {
      chain.push(a);
      a = a.parent;
    }
    if (!a) {
      const definer = chain.find((c) => laterNames(c).has(name));
      if (definer) this.diags.add('ONNX_USE_BEFORE_DEF', at(fr, where), { what: whatText(what), name, definedIn: definer.path });
      else this.diags.add('ONNX_UNKNOWN_NAME', at(fr, where), { what: whatText(what), name });
      return null;
    }
    let outer = a.scope.get(name)!;
    for (let i = chain.length - 1; i >= 0; i--) {
      const c = chain[i]!;
      let param = c.captures.get(outer);
      if (!param) {
        const node = c.owner!;
        let index = CAPTURE_INDEX.get(node);
        if (!index) CAPTURE_INDEX.set(node, (index = new Map()));
        let k = index.get(outer);
        if (k === undefined) {
          k = node.addInput(outer);
          index.set(outer, k);
        }
        param = c.graph.addInput(outer.type, [name]);
        param.meta['onnxCapture'] = true;
        c.body!.inputs.push({ param, from: k });
        c.captures.set(outer, param);
        c.scope.set(name, param);
      }
      outer = param;
    }
    return outer;
  }

  /*
   * Hot path (once per node): a node without attributes or bodies allocates nothing beyond its
   * Node, its output Values and their names; diagnostic texts (the node's path, "input 2") are made
   * only when a diagnostic is (`Where`, `What`).
   */
  private startNode(fr: Frame, np: NodeProto): void {
    // fields read by name, not through str()/list(): a keyed read with a variable field name is
    // megamorphic (slow) on this path; the values are as str()/list() would give them
    const domain = this.intern(text(np.domain));
    const op = this.intern(text(np.op_type));
    let opset = this.inliner?.opsetOf(np, domain) ?? this.opsets.get(domain === 'ai.onnx' ? '' : domain) ?? this.opsets.get(domain);
    const assumed = opset === undefined ? SINGLE_VERSION_DOMAINS.get(domain) : undefined;
    if (assumed !== undefined) opset = assumed;
    const version = this.intern(opset === undefined ? '' : String(opset));
    // the node's ordinal is its index in the order read: its path is `${fr.path}/${node.label}` (at())
    const node = fr.graph.addNode({ dialect: 'onnx', op, domain, version, name: text(np.name) });
    if (opset === undefined && STANDARD_DOMAINS.has(domain)) this.missingOpset(fr, node, domain);
    if (assumed !== undefined) this.assumedOpset(fr, node, domain, assumed);
    if (text(np.doc_string)) node.meta['docString'] = text(np.doc_string);
    if (text(np.overload)) node.meta['overload'] = text(np.overload);
    if (items(np.metadata_props).length) node.meta['metadataProps'] = kv(np);
    const devs = items<object>(np.device_configurations);
    if (devs.length) node.meta['deviceConfigurations'] = devs.map((d) => encodeMessage(T.NodeDeviceConfigurationProto, d));

    const inputs = items<string>(np.input);
    for (let i = 0; i < inputs.length; i++) {
      const name = inputs[i]!;
      node.addInput(name === '' ? null : this.resolve(fr, name, i, node));
    }
    const outputs = items<string>(np.output);
    for (const name of outputs) node.addOutput(null, [name]);

    const attributes = items<object>(np.attribute);
    // captures are appended only to nodes with bodies (attributes): without any, every input is
    // the node's own, which is what the encoder assumes when the count is absent (captureStart)
    if (attributes.length || op === 'If') node.meta['onnxInputCount'] = inputs.length;
    if (!attributes.length) {
      this.defineOutputs(fr, node, outputs);
      return;
    }
    const pending: PendingBody[] = [];
    const attrOrder: string[] = [];
    const attrDocs: Record<string, string> = {};
    const layout = bodyLayout(op, domain, opset ?? 0);
    const where = at(fr, node);
    for (const ap of attributes) {
      const an = str(ap, 'name');
      if (attrOrder.includes(an)) {
        // which one a runtime would take is not defined: neither is chosen silently
        this.diags.add('ONNX_BAD_ATTR', where, { attr: an, detail: 'given more than once on this node (onnx.checker and onnxruntime refuse the model)' });
        continue;
      }
      attrOrder.push(an);
      if (str(ap, 'doc_string')) attrDocs[an] = str(ap, 'doc_string');
      const d = decodeAttr(ap, this.tctx(where));
      if (d.kind === 'attr') node.attrs.set(an, d.attr as Attr);
      else if (d.kind === 'graph') {
        const body = fr.graph.addBody(node, an);
        const gp = d.graph;
        const nOut = list(gp, 'output').length;
        for (let j = layout.outputOffset; j < nOut && j - layout.outputOffset < node.outputs.length; j++) {
          body.outputs.push({ result: j, to: j - layout.outputOffset });
        }
        pending.push({ proto: gp, graph: body.graph, owner: node, body });
      }
    }
    node.meta['onnxAttrOrder'] = attrOrder;
    if (Object.keys(attrDocs).length) node.meta['attrDocs'] = attrDocs;
    if (!pending.length) {
      this.defineOutputs(fr, node, outputs);
      return;
    }
    fr.current = { node, outputs, pending };
  }

  /** Domains used by a node without an opset import, each reported once (at its first node). */
  private readonly unimported = new Set<string>();

  private missingOpset(fr: Frame, node: Node, domain: string): void {
    const d = domainName(domain);
    if (this.unimported.has(d)) return;
    this.unimported.add(d);
    this.diags.add('ONNX_OPSET_MISSING', at(fr, node), { domain: d });
  }

  private assumedOpset(fr: Frame, node: Node, domain: string, version: number): void {
    if (this.unimported.has(domain)) return;
    this.unimported.add(domain);
    this.diags.add('ONNX_OPSET_ASSUMED', at(fr, node), { domain, version: String(version) });
  }

  /** Defines a node's outputs once its bodies are decoded (its own bodies must not see them). */
  private finishNode(fr: Frame): void {
    const { node, outputs } = fr.current!;
    fr.current = null;
    this.defineOutputs(fr, node, outputs);
  }

  private defineOutputs(fr: Frame, node: Node, outputs: readonly string[]): void {
    for (let i = 0; i < outputs.length; i++) {
      const name = outputs[i]!;
      const v = node.outputs[i]!;
      this.applyDeclared(fr, v, name);
      this.define(fr, name, v, -1 - i, node);
    }
  }

  private finishGraph(fr: Frame): void {
    for (const vi of list<ValueInfoProto>(fr.proto, 'output')) {
      const name = str(vi, 'name');
      const v = this.resolve(fr, name, 'graph output', fr.path);
      if (!v) continue;
      fr.graph.outputs.push(v);
      if (v.type === null && has(vi, 'type')) {
        v.type = typeFromProto(vi.type as TypeProto, `graph output '${name}'`, fr.path, this.diags).type;
      }
    }
  }
}

