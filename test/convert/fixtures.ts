import { A, tensorFromFloat32, tensorFromInt64, type Graph, type Node, type Value } from '../../src/graph/index.js';
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

/** then = Concat(a, b), else = b (direct): an If whose data are of element type `elem`. */
export function typedIf(b: Builder, elem: import('../../src/graph/index.js').ElementTypeName): { ifNode: Node } {
  const g = b.graph;
  const cond = b.input('cond', 'boolean', []);
  const x = b.input('a', elem, [2]);
  const y = b.input('b', elem, [2]);
  const ifNode = b.ifNode(g, cond, ['out'], `If_${elem}`);
  const [tk, ek] = bodyKeys(b);
  const t = b.body(ifNode, tk);
  b.results(t, [b.op(t, 'Concat', [x, y], 'joined', { axis: A.int(0) })]);
  const e = b.body(ifNode, ek);
  b.results(e, [b.op(e, 'Concat', [y, y], 'doubled', { axis: A.int(0) })]);
  b.output(ifNode.outputs[0]!);
  return { ifNode };
}

/** An If that mixes ops from every family in its branches (shape, reduce, gather, nn). */
export function opsIf(b: Builder): { ifNode: Node } {
  const g = b.graph;
  const cond = b.input('cond', 'boolean', []);
  const x = b.input('x', 'f32', [2, 3]);
  const ifNode = b.ifNode(g, cond, ['r'], 'If_ops');
  const [tk, ek] = bodyKeys(b);
  const t = b.body(ifNode, tk);
  const axes = b.init('axes1', tensorFromInt64([1]), t);
  const tr = b.op(t, 'Transpose', [x], 'xt', { perm: A.ints([1, 0]) });
  const mm = b.op(t, 'MatMul', [x, tr], 'xxt');
  const sm = b.op(t, 'Softmax', [mm], 'sm', { axis: A.int(-1) });
  b.results(t, [b.op(t, 'ReduceMax', [sm, axes], 'rmax', { keepdims: A.int(0) })]);
  const e = b.body(ifNode, ek);
  const idx = b.init('idx', tensorFromInt64([1, 0]), e);
  const gat = b.op(e, 'Gather', [x, idx], 'g', { axis: A.int(0) });
  const rl = b.op(e, 'Relu', [gat], 'rl');
  const sg = b.op(e, 'Sigmoid', [rl], 'sg');
  b.results(e, [b.op(e, 'ReduceSum', [sg, b.init('axes0', tensorFromInt64([1]), e)], 'rsum', { keepdims: A.int(0) })]);
  b.output(ifNode.outputs[0]!);
  return { ifNode };
}
