/**
 * Model-local functions (ModelProto.functions, as exporters write modules: torch.onnx's
 * export_modules_as_functions, onnxscript) judged by the engines. ovir inlines them when it reads
 * the model (src/onnx/functions.ts); OpenVINO's own frontend (ovc) refuses such models ("No
 * conversion rule found for operations: local.ReluAdd", OpenVINO 2026.4).
 *   onnxruntime on the ONNX model gives the expected outputs;
 *   ONNX → IR runs in OpenVINO with the same outputs;
 *   ONNX → IR → ONNX passes onnx's checker and runs in onnxruntime with the same outputs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import type { FunctionProto, NodeProto } from '../../src/onnx/proto-types.js';
import { compareTensors } from '../helpers/compare.js';
import * as ob from '../helpers/onnx-builder.js';
import { useOracle, type OracleTensor } from '../helpers/oracle.js';

const env = useOracle('ovir-functions-');

const f32 = (shape: number[], values: number[]): OracleTensor => ({ dtype: 'f32', shape, data: new Uint8Array(new Float32Array(values).buffer) });

function compare(what: string, expected: Record<string, OracleTensor>, got: Record<string, OracleTensor>): void {
  for (const [n, e] of Object.entries(expected)) {
    const g = got[n];
    const d = g ? compareTensors(g, e) : 'missing output';
    if (d) throw new Error(`${what}: output '${n}': ${d}`);
  }
}

const fn = (name: string, input: string[], output: string[], node: NodeProto[], more: Partial<FunctionProto> = {}): FunctionProto => ({
  name, domain: 'local', input, output, node, opset_import: [{ domain: '', version: 18n }], ...more,
});

/** Writes the model (x f32[2,4], b f32[4] → outputs), converts it both ways and compares every engine with onnxruntime on the original. */
async function judge(name: string, nodes: NodeProto[], functions: FunctionProto[], outputs: string[] = ['y']): Promise<string[]> {
  const g = ob.graph({ inputs: [ob.valueInfo('x', 'f32', [2, 4]), ob.valueInfo('b', 'f32', [4])], outputs: outputs.map((o) => ob.valueInfo(o, 'f32')), nodes });
  const src = join(env.tmp, `${name}.onnx`);
  writeFileSync(src, ob.encodeModelProto(ob.model({ graph: g, opset: 18, opsets: { local: 1 }, irVersion: 10, functions })));
  const ir = convertModel(loadModel(src));
  const xml = join(env.tmp, `${name}.xml`);
  saveModel(ir, xml);
  const back = join(env.tmp, `${name}.back.onnx`);
  saveModel(convertModel(loadModel(xml), { opset: 18 }), back);
  const checked = await env.oracle.onnxCheck(back);
  if (!checked.ok) throw new Error(`onnx checker rejects ONNX → IR → ONNX: ${checked.error}`);
  for (const feed of [
    { x: f32([2, 4], [-2, -1, 0, 1, 2, 3, 4, 5]), b: f32([4], [0.5, -1, 2, 0]) },
    { x: f32([2, 4], [3, -7, 0.25, 9, -0.5, 1, -3, 2]), b: f32([4], [-2, 0, 1, 4]) },
  ]) {
    const expected = await env.oracle.runOrt(src, feed);
    compare('ONNX → IR in OpenVINO', expected, await env.oracle.runIr(xml, feed));
    compare('ONNX → IR → ONNX in onnxruntime', expected, await env.oracle.runOrt(back, feed));
  }
  return ir.graph.nodes.map((n) => n.op);
}

/** The opsets of a function that calls other functions of the model. */
const CALLS_LOCAL = [{ domain: '', version: 18n }, { domain: 'local', version: 1n }];

const reluAdd = fn('ReluAdd', ['a', 'c'], ['r'], [ob.node('Relu', ['a'], ['t']), ob.node('Add', ['t', 'c'], ['r'])]);

