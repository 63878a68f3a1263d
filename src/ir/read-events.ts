import { IR_BODY_TAGS } from '../graph/body-kinds.js';
import { attrRecord, type XmlSink, type XNode } from './xml-tree.js';

/**
 * The IR reader's view of the XML, built straight from the tokenizer's events (no element tree of
 * the net): a graph's layers with their ports, its edges as columns of strings, and only the
 * elements the reader keeps as they are (layer `<data>`, rt_info, port maps, back edges, unknown
 * children) as XNodes. Bodies are IrGraphs inside their layer. What the reader reads is exactly
 * what the tree had: the first `<layers>`/`<edges>` of a graph, the first `<input>`/`<output>` and
 * the first element of each body tag of a layer, the first rt_info of a port; other elements in
 * those places are ignored (kept as children of the layer or graph element where they were).
 */
export interface IrGraph {
  /** The `<net>` or body element: its attributes, and its children other than layers and edges. */
  readonly xml: XNode;
  layers: IrLayer[] | undefined;
  edges: IrEdges | undefined;
}

export interface IrLayer {
  /** The `<layer>`: attributes, and its children other than its ports and bodies. */
  readonly xml: XNode;
  inPorts: IrPort[] | undefined;
  outPorts: IrPort[] | undefined;
  /** Body elements by tag (the first of each). */
  bodies: Map<string, IrGraph> | undefined;
}

export interface IrPort {
  readonly attrs: Record<string, string>;
  /** The text of each `<dim>`, as written. */
  readonly dims: string[];
  rt: XNode | undefined;
}

/** Edge attributes as written (undefined when absent), one entry per `<edge>`. */
export interface IrEdges {
  readonly fromLayer: (string | undefined)[];
  readonly fromPort: (string | undefined)[];
  readonly toLayer: (string | undefined)[];
  readonly toPort: (string | undefined)[];
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

interface Frame {
  readonly kind: number;
  /** GRAPH: IrGraph; LAYERS: IrLayer[]; LAYER: IrLayer; PORTS: IrPort[]; PORT: IrPort; EDGES: IrEdges; KEEP: XNode. */
  readonly x: unknown;
  /** DIM: its text so far. */
  text: string;
}

const attrOf = (attrs: readonly string[], n: number, name: string): string | undefined => {
  for (let i = 0; i < n; i += 2) if (attrs[i] === name) return attrs[i + 1];
  return undefined;
};

const elementOf = (tag: string, attrs: readonly string[], n: number): XNode => ({ tag, attrs: attrRecord(attrs, n), children: [], text: '' });
const graphOf = (tag: string, attrs: readonly string[], n: number): IrGraph => ({ xml: elementOf(tag, attrs, n), layers: undefined, edges: undefined });

/** Builds the IrGraph of a document from the tokenizer's events. */
export class IrSink implements XmlSink {
  root: IrGraph | undefined;
  private readonly stack: Frame[] = [];

  open(tag: string, attrs: readonly string[], n: number): void {
    const stack = this.stack;
    const parent = stack.length ? stack[stack.length - 1]! : undefined;
    let kind = DROP;
    let x: unknown;
    if (!parent) {
      kind = GRAPH;
      x = this.root = graphOf(tag, attrs, n);
    } else {
      switch (parent.kind) {
        case GRAPH: {
          const g = parent.x as IrGraph;
          if (tag === 'layers' && !g.layers) {
            kind = LAYERS;
            x = g.layers = [];
          } else if (tag === 'edges' && !g.edges) {
            kind = EDGES;
            x = g.edges = { fromLayer: [], fromPort: [], toLayer: [], toPort: [] };
          } else {
            kind = KEEP;
            g.xml.children.push((x = elementOf(tag, attrs, n)));
          }
          break;
        }
        case LAYERS:
          if (tag === 'layer') {
            kind = LAYER;
            const L: IrLayer = { xml: elementOf(tag, attrs, n), inPorts: undefined, outPorts: undefined, bodies: undefined };
            (parent.x as IrLayer[]).push(L);
            x = L;
          }
          break;
        case LAYER: {
          const L = parent.x as IrLayer;
          if (tag === 'input' && !L.inPorts) {
            kind = PORTS;
            x = L.inPorts = [];
          } else if (tag === 'output' && !L.outPorts) {
            kind = PORTS;
            x = L.outPorts = [];
          } else if (IR_BODY_TAGS.has(tag) && !L.bodies?.has(tag)) {
            kind = GRAPH;
            x = graphOf(tag, attrs, n);
            (L.bodies ??= new Map()).set(tag, x as IrGraph);
          } else {
            kind = KEEP;
            L.xml.children.push((x = elementOf(tag, attrs, n)));
          }
          break;
        }
        case PORTS:
          if (tag === 'port') {
            kind = PORT;
            const p: IrPort = { attrs: attrRecord(attrs, n), dims: [], rt: undefined };
            (parent.x as IrPort[]).push(p);
            x = p;
          }
          break;
        case PORT: {
          const p = parent.x as IrPort;
          if (tag === 'dim') kind = DIM;
          else if (tag === 'rt_info' && !p.rt) {
            kind = KEEP;
            x = p.rt = elementOf(tag, attrs, n);
          }
          break;
        }
        case EDGES:
          if (tag === 'edge') {
            kind = EDGE;
            const e = parent.x as IrEdges;
            e.fromLayer.push(attrOf(attrs, n, 'from-layer'));
            e.fromPort.push(attrOf(attrs, n, 'from-port'));
            e.toLayer.push(attrOf(attrs, n, 'to-layer'));
            e.toPort.push(attrOf(attrs, n, 'to-port'));
          }
          break;
        case KEEP:
          kind = KEEP;
          (parent.x as XNode).children.push((x = elementOf(tag, attrs, n)));
          break;
        default:
          break;
      }
    }
    stack.push({ kind, x, text: '' });
  }

  text(text: string): void {
    const f = this.stack[this.stack.length - 1]!;
    if (f.kind === DIM) f.text += text;
    else if (f.kind === KEEP) (f.x as XNode).text += text;
    else if (f.kind === GRAPH) (f.x as IrGraph).xml.text += text;
    else if (f.kind === LAYER) (f.x as IrLayer).xml.text += text;
  }

  close(): void {
    const f = this.stack.pop()!;
    if (f.kind === DIM) (this.stack[this.stack.length - 1]!.x as IrPort).dims.push(f.text);
  }
}
