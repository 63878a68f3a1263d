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

interface IrLayerIds { params: [string, number][]; results: [string, number][] }

/**
 * A body's back edges as (body result index → body parameter) pairs. Back edges name body layers
 * by IR layer id; the ids are resolved through `graph.meta.irLayerIds` (recorded by the IR reader,
 * or by `setBackEdges`). Edges naming unknown layers are left out.
 */
export function backEdgePairs(body: Body): { result: number; param: Value }[] {
  const ids = body.graph.meta['irLayerIds'] as IrLayerIds | undefined;
  if (!ids) return [];
  const params = new Map(ids.params);
  const results = new Map(ids.results);
  const out: { result: number; param: Value }[] = [];
  for (const e of body.backEdges) {
    const r = results.get(e.fromLayer);
    const p = params.get(e.toLayer);
    const param = p === undefined ? undefined : body.graph.inputs[p];
    if (r !== undefined && param) out.push({ result: r, param });
  }
  return out;
}

/** Sets a body's back edges from (result index → parameter) pairs, with layer ids of its own. */
export function setBackEdges(body: Body, pairs: readonly { result: number; param: Value }[]): void {
  const g = body.graph;
  g.meta['irLayerIds'] = {
    params: g.inputs.map((_, i) => [`p${i}`, i]),
    results: g.outputs.map((_, i) => [`r${i}`, i]),
  } satisfies IrLayerIds;
  const position = new Map(g.inputs.map((p, i) => [p, i]));
  body.backEdges = pairs.map((e) => ({ fromLayer: `r${e.result}`, fromPort: '', toLayer: `p${position.get(e.param) ?? -1}`, toPort: '' }));
}