describe('model-local functions in the engines', () => {
  it('a function called twice', async () => {
    expect(await judge('twice', [
      ob.node('ReluAdd', ['x', 'b'], ['h'], {}, { domain: 'local' }),
      ob.node('ReluAdd', ['h', 'b'], ['y'], {}, { domain: 'local' }),
    ], [reluAdd])).not.toContain('ReluAdd');
  });

  it('attribute references: the call\'s value, the function\'s default, and an attribute left out', async () => {
    const scaled = fn('Scaled', ['a'], ['r', 'l'], [
      ob.node('Constant', [], ['k'], { value_float: ob.attr.ref('alpha') }),
      ob.node('Mul', ['a', 'k'], ['r']),
      ob.node('LeakyRelu', ['a'], ['l'], { alpha: ob.attr.ref('slope') }),
    ], { attribute_proto: [{ name: 'alpha', type: ob.AttrType.FLOAT, f: 0.5 }], attribute: ['slope'] });
    await judge('attrs', [
      ob.node('Scaled', ['x'], ['y', 'z'], { alpha: -1.5, slope: 0.25 }, { domain: 'local' }),
      ob.node('Scaled', ['x'], ['w', 'v'], {}, { domain: 'local' }),
    ], [scaled], ['y', 'z', 'w', 'v']);
  });

  it('a layer norm as exporters write it (epsilon by reference with a default), inside a function calling another', async () => {
    const norm = fn('Norm', ['a'], ['r'], [
      ob.node('Constant', [], ['axes'], { value_ints: [-1] }),
      ob.node('ReduceMean', ['a', 'axes'], ['m'], { keepdims: 1 }),
      ob.node('Sub', ['a', 'm'], ['d']),
      ob.node('Mul', ['d', 'd'], ['d2']),
      ob.node('ReduceMean', ['d2', 'axes'], ['v'], { keepdims: 1 }),
      ob.node('Constant', [], ['eps'], { value_float: ob.attr.ref('epsilon') }),
      ob.node('Add', ['v', 'eps'], ['ve']),
      ob.node('Sqrt', ['ve'], ['s']),
      ob.node('Div', ['d', 's'], ['r']),
    ], { attribute_proto: [{ name: 'epsilon', type: ob.AttrType.FLOAT, f: 1e-5 }] });
    const block = fn('Block', ['a', 'c'], ['r'], [
      ob.node('Norm', ['a'], ['n'], { epsilon: 1e-3 }, { domain: 'local' }),
      ob.node('ReluAdd', ['n', 'c'], ['r'], {}, { domain: 'local' }),
    ], { opset_import: CALLS_LOCAL });
    await judge('block', [ob.node('Block', ['x', 'b'], ['y'], {}, { domain: 'local' })], [norm, reluAdd, block]);
  });

  it('an If inside a function, its branches reading the function\'s values and calling a function', async () => {
    const gated = fn('Gated', ['a', 'c'], ['r'], [
      ob.node('Neg', ['a'], ['n']),
      ob.node('ReduceSum', ['c'], ['s'], { keepdims: 0 }),
      ob.node('Constant', [], ['zero'], { value_float: ob.attr.float(0) }),
      ob.node('Greater', ['s', 'zero'], ['cond']),
      ob.ifNode('cond', ['r'],
        ob.graph({ outputs: [ob.valueInfo('p', 'f32')], nodes: [ob.node('ReluAdd', ['n', 'c'], ['p'], {}, { domain: 'local' })] }),
        ob.graph({ outputs: [ob.valueInfo('q', 'f32')], nodes: [ob.node('Mul', ['n', 'c'], ['q'])] })),
    ], { opset_import: CALLS_LOCAL });
    expect(await judge('gated', [ob.node('Gated', ['x', 'b'], ['y'], {}, { domain: 'local' })], [gated, reluAdd])).toContain('If');
  });

  it('an optional input left out inside a function', async () => {
    // (onnxruntime refuses a function whose output is one of its inputs: test/onnx/functions.test.ts has that case)
    const clip = fn('ClipMax', ['a', 'hi'], ['r'], [ob.node('Clip', ['a', '', 'hi'], ['r'])]);
    await judge('clip', [
      ob.node('ReduceMax', ['b'], ['hi'], { keepdims: 0 }),
      ob.node('ClipMax', ['x', 'hi'], ['y'], {}, { domain: 'local' }),
    ], [clip]);
  });
});
