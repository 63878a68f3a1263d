import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, allNodes, readIntegers, type Attr, type ElementTypeName, type Model, type Node } from '../../src/graph/index.js';
import { diags, ops } from '../convert-extra/graph-probes.js';
import { Builder } from './builder.js';

/**
 * ONNX CausalConvWithState-27 as IR ops (mappings/nn/causal-conv-with-state.ts), checked on the
 * graph it builds against onnx's reference: padded = past_state (or zeros) ++ input; output the
 * depthwise convolution of padded (+ bias, then SiLU when asked); present_state its last k − 1
 * positions. The numbers are judged by OpenVINO on the backend cases
 * (`OVIR_ZOO_FILTER='causal_conv'` in test/conformance/convert-zoo.test.ts).
 */

type In = { elem?: ElementTypeName; shape: number[] } | null;
function model(inputs: In[], attrs: Record<string, Attr> = {}): Model {
  const b = new Builder('onnx', 27);
  const ins = inputs.map((s, i) => (s === null ? null : b.input(['input', 'weight', 'bias', 'past_state'][i]!, s.elem ?? 'f32', s.shape)));
  const n = b.node(b.graph, 'CausalConvWithState', ins, ['output', 'present_state'], attrs, { name: 'n' });
  n.outputs.forEach((o) => b.output(o));
  return b.model;
}
const all = (m: Model, op: string): Node[] => [...allNodes(m.graph)].filter((n) => n.op === op);
const outType = (m: Model, i: number): unknown => m.graph.outputs[i]!.type;

describe('CausalConvWithState: depthwise convolution over past_state ++ input', () => {
  it('no past_state: zeros [B, C, k − 1] before the input, one GroupConvolution with a [C, 1, 1, k] kernel, no padding', () => {
    const m = convertModel(model([{ shape: [2, 4, 8] }, { shape: [4, 1, 3] }]));
    expect(ops(m)).toEqual(expect.arrayContaining(['Broadcast', 'Concat', 'Unsqueeze', 'GroupConvolution', 'Slice']));
    const conv = all(m, 'GroupConvolution')[0]!;
    expect(conv.attrs.get('pads_begin')).toEqual(A.raw('0'));
    expect(conv.attrs.get('pads_end')).toEqual(A.raw('0'));
    expect(conv.attrs.get('strides')).toEqual(A.raw('1'));
    expect(readIntegers(conv.inputs[1]!.producer!.inputs[1]!.constant!)).toEqual([1n]);
    expect(conv.inputs[0]!.producer!.op).toBe('Concat');
    expect(outType(m, 0)).toEqual({ kind: 'tensor', elem: 'f32', shape: [2, 4, 8] });
    expect(outType(m, 1)).toEqual({ kind: 'tensor', elem: 'f32', shape: [2, 4, 2] });
    // present_state: the last k − 1 = 2 positions of the padded input
    const slice = m.graph.outputs[1]!.producer!;
    expect(slice.op).toBe('Slice');
    expect(readIntegers(slice.inputs[1]!.constant!)).toEqual([-2n]);
  });

  it('past_state and bias: past_state is the padding (no zeros), bias added per channel as [C, 1]', () => {
    const m = convertModel(model([{ shape: [2, 4, 1] }, { shape: [4, 1, 4] }, { shape: [4] }, { shape: [2, 4, 3] }]));
    expect(ops(m)).not.toContain('Broadcast');
    expect(all(m, 'Concat')[0]!.inputs[0]!.names).toContain('past_state');
    const add = m.graph.outputs[0]!.producer!;
    expect(add.op).toBe('Add');
    expect(readIntegers(add.inputs[1]!.producer!.inputs[1]!.constant!)).toEqual([1n]);
    expect(outType(m, 1)).toEqual({ kind: 'tensor', elem: 'f32', shape: [2, 4, 3] });
  });

  it('activation silu on f16: Swish computed in f32 and converted back (the reference casts to f32)', () => {
    const f16 = (...shape: number[]): In => ({ elem: 'f16', shape });
    const m = convertModel(model([f16(2, 4, 8), f16(4, 1, 4)], { activation: A.string('silu') }));
    const back = m.graph.outputs[0]!.producer!;
    expect(back.op).toBe('Convert');
    expect(back.attrs.get('destination_type')).toEqual(A.raw('f16'));
    const swish = back.inputs[0]!.producer!;
    expect(swish.op).toBe('Swish');
    expect(swish.inputs).toHaveLength(1);
    expect(swish.inputs[0]!.producer!.attrs.get('destination_type')).toEqual(A.raw('f32'));
    // swish is the same activation; f32 needs no Convert
    const f32 = convertModel(model([{ shape: [2, 4, 8] }, { shape: [4, 1, 4] }], { activation: A.string('swish') }));
    expect(f32.graph.outputs[0]!.producer!.op).toBe('Swish');
  });

  it('a weight shape known only at run time: no GroupConvolution (OpenVINO\'s CPU plugin refuses dynamic weights) but the windows t + j gathered, times weight, ReduceSum over j', () => {
    const b = new Builder('onnx', 27);
    const x = b.input('input', 'f32', [{ sym: 'B' }, { sym: 'C' }, { sym: 'L' }]);
    const w = b.input('weight', 'f32', [{ sym: 'C' }, 1, { sym: 'K' }]);
    const n = b.node(b.graph, 'CausalConvWithState', [x, w], ['output', 'present_state'], {}, { name: 'n' });
    n.outputs.forEach((o) => b.output(o));
    const m = convertModel(b.model);
    expect(ops(m)).not.toContain('GroupConvolution');
    const sum = all(m, 'ReduceSum')[0]!;
    expect(readIntegers(sum.inputs[1]!.constant!)).toEqual([-1n]);
    expect(sum.inputs[0]!.producer!.op).toBe('Multiply');
    expect(sum.inputs[0]!.producer!.inputs[0]!.producer!.op).toBe('Gather');
    // present_state starts k − 1 from the end, computed at run time
    expect(m.graph.outputs[1]!.producer!.inputs[1]!.constant).toBeNull();
  });

  it('kernel size 1: no padding, present_state empty ([B, C, 0], a Slice starting past the end)', () => {
    const m = convertModel(model([{ shape: [2, 4, 8] }, { shape: [4, 1, 1] }]));
    expect(ops(m)).not.toContain('Concat');
    expect(outType(m, 1)).toEqual({ kind: 'tensor', elem: 'f32', shape: [2, 4, 0] });
  });

  it('an activation outside none / silu / swish is a coded refusal naming node and attribute; wrong ranks are named', () => {
    expect(diags(() => convertModel(model([{ shape: [2, 4, 8] }, { shape: [4, 1, 3] }], { activation: A.string('gelu') }))))
      .toEqual(expect.arrayContaining([expect.objectContaining({ code: 'CONVERT_UNSUPPORTED_ATTR', path: 'main/n', message: expect.stringContaining('activation') })]));
    expect(diags(() => convertModel(model([{ shape: [2, 4, 8] }, { shape: [4, 3] }]))))
      .toEqual(expect.arrayContaining([expect.objectContaining({ path: 'main/n', message: expect.stringContaining('weight must be rank 3') })]));
  });
});
