import { create } from 'xmlbuilder2';
import { irBodyKind } from '../../src/graph/body-kinds.js';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { Diagnostics } from '../../src/diag/diagnostic.js';
import type { Body } from '../../src/graph/body.js';
import { elementType, irHas } from '../../src/graph/element-type.js';
import type { Graph } from '../../src/graph/graph.js';
import type { Model } from '../../src/graph/model.js';
import type { Node } from '../../src/graph/node.js';
import type { ValueType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { verifyGraph } from '../../src/graph/verify.js';
import { formatAttr } from '../../src/ir/attr-format.js';
import { ConstWriter } from '../../src/ir/const-writer.js';
import { canonicalOp, irTypeName } from '../../src/ir/op-names.js';
import { joinPortNames } from '../../src/ir/port-names.js';
import { stdSort } from '../../src/ir/std-sort.js';
import { formatShapeText, formatStaticShapeText } from '../../src/ir/shape-text.js';
import type { XNode } from '../../src/ir/xml-tree.js';

/** One planned layer of a graph. */
type Planned =
  | { kind: 'param'; id: number; value: Value }
  | { kind: 'const'; id: number; value: Value }
  | { kind: 'node'; id: number; node: Node }
  | { kind: 'result'; id: number; index: number; value: Value };

/** A body to write later into an element that already exists (work list, no recursion). */
interface BodyJob {
  readonly graph: Graph;
  readonly el: XMLBuilder;
  readonly node: Node;
  readonly body: Body;
  readonly portMap: XMLBuilder;
  readonly backEdges: XMLBuilder | null;
}

const DYNAMIC_PRECISION = elementType('dynamic').precision!;

/**
 * Writes IR v11 exactly as OpenVINO's serializer lays it out: layers in topological order with ids
 * from 0 in each graph, ports numbered inputs then outputs, serializer op spellings, `<data>` only
 * when the op has attributes, edges ordered by source layer, one deduplicated .bin for all graphs.
 * Throws an OvirError listing every problem (non-ov nodes, types IR cannot hold, attributes with no
 * IR form, broken graphs) rather than writing a file OpenVINO would misread.
 */
export function writeIrReference(model: Model): { xml: string; bin: Uint8Array[] } {
  const diags = new Diagnostics();
  diags.push(...verifyGraph(model.graph).filter((d) => d.severity === 'error'));
  diags.throwIfErrors();
  const consts = new ConstWriter();
  const doc = create({ version: '1.0' });
  const net = doc.ele('net', { name: model.ir?.name ?? model.graph.name ?? 'model', version: '11' });
  const jobs: BodyJob[] = [];
  const w = new GraphWriter(diags, consts, jobs);
  w.write(model.graph, net, (model.ir?.rtInfo as XNode | null | undefined) ?? null);
  for (let i = 0; i < jobs.length; i++) {
    const j = jobs[i]!;
    const ids = w.write(j.graph, j.el, j.graph.meta['irRtInfo'] ?? null);
    w.portMap(j, ids);
  }
  diags.throwIfErrors();
  markForPugixml(doc.node as unknown as DomNode);
  const xml = pugixmlAttributes(doc.end({ prettyPrint: true, indent: '\t', newline: '\n', spaceBeforeSlash: true }));
  return { xml: xml.endsWith('\n') ? xml : xml + '\n', bin: consts.chunks };
}

interface DomNode {
  nodeType: number;
  data?: string;
  attributes?: ArrayLike<{ value: string }>;
  childNodes: ArrayLike<DomNode>;
}

/** Stand-ins xmlbuilder2 writes as they are: an '&' (it would keep one that starts an entity) and a control character in text. */
const AMP = '\uE000';
const CTRL = '\uE001';
const twoDigits = (c: string): string => String(c.charCodeAt(0)).padStart(2, '0');

/**
 * Before serializing: every '&' of attribute values and text becomes a stand-in, and so does every
 * control character of text other than tab, LF and CR, so that pugixmlAttributes can write them as
 * pugixml does (xmlbuilder2 leaves an '&' that already starts an entity unescaped, and writes
 * control characters raw).
 */
function markForPugixml(root: DomNode): void {
  const stack: DomNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType === 3 && n.data !== undefined) {
      n.data = n.data.replace(/&/g, AMP).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, (c) => CTRL + twoDigits(c));
    }
    if (n.attributes) for (let i = 0; i < n.attributes.length; i++) n.attributes[i]!.value = n.attributes[i]!.value.replace(/&/g, AMP);
    for (let i = 0; i < n.childNodes.length; i++) stack.push(n.childNodes[i]!);
  }
}

