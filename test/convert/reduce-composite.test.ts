import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { allNodes } from '../../src/graph/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { compareOutputs } from '../helpers/compare.js';
import { encodeModelProto, graph, int64Tensor, model, node, valueInfo, type AttrValue } from '../helpers/onnx-builder.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';

/**
 * ONNX reductions IR has no op for (ReduceSumSquare, ReduceLogSum, ReduceLogSumExp) become the IR
 * subgraph of their ONNX function body; ONNX → IR → ONNX computes what onnxruntime computes on
 * the original.
 */
const X = Array.from({ length: 24 }, (_, i) => ((i * 7) % 11) / 4 - 1);
const x: OracleTensor = { dtype: 'f32', shape: [2, 3, 4], data: new Uint8Array(new Float32Array(X).buffer) };

function reduceModel(op: string, opset: number, attrs: Record<string, AttrValue>, axesInput?: number[]): Uint8Array {
  const inputs = axesInput ? ['x', 'axes'] : ['x'];
  return encodeModelProto(model({
    opset,
    graph: graph({
      inputs: [valueInfo('x', 'f32', [2, 3, 4])],
      outputs: [valueInfo('y', 'f32')],
      initializers: axesInput ? [int64Tensor('axes', [axesInput.length], axesInput)] : [],
      nodes: [node(op, inputs, ['y'], attrs)],
    }),
  }));
}

describe('ONNX reductions written as IR subgraphs', () => {
  it.each([
    ['ReduceSumSquare', 13, { axes: [1], keepdims: 0 }, undefined, ['Multiply', 'ReduceSum']],
    ['ReduceSumSquare', 18, {}, [-1], ['Multiply', 'ReduceSum']],
    ['ReduceLogSum', 13, { axes: [0, 2] }, undefined, ['ReduceSum', 'Log']],
    ['ReduceLogSumExp', 17, { keepdims: 0 }, undefined, ['Exp', 'ReduceSum', 'Log']],
  ] as const)('%s at opset %i %j', async (op, opset, attrs, axes, irOps) => {
    const src = reduceModel(op, opset, attrs as Record<string, AttrValue>, axes ? [...axes] : undefined);
    const ir = convertModel(decodeOnnx(src));
    expect([...allNodes(ir.graph)].map((n) => n.op)).toEqual(irOps);
    const back = encodeOnnx(convertModel(ir, { opset })).bytes;
    const want = (await runOrt(src, { x }))['y']!;
    expect(compareOutputs(await runOrt(back, { x }), [{ name: 'y', tensor: want }])).toEqual([]);
  });
});
