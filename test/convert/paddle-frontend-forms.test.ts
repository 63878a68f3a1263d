import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, allNodes, tensorFromInt64, type Model } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';
import { f32, floats } from '../helpers/tensors.js';

/**
 * IR → ONNX on forms OpenVINO's PaddlePaddle frontend writes: each case is the smallest IR of a
 * pattern met in a Paddle program converted by `openvino.convert_model`, and onnxruntime must
 * compute what the IR computes.
 */
const run = async (m: Model, inputs: Record<string, OracleTensor>) => runOrt(encodeOnnx(convertModel(m)).bytes, inputs);
const ints = (t: OracleTensor): number[] => Array.from(new BigInt64Array(t.data.slice().buffer), Number);

/** TopK-11 with sort="index", as the frontend writes paddle.topk and paddle.argmax. */
function topkByIndex(k: bigint, mode: 'max' | 'min', axis: number, shape: number[]): Model {
  const b = new Builder('ov');
  const x = b.input('x', 'f32', shape);
  const kc = b.init('k', tensorFromInt64([k], []));
  const n = b.node(b.graph, 'TopK', [x, kc], ['values', 'indices'], {
    axis: A.raw(String(axis)), mode: A.raw(mode), sort: A.raw('index'), index_element_type: A.raw('i64'),
  }, { version: 'opset11' });
  b.output(n.outputs[0]!);
  b.output(n.outputs[1]!);
  return b.model;
}

describe('IR → ONNX of PaddlePaddle-frontend forms', () => {
  it.each([
    ['max', 3n, 1, [[4, 9, 1, 7, 9, 2], [0, 5, 8, 3, 6, 8]], [[9, 7, 9], [8, 6, 8]], [[1, 3, 4], [2, 4, 5]]],
    ['min', 2n, 1, [[4, 9, 1, 7, 9, 2], [0, 5, 8, 3, 6, 8]], [[1, 2], [0, 3]], [[2, 5], [0, 3]]],
    ['max', 2n, 0, [[4, 9], [6, 1], [5, 3]], [[6, 9], [5, 3]], [[1, 0], [2, 2]]],
  ] as const)('TopK sort="index", mode %s, k %d along axis %d: the k elements picked by value (ties: the lower index), listed in index order', async (mode, k, axis, x, values, indices) => {
    const shape = [x.length, x[0]!.length];
    const out = await run(topkByIndex(k, mode, axis, shape), { x: f32(shape, x.flat()) });
    expect(floats(out['values']!)).toEqual(values.flat());
    expect(ints(out['indices']!)).toEqual(indices.flat());
  });

  it('pdpd broadcasting from axis -1 (Select, Add) is numpy\'s: the other operands aligned with the first\'s trailing dims', async () => {
    const b = new Builder('ov');
    const c = b.input('c', 'boolean', [6]);
    const x = b.input('x', 'f32', [3, 6]);
    const y = b.input('y', 'f32', [6]);
    const pdpd = { auto_broadcast: A.raw('pdpd'), 'auto_broadcast.auto_broadcast_axis': A.raw('-1') };
    b.output(b.op(b.graph, 'Select', [c, x, y], 's', pdpd, { version: 'opset1' }));
    b.output(b.op(b.graph, 'Add', [x, y], 'a', { auto_broadcast: A.raw('pdpd') }, { version: 'opset1' }));
    const xs = Array.from({ length: 18 }, (_, k) => k);
    const ys = [-1, -2, -3, -4, -5, -6];
    const cs = [true, false, true, true, false, false];
    const out = await run(b.model, { c: { dtype: 'boolean', shape: [6], data: new Uint8Array(cs.map(Number)) }, x: f32([3, 6], xs), y: f32([6], ys) });
    expect(floats(out['s']!)).toEqual(xs.map((v, k) => (cs[k % 6] ? v : ys[k % 6]!)));
    expect(floats(out['a']!)).toEqual(xs.map((v, k) => v + ys[k % 6]!));
  });

  it('pdpd broadcasting from another axis is refused (ONNX has no form of it here)', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [3, 6]);
    const y = b.input('y', 'f32', [3]);
    b.output(b.op(b.graph, 'Add', [x, y], 'a', { auto_broadcast: A.raw('pdpd'), 'auto_broadcast.auto_broadcast_axis': A.raw('0') }, { version: 'opset1' }));
    expect(() => convertModel(b.model)).toThrow(/auto_broadcast_axis/);
  });

  it('TopK sort="index" of one element (argmax) is the plain TopK, no reordering', () => {
    const onnx = convertModel(topkByIndex(1n, 'max', 1, [2, 5]));
    expect([...allNodes(onnx.graph)].map((n) => n.op)).toEqual(['TopK']);
  });
});
