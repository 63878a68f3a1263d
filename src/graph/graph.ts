import type { Meta } from './meta.js';
import { Body } from './body.js';
import type { Tensor } from './tensor.js';
import { Node, type Dialect } from './node.js';
import type { ValueType } from './types.js';
import { Value } from './value.js';

/**
 * A graph: inputs (ONNX graph inputs / IR Parameters / body parameters), initializers (ONNX
 * initializers / IR Const), nodes in topological order, and outputs (ONNX graph outputs / IR
 * Results, a value may appear more than once). A body graph knows the node that owns it.
 */
export class Graph {
  name: string;
  readonly inputs: Value[] = [];
  readonly initializers: Value[] = [];
  nodes: Node[] = [];
  readonly outputs: Value[] = [];
  owner: { node: Node; key: string } | null = null;
  meta: Meta = {};

  constructor(name = 'main') {
    this.name = name;
  }

  addInput(type: ValueType | null, names: string[] = []): Value {
    const v = new Value(this, type, names);
    this.inputs.push(v);
    return v;
  }

  addInitializer(tensor: Tensor, names: string[] = []): Value {
    const v = new Value(this, { kind: 'tensor', elem: tensor.elem, shape: tensor.dims }, names);
    v.constant = tensor;
    this.initializers.push(v);
    return v;
  }

  addNode(init: { dialect: Dialect; op: string; version: string; domain?: string; name?: string }): Node {
    const n = new Node(this, init);
    this.nodes.push(n);
    return n;
  }

  /** Creates a body graph owned by `node` under `key` and attaches it. */
  addBody(node: Node, key: string): Body {
    const g = new Graph(key);
    g.owner = { node, key };
    const b = new Body(g);
    node.setBody(key, b);
    return b;
  }

  /**
   * `main`, or `<owner path>/<then|else|body>` for a body. Walks up the nesting (O(depth)): a pass
   * over every graph should build each path from its parent's (bodyPath) instead.
   */
  get path(): string {
    const parts: string[] = [];
    let g: Graph = this;
    while (g.owner) {
      parts.push(bodyKeyText(g.owner.key), g.owner.node.label);
      g = g.owner.node.graph;
    }
    parts.push(g.name || 'main');
    return parts.reverse().join('/');
  }

  /** Nesting depth: 0 for the main graph. */
  get depth(): number {
    let d = 0;
    for (let g: Graph = this; g.owner; g = g.owner.node.graph) d++;
    return d;
  }
}

/** Visits every graph (pre-order: a graph before its bodies) without recursion. */
export function* allGraphs(root: Graph): Generator<Graph> {
  const stack: Graph[] = [root];
  while (stack.length) {
    const g = stack.pop()!;
    yield g;
    for (let i = g.nodes.length - 1; i >= 0; i--) {
      const own = g.nodes[i]!.bodies;
      if (own.size === 0) continue; // most nodes: no array per node
      const bodies = [...own.values()];
      for (let k = bodies.length - 1; k >= 0; k--) stack.push(bodies[k]!.graph);
    }
  }
}

/** Visits every node of every graph (pre-order) without recursion. */
export function* allNodes(root: Graph): Generator<Node> {
  for (const g of allGraphs(root)) yield* g.nodes;
}

/** A body's key as paths spell it: then_branch → then, body → body. */
const bodyKeyText = (key: string): string => key.replace(/_(branch|body)$/, '');

/** The path of body graph `g` (`g.path`) from its owner graph's path, in O(1). */
export function bodyPath(ownerGraphPath: string, g: Graph): string {
  const o = g.owner;
  return o ? `${ownerGraphPath}/${o.node.label}/${bodyKeyText(o.key)}` : g.path;
}
