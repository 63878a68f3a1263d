import { IR_BODY_TAGS } from '../graph/body-kinds.js';
import type { Value } from '../graph/value.js';
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
 * and a layer is one small record, not an element with an attribute object. Ports are no objects
 * at all: every port of the document is a row of one table (IrPorts), a layer's `<input>` and
 * `<output>` each a range of rows. A port's dims are collected in a scratch list and stored at
 * their exact size, shared with the port before when equal: V8 gives an array 16 slots on its
 * first push (~150 bytes), which was most of the records' 1.3 KB per layer (measured on
 * chain100k.xml); the port records that remained were half of what the garbage collector copied
 * while tokenizing (measured: 270k records of 64 bytes, each copied twice, for chain100k).
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

/**
 * A layer or port id as a lookup key: a canonical decimal as its number, anything else as its
 * trimmed text, so that two keys are equal exactly when the trimmed texts are (a number key is a
 * small integer: no string per id, cheap maps and arrays).
 */
export type IdKey = number | string;

/**
 * One `<layer>`: what the file says (set while tokenizing) and what the reader (src/ir/read.ts)
 * works out about it (set when it reads the layer's graph). One object for both: a second object
 * per layer for the reader was ~16 MB more for the collector to copy on a 100k-layer net.
 */
export class IrLayer {
  /** The first `<data>`'s attributes (its content is never read). */
  data: Record<string, string> | undefined = undefined;
  /** Other children kept as they are (rt_info, port maps, back edges, unknown ones), in order. */
  children: XNode[] | undefined = undefined;
  /** The ports of the first `<input>`: rows [inStart, inStart + inCount) of the IrPorts table (-1, 0 when none). */
  inStart = -1;
  inCount = 0;
  /** The ports of the first `<output>`, likewise. */
  outStart = -1;
  outCount = 0;
  /** Body elements by tag (the first of each). */
  bodies: Map<string, IrGraph> | undefined = undefined;

  // ── the reader's ─────────────────────────────────────────────────────────────────────────────
  /** Path of the layer's graph (for messages). */
  gpath = '';
  /** The id as a key, and the canonical op of `type`. */
  key: IdKey = -1;
  op = '';
  /** Position of this layer in its graph's list, and of its first input in the graph's source columns. */
  at = 0;
  inBase = 0;
  /** Ports by id, only for a layer whose port ids are not written as strictly increasing numbers. */
  inPos: Map<IdKey, number> | undefined = undefined;
  outPos: Map<IdKey, number> | undefined = undefined;
  /** Its values once built (by output position). */
  vals: (Value | undefined)[] | undefined = undefined;

  constructor(
    readonly ports: IrPorts,
    readonly id: IdText,
    /** '' when absent. */
    readonly name: string,
    readonly type: string | undefined,
    /** '' when absent. */
    readonly version: string,
    /** Layer attributes other than id, name, type and version, in order (undefined when none). */
    readonly extra: Record<string, string> | undefined,
  ) {}

  /** The graph path messages name it by (built only for a message). */
  get path(): string {
    return `${this.gpath}/${this.name || `${this.type}#${this.id === undefined ? undefined : String(this.id)}`}`;
  }

  /** Position of the input port with id `key`. */
  inputAt(key: IdKey): number | undefined {
    return this.inPos ? this.inPos.get(key) : findPort(this.ports, this.inStart, this.inCount, key);
  }

  outputAt(key: IdKey): number | undefined {
    return this.outPos ? this.outPos.get(key) : findPort(this.ports, this.outStart, this.outCount, key);
  }

  /** The first child element named `tag` other than its ports, bodies and `<data>`. */
  child(tag: string): XNode | undefined {
    return this.children?.find((c) => c.tag === tag);
  }
}

