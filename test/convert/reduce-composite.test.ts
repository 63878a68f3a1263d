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
/** ReduceLogSumExp of floats, shifted by each set's largest element (its ReduceMax twice without keepdims). */
const LSE_SHIFTED = ['ReduceMax', 'IsInf', 'Select', 'Subtract', 'Exp', 'ReduceSum', 'Log', 'ReduceMax', 'IsInf', 'Select', 'Add'];
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
    ['ReduceLogSumExp', 17, { keepdims: 0 }, undefined, LSE_SHIFTED],
  ] as const)('%s at opset %i %j', async (op, opset, attrs, axes, irOps) => {
    const src = reduceModel(op, opset, attrs as Record<string, AttrValue>, axes ? [...axes] : undefined);
    const ir = convertModel(decodeOnnx(src));
    expect([...allNodes(ir.graph)].map((n) => n.op)).toEqual(irOps);
    const back = encodeOnnx(convertModel(ir, { opset })).bytes;
    const want = (await runOrt(src, { x }))['y']!;
    expect(compareOutputs(await runOrt(back, { x }), [{ name: 'y', tensor: want }])).toEqual([]);
  });
});

describe('ReduceLogSumExp far from 0 (skl2onnx GaussianNB normalizes log-likelihoods of about -300 so)', () => {
  // exp underflows to 0 below about -104 and overflows above 88 in f32: Σ exp(x) then gives
  // log 0 = -inf or +inf where onnxruntime gives the finite log-sum-exp; rows holding -inf / +inf
  // as it gives them (reducing every axis, onnxruntime 1.31 gives NaN for a set holding +inf
  // and -inf, per row +inf: that case is left out).
  const big = [-300, -301, -305, -1000, 100, 120, 0.5, 0.25, -Infinity, -Infinity, Infinity, 1];
  it.each([
    [{ axes: [1], keepdims: 0 }, undefined, 13, big],
    [{ keepdims: 1 }, [1], 18, big],
    [{}, undefined, 18, big.map((v) => (v === Infinity ? 2 : v))],
  ] as const)('%j axes input %j at opset %i computes what onnxruntime computes', async (attrs, axes, opset, vals) => {
    const xb: OracleTensor = { dtype: 'f32', shape: [4, 3], data: new Uint8Array(new Float32Array(vals).buffer) };
    const src = encodeModelProto(model({
      opset,
      graph: graph({
        inputs: [valueInfo('x', 'f32', [4, 3])],
        outputs: [valueInfo('y', 'f32')],
        initializers: axes ? [int64Tensor('axes', [axes.length], [...axes])] : [],
        nodes: [node('ReduceLogSumExp', axes ? ['x', 'axes'] : ['x'], ['y'], attrs as Record<string, AttrValue>)],
      }),
    }));
    const want = (await runOrt(src, { x: xb }))['y']!;
    const back = encodeOnnx(convertModel(convertModel(decodeOnnx(src)), { opset })).bytes;
    expect(compareOutputs(await runOrt(back, { x: xb }), [{ name: 'y', tensor: want }])).toEqual([]);
  });
});
