import { IR_BODY_TAGS } from '../graph/body-kinds.js';
import { setOwn, TextKind, type XmlDoc, type XmlSink, type XNode } from './xml-tree.js';

/**
 * The IR reader's view of the XML, built straight from the tokenizer's events (no element tree of
 * the net): a graph's layers with their ports, its edges as columns, and only the elements the
 * reader keeps as they are (layer `<data>`, rt_info, port maps, back edges, unknown children) as
 * XNodes. Bodies are IrGraphs inside their layer. What the reader reads is exactly what a tree
 * would have: the first `<layers>`/`<edges>` of a graph, the first `<input>`/`<output>` and the
 * first element of each body tag of a layer, the first rt_info of a port; other elements in those
 * places are ignored (kept as children of the layer or graph element where they were).
 *
 * Hot path (a 100k-layer net has ~2M elements): ids, port ids and dims are read as numbers from
 * the bytes when written canonically (IdKey), attributes the reader knows are matched as bytes,
 * and a layer or port is one small record, not an element with an attribute object. A layer's
 * ports and a port's dims are collected in scratch lists and stored at their exact size: V8 gives
 * an array 16 slots on its first push (~150 bytes), which was most of the records' 1.3 KB per
 * layer (measured on chain100k.xml).
 */
export interface IrGraph {
  /** The `<net>` or body element: its attributes, and its children other than layers and edges. */
  readonly xml: XNode;
  layers: IrLayer[] | undefined;
  edges: IrEdges | undefined;
}

/**
 * An id attribute (layer id, port id, edge endpoint): a number when written as a canonical unsigned
 * decimal (then its decimal text is exactly what was written), else the text as written (the reader
 * trims and checks it); undefined when absent.
 */
export type IdText = number | string | undefined;

export interface IrLayer {
  readonly id: IdText;
  readonly name: string | undefined;
  readonly type: string | undefined;
  readonly version: string | undefined;
  /** Layer attributes other than id, name, type and version, in order (undefined when none). */
  readonly extra: Record<string, string> | undefined;
  /** The attributes of the first `<data>` (its content is never read). */
  data: Record<string, string> | undefined;
  /** Other children kept as they are (rt_info, port maps, back edges, unknown ones), in order. */
  children: XNode[] | undefined;
  inPorts: IrPort[] | undefined;
  outPorts: IrPort[] | undefined;
  /** Body elements by tag (the first of each). */
  bodies: Map<string, IrGraph> | undefined;
}

export interface IrPort {
  readonly id: IdText;
  readonly precision: string | undefined;
  readonly names: string | undefined;
  /** Each `<dim>`: a number when written as a canonical unsigned decimal, else its text (read only: ports may share it). */
  dims: readonly (number | string)[];
  rt: XNode | undefined;
}

/** An empty list shared by records that have none (never appended to: lists are set whole). */
const NONE: never[] = [];

/** Edge attributes as written, one entry per `<edge>`. */
export interface IrEdges {
  readonly fromLayer: IdText[];
  readonly fromPort: IdText[];
  readonly toLayer: IdText[];
  readonly toPort: IdText[];
}

const GRAPH = 0;
const LAYERS = 1;
const LAYER = 2;
const PORTS = 3;
const PORT = 4;
const DIM = 5;
const EDGES = 6;
const EDGE = 7;
/** An element kept as an XNode. */
const KEEP = 8;
/** An element the reader never reads (and its subtree). */
const DROP = 9;

const elementOf = (tag: string, doc: XmlDoc): XNode => ({ tag, attrs: doc.attrRecord(), children: [], text: '' });
const graphOf = (tag: string, doc: XmlDoc): IrGraph => ({ xml: elementOf(tag, doc), layers: undefined, edges: undefined });

/** The value of the attribute named `name` as an IdText. */
function idOf(doc: XmlDoc, name: string): IdText {
  const k = doc.attrIndex(name);
  if (k < 0) return undefined;
  const v = doc.attrUint(k);
  return v >= 0 ? v : doc.attrValue(k);
}

