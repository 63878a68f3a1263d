import { allGraphs, type Graph } from '../graph/graph.js';

/**
 * Removes what nothing reads from a converted ONNX model: nodes none of whose outputs is used or
 * is a graph output, and initializers nothing reads. Conversion leaves such nodes where a mapping
 * recognized a pattern and wrote it as one op (ovir's "all axes" = range(0, rank(x)) read back as
 * absent axes): the pattern's own nodes then feed nothing. One reverse pass per graph (nodes are
 * in topological order, so a node's readers come after it); ONNX ops have no side effects.
 */
export function pruneUnused(root: Graph): void {
  for (const g of allGraphs(root)) {
    const outputs = new Set(g.outputs);
    const keep: boolean[] = new Array<boolean>(g.nodes.length);
    for (let i = g.nodes.length - 1; i >= 0; i--) {
      const n = g.nodes[i]!;
      const live = n.outputs.some((o) => o.uses.length > 0 || outputs.has(o));
      keep[i] = live;
      if (!live) for (let k = 0; k < n.inputs.length; k++) n.setInput(k, null);
    }
    if (keep.includes(false)) g.nodes = g.nodes.filter((_, i) => keep[i]);
    const used = g.initializers.filter((v) => v.uses.length > 0 || outputs.has(v));
    if (used.length !== g.initializers.length) g.initializers.splice(0, g.initializers.length, ...used);
  }
}
