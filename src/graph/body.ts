import type { Graph } from './graph.js';
import type { Value } from './value.js';

/** Body parameter `param` (one of body.graph.inputs) is fed from input `from` of the owning node. */
export interface InputBinding {
  readonly param: Value;
  readonly from: number;
  /** IR port-map extras carried through (Loop/TensorIterator: axis, start, stride, purpose…). */
  readonly extra?: Readonly<Record<string, string>>;
}

/** Body output `result` (index into body.graph.outputs) becomes output `to` of the owning node. */
export interface OutputBinding {
  readonly result: number;
  readonly to: number;
  readonly extra?: Readonly<Record<string, string>>;
}

/**
 * A subgraph of a node (If then/else, Loop body) with its explicit bindings. This is IR's
 * port map, and what the ONNX decoder makes of implicit outer-scope reads: the only way an
 * outer value reaches a body.
 */
export class Body {
  graph: Graph;
  inputs: InputBinding[];
  outputs: OutputBinding[];
  /** IR back edges (Loop/TensorIterator), carried through. */
  backEdges: { fromLayer: string; fromPort: string; toLayer: string; toPort: string }[] = [];

  constructor(graph: Graph, inputs: InputBinding[] = [], outputs: OutputBinding[] = []) {
    this.graph = graph;
    this.inputs = inputs;
    this.outputs = outputs;
  }
}
