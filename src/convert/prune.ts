import type { Diagnostics } from '../diag/diagnostic.js';
import { allGraphs, type Graph } from '../graph/graph.js';
import type { Model } from '../graph/model.js';
import type { Node } from '../graph/node.js';
import type { Value } from '../graph/value.js';

/**
 * Removes what nothing reads from a converted model: nodes none of whose outputs is used or is a
 * graph output, and initializers nothing reads. Conversion leaves such nodes where a mapping
 * recognized a pattern and wrote it as one op (ovir's "all axes" = range(0, rank(x)) read back as
 * absent axes; Div(a - Mod(a, b), b) read back as a flooring Divide): the pattern's own nodes then
 * feed nothing. One reverse pass per graph (nodes are in topological order, so a node's readers
 * come after it); no op has side effects but OpenVINO's state writer Assign (isSink), which stays.
 */
export function pruneUnused(root: Graph): void {
  for (const g of allGraphs(root)) {
    const outputs = new Set(g.outputs);
    const keep: boolean[] = new Array<boolean>(g.nodes.length);
    for (let i = g.nodes.length - 1; i >= 0; i--) {
      const n = g.nodes[i]!;
      const live = isSink(n) || n.outputs.some((o) => o.uses.length > 0 || outputs.has(o));
      keep[i] = live;
      if (!live) for (let k = 0; k < n.inputs.length; k++) n.setInput(k, null);
    }
    if (keep.includes(false)) g.nodes = g.nodes.filter((_, i) => keep[i]);
    const used = g.initializers.filter((v) => v.uses.length > 0 || outputs.has(v));
    if (used.length !== g.initializers.length) g.initializers.splice(0, g.initializers.length, ...used);
  }
}

/** Nodes that matter without feeding an output: no outputs at all, or OpenVINO's state writers. */
function isSink(n: Node): boolean {
  return n.outputs.length === 0 || (n.dialect === 'ov' && n.op === 'Assign');
}

/**
 * Removes every node and initializer that does not contribute to a graph output (or a sink), in
 * the main graph and in the bodies of the nodes that stay. Graph inputs and body parameters stay.
 * One backward walk from the outputs over an explicit worklist (no recursion), then one filter
 * per graph: linear in nodes and edges.
 */
export function pruneDeadNodes(root: Graph): { nodes: number; initializers: number } {
  const liveNodes = new Set<Node>();
  const liveValues = new Set<Value>();
  const work: Value[] = [];
  const graphs: Graph[] = [];
  const mark = (v: Value | null) => {
    if (v && !liveValues.has(v)) { liveValues.add(v); work.push(v); }
  };
  const keepNode = (n: Node) => {
    if (liveNodes.has(n)) return;
    liveNodes.add(n);
    for (const v of n.inputs) mark(v);
    for (const b of n.bodies.values()) enter(b.graph);
  };
  const enter = (g: Graph) => {
    graphs.push(g);
    for (const v of g.outputs) mark(v);
    for (const n of g.nodes) if (isSink(n)) keepNode(n);
  };
  enter(root);
  while (work.length) {
    const n = work.pop()!.producer;
    if (n) keepNode(n);
  }
  let nodes = 0;
  let initializers = 0;
  for (const g of graphs) {
    const dead = g.nodes.filter((n) => !liveNodes.has(n));
    for (const n of dead) for (let i = 0; i < n.inputs.length; i++) n.setInput(i, null);
    nodes += dead.length;
    if (dead.length) g.nodes = g.nodes.filter((n) => liveNodes.has(n));
    const keep = g.initializers.filter((v) => liveValues.has(v));
    initializers += g.initializers.length - keep.length;
    g.initializers.splice(0, g.initializers.length, ...keep);
  }
  return { nodes, initializers };
}

/**
 * ovc's `--output a,b`: the main graph's outputs become exactly the named tensors, in that order
 * (a current output, or any value of the main graph: the model is cut there), and everything
 * that no longer feeds them is removed. Unknown names are CONVERT_BAD_OPTION diagnostics (the
 * model is left unchanged then).
 */
export function keepOnlyOutputs(model: Model, names: readonly string[], diags: Diagnostics): void {
  const g = model.graph;
  const resultNames = Array.isArray(g.meta.resultNames) ? g.meta.resultNames : [];
  const byName = new Map<string, Value>();
  for (const v of [...g.inputs, ...g.initializers, ...g.nodes.flatMap((n) => n.outputs)]) for (const n of v.names) if (!byName.has(n)) byName.set(n, v);
  const picked: { value: Value; from: number }[] = [];
  let bad = false;
  for (const name of names) {
    let from = g.outputs.findIndex((v, i) => v.names.includes(name) || resultNames[i] === name);
    const value = from >= 0 ? g.outputs[from] : byName.get(name);
    if (!value) {
      const have = g.outputs.map((v, i) => v.names[0] || String(resultNames[i] ?? v.label)).map((n) => `'${n}'`).join(', ');
      diags.add('CONVERT_BAD_OPTION', 'main', { detail: `--output ${name}: the model has no tensor named '${name}' (its outputs: ${have})` });
      bad = true;
      continue;
    }
    picked.push({ value, from });
  }
  if (bad) return;
  // graph-level metadata kept per output position (IR Result layer names and attributes)
  const kept = g.meta.resultNames;
  if (kept?.length === g.outputs.length) g.meta.resultNames = picked.map((p) => (p.from >= 0 ? kept[p.from]! : `${p.value.name || p.value.label}/sink_port_0`));
  const results = g.meta.irResults;
  if (results?.length === g.outputs.length) g.meta.irResults = picked.map((p) => (p.from >= 0 ? results[p.from]! : {}));
  g.outputs.splice(0, g.outputs.length, ...picked.map((p) => p.value));
  pruneDeadNodes(g);
}
