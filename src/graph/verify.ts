import { onnxBodyKind } from './body-kinds.js';
import { diag, type Diagnostic } from '../diag/diagnostic.js';
import { allGraphs, type Graph } from './graph.js';
import type { Value } from './value.js';
import { ValueTable } from './id-table.js';

/**
 * Checks the invariants every pass relies on, over the graph and all its bodies:
 * - scoping: a node reads only values of its own graph; outer values enter a body only through
 *   its input bindings; graph outputs are values of that graph;
 * - SSA: each value has one producer (or is an input/initializer), listed once;
 * - acyclicity: nodes are in topological order (every input defined before it is read);
 * - bindings: every body parameter is bound exactly once to an existing node input, and every
 *   output binding names an existing body output and node output.
 * Returns all problems found; iterative, so deep nesting cannot overflow the stack.
 */
export function verifyGraph(root: Graph): Diagnostic[] {
  const out: Diagnostic[] = [];
  // which graph defined each value so far (graphs numbered as visited): one table, not a Set per graph
  const definedIn = new ValueTable<number>(root);
  let k = 0;
  for (const g of allGraphs(root)) verifyOne(g, k++, definedIn, out);
  return out;
}

function verifyOne(g: Graph, k: number, definedIn: ValueTable<number>, out: Diagnostic[]): void {
  const define = (v: Value) => {
    if (definedIn.get(v) === k) out.push(diag('GRAPH_DUPLICATE_PRODUCER', g.path, { value: v.label }));
    definedIn.set(v, k);
  };
  g.inputs.forEach(define);
  g.initializers.forEach(define);
  // Runs over every node of every converted model: plain loops, no closure or iterator per node.
  for (const n of g.nodes) {
    const inputs = n.inputs;
    for (let index = 0; index < inputs.length; index++) {
      const v = inputs[index];
      if (!v) continue;
      if (v.graph !== g) out.push(diag('GRAPH_FOREIGN_VALUE', n.path, { index, value: v.label }));
      else if (definedIn.get(v) !== k) out.push(diag('GRAPH_USE_BEFORE_DEF', n.path, { index, value: v.label }));
    }
    if (n.bodies.size) n.bodies.forEach((body, key) => {
      const seen = new Set<Value>();
      for (const b of body.inputs) {
        // Loop-5's iteration counter Parameter is fed by the loop itself (external_port_id -1).
        if (b.from === -1 && b.extra?.purpose === 'current_iteration') {
          if (seen.has(b.param)) out.push(diag('GRAPH_BINDING_TWICE', n.path, { body: key, param: b.param.label }));
          seen.add(b.param);
          continue;
        }
        if (b.from < 0 || b.from >= n.inputs.length || !n.inputs[b.from]) {
          out.push(diag('GRAPH_BINDING_BAD_INPUT', n.path, { body: key, param: b.param.label, from: b.from }));
        }
        if (seen.has(b.param)) out.push(diag('GRAPH_BINDING_TWICE', n.path, { body: key, param: b.param.label }));
        seen.add(b.param);
      }
      // ONNX Loop/Scan formal inputs are fed by the op itself when the node input is empty
      // (iteration_num of a Loop without M); only captures must be bound.
      const formal = n.dialect === 'onnx' && onnxBodyKind(n.op, n.domain)?.layout(Number(n.version)).formalInputs === true;
      for (const p of body.graph.inputs) {
        if (!seen.has(p) && !(formal && p.metaView['onnxCapture'] !== true)) out.push(diag('GRAPH_BINDING_UNBOUND_PARAM', n.path, { body: key, param: p.label }));
      }
      const targets = new Set<number>();
      for (const b of body.outputs) {
        // Loop-5's execution-condition Result feeds the loop itself, not a node output.
        const special = b.to === -1 && b.extra?.purpose === 'execution_condition';
        if (b.result < 0 || b.result >= body.graph.outputs.length) {
          out.push(diag('GRAPH_BINDING_BAD_OUTPUT', n.path, { body: key, detail: `names body output ${b.result}, which does not exist` }));
        }
        if (special) continue;
        if (b.to < 0 || b.to >= n.outputs.length) {
          out.push(diag('GRAPH_BINDING_BAD_OUTPUT', n.path, { body: key, detail: `targets node output ${b.to}, which does not exist` }));
        } else if (targets.has(b.to)) {
          out.push(diag('GRAPH_BINDING_BAD_OUTPUT', n.path, { body: key, detail: `targets node output ${b.to} twice` }));
        }
        targets.add(b.to);
      }
    });
    for (const v of n.outputs) {
      if (v.producer !== n) out.push(diag('GRAPH_DUPLICATE_PRODUCER', n.path, { value: v.label }));
      define(v);
    }
  }
  g.outputs.forEach((v, index) => {
    if (v.graph !== g) out.push(diag('GRAPH_OUTPUT_FOREIGN', g.path, { index, value: v.label }));
    else if (definedIn.get(v) !== k) out.push(diag('GRAPH_USE_BEFORE_DEF', g.path, { index: `output ${index}`, value: v.label }));
  });
}
