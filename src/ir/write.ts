import { irBodyKind } from '../graph/body-kinds.js';
import { Diagnostics } from '../diag/diagnostic.js';
import type { Body } from '../graph/body.js';
import { elementType, irHas } from '../graph/element-type.js';
import type { Graph } from '../graph/graph.js';
import type { Model } from '../graph/model.js';
import type { Node } from '../graph/node.js';
import type { ValueType } from '../graph/types.js';
import { Value } from '../graph/value.js';
import { IdTable, nodeIds } from '../graph/id-table.js';
import { verifyGraph } from '../graph/verify.js';
import { filled } from '../fs/sparse-file.js';
import { formatAttr } from './attr-format.js';
import { ConstWriter } from './const-writer.js';
import { canonicalOp, irTypeName } from './op-names.js';
import { joinPortNames } from './port-names.js';
import { stdSort } from './std-sort.js';
import { formatShapeText, formatStaticShapeText } from './shape-text.js';
import { type ByteSink, escapeAttr, indent, XOut } from './xml-out.js';
import type { XNode } from './xml-tree.js';

/**
 * A graph's layers in the serializer's order, layer id = index in `items`: Parameters (graph
 * inputs, ids 0 … nParams − 1), then nodes and the Consts (initializer values) they first reach,
 * then Results (graph outputs, from `firstResult`). Arrays and one map, no object per layer.
 */
interface Plan {
  readonly items: (Node | Value)[];
  readonly nParams: number;
  readonly firstResult: number;
  /** Layer id of every node of the graph (what edges from node outputs are found by). */
  readonly layerOf: ReadonlyMap<Node, number>;
}

/** A body to write later into an element that already exists (work list, no recursion). */
interface BodyJob {
  readonly graph: Graph;
  readonly el: XOut;
  readonly node: Node;
  readonly body: Body;
  readonly portMap: XOut;
  readonly backEdges: XOut | null;
  /** The node's last body (its back edges are complete after it). */
  readonly last: boolean;
}

const DYNAMIC_PRECISION = elementType('dynamic').precision!;
const EMPTY_PORT_END = Buffer.from('" />\n', 'latin1');

/**
 * Writes IR v11 exactly as OpenVINO's serializer lays it out: layers in topological order with ids
 * from 0 in each graph, ports numbered inputs then outputs, serializer op spellings, `<data>` only
 * when the op has attributes, edges ordered by source layer, one deduplicated .bin for all graphs.
 * Throws an OvirError listing every problem (non-ov nodes, types IR cannot hold, attributes with no
 * IR form, broken graphs) rather than writing a file OpenVINO would misread.
 */
export function writeIr(model: Model): { xml: string; bin: Uint8Array[] } {
  const { xml, bin } = writeIrChunks(model);
  // in memory: the bytes of weights read on demand are read now
  return { xml: Buffer.concat(xml).toString('utf8'), bin: bin.map(filled) };
}

/**
 * writeIr with the XML as UTF-8 chunks (no string of the whole net). With `drain`, the XML is
 * handed to it in document order while it is written (slabs reused; `xml` is then empty): what
 * files are written from.
 */
export function writeIrChunks(model: Model, drain?: (bytes: Uint8Array) => void): { xml: Uint8Array[]; bin: Uint8Array[] } {
  const diags = new Diagnostics();
  diags.push(...verifyGraph(model.graph).filter((d) => d.severity === 'error'));
  diags.throwIfErrors();
  const consts = new ConstWriter();
  const netName = model.ir?.name ?? model.graph.name ?? 'model';
  const net = XOut.document('net', drain).att('name', netName).att('version', '11');
  const jobs: BodyJob[] = [];
  const w = new GraphWriter(diags, consts, jobs);
  w.nul(netName, 'the model name', { under: model.graph, layer: '' });
  w.write(model.graph, net, (model.ir?.rtInfo as XNode | null | undefined) ?? null);
  for (let i = 0; i < jobs.length; i++) {
    const j = jobs[i]!;
    const ids = w.write(j.graph, j.el, j.graph.meta['irRtInfo'] ?? null);
    w.portMap(j, ids);
    // The body and its port map are complete (back edges once the node's last body is): sealed,
    // their bytes can be drained once everything before them is.
    j.el.seal();
    j.portMap.seal();
    if (j.last) j.backEdges?.seal();
  }
  diags.throwIfErrors();
  if (drain) {
    net.end();
    return { xml: [], bin: consts.chunks };
  }
  return { xml: net.chunks(), bin: consts.chunks };
}