/**
 * Attribute values and text escaped as pugixml (OpenVINO's XML library) escapes them: every '&' as
 * &amp;, '>' in attribute values left as is, and control characters as two-digit character
 * references (`&#09;`) — in attribute values all of them, so that a name with a tab or newline
 * survives (xmlbuilder2 writes those raw, and XML readers normalize raw ones to spaces).
 */
function pugixmlAttributes(xml: string): string {
  return xml.replace(/="([^"]*)"/g, (_, v: string) =>
    `="${v.replace(/&gt;/g, '>').replace(/[\u0000-\u001f]/g, (c) => `&#${twoDigits(c)};`)}"`)
    .replace(new RegExp(AMP, 'g'), '&amp;').replace(new RegExp(`${CTRL}(\\d\\d)`, 'g'), '&#$1;');
}

/** Layer ids of a written graph: body Parameter index → id, Result index → id. */
interface WrittenIds {
  readonly params: number[];
  readonly results: number[];
}

class GraphWriter {
  /** Values whose type was already reported (each is reported once, not at every port). */
  private readonly reported = new Set<Value>();
  /** If nodes whose cond is also read by a body: the index of the extra input that carries it. */
  private readonly condAlias = new Map<Node, number>();
  /** Number of input ports written for each node. */
  private readonly writtenInputs = new Map<Node, number>();

  constructor(readonly diags: Diagnostics, readonly consts: ConstWriter, readonly jobs: BodyJob[]) {}

  /**
   * The serializer's layer order: Parameters in model order; then every other op in the order of
   * OpenVINO's topological sort (depth-first from the Results, last Result first, inputs in order,
   * a Const where it is first reached); then Results in model order. Nodes that reach no Result
   * (OpenVINO would have dropped them) and unused Consts follow the rest, in graph order.
   */
  private plan(g: Graph): Planned[] {
    const out: Planned[] = [];
    let id = 0;
    for (const v of g.inputs) out.push({ kind: 'param', id: id++, value: v });
    const initSet = new Set(g.initializers);
    const emitted = new Set<Value>();
    const done = new Set<Node>();
    const constOf = (v: Value | null) => {
      if (v && initSet.has(v) && !emitted.has(v)) {
        emitted.add(v);
        out.push({ kind: 'const', id: id++, value: v });
      }
    };
    const own = new Set(g.nodes);
    const visit = (root: Node) => {
      if (done.has(root)) return;
      const stack: { n: Node; next: number }[] = [{ n: root, next: 0 }];
      const onStack = new Set<Node>([root]);
      while (stack.length) {
        const top = stack[stack.length - 1]!;
        if (top.next < top.n.inputs.length) {
          const v = top.n.inputs[top.next++]!;
          constOf(v);
          const p = v?.producer;
          if (p && own.has(p) && !done.has(p) && !onStack.has(p)) {
            onStack.add(p);
            stack.push({ n: p, next: 0 });
          }
        } else {
          stack.pop();
          onStack.delete(top.n);
          done.add(top.n);
          out.push({ kind: 'node', id: id++, node: top.n });
        }
      }
    };
    for (let i = g.outputs.length - 1; i >= 0; i--) {
      const v = g.outputs[i]!;
      constOf(v);
      if (v.producer && own.has(v.producer)) visit(v.producer);
    }
    for (const n of g.nodes) visit(n);
    g.initializers.forEach(constOf);
    g.outputs.forEach((v, index) => out.push({ kind: 'result', id: id++, index, value: v }));
    return out;
  }

  private typeError(v: Value, where: string, what: string, detail: string): void {
    if (this.reported.has(v)) return;
    this.reported.add(v);
    this.diags.add('IR_WRITE_TYPE', where, { what, value: v.label, detail });
  }

