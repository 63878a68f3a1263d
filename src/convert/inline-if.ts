import type { Graph } from '../graph/graph.js';
import type { Node } from '../graph/node.js';
import type { Value } from '../graph/value.js';

/**
 * Replaces an If (ONNX If or OpenVINO If-8) whose condition is known by the body it selects, in
 * the graph that holds it: the body's parameters are rewired to the values bound to them (its
 * captures), its initializers and nodes move into the graph (nested bodies move with their
 * nodes), and every reader of an If output reads the branch's result instead. An output keeps its
 * names: a result computed in the branch takes them; a result that is a value of the outer graph
 * (a pass-through, or one result feeding two outputs) gets a copy node (ONNX Identity, OpenVINO
 * Convert to its own type) carrying them, so graph outputs keep their names. Returns the moved
 * nodes, in order (the If removed from nowhere: the caller drops it from its node list), or null
 * when the If cannot be inlined (no such body).
 */
export function inlineIf(node: Node, cond: boolean): Node[] | null {
  const key = node.dialect === 'onnx' ? (cond ? 'then_branch' : 'else_branch') : (cond ? 'then_body' : 'else_body');
  const body = node.bodies.get(key);
  if (!body) return null;
  const g = node.graph;
  const inner = body.graph;

  // 1. parameters read the bound outer values
  const outerOf = new Map<Value, Value>();
  for (const b of body.inputs) {
    const outer = node.inputs[b.from];
    if (outer) outerOf.set(b.param, outer);
  }
  for (const [param, outer] of outerOf) {
    for (const u of [...param.uses]) u.node.setInput(u.index, outer);
  }
  const results = inner.outputs.map((v) => outerOf.get(v) ?? v);
  for (let k = 0; k < node.inputs.length; k++) node.setInput(k, null);

  // 2. initializers and nodes move into g
  const moved = new Set<Value>();
  for (const c of inner.initializers) { c.graph = g; g.initializers.push(c); moved.add(c); }
  const nodes = [...inner.nodes];
  for (const n of nodes) {
    n.graph = g;
    for (const o of n.outputs) { o.graph = g; moved.add(o); }
  }

  // 3. readers of the If outputs read the results; names stay with the outputs
  const graphOutputs = new Map<Value, number[]>();
  g.outputs.forEach((v, k) => graphOutputs.set(v, [...(graphOutputs.get(v) ?? []), k]));
  const claimed = new Set<Value>();
  for (const ob of body.outputs) {
    const out = node.outputs[ob.to];
    let res = results[ob.result];
    if (!out || !res) continue;
    if (out.names.length > 0 && moved.has(res) && !claimed.has(res) && !graphOutputs.has(res)) {
      res.names = [...out.names];
      claimed.add(res);
    } else if (graphOutputs.has(out)) {
      const copy = copyNode(g, node, res, out);
      nodes.push(copy);
      res = copy.outputs[0]!;
    }
    for (const u of [...out.uses]) u.node.setInput(u.index, res);
    for (const k of graphOutputs.get(out) ?? []) g.outputs[k] = res;
  }
  node.bodies.clear();
  return nodes;
}

/** A node computing `src` unchanged under `out`'s names (it is not added to g.nodes: the caller places it). */
function copyNode(g: Graph, ifNode: Node, src: Value, out: Value): Node {
  const onnx = ifNode.dialect === 'onnx';
  const n = g.addNode(onnx
    ? { dialect: 'onnx', op: 'Identity', version: ifNode.version, name: `${ifNode.name || 'If'}/${out.name}` }
    : { dialect: 'ov', op: 'Convert', version: 'opset1', name: `${ifNode.name || 'If'}/${out.name || 'output'}` });
  g.nodes.pop();
  const elem = src.type?.kind === 'tensor' ? src.type.elem : out.type?.kind === 'tensor' ? out.type.elem : 'dynamic';
  if (!onnx) n.attrs.set('destination_type', { type: 'raw', value: elem });
  n.addInput(src);
  const v = n.addOutput(src.type ?? out.type, [...out.names]);
  v.meta = { ...out.meta };
  return n;
}