/** Layer ids of a written graph: body Parameter index → id, Result index → id. */
interface WrittenIds {
  readonly params: number[];
  readonly results: number[];
}

class GraphWriter {
  /** Values whose type was already reported (each is reported once, not at every port). */
  private readonly reported = new Set<Value>();
  /** Port text after the last attribute, per depth and shape (portTail). */
  private readonly tails: WeakMap<readonly unknown[], Uint8Array>[] = [];
  /** If nodes whose cond is also read by a body: the index of the extra input that carries it. */
  private readonly condAlias = new Map<Node, number>();

  constructor(readonly diags: Diagnostics, readonly consts: ConstWriter, readonly jobs: BodyJob[]) {}

  /**
   * The serializer's layer order: Parameters in model order; then every other op in the order of
   * OpenVINO's topological sort (depth-first from the Results, last Result first, inputs in order,
   * a Const where it is first reached); then Results in model order. Nodes that reach no Result
   * (OpenVINO would have dropped them) and unused Consts follow the rest, in graph order.
   */
  private plan(g: Graph): Plan {
    const items: (Node | Value)[] = [...g.inputs];
    // Node state, one map for the walk: -1 not reached, ON_STACK, then the node's layer id.
    const layerOf = new IdTable<Node, number>(nodeIds(g.nodes));
    for (const n of g.nodes) layerOf.set(n, -1);
    const consts = new Set(g.initializers);
    const constOf = (v: Value | null) => {
      if (v && consts.delete(v)) items.push(v);
    };
    // The walk's stack as two arrays (node, next input to look at), no object per node.
    const stackNode: Node[] = [];
    const stackNext: number[] = [];
    const visit = (root: Node) => {
      if (layerOf.get(root) !== -1) return;
      stackNode.push(root);
      stackNext.push(0);
      layerOf.set(root, ON_STACK);
      while (stackNode.length) {
        const top = stackNode.length - 1;
        const n = stackNode[top]!;
        const next = stackNext[top]!;
        if (next < n.inputs.length) {
          stackNext[top] = next + 1;
          const v = n.inputs[next]!;
          constOf(v);
          const p = v?.producer;
          if (p && layerOf.get(p) === -1) {
            layerOf.set(p, ON_STACK);
            stackNode.push(p);
            stackNext.push(0);
          }
        } else {
          stackNode.pop();
          stackNext.pop();
          layerOf.set(n, items.length);
          items.push(n);
        }
      }
    };
    for (let i = g.outputs.length - 1; i >= 0; i--) {
      const v = g.outputs[i]!;
      constOf(v);
      if (v.producer) visit(v.producer);
    }
    for (const n of g.nodes) visit(n);
    g.initializers.forEach(constOf);
    const firstResult = items.length;
    for (const v of g.outputs) items.push(v);
    return { items, nParams: g.inputs.length, firstResult, layerOf };
  }

  private typeError(v: Value, where: Where, what: string, detail: string): void {
    if (this.reported.has(v)) return;
    this.reported.add(v);
    this.diags.add('IR_WRITE_TYPE', pathOf(where), { what, value: v.label, detail });
  }

  /**
   * A text written into the XML that holds a NUL: IR cannot carry one (pugixml's strings end at
   * it, so OpenVINO reads the text cut short: two names may become one). Refused, not written.
   */
  nul(text: string, what: string, where: Where): void {
    if (text.includes('\0')) this.diags.add('IR_WRITE_NUL', pathOf(where), { what, text: text.replace(/\0/g, '\\0'), read: text.slice(0, text.indexOf('\0')) });
  }

