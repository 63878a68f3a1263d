import { allGraphs, type Graph } from '../graph/graph.js';
import { ValueTable } from '../graph/id-table.js';
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
  // The values already named: an IdTable (an array slot per value id) rather than a Set of ids,
  // whose has/add were a third of this pass on ifs2000's IR → ONNX.
  const named = new ValueTable<true>(root);
  // Per base name, the suffix to try next: every smaller one is taken (names are never released),
  // so a name repeated n times costs O(n) in all, not O(n²).
  const nextSuffix = new Map<string, number>();
  const unique = (base: string, taken: Set<string>): string => {
    let name = base;
    if (taken.has(name)) {
      let k = nextSuffix.get(base) ?? 1;
      for (name = `${base}_${k}`; taken.has(name); name = `${base}_${++k}`);
      nextSuffix.set(base, k + 1);
    }
    taken.add(name);
    return name;
  };
  /** Names `v` after its own preferred name, or else the fallback (built only then). */
  const claim = (v: Value, fallback: (k: number) => string, k: number): void => {
    if (named.has(v)) return;
    setName(v, unique(preferred(v) || fallback(k), used));
    named.set(v, true);
  };
  root.inputs.forEach((v, i) => claim(v, (k) => `input_${k}`, i));
  root.outputs.forEach((v, i) => claim(v, (k) => `output_${k}`, i));
  const nodeNames = new Set<string>();
  const nodeSuffix = new Map<string, number>();
  for (const g of allGraphs(root)) {
    const owner = g.owner;
    if (owner) {
      const body = owner.node.bodies.get(owner.key)!;
      const captures = captureStart(owner.node);
      for (const b of body.inputs) {
        if (b.from < captures) continue; // a formal input (Loop's iteration_num, cond, v…) keeps its own name
        const outer = owner.node.inputs[b.from];
        if (outer && !named.has(b.param)) { b.param.names = [...outer.names]; named.set(b.param, true); }
      }
      g.inputs.forEach((v, i) => claim(v, (k) => `${g.path}/input_${k}`, i));
    }
    g.initializers.forEach((v, i) => claim(v, (k) => `${g.path === 'main' ? '' : g.path + '/'}const_${k}`, i));
    for (const n of g.nodes) {
      const outs = n.outputs;
      for (let i = 0; i < outs.length; i++) {
        const v = outs[i]!;
        if (named.has(v)) continue;
        const own = preferred(v);
        setName(v, unique(own || `${n.name || n.op}:${i}`, used));
        named.set(v, true);
      }
      const base = n.name || n.op;
      let name = base;
      if (nodeNames.has(name)) {
        let k = nodeSuffix.get(base) ?? 1;
        for (name = `${base}_${k}`; nodeNames.has(name); name = `${base}_${++k}`);
        nodeSuffix.set(base, k + 1);
      }
      nodeNames.add(name);
      n.name = name;
    }
    g.outputs.forEach((v, i) => claim(v, (k) => `${g.path}/output_${k}`, i));
  }
}

/** IR port names are a sorted set: prefer the first; a Parameter's layer name when it has none. */
function preferred(v: Value): string {
  const names = v.names;
  for (let i = 0; i < names.length; i++) if (names[i] !== '') return names[i]!;
  return v.metaView['layerName'] ?? '';
}

/** Makes `name` the value's one name; a value already named exactly so keeps its list (no new array per value). */
function setName(v: Value, name: string): void {
  if (v.names.length !== 1 || v.names[0] !== name) v.names = [name];
}
