import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { compareOutputs } from '../helpers/compare.js';
import { encodeModelProto, graph, model, node, valueInfo, type AttrValue } from '../helpers/onnx-builder.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';

/**
 * NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss → IR subgraphs (mappings/math/loss.ts):
 * ONNX → IR → ONNX computes what onnxruntime computes on the original (OpenVINO on the IR is
 * judged by the conformance suite's convert-onnx-ir on the backend's loss cases).
 */
const N = 3; const C = 4; const D = 2;
const scores = Array.from({ length: N * C * D }, (_, i) => Math.sin(i * 1.3));
const f32 = (v: number[], shape: number[]): OracleTensor => ({ dtype: 'f32', shape, data: new Uint8Array(new Float32Array(v).buffer) });
const i64 = (v: number[], shape: number[]): OracleTensor => ({ dtype: 'i64', shape, data: new Uint8Array(new BigInt64Array(v.map(BigInt)).buffer) });
const feeds = { x: f32(scores, [N, C, D]), t: i64([0, 3, 2, 2, 1, 0], [N, D]), w: f32([0.5, 1, 2, 0.25], [C]) };

function lossModel(op: string, attrs: Record<string, AttrValue>, withWeight: boolean, outputs = ['y']): Uint8Array {
  return encodeModelProto(model({
    opset: 13,
    graph: graph({
      inputs: [valueInfo('x', 'f32', [N, C, D]), valueInfo('t', 'i64', [N, D]), ...(withWeight ? [valueInfo('w', 'f32', [C])] : [])],
      outputs: outputs.map((o) => valueInfo(o, 'f32')),
      nodes: [node(op, withWeight ? ['x', 't', 'w'] : ['x', 't'], outputs, attrs)],
    }),
  }));
}

describe('ONNX losses as IR subgraphs, through the round trip', () => {
  it.each([
    ['NegativeLogLikelihoodLoss', { reduction: 'none' }, false],
    ['NegativeLogLikelihoodLoss', {}, true],
    ['NegativeLogLikelihoodLoss', { reduction: 'mean', ignore_index: 2 }, true],
    ['NegativeLogLikelihoodLoss', { reduction: 'sum', ignore_index: 0 }, false],
    ['SoftmaxCrossEntropyLoss', {}, false],
    ['SoftmaxCrossEntropyLoss', { reduction: 'none', ignore_index: 3 }, true],
  ] as const)('%s %j, weight %s', async (op, attrs, withWeight) => {
    const outputs = op === 'SoftmaxCrossEntropyLoss' ? ['y', 'log_prob'] : ['y'];
    const src = lossModel(op, attrs as Record<string, AttrValue>, withWeight, outputs);
    const back = encodeOnnx(convertModel(convertModel(decodeOnnx(src)))).bytes;
    const input = withWeight ? feeds : { x: feeds.x, t: feeds.t };
    const want = await runOrt(src, input);
    expect(compareOutputs(await runOrt(back, input), outputs.map((name) => ({ name, tensor: want[name]! })))).toEqual([]);
  });
});