  private precision(t: ValueType | null, what: string, v: Value, where: Where): string {
    if (!t || t.kind !== 'tensor' || t.elem === 'dynamic') {
      if (t && t.kind !== 'tensor' && t.kind !== 'unknown') this.typeError(v, where, what, `type ${t.kind}`);
      return DYNAMIC_PRECISION;
    }
    if (!irHas(t.elem)) this.typeError(v, where, what, `element type ${t.elem}`);
    return elementType(t.elem).precision ?? t.elem;
  }

  /**
   * Writes a port: `<port id precision names>` and its `<dim>`s. Hot path (one per value and
   * consumer): written as bytes straight into the document; only a port carrying rt_info read from
   * an IR is an element.
   */
  private port(parent: XOut, d: number, id: number, v: Value, where: Where, withNames: boolean, rt: XNode | undefined): void {
    const precision = this.precision(v.type, 'value', v, where);
    const names = withNames ? portNamesText(v.names) : '';
    this.nul(names, 'the tensor name', where);
    const t = v.type;
    const shape = t && t.kind === 'tensor' && t.shape ? t.shape : null;
    if (rt) {
      let attrs = ` id="${id}" precision="${precision}"`;
      if (names !== '') attrs += ` names="${escapeAttr(names)}"`;
      const p = parent.eleText('port', attrs);
      if (shape?.length) dimLines(p.lines(), shape, p.childDepth);
      writeRaw(p, rt);
      return;
    }
    const s = parent.lines().tabs(d).str('<port id="').num(id).str('" precision="').str(precision);
    if (names !== '') s.str('" names="').attr(names);
    s.bytes(this.portTail(shape, d));
  }

  /**
   * The end of a port's text after its last attribute value: `" />` or its `<dim>` lines and
   * `</port>`, kept as bytes per shape and depth (types are shared objects: a net's ports have a
   * few distinct shapes).
   */
  private portTail(shape: readonly unknown[] | null, d: number): Uint8Array {
    if (!shape?.length) return EMPTY_PORT_END;
    const byShape = (this.tails[d] ??= new WeakMap());
    let tail = byShape.get(shape);
    if (!tail) {
      let text = '">\n';
      for (const x of shape) text += `${indent(d + 1)}<dim>${typeof x === 'number' ? x : -1}</dim>\n`;
      tail = Buffer.from(`${text}${indent(d)}</port>\n`, 'utf8');
      byShape.set(shape, tail);
    }
    return tail;
  }

  /** Writes layers, edges and rt_info of `g` into `el`; queues its bodies. */
  write(g: Graph, el: XOut, rtInfo: XNode | null): WrittenIds {
    const ids: WrittenIds = { params: [], results: [] };
    writeEdges(el, this.layers(g, el.ele('layers'), ids).edges);
    if (rtInfo) writeRaw(el, rtInfo);
    else el.ele('rt_info');
    return ids;
  }

