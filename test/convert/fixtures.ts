import { A, tensorFromFloat32, type Graph, type Node, type Value } from '../../src/graph/index.js';
import { Builder } from './builder.js';

/**
 * The If cases of the brief, built in either dialect. Each returns the builder (model) and the If
 * node(s). ONNX fixtures use opset `opset` (default 17).
 */
const bodyKeys = (b: Builder): [string, string] => (b.dialect === 'ov' ? ['then_body', 'else_body'] : ['then_branch', 'else_branch']);
const add = (b: Builder) => (b.dialect === 'ov' ? 'Add' : 'Add');
const neg = (b: Builder) => (b.dialect === 'ov' ? 'Negative' : 'Neg');

/** The seed 003 example: then = x + z, else = x + w; x read by both branches. */
export function seedExample(b: Builder): { ifNode: Node } {
  const g = b.graph;
  const cond = b.input('cond', 'boolean', []);
  const x = b.input('x', 'f32', [2, 4]);
  const z = b.input('z', 'f32', [2, 4]);
  const w = b.input('w', 'f32', [2, 4]);
  const ifNode = b.ifNode(g, cond, ['y'], 'if/cond');
  const [tk, ek] = bodyKeys(b);
  const t = b.body(ifNode, tk);
  b.results(t, [b.op(t, add(b), [x, z], 'then_sum', {}, opAttrs(b))]);
  const e = b.body(ifNode, ek);
  b.results(e, [b.op(e, add(b), [x, w], 'else_sum', {}, opAttrs(b))]);
  b.output(ifNode.outputs[0]!);
  return { ifNode };
}

function opAttrs(b: Builder): { version?: string } {
  return b.dialect === 'ov' ? { version: 'opset1' } : {};
}

/** then = -a, else = -b (branches read different outer values). */
export function differentOuter(b: Builder): { ifNode: Node } {
  const g = b.graph;
  const cond = b.input('cond', 'boolean', []);
  const x = b.input('a', 'f32', [3]);
  const y = b.input('b', 'f32', [3]);
  const ifNode = b.ifNode(g, cond, ['out'], 'If_diff');
  const [tk, ek] = bodyKeys(b);
  const t = b.body(ifNode, tk);
  b.results(t, [b.op(t, neg(b), [x], 'neg_a')]);
  const e = b.body(ifNode, ek);
  b.results(e, [b.op(e, neg(b), [y], 'neg_b')]);
  b.output(ifNode.outputs[0]!);
  return { ifNode };
}

/** An If nested `depth` levels deep in then-branches; the innermost reads main's `x`. */
export function nested(b: Builder, depth: number): { ifNodes: Node[] } {
  const cond = b.input('cond', 'boolean', []);
  const x = b.input('x', 'f32', [2]);
  const [tk, ek] = bodyKeys(b);
  const ifNodes: Node[] = [];
  let g: Graph = b.graph;
  let pendingOut: ((v: Value) => void) | null = null;
  const roots: { g: Graph; node: Node }[] = [];
  for (let d = 0; d < depth; d++) {
    const n = b.ifNode(g, b.use(g, cond), [`y_${d}`], `If_${d}`);
    ifNodes.push(n);
    const e = b.body(n, ek);
    b.results(e, [b.op(e, neg(b), [x], `neg_${d}`)]);
    const t = b.body(n, tk);
    roots.push({ g, node: n });
    g = t;
  }
  // innermost then: x + x
  b.results(g, [b.op(g, add(b), [x, x], 'inner_sum', {}, opAttrs(b))]);
  // close each then-body with the If nested in it, innermost first.
  for (let d = depth - 1; d >= 1; d--) {
    const { g: outerThen, node } = roots[d]!;
    b.results(outerThen, [node.outputs[0]!]);
  }
  void pendingOut;
  b.output(ifNodes[0]!.outputs[0]!);
  return { ifNodes };
}

/** Branch outputs with no node: then gives an outer value, else gives its own initializer; a
 * second output gives the If input (the outer value) in both. */
export function directOutputs(b: Builder): { ifNode: Node } {
  const g = b.graph;
  const cond = b.input('cond', 'boolean', [1]);
  const x = b.input('x', 'f32', [2]);
  const ifNode = b.ifNode(g, cond, ['first', 'second'], 'If_direct');
  const [tk, ek] = bodyKeys(b);
  const t = b.body(ifNode, tk);
  b.results(t, [x, x]);
  const e = b.body(ifNode, ek);
  const c = b.init('else_const', tensorFromFloat32([7, 8]), e);
  b.results(e, [c, x]);
  b.output(ifNode.outputs[0]!);
  b.output(ifNode.outputs[1]!);
  return { ifNode };
}

export { A };