  private precision(t: ValueType | null, what: string, v: Value, where: string): string {
    if (!t || t.kind !== 'tensor' || t.elem === 'dynamic') {
      if (t && t.kind !== 'tensor' && t.kind !== 'unknown') this.typeError(v, where, what, `type ${t.kind}`);
      return DYNAMIC_PRECISION;
    }
    if (!irHas(t.elem)) this.typeError(v, where, what, `element type ${t.elem}`);
    return elementType(t.elem).precision ?? t.elem;
  }

  private port(parent: XMLBuilder, id: number, v: Value, where: string, withNames: boolean, rt: XNode | undefined): void {
    const p = parent.ele('port', { id: String(id), precision: this.precision(v.type, 'value', v, where) });
    if (withNames && v.names.some((n) => n !== '')) p.att('names', joinPortNames(v.names));
    const t = v.type;
    if (t && t.kind === 'tensor' && t.shape) for (const d of t.shape) p.ele('dim').txt(typeof d === 'number' ? String(d) : '-1');
    if (rt) writeRaw(p, rt);
  }

  /** Writes layers, edges and rt_info of `g` into `el`; queues its bodies. */
  write(g: Graph, el: XMLBuilder, rtInfo: XNode | null): WrittenIds {
    const plan = this.plan(g);
    const where = g.path;
    const at = new Map<Value, { layer: number; port: number }>();
    const layers = el.ele('layers');
    const ids: WrittenIds = { params: [], results: [] };
    const edges: { from: number; fromPort: number; to: number; toPort: number }[] = [];
    const edgeTo = (v: Value | null, to: number, toPort: number, path: string) => {
      const s = v ? at.get(v) : undefined;
      if (!s) {
        this.diags.add('IR_WRITE_GRAPH', path, { detail: v ? `input ${toPort} reads '${v.label}', which this graph does not produce` : `input ${toPort} is empty; IR has no optional inputs` });
        return;
      }
      edges.push({ from: s.layer, fromPort: s.port, to, toPort });
    };
    for (const item of plan) {
      if (item.kind === 'param' || item.kind === 'const') {
        const v = item.value;
        const isParam = item.kind === 'param';
        const name = String(v.meta['layerName'] ?? (v.name || `${isParam ? 'Parameter' : 'Constant'}_${item.id}`));
        const layer = layers.ele('layer', { id: String(item.id), name, type: isParam ? 'Parameter' : 'Const', version: String(v.meta['irVersion'] ?? 'opset1') });
        writeLayerAttrs(layer, v.meta['irLayerAttrs']);
        const data = layer.ele('data');
        if (isParam) {
          const t = v.type;
          if (!t || t.kind !== 'tensor' || t.elem === 'dynamic' || !irHas(t.elem)) {
            this.typeError(v, `${where}/${name}`, 'Parameter', t ? `type ${t.kind === 'tensor' ? t.elem : t.kind}` : 'no known type');
          } else data.att('shape', formatShapeText(t.shape)).att('element_type', t.elem);
          ids.params[g.inputs.indexOf(v)] = item.id;
        } else {
          const t = v.constant!;
          if (!irHas(t.elem)) this.typeError(v, `${where}/${name}`, 'Const', `element type ${t.elem}`);
          const { offset, size } = this.consts.write(t);
          data.att('element_type', t.elem).att('shape', formatStaticShapeText(t.dims)).att('offset', String(offset)).att('size', String(size));
        }
        writeDataAttrs(data, v.meta['irExtraData']);
        writeRawIf(layer, v.meta['irLayerRtInfo']);
        this.port(layer.ele('output'), 0, v, `${where}/${name}`, true, v.meta['irRtInfo'] as XNode | undefined);
        at.set(v, { layer: item.id, port: 0 });
      } else if (item.kind === 'node') {
        this.node(item.node, item.id, layers, at, edgeTo);
      } else {
        const v = item.value;
        const irResults = g.meta['irResults']?.[item.index] ?? {};
        const resultNames = g.meta['resultNames'] as string[] | undefined;
        const name = resultNames?.[item.index] ?? `Result_${item.id}`;
        const attrs: Record<string, string> = { id: String(item.id), name, type: 'Result', version: String(irResults['irVersion'] ?? 'opset1') };
        if (v.names.some((n) => n !== '')) attrs['output_names'] = joinPortNames(v.names);
        const layer = layers.ele('layer', attrs);
        const extra = { ...(irResults['irLayerAttrs'] as Record<string, string> | undefined) };
        delete extra['output_names'];
        writeLayerAttrs(layer, extra);
        writeRawIf(layer, irResults['irRtInfo']);
        this.port(layer.ele('input'), 0, v, `${where}/${name}`, false, undefined);
        edgeTo(v, item.id, 0, `${where}/${name}`);
        ids.results[item.index] = item.id;
      }
    }
    // Edges are listed consumer by consumer in layer order, then std::sort-ed by source layer.
    edges.sort((a, b) => a.to - b.to);
    stdSort(edges, (a, b) => a.from < b.from);
    const edgesEl = el.ele('edges');
    for (const e of edges) {
      edgesEl.ele('edge', { 'from-layer': String(e.from), 'from-port': String(e.fromPort), 'to-layer': String(e.to), 'to-port': String(e.toPort) });
    }
    if (rtInfo) writeRaw(el, rtInfo);
    else el.ele('rt_info');
    return ids;
  }