  /**
   * The `<layers>` of graph `g`, Parameters and Consts, nodes, Results in the plan's order; returns
   * what the edges are written from. The loop is all of its function (see OSR_LOOPS).
   */
  private layers(g: Graph, layers: XOut, ids: WrittenIds): Sources {
    const { items, nParams, firstResult, layerOf } = this.plan(g);
    const under = g;
    const inputIndex = new Map<Value, number>();
    g.inputs.forEach((v, k) => { if (!inputIndex.has(v)) inputIndex.set(v, k); });
    const sources: Sources = { layerOf, written: new Map(), edges: new EdgeList() };
    for (let id = 0; id < items.length; id++) {
      const item = items[id]!;
      if (id >= firstResult) this.result(g, item as Value, id, id - firstResult, layers, sources, ids);
      else if (id >= nParams && !(item instanceof Value)) this.node(item, id, layers, sources);
      else {
        const v = item as Value;
        const isParam = id < nParams;
        const name = String(v.metaView['layerName'] ?? (v.name || `${isParam ? 'Parameter' : 'Constant'}_${id}`));
        const where: Where = { under, layer: name };
        this.nul(name, 'the layer name', where);
        const layer = layers.eleText('layer', layerAttrs(id, name, isParam ? 'Parameter' : 'Const', String(v.metaView['irVersion'] ?? 'opset1')));
        writeLayerAttrs(layer, v.metaView['irLayerAttrs']);
        let data = '';
        if (isParam) {
          const t = v.type;
          if (!t || t.kind !== 'tensor' || t.elem === 'dynamic' || !irHas(t.elem)) {
            this.typeError(v, where, 'Parameter', t ? `type ${t.kind === 'tensor' ? t.elem : t.kind}` : 'no known type');
          } else data = ` shape="${escapeAttr(formatShapeText(t.shape))}" element_type="${t.elem}"`;
          ids.params[inputIndex.get(v)!] = id;
        } else {
          const t = v.constant!;
          if (!irHas(t.elem)) this.typeError(v, where, 'Const', `element type ${t.elem}`);
          const { offset, size } = this.consts.write(t);
          data = ` element_type="${t.elem}" shape="${formatStaticShapeText(t.dims)}" offset="${offset}" size="${size}"`;
        }
        writeData(layer, data, v.metaView['irExtraData']);
        writeRawIf(layer, v.metaView['irLayerRtInfo']);
        const rt = v.metaView['irRtInfo'];
        const output = openGroup(layer, 'output', rt !== undefined);
        this.port(output ?? layer, layer.childDepth + 1, 0, v, where, true, rt);
        closeGroup(layer, 'output', output);
        sources.written.set(v, id);
      }
    }
    return sources;
  }

  private result(g: Graph, v: Value, id: number, index: number, layers: XOut, sources: Sources, ids: WrittenIds): void {
    const irResults = g.meta['irResults']?.[index];
    const resultNames = g.meta['resultNames'];
    const name = resultNames?.[index] ?? `Result_${id}`;
    const where: Where = { under: g, layer: name };
    const layer = layers.eleText('layer', layerAttrs(id, name, 'Result', String(irResults?.['irVersion'] ?? 'opset1')));
    this.nul(name, 'the layer name', where);
    const outputNames = portNamesText(v.names);
    this.nul(outputNames, 'the output name', where);
    if (outputNames !== '') layer.att('output_names', outputNames);
    writeLayerAttrs(layer, irResults?.['irLayerAttrs'], 'output_names');
    writeRawIf(layer, irResults?.['irRtInfo']);
    layer.lines().tabs(layer.childDepth).str('<input>\n');
    this.port(layer, layer.childDepth + 1, 0, v, where, false, undefined);
    closeGroup(layer, 'input', null);
    this.edgeTo(sources, v, id, 0, where);
    ids.results[index] = id;
  }

  /**
   * Records the edge into input `toPort` of layer `to` from wherever `v` was written: a node
   * output from its node's layer id (written when that id is below `to`: layers are written in
   * id order) and output port; a Parameter or Const from the layer written for it so far.
   */
  private edgeTo(s: Sources, v: Value | null, to: number, toPort: number, where: Where): void {
    const p = v?.producer;
    if (p) {
      const from = s.layerOf.get(p);
      const k = from !== undefined && from >= 0 && from < to ? outputPosition(p, v!) : -1;
      if (k >= 0) {
        s.edges.add(from!, this.inputsWritten(p) + k, to, toPort);
        return;
      }
    } else if (v) {
      const from = s.written.get(v);
      if (from !== undefined) {
        s.edges.add(from, 0, to, toPort);
        return;
      }
    }
    this.diags.add('IR_WRITE_GRAPH', pathOf(where), { detail: v ? `input ${toPort} reads '${v.label}', which this graph does not produce` : `input ${toPort} is empty; IR has no optional inputs` });
  }

