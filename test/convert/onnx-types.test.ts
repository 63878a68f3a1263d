import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromInt64, type ElementTypeName, type Model } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';

/**
 * IR → ONNX where the IR op takes an element type the ONNX op (or onnxruntime's kernel) does not:
 * exact widening with Casts (src/convert/onnx-types.ts), else a coded refusal naming op, type and
 * the opset that would take it. Numbers are checked in onnxruntime.
 */
const ops = (m: Model) => [...allNodes(m.graph)].map((n) => n.op);

function binary(op: string, elem: ElementTypeName): Model {
  const b = new Builder('ov');
  const x = b.input('x', elem, [4]);
  const y = b.input('y', elem, [4]);
  b.output(b.op(b.graph, op, [x, y], 'z', { auto_broadcast: A.raw('numpy') }));
  return b.model;
}

const TYPED: Partial<Record<ElementTypeName, (v: number[]) => ArrayBufferView>> = {
  i8: (v) => new Int8Array(v), u8: (v) => new Uint8Array(v), i16: (v) => new Int16Array(v), u16: (v) => new Uint16Array(v), u32: (v) => new Uint32Array(v),
};
const tensor = (elem: ElementTypeName, v: number[]): OracleTensor => {
  const a = TYPED[elem]!(v);
  return { dtype: elem, shape: [v.length], data: new Uint8Array(a.buffer, a.byteOffset, a.byteLength) };
};
describe('IR → ONNX element types the ONNX op or onnxruntime lacks', () => {
  it.each([
    ['Maximum', 'i16', [-3, 7, 300, -300], [2, 7, -1, 100], [2, 7, 300, 100]],
    ['Minimum', 'u16', [3, 70, 65535, 0], [2, 80, 1, 5], [2, 70, 1, 0]],
    ['Maximum', 'i8', [-128, 127, 0, -1], [0, 0, 0, 0], [0, 127, 0, 0]],
    ['Power', 'u8', [2, 3, 1, 2], [7, 5, 200, 0], [128, 243, 1, 1]],
    ['Power', 'i16', [-2, 3, 10, 2], [3, 5, 4, 14], [-8, 243, 10000, 16384]],
  ] as const)('%s on %s: Casts to a wider type and back, onnxruntime computes the IR numbers', async (op, elem, a, b, want) => {
    const onnx = convertModel(binary(op, elem));
    expect(ops(onnx)).toEqual(['Cast', 'Cast', op === 'Power' ? 'Pow' : op === 'Maximum' ? 'Max' : 'Min', 'Cast']);
    const got = (await runOrt(encodeOnnx(onnx).bytes, { x: tensor(elem, [...a]), y: tensor(elem, [...b]) }))['z']!;
    expect(got.dtype).toBe(elem);
    expect(got.data).toEqual(tensor(elem, [...want]).data);
  });

  it('Range on f16 (ONNX Range takes no f16): computed in f32 and cast back, onnxruntime computes the IR numbers', async () => {
    const b = new Builder('ov');
    const [s, l, d] = ['start', 'limit', 'delta'].map((n) => b.input(n, 'f16', []));
    b.output(b.op(b.graph, 'Range', [s!, l!, d!], 'y', { output_type: A.raw('f16') }, { version: 'opset4' }));
    const onnx = convertModel(b.model);
    expect(ops(onnx)).toEqual(['Cast', 'Cast', 'Cast', 'Range', 'Cast']);
    const f16 = (v: number): OracleTensor => ({ dtype: 'f16', shape: [], data: new Uint8Array(new Uint16Array([v]).buffer) });
    // 1, 6, 0.5 as f16 bits: 0x3c00, 0x4600, 0x3800 → 1, 1.5, …, 5.5 (10 values)
    const got = (await runOrt(encodeOnnx(onnx).bytes, { start: f16(0x3c00), limit: f16(0x4600), delta: f16(0x3800) }))['y']!;
    expect(got.dtype).toBe('f16');
    expect(got.shape).toEqual([10]);
    const bits = new Uint16Array(got.data.buffer.slice(got.data.byteOffset, got.data.byteOffset + got.data.byteLength));
    expect([...bits]).toEqual([0x3c00, 0x3e00, 0x4000, 0x4100, 0x4200, 0x4300, 0x4400, 0x4480, 0x4500, 0x4580]);
  });

  it.each([
    ['ReverseSequence', 'opset1', 2, { batch_axis: A.raw('1'), seq_axis: A.raw('0') }, 'ReverseSequence'],
    ['Unique', 'opset10', 1, { sorted: A.raw('true'), index_element_type: A.raw('i64'), count_element_type: A.raw('i64') }, 'Unique'],
  ] as const)('%s on bf16 (no ONNX opset takes it): the data goes through f32 and back; only the bf16 outputs are cast back', (op, version, nIn, attrs, onnxOp) => {
    const b = new Builder('ov');
    const x = b.input('x', 'bf16', [3, 2]);
    const ins = nIn === 2 ? [x, b.input('lens', 'i64', [2])] : [x];
    const n = b.node(b.graph, op, ins, op === 'Unique' ? ['y', 'idx', 'inv', 'counts'] : ['y'], attrs, { version });
    for (const o of n.outputs) b.output(o);
    const onnx = convertModel(b.model);
    const nodes = [...allNodes(onnx.graph)];
    expect(nodes.map((m) => m.op)).toEqual(['Cast', onnxOp, 'Cast']);
    const [up, mid, down] = nodes as [typeof nodes[0], typeof nodes[0], typeof nodes[0]];
    expect(up.attrs.get('to')).toEqual(A.int(1)); // FLOAT
    expect(mid.inputs[0]).toBe(up.outputs[0]);
    expect(down.inputs[0]).toBe(mid.outputs[0]);
    expect(down.attrs.get('to')).toEqual(A.int(16)); // BFLOAT16
    expect(onnx.graph.outputs[0]!.producer).toBe(down);
  });

  it('an op with no exact wider form is refused with the op, the type and the opset that takes it', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'i32', [1, 1, 3, 3]);
    const conv = b.op(b.graph, 'Convolution', [x, b.input('k', 'i32', [1, 1, 1, 1])], 'y', {
      strides: A.raw('1,1'), dilations: A.raw('1,1'), pads_begin: A.raw('0,0'), pads_end: A.raw('0,0'), auto_pad: A.raw('explicit'),
    });
    b.output(conv);
    let message = '';
    try { convertModel(b.model); } catch (e) { if (e instanceof OvirError) message = e.message; else throw e; }
    expect(message).toMatch(/Conv: input 0 has element type i32, which the op does not take .* at ONNX opset 17.*ONNX_INVALID_AT_OPSET/s);
  });

  it('bf16 arithmetic onnxruntime has no kernel for is computed in f32 and rounded back to bf16 after each op', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'bf16', [2, 2]);
    const y = b.input('y', 'bf16', [2, 2]);
    const sum = b.op(b.graph, 'Add', [x, y], 's', { auto_broadcast: A.raw('numpy') });
    const prod = b.op(b.graph, 'MatMul', [sum, y], 'p', { transpose_a: A.raw('false'), transpose_b: A.raw('false') });
    b.output(b.op(b.graph, 'SoftMax', [prod], 'z', { axis: A.raw('1') }));
    const onnx = convertModel(b.model);
    expect(ops(onnx)).toEqual(['Cast', 'Cast', 'Add', 'Cast', 'Cast', 'Cast', 'MatMul', 'Cast', 'Cast', 'Softmax', 'Cast']);
    expect(onnx.graph.outputs[0]!.type).toMatchObject({ elem: 'bf16' });
    // f16, which onnxruntime runs, keeps its ops as they are
    const half = new Builder('ov');
    const h = half.input('x', 'f16', [2]);
    half.output(half.op(half.graph, 'Add', [h, h], 's', { auto_broadcast: A.raw('numpy') }));
    expect(ops(convertModel(half.model))).toEqual(['Add']);
  });

  it('4-bit integers, which onnxruntime reshapes in no kernel, are reshaped as 8-bit values', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'i4', [2, 4]);
    b.output(b.op(b.graph, 'Reshape', [x, b.init('', tensorFromInt64([8]))], 'y', { special_zero: A.raw('false') }));
    const onnx = convertModel(b.model, { opset: 21 });
    expect(ops(onnx)).toEqual(['Cast', 'Reshape', 'Cast']);
    expect(onnx.graph.outputs[0]!.type).toMatchObject({ elem: 'i4', shape: [8] });
  });

  it('Pow on u64 has no exact wider type: refused, naming the type', () => {
    let message = '';
    try { convertModel(binary('Power', 'u64'), { opset: 11 }); } catch (e) { if (e instanceof OvirError) message = e.message; else throw e; }
    expect(message).toMatch(/Pow: input 0 has element type u64/);
  });
});
