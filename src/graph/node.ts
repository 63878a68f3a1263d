import { Annotated } from './meta.js';
import type { Attr } from './attr.js';
import type { Body } from './body.js';
import type { Graph } from './graph.js';
import type { ValueType } from './types.js';
import { append, Value } from './value.js';

export type Dialect = 'onnx' | 'ov';

let nextNodeId = 1;

/**
 * The bodies of every node without any: one shared, empty, read-only map (most nodes have no body,
 * and an empty Map costs about 180 bytes). Bodies are attached with `Graph.addBody`.
 */
class NoBodies extends Map<string, Body> {
  override set(): this {
    throw new Error('a node without bodies: attach one with Graph.addBody');
  }
}
const NO_BODIES: Map<string, Body> = new NoBodies();
const NO_ATTRS: ReadonlyMap<string, Attr> = new Map();

/**
 * One operation. `version` is IR's layer version as written (`opset8`) for the ov dialect, and the
 * model's opset for the node's domain (`'17'`) for onnx. Inputs may be null (ONNX's empty optional
 * input). Bodies are keyed by their attribute/element name (then_branch, then_body, body…).
 */
export class Node extends Annotated {
  readonly id = nextNodeId++;
  graph: Graph;
  dialect: Dialect;
  domain: string;
  op: string;
  version: string;
  name: string;
  /** The array may be replaced as inputs/outputs are added (see `append`): do not keep it across addInput/addOutput. */
  inputs: (Value | null)[] = [];
  outputs: Value[] = [];
  /** Position in the graph when created (file order for decoded models): labels unnamed nodes in O(1). */
  readonly ordinal: number;
  /** Created on first use (see `attrs`): most ONNX nodes have no attribute. */
  private attrMap: Map<string, Attr> | null = null;
  private bodyMap: Map<string, Body> | null = null;

  constructor(graph: Graph, init: { dialect: Dialect; op: string; version: string; domain?: string; name?: string }) {
    super();
    this.graph = graph;
    this.dialect = init.dialect;
    this.op = init.op;
    this.version = init.version;
    this.domain = init.domain ?? '';
    this.name = init.name ?? '';
    this.ordinal = graph.nodes.length;
  }

  /** Appends an input (null = absent optional input) and records the use. */
  addInput(v: Value | null): number {
    const index = this.inputs.length;
    this.inputs = append(this.inputs, v);
    if (v) v.uses = append(v.uses, { node: this, index });
    return index;
  }

  /** Replaces input `index`, keeping both values' use lists right. */
  setInput(index: number, v: Value | null): void {
    const old = this.inputs[index];
    if (old) {
      const k = old.uses.findIndex((u) => u.node === this && u.index === index);
      if (k >= 0) old.uses.splice(k, 1);
    }
    this.inputs[index] = v;
    if (v) v.uses = append(v.uses, { node: this, index });
  }

  /** Creates output value number `outputs.length`. */
  addOutput(type: ValueType | null, names: string[] = []): Value {
    const v = new Value(this.graph, type, names);
    v.producer = this;
    v.outputIndex = this.outputs.length;
    this.outputs = append(this.outputs, v);
    return v;
  }

  /** The attributes by name (the map is created on first access; `attr(name)` reads without creating it). */
  get attrs(): Map<string, Attr> {
    return (this.attrMap ??= new Map());
  }

  set attrs(m: Map<string, Attr>) {
    this.attrMap = m;
  }

  /** The attributes for reading only: no map is created for a node without any. */
  get attrsView(): ReadonlyMap<string, Attr> {
    return this.attrMap ?? NO_ATTRS;
  }

  /** Bodies by key (then_branch, else_branch, body…); read-only and shared while the node has none. */
  get bodies(): Map<string, Body> {
    return this.bodyMap ?? NO_BODIES;
  }

  /** Attaches `body` under `key` (Graph.addBody creates and attaches one). */
  setBody(key: string, body: Body): void {
    (this.bodyMap ??= new Map()).set(key, body);
  }

  attr(name: string): Attr | undefined {
    return this.attrMap?.get(name);
  }

  /**
   * The name, or `<op>#<ordinal>` when unnamed (its position when it was added to the graph: file
   * order for decoded models, stable when passes reorder nodes): the last component of a path.
   */
  get label(): string {
    if (this.name) return this.name;
    return `${this.op}#${this.ordinal}`;
  }

  /** `main/If_3/then/Conv_7` */
  get path(): string {
    return `${this.graph.path}/${this.label}`;
  }

  /** Whether op/domain match (ONNX's '' and 'ai.onnx' are the same domain). */
  is(op: string, domain = ''): boolean {
    const d = this.domain === 'ai.onnx' ? '' : this.domain;
    return this.op === op && d === (domain === 'ai.onnx' ? '' : domain);
  }
}

/** The version a rule is chosen by: ONNX opset as written, IR `opsetN` → N (NaN otherwise). */
export function nodeVersion(node: Node): number {
  if (node.dialect === 'ov') {
    const m = /^opset(\d+)$/.exec(node.version);
    return m ? Number(m[1]) : NaN;
  }
  const n = Number(node.version);
  return node.version.trim() !== '' && Number.isInteger(n) ? n : NaN;
}
