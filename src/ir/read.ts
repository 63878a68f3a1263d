import type { FileBytes } from '../fs/sparse-file.js';
import type { Meta } from '../graph/meta.js';
import type { Attr } from '../graph/attr.js';
import { IR_BODY_ELEMENTS, irBodyKind } from '../graph/body-kinds.js';
import { A } from '../graph/attr.js';
import type { Body } from '../graph/body.js';
import { fromIrElementType, fromIrPrecision } from '../graph/element-type.js';
import { bodyPath, type Graph } from '../graph/graph.js';
import { Model } from '../graph/model.js';
import type { Node } from '../graph/node.js';
import type { Dim } from '../graph/shape.js';
import { tensorType, type TensorType, type ValueType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import { Diagnostics } from '../diag/diagnostic.js';
import type { DiagCode, DiagParams } from '../diag/codes.js';
import { parseAttr } from './attr-format.js';
import { attrKind } from './attr-schema.js';
import { constFromBin } from './blob.js';
import { canonicalOp } from './op-names.js';
import { splitPortNames } from './port-names.js';
import { hasHugeDim, parseShapeText } from './shape-text.js';
import { IrSink, type DimText, type IdKey, type IdText, type IrEdges, type IrGraph, type IrLayer, type IrPorts } from './read-events.js';
import { child, childrenOf, scanXml, setOwn, type XNode } from './xml-tree.js';

export interface ReadIrOptions {
  /** File name for diagnostics. */
  file?: string;
  /** Path of the .bin, for the message when it is missing. */
  binPath?: string;
}

/** Layer children the reader interprets; any other child element is kept raw in meta.irChildren. */
const KNOWN_CHILDREN = new Set(['data', 'input', 'output', 'rt_info', ...IR_BODY_ELEMENTS]);

const CANONICAL = /^(0|[1-9]\d{0,8})$/;
const keyOf = (id: number | string): IdKey => {
  if (typeof id === 'number') return id;
  const t = id.trim();
  return CANONICAL.test(t) ? Number(t) : t;
};
/** An id's trimmed text, for messages and for the ids kept in meta. */
const trimmed = (id: IdText): string | undefined => (id === undefined ? undefined : typeof id === 'number' ? String(id) : id.trim());
const badDim = (d: string): string => `dim '${d}' must be an integer ≥ -1`;
const badPrecision = (p: string): string => `unknown precision '${p}' (OpenVINO reads an element type's name as it writes it: FP32 or f32, I64 or i64, BOOL or boolean, …)`;

/** An id as written, for messages. */
const written = (id: IdText): string | undefined => (id === undefined ? undefined : String(id));

/** A layer being read (IrLayer: the file's record, completed by the reader). */
type Layer = IrLayer;

/** Where a layer that could not be read is (a message's place; no closure per layer to build it). */
const layerWhere = (gpath: string, L: IrLayer, index: number): string =>
  `${gpath}/${L.name || `${L.type ?? 'layer'}#${written(L.id) ?? index}`}`;

/** Whether every port id (inputs, then outputs) is a number greater than the one before: no id is bad or repeated. */
function regularPorts(ports: IrPorts, inStart: number, nIn: number, outStart: number, nOut: number): boolean {
  let prev = -1;
  for (let k = 0; k < nIn; k++) {
    const id = ports.idNumber(inStart + k);
    if (id <= prev) return false;
    prev = id;
  }
  for (let k = 0; k < nOut; k++) {
    const id = ports.idNumber(outStart + k);
    if (id <= prev) return false;
    prev = id;
  }
  return true;
}

/** A body waiting to be read: its element, the Body it fills, and the port map that binds it. */
interface BodyTask {
  readonly el: IrGraph;
  readonly body: Body;
  readonly node: Node;
  readonly layerPath: string;
  /** The body graph's path (body.graph.path, made from its owner's in O(1): see bodyPath). */
  readonly graphPath: string;
  readonly mapName: string;
  readonly portMap: XNode | undefined;
  readonly backEdges: XNode | undefined;
  readonly kind: 'if' | 'loop';
}

/** What a read graph tells its owner: body layer id → Parameter value / Result index. */
interface GraphIndex {
  readonly params: Map<string, Value>;
  readonly results: Map<string, number>;
  /** The op of the layer with this (trimmed) id, for messages. */
  readonly typeOf: (id: string) => string | undefined;
}

/** An edge as messages name it: `3 (1:2 → 4:0)`. */
const edgeLabel = (e: IrEdges, k: number): string =>
  `${k} (${trimmed(e.fromLayer[k])}:${trimmed(e.fromPort[k])} → ${trimmed(e.toLayer[k])}:${trimmed(e.toPort[k])})`;

const isInt = (s: string | undefined): s is string => s !== undefined && /^[+-]?\d+$/.test(s.trim());

/** Memo of a lookup by a short string the file repeats (op types, precisions): one call per distinct spelling. */
function memo<T>(f: (s: string) => T): (s: string) => T {
  const cache = new Map<string, T>();
  return (s) => {
    let v = cache.get(s);
    if (v === undefined && !cache.has(s)) {
      v = f(s);
      if (cache.size < 4096) cache.set(s, v);
    }
    return v as T;
  };
}
const canonicalOpOf = memo(canonicalOp);
const precisionOf = memo(fromIrPrecision);

/**
 * A `<dim>` that is not a canonical unsigned decimal, read as OpenVINO reads it (`ss >> int64_t`,
 * then `dim >= -1`): leading white space skipped, an optional sign, decimal digits, whatever
 * follows ignored ("2abc" is 2, "1..10" is 1: OpenVINO reads no intervals or '?' in <dim>), within
 * int64. -1 is dynamic (null); undefined when OpenVINO refuses it ('abc', '?', '', '-2').
 */
export function dimOf(text: string): number | null | undefined {
  const m = DIM_PREFIX.exec(text);
  if (!m) return undefined;
  const digits = m[2]!;
  const negative = m[1] === '-';
  if (digits.length > 18 && (negative ? -BigInt(digits) < INT64_MIN : BigInt(digits) > INT64_MAX)) return undefined;
  const v = negative ? -Number(digits) : Number(digits);
  return v === -1 ? null : v < -1 ? undefined : v === 0 ? 0 : v;
}
// (C-locale isspace: space, \t, \n, \v, \f, \r)
const DIM_PREFIX = /^[ \t\n\v\f\r]*([+-]?)(\d+)/;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/**
 * Reads OpenVINO IR (v10 or v11) into the ov dialect. Every layer and attribute is kept; Const data
 * are views into `bin`. All problems are collected and thrown as one OvirError (warnings that do
 * not stop reading are left in `model.graph.meta.diagnostics`). Iterative throughout: bodies are
 * read from a work list, so nesting depth is not limited by the stack.
 */
export function readIr(xml: string | Uint8Array, bin: FileBytes | null, opts: ReadIrOptions = {}): Model {
  const diags = new Diagnostics();
  const sink = new IrSink();
  const parsed = scanXml(xml, sink);
  if (!parsed.ok) {
    if (parsed.reason === 'doctype') diags.add('IR_DOCTYPE', '');
    else diags.add('IR_XML_MALFORMED', '', { detail: parsed.detail });
    diags.throwIfErrors(opts.file);
  }
  const root = sink.root!;
  if (root.xml.tag !== 'net') {
    diags.add('IR_NOT_NET', '', { tag: root.xml.tag });
    diags.throwIfErrors(opts.file);
  }
  const version = root.xml.attrs['version'];
  if (version !== '10' && version !== '11') {
    diags.add('IR_VERSION', '', { version: version ?? '(none)' });
    diags.throwIfErrors(opts.file);
  }
  const model = new Model('ov');
  model.ir = { name: root.xml.attrs['name'] ?? '', version: Number(version) as 10 | 11, rtInfo: child(root.xml, 'rt_info') ?? null };
  const reader = new Reader(diags, bin, opts.binPath, sink.ports);
  const tasks: BodyTask[] = [];
  reader.readGraph(root, model.graph, tasks);
  const ifOutputs = new Map<Node, Map<string, number[]>>();
  for (let i = 0; i < tasks.length; i++) {
    const t = tasks[i]!;
    const index = reader.readGraph(t.el, t.body.graph, tasks, t.graphPath);
    if (!index) continue;
    const covered = reader.bind(t, index);
    if (t.kind === 'if' && covered) {
      let m = ifOutputs.get(t.node);
      if (!m) ifOutputs.set(t.node, (m = new Map()));
      m.set(t.mapName, covered);
    }
  }
  for (const [node, maps] of ifOutputs) {
    const th = maps.get('then_port_map');
    const el = maps.get('else_port_map');
    if (th && el && th.join(',') !== el.join(',')) {
      diags.add('IR_PORTMAP_OUTPUTS_DIFFER', node.path, { then: th.join(',') || 'none', else: el.join(',') || 'none' });
    }
  }
  diags.throwIfErrors(opts.file);
  if (diags.list.length) model.graph.meta['diagnostics'] = diags.list;
  return model;
}

/** `<data>` attributes a Parameter and a Const are read from (any other is carried as irExtraData). */
const PARAMETER_DATA = ['shape', 'element_type'];
const CONST_DATA = ['element_type', 'shape', 'offset', 'size'];

/** How many recent output types a port's type is looked for among (Reader.portType). */
const RECENT_TYPES = 4;

/** A typed array of at least `n` elements: `a` itself when long enough, else a new one twice as long. */
function atLeast<T extends Int32Array | Uint8Array>(a: T, n: number, make: (n: number) => T): T {
  return a.length >= n ? a : make(Math.max(n, 2 * a.length));
}

class Reader {
  /**
   * Scratch columns of the graph being read (input sources, and the topological sort's state and
   * stack), reused from graph to graph: graphs are read one at a time (bodies from the work list),
   * and a net of many small bodies would otherwise allocate five typed arrays per body (each a
   * backing store of its own; 20k for ifs2000's 4000 bodies).
   */
  private srcLayerBuf = new Int32Array(64);
  private srcOutBuf = new Int32Array(64);
  private stateBuf = new Uint8Array(64);
  private stackAtBuf = new Int32Array(64);
  private stackNextBuf = new Int32Array(64);
  /** The last RECENT_TYPES types made for ports, with the dims list each was made from (a ring). */
  private readonly recentTypes: ({ readonly dims: readonly DimText[]; readonly type: TensorType } | undefined)[] = new Array(RECENT_TYPES).fill(undefined);
  private recentNext = 0;
  /** The last dims list checkPorts found valid (ports of a net mostly share their lists). */
  private dimsChecked: readonly DimText[] | undefined;
  /** The last RECENT_TYPES Parameter types made, with the texts each was parsed from (a ring). */
  private readonly recentParamTypes: ({ readonly shape: string; readonly elem: string; readonly type: TensorType } | undefined)[] = new Array(RECENT_TYPES).fill(undefined);
  private recentParamNext = 0;

  constructor(readonly diags: Diagnostics, readonly bin: FileBytes | null, readonly binPath: string | undefined, readonly ports: IrPorts) {}

  private err(code: DiagCode, where: string, params: DiagParams = {}): void {
    this.diags.add(code, where, params);
  }

  /** Reads one `<net>` or body element into `graph`; returns undefined when its structure is broken. */
  readGraph(el: IrGraph, graph: Graph, tasks: BodyTask[], gpath = graph.path): GraphIndex | undefined {
    const before = this.diags.errors.length;
    const rt = child(el.xml, 'rt_info');
    if (rt && graph.owner) graph.meta['irRtInfo'] = rt;
    const list: Layer[] = [];
    // Layers by id: while every id is its layer's position (as the serializer writes them) the list
    // is the index; the first id that is not makes a map of them.
    let byId: Map<IdKey, Layer> | undefined;
    const find = (key: IdKey): Layer | undefined => (byId ? byId.get(key) : typeof key === 'number' ? list[key] : undefined);
    const recs = el.layers ?? [];
    // The element's layers are read once: what is kept from here on is the graph.
    el.layers = undefined;
    let nIn = 0;
    for (let index = 0; index < recs.length; index++) {
      const L = recs[index]!;
      const id = L.id;
      const type = L.type;
      // OpenVINO 2026.4 reads a layer id as an unsigned integer: "-2" it refuses (measured)
      if (id === undefined || (typeof id === 'string' && (!isInt(id) || id.trim().startsWith('-')))) {
        this.err('IR_LAYER_BAD', layerWhere(gpath, L, index), { layer: index, detail: `id '${id ?? ''}' is not an unsigned integer` });
        continue;
      }
      const key = keyOf(id);
      if (find(key)) {
        this.err('IR_LAYER_BAD', layerWhere(gpath, L, index), { layer: written(id)!, detail: 'duplicate layer id' });
        continue;
      }
      if (!type) {
        this.err('IR_LAYER_BAD', layerWhere(gpath, L, index), { layer: written(id)!, detail: 'no type' });
        continue;
      }
      L.gpath = gpath;
      L.key = key;
      L.op = canonicalOpOf(type);
      // Parameter, Const and Result become graph inputs, initializers and outputs, no op whose
      // version a mapping checks: the version is checked here, as OpenVINO 2026.4 reads it
      // (measured: Parameter in opset1…opset17, Const and Result in opset1…opset16; a missing,
      // empty or other version — opset0, opset18, 'opset1 ' — refused).
      const last = L.op === 'Parameter' ? 17 : L.op === 'Constant' || L.op === 'Result' ? 16 : 0;
      if (last) {
        const m = /^opset([1-9]\d*)$/.exec(L.version ?? '');
        if (!m || Number(m[1]) > last) {
          this.err('IR_LAYER_BAD', layerWhere(gpath, L, index), { layer: written(id)!, detail: `version '${L.version ?? ''}' is no opset that has ${type} (opset1 to opset${last})` });
        }
      }
      L.at = list.length;
      L.inBase = nIn;
      nIn += L.inCount;
      if (!regularPorts(this.ports, L.inStart, L.inCount, L.outStart, L.outCount)) this.portIndex(L);
      if (!byId && key !== list.length) byId = new Map(list.map((l) => [l.key, l]));
      byId?.set(key, L);
      list.push(L);
    }

    // The source of every input port: layer position and output position, -1 while it has none.
    const srcLayer = (this.srcLayerBuf = atLeast(this.srcLayerBuf, nIn, (k) => new Int32Array(k)));
    const srcOut = (this.srcOutBuf = atLeast(this.srcOutBuf, nIn, (k) => new Int32Array(k)));
    srcLayer.fill(-1, 0, nIn);
    const edges = el.edges;
    el.edges = undefined;
    const nEdges = edges ? edges.fromLayer.length : 0;
    for (let k = 0; k < nEdges; k++) this.edge(edges!, k, gpath, find, srcLayer, srcOut);
    for (let i = 0; i < list.length; i++) {
      const L = list[i]!;
      for (let k = 0; k < L.inCount; k++) {
        if (srcLayer[L.inBase + k]! < 0) this.err('IR_EDGE_MISSING', L.path, { layer: L.name, port: written(this.ports.id(L.inStart + k)) ?? k });
      }
    }
    if (this.diags.errors.length > before) return undefined;

    const order = this.topoOrder(list, srcLayer);
    if (!order) return undefined;
    return this.build(list, order, srcLayer, srcOut, graph, tasks);
  }

  /** Ports by id for a layer whose port ids are irregular; reports ids that are no integer or repeated. */
  private portIndex(L: Layer): void {
    const inPos = (L.inPos = new Map<IdKey, number>());
    const outPos = (L.outPos = new Map<IdKey, number>());
    for (const [start, n, pos] of [[L.inStart, L.inCount, inPos], [L.outStart, L.outCount, outPos]] as const) {
      for (let k = 0; k < n; k++) {
        const pid = this.ports.id(start + k);
        if (pid === undefined || (typeof pid === 'string' && !isInt(pid))) {
          this.err('IR_PORT_BAD', L.path, { layer: L.name, port: k, detail: `port id '${pid ?? ''}' is not an integer` });
          continue;
        }
        const key = keyOf(pid);
        if (inPos.has(key) || outPos.has(key)) this.err('IR_PORT_BAD', L.path, { layer: L.name, port: written(pid)!, detail: 'duplicate port id' });
        else pos.set(key, k);
      }
    }
  }

  /** Edge `k` of a graph: checks it and records it as the source of its input port. */
  private edge(edges: IrEdges, k: number, gpath: string, find: (key: IdKey) => Layer | undefined, srcLayer: Int32Array, srcOut: Int32Array): void {
    const fl = edges.fromLayer[k];
    const fp = edges.fromPort[k];
    const tl = edges.toLayer[k];
    const tp = edges.toPort[k];
    const from = fl === undefined ? undefined : find(keyOf(fl));
    const to = tl === undefined ? undefined : find(keyOf(tl));
    if (!from || !to) return this.err('IR_EDGE_BAD', gpath, { edge: edgeLabel(edges, k), detail: `layer ${trimmed(!from ? fl : tl)} does not exist` });
    const out = fp === undefined ? undefined : from.outputAt(keyOf(fp));
    if (out === undefined) return this.err('IR_EDGE_BAD', gpath, { edge: edgeLabel(edges, k), detail: `layer '${from.name}' has no output port ${trimmed(fp)}` });
    const inp = tp === undefined ? undefined : to.inputAt(keyOf(tp));
    if (inp === undefined) return this.err('IR_EDGE_BAD', gpath, { edge: edgeLabel(edges, k), detail: `layer '${to.name}' has no input port ${trimmed(tp)}` });
    const slot = to.inBase + inp;
    if (srcLayer[slot]! >= 0) return this.err('IR_EDGE_TWICE', to.path, { layer: to.name, port: trimmed(tp)! });
    srcLayer[slot] = from.at;
    srcOut[slot] = out;
  }

  /**
   * Post-order DFS from every layer in XML order, iterative (explicit stack of layer positions and
   * next-input counters in typed arrays: no object per step); reports a cycle.
   */
  private topoOrder(list: Layer[], srcLayer: Int32Array): Layer[] | undefined {
    const n = list.length;
    const state = (this.stateBuf = atLeast(this.stateBuf, n, (k) => new Uint8Array(k))); // 0 unseen, 1 on the stack, 2 done
    const stackAt = (this.stackAtBuf = atLeast(this.stackAtBuf, n, (k) => new Int32Array(k)));
    const stackNext = (this.stackNextBuf = atLeast(this.stackNextBuf, n, (k) => new Int32Array(k)));
    state.fill(0, 0, n);
    const order: Layer[] = [];
    for (let start = 0; start < n; start++) {
      if (state[start]) continue;
      let sp = 0;
      stackAt[0] = start;
      stackNext[0] = 0;
      state[start] = 1;
      while (sp >= 0) {
        const L = list[stackAt[sp]!]!;
        const next = stackNext[sp]!;
        if (next < L.inCount) {
          stackNext[sp] = next + 1;
          const dep = srcLayer[L.inBase + next]!;
          const s = state[dep];
          if (s === 1) {
            const D = list[dep]!;
            this.err('IR_CYCLE', D.path, { layer: D.name || String(D.key) });
            return undefined;
          }
          if (s === 0) {
            state[dep] = 1;
            sp++;
            stackAt[sp] = dep;
            stackNext[sp] = 0;
          }
        } else {
          state[L.at] = 2;
          order.push(L);
          sp--;
        }
      }
    }
    return order;
  }

  /** The type of output k of L (its row p of the ports table). */
  private portType(L: Layer, p: number, k: number): ValueType | null {
    const P = this.ports;
    const prec = P.precision[p];
    if (prec === undefined) {
      this.err('IR_PORT_BAD', L.path, { layer: L.name, port: written(P.id(p)) ?? k, detail: 'output port has no precision' });
      return null;
    }
    const t = precisionOf(prec);
    if (!t) {
      this.err('IR_PORT_BAD', L.path, { layer: L.name, port: written(P.id(p)) ?? k, detail: badPrecision(prec) });
      return null;
    }
    // Ports sharing a dims list (IrSink.dimsList) and an element type share one type object (types
    // are read-only): one of the last RECENT_TYPES made, else a new one.
    const dimTexts = P.dims[p]!;
    const elem = t.name;
    const rt = this.recentTypes;
    for (let r = 0; r < RECENT_TYPES; r++) {
      const known = rt[r];
      if (known !== undefined && known.dims === dimTexts && known.type.elem === elem) return known.type;
    }
    // Exact size: the shape is kept in the graph (a pushed-to array would hold 16 slots).
    const dims: Dim[] = new Array<Dim>(dimTexts.length);
    for (let i = 0; i < dimTexts.length; i++) {
      const d = dimTexts[i]!;
      if (typeof d === 'number') {
        dims[i] = d;
        continue;
      }
      const v = dimOf(d);
      if (v === undefined) {
        this.err('IR_PORT_BAD', L.path, { layer: L.name, port: written(P.id(p)) ?? k, detail: badDim(d) });
        return null;
      }
      dims[i] = v;
    }
    const type = tensorType(elem, dims);
    rt[this.recentNext] = { dims: dimTexts, type };
    this.recentNext = (this.recentNext + 1) % RECENT_TYPES;
    return type;
  }

  /**
   * What OpenVINO checks of the ports whose types portType does not read: every input port's dims
   * (as dimOf reads them), and the precision and dims of the outputs of Parameter and Const (their
   * types are read from <data>). Input ports' precision OpenVINO never reads, nor does this.
   */
  private checkPorts(L: Layer): void {
    const P = this.ports;
    // (dims written as canonical numbers, nearly all, are valid: the ports are looked at only when some are not)
    const textDims = P.textDims > 0;
    if (textDims) for (let k = 0; k < L.inCount; k++) this.checkDims(L, L.inStart + k, k);
    if (L.op !== 'Parameter' && L.op !== 'Constant') return;
    for (let k = 0; k < L.outCount; k++) {
      const p = L.outStart + k;
      const prec = P.precision[p];
      if (prec === undefined) this.err('IR_PORT_BAD', L.path, { layer: L.name, port: written(P.id(p)) ?? k, detail: 'output port has no precision' });
      else if (!precisionOf(prec)) this.err('IR_PORT_BAD', L.path, { layer: L.name, port: written(P.id(p)) ?? k, detail: badPrecision(prec) });
      if (textDims) this.checkDims(L, p, k);
    }
  }

  /** Reports port row p's first dim OpenVINO refuses. Lists of numbers only (canonical dims, nearly all) are valid. */
  private checkDims(L: Layer, p: number, k: number): void {
    const dims = this.ports.dims[p]!;
    if (dims === this.dimsChecked) return;
    for (let i = 0; i < dims.length; i++) {
      const d = dims[i]!;
      if (typeof d !== 'number' && dimOf(d) === undefined) {
        this.err('IR_PORT_BAD', L.path, { layer: L.name, port: written(this.ports.id(p)) ?? k, detail: badDim(d) });
        return;
      }
    }
    this.dimsChecked = dims;
  }

  /** Layer-level details: spelling, extra layer attributes, rt_info (under `rtKey`), unknown children. */
  private carryLayerMeta(L: Layer, meta: Meta, rtKey: 'irRtInfo' | 'irLayerRtInfo' = 'irRtInfo'): void {
    meta['irType'] = L.type;
    // The record is read once: its attribute object becomes the meta's.
    if (L.extra) meta['irLayerAttrs'] = L.extra;
    const children = L.children;
    if (children) {
      const rt = L.child('rt_info');
      if (rt) meta[rtKey] = rt;
      const others = children.filter((c) => !KNOWN_CHILDREN.has(c.tag));
      if (others.length) meta['irChildren'] = others;
    }
    const rt = this.ports.rt;
    if (rt) {
      let any = false;
      for (let k = 0; k < L.inCount; k++) if (rt.get(L.inStart + k)) any = true;
      if (any) meta['irInputRtInfo'] = Array.from({ length: L.inCount }, (_, k) => rt.get(L.inStart + k));
    }
  }

  private dataAttr(L: Layer, name: string): string | undefined {
    const v = L.data?.[name];
    if (v === undefined) this.err('IR_ATTR_MISSING', L.path, { op: L.op, layer: L.name, attr: name });
    return v;
  }

  private build(list: Layer[], order: Layer[], srcLayer: Int32Array, srcOut: Int32Array, graph: Graph, tasks: BodyTask[]): GraphIndex | undefined {
    const before = this.diags.errors.length;
    let ops: Map<string, string> | undefined; // built only for a message
    const index: GraphIndex = {
      params: new Map(),
      results: new Map(),
      typeOf: (id) => (ops ??= new Map(list.map((L) => [String(L.key), L.op]))).get(id),
    };
    const resultNames: string[] = [];
    const irResults: Meta[] = [];
    const src = (L: Layer, k: number): Value | undefined => {
      const slot = L.inBase + k;
      return list[srcLayer[slot]!]!.vals?.[srcOut[slot]!];
    };
    const names = (L: Layer, k: number): string[] => {
      const n = k < L.outCount ? this.ports.names[L.outStart + k] : undefined;
      return n === undefined ? [] : splitPortNames(n);
    };
    // Values are created in topological order, but Parameters, Results and nodes keep XML order
    // among themselves where OpenVINO defines the order by it (inputs, outputs): `list` is in XML order.
    // (indexed loops: a for-of over an array in code not yet optimized allocates a result object
    // per element, and a body's build runs a few times only, mostly unoptimized)
    for (let i = 0; i < list.length; i++) this.checkPorts(list[i]!);
    for (let i = 0; i < list.length; i++) {
      const L = list[i]!;
      if (L.op !== 'Parameter') continue;
      const shapeText = this.dataAttr(L, 'shape');
      const elemText = this.dataAttr(L, 'element_type');
      if (shapeText === undefined || elemText === undefined) continue;
      const type = this.parameterType(L, shapeText, elemText);
      if (!type) continue;
      const v = graph.addInput(type, names(L, 0));
      v.meta['layerName'] = L.name;
      v.meta['irVersion'] = L.version;
      this.carryLayerMeta(L, v.meta, 'irLayerRtInfo');
      this.carryPortRt(L, 0, v);
      this.carryExtraData(L, v.meta, PARAMETER_DATA);
      L.vals = [v];
      index.params.set(String(L.key), v);
    }
    for (let i = 0; i < order.length; i++) {
      const L = order[i]!;
      if (L.op === 'Parameter') continue;
      if (L.op === 'Constant') {
        this.readConst(L, graph, names(L, 0));
        continue;
      }
      if (L.op === 'Result') {
        if (L.inCount !== 1 || L.outCount !== 0) {
          this.err('IR_LAYER_BAD', L.path, { layer: L.name, detail: 'a Result has exactly one input port and no output' });
          continue;
        }
        continue;
      }
      const node = graph.addNode({ dialect: 'ov', op: L.op, version: L.version, name: L.name });
      this.carryLayerMeta(L, node.meta);
      for (let k = 0; k < L.inCount; k++) {
        // A missing source is a layer that failed to read, which has been reported already.
        node.addInput(src(L, k) ?? null);
      }
      const vals = new Array<Value>(L.outCount);
      for (let k = 0; k < L.outCount; k++) {
        const v = node.addOutput(this.portType(L, L.outStart + k, k), names(L, k));
        this.carryPortRt(L, k, v);
        vals[k] = v;
      }
      L.vals = vals;
      this.readAttrs(L, node);
      this.queueBodies(L, node, graph, tasks);
    }
    for (let i = 0; i < list.length; i++) {
      const L = list[i]!;
      if (L.op !== 'Result' || L.inCount !== 1) continue;
      const v = src(L, 0);
      if (!v) continue;
      index.results.set(String(L.key), graph.outputs.length);
      graph.outputs.push(v);
      resultNames.push(L.name);
      const meta: Meta = { irVersion: L.version };
      this.carryLayerMeta(L, meta);
      irResults.push(meta);
    }
    graph.meta['resultNames'] = resultNames;
    graph.meta['irResults'] = irResults;
    return this.diags.errors.length > before ? undefined : index;
  }

  /**
   * The type of a Parameter from its `<data>` shape and element_type (undefined, reported, when
   * either does not parse). Parameters written alike share one type (types are read-only, as
   * portType's): one of the last RECENT_TYPES made, compared by their texts (interned by the
   * tokenizer, so mostly one pointer comparison), else parsed.
   */
  private parameterType(L: Layer, shapeText: string, elemText: string): TensorType | undefined {
    const rt = this.recentParamTypes;
    for (let r = 0; r < RECENT_TYPES; r++) {
      const known = rt[r];
      if (known !== undefined && known.shape === shapeText && known.elem === elemText) return known.type;
    }
    const shape = parseShapeText(shapeText);
    const elem = fromIrElementType(elemText.trim());
    if (shape === undefined) this.err('IR_ATTR_BAD', L.path, { op: L.op, layer: L.name, attr: 'shape', value: shapeText, detail: hasHugeDim(shapeText) ? 'has a dimension beyond 2^53, which cannot be represented exactly' : 'is not a shape' });
    if (!elem) this.err('IR_ATTR_BAD', L.path, { op: L.op, layer: L.name, attr: 'element_type', value: elemText, detail: 'is not an element type' });
    if (shape === undefined || !elem) return undefined;
    const type = tensorType(elem.name, shape);
    rt[this.recentParamNext] = { shape: shapeText, elem: elemText, type };
    this.recentParamNext = (this.recentParamNext + 1) % RECENT_TYPES;
    return type;
  }

  private carryPortRt(L: Layer, k: number, v: Value): void {
    const rt = k < L.outCount ? this.ports.rt?.get(L.outStart + k) : undefined;
    if (rt) v.meta['irRtInfo'] = rt;
  }

  private carryExtraData(L: Layer, meta: Meta, known: readonly string[]): void {
    const data = L.data;
    if (!data) return;
    // Keys, then each value, the object made only when there is one (most layers have none):
    // Object.entries made an array per attribute, for every Parameter and Const.
    let extra: Record<string, string> | undefined;
    const keys = Object.keys(data);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (!known.includes(k)) setOwn((extra ??= {}), k, data[k]!); // `__proto__` too, as a key
    }
    if (extra) meta['irExtraData'] = extra;
  }

  private readConst(L: Layer, graph: Graph, names: string[]): void {
    const et = this.dataAttr(L, 'element_type');
    const sh = this.dataAttr(L, 'shape');
    const off = this.dataAttr(L, 'offset');
    const size = this.dataAttr(L, 'size');
    if (et === undefined || sh === undefined || off === undefined || size === undefined) return;
    const elem = fromIrElementType(et.trim());
    const bad = (attr: string, value: string, detail: string) => this.err('IR_ATTR_BAD', L.path, { op: 'Const', layer: L.name, attr, value, detail });
    if (!elem) return bad('element_type', et, 'is not an element type');
    const dimsText = sh.trim() === '' ? [] : sh.split(',').map((s) => s.trim());
    if (!dimsText.every((d) => /^\d+$/.test(d))) return bad('shape', sh, 'is not a static shape');
    if (!/^\d+$/.test(off.trim())) return bad('offset', off, 'is not a byte offset');
    if (!/^\d+$/.test(size.trim())) return bad('size', size, 'is not a byte size');
    if (!this.bin) return this.err('IR_BIN_MISSING', L.path, { layer: L.name, path: this.binPath });
    const r = constFromBin(this.bin, elem.name, dimsText.map(Number), Number(off), Number(size));
    if (!r.ok) return this.err(r.code, L.path, { layer: L.name, detail: r.detail });
    const v = graph.addInitializer(r.tensor, names);
    v.meta['layerName'] = L.name;
    v.meta['irVersion'] = L.version;
    this.carryLayerMeta(L, v.meta, 'irLayerRtInfo');
    this.carryPortRt(L, 0, v);
    this.carryExtraData(L, v.meta, CONST_DATA);
    L.vals = [v];
  }

  private readAttrs(L: Layer, node: Node): void {
    const data = L.data;
    if (!data) return;
    // Keys, then each value: Object.entries would make an array per attribute.
    const names = Object.keys(data);
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const value = data[name]!;
      const kind = attrKind(L.op, name);
      let a: Attr | undefined = kind ? parseAttr(kind, value) : A.raw(value);
      if (!a) {
        this.diags.add('IR_ATTR_UNTYPED', L.path, { op: L.op, attr: name, value, kind: kind! });
        a = A.raw(value);
      }
      node.attrs.set(name, a);
    }
  }

  private queueBodies(L: Layer, node: Node, graph: Graph, tasks: BodyTask[]): void {
    const kind = irBodyKind(L.op);
    for (const { key: bodyTag, portMap: mapTag } of kind?.bodies ?? []) {
      const el = L.bodies?.get(bodyTag);
      if (!el) {
        this.err('IR_BODY_MISSING', L.path, { op: L.op, layer: L.name, body: bodyTag });
        continue;
      }
      const body = graph.addBody(node, bodyTag);
      const backEdges = L.child('back_edges');
      tasks.push({
        el, body, node, layerPath: L.path, graphPath: bodyPath(L.gpath, body.graph), mapName: mapTag, portMap: L.child(mapTag), backEdges,
        kind: kind!.loop ? 'loop' : 'if',
      });
    }
  }

  /**
   * Fills the body's bindings from its port map. Inputs: external_port_id is the node's input index
   * (-1: a Loop special port). Outputs: entries with external_port_id ≥ 0, sorted by it, are the
   * node's outputs 0, 1, 2… (so both the spec's plain index and the serializer's inputs+index load).
   * Returns the node outputs covered.
   */
  bind(t: BodyTask, index: GraphIndex): number[] | undefined {
    const before = this.diags.errors.length;
    const where = t.layerPath;
    const map = t.mapName;
    const mapped = new Set<Value>();
    const outEntries: { k: bigint; result: number; extra: Record<string, string> | undefined }[] = [];
    const special: { result: number; extra: Record<string, string> | undefined }[] = [];
    const hasKeys = (e: Record<string, string> | undefined): e is Record<string, string> => e !== undefined && Object.keys(e).length > 0;
    /** A port map entry's attributes other than the two ids; undefined when it has none (most entries). */
    const extrasOf = (x: XNode): Record<string, string> | undefined => {
      let e: Record<string, string> | undefined;
      for (const k in x.attrs) if (k !== 'external_port_id' && k !== 'internal_layer_id') (e ??= {})[k] = x.attrs[k]!;
      // (hasKeys, not `e !== undefined`, decides whether an entry has extras, as Object.keys did.)
      return e;
    };
    const describe = (id: string): string => {
      const op = index.typeOf(id);
      return op !== undefined ? `layer ${id} is a ${op}` : `layer ${id} does not exist`;
    };
    if (!t.portMap) this.err('IR_PORTMAP_BAD', where, { map, entry: '-', detail: `<${map}> is missing` });
    (t.portMap?.children ?? []).forEach((x, n) => {
      const ext = x.attrs['external_port_id']?.trim();
      const lid = x.attrs['internal_layer_id']?.trim() ?? '';
      const entry = (): string => `${n} (${x.tag} ${ext}→${lid})`; // built only for a message
      if (!isInt(ext) || !isInt(lid)) return this.err('IR_PORTMAP_BAD', where, { map, entry: entry(), detail: 'external_port_id and internal_layer_id must be integers' });
      const extra = extrasOf(x);
      if (x.tag === 'input') {
        const param = index.params.get(lid);
        if (!param) return this.err('IR_PORTMAP_BAD', where, { map, entry: entry(), detail: `names no body Parameter (${describe(lid)})` });
        if (mapped.has(param)) return this.err('IR_PORTMAP_BAD', where, { map, entry: entry(), detail: `maps Parameter '${param.metaView['layerName']}' twice` });
        const from = Number(ext);
        if (from < -1 || from >= t.node.inputs.length || (from === -1 && t.kind === 'if')) {
          return this.err('IR_PORTMAP_BAD', where, { map, entry: entry(), detail: `the node has no input ${ext}` });
        }
        // OpenVINO's Loop feeds a Parameter of this purpose the iteration number whatever input the
        // entry names (measured on 2026.4: external_port_id 0, the trip count, still counts 0, 1,
        // 2…); a TensorIterator or If ignores the purpose and binds the input (measured: same numbers).
        if (from !== -1 && extra?.['purpose'] === 'current_iteration' && t.node.op === 'Loop') {
          mapped.add(param);
          return this.err('IR_PORTMAP_BAD', where, { map, entry: entry(), detail: 'purpose="current_iteration" needs external_port_id -1 (the iteration number is no input of the node)' });
        }
        if (from === 0 && t.kind === 'if') this.diags.add('IR_IF_COND_PARAM', where, { map, param: String(param.metaView['layerName']) });
        mapped.add(param);
        t.body.inputs.push(hasKeys(extra) ? { param, from, extra } : { param, from });
      } else if (x.tag === 'output') {
        const result = index.results.get(lid);
        if (result === undefined) return this.err('IR_PORTMAP_BAD', where, { map, entry: entry(), detail: `names no body Result (${describe(lid)})` });
        if (BigInt(ext) < 0n) {
          if (t.kind === 'if') return this.err('IR_PORTMAP_BAD', where, { map, entry: entry(), detail: 'an If output needs external_port_id ≥ 0' });
          special.push({ result, extra });
        } else outEntries.push({ k: BigInt(ext), result, extra });
      }
    });
    for (const p of t.body.graph.inputs) {
      if (!mapped.has(p)) this.err('IR_PORTMAP_UNMAPPED', `${t.body.graph.path}/${String(p.metaView['layerName'])}`, { param: String(p.metaView['layerName']), map });
    }
    outEntries.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
    const covered: number[] = [];
    outEntries.forEach((e, to) => {
      if (to >= t.node.outputs.length) {
        this.err('IR_PORTMAP_BAD', where, { map, entry: `output ${e.k}`, detail: `the node has only ${t.node.outputs.length} outputs` });
        return;
      }
      if (outEntries.filter((o) => o.k === e.k).length > 1) {
        this.err('IR_PORTMAP_BAD', where, { map, entry: `output ${e.k}`, detail: 'external_port_id used twice' });
        return;
      }
      t.body.outputs.push(hasKeys(e.extra) ? { result: e.result, to, extra: e.extra } : { result: e.result, to });
      covered.push(to);
    });
    for (const s of special) t.body.outputs.push({ result: s.result, to: -1, extra: s.extra ?? {} });
    if (t.kind === 'loop') {
      // Each input of a Loop (after the trip count and condition) or TensorIterator is bound to
      // one body Parameter: OpenVINO 2026.4 refuses an input no entry binds or one bound twice
      // (SubGraphOp: inputs = input descriptions + offset; measured). Unbound, the edge into it
      // would be dropped without a word.
      const firstData = t.node.op === 'Loop' ? 2 : 0;
      const binds = new Map<number, number>();
      for (const b of t.body.inputs) if (b.from >= firstData) binds.set(b.from, (binds.get(b.from) ?? 0) + 1);
      for (let k = firstData; k < t.node.inputs.length; k++) {
        const n = binds.get(k) ?? 0;
        if (n === 0) this.err('IR_PORTMAP_BAD', where, { map, entry: `input ${k}`, detail: 'no entry binds this input of the node to a body Parameter' });
        else if (n > 1) this.err('IR_PORTMAP_BAD', where, { map, entry: `input ${k}`, detail: `binds this input to ${n} body Parameters; OpenVINO binds each input to one` });
      }
      const iteration = t.body.inputs.find((b) => b.from === -1 && b.extra?.['purpose'] === 'current_iteration')?.param;
      childrenOf(t.backEdges, 'edge').forEach((e, k) => {
        const from = e.attrs['from-layer']?.trim(), to = e.attrs['to-layer']?.trim();
        const edge = `${k} (${from ?? '?'}→${to ?? '?'})`;
        const bad = (detail: string): void => this.err('IR_PORTMAP_BAD', where, { map: 'back_edges', entry: edge, detail });
        // OpenVINO refuses a back edge without both ids or from a layer that is no body Result,
        // and one into the current_iteration Parameter (measured on 2026.4); one into a layer that
        // is no body Parameter it skips, which would leave the value it meant to carry invariant.
        if (!isInt(from) || !isInt(to)) return bad('from-layer and to-layer must be integers');
        if (!index.results.has(from)) return bad(`from-layer names no body Result (${describe(from)})`);
        const param = index.params.get(to);
        if (!param) return bad(`to-layer names no body Parameter (${describe(to)})`);
        if (param === iteration) return bad(`to-layer is the current_iteration Parameter '${param.metaView['layerName']}', which OpenVINO feeds the iteration number`);
      });
      for (const e of childrenOf(t.backEdges, 'edge')) {
        t.body.backEdges.push({
          fromLayer: e.attrs['from-layer'] ?? '', fromPort: e.attrs['from-port'] ?? '',
          toLayer: e.attrs['to-layer'] ?? '', toPort: e.attrs['to-port'] ?? '',
        });
      }
      // Back edges name body layers by id; the writer renumbers layers, so remember the ids.
      t.body.graph.meta['irLayerIds'] = { params: [...index.params.entries()].map(([id, v]) => [id, t.body.graph.inputs.indexOf(v)]), results: [...index.results.entries()] };
    }
    // back_edges belong to Loop and TensorIterator: OpenVINO 2026.4 refuses them on an If (measured).
    if (t.kind === 'if' && t.backEdges && t.node.bodies.values().next().value === t.body) {
      this.err('IR_PORTMAP_BAD', where, { map: 'back_edges', entry: '-', detail: `an ${t.node.op} has no back edges` });
    }
    return this.diags.errors.length > before ? undefined : covered;
  }
}