function valueOf(doc: XmlDoc, name: string): string | undefined {
  const k = doc.attrIndex(name);
  return k < 0 ? undefined : doc.attrValue(k);
}

function layerOf(doc: XmlDoc): IrLayer {
  let id: IdText;
  let name: string | undefined;
  let type: string | undefined;
  let version: string | undefined;
  let extra: Record<string, string> | undefined;
  // Names matched as bytes: no string per attribute name.
  for (let k = 0; k < doc.attrCount; k++) {
    if (doc.attrIs(k, 'id')) {
      const v = doc.attrUint(k);
      id = v >= 0 ? v : doc.attrValue(k);
    } else if (doc.attrIs(k, 'name')) name = doc.attrValueUnique(k);
    else if (doc.attrIs(k, 'type')) type = doc.attrValue(k);
    else if (doc.attrIs(k, 'version')) version = doc.attrValue(k);
    else setOwn((extra ??= {}), doc.attrName(k), doc.attrValue(k));
  }
  return { id, name, type, version, extra, data: undefined, children: undefined, inPorts: undefined, outPorts: undefined, bodies: undefined };
}

/** Builds the IrGraph of a document from the tokenizer's events. */
export class IrSink implements XmlSink {
  root: IrGraph | undefined;
  /** The open elements: what each is to the reader, and its record (parallel stacks: no frame objects). */
  private readonly kinds: number[] = [];
  private readonly xs: unknown[] = [];
  private depth = 0;
  /** The open `<dim>`'s text: one plain run as a span (read as a number if it is one), else a string. */
  private dimStart = -1;
  private dimEnd = -1;
  private dimText: string | undefined;
  /**
   * The open `<input>`/`<output>`'s ports and the open port's dims, the first nPorts/nDims of each
   * (they never nest: one of each is open at a time; counters, since setting an array's length is
   * a runtime call, measured).
   */
  private readonly ports: IrPort[] = [];
  private nPorts = 0;
  private readonly dims: (number | string)[] = [];
  private nDims = 0;
  private portsIn = false;
  private lastDims: (number | string)[] = NONE;

  open(tag: string, doc: XmlDoc): void {
    const d = this.depth;
    let kind = DROP;
    let x: unknown;
    if (d === 0) {
      kind = GRAPH;
      x = this.root = graphOf(tag, doc);
    } else {
      const px = this.xs[d - 1];
      switch (this.kinds[d - 1]) {
        case GRAPH: {
          const g = px as IrGraph;
          if (tag === 'layers' && !g.layers) {
            kind = LAYERS;
            x = g.layers = [];
          } else if (tag === 'edges' && !g.edges) {
            kind = EDGES;
            x = g.edges = { fromLayer: [], fromPort: [], toLayer: [], toPort: [] };
          } else {
            kind = KEEP;
            g.xml.children.push((x = elementOf(tag, doc)));
          }
          break;
        }
        case LAYERS:
          if (tag === 'layer') {
            kind = LAYER;
            (px as IrLayer[]).push((x = layerOf(doc)));
          }
          break;
        case LAYER: {
          const L = px as IrLayer;
          if (tag === 'input' && !L.inPorts) {
            kind = PORTS;
            x = L;
            L.inPorts = NONE;
            this.nPorts = 0;
            this.portsIn = true;
          } else if (tag === 'output' && !L.outPorts) {
            kind = PORTS;
            x = L;
            L.outPorts = NONE;
            this.nPorts = 0;
            this.portsIn = false;
          } else if (IR_BODY_TAGS.has(tag) && !L.bodies?.has(tag)) {
            kind = GRAPH;
            x = graphOf(tag, doc);
            (L.bodies ??= new Map()).set(tag, x as IrGraph);
          } else {
            if (tag === 'data' && !L.data) {
              // Only its attributes are read: no element, and what it contains is dropped.
              L.data = doc.attrRecord();
            } else {
              kind = KEEP;
              (L.children ??= []).push((x = elementOf(tag, doc)));
            }
          }
          break;
        }
        case PORTS:
          if (tag === 'port') {
            kind = PORT;
            const names = doc.attrIndex('names');
            const p: IrPort = {
              id: idOf(doc, 'id'), precision: valueOf(doc, 'precision'), names: names < 0 ? undefined : doc.attrValueUnique(names), dims: NONE, rt: undefined,
            };
            this.ports[this.nPorts++] = p;
            this.nDims = 0;
            x = p;
          }
          break;
        case PORT: {
          const p = px as IrPort;
          if (tag === 'dim') {
            kind = DIM;
            this.dimStart = this.dimEnd = -1;
            this.dimText = undefined;
          } else if (tag === 'rt_info' && !p.rt) {
            kind = KEEP;
            x = p.rt = elementOf(tag, doc);
          }
          break;
        }
        case EDGES:
          if (tag === 'edge') {
            kind = EDGE;
            const e = px as IrEdges;
            e.fromLayer.push(idOf(doc, 'from-layer'));
            e.fromPort.push(idOf(doc, 'from-port'));
            e.toLayer.push(idOf(doc, 'to-layer'));
            e.toPort.push(idOf(doc, 'to-port'));
          }
          break;
        case KEEP:
          kind = KEEP;
          (px as XNode).children.push((x = elementOf(tag, doc)));
          break;
        default:
          break;
      }
    }
    this.kinds[d] = kind;
    this.xs[d] = x;
    this.depth = d + 1;
  }