/** Position of the port with id `key` among rows [start, start + n) whose ids are strictly increasing numbers (binary search). */
function findPort(ports: IrPorts, start: number, n: number, key: IdKey): number | undefined {
  if (typeof key !== 'number') return undefined;
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const id = ports.idNumber(start + mid);
    if (id === key) return mid;
    if (id < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** An empty list shared by records that have none (never appended to: lists are set whole). */
const NONE: never[] = [];
/** How many recent dims lists a port's dims are compared with (IrSink.dimsList). */
const RECENT = 4;

/** A dim as written: a number when written as a canonical unsigned decimal, else its text. */
export type DimText = number | string;

/**
 * Every port of a document, in document order, as columns (one row per `<port>`; no object per
 * port). Body graphs' ports are rows of the same table.
 */
export class IrPorts {
  count = 0;
  /** The id of each row: a canonical number as itself, -1 when written otherwise (text in `idTexts`), -2 when absent. */
  private ids = new Int32Array(1024);
  private idTexts: Map<number, string> | undefined;
  /** The `precision` attribute of each row, as written (undefined when absent). */
  readonly precision: (string | undefined)[] = [];
  /** The `names` attribute of each row, as written (undefined when absent). */
  readonly names: (string | undefined)[] = [];
  /** Each row's `<dim>`s (read only: rows may share one list). */
  readonly dims: (readonly DimText[])[] = [];
  /** How many `<dim>`s are text, not canonical numbers (when none, every dim is valid as written). */
  textDims = 0;
  /** The first rt_info of the rows that have one. */
  rt: Map<number, XNode> | undefined;

  /** Appends a row; returns its number. */
  add(id: IdText, precision: string | undefined, names: string | undefined): number {
    const p = this.count++;
    if (p === this.ids.length) {
      const grown = new Int32Array(p * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    if (typeof id === 'number') this.ids[p] = id;
    else if (id === undefined) this.ids[p] = -2;
    else {
      this.ids[p] = -1;
      (this.idTexts ??= new Map()).set(p, id);
    }
    this.precision.push(precision);
    this.names.push(names);
    this.dims.push(NONE);
    return p;
  }

  /** The id of row p as an IdText. */
  id(p: number): IdText {
    const v = this.ids[p]!;
    return v >= 0 ? v : v === -1 ? this.idTexts!.get(p) : undefined;
  }

  /** The id of row p when written as a canonical number, else -1. */
  idNumber(p: number): number {
    const v = this.ids[p]!;
    return v >= 0 ? v : -1;
  }
}

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

/**
 * The value of the attribute named `name` as an IdText; `at` is where the serializer writes it
 * (looked at first: a match costs one comparison).
 */
function idOf(doc: XmlDoc, name: string, at: number): IdText {
  const k = at < doc.attrCount && doc.attrIs(at, name) ? at : doc.attrIndex(name);
  if (k < 0) return undefined;
  const v = doc.attrUint(k);
  return v >= 0 ? v : doc.attrValue(k);
}

function valueOf(doc: XmlDoc, name: string, at: number): string | undefined {
  const k = at < doc.attrCount && doc.attrIs(at, name) ? at : doc.attrIndex(name);
  return k < 0 ? undefined : doc.attrValue(k);
}

function layerOf(doc: XmlDoc, ports: IrPorts): IrLayer {
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
  return new IrLayer(ports, id, name ?? '', type, version ?? '', extra);
}

/** Builds the IrGraph of a document from the tokenizer's events. */
export class IrSink implements XmlSink {
  root: IrGraph | undefined;
  /** The ports of every layer of the document. */
  readonly ports = new IrPorts();
  /** The open elements: what each is to the reader, and its record (parallel stacks: no frame objects). */
  private readonly kinds: number[] = [];
  private readonly xs: unknown[] = [];
  private depth = 0;
  /** The open `<dim>`'s text: one plain run as a span (read as a number if it is one), else a string. */
  private dimStart = -1;
  private dimEnd = -1;
  private dimText: string | undefined;
  /**
   * The open port's row and dims, the first nDims of `dims` (ports never nest: one is open at a
   * time; a counter, since setting an array's length is a runtime call, measured).
   */
  private port = -1;
  private readonly dims: DimText[] = [];
  private nDims = 0;
  private portsIn = false;
  /** The last RECENT distinct dims lists made (a ring). */
  private readonly recent: (readonly DimText[])[] = new Array<readonly DimText[]>(RECENT).fill(NONE);
  private recentNext = 0;

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
            (px as IrLayer[]).push((x = layerOf(doc, this.ports)));
          }
          break;
        case LAYER: {
          const L = px as IrLayer;
          if (tag === 'input' && L.inStart < 0) {
            kind = PORTS;
            x = L;
            L.inStart = this.ports.count;
            this.portsIn = true;
          } else if (tag === 'output' && L.outStart < 0) {
            kind = PORTS;
            x = L;
            L.outStart = this.ports.count;
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
            const names = doc.attrCount > 2 && doc.attrIs(2, 'names') ? 2 : doc.attrIndex('names');
            this.port = this.ports.add(idOf(doc, 'id', 0), valueOf(doc, 'precision', 1), names < 0 ? undefined : doc.attrValueUnique(names));
            this.nDims = 0;
          }
          break;
        case PORT: {
          if (tag === 'dim') {
            kind = DIM;
            this.dimStart = this.dimEnd = -1;
            this.dimText = undefined;
          } else if (tag === 'rt_info' && !this.ports.rt?.has(this.port)) {
            kind = KEEP;
            (this.ports.rt ??= new Map()).set(this.port, (x = elementOf(tag, doc)));
          }
          break;
        }
        case EDGES:
          if (tag === 'edge') {
            kind = EDGE;
            const e = px as IrEdges;
            e.fromLayer.push(idOf(doc, 'from-layer', 0));
            e.fromPort.push(idOf(doc, 'from-port', 1));
            e.toLayer.push(idOf(doc, 'to-layer', 2));
            e.toPort.push(idOf(doc, 'to-port', 3));
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
   * The port's dims as a list: one of the last RECENT lists when equal to it (ports of a net mostly
   * repeat the shapes just before them, e.g. a chain's `[1,64]` and `[1]` in turn; lists are only
   * read, so they may be shared, and the reader makes one type of ports sharing a list).
   */
  private dimsList(): readonly DimText[] {
    const dims = this.dims;
    const n = this.nDims;
    const recent = this.recent;
    for (let r = 0; r < RECENT; r++) {
      const last = recent[r]!;
      if (last.length !== n) continue;
      let i = 0;
      while (i < n && dims[i] === last[i]) i++;
      if (i === n) return last;
    }
    const list = dims.slice(0, n);
    recent[this.recentNext] = list;
    this.recentNext = (this.recentNext + 1) % RECENT;
    return list;
  }

  close(doc: XmlDoc): void {
    const d = --this.depth;
    const kind = this.kinds[d];
    if (kind === DIM) {
      if (this.dimStart >= 0) {
        const v = doc.textUint(this.dimStart, this.dimEnd, TextKind.PLAIN);
        if (v >= 0) this.dims[this.nDims++] = v;
        else {
          this.dims[this.nDims++] = doc.text(this.dimStart, this.dimEnd, TextKind.PLAIN);
          this.ports.textDims++;
        }
      } else {
        this.dims[this.nDims++] = this.dimText ?? '';
        this.ports.textDims++;
      }
    } else if (kind === PORT) {
      if (this.nDims) this.ports.dims[this.port] = this.dimsList();
    } else if (kind === PORTS) {
      const L = this.xs[d] as IrLayer;
      if (this.portsIn) L.inCount = this.ports.count - L.inStart;
      else L.outCount = this.ports.count - L.outStart;
    }
    this.xs[d] = undefined;
  }
}
