import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, allNodes, readIntegers, type Attr, type ElementTypeName, type Model, type Node } from '../../src/graph/index.js';
import { Builder } from '../convert/builder.js';
import { ops, diags } from './graph-probes.js';

/**
 * ONNX Attention-23/24/25 and RotaryEmbedding-23 as IR ops (mappings/nn/attention.ts,
 * mappings/nn/rotary-embedding.ts), checked on the graphs they build against the operator
 * definitions. That the numbers agree is judged by OpenVINO on the ONNX backend cases
 * (`OVIR_ZOO_FILTER='attention|rotary'` in test/conformance/convert-zoo.test.ts).
 */

const all = (m: Model, op: string): Node[] => [...allNodes(m.graph)].filter((n) => n.op === op);

type In = { elem?: ElementTypeName; shape: number[] } | null;
function model(opset: number, op: string, inputs: In[], outputs: string[], attrs: Record<string, Attr> = {}): Model {
  const b = new Builder('onnx', opset);
  const ins = inputs.map((s, i) => (s === null ? null : b.input(`x${i}`, s.elem ?? 'f32', s.shape)));
  const n = b.node(b.graph, op, ins, outputs, attrs, { name: 'n' });
  n.outputs.forEach((o) => b.output(o));
  return b.model;
}
const outShape = (m: Model, i: number): unknown => (m.graph.outputs[i]!.type as { shape: unknown }).shape;

describe('Attention: Softmax(Q·√scale · (K·√scale)ᵀ + bias) · V', () => {
  it('4-D, equal head counts: one MatMul with K transposed, Softmax on the last axis, no head repetition', () => {
    const m = convertModel(model(23, 'Attention', [{ shape: [2, 3, 4, 8] }, { shape: [2, 3, 6, 8] }, { shape: [2, 3, 6, 10] }], ['y']));
    expect(ops(m)).toEqual(['Multiply', 'Multiply', 'MatMul', 'Softmax', 'MatMul']);
    expect(all(m, 'MatMul')[0]!.attrs.get('transpose_b')).toEqual(A.raw('true'));
    expect(all(m, 'Softmax')[0]!.attrs.get('axis')).toEqual(A.raw('-1'));
    expect(outShape(m, 0)).toEqual([2, 3, 4, 10]);
  });

  it('3-D with q_num_heads 9, kv_num_heads 3 (GQA): heads split out, each K/V head repeated 3 times, Y back to [B, L, 9·Dv]', () => {
    const m = convertModel(model(23, 'Attention', [{ shape: [2, 4, 72] }, { shape: [2, 6, 24] }, { shape: [2, 6, 24] }], ['y'],
      { q_num_heads: A.int(9), kv_num_heads: A.int(3) }));
    expect(all(m, 'Broadcast')).toHaveLength(2);
    expect(readIntegers(all(m, 'Reshape')[0]!.inputs[1]!.constant!)).toEqual([0n, 0n, 9n, -1n]);
    expect(outShape(m, 0)).toEqual([2, 4, 72]);
  });

  it('past_key / past_value are concatenated before K / V along the sequence axis: present_key / present_value', () => {
    const m = convertModel(model(23, 'Attention', [{ shape: [2, 3, 4, 8] }, { shape: [2, 3, 6, 8] }, { shape: [2, 3, 6, 8] }, { shape: [4, 18] },
      { shape: [2, 3, 12, 8] }, { shape: [2, 3, 12, 8] }], ['y', 'pk', 'pv']));
    const concats = all(m, 'Concat').filter((n) => m.graph.outputs.includes(n.outputs[0]!));
    expect(concats).toHaveLength(2);
    expect(concats.map((n) => n.attrs.get('axis'))).toEqual([A.raw('2'), A.raw('2')]);
    expect(outShape(m, 1)).toEqual([2, 3, 18, 8]);
    // a float mask as long as the total sequence is added as it is (no Pad)
    expect(ops(m)).not.toContain('Pad');
  });

  it('a boolean mask shorter than the total sequence is padded with False, then is 0 / -inf', () => {
    const m = convertModel(model(23, 'Attention', [{ shape: [1, 2, 4, 8] }, { shape: [1, 2, 6, 8] }, { shape: [1, 2, 6, 8] }, { elem: 'boolean', shape: [4, 4] }], ['y']));
    expect(ops(m)).toContain('Pad');
    expect(ops(m)).toContain('Select');
    // the fully-masked-row guard: rows whose bias is all -inf give zeros, not NaN
    expect(ops(m)).toContain('ReduceMin');
  });

  it('is_causal with nonpad_kv_seqlen (24): the frontier j ≤ i + nonpad − L per batch, and keys past nonpad masked', () => {
    const m = convertModel(model(24, 'Attention', [{ shape: [2, 2, 3, 8] }, { shape: [2, 2, 6, 8] }, { shape: [2, 2, 6, 8] }, null, null, null, { elem: 'i64', shape: [2] }], ['y'],
      { is_causal: A.int(1) }));
    expect(ops(m)).toEqual(expect.arrayContaining(['Range', 'LessEqual', 'Less', 'Select']));
    expect(outShape(m, 0)).toEqual([2, 2, 3, 8]);
  });

  it('qk_matmul_output mode 3 with softmax_precision FLOAT of f16 inputs: the softmax is computed in f32 and returned in f16', () => {
    const f16 = (...shape: number[]): In => ({ elem: 'f16', shape });
    const m = convertModel(model(24, 'Attention', [f16(1, 2, 2, 8), f16(1, 2, 2, 8), f16(1, 2, 2, 8)], ['y', '', '', 'qk'],
      { qk_matmul_output_mode: A.int(3), softmax_precision: A.int(1) }));
    const qk = m.graph.outputs.find((o) => o.names.includes('qk'))!;
    expect(qk.producer!.op).toBe('Convert');
    expect(qk.producer!.attrs.get('destination_type')).toEqual(A.raw('f16'));
    expect(all(m, 'Softmax')[0]!.inputs[0]!.producer!.attrs.get('destination_type')).toEqual(A.raw('f32'));
  });

  it('softcap > 0: softcap · tanh(QKᵀ / softcap) before the bias', () => {
    const m = convertModel(model(23, 'Attention', [{ shape: [1, 1, 2, 4] }, { shape: [1, 1, 3, 4] }, { shape: [1, 1, 3, 4] }], ['y'], { softcap: A.float(2) }));
    expect(ops(m)).toEqual(['Multiply', 'Multiply', 'MatMul', 'Divide', 'Tanh', 'Multiply', 'Softmax', 'MatMul']);
  });

  it('left_window_size / right_window_size (25) bound the keys on both sides', () => {
    const m = convertModel(model(25, 'Attention', [{ shape: [1, 1, 5, 1] }, { shape: [1, 1, 5, 1] }, { shape: [1, 1, 5, 1] }], ['y'],
      { left_window_size: A.int(1), right_window_size: A.int(2) }));
    expect(ops(m)).toEqual(expect.arrayContaining(['LessEqual', 'GreaterEqual', 'LogicalAnd']));
  });

  it('what it cannot do is a coded refusal naming node and attribute', () => {
    const qkv: In[] = [{ shape: [2, 4, 24] }, { shape: [2, 6, 24] }, { shape: [2, 6, 24] }];
    expect(diags(() => convertModel(model(23, 'Attention', qkv, ['y'])))).toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', path: 'main/n', message: expect.stringContaining('q_num_heads') }]);
    const four: In[] = [{ shape: [1, 1, 2, 4] }, { shape: [1, 1, 2, 4] }, { shape: [1, 1, 2, 4] }];
    expect(diags(() => convertModel(model(23, 'Attention', four, ['y'], { softmax_precision: A.int(7) })))).toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', message: expect.stringContaining('softmax_precision') }]);
    expect(diags(() => convertModel(model(23, 'Attention', four, ['y'], { qk_matmul_output_mode: A.int(4) })))).toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', message: expect.stringContaining('qk_matmul_output_mode') }]);
    expect(diags(() => convertModel(model(25, 'Attention', four, ['y'], { left_window_size: A.int(-2) })))).toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', message: expect.stringContaining('left_window_size') }]);
    // window bounds are Attention-25 attributes: at 23 they are not silently dropped
    expect(diags(() => convertModel(model(23, 'Attention', four, ['y'], { left_window_size: A.int(1) })))).toMatchObject([{ path: 'main/n', message: expect.stringContaining('left_window_size') }]);
    expect(diags(() => convertModel(model(23, 'Attention', [...four, null, { shape: [1, 1, 2, 4] }], ['y'])))).toMatchObject([{ code: 'CONVERT_OP', path: 'main/n', message: expect.stringContaining('past_value') }]);
    expect(diags(() => convertModel(model(23, 'Attention', [{ shape: [1, 6, 2, 4] }, { shape: [1, 4, 2, 4] }, { shape: [1, 4, 2, 4] }], ['y'])))).toMatchObject([{ code: 'CONVERT_OP', message: expect.stringContaining('multiple') }]);
  });
});

