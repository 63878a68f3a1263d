import { allGraphs, type Graph } from '../graph/graph.js';
import type { Value } from '../graph/value.js';
import { captureStart } from '../onnx/encode.js';

/**
 * Gives every value of an ONNX-dialect model one name, unique across the whole model (main graph
 * and every branch), which is what ONNX scoping asks (SSA, no shadowing of outer names). Main
 * inputs and outputs are named first so that they keep their names; a body parameter (a capture)
 * takes the name of the outer value it is bound to, which is how the encoder refers to it. Walks
 * graphs top-down (pre-order), so an outer value is named before the bodies that read it.
 */
export function assignOnnxNames(root: Graph): void {
  const used = new Set<string>();
  const named = new Set<Value>();
  const claim = (v: Value, fallback: string): void => {
    if (named.has(v)) return;
    const base = preferred(v) || fallback;
    let name = base;
    for (let k = 1; used.has(name); k++) name = `${base}_${k}`;
    used.add(name);
    v.names = [name];
    named.add(v);
  };
  root.inputs.forEach((v, i) => claim(v, `input_${i}`));
  root.outputs.forEach((v, i) => claim(v, `output_${i}`));
  const nodeNames = new Set<string>();
  for (const g of allGraphs(root)) {
    const owner = g.owner;
    if (owner) {
      const body = owner.node.bodies.get(owner.key)!;
      const captures = captureStart(owner.node);
      for (const b of body.inputs) {
        if (b.from < captures) continue; // a formal input (Loop's iteration_num, cond, v…) keeps its own name
        const outer = owner.node.inputs[b.from];
        if (outer && !named.has(b.param)) { b.param.names = [...outer.names]; named.add(b.param); }
      }
      g.inputs.forEach((v, i) => claim(v, `${g.path}/input_${i}`));
    }
    g.initializers.forEach((v, i) => claim(v, `${g.path === 'main' ? '' : g.path + '/'}const_${i}`));
    for (const n of g.nodes) {
      n.outputs.forEach((v, i) => claim(v, `${n.name || n.op}:${i}`));
      let name = n.name || n.op;
      for (let k = 1; nodeNames.has(name); k++) name = `${n.name || n.op}_${k}`;
      nodeNames.add(name);
      n.name = name;
    }
    g.outputs.forEach((v, i) => claim(v, `${g.path}/output_${i}`));
  }
}

/** IR port names are a sorted set: prefer the first; a Parameter's layer name when it has none. */
function preferred(v: Value): string {
  return v.names.find((s) => s !== '') ?? v.meta['layerName'] ?? '';
}