  /** Input ports written for a node: its inputs, and the If cond alias. */
  private inputsWritten(n: Node): number {
    return n.inputs.length + (this.condAlias.has(n) ? 1 : 0);
  }

  private node(n: Node, id: number, layers: XOut, sources: Sources): void {
    if (n.dialect !== 'ov') this.diags.add('IR_WRITE_DIALECT', n.path, { op: n.op, dialect: n.dialect });
    const op = canonicalOp(n.op);
    const name = n.name || `${op}_${id}`;
    this.nul(name, 'the layer name', n);
    const layer = layers.eleText('layer', layerAttrs(id, name, irTypeName(op), n.version));
    writeLayerAttrs(layer, n.metaView['irLayerAttrs']);
    const kind = irBodyKind(op);
    const ins = n.inputs;
    let nIn = ins.length;
    let alias = -1;
    if (kind) {
      // OpenVINO does not feed an If body Parameter from the cond port (input 0): it computes wrong
      // results without a word. A body reading cond gets it through one extra input carrying the
      // same value, as OpenVINO's own ONNX frontend does.
      if (op === 'If' && [...n.bodies.values()].some((b) => b.inputs.some((x) => x.from === 0))) {
        alias = nIn++;
        this.condAlias.set(n, alias);
      }
    }
    let maps: Map<string, XOut> | null = null;
    let backEdges: XOut | null = null;
    if (kind) {
      // Port maps as the serializer orders them (If: else before then), then back edges.
      // Holes: their content needs the bodies' layer ids, known once the bodies are written.
      maps = new Map();
      for (let b = kind.bodies.length - 1; b >= 0; b--) maps.set(kind.bodies[b]!.key, layer.hole().ele(kind.bodies[b]!.portMap));
      if (kind.backEdges && [...n.bodies.values()].some((b) => b.backEdges.length)) backEdges = layer.hole().ele('back_edges');
    }
    if (kind?.loop) {
      this.nodePorts(n, id, layer, sources, nIn, alias);
      this.nodeData(n, layer);
      writeRawIf(layer, n.metaView['irRtInfo']);
    } else {
      this.nodeData(n, layer);
      writeRawIf(layer, n.metaView['irRtInfo']);
      this.nodePorts(n, id, layer, sources, nIn, alias);
    }
    const children = n.metaView['irChildren'];
    if (children) for (const c of children) writeRaw(layer, c);
    if (!kind) {
      if (n.bodies.size) for (const key of n.bodies.keys()) this.diags.add('IR_WRITE_GRAPH', n.path, { detail: `${op} cannot carry a body '${key}' in IR` });
      return;
    }
    const keys = kind.bodies.map((b) => b.key);
    const first = this.jobs.length;
    for (const key of keys) {
      const body = n.bodies.get(key);
      if (!body) {
        this.diags.add('IR_WRITE_GRAPH', n.path, { detail: `${op} has no ${key}` });
        continue;
      }
      if (!body.graph.outputs.length) this.diags.add('IR_WRITE_GRAPH', body.graph.path, { detail: 'a body needs at least one Result' });
      this.jobs.push({ graph: body.graph, el: layer.hole().ele(key), node: n, body, portMap: maps!.get(key)!, backEdges, last: false });
    }
    if (this.jobs.length > first) this.jobs[this.jobs.length - 1] = { ...this.jobs[this.jobs.length - 1]!, last: true };
    for (const key of n.bodies.keys()) {
      if (!keys.includes(key)) this.diags.add('IR_WRITE_GRAPH', n.path, { detail: `${op} cannot carry a body '${key}' in IR` });
    }
  }

  private nodeData(n: Node, layer: XOut): void {
    const attrs = n.attrsView;
    if (!attrs.size) return;
    const s = layer.lines().tabs(layer.childDepth).str('<data');
    attrs.forEach((a, k) => {
      const text = formatAttr(a);
      if (text === undefined) this.diags.add('IR_WRITE_ATTR', n.path, { op: n.op, attr: k, kind: a.type });
      else {
        if (text.includes('\0')) this.nul(text, `attribute '${k}'`, n);
        s.str(' ').str(k).str('="').attr(text).str('"');
      }
    });
    s.str(' />\n');
  }