  private node(
    n: Node, id: number, layers: XMLBuilder, at: Map<Value, { layer: number; port: number }>,
    edgeTo: (v: Value | null, to: number, toPort: number, path: string) => void,
  ): void {
    const path = n.path;
    if (n.dialect !== 'ov') this.diags.add('IR_WRITE_DIALECT', path, { op: n.op, dialect: n.dialect });
    const op = canonicalOp(n.op);
    const name = n.name || `${op}_${id}`;
    const layer = layers.ele('layer', { id: String(id), name, type: irTypeName(op), version: n.version });
    writeLayerAttrs(layer, n.meta['irLayerAttrs']);
    const kind = irBodyKind(op);
    const isIf = op === 'If';
    // OpenVINO does not feed an If body Parameter from the cond port (input 0): it computes wrong
    // results without a word. A body reading cond gets it through one extra input carrying the same
    // value, as OpenVINO's own ONNX frontend does.
    const ins = [...n.inputs];
    if (isIf && [...n.bodies.values()].some((b) => b.inputs.some((x) => x.from === 0))) {
      this.condAlias.set(n, ins.length);
      ins.push(n.inputs[0] ?? null);
    }
    this.writtenInputs.set(n, ins.length);
    const maps = new Map<string, XMLBuilder>();
    let backEdges: XMLBuilder | null = null;
    // Port maps as the serializer orders them (If: else before then), then back edges.
    for (const b of [...(kind?.bodies ?? [])].reverse()) maps.set(b.key, layer.ele(b.portMap));
    if (kind?.backEdges && [...n.bodies.values()].some((b) => b.backEdges.length)) backEdges = layer.ele('back_edges');
    const writeData = () => {
      if (!n.attrs.size) return;
      const data = layer.ele('data');
      for (const [k, a] of n.attrs) {
        const s = formatAttr(a);
        if (s === undefined) this.diags.add('IR_WRITE_ATTR', path, { op: n.op, attr: k, kind: a.type });
        else data.att(k, s);
      }
    };
    const writePorts = () => {
      const inRt = n.meta['irInputRtInfo'] as (XNode | undefined)[] | undefined;
      if (ins.length) {
        const input = layer.ele('input');
        ins.forEach((v, k) => {
          if (v) this.port(input, k, v, path, false, inRt?.[k]);
          else input.ele('port', { id: String(k), precision: DYNAMIC_PRECISION });
          edgeTo(v, id, k, path);
        });
      }
      if (n.outputs.length) {
        const output = layer.ele('output');
        n.outputs.forEach((v, k) => {
          this.port(output, ins.length + k, v, path, true, v.meta['irRtInfo'] as XNode | undefined);
          at.set(v, { layer: id, port: ins.length + k });
        });
      }
    };
    if (kind?.loop) {
      writePorts();
      writeData();
      writeRawIf(layer, n.meta['irRtInfo']);
    } else {
      writeData();
      writeRawIf(layer, n.meta['irRtInfo']);
      writePorts();
    }
    for (const c of n.meta['irChildren'] ?? []) writeRaw(layer, c);
    const keys = kind?.bodies.map((b) => b.key) ?? [];
    for (const key of keys) {
      const body = n.bodies.get(key);
      if (!body) {
        this.diags.add('IR_WRITE_GRAPH', path, { detail: `${op} has no ${key}` });
        continue;
      }
      if (!body.graph.outputs.length) this.diags.add('IR_WRITE_GRAPH', body.graph.path, { detail: 'a body needs at least one Result' });
      this.jobs.push({ graph: body.graph, el: layer.ele(key), node: n, body, portMap: maps.get(key)!, backEdges });
    }
    for (const key of n.bodies.keys()) {
      if (!keys.includes(key)) this.diags.add('IR_WRITE_GRAPH', path, { detail: `${op} cannot carry a body '${key}' in IR` });
    }
  }

