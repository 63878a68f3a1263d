import { describe, expect, it } from 'vitest';
import { OvirError } from '../../src/diag/diagnostic.js';
import type { Graph } from '../../src/graph/graph.js';
import type { Node } from '../../src/graph/node.js';
import { verifyGraph } from '../../src/graph/verify.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { ModelProto } from '../../src/onnx/proto-types.js';
import { T } from '../../src/onnx/schema.js';
import { decodeMessage } from '../../src/onnx/wire.js';
import * as ob from '../helpers/onnx-builder.js';

const cx = [ob.valueInfo('c', 'boolean', []), ob.valueInfo('x', 'f32', [2])];
const main = (nodes: ob.NodeProto[], outputs = ['y'], extra: Partial<ob.GraphInit> = {}) =>
  ob.encodeModelProto(ob.model({ graph: ob.graph({ name: 'g', inputs: cx, outputs: outputs.map((o) => ob.valueInfo(o, 'f32')), nodes, ...extra }) }));
const branch = (name: string, nodes: ob.NodeProto[], out: string, initializers: ob.TensorProto[] = []) =>
  ob.graph({ name, nodes, outputs: [ob.valueInfo(out, 'f32')], initializers });

function errorsOf(bytes: Uint8Array): { code: string; where: string; message: string }[] {
  try {
    decodeOnnx(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(OvirError);
    return (e as OvirError).diagnostics.map(({ code, where, message }) => ({ code, where, message }));
  }
  throw new Error('expected the decoder to report errors');
}

const body = (n: Node, key: string) => n.bodies.get(key)!;
const nodeByName = (g: Graph, name: string) => g.nodes.find((n) => n.name === name)!;

describe('scoping: outer values become explicit captures', () => {
  it('depth 1: both branches read x → one capture input [cond, x], a bound parameter in each branch', () => {
    const m = decodeOnnx(main([
      ob.ifNode('c', ['y'], branch('t', [ob.node('Add', ['x', 'x'], ['t0'])], 't0'), branch('e', [ob.node('Neg', ['x'], ['e0'])], 'e0'), { name: 'If_1' }),
    ]));
    const x = m.graph.inputs[1]!;
    const iff = m.graph.nodes[0]!;
    expect(iff.inputs).toEqual([m.graph.inputs[0], x]);
    for (const key of ['then_branch', 'else_branch']) {
      const b = body(iff, key);
      expect(b.graph.inputs).toHaveLength(1);
      const p = b.graph.inputs[0]!;
      expect(p.name).toBe('x');
      expect(p.type).toEqual(x.type);
      expect(b.inputs).toEqual([{ param: p, from: 1 }]);
      expect(b.graph.nodes[0]!.inputs[0]).toBe(p);
      expect(b.outputs).toEqual([{ result: 0, to: 0 }]);
    }
    expect(verifyGraph(m.graph)).toEqual([]);
  });

  it('depth 3: a read of a main-graph value at depth 3 binds it on every level between', () => {
    const level3 = branch('t3', [ob.node('Neg', ['x'], ['o3'])], 'o3');
    const level2 = branch('t2', [ob.ifNode('c', ['o2'], level3, branch('e3', [ob.node('Identity', ['w1'], ['p3'])], 'p3'), { name: 'If_3' })], 'o2');
    const level1 = branch('t1', [
      ob.node('Abs', ['x'], ['w1']),
      ob.ifNode('c', ['o1'], level2, branch('e2', [ob.node('Identity', ['w1'], ['p2'])], 'p2'), { name: 'If_2' }),
    ], 'o1');
    const m = decodeOnnx(main([ob.ifNode('c', ['y'], level1, branch('e1', [ob.node('Identity', ['x'], ['p1'])], 'p1'), { name: 'If_1' })]));
    expect(verifyGraph(m.graph)).toEqual([]);
    const [c, x] = m.graph.inputs;
    const ids = (vs: readonly (object | null)[]) => vs.map((v) => (v as { id: number }).id);
    const if1 = nodeByName(m.graph, 'If_1');
    // cond, then the captures: c (read by the nested If) and x
    expect(if1.inputs[0]).toBe(c);
    expect(ids(if1.inputs.slice(1)).sort()).toEqual(ids([c!, x!]).sort());
    const t1 = body(if1, 'then_branch').graph;
    const [c1, x1] = [t1.inputs.find((p) => p.name === 'c')!, t1.inputs.find((p) => p.name === 'x')!];
    expect(if1.inputs[body(if1, 'then_branch').inputs.find((b) => b.param === x1)!.from]).toBe(x);
    const w1 = t1.nodes[0]!.outputs[0]!;
    const if2 = nodeByName(t1, 'If_2');
    // the middle If gets captures too: c and x for depth 3, w1 for its own else branch
    expect(if2.inputs[0]).toBe(c1);
    expect(ids(if2.inputs.slice(1)).sort()).toEqual(ids([c1, x1, w1]).sort());
    const t2 = body(if2, 'then_branch').graph;
    const x2 = t2.inputs.find((p) => p.name === 'x')!;
    expect(x2).toBeDefined();
    expect(body(if2, 'then_branch').inputs.find((b) => b.param === x2)!.from).toBe(if2.inputs.indexOf(x1));
    const if3 = nodeByName(t2, 'If_3');
    expect(if3.inputs).toContain(x2);
    const t3 = body(if3, 'then_branch').graph;
    const x3 = t3.inputs.find((p) => p.name === 'x')!;
    expect(t3.nodes[0]!.inputs[0]).toBe(x3);
    expect(body(if3, 'then_branch').inputs.find((b) => b.param === x3)!.from).toBe(if3.inputs.indexOf(x2));
    // w1 (defined at depth 1) is bound in the depth-2 and depth-3 else branches only
    const e3 = body(if3, 'else_branch');
    const w3 = e3.graph.inputs.find((p) => p.name === 'w1')!;
    expect(if3.inputs[e3.inputs.find((b) => b.param === w3)!.from]).toBe(t2.inputs.find((p) => p.name === 'w1'));
    expect(body(if1, 'then_branch').graph.inputs.some((p) => p.name === 'w1')).toBe(false);
  });

  it('encoding turns captures back into plain name references', () => {
    const level2 = branch('t2', [ob.node('Neg', ['x'], ['o2'])], 'o2');
    const level1 = branch('t1', [ob.ifNode('c', ['o1'], level2, branch('e2', [ob.node('Abs', ['x'], ['q2'])], 'q2'))], 'o1');
    const bytes = main([ob.ifNode('c', ['y'], level1, branch('e1', [ob.node('Identity', ['x'], ['p1'])], 'p1'))]);
    const mp = decodeMessage<ModelProto>(T.ModelProto, encodeOnnx(decodeOnnx(bytes)).bytes);
    const if1 = mp.graph!.node![0]!;
    expect(if1.input).toEqual(['c']);
    const t1 = if1.attribute!.find((a) => a.name === 'then_branch')!.g!;
    expect(t1.input ?? []).toEqual([]);
    const if2 = t1.node![0]!;
    expect(if2.input).toEqual(['c']);
    const t2 = if2.attribute!.find((a) => a.name === 'then_branch')!.g!;
    expect(t2.node![0]!.input).toEqual(['x']);
  });
});

describe('scoping errors: every one reported at once, each with its graph path', () => {
  it('missing name, shadowing (node output and branch initializer), and a read of a value a cycle defines', () => {
    const thenB = branch('t', [
      ob.node('Neg', ['nowhere'], ['t0'], {}, { name: 'Neg_1' }),
      ob.node('Abs', ['t0'], ['x'], {}, { name: 'Abs_2' }), // shadows main's x
    ], 'x');
    const elseB = branch('e', [ob.node('Add', ['x', 'c'], ['e0'], {}, { name: 'Add_3' })], 'e0', [ob.floatTensor('c', [1], [1])]); // initializer shadows c
    const errs = errorsOf(main([
      ob.ifNode('c', ['y'], thenB, elseB, { name: 'If_1' }),
      ob.node('Add', ['x', 'later'], ['z'], {}, { name: 'Add_4' }),
      ob.node('Neg', ['z'], ['later'], {}, { name: 'Neg_5' }), // a cycle: no order defines 'later' first
    ], ['y', 'z']));
    expect(errs).toEqual(expect.arrayContaining([
      expect.objectContaining({ code: 'ONNX_UNKNOWN_NAME', where: 'main/If_1/then/Neg_1', message: expect.stringContaining("'nowhere'") }),
      expect.objectContaining({ code: 'ONNX_SHADOWING', where: 'main/If_1/then/Abs_2', message: expect.stringMatching(/'x'.*main/) }),
      expect.objectContaining({ code: 'ONNX_SHADOWING', where: 'main/If_1/else', message: expect.stringContaining("initializer 'c'") }),
      expect.objectContaining({ code: 'ONNX_USE_BEFORE_DEF', where: 'main/Add_4', message: expect.stringContaining("'later'") }),
    ]));
    expect(errs).toHaveLength(4);
  });

  it('a body reading its own If\'s output is a use before definition (no order can define it first)', () => {
    const errs = errorsOf(main([
      ob.ifNode('c', ['y'], branch('t', [ob.node('Neg', ['x'], ['t0'], {}, { name: 'Neg_1' })], 't0'), branch('e', [ob.node('Neg', ['y'], ['e0'], {}, { name: 'Neg_2' })], 'e0'), { name: 'If_1' }),
    ]));
    expect(errs).toEqual([
      // the If's own output is not visible inside its branches
      expect.objectContaining({ code: 'ONNX_USE_BEFORE_DEF', where: 'main/If_1/else/Neg_2', message: expect.stringContaining('(at main)') }),
    ]);
  });

  it('a body input may reuse an outer name (as onnx.checker allows); inside, the name means the input', () => {
    const body = ob.graph({
      inputs: [ob.valueInfo('i', 'i64', []), ob.valueInfo('cond_in', 'boolean', []), ob.valueInfo('x', 'f32', [2])],
      outputs: [ob.valueInfo('cond_out', 'boolean', []), ob.valueInfo('x_out', 'f32', [2])],
      nodes: [ob.node('Identity', ['cond_in'], ['cond_out']), ob.node('Neg', ['x'], ['x_out'])],
    });
    const m = decodeOnnx(main([ob.node('Loop', ['', 'c', 'x'], ['y'], { body })]));
    const b = m.graph.nodes[0]!.bodies.get('body')!;
    expect(b.graph.nodes[1]!.inputs[0]).toBe(b.graph.inputs[2]);
    expect(m.graph.nodes[0]!.inputs).toHaveLength(3);
  });

  it('a name defined twice in one graph is reported', () => {
    const errs = errorsOf(main([ob.node('Neg', ['x'], ['y'], {}, { name: 'A' }), ob.node('Abs', ['x'], ['y'], {}, { name: 'B' })]));
    expect(errs).toEqual([expect.objectContaining({ code: 'ONNX_DUPLICATE_NAME', where: 'main/B' })]);
  });

  it('an unknown graph output is reported with the graph path', () => {
    const errs = errorsOf(main([ob.node('Neg', ['x'], ['y'])], ['y', 'ghost']));
    expect(errs).toEqual([expect.objectContaining({ code: 'ONNX_UNKNOWN_NAME', where: 'main', message: expect.stringContaining("'ghost'") })]);
  });

  it('If nodes without branches decode (the converter reports them), unknown ops are fine', () => {
    const m = decodeOnnx(main([ob.ifNode('c', ['y'], null, null, { name: 'If_1' }), ob.node('FancyOp', ['y'], ['z'], { k: 3 }, { domain: 'com.x' })], ['z']));
    expect(m.graph.nodes[0]!.bodies.size).toBe(0);
    expect(m.graph.nodes[0]!.inputs).toEqual([m.graph.inputs[0]]);
    expect(m.graph.nodes[1]!.op).toBe('FancyOp');
    expect(m.graph.nodes[1]!.attrs.get('k')).toEqual({ type: 'int', value: 3n });
  });
});