  /** Input ports (the If cond alias last, at `alias`), then output ports numbered after them. */
  private nodePorts(n: Node, id: number, layer: XOut, sources: Sources, nIn: number, alias: number): void {
    const inRt = n.metaView['irInputRtInfo'];
    const d = layer.childDepth + 1;
    if (nIn) {
      const input = openGroup(layer, 'input', inRt !== undefined);
      for (let k = 0; k < nIn; k++) {
        const v = k === alias ? (n.inputs[0] ?? null) : n.inputs[k]!;
        if (v) this.port(input ?? layer, d, k, v, n, false, inRt?.[k]);
        else (input ?? layer).lines().tabs(d).str('<port id="').num(k).str('" precision="').str(DYNAMIC_PRECISION).str('" />\n');
        this.edgeTo(sources, v, id, k, n);
      }
      closeGroup(layer, 'input', input);
    }
    const outs = n.outputs;
    if (outs.length) {
      const output = openGroup(layer, 'output', outs.some((v) => v.metaView['irRtInfo'] !== undefined));
      for (let k = 0; k < outs.length; k++) {
        const v = outs[k]!;
        this.port(output ?? layer, d, nIn + k, v, n, true, v.metaView['irRtInfo']);
      }
      closeGroup(layer, 'output', output);
    }
  }

  /** Fills a body's port map (and back edges) once its layer ids are known. */
  portMap(j: BodyJob, ids: WrittenIds): void {
    const nIn = this.inputsWritten(j.node);
    const alias = this.condAlias.get(j.node);
    const graph = j.graph;
    const isIf = canonicalOp(j.node.op) === 'If';
    const paramIndex = new Map<Value, number>();
    graph.inputs.forEach((v, k) => { if (!paramIndex.has(v)) paramIndex.set(v, k); });
    // One line per description, in the serializer's attribute order: `axis` first when the IR
    // read gave one, then external_port_id, internal_layer_id, then the other extras as read.
    const d = j.portMap.childDepth;
    const line = (tag: string, external: number, internal: number | undefined, extra: Readonly<Record<string, string>> | undefined): void => {
      const s = j.portMap.lines().tabs(d).str('<').str(tag);
      const axis = extra?.['axis'];
      if (axis !== undefined && axis !== null) s.str(' axis="').attr(String(axis)).str('"');
      s.str(' external_port_id="').num(external).str('"');
      if (internal !== undefined) s.str(' internal_layer_id="').num(internal).str('"');
      else this.diags.add('IR_WRITE_GRAPH', graph.path, { detail: `the port map's ${tag} for port ${external} names a body ${tag === 'input' ? 'Parameter' : 'Result'} the body does not have` });
      if (extra) {
        for (const k in extra) {
          const v = extra[k];
          if (k === 'axis' || k === 'external_port_id' || k === 'internal_layer_id' || v === undefined || v === null) continue;
          s.str(' ').str(k).str('="').attr(String(v)).str('"');
        }
      }
      s.str(' />\n');
    };
    const inputs = j.body.inputs;
    const outputs = j.body.outputs;
    const input = (b: (typeof inputs)[number]) => line('input', isIf && b.from === 0 && alias !== undefined ? alias : b.from, ids.params[paramIndex.get(b.param) ?? -1], b.extra);
    const output = (b: (typeof outputs)[number]) => line('output', b.to < 0 ? -1 : nIn + b.to, ids.results[b.result], isIf ? undefined : b.extra);
    // The serializer's order: input descriptions, output descriptions, then Loop's special ports.
    for (let i = 0; i < inputs.length; i++) if (inputs[i]!.from >= 0) input(inputs[i]!);
    for (let i = 0; i < outputs.length; i++) if (outputs[i]!.to >= 0) output(outputs[i]!);
    for (let i = 0; i < inputs.length; i++) if (inputs[i]!.from < 0) input(inputs[i]!);
    for (let i = 0; i < outputs.length; i++) if (outputs[i]!.to < 0) output(outputs[i]!);
    if (j.backEdges && j.body.backEdges.length) {
      const known = graph.meta['irLayerIds'];
      const pmap = new Map(known?.params ?? []);
      const rmap = new Map(known?.results ?? []);
      for (const e of j.body.backEdges) {
        const r = rmap.get(e.fromLayer);
        const p = pmap.get(e.toLayer);
        if (r === undefined || p === undefined) {
          this.diags.add('IR_WRITE_GRAPH', graph.path, { detail: `back edge ${e.fromLayer}→${e.toLayer} names layers the body no longer has` });
          continue;
        }
        j.backEdges.ele('edge', { 'from-layer': String(ids.results[r]), 'to-layer': String(ids.params[p]) });
      }
    }
  }
}

