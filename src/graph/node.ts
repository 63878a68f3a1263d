import type { Meta } from './meta.js';
import type { Attr } from './attr.js';
import type { Body } from './body.js';
import type { Graph } from './graph.js';
import type { ValueType } from './types.js';
import { Value } from './value.js';

export type Dialect = 'onnx' | 'ov';

let nextNodeId = 1;

/**
 * One operation. `version` is IR's layer version as written (`opset8`) for the ov dialect, and the
 * model's opset for the node's domain (`'17'`) for onnx. Inputs may be null (ONNX's empty optional
 * input). Bodies are keyed by their attribute/element name (then_branch, then_body, body…).
 */
export class Node {
  readonly id = nextNodeId++;
  graph: Graph;
  dialect: Dialect;
  domain: string;
  op: string;
  version: string;
  name: string;
  readonly inputs: (Value | null)[] = [];
  readonly outputs: Value[] = [];
  /** Position in the graph when created (file order for decoded models): labels unnamed nodes in O(1). */
  readonly ordinal: number;
  attrs = new Map<string, Attr>();
  bodies = new Map<string, Body>();
  meta: Meta = {};

  constructor(graph: Graph, init: { dialect: Dialect; op: string; version: string; domain?: string; name?: string }) {
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
    this.inputs.push(v);
    if (v) v.uses.push({ node: this, index });
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
    if (v) v.uses.push({ node: this, index });
  }

  /** Creates output value number `outputs.length`. */
  addOutput(type: ValueType | null, names: string[] = []): Value {
    const v = new Value(this.graph, type, names);
    v.producer = this;
    v.outputIndex = this.outputs.length;
    this.outputs.push(v);
    return v;
  }

  attr(name: string): Attr | undefined {
    return this.attrs.get(name);
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