  /** Fills a body's port map (and back edges) once its layer ids are known. */
  portMap(j: BodyJob, ids: WrittenIds): void {
    const nIn = this.writtenInputs.get(j.node) ?? j.node.inputs.length;
    const alias = this.condAlias.get(j.node);
    const graph = j.graph;
    const isIf = canonicalOp(j.node.op) === 'If';
    const ordered = (extra: Readonly<Record<string, string>> | undefined, base: Record<string, string>): Record<string, string> => {
      const e = { ...(extra ?? {}) };
      const head: Record<string, string> = {};
      if ('axis' in e) { head['axis'] = e['axis']!; delete e['axis']; }
      return { ...head, ...base, ...e };
    };
    // The serializer's order: input descriptions, output descriptions, then Loop's special ports.
    const input = (b: (typeof j.body.inputs)[number]) => j.portMap.ele('input', ordered(b.extra, {
      external_port_id: String(isIf && b.from === 0 && alias !== undefined ? alias : b.from), internal_layer_id: String(ids.params[graph.inputs.indexOf(b.param)]),
    }));
    const output = (b: (typeof j.body.outputs)[number]) => j.portMap.ele('output', ordered(isIf ? undefined : b.extra, {
      external_port_id: b.to < 0 ? '-1' : String(nIn + b.to), internal_layer_id: String(ids.results[b.result]),
    }));
    j.body.inputs.filter((b) => b.from >= 0).forEach(input);
    j.body.outputs.filter((b) => b.to >= 0).forEach(output);
    j.body.inputs.filter((b) => b.from < 0).forEach(input);
    j.body.outputs.filter((b) => b.to < 0).forEach(output);
    if (j.backEdges && j.body.backEdges.length) {
      const known = graph.meta['irLayerIds'] as { params: [string, number][]; results: [string, number][] } | undefined;
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

function writeLayerAttrs(layer: XMLBuilder, attrs: unknown): void {
  if (!attrs || typeof attrs !== 'object') return;
  for (const [k, v] of Object.entries(attrs as Record<string, string>)) layer.att(k, v);
}

function writeDataAttrs(data: XMLBuilder, attrs: unknown): void {
  writeLayerAttrs(data, attrs);
}

function writeRawIf(parent: XMLBuilder, x: unknown): void {
  if (x && typeof x === 'object' && 'tag' in x) writeRaw(parent, x as XNode);
}

/** Writes a kept XML element (rt_info and the like) back as read, without recursion. */
function writeRaw(parent: XMLBuilder, x: XNode): void {
  const stack: { x: XNode; into: XMLBuilder }[] = [{ x, into: parent }];
  while (stack.length) {
    const { x: n, into } = stack.pop()!;
    const el = into.ele(n.tag, n.attrs);
    if (n.text) el.txt(n.text);
    // Children are pushed in reverse so that they are appended in order.
    for (let i = n.children.length - 1; i >= 0; i--) stack.push({ x: n.children[i]!, into: el });
  }
}