/**
 * Opens a layer's `<input>` or `<output>`: an element when a port in it carries rt_info (written
 * as an element in it), else just its line (no object).
 */
function openGroup(layer: XOut, tag: string, asElement: boolean): XOut | null {
  if (asElement) return layer.ele(tag);
  layer.lines().tabs(layer.childDepth).str('<').str(tag).str('>\n');
  return null;
}

/** Ends what openGroup opened (an element ends by itself at its parent's next child or end). */
function closeGroup(layer: XOut, tag: string, el: XOut | null): void {
  if (!el) layer.lines().tabs(layer.childDepth).str('</').str(tag).str('>\n');
}

/** A layer's identity attributes as text (eleText). */
const layerAttrs = (id: number, name: string, type: string, version: string): string =>
  ` id="${id}" name="${escapeAttr(name)}" type="${escapeAttr(type)}" version="${escapeAttr(version)}"`;

/** `<data>` of a Parameter or Const from its attribute text, then attributes kept from the IR read (which may replace one). */
function writeData(layer: XOut, attrs: string, extra: unknown): void {
  if (!extra || typeof extra !== 'object') layer.raw(`${indent(layer.childDepth)}<data${attrs} />\n`);
  else writeLayerAttrs(layer.eleText('data', attrs), extra);
}

/** `<dim>` lines of a port's shape (a dim that is not a number, -1). */
function dimLines(s: ByteSink, shape: readonly unknown[], depth: number): void {
  for (let i = 0; i < shape.length; i++) {
    const d = shape[i];
    s.tabs(depth).str('<dim>').num(typeof d === 'number' ? d : -1).str('</dim>\n');
  }
}

function writeLayerAttrs(layer: XOut, attrs: unknown, except?: string): void {
  if (!attrs || typeof attrs !== 'object') return;
  const a = attrs as Record<string, string>;
  for (const k in a) if (k !== except && Object.prototype.hasOwnProperty.call(a, k)) layer.att(k, a[k]);
}

/** Where a problem is: a node, or a layer of a graph; made into a path only when one is reported. */
type Where = Node | { readonly under: Graph; readonly layer: string };
// (the graph's path only then: it walks up the nesting, which made writing quadratic in depth)
const pathOf = (w: Where): string => ('under' in w ? `${w.under.path}/${w.layer}` : w.path);

/** Output `names` as the serializer writes them; '' when there are none (one name: no set or sort needed). */
function portNamesText(names: readonly string[]): string {
  if (names.length === 1) {
    const n = names[0]!;
    return n.includes(',') ? n.replace(/,/g, '\\,') : n;
  }
  return names.length ? joinPortNames(names) : '';
}

/** What edges are found by while a graph is written (see edgeTo), and the edges so far. */
interface Sources {
  readonly layerOf: ReadonlyMap<Node, number>;
  /** Parameters and Consts written so far: their layer id. */
  readonly written: Map<Value, number>;
  readonly edges: EdgeList;
}

/** A node's output index of `v` (-1: not one of its outputs). */
function outputPosition(n: Node, v: Value): number {
  return n.outputs[v.outputIndex] === v ? v.outputIndex : n.outputs.indexOf(v);
}