  text(doc: XmlDoc, s: number, e: number, kind: TextKind): void {
    const d = this.depth - 1;
    const k = this.kinds[d];
    if (k === DIM) {
      if (this.dimStart < 0 && this.dimText === undefined && kind === TextKind.PLAIN) {
        this.dimStart = s;
        this.dimEnd = e;
        return;
      }
      const before = this.dimStart >= 0 ? doc.text(this.dimStart, this.dimEnd, TextKind.PLAIN) : (this.dimText ?? '');
      this.dimStart = -1;
      this.dimText = before + doc.text(s, e, kind);
    } else if (k === KEEP) (this.xs[d] as XNode).text += doc.text(s, e, kind);
    else if (k === GRAPH) (this.xs[d] as IrGraph).xml.text += doc.text(s, e, kind);
  }

  /**
   * The port's dims as a list: the previous port's list when they are the same (ports of a net
   * mostly repeat the shape before them; the lists are only read, so they may be shared).
   */
  private dimsList(): (number | string)[] {
    const dims = this.dims;
    const n = this.nDims;
    const last = this.lastDims;
    if (last.length === n) {
      let i = 0;
      while (i < n && dims[i] === last[i]) i++;
      if (i === n) return last;
    }
    return (this.lastDims = dims.slice(0, n));
  }

  close(doc: XmlDoc): void {
    const d = --this.depth;
    const kind = this.kinds[d];
    if (kind === DIM) {
      if (this.dimStart >= 0) {
        const v = doc.textUint(this.dimStart, this.dimEnd, TextKind.PLAIN);
        this.dims[this.nDims++] = v >= 0 ? v : doc.text(this.dimStart, this.dimEnd, TextKind.PLAIN);
      } else this.dims[this.nDims++] = this.dimText ?? '';
    } else if (kind === PORT) {
      if (this.nDims) (this.xs[d] as IrPort).dims = this.dimsList();
    } else if (kind === PORTS) {
      const L = this.xs[d] as IrLayer;
      if (this.nPorts) {
        if (this.portsIn) L.inPorts = this.ports.slice(0, this.nPorts);
        else L.outPorts = this.ports.slice(0, this.nPorts);
      }
    }
    this.xs[d] = undefined;
  }
}
