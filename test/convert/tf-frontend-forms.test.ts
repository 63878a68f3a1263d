import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, allNodes, tensorFromInt32, tensorFromInt64, makeTensor, type Model } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';
import { f32, floats } from '../helpers/tensors.js';

/**
 * IR → ONNX on forms OpenVINO's TensorFlow / TFLite frontends write (and ovc's ONNX frontend does
 * not): each case is the smallest IR of a pattern met in a Keras or tf.function model converted by
 * `openvino.convert_model`, and onnxruntime must compute what the IR computes.
 */
const i32 = (shape: number[], v: number[]): OracleTensor => ({ dtype: 'i32', shape, data: new Uint8Array(new Int32Array(v).buffer) });
const run = async (m: Model, inputs: Record<string, OracleTensor>) => runOrt(encodeOnnx(convertModel(m)).bytes, inputs);
const iota = (n: number): number[] => Array.from({ length: n }, (_, k) => k);

describe('IR → ONNX of TensorFlow-frontend forms', () => {
  it('index operands of mixed or unaccepted integer types are cast to int64 (Keras LSTM: Slice-8 i32 start/stop/axes with an i64 step; Broadcast-1 of an i32 target with an axes_mapping)', async () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [4, 5]);
    const start = b.input('start', 'i32', [1]);
    const target = b.input('target', 'i32', [3]);
    const stop = b.init('stop', tensorFromInt32([5]));
    const step = b.init('step', tensorFromInt64([2n]));
    const axes = b.init('axes', tensorFromInt32([1]));
    const sliced = b.op(b.graph, 'Slice', [x, start, stop, step, axes], 'y', {}, { version: 'opset8' });
    b.output(sliced);
    // TensorFlow's BroadcastTo: Broadcast-1 numpy with an (unused) u8 axes_mapping, as OpenVINO writes it
    const mapping = b.init('mapping', makeTensor('u8', [0], new Uint8Array(0)));
    b.output(b.op(b.graph, 'Broadcast', [sliced, target, mapping], 'z', { mode: A.raw('numpy') }, { version: 'opset1' }));
    const onnx = convertModel(b.model);
    for (const n of allNodes(onnx.graph)) {
      if (n.op === 'Slice' || n.op === 'Expand') for (const v of n.inputs.slice(1)) expect(v?.type?.kind === 'tensor' && v.type.elem).toBe('i64');
    }
    const data = iota(20);
    const out = await run(b.model, { x: f32([4, 5], data), start: i32([1], [1]), target: i32([3], [2, 4, 2]) });
    const want = [0, 1, 2, 3].flatMap((r) => [data[r * 5 + 1]!, data[r * 5 + 3]!]);
    expect(out['y']!.shape).toEqual([4, 2]);
    expect(floats(out['y']!)).toEqual(want);
    expect(out['z']!.shape).toEqual([2, 4, 2]);
    expect(floats(out['z']!)).toEqual([...want, ...want]);
  });

  it.each([
    [0, 3, [2, 2, 3, 4]], // tf.reverse of an NHWC tensor over its last axis (Keras GRU go_backwards after Conv1D)
    [2, 0, [3, 2, 2, 2]],
    [-1, 1, [2, 3, 2]],
  ] as const)('ReverseSequence-1 over batch_axis %d, seq_axis %d (ONNX takes axes 0 and 1 only) is transposed around, data %j', async (batch, seq, shape) => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [...shape]);
    const r = shape.length;
    const [bAx, sAx] = [batch < 0 ? batch + r : batch, seq < 0 ? seq + r : seq];
    const lens = iota(shape[bAx]!).map((k) => Math.min(shape[sAx]!, k + 2));
    const l = b.init('lens', tensorFromInt32(lens));
    b.output(b.op(b.graph, 'ReverseSequence', [x, l], 'y', { batch_axis: A.raw(String(batch)), seq_axis: A.raw(String(seq)) }));
    const n = shape.reduce((p, d) => p * d, 1);
    const out = await run(b.model, { x: f32([...shape], iota(n)) });
    // reference: y[..., i_b, ..., i_s, ...] = x[..., i_b, ..., i_s < len[i_b] ? len[i_b] - 1 - i_s : i_s, ...]
    const strides = shape.map((_, k) => shape.slice(k + 1).reduce((p, d) => p * d, 1));
    const want = iota(n).map((flat) => {
      const idx = shape.map((_, k) => Math.floor(flat / strides[k]!) % shape[k]!);
      const len = lens[idx[bAx]!]!;
      if (idx[sAx]! < len) idx[sAx] = len - 1 - idx[sAx]!;
      return idx.reduce((p, v, k) => p + v * strides[k]!, 0);
    });
    expect(out['y']!.shape).toEqual([...shape]);
    expect(floats(out['y']!)).toEqual(want);
  });

  it('FloorMod of floats (tf.math.floormod) is x − floor(x / y) · y, not an ONNX Mod with fmod = 0 (integers only; onnxruntime refuses it)', async () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [6]);
    const y = b.input('y', 'f32', [6]);
    b.output(b.op(b.graph, 'FloorMod', [x, y], 'z', { auto_broadcast: A.raw('numpy') }));
    const onnx = convertModel(b.model);
    expect([...allNodes(onnx.graph)].map((n) => n.op)).toEqual(['Div', 'Floor', 'Mul', 'Sub']);
    const xs = [5.5, -5.5, 5.5, -5.5, 0.25, -7];
    const ys = [0.7, 0.7, -0.7, -0.7, 2, 7];
    const out = await run(b.model, { x: f32([6], xs), y: f32([6], ys) });
    const fr = Math.fround;
    expect(floats(out['z']!)).toEqual(xs.map((v, k) => fr(fr(v) - fr(Math.floor(fr(fr(v) / fr(ys[k]!))) * fr(ys[k]!)))));
  });

  it('FloorMod of integers stays an ONNX Mod (fmod = 0)', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'i32', [3]);
    b.output(b.op(b.graph, 'FloorMod', [x, b.init('y', tensorFromInt32([3]))], 'z', { auto_broadcast: A.raw('numpy') }));
    expect([...allNodes(convertModel(b.model).graph)].map((n) => n.op)).toEqual(['Mod']);
  });

  it.each([2, -1, 0])('StridedSlice-1 at a run-time begin (x[i] in a tf.while_loop body: shrink axis 0, the rest masked whole) is an ONNX Slice of that element; i = %d', async (i) => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [4, 3, 5]);
    const begin = b.input('begin', 'i32', [2]);
    const end = b.input('end', 'i32', [2]);
    const ones = b.init('ones', tensorFromInt32([1, 1]));
    const masks = { begin_mask: A.raw('0,1'), end_mask: A.raw('0,1'), new_axis_mask: A.raw('0,0'), shrink_axis_mask: A.raw('1,0'), ellipsis_mask: A.raw('0,0') };
    b.output(b.op(b.graph, 'StridedSlice', [x, begin, end, ones], 'y', masks));
    const out = await run(b.model, { x: f32([4, 3, 5], iota(60)), begin: i32([2], [i, 0]), end: i32([2], [i + 1, 0]) });
    const row = i < 0 ? i + 4 : i;
    expect(out['y']!.shape).toEqual([3, 5]);
    expect(floats(out['y']!)).toEqual(iota(15).map((k) => row * 15 + k));
  });

  it('StridedSlice-1 with run-time begin, end and stride and no masks: one Slice of run-time operands; a begin mask with a run-time stride still needs a constant stride', async () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [8]);
    const [s, e, st] = ['s', 'e', 'st'].map((n) => b.input(n, 'i64', [1]));
    const zero = { begin_mask: A.raw('0'), end_mask: A.raw('0'), new_axis_mask: A.raw('0'), shrink_axis_mask: A.raw('0'), ellipsis_mask: A.raw('0') };
    b.output(b.op(b.graph, 'StridedSlice', [x, s!, e!, st!], 'y', zero));
    const i64 = (v: number): OracleTensor => ({ dtype: 'i64', shape: [1], data: new Uint8Array(new BigInt64Array([BigInt(v)]).buffer) });
    const out = await run(b.model, { x: f32([8], iota(8)), s: i64(6), e: i64(0), st: i64(-2) });
    expect(floats(out['y']!)).toEqual([6, 4, 2]);
    const m = new Builder('ov');
    const y = m.input('x', 'f32', [8]);
    const [s2, e2, st2] = ['s', 'e', 'st'].map((n) => m.input(n, 'i64', [1]));
    m.output(m.op(m.graph, 'StridedSlice', [y, s2!, e2!, st2!], 'y', { ...zero, begin_mask: A.raw('1') }));
    expect(() => convertModel(m.model)).toThrow(/CONVERT_NEEDS_CONSTANT|stride/);
  });
});
