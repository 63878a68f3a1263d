import type { Meta } from '../graph/meta.js';
import type { Attr } from '../graph/attr.js';
import { IR_BODY_ELEMENTS, irBodyKind } from '../graph/body-kinds.js';
import { A } from '../graph/attr.js';
import type { Body } from '../graph/body.js';
import { fromIrElementType, fromIrPrecision } from '../graph/element-type.js';
import type { Graph } from '../graph/graph.js';
import { Model } from '../graph/model.js';
import type { Node } from '../graph/node.js';
import type { Dim } from '../graph/shape.js';
import { tensorType, type ValueType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import { Diagnostics } from '../diag/diagnostic.js';
import type { DiagCode, DiagParams } from '../diag/codes.js';
import { parseAttr } from './attr-format.js';
import { attrKind } from './attr-schema.js';
import { constFromBin } from './blob.js';
import { canonicalOp } from './op-names.js';
import { splitPortNames } from './port-names.js';
import { parseShapeText } from './shape-text.js';
import { IrSink, type IrEdges, type IrGraph, type IrLayer, type IrPort } from './read-events.js';
import { child, childrenOf, scanXml, type XNode } from './xml-tree.js';

export interface ReadIrOptions {
  /** File name for diagnostics. */
  file?: string;
  /** Path of the .bin, for the message when it is missing. */
  binPath?: string;
}

/** Layer attributes that are the layer's identity; every other one is kept in meta.irLayerAttrs. */
const LAYER_KEYS = new Set(['id', 'name', 'type', 'version']);
/** Layer children the reader interprets; any other child element is kept raw in meta.irChildren. */
const KNOWN_CHILDREN = new Set(['data', 'input', 'output', 'rt_info', ...IR_BODY_ELEMENTS]);

interface Layer {
  readonly xml: XNode;
  readonly rec: IrLayer;
  readonly index: number;
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly op: string;
  readonly version: string;
  readonly path: string;
  readonly inPorts: IrPort[];
  readonly outPorts: IrPort[];
  readonly inPos: Map<string, number>;
  readonly outPos: Map<string, number>;
  /** Per input position: the source layer id and its output position. */
  readonly incoming: ({ from: string; out: number } | undefined)[];
}

/** A body waiting to be read: its element, the Body it fills, and the port map that binds it. */
interface BodyTask {
  readonly el: IrGraph;
  readonly body: Body;
  readonly node: Node;
  readonly layerPath: string;
  readonly mapName: string;
  readonly portMap: XNode | undefined;
  readonly backEdges: XNode | undefined;
  readonly kind: 'if' | 'loop';
}

/** What a read graph tells its owner: body layer id → Parameter value / Result index. */
interface GraphIndex {
  readonly params: Map<string, Value>;
  readonly results: Map<string, number>;
  readonly types: Map<string, string>;
}

/** An edge as messages name it: `3 (1:2 → 4:0)`. */
const edgeLabel = (e: IrEdges, k: number): string =>
  `${k} (${e.fromLayer[k]?.trim()}:${e.fromPort[k]?.trim()} → ${e.toLayer[k]?.trim()}:${e.toPort[k]?.trim()})`;

const isInt = (s: string | undefined): s is string => s !== undefined && /^[+-]?\d+$/.test(s.trim());

/**
 * Reads OpenVINO IR (v10 or v11) into the ov dialect. Every layer and attribute is kept; Const data
 * are views into `bin`. All problems are collected and thrown as one OvirError (warnings that do
 * not stop reading are left in `model.graph.meta.diagnostics`). Iterative throughout: bodies are
 * read from a work list, so nesting depth is not limited by the stack.
 */
export function readIr(xml: string | Uint8Array, bin: Uint8Array | null, opts: ReadIrOptions = {}): Model {
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
  const reader = new Reader(diags, bin, opts.binPath);
  const tasks: BodyTask[] = [];
  reader.readGraph(root, model.graph, tasks);
  const ifOutputs = new Map<Node, Map<string, number[]>>();
  for (let i = 0; i < tasks.length; i++) {
    const t = tasks[i]!;
    const index = reader.readGraph(t.el, t.body.graph, tasks);
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

class Reader {
  constructor(readonly diags: Diagnostics, readonly bin: Uint8Array | null, readonly binPath: string | undefined) {}

  private err(code: DiagCode, where: string, params: DiagParams = {}): void {
    this.diags.add(code, where, params);
  }

  /** Reads one `<net>` or body element into `graph`; returns undefined when its structure is broken. */
  readGraph(el: IrGraph, graph: Graph, tasks: BodyTask[]): GraphIndex | undefined {
    const before = this.diags.errors.length;
    const gpath = graph.path;
    const rt = child(el.xml, 'rt_info');
    if (rt && graph.owner) graph.meta['irRtInfo'] = rt;
    const layers = new Map<string, Layer>();
    const list: Layer[] = [];
    const recs = el.layers ?? [];
    // The element's layers are read once: what is kept from here on is the graph.
    el.layers = undefined;
    recs.forEach((rec, index) => {
      const x = rec.xml;
      const id = x.attrs['id'];
      const type = x.attrs['type'];
      const name = x.attrs['name'] ?? '';
      const where = `${gpath}/${name || `${type ?? 'layer'}#${id ?? index}`}`;
      if (!isInt(id)) return this.err('IR_LAYER_BAD', where, { layer: index, detail: `id '${id ?? ''}' is not an integer` });
      if (layers.has(id.trim())) return this.err('IR_LAYER_BAD', where, { layer: id, detail: 'duplicate layer id' });
      if (!type) return this.err('IR_LAYER_BAD', where, { layer: id, detail: 'no type' });
      const inPorts = rec.inPorts ?? [];
      const outPorts = rec.outPorts ?? [];
      const L: Layer = {
        xml: x, rec, index, id: id.trim(), name, type, op: canonicalOp(type), version: x.attrs['version'] ?? '', path: where,
        inPorts, outPorts, inPos: new Map(), outPos: new Map(), incoming: inPorts.map(() => undefined),
      };
      for (const [ports, pos] of [[inPorts, L.inPos], [outPorts, L.outPos]] as const) {
        ports.forEach((p, k) => {
          const pid = p.attrs['id'];
          if (!isInt(pid)) this.err('IR_PORT_BAD', where, { layer: name, port: k, detail: `port id '${pid ?? ''}' is not an integer` });
          else if (L.inPos.has(pid.trim()) || L.outPos.has(pid.trim())) this.err('IR_PORT_BAD', where, { layer: name, port: pid, detail: 'duplicate port id' });
          else pos.set(pid.trim(), k);
        });
      }
      layers.set(L.id, L);
      list.push(L);
    });

    const edges = el.edges;
    el.edges = undefined;
    const nEdges = edges ? edges.fromLayer.length : 0;
    for (let k = 0; k < nEdges; k++) this.edge(edges!, k, gpath, layers);
    for (const L of list) {
      L.incoming.forEach((src, k) => {
        if (!src) this.err('IR_EDGE_MISSING', L.path, { layer: L.name, port: L.inPorts[k]!.attrs['id'] ?? k });
      });
    }
    if (this.diags.errors.length > before) return undefined;

    const order = this.topoOrder(list, layers);
    if (!order) return undefined;
    return this.build(order, layers, graph, tasks);
  }

  /** Edge `k` of a graph: checks it and records it as the source of its input port. */
  private edge(edges: IrEdges, k: number, gpath: string, layers: Map<string, Layer>): void {
    const fl = edges.fromLayer[k]?.trim();
    const fp = edges.fromPort[k]?.trim();
    const tl = edges.toLayer[k]?.trim();
    const tp = edges.toPort[k]?.trim();
    const from = fl === undefined ? undefined : layers.get(fl);
    const to = tl === undefined ? undefined : layers.get(tl);
    if (!from || !to) return this.err('IR_EDGE_BAD', gpath, { edge: edgeLabel(edges, k), detail: `layer ${!from ? fl : tl} does not exist` });
    const out = fp === undefined ? undefined : from.outPos.get(fp);
    if (out === undefined) return this.err('IR_EDGE_BAD', gpath, { edge: edgeLabel(edges, k), detail: `layer '${from.name}' has no output port ${fp}` });
    const inp = tp === undefined ? undefined : to.inPos.get(tp);
    if (inp === undefined) return this.err('IR_EDGE_BAD', gpath, { edge: edgeLabel(edges, k), detail: `layer '${to.name}' has no input port ${tp}` });
    if (to.incoming[inp]) return this.err('IR_EDGE_TWICE', to.path, { layer: to.name, port: tp });
    to.incoming[inp] = { from: from.id, out };
  }

  /** Post-order DFS from every layer in XML order, iterative; reports a cycle. */
  private topoOrder(list: Layer[], layers: Map<string, Layer>): Layer[] | undefined {
    const state = new Map<Layer, 1 | 2>();
    const order: Layer[] = [];
    for (const start of list) {
      if (state.has(start)) continue;
      const stack: { L: Layer; next: number }[] = [{ L: start, next: 0 }];
      state.set(start, 1);
      while (stack.length) {
        const top = stack[stack.length - 1]!;
        if (top.next < top.L.incoming.length) {
          const dep = layers.get(top.L.incoming[top.next++]!.from)!;
          const s = state.get(dep);
          if (s === 1) {
            this.err('IR_CYCLE', dep.path, { layer: dep.name || dep.id });
            return undefined;
          }
          if (s === undefined) {
            state.set(dep, 1);
            stack.push({ L: dep, next: 0 });
          }
        } else {
          state.set(top.L, 2);
          order.push(top.L);
          stack.pop();
        }
      }
    }
    return order;
  }

  private portType(L: Layer, p: IrPort, k: number): ValueType | null {
    const prec = p.attrs['precision'];
    if (prec === undefined) {
      this.err('IR_PORT_BAD', L.path, { layer: L.name, port: p.attrs['id'] ?? k, detail: 'output port has no precision' });
      return null;
    }
    const t = fromIrPrecision(prec.trim());
    if (!t) {
      this.err('IR_PORT_BAD', L.path, { layer: L.name, port: p.attrs['id'] ?? k, detail: `unknown precision '${prec}'` });
      return null;
    }
    const dims: Dim[] = [];
    for (const text of p.dims) {
      const s = text.trim();
      if (!/^-?\d+$/.test(s) || Number(s) < -1) {
        this.err('IR_PORT_BAD', L.path, { layer: L.name, port: p.attrs['id'] ?? k, detail: `dim '${s}' must be an integer ≥ -1` });
        return null;
      }
      dims.push(s === '-1' ? null : Number(s));
    }
    return tensorType(t.name, dims);
  }

  /** Layer-level details: spelling, extra layer attributes, rt_info (under `rtKey`), unknown children. */
  private carryLayerMeta(L: Layer, meta: Meta, rtKey: 'irRtInfo' | 'irLayerRtInfo' = 'irRtInfo'): void {
    meta['irType'] = L.type;
    const extra: Record<string, string> = {};
    for (const [k, v] of Object.entries(L.xml.attrs)) if (!LAYER_KEYS.has(k)) extra[k] = v;
    if (Object.keys(extra).length) meta['irLayerAttrs'] = extra;
    const rt = child(L.xml, 'rt_info');
    if (rt) meta[rtKey] = rt;
    const others = L.xml.children.filter((c) => !KNOWN_CHILDREN.has(c.tag));
    if (others.length) meta['irChildren'] = others;
    if (L.inPorts.some((p) => p.rt)) meta['irInputRtInfo'] = L.inPorts.map((p) => p.rt);
  }

  private dataAttr(L: Layer, name: string): string | undefined {
    const v = child(L.xml, 'data')?.attrs[name];
    if (v === undefined) this.err('IR_ATTR_MISSING', L.path, { op: L.op, layer: L.name, attr: name });
    return v;
  }

  private build(order: Layer[], layers: Map<string, Layer>, graph: Graph, tasks: BodyTask[]): GraphIndex | undefined {
    const before = this.diags.errors.length;
    const outs = new Map<string, (Value | undefined)[]>();
    const index: GraphIndex = { params: new Map(), results: new Map(), types: new Map() };
    const resultNames: string[] = [];
    const irResults: Meta[] = [];
    const src = (L: Layer, k: number): Value | undefined => {
      const s = L.incoming[k]!;
      return outs.get(s.from)?.[s.out];
    };
    const names = (L: Layer, k: number): string[] => {
      const n = L.outPorts[k]?.attrs['names'];
      return n === undefined ? [] : splitPortNames(n);
    };
    // Values are created in topological order, but Parameters, Results and nodes keep XML order
    // among themselves where OpenVINO defines the order by it (inputs, outputs).
    const byXml = [...order].sort((a, b) => a.index - b.index);
    for (const L of byXml) {
      index.types.set(L.id, L.op);
      if (L.op !== 'Parameter') continue;
      const shapeText = this.dataAttr(L, 'shape');
      const elemText = this.dataAttr(L, 'element_type');
      if (shapeText === undefined || elemText === undefined) continue;
      const shape = parseShapeText(shapeText);
      const elem = fromIrElementType(elemText.trim());
      if (shape === undefined) this.err('IR_ATTR_BAD', L.path, { op: L.op, layer: L.name, attr: 'shape', value: shapeText, detail: 'is not a shape' });
      if (!elem) this.err('IR_ATTR_BAD', L.path, { op: L.op, layer: L.name, attr: 'element_type', value: elemText, detail: 'is not an element type' });
      if (shape === undefined || !elem) continue;
      const v = graph.addInput(tensorType(elem.name, shape), names(L, 0));
      v.meta['layerName'] = L.name;
      v.meta['irVersion'] = L.version;
      this.carryLayerMeta(L, v.meta, 'irLayerRtInfo');
      this.carryPortRt(L, 0, v);
      this.carryExtraData(L, v.meta, ['shape', 'element_type']);
      outs.set(L.id, [v]);
      index.params.set(L.id, v);
    }
    for (const L of order) {
      if (L.op === 'Parameter') continue;
      if (L.op === 'Constant') {
        this.readConst(L, graph, names(L, 0), outs);
        continue;
      }
      if (L.op === 'Result') {
        if (L.inPorts.length !== 1 || L.outPorts.length !== 0) {
          this.err('IR_LAYER_BAD', L.path, { layer: L.name, detail: 'a Result has exactly one input port and no output' });
          continue;
        }
        continue;
      }
      const node = graph.addNode({ dialect: 'ov', op: L.op, version: L.version, name: L.name });
      this.carryLayerMeta(L, node.meta);
      for (let k = 0; k < L.inPorts.length; k++) {
        // A missing source is a layer that failed to read, which has been reported already.
        node.addInput(src(L, k) ?? null);
      }
      const vals: Value[] = [];
      L.outPorts.forEach((p, k) => {
        const v = node.addOutput(this.portType(L, p, k), names(L, k));
        this.carryPortRt(L, k, v);
        vals.push(v);
      });
      outs.set(L.id, vals);
      this.readAttrs(L, node);
      this.queueBodies(L, node, graph, tasks);
    }
    for (const L of byXml) {
      if (L.op !== 'Result' || L.inPorts.length !== 1) continue;
      const v = src(L, 0);
      if (!v) continue;
      index.results.set(L.id, graph.outputs.length);
      graph.outputs.push(v);
      resultNames.push(L.name);
      const meta: Meta = { irVersion: L.version };
      this.carryLayerMeta(L, meta);
      irResults.push(meta);
    }
    graph.meta['resultNames'] = resultNames;
    graph.meta['irResults'] = irResults;
    void layers;
    return this.diags.errors.length > before ? undefined : index;
  }

  private carryPortRt(L: Layer, k: number, v: Value): void {
    const rt = L.outPorts[k]?.rt;
    if (rt) v.meta['irRtInfo'] = rt;
  }

  private carryExtraData(L: Layer, meta: Meta, known: string[]): void {
    const data = child(L.xml, 'data');
    if (!data) return;
    const extra: Record<string, string> = {};
    for (const [k, v] of Object.entries(data.attrs)) if (!known.includes(k)) extra[k] = v;
    if (Object.keys(extra).length) meta['irExtraData'] = extra;
  }

  private readConst(L: Layer, graph: Graph, names: string[], outs: Map<string, (Value | undefined)[]>): void {
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
    this.carryExtraData(L, v.meta, ['element_type', 'shape', 'offset', 'size']);
    outs.set(L.id, [v]);
  }

  private readAttrs(L: Layer, node: Node): void {
    const data = child(L.xml, 'data');
    if (!data) return;
    for (const [name, value] of Object.entries(data.attrs)) {
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
      const el = L.rec.bodies?.get(bodyTag);
      if (!el) {
        this.err('IR_BODY_MISSING', L.path, { op: L.op, layer: L.name, body: bodyTag });
        continue;
      }
      const body = graph.addBody(node, bodyTag);
      const backEdges = child(L.xml, 'back_edges');
      tasks.push({
        el, body, node, layerPath: L.path, mapName: mapTag, portMap: child(L.xml, mapTag), backEdges,
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
    const outEntries: { k: bigint; result: number; extra: Record<string, string> }[] = [];
    const special: { result: number; extra: Record<string, string> }[] = [];
    const extrasOf = (x: XNode): Record<string, string> => {
      const e: Record<string, string> = {};
      for (const [k, v] of Object.entries(x.attrs)) if (k !== 'external_port_id' && k !== 'internal_layer_id') e[k] = v;
      return e;
    };
    const describe = (id: string): string => (index.types.has(id) ? `layer ${id} is a ${index.types.get(id)}` : `layer ${id} does not exist`);
    if (!t.portMap) this.err('IR_PORTMAP_BAD', where, { map, entry: '-', detail: `<${map}> is missing` });
    (t.portMap?.children ?? []).forEach((x, n) => {
      const ext = x.attrs['external_port_id']?.trim();
      const lid = x.attrs['internal_layer_id']?.trim() ?? '';
      const entry = `${n} (${x.tag} ${ext}→${lid})`;
      if (!isInt(ext) || !isInt(lid)) return this.err('IR_PORTMAP_BAD', where, { map, entry, detail: 'external_port_id and internal_layer_id must be integers' });
      const extra = extrasOf(x);
      if (x.tag === 'input') {
        const param = index.params.get(lid);
        if (!param) return this.err('IR_PORTMAP_BAD', where, { map, entry, detail: `names no body Parameter (${describe(lid)})` });
        if (mapped.has(param)) return this.err('IR_PORTMAP_BAD', where, { map, entry, detail: `maps Parameter '${param.meta['layerName']}' twice` });
        const from = Number(ext);
        if (from < -1 || from >= t.node.inputs.length || (from === -1 && t.kind === 'if')) {
          return this.err('IR_PORTMAP_BAD', where, { map, entry, detail: `the node has no input ${ext}` });
        }
        if (from === 0 && t.kind === 'if') this.diags.add('IR_IF_COND_PARAM', where, { map, param: String(param.meta['layerName']) });
        mapped.add(param);
        t.body.inputs.push(Object.keys(extra).length ? { param, from, extra } : { param, from });
      } else if (x.tag === 'output') {
        const result = index.results.get(lid);
        if (result === undefined) return this.err('IR_PORTMAP_BAD', where, { map, entry, detail: `names no body Result (${describe(lid)})` });
        if (BigInt(ext) < 0n) {
          if (t.kind === 'if') return this.err('IR_PORTMAP_BAD', where, { map, entry, detail: 'an If output needs external_port_id ≥ 0' });
          special.push({ result, extra });
        } else outEntries.push({ k: BigInt(ext), result, extra });
      }
    });
    for (const p of t.body.graph.inputs) {
      if (!mapped.has(p)) this.err('IR_PORTMAP_UNMAPPED', `${t.body.graph.path}/${String(p.meta['layerName'])}`, { param: String(p.meta['layerName']), map });
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
      t.body.outputs.push(Object.keys(e.extra).length ? { result: e.result, to, extra: e.extra } : { result: e.result, to });
      covered.push(to);
    });
    for (const s of special) t.body.outputs.push({ result: s.result, to: -1, extra: s.extra });
    if (t.kind === 'loop') {
      for (const e of childrenOf(t.backEdges, 'edge')) {
        t.body.backEdges.push({
          fromLayer: e.attrs['from-layer'] ?? '', fromPort: e.attrs['from-port'] ?? '',
          toLayer: e.attrs['to-layer'] ?? '', toPort: e.attrs['to-port'] ?? '',
        });
      }
      // Back edges name body layers by id; the writer renumbers layers, so remember the ids.
      t.body.graph.meta['irLayerIds'] = { params: [...index.params.entries()].map(([id, v]) => [id, t.body.graph.inputs.indexOf(v)]), results: [...index.results.entries()] };
    }
    return this.diags.errors.length > before ? undefined : covered;
  }
}
