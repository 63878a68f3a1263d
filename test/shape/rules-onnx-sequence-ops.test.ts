import { describe, expect, it } from 'vitest';
import type { Attr } from '../../src/graph/attr.js';
import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Shape } from '../../src/graph/shape.js';
import type { Value } from '../../src/graph/value.js';
import { A, B, elemOf, errors, s, shapeOf } from './build.js';

/**
 * ONNX shape rules of CausalConvWithState-27, LinearAttention-27 and FlexAttention-1
 * (src/shape/rules/onnx/{causal-conv-with-state,linear-attention,flex-attention}.ts), by the
 * shapes their schemas give: every output, the state outputs included, from inputs and attributes.
 */
type In = { elem?: ElementTypeName; shape: Shape } | null;
function run(op: string, version: string, inputs: In[], attrs: Record<string, Attr>, outputs: number, domain = '') {
  const b = new B('onnx', version);
  const vs = inputs.map((x, i): Value | null => (x === null ? null : b.input(`in${i}`, x.elem ?? 'f32', x.shape)));
  const n = b.node(op, vs, attrs, { outputs });
  n.domain = domain;
  const r = b.infer();
  return { shapes: n.outputs.map((o) => shapeOf(r, o)), elems: n.outputs.map((o) => elemOf(r, o)), errors: errors(r).map((d) => d.message) };
}

describe('CausalConvWithState-27: output like input, present_state [B, C, k − 1]', () => {
  it('no past_state: k − 1 from the weight; symbolic batch and length carried', () => {
    const r = run('CausalConvWithState', '27', [{ shape: [s('B'), 4, s('L')] }, { shape: [4, 1, 4] }], {}, 2);
    expect(r.shapes).toEqual([[s('B'), 4, s('L')], [s('B'), 4, 3]]);
    expect(r.errors).toEqual([]);
  });

  it('f16 with past_state and bias; kernel 1 gives an empty state', () => {
    const f16 = (...shape: number[]): In => ({ elem: 'f16', shape });
    expect(run('CausalConvWithState', '27', [f16(2, 4, 1), f16(4, 1, 4), f16(4), f16(2, 4, 3)], {}, 2)).toMatchObject({ shapes: [[2, 4, 1], [2, 4, 3]], elems: ['f16', 'f16'] });
    expect(run('CausalConvWithState', '27', [{ shape: [2, 4, 8] }, { shape: [4, 1, 1] }], {}, 2).shapes[1]).toEqual([2, 4, 0]);
  });

  it('a past_state that does not hold k − 1 positions, and an unknown activation, are errors', () => {
    expect(run('CausalConvWithState', '27', [{ shape: [2, 4, 8] }, { shape: [4, 1, 4] }, null, { shape: [2, 4, 2] }], {}, 2).errors)
      .toEqual([expect.stringContaining('past_state holds 2 positions')]);
    expect(run('CausalConvWithState', '27', [{ shape: [2, 4, 8] }, { shape: [4, 1, 4] }], { activation: A.string('relu') }, 2).errors)
      .toEqual([expect.stringContaining("activation 'relu'")]);
  });
});

describe('LinearAttention-27: output [B, T, q_heads·d_v], present_state [B, kv_heads, d_k, d_v]', () => {
  const heads = (q: number, kv: number) => ({ q_num_heads: A.int(q), kv_num_heads: A.int(kv) });
  it('GQA: d_k from query / q_num_heads, d_v from value / kv_num_heads', () => {
    const r = run('LinearAttention', '27', [{ shape: [2, s('T'), 64] }, { shape: [2, s('T'), 32] }, { shape: [2, s('T'), 16] }], heads(8, 4), 2);
    expect(r.shapes).toEqual([[2, s('T'), 32], [2, 4, 8, 4]]);
    expect(r.errors).toEqual([]);
  });

  it('present_state has past_state\'s element type (query\'s without one)', () => {
    const f16 = (...shape: number[]): In => ({ elem: 'f16', shape });
    expect(run('LinearAttention', '27', [f16(2, 1, 32), f16(2, 1, 32), f16(2, 1, 32), { shape: [2, 4, 8, 8] }], heads(4, 4), 2).elems).toEqual(['f16', 'f32']);
    expect(run('LinearAttention', '27', [f16(2, 1, 32), f16(2, 1, 32), f16(2, 1, 32)], heads(4, 4), 2).elems).toEqual(['f16', 'f16']);
  });

  it('head counts that do not divide, and an unknown update_rule, are errors', () => {
    const qkv: In[] = [{ shape: [2, 4, 32] }, { shape: [2, 4, 32] }, { shape: [2, 4, 32] }];
    expect(run('LinearAttention', '27', qkv, heads(6, 4), 2).errors).toEqual([expect.stringContaining('multiple of kv_num_heads')]);
    expect(run('LinearAttention', '27', qkv, { ...heads(4, 4), update_rule: A.string('mamba') }, 2).errors).toEqual([expect.stringContaining("update_rule 'mamba'")]);
  });
});

describe('FlexAttention-1 (ai.onnx.preview): Y [B, q_heads, L, Ev] of Q\'s type', () => {
  it('GQA and a different value head size', () => {
    const r = run('FlexAttention', '1', [{ shape: [s('B'), 8, 4, 16] }, { shape: [s('B'), 2, 6, 16] }, { shape: [s('B'), 2, 6, 32] }], {}, 1, 'ai.onnx.preview');
    expect(r.shapes).toEqual([[s('B'), 8, 4, 32]]);
    expect(run('FlexAttention', '1', [{ elem: 'f64', shape: [1, 2, 3, 4] }, { elem: 'f64', shape: [1, 2, 3, 4] }, { elem: 'f64', shape: [1, 2, 3, 4] }], {}, 1, 'ai.onnx.preview').elems).toEqual(['f64']);
  });

  it('inputs of another rank are an error', () => {
    expect(run('FlexAttention', '1', [{ shape: [2, 3, 4] }, { shape: [2, 3, 4, 5] }, { shape: [2, 3, 4, 5] }], {}, 1, 'ai.onnx.preview').errors)
      .toEqual([expect.stringContaining('Q must be rank 4')]);
  });
});
