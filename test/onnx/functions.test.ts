import { describe, expect, it } from 'vitest';
import { OvirError } from '../../src/diag/diagnostic.js';
import type { Model, Node } from '../../src/graph/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import type { FunctionProto, NodeProto } from '../../src/onnx/proto-types.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * Model-local functions (ModelProto.functions) are inlined where they are called, as the ONNX spec
 * defines a call: the function's nodes with its formal inputs and outputs bound to the call's, its
 * other names fresh, attribute references resolved from the call (else the function's default),
 * and the function's own opset imports for its nodes.
 */
const fn = (name: string, input: string[], output: string[], node: NodeProto[], more: Partial<FunctionProto> = {}): FunctionProto => ({
  name, domain: 'local', input, output, node, opset_import: [{ domain: '', version: 18n }], ...more,
});

function decode(nodes: NodeProto[], functions: FunctionProto[], outputs = ['y'], maxInlinedNodes?: number): Model {
  const g = ob.graph({ inputs: [ob.valueInfo('x', 'f32', [2]), ob.valueInfo('b', 'f32', [2])], outputs: outputs.map((o) => ob.valueInfo(o, 'f32')), nodes });
  return decodeOnnx(ob.encodeModelProto(ob.model({ graph: g, opset: 18, opsets: { local: 1 }, irVersion: 10, functions })), { maxInlinedNodes });
}

const ops = (m: Model): string[] => m.graph.nodes.map((n) => n.op);
const producerOf = (m: Model, name: string): Node => m.graph.nodes.find((n) => n.outputs.some((o) => o.name === name))!;
function errors(f: () => unknown): string[] {
  try {
    f();
  } catch (e) {
    if (e instanceof OvirError) return e.diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`);
    throw e;
  }
  return [];
}

describe('model-local functions are inlined where they are called', () => {
  const reluAdd = fn('ReluAdd', ['a', 'c'], ['r'], [ob.node('Relu', ['a'], ['t']), ob.node('Add', ['t', 'c'], ['r'])]);

  it('formal inputs and outputs become the call\'s, every other name a fresh one, node names under the call', () => {
    const m = decode([
      ob.node('ReluAdd', ['x', 'b'], ['h'], {}, { domain: 'local', name: 'first' }),
      ob.node('ReluAdd', ['h', 'b'], ['y'], {}, { domain: 'local' }),
    ], [reluAdd]);
    expect(ops(m)).toEqual(['Relu', 'Add', 'Relu', 'Add']);
    const [relu1, add1, relu2, add2] = m.graph.nodes as [Node, Node, Node, Node];
    expect(relu1.inputs[0]).toBe(m.graph.inputs[0]);
    expect(add1.inputs[1]).toBe(m.graph.inputs[1]);
    expect(add1.outputs[0]!.name).toBe('h');
    expect(relu2.inputs[0]).toBe(add1.outputs[0]);
    expect(m.graph.outputs[0]).toBe(add2.outputs[0]);
    // internal names: fresh, distinct per call
    expect(relu1.outputs[0]!.name).toBe('first/t');
    expect(relu2.outputs[0]!.name).toBe('ReluAdd_1/t');
    expect(relu1.name).toBe('first/Relu');
  });

  it('fresh names avoid every name of the model', () => {
    const m = decode([
      ob.node('ReluAdd', ['x', 'b'], ['first/t'], {}, { domain: 'local', name: 'first' }),
      ob.node('Neg', ['first/t'], ['y']),
    ], [reluAdd]);
    expect(producerOf(m, 'first/t').op).toBe('Add');
    expect(m.graph.nodes[0]!.outputs[0]!.name).toBe('first/t_1');
  });

  it('an attribute reference takes the call\'s value, else the function\'s default, else is left out', () => {
    const scaled = fn('Scaled', ['a'], ['r'], [
      ob.node('Constant', [], ['k'], { value_float: ob.attr.ref('alpha') }),
      ob.node('Mul', ['a', 'k'], ['r']),
      ob.node('LeakyRelu', ['a'], ['l'], { alpha: ob.attr.ref('slope') }),
    ], { output: ['r', 'l'], attribute_proto: [{ name: 'alpha', type: ob.AttrType.FLOAT, f: 0.5 }], attribute: ['slope'] });
    const m = decode([
      ob.node('Scaled', ['x'], ['y', 'z'], { alpha: 3 / 4 }, { domain: 'local' }),
      ob.node('Scaled', ['b'], ['w', 'v'], {}, { domain: 'local' }),
    ], [scaled], ['y', 'z', 'w', 'v']);
    const consts = m.graph.nodes.filter((n) => n.op === 'Constant');
    expect(consts.map((c) => c.attrs.get('value_float'))).toEqual([{ type: 'float', value: 0.75 }, { type: 'float', value: 0.5 }]);
    const leaky = m.graph.nodes.filter((n) => n.op === 'LeakyRelu');
    expect(leaky.map((n) => n.attrs.has('alpha'))).toEqual([false, false]);
  });

  it('absent optional inputs stay absent; outputs the call leaves out get fresh names', () => {
    const clip = fn('ClipOpt', ['a', 'lo', 'hi'], ['r', 'extra'], [ob.node('Clip', ['a', 'lo', 'hi'], ['r']), ob.node('Neg', ['a'], ['extra'])]);
    const m = decode([ob.node('ClipOpt', ['x', '', 'b'], ['y'], {}, { domain: 'local' })], [clip]);
    const c = m.graph.nodes[0]!;
    expect(c.inputs[1]).toBeNull();
    expect(c.inputs[2]).toBe(m.graph.inputs[1]);
    expect(m.graph.nodes[1]!.outputs[0]!.name).toBe('ClipOpt_0/extra');
  });

  it('an output that is one of the function\'s inputs becomes an Identity', () => {
    const pass = fn('Pass', ['a'], ['a'], []);
    const m = decode([ob.node('Pass', ['x'], ['y'], {}, { domain: 'local' })], [pass]);
    expect(ops(m)).toEqual(['Identity']);
    expect(m.graph.nodes[0]!.inputs[0]).toBe(m.graph.inputs[0]);
  });

  it('calls inside functions and inside bodies are inlined too; bodies inside a function get fresh names and resolved references', () => {
    const inner = fn('Inner', ['a'], ['r'], [ob.node('Neg', ['a'], ['r'])]);
    const outer = fn('Outer', ['a', 'c'], ['r'], [
      ob.node('Inner', ['a'], ['n'], {}, { domain: 'local' }),
      ob.node('ReduceSum', ['c'], ['s'], { keepdims: 0 }),
      ob.node('Greater', ['s', 's0'], ['cond']),
      ob.node('Constant', [], ['s0'], { value_float: ob.attr.ref('threshold') }),
      ob.ifNode('cond', ['r'],
        ob.graph({ outputs: [ob.valueInfo('p', 'f32')], nodes: [ob.node('Inner', ['n'], ['p'], {}, { domain: 'local' })] }),
        ob.graph({ outputs: [ob.valueInfo('q', 'f32')], nodes: [ob.node('Add', ['n', 'c'], ['q'])] })),
    ], { attribute: ['threshold'] });
    // (Constant after its reader: functions, like graphs, may come out of order and are sorted)
    const m = decode([ob.node('Outer', ['x', 'b'], ['y'], { threshold: 0 }, { domain: 'local', name: 'o' })], [inner, outer]);
    expect(ops(m)).toEqual(['Neg', 'ReduceSum', 'Constant', 'Greater', 'If']);
    const iff = m.graph.nodes[4]!;
    const thenG = iff.bodies.get('then_branch')!.graph;
    expect(thenG.nodes.map((n) => n.op)).toEqual(['Neg']);
    expect(thenG.outputs[0]!.name).toBe('o/p');
    // the branch reads the function's 'n' through a capture of the inlined value
    expect(thenG.nodes[0]!.inputs[0]!.name).toBe('o/n');
  });

  it('each inlined node uses the opset the function imports', () => {
    const old = fn('Old', ['a'], ['r'], [ob.node('Relu', ['a'], ['r'])], { opset_import: [{ domain: '', version: 13n }] });
    const m = decode([ob.node('Old', ['x'], ['h'], {}, { domain: 'local' }), ob.node('Relu', ['h'], ['y'])], [old]);
    expect(m.graph.nodes.map((n) => n.version)).toEqual(['13', '18']);
  });

  it('a function that calls itself, or a call with more inputs than the function has, is an error naming the call', () => {
    const a = fn('A', ['u'], ['v'], [ob.node('B', ['u'], ['v'], {}, { domain: 'local' })]);
    const b = fn('B', ['u'], ['v'], [ob.node('A', ['u'], ['v'], {}, { domain: 'local' })]);
    expect(errors(() => decode([ob.node('A', ['x'], ['y'], {}, { domain: 'local', name: 'call' })], [a, b]))).toEqual([
      expect.stringMatching(/^ONNX_FUNCTION_RECURSIVE main\/call\/B\/A: model-local function local.A calls itself \(A → B → A\)/),
    ]);
    expect(errors(() => decode([ob.node('ReluAdd', ['x', 'b', 'b'], ['y'], {}, { domain: 'local' })], [reluAdd]))).toEqual([
      expect.stringMatching(/^ONNX_FUNCTION_CALL main\/ReluAdd_0: call of model-local function local.ReluAdd: the call has 3 inputs/),
    ]);
  });

  it('a model without calls is read as before, its functions carried for writing', () => {
    const m = decode([ob.node('Relu', ['x'], ['y'])], [reluAdd]);
    expect(ops(m)).toEqual(['Relu']);
    expect(m.onnx!.passthrough['functions']).toHaveLength(1);
  });
});

describe('inlining is bounded', () => {
  it('functions calling each other twice, 30 deep (2^30 nodes), are an error past the limit, not an out-of-memory', () => {
    const fns: FunctionProto[] = [fn('F0', ['a'], ['r'], [ob.node('Neg', ['a'], ['r'])])];
    for (let k = 1; k <= 30; k++) {
      fns.push(fn(`F${k}`, ['a'], ['r'], [
        ob.node(`F${k - 1}`, ['a'], ['t'], {}, { domain: 'local' }),
        ob.node(`F${k - 1}`, ['t'], ['r'], {}, { domain: 'local' }),
      ], { opset_import: [{ domain: '', version: 18n }, { domain: 'local', version: 1n }] }));
    }
    const errs = errors(() => decode([ob.node('F30', ['x'], ['y'], {}, { domain: 'local' })], fns, ['y'], 5000));
    expect(errs).toEqual([expect.stringMatching(/ONNX_FUNCTION_CALL .*makes more than 5000 nodes/)]);
    // under the limit (2^12 Neg and the 2^13 - 2 calls they come from): all 2^12 Neg of 12 levels
    expect(decode([ob.node('F12', ['x'], ['y'], {}, { domain: 'local' })], fns, ['y'], 20_000).graph.nodes).toHaveLength(4096);
  });
});