describe('RotaryEmbedding: real = cos·x1 − sin·x2, imag = sin·x1 + cos·x2', () => {
  const caches: In[] = [{ shape: [50, 4] }, { shape: [50, 4] }, { elem: 'i64', shape: [2, 3] }];

  it('4-D input, halves: cos / sin gathered by position_ids, one per head; the output keeps the input shape', () => {
    const m = convertModel(model(23, 'RotaryEmbedding', [{ shape: [2, 4, 3, 8] }, ...caches], ['y']));
    expect(all(m, 'Gather')).toHaveLength(2);
    expect(all(m, 'Split')).toHaveLength(1);
    expect(all(m, 'Transpose')).toHaveLength(2);
    expect(outShape(m, 0)).toEqual([2, 4, 3, 8]);
  });

  it('interleaved with rotary_embedding_dim 4: even/odd pairs of the first 4 dims rotate, the rest pass through', () => {
    const m = convertModel(model(23, 'RotaryEmbedding', [{ shape: [2, 4, 3, 8] }, { shape: [50, 2] }, { shape: [50, 2] }, { elem: 'i64', shape: [2, 3] }], ['y'],
      { interleaved: A.int(1), rotary_embedding_dim: A.int(4) }));
    expect(all(m, 'Slice')).toHaveLength(2);
    expect(readIntegers(all(m, 'Split')[0]!.inputs[1]!.constant!)).toEqual([4n]);
    expect(outShape(m, 0)).toEqual([2, 4, 3, 8]);
  });

  it('3-D input needs num_heads; an odd rotary_embedding_dim is refused', () => {
    expect(convertModel(model(23, 'RotaryEmbedding', [{ shape: [2, 3, 32] }, ...caches], ['y'], { num_heads: A.int(4) })).graph.outputs[0]!.type).toMatchObject({ shape: [2, 3, 32] });
    expect(diags(() => convertModel(model(23, 'RotaryEmbedding', [{ shape: [2, 3, 32] }, ...caches], ['y'])))).toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', path: 'main/n', message: expect.stringContaining('num_heads') }]);
    expect(diags(() => convertModel(model(23, 'RotaryEmbedding', [{ shape: [2, 4, 3, 8] }, ...caches], ['y'], { rotary_embedding_dim: A.int(3) })))).toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', message: expect.stringContaining('rotary_embedding_dim') }]);
  });
});