/** Layer state while a graph is planned: on the walk's stack (layer ids are ≥ 0; -1: not reached). */
const ON_STACK = -2;

/** A graph's edges as four number columns (no object per edge). */
class EdgeList {
  readonly from: number[] = [];
  readonly fromPort: number[] = [];
  readonly to: number[] = [];
  readonly toPort: number[] = [];

  add(from: number, fromPort: number, to: number, toPort: number): void {
    this.from.push(from);
    this.fromPort.push(fromPort);
    this.to.push(to);
    this.toPort.push(toPort);
  }

  /**
   * Edge indices in the serializer's order: consumer by consumer in layer order (a stable sort by
   * `to`), then std::sort-ed by source layer.
   */
  sortedOrder(): number[] {
    const idx = iota(this.from.length);
    const to = this.to;
    if (!nonDecreasing(to)) idx.sort((a, b) => to[a]! - to[b]! || a - b);
    const from = this.from;
    // Source layers already strictly increasing: every sort leaves them as they are (no equal keys
    // for std::sort to permute).
    if (!increasingAt(from, idx)) stdSort(idx, (a, b) => from[a]! < from[b]!);
    return idx;
  }
}

/*
 * OSR_LOOPS: a loop over a graph's layers or edges is the whole of its function, with nothing but
 * `return` after it. The writer's functions run once per graph, the main graph first: V8 optimizes
 * a long loop of the main graph's while it runs (on-stack replacement), before the code after it has
 * ever run, and enters that optimized loop again in each body graph's call, which then left it for
 * the interpreter at the first untried operation after the loop, every time (V8 11 keeps the code:
 * measured 284–1,257 deoptimizations of one function converting ifs2000, 2,000 Ifs). Cheap while
 * what follows the loop is short; a body's own long loop would have run in the interpreter.
 */

/** [0, 1, …, n - 1]. */
function iota(n: number): number[] {
  const idx: number[] = new Array<number>(n);
  for (let k = 0; k < n; k++) idx[k] = k;
  return idx;
}

function nonDecreasing(xs: readonly number[]): boolean {
  for (let k = 1; k < xs.length; k++) if (xs[k - 1]! > xs[k]!) return false;
  return true;
}

/** Whether xs[idx[0]] < xs[idx[1]] < … */
function increasingAt(xs: readonly number[], idx: readonly number[]): boolean {
  for (let k = 1; k < idx.length; k++) if (!(xs[idx[k - 1]!]! < xs[idx[k]!]!)) return false;
  return true;
}

/** A graph's `<edges>`, in the serializer's order. */
function writeEdges(el: XOut, edges: EdgeList): void {
  const order = edges.sortedOrder();
  const edgesEl = el.ele('edges');
  if (!order.length) return;
  const d = edgesEl.childDepth;
  const s = edgesEl.lines();
  for (const e of order) {
    s.tabs(d).str('<edge from-layer="').num(edges.from[e]!).str('" from-port="').num(edges.fromPort[e]!)
      .str('" to-layer="').num(edges.to[e]!).str('" to-port="').num(edges.toPort[e]!).str('" />\n');
  }
}

function writeRawIf(parent: XOut, x: unknown): void {
  if (x && typeof x === 'object' && 'tag' in x) writeRaw(parent, x as XNode);
}

/** Writes a kept XML element (rt_info and the like) back as read, in document order, without recursion. */
function writeRaw(parent: XOut, x: XNode): void {
  const stack: { x: XNode; into: XOut }[] = [{ x, into: parent }];
  while (stack.length) {
    const { x: n, into } = stack.pop()!;
    const el = into.ele(n.tag, n.attrs);
    if (n.text) el.txt(n.text);
    // Children are pushed in reverse so that they are written in order, each after its elder siblings' subtrees.
    for (let i = n.children.length - 1; i >= 0; i--) stack.push({ x: n.children[i]!, into: el });
  }
}
