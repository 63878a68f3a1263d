import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, verifyGraph, type Attr, type ElementTypeName, type Model } from '../../src/graph/index.js';
import type { Shape } from '../../src/graph/shape.js';
import { tensorFromInt32 } from '../../src/graph/tensor.js';
import { Builder } from './builder.js';

/**
 * ONNX → IR of onnxruntime's contrib ops of transformer models (mappings/microsoft/): Gelu,
 * BiasGelu, FastGelu, QuickGelu, BiasAdd, FusedMatMul, FusedConv, FusedGemm (com.microsoft),
 * SkipLayerNormalization, SkipSimplifiedLayerNormalization, EmbedLayerNormalization
 * (com.microsoft) and SimplifiedLayerNormalization (onnxruntime's op in the ONNX domain): what the
 * IR holds, the types inferred, and what is refused. The numbers are judged by the engines in
 * test/conformance/contrib-fusion.test.ts (onnxruntime on the model, OpenVINO on ovir's IR).
 */
const MS = 'com.microsoft';

interface In { name: string; elem?: ElementTypeName; shape: Shape }

function model(op: string, inputs: (In | null)[], outputs: string[], attrs: Record<string, Attr> = {}, domain = MS): Model {
  const b = new Builder('onnx', 17);
  if (domain) b.model.onnx!.opsetImports.set(domain, 1);
  const n = b.graph.addNode({ dialect: 'onnx', op, domain, version: domain ? '1' : '17', name: op.toLowerCase() });
  for (const i of inputs) n.addInput(i ? b.input(i.name, i.elem ?? 'f32', i.shape) : null);
  for (const [k, a] of Object.entries(attrs)) n.attrs.set(k, a);
  for (const o of outputs) {
    const v = n.addOutput(null, o ? [o] : []);
    if (o) b.output(v);
  }
  return b.model;
}
const ops = (m: Model): string[] => [...allNodes(m.graph)].map((n) => n.op);
const outTypes = (m: Model) => m.graph.outputs.map((o) => o.type);
const refusal = (m: Model): string[] => {
  try { convertModel(m); return []; } catch (e) {
    if (!(e instanceof OvirError)) throw e;
    return e.diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`);
  }
};
const X = (shape: Shape = [2, 3, 8], elem: ElementTypeName = 'f32'): In => ({ name: 'X', elem, shape });
const named = (name: string, shape: Shape, elem: ElementTypeName = 'f32'): In => ({ name, elem, shape });

describe('GELU family and BiasAdd', () => {
  it('Gelu is IR Gelu-7 ERF; BiasGelu adds B first; FastGelu is Gelu-7 TANH (of X + bias when given)', () => {
    const g = convertModel(model('Gelu', [X()], ['Y']));
    expect(ops(g)).toEqual(['Gelu']);
    expect([...allNodes(g.graph)][0]!.attrs.get('approximation_mode')).toMatchObject({ value: 'ERF' });
    expect(ops(convertModel(model('BiasGelu', [X(), named('B', [8])], ['Y'])))).toEqual(['Add', 'Gelu']);
    const fast = convertModel(model('FastGelu', [X(), named('bias', [8])], ['Y']));
    expect(ops(fast)).toEqual(['Add', 'Gelu']);
    expect([...allNodes(fast.graph)][1]!.attrs.get('approximation_mode')).toMatchObject({ value: 'TANH' });
    expect(ops(convertModel(model('FastGelu', [X()], ['Y'])))).toEqual(['Gelu']);
    expect(outTypes(fast)).toMatchObject([{ elem: 'f32', shape: [2, 3, 8] }]);
  });
  it('QuickGelu is X · Sigmoid(alpha · X), alpha 1.702 by default (no Multiply when alpha is 1)', () => {
    expect(ops(convertModel(model('QuickGelu', [X()], ['Y'])))).toEqual(['Multiply', 'Sigmoid', 'Multiply']);
    expect(ops(convertModel(model('QuickGelu', [X()], ['Y'], { alpha: A.float(1) })))).toEqual(['Sigmoid', 'Multiply']);
  });
  it('BiasAdd is X + bias + skip', () => {
    const m = convertModel(model('BiasAdd', [X(), named('bias', [8]), named('skip', [2, 3, 8])], ['Y']));
    expect(ops(m)).toEqual(['Add', 'Add']);
    expect(outTypes(m)).toMatchObject([{ elem: 'f32', shape: [2, 3, 8] }]);
  });
  it('integer inputs are refused naming the node', () => {
    expect(refusal(model('Gelu', [X([4], 'i32')], ['Y']))).toEqual([expect.stringMatching(/^CONVERT_OP main\/gelu: .*i32 values: onnxruntime defines it on float types only/)]);
  });
});

describe('FusedMatMul, FusedConv, FusedGemm', () => {
  it('FusedMatMul: alpha · MatMul with transA / transB; transBatchA moves dim 0 behind the batch dims', () => {
    const m = convertModel(model('FusedMatMul', [named('A', [4, 2, 3, 5]), named('B', [2, 3, 6, 5])], ['Y'], { transBatchA: A.int(1), transB: A.int(1), alpha: A.float(0.5) }));
    expect(ops(m)).toEqual(['Transpose', 'MatMul', 'Multiply']);
    const perm = [...allNodes(m.graph)][0]!.inputs[1]!.constant!;
    expect([...new BigInt64Array(perm.data.buffer, perm.data.byteOffset, 4)]).toEqual([1n, 2n, 0n, 3n]);
    expect(outTypes(m)).toMatchObject([{ elem: 'f32', shape: [2, 3, 4, 6] }]);
    expect(verifyGraph(m.graph)).toEqual([]);
  });
  it('FusedMatMul without attributes is one MatMul; a transBatch on a 1-D operand is refused', () => {
    expect(ops(convertModel(model('FusedMatMul', [named('A', [4, 5]), named('B', [5, 6])], ['Y'])))).toEqual(['MatMul']);
    expect(refusal(model('FusedMatMul', [named('A', [5]), named('B', [5, 6])], ['Y'], { transBatchA: A.int(1) })))
      .toEqual([expect.stringMatching(/^CONVERT_UNSUPPORTED_ATTR main\/fusedmatmul: .*'transBatchA' = 1 .*rank ≥ 2/)]);
  });
  it('FusedConv: Convolution, + Z, then the activation; no activation: the sum', () => {
    const ins = [named('X', [1, 2, 5, 5]), named('W', [3, 2, 3, 3]), named('B', [3]), named('Z', [1, 3, 3, 3])];
    const m = convertModel(model('FusedConv', ins, ['Y'], { activation: A.string('HardSigmoid'), activation_params: A.floats([0.3, 0.4]) }));
    expect(ops(m)).toEqual(expect.arrayContaining(['Convolution', 'Add', 'HardSigmoid']));
    expect(ops(m)).not.toContain('FusedConv');
    expect(outTypes(m)).toMatchObject([{ elem: 'f32', shape: [1, 3, 3, 3] }]);
    expect(ops(convertModel(model('FusedConv', ins.slice(0, 2), ['Y'])))).toEqual(['Convolution']);
    expect(ops(convertModel(model('FusedConv', ins.slice(0, 2), ['Y'], { activation: A.string('Clip'), activation_params: A.floats([0, 6]) })))).toEqual(['Convolution', 'Clamp']);
  });
  it('FusedConv refuses an activation onnxruntime has no kernel for, and one whose parameters are missing', () => {
    const ins = [named('X', [1, 2, 5, 5]), named('W', [3, 2, 3, 3])];
    expect(refusal(model('FusedConv', ins, ['Y'], { activation: A.string('Elu') })))
      .toEqual([expect.stringMatching(/^CONVERT_UNSUPPORTED_ATTR main\/fusedconv: FusedConv: attribute 'activation' = Elu is not supported/)]);
    expect(refusal(model('FusedConv', ins, ['Y'], { activation: A.string('LeakyRelu') })))
      .toEqual([expect.stringMatching(/^CONVERT_OP main\/fusedconv: .*LeakyRelu needs activation_params\[0\]/)]);
  });
  it('FusedGemm: Gemm, then its activation with activation_alpha / beta / gamma', () => {
    const ins = [named('A', [3, 4]), named('B', [4, 5]), named('C', [5])];
    const m = convertModel(model('FusedGemm', ins, ['Y'], { activation: A.string('Selu'), activation_alpha: A.float(1.6), activation_gamma: A.float(1.05) }));
    expect(ops(m)).toEqual(['MatMul', 'Add', 'Selu']);
    expect(outTypes(m)).toMatchObject([{ elem: 'f32', shape: [3, 5] }]);
    expect(ops(convertModel(model('FusedGemm', ins, ['Y'], { activation: A.string('ScaledTanh'), activation_alpha: A.float(2), activation_beta: A.float(0.5) }))))
      .toEqual(['MatMul', 'Add', 'Multiply', 'Tanh', 'Multiply']);
  });
  it('FusedGemm refuses a missing activation, an unknown one and missing parameters', () => {
    const ins = [named('A', [3, 4]), named('B', [4, 5])];
    expect(refusal(model('FusedGemm', ins, ['Y']))).toEqual([expect.stringMatching(/needs its activation attribute/)]);
    expect(refusal(model('FusedGemm', ins, ['Y'], { activation: A.string('Clip') }))).toEqual([expect.stringMatching(/'activation' = Clip is not supported/)]);
    expect(refusal(model('FusedGemm', ins, ['Y'], { activation: A.string('HardSigmoid'), activation_alpha: A.float(0.2) })))
      .toEqual([expect.stringMatching(/HardSigmoid needs activation_beta/)]);
  });
});

describe('layer normalizations', () => {
  const H = 8;
  const skipIns = [named('input', [2, 5, H]), named('skip', [2, 5, H]), named('gamma', [H]), named('beta', [H]), named('bias', [H])];
  it('SkipLayerNormalization: MVN over the last axis of input + skip + bias; every output typed', () => {
    const m = convertModel(model('SkipLayerNormalization', skipIns, ['output', 'mean', 'inv_std_var', 'sum'], { epsilon: A.float(1e-5) }));
    expect(ops(m)).toEqual(expect.arrayContaining(['MVN', 'ReduceMean', 'Sqrt']));
    expect(outTypes(m)).toMatchObject([
      { elem: 'f32', shape: [2, 5, H] }, { elem: 'f32', shape: [2, 5, 1] }, { elem: 'f32', shape: [2, 5, 1] }, { elem: 'f32', shape: [2, 5, H] }]);
    expect(verifyGraph(m.graph)).toEqual([]);
    expect(ops(convertModel(model('SkipLayerNormalization', skipIns.slice(0, 3), ['output'])))).toEqual(['Add', 'MVN', 'Multiply']);
  });
  it('SkipSimplifiedLayerNormalization: s / √(mean(s²) + epsilon) · gamma; its mean output, which onnxruntime never writes, is refused when read', () => {
    const ins = [named('input', [2, 5, H]), named('skip', [2, 5, H]), named('gamma', [H]), named('bias', [H])];
    const m = convertModel(model('SkipSimplifiedLayerNormalization', ins, ['output', '', 'inv_std_var', 'sum']));
    expect(ops(m)).not.toContain('MVN');
    expect(outTypes(m)).toMatchObject([{ shape: [2, 5, H] }, { shape: [2, 5, 1] }, { shape: [2, 5, H] }]);
    expect(refusal(model('SkipSimplifiedLayerNormalization', ins, ['output', 'mean'])))
      .toEqual([expect.stringMatching(/^CONVERT_OP main\/skipsimplifiedlayernormalization: .*output 1 \(mean\) is read, but onnxruntime never computes it/)]);
  });
  it('SimplifiedLayerNormalization (ONNX domain, as onnxruntime registers it) over [axis, rank) in f32; inv_std_var f32', () => {
    const m = convertModel(model('SimplifiedLayerNormalization', [X([2, 3, 4], 'f16'), named('scale', [3, 4], 'f16')], ['Y', 'inv'], { axis: A.int(1) }, ''));
    expect(ops(m)).toEqual(expect.arrayContaining(['Convert', 'ReduceMean', 'Sqrt']));
    expect(outTypes(m)).toMatchObject([{ elem: 'f16', shape: [2, 3, 4] }, { elem: 'f32', shape: [2, 1, 1] }]);
    expect(refusal(model('SimplifiedLayerNormalization', [X(), named('scale', [8])], ['Y', 'inv'], { stash_type: A.int(10) }, '')))
      .toEqual([expect.stringMatching(/'stash_type' = 10 is not supported \(inv_std_var is read/)]);
    expect(refusal(model('SimplifiedLayerNormalization', [X(), named('scale', [8])], ['Y'], { stash_type: A.int(10) }, ''))).toEqual([]);
  });
  it('EmbedLayerNormalization: three embeddings gathered and summed, MVN · gamma + beta; mask_index = ReduceSum(mask) int32 [B]', () => {
    const ins = [named('ids', [2, 6], 'i32'), named('seg', [2, 6], 'i32'), named('word', [20, H]), named('pos', [9, H]), named('segemb', [3, H]),
      named('gamma', [H]), named('beta', [H]), named('mask', [2, 6], 'i32')];
    const m = convertModel(model('EmbedLayerNormalization', ins, ['output', 'mask_index', 'embedding_sum']));
    expect(ops(m)).toEqual(expect.arrayContaining(['Gather', 'MVN', 'ReduceSum', 'Range']));
    expect(outTypes(m)).toMatchObject([{ elem: 'f32', shape: [2, 6, H] }, { elem: 'i32', shape: [2] }, { elem: 'f32', shape: [2, 6, H] }]);
    expect(verifyGraph(m.graph)).toEqual([]);
    const noMask = convertModel(model('EmbedLayerNormalization', [ins[0]!, null, ins[2]!, ins[3]!, null, ins[5]!, ins[6]!], ['output', 'mask_index']));
    expect(ops(noMask)).toContain('Broadcast');
    expect(refusal(model('EmbedLayerNormalization', [ins[0]!, ins[1]!, ins[2]!, ins[3]!, null, ins[5]!, ins[6]!], ['output', 'mask_index'])))
      .toEqual([expect.stringMatching(/segment_ids and segment_embedding must be given together/)]);
  });
});

describe('group normalizations (GroupNorm, SkipGroupNorm: diffusion models, NHWC by default)', () => {
  const nhwc = (shape: Shape = [2, 4, 4, 8], elem: ElementTypeName = 'f32') => [named('X', shape, elem), named('gamma', [8]), named('beta', [8])];
  const attrs = (more: Record<string, Attr> = {}) => ({ groups: A.int(2), activation: A.int(0), ...more });
  it('GroupNorm: channels moved first, MVN over each of the groups (epsilon inside the root), moved back, · gamma + beta per channel', () => {
    const m = convertModel(model('GroupNorm', nhwc(), ['Y'], attrs({ epsilon: A.float(1e-6) })));
    expect(ops(m)).toEqual(['Transpose', 'Reshape', 'MVN', 'ShapeOf', 'Reshape', 'Transpose', 'Multiply', 'Add']);
    const mvn = [...allNodes(m.graph)].find((n) => n.op === 'MVN')!;
    expect(mvn.attrs.get('eps_mode')).toMatchObject({ value: 'inside_sqrt' });
    expect(Number((mvn.attrs.get('eps') as { value: string }).value)).toBeCloseTo(1e-6, 12);
    expect(outTypes(m)).toMatchObject([{ elem: 'f32', shape: [2, 4, 4, 8] }]);
    expect(verifyGraph(m.graph)).toEqual([]);
  });
  it('GroupNorm: activation 1 is SiLU (y · sigmoid(y)); channels_last 0 reads [N, C, H, W] without Transposes, gamma and beta as [C, 1, 1]', () => {
    expect(ops(convertModel(model('GroupNorm', nhwc(), ['Y'], attrs({ activation: A.int(1) }))))).toEqual(expect.arrayContaining(['Sigmoid']));
    const nchw = convertModel(model('GroupNorm', [named('X', [2, 8, 3, 3]), named('gamma', [8]), named('beta', [8])], ['Y'], attrs({ channels_last: A.int(0) })));
    expect(ops(nchw)).not.toContain('Transpose');
    expect(ops(nchw).filter((o) => o === 'Unsqueeze')).toHaveLength(2);
    expect(outTypes(nchw)).toMatchObject([{ elem: 'f32', shape: [2, 8, 3, 3] }]);
  });
  it('GroupNorm of f16 X computes its statistics in f32 and gives f16', () => {
    const m = convertModel(model('GroupNorm', nhwc([1, 2, 2, 8], 'f16'), ['Y'], attrs()));
    expect(ops(m)[0]).toBe('Convert');
    expect(outTypes(m)).toMatchObject([{ elem: 'f16', shape: [1, 2, 2, 8] }]);
  });
  it('SkipGroupNorm: s = X + skip + bias ([N, C] skip broadcast over H, W), GroupNorm of s; S = s when read', () => {
    const ins = [...nhwc(), named('skip', [2, 8]), named('bias', [8])];
    const m = convertModel(model('SkipGroupNorm', ins, ['Y', 'S'], attrs({ activation: A.int(1) })));
    expect(ops(m).slice(0, 3)).toEqual(['Unsqueeze', 'Add', 'Add']);
    expect(outTypes(m)).toMatchObject([{ elem: 'f32', shape: [2, 4, 4, 8] }, { elem: 'f32', shape: [2, 4, 4, 8] }]);
    expect(verifyGraph(m.graph)).toEqual([]);
    expect(ops(convertModel(model('SkipGroupNorm', [...nhwc(), named('skip', [2, 4, 4, 8])], ['Y'], attrs())))).not.toContain('Unsqueeze');
  });
  it('refuses what the schema does not define, naming node and attribute: no or other activation, groups ≤ 0, X not 4-D or of integers', () => {
    expect(refusal(model('GroupNorm', nhwc(), ['Y'], { groups: A.int(2) }))).toEqual([expect.stringMatching(/^CONVERT_UNSUPPORTED_ATTR main\/groupnorm: .*'activation' = absent/)]);
    expect(refusal(model('GroupNorm', nhwc(), ['Y'], attrs({ activation: A.int(2) })))).toEqual([expect.stringMatching(/'activation' = 2 is not supported/)]);
    expect(refusal(model('GroupNorm', nhwc(), ['Y'], attrs({ groups: A.int(0) })))).toEqual([expect.stringMatching(/'groups' = 0 is not supported/)]);
    expect(refusal(model('GroupNorm', nhwc([2, 8]), ['Y'], attrs()))).toEqual([expect.stringMatching(/^CONVERT_OP main\/groupnorm: .*needs a 4-D X .*rank 2/)]);
    expect(refusal(model('GroupNorm', nhwc([2, 2, 2, 8], 'i32'), ['Y'], attrs()))).toEqual([expect.stringMatching(/needs X of a float type/)]);
  });
});

describe('Attention, RotaryEmbedding, Range, Trilu', () => {
  const D = 16;
  const attnIns = (extra: (In | null)[] = []): (In | null)[] => [named('input', [2, 5, D]), named('weights', [D, 3 * D]), named('bias', [3 * D]), ...extra];
  it('Attention: the merged projection split into heads, Softmax(scale · QKᵀ + mask)·V as [B, S, hidden]; present [2, B, N, T, head]', () => {
    const m = convertModel(model('Attention', attnIns([named('mask_index', [2], 'i32'), named('past', [2, 2, 2, 3, 8])]), ['output', 'present'],
      { num_heads: A.int(2), unidirectional: A.int(1) }));
    expect(ops(m)).toEqual(expect.arrayContaining(['MatMul', 'Softmax', 'Select', 'GreaterEqual', 'Concat']));
    expect(ops(m)).not.toContain('Attention');
    expect(outTypes(m)).toMatchObject([{ elem: 'f32', shape: [2, 5, D] }, { elem: 'f32', shape: [2, 2, 2, 8, 8] }]);
    expect(verifyGraph(m.graph)).toEqual([]);
  });
  it('Attention: a [2B] mask_index adds the start positions (LogicalOr); raw masks are compared with 0', () => {
    expect(ops(convertModel(model('Attention', attnIns([named('mask_index', [4], 'i32')]), ['output'], { num_heads: A.int(2) })))).toContain('LogicalOr');
    expect(ops(convertModel(model('Attention', attnIns([named('mask_index', [2, 5, 5], 'i32')]), ['output'], { num_heads: A.int(2) })))).toContain('Greater');
  });
  it('Attention: a 1-D mask_index whose length or batch is not known here is told [B] from [2B] at run time (an optimized BERT\'s EmbedLayerNormalization feeds one)', () => {
    const ins: (In | null)[] = [named('input', [null, 5, D]), named('weights', [D, 3 * D]), named('bias', [3 * D]), named('mask_index', [null], 'i32')];
    const m = convertModel(model('Attention', ins, ['output'], { num_heads: A.int(2) }));
    expect(ops(m)).toEqual(expect.arrayContaining(['LogicalOr', 'Softmax']));
    expect(outTypes(m)).toMatchObject([{ elem: 'f32', shape: [null, 5, D] }]);
  });
  it('Attention refuses what onnxruntime\'s CPU kernel does not compute or ovir does not convert, naming the node', () => {
    expect(refusal(model('Attention', attnIns(), ['output'], { num_heads: A.int(2), do_rotary: A.int(1) })))
      .toEqual([expect.stringMatching(/^CONVERT_UNSUPPORTED_ATTR main\/attention: .*'do_rotary' = 1/)]);
    expect(refusal(model('Attention', attnIns([named('mask_index', [7], 'i32')]), ['output'], { num_heads: A.int(2) })))
      .toEqual([expect.stringMatching(/1-D mask_index of 7 values for batch 2/)]);
    expect(refusal(model('Attention', attnIns([named('mask_index', [2, 1, 5, 5], 'i32')]), ['output'], { num_heads: A.int(2) })))
      .toEqual([expect.stringMatching(/mask_index of rank 4/)]);
    expect(refusal(model('Attention', attnIns(), ['output'], {}))).toEqual([expect.stringMatching(/'num_heads' = absent/)]);
  });
  it('RotaryEmbedding (com.microsoft): position_ids [B, S] gathered, [1] an offset; scale ignored with a warning', () => {
    const ins = (pos: Shape) => [named('input', [2, 4, 16]), named('position_ids', pos, 'i64'), named('cos', [12, 4]), named('sin', [12, 4])];
    const m = convertModel(model('RotaryEmbedding', ins([2, 4]), ['output']));
    expect(ops(m)).toEqual(expect.arrayContaining(['Gather', 'Split', 'Concat']));
    expect(ops(m)).not.toContain('Range');
    expect(outTypes(m)).toMatchObject([{ elem: 'f32', shape: [2, 4, 16] }]);
    expect(ops(convertModel(model('RotaryEmbedding', ins([1]), ['output'])))).toContain('Range');
    expect(refusal(model('RotaryEmbedding', ins([1]), ['output'], { is_packed_batching: A.int(1) }))).toEqual([expect.stringMatching(/'is_packed_batching' = 1/)]);
    const warnings: string[] = [];
    convertModel(model('RotaryEmbedding', ins([1]), ['output'], { scale: A.float(2) }), { onWarning: (d) => warnings.push(`${d.code} ${d.message}`) });
    expect(warnings).toEqual([expect.stringMatching(/^CONVERT_SEMANTICS_CHOICE RotaryEmbedding: scale 2 is ignored, as onnxruntime's RotaryEmbedding kernels ignore it/)]);
  });
  it('Range (com.microsoft) is Range-4, delta 1 when absent; Trilu (com.microsoft) is ONNX Trilu\'s band mask', () => {
    const r = convertModel(model('Range', [named('start', [], 'i64'), named('limit', [], 'i64')], ['Y']));
    expect(ops(r)).toEqual(['Range']);
    expect(outTypes(r)).toMatchObject([{ elem: 'i64' }]);
    const t = convertModel(model('Trilu', [X([3, 4])], ['Y'], { upper: A.int(0) }));
    expect(ops(t)).toEqual(expect.arrayContaining(['LessEqual', 'Select']));
    expect(outTypes(t)).toMatchObject([{ elem: 'f32', shape: [3, 4] }]);
  });
});

describe('Pad, GatherND', () => {
  it('Pad (com.microsoft): pads [1, 2r] flattened and split; the value reshaped to a scalar; modes constant, reflect, edge', () => {
    const m = convertModel(model('Pad', [X([3, 4]), named('pads', [1, 4], 'i64'), named('value', [1])], ['Y']));
    expect(ops(m)).toEqual(['Reshape', 'Split', 'Reshape', 'Pad']);
    expect(ops(convertModel(model('Pad', [X([3, 4]), named('pads', [4], 'i64')], ['Y'], { mode: A.string('edge') })))).toEqual(['Split', 'Pad']);
    expect(refusal(model('Pad', [X([3, 4]), named('pads', [4], 'i64')], ['Y'], { mode: A.string('wrap') })))
      .toEqual([expect.stringMatching(/^CONVERT_UNSUPPORTED_ATTR main\/pad: Pad: attribute 'mode' = wrap is not supported/)]);
  });
  it('GatherND (com.microsoft) is GatherND-8, batch_dims 0', () => {
    const m = convertModel(model('GatherND', [X([3, 4, 5]), named('I', [3, 2], 'i64')], ['Y']));
    expect(ops(m)).toEqual(['GatherND']);
    expect(outTypes(m)).toMatchObject([{ elem: 'f32', shape: [3, 5] }]);
  });
});

describe('MultiHeadAttention', () => {
  const qkv = (k: Shape = [2, 7, 16], v: Shape = [2, 7, 16]): (In | null)[] => [named('query', [2, 5, 16]), named('key', k), named('value', v)];
  it('separate Q, K, V split in heads, bias split by their hidden sizes, past ++ K / V = present; output [B, S, v_hidden]', () => {
    const ins = [...qkv([2, 2, 16], [2, 2, 16]), named('bias', [48]), null, null, named('past_key', [2, 2, 3, 8]), named('past_value', [2, 2, 3, 8])];
    ins[0] = named('query', [2, 2, 16]);
    const m = convertModel(model('MultiHeadAttention', ins, ['output', 'present_key', 'present_value'], { num_heads: A.int(2), unidirectional: A.int(1) }));
    expect(ops(m)).toEqual(expect.arrayContaining(['Slice', 'Concat', 'Softmax', 'LessEqual']));
    expect(ops(m)).not.toContain('MultiHeadAttention');
    expect(outTypes(m)).toMatchObject([{ elem: 'f32', shape: [2, 2, 16] }, { shape: [2, 2, 5, 8] }, { shape: [2, 2, 5, 8] }]);
    expect(verifyGraph(m.graph)).toEqual([]);
  });
  it('4-D key / value are used as they are; packed KV and QKV are split on axis 3', () => {
    const bnsh = convertModel(model('MultiHeadAttention', qkv([2, 2, 7, 8], [2, 2, 7, 8]), ['output'], { num_heads: A.int(2) }));
    expect(outTypes(bnsh)).toMatchObject([{ shape: [2, 5, 16] }]);
    expect(ops(convertModel(model('MultiHeadAttention', [named('query', [2, 5, 16]), named('key', [2, 7, 2, 2, 8])], ['output'], { num_heads: A.int(2) })))).toContain('Split');
    const packed = convertModel(model('MultiHeadAttention', [named('query', [2, 5, 2, 3, 8])], ['output'], { num_heads: A.int(2) }));
    expect(outTypes(packed)).toMatchObject([{ shape: [2, 5, 16] }]);
  });
  it('refuses the shared buffer, bias with 4-D key / value, a [3B + 2] key_padding_mask and the qk output, naming the node', () => {
    expect(refusal(model('MultiHeadAttention', [...qkv([2, 2, 7, 8], [2, 2, 7, 8]), named('bias', [48])], ['output'], { num_heads: A.int(2) })))
      .toEqual([expect.stringMatching(/^CONVERT_OP main\/multiheadattention: .*bias with 4-D key \/ value is not converted/)]);
    expect(refusal(model('MultiHeadAttention', [...qkv(), null, named('key_padding_mask', [8], 'i32')], ['output'], { num_heads: A.int(2) })))
      .toEqual([expect.stringMatching(/1-D key_padding_mask of 8 values for batch 2/)]);
    expect(refusal(model('MultiHeadAttention', [...qkv(), null, null, null, null, null, named('past_sequence_length', [1], 'i32')], ['output'], { num_heads: A.int(2) })))
      .toEqual([expect.stringMatching(/past_sequence_length \/ cache_indirection/)]);
  });
});

describe('GroupQueryAttention', () => {
  const lens = (): In[] => [named('seqlens_k', [2], 'i32'), named('total_sequence_length', [], 'i32')];
  const past = (): In[] => [named('past_key', [2, 2, 5, 8]), named('past_value', [2, 2, 5, 8])];
  const sep = (): In[] => [named('query', [2, 1, 32]), named('key', [2, 1, 16]), named('value', [2, 1, 16])];
  const gqa = (ins: (In | null)[], attrs: Record<string, Attr> = {}, outs = ['output', 'present_key', 'present_value']): Model =>
    model('GroupQueryAttention', ins, outs, { num_heads: A.int(4), kv_num_heads: A.int(2), ...attrs });
  it('separate Q, K, V with a past: each row\'s past ++ new gathered into present (zeros behind), kv heads shared by query head pairs, the causal mask per seqlens_k', () => {
    const m = convertModel(gqa([...sep(), ...past(), ...lens()]));
    expect(ops(m)).not.toContain('GroupQueryAttention');
    expect(ops(m)).toEqual(expect.arrayContaining(['Maximum', 'Minimum', 'Gather', 'Equal', 'LessEqual', 'LogicalAnd', 'Softmax', 'MatMul']));
    expect(ops(m)).not.toContain('Tanh');
    expect(outTypes(m)).toMatchObject([{ elem: 'f32', shape: [2, 1, 32] }, { elem: 'f32', shape: [2, 2, null, 8] }, { elem: 'f32', shape: [2, 2, null, 8] }]);
    expect(verifyGraph(m.graph)).toEqual([]);
  });
  it('packed QKV sliced into 4 + 2 + 2 heads; do_rotary gathers the caches at each row\'s positions; softcap is Tanh; local_window_size bounds the keys from below', () => {
    const ins = [named('query', [2, 1, 128]), null, null, ...[named('past_key', [2, 2, 5, 16]), named('past_value', [2, 2, 5, 16])], ...lens(), named('cos_cache', [8, 8]), named('sin_cache', [8, 8])];
    const m = convertModel(gqa(ins, { do_rotary: A.int(1), softcap: A.float(2), local_window_size: A.int(3) }));
    expect(ops(m)).toEqual(expect.arrayContaining(['Slice', 'Tanh', 'GreaterEqual', 'Split']));
    expect(outTypes(m)).toMatchObject([{ shape: [2, 1, 64] }, { shape: [2, 2, null, 16] }, { shape: [2, 2, null, 16] }]);
    expect(verifyGraph(m.graph)).toEqual([]);
    // f16, no past, only the output read
    const h = convertModel(gqa([named('query', [2, 3, 32], 'f16'), named('key', [2, 3, 16], 'f16'), named('value', [2, 3, 16], 'f16'), null, null, ...lens()], {}, ['output']));
    expect(outTypes(h)).toMatchObject([{ elem: 'f16', shape: [2, 3, 32] }]);
  });
  it('a constant total_sequence_length sizes present: max(T, the past buffer)', () => {
    for (const [t, want] of [[9, 9], [3, 5]] as const) {
      const m = gqa([...sep(), ...past(), named('seqlens_k', [2], 'i32'), null]);
      const node = m.graph.nodes[0]!;
      node.setInput(6, m.graph.addInitializer(tensorFromInt32([t], []), ['total_sequence_length']));
      expect(outTypes(convertModel(m))).toMatchObject([{ shape: [2, 1, 32] }, { shape: [2, 2, want, 8] }, { shape: [2, 2, want, 8] }]);
    }
  });
  it('refuses by name what it does not compute: position_ids, attention_bias, head_sink, k_scale, smooth_softmax, qk_output, causal 0, a quantized cache, odd head counts', () => {
    const base = [...sep(), ...past(), ...lens()];
    const pad = (k: number): null[] => Array<null>(k).fill(null);
    expect(refusal(gqa([...base, null, null, named('position_ids', [2, 1], 'i64')])))
      .toEqual([expect.stringMatching(/^CONVERT_OP main\/groupqueryattention: .*input 9 \(position_ids\) is given/)]);
    expect(refusal(gqa([...base, ...pad(3), named('attention_bias', [2, 1, 1, 6])]))).toEqual([expect.stringMatching(/attention_bias/)]);
    expect(refusal(gqa([...base, ...pad(4), named('head_sink', [4])]))).toEqual([expect.stringMatching(/head_sink/)]);
    expect(refusal(gqa([...base, ...pad(5), named('k_scale', [1])]))).toEqual([expect.stringMatching(/k_scale/)]);
    expect(refusal(gqa(base, { smooth_softmax: A.int(1) }))).toEqual([expect.stringMatching(/main\/groupqueryattention.*smooth_softmax/)]);
    expect(refusal(gqa(base, { qk_output: A.int(1) }))).toEqual([expect.stringMatching(/qk_output/)]);
    expect(refusal(gqa(base, {}, ['output', 'present_key', 'present_value', 'output_qk']))).toEqual([expect.stringMatching(/output 3 \(output_qk\) is read/)]);
    expect(refusal(gqa(base, { causal: A.int(0) }))).toEqual([expect.stringMatching(/causal/)]);
    expect(refusal(gqa(base, { k_quant_type: A.string('PER_TENSOR') }))).toEqual([expect.stringMatching(/k_quant_type/)]);
    expect(refusal(gqa(base, { kv_num_heads: A.int(3) }))).toEqual([expect.stringMatching(/kv_num_heads/)]);
    expect(refusal(gqa([...sep(), named('past_key', [2, 2, 5, 8]), null, ...lens()]))).toEqual([expect.stringMatching(/past_key and past_value must be given together/)]);
    expect(refusal(gqa([...base], { do_rotary: A.int(1) }))).toEqual([expect.stringMatching(/do_rotary needs cos_cache and sin_cache/)]);
  });
});
