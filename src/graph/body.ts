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

/** One IR back edge as indices: body result `result` feeds body parameter `param` in the next iteration. */
export interface BackEdge { readonly result: number; readonly param: number }

/** Up to this many bindings, a body's are searched in place (no Map per body: nets hold thousands of small bodies). */
const FEW_BINDINGS = 16;

/**
 * A lookup of the binding of each body parameter (the first, as a search from the start finds
 * it; undefined for a parameter no binding names): a scan of the bindings for a body of a few,
 * a Map built once for a body of many.
 */
export function bindingLookup(body: Body | undefined): (param: Value) => InputBinding | undefined {
  const list = body?.inputs ?? [];
  if (list.length > FEW_BINDINGS) {
    const first = new Map<Value, InputBinding>();
    for (const b of list) if (!first.has(b.param)) first.set(b.param, b);
    return (p) => first.get(p);
  }
  return (p) => {
    for (let i = 0; i < list.length; i++) if (list[i]!.param === p) return list[i];
    return undefined;
  };
}

/**
 * What a body parameter stands for: the outer value its binding reads, at any depth (through the
 * parameters of the enclosing bodies); `v` itself when it is no bound parameter (a node output, a
 * constant, a main-graph input, a formal input no binding feeds); null when a binding names an
 * input the node does not have. `memo`: what earlier calls found, shared by a caller that asks
 * for many parameters of one model (each of a chain of nested bodies' parameters would walk the
 * chain again: quadratic in the nesting depth).
 */
export function boundOuterValue(v: Value, memo?: Map<Value, Value | null>): Value | null {
  let x = v;
  const walked: Value[] = [];
  let found: Value | null | undefined;
  for (let owner = x.graph.owner; owner && !x.producer && !x.constant; owner = x.graph.owner) {
    const known = memo?.get(x);
    if (known !== undefined) { found = known; break; }
    const b = owner.node.bodies.get(owner.key)?.inputs.find((i) => i.param === x);
    if (!b) break;
    walked.push(x);
    const outer = owner.node.inputs[b.from];
    if (!outer) { found = null; break; }
    x = outer;
  }
  const result = found === undefined ? x : found;
  if (memo) for (const w of walked) memo.set(w, result);
  return result;
}

interface LayerIds { params: [string, number][]; results: [string, number][] }

/**
 * The back edges of a body as result → parameter indices. IR names them by layer id; the reader
 * keeps the ids in `graph.meta.irLayerIds`. An edge naming no body Parameter/Result is `null`.
 */
export function backEdgeIndices(body: Body): (BackEdge | null)[] {
  const ids = body.graph.meta['irLayerIds'];
  const params = new Map(ids?.params ?? []);
  const results = new Map(ids?.results ?? []);
  return body.backEdges.map((e) => {
    const result = results.get(e.fromLayer);
    const param = params.get(e.toLayer);
    return result === undefined || param === undefined ? null : { result, param };
  });
}

/**
 * Sets the back edges of a body built in memory (not read from IR), for bodies of `params`
 * parameters and `results` results: the writer resolves them to the layer ids it assigns.
 */
export function setBackEdges(body: Body, edges: readonly BackEdge[], params: number, results: number): void {
  const ids: LayerIds = {
    params: Array.from({ length: params }, (_, i) => [`p${i}`, i]),
    results: Array.from({ length: results }, (_, j) => [`r${j}`, j]),
  };
  body.graph.meta['irLayerIds'] = ids;
  body.backEdges = edges.map((e) => ({ fromLayer: `r${e.result}`, fromPort: '0', toLayer: `p${e.param}`, toPort: '0' }));
}
