import type { Dim, Shape } from '../../../graph/shape.js';
import { addDims } from '../../dim.js';
import { onnxBroadcast } from '../../broadcast.js';
import { normAxis } from '../../dim.js';
import { out, type InferFn, type OutputInfo, type Rule, type RuleContext } from '../../rule.js';
import { broadcastOr, intAttr, intsAttr, sameAsInput } from '../common.js';
import { matmulShape, rangeLength, scalarOf } from '../shared.js';
import { gemm } from './math.js';
import { conv, gatherNd } from './nn.js';

/**
 * onnxruntime's contrib ops of transformer models (com.microsoft, and SimplifiedLayerNormalization,
 * which onnxruntime registers in the ONNX domain), after onnxruntime's own inference functions
 * (onnxruntime/core/graph/contrib_ops/bert_defs.cc, contrib_defs.cc):
 * - Gelu, QuickGelu: X's type and shape. BiasGelu, FastGelu, BiasAdd: the inputs broadcast.
 * - FusedMatMul: MatMul of A and B after transBatch ([1 … r-2, 0, r-1]) and transA / transB.
 * - FusedConv: Conv's shape (Z has it). FusedGemm: Gemm's.
 * - SkipLayerNormalization, SkipSimplifiedLayerNormalization: output and input_skip_bias_sum have
 *   input's shape; mean and inv_std_var its shape with the last dim 1.
 * - SimplifiedLayerNormalization: Y X's shape; inv_std_var f32 with dims [axis, rank) 1.
 * - Attention: output [B, S, v_hidden]; present [2, B, num_heads, past + S, head_size].
 *   QAttention: the same (past at input 8), of the bias's float type.
 * - MultiHeadAttention: output [B, S, v_hidden] (v_hidden: value's last dim, N · head of a 4-D or
 *   packed value); present_key / present_value [B, N, past + L, head].
 * - GroupQueryAttention: output [B, S, N · h] (h: query's hidden size over num_heads, or over
 *   num_heads + 2 · kv_num_heads when packed); present_key / present_value [B, kv_num_heads, L, h],
 *   L = max(total_sequence_length, the past buffer's length) when total_sequence_length is known.
 * - RotaryEmbedding, Trilu: the input's type and shape. Range: start's type, its length when
 *   start, limit and delta (1 when absent) are known.
 * - Pad: data's type; each dim grown by its begin and end pads when pads ([2r] or [1, 2r]) is known.
 *   GatherND: ONNX GatherND's (batch_dims 0).
 * - GroupNorm: X's type and shape. SkipGroupNorm: Y and S X's type and shape.
 * - EmbedLayerNormalization: output and embedding_sum [B, S, hidden] of word_embedding's type
 *   (hidden: word_embedding's dim 1); mask_index int32 [B]. QEmbedLayerNormalization: the same, of
 *   the scales' float type.
 */
const MS = 'com.microsoft';

const broadcastAll: InferFn = (c) => {
  const shapes: Shape[] = [];
  for (let i = 0; i < c.numInputs; i++) if (c.has(i)) shapes.push(c.shape(i));
  return [out(c.elem(0), broadcastOr(c, onnxBroadcast(shapes)))];
};

const batchMoved = (s: Shape, on: boolean): Shape => {
  if (s === null || !on || s.length < 3) return s;
  return [...s.slice(1, -1), s[0]!, s[s.length - 1]!];
};

const fusedMatMul: InferFn = (c) => {
  const a = batchMoved(c.shape(0), intAttr(c, 'transBatchA', 0) !== 0);
  const b = batchMoved(c.shape(1), intAttr(c, 'transBatchB', 0) !== 0);
  const shape = matmulShape(c, a, b, intAttr(c, 'transA', 0) !== 0, intAttr(c, 'transB', 0) !== 0, (x, y) => onnxBroadcast([x, y]));
  return [out(c.elem(0), shape)];
};

/** X's shape with the dims from `axis` on 1 (null when unknown). */
const statShape = (x: Shape, axis: number): Shape => {
  if (x === null) return null;
  const a = normAxis(axis, x.length);
  return a === undefined ? null : x.map((d, i): Dim => (i < a ? d : 1));
};

/** Outputs: [output, mean, inv_std_var, input_skip_bias_sum] as many as the node has. */
const skipNorm: InferFn = (c) => {
  const x = c.shape(0);
  const stat = statShape(x, -1);
  const kinds: OutputInfo[] = [out(c.elem(0), x), out('f32', stat), out('f32', stat), out(c.elem(0), x)];
  return c.node.outputs.map((_, i) => kinds[i] ?? null);
};

const simplified: InferFn = (c) => {
  const x = c.shape(0);
  const outs: OutputInfo[] = [out(c.elem(0), x)];
  if (c.node.outputs.length > 1) outs.push(out('f32', statShape(x, intAttr(c, 'axis', -1))));
  return outs;
};

const embed: InferFn = (c: RuleContext) => {
  const ids = c.shape(0);
  const w = c.shape(2);
  const dims: Shape = [ids?.[0] ?? null, ids?.[1] ?? null, w?.[1] ?? null];
  if (ids !== null && ids.length !== 2) c.error(`input_ids must be 2-D [batch, sequence], not rank ${ids.length}`);
  const elem = c.node.op === 'QEmbedLayerNormalization' ? c.elem(8) : c.elem(2);
  const kinds: OutputInfo[] = [out(elem, dims), out('i32', [ids?.[0] ?? null]), out(elem, dims)];
  return c.node.outputs.map((_, i) => kinds[i] ?? null);
};

/** Q, K, V hidden sizes: qkv_hidden_sizes, else the weights' last dim in three. */
function hiddenSizes(c: RuleContext): [Dim, Dim, Dim] {
  const sizes = intsAttr(c, 'qkv_hidden_sizes');
  if (sizes && sizes.length === 3) return [sizes[0]!, sizes[1]!, sizes[2]!];
  const w = c.shape(1)?.[1];
  const third = typeof w === 'number' && w % 3 === 0 ? w / 3 : null;
  return [third, third, third];
}

/** Attention (past at input 4, input's float type) and QAttention (past at 8, the bias's type). */
const attentionAt = (pastIndex: number, elemIndex: number): InferFn => (c) => {
  const x = c.shape(0);
  const [, hk, hv] = hiddenSizes(c);
  const n = intAttr(c, 'num_heads', 0);
  const b = x?.[0] ?? null;
  const s = x?.[1] ?? null;
  const past = c.has(pastIndex) ? c.shape(pastIndex)?.[3] ?? null : 0;
  const total = typeof past === 'number' && typeof s === 'number' ? past + s : past === 0 ? s : null;
  const head = typeof hk === 'number' && n > 0 ? hk / n : null;
  const elem = c.elem(elemIndex);
  const kinds: OutputInfo[] = [out(elem, [b, s, hv]), out(elem, [2, b, n > 0 ? n : null, total, head])];
  return c.node.outputs.map((_, i) => kinds[i] ?? null);
};

const mha: InferFn = (c) => {
  const q = c.shape(0);
  const n = intAttr(c, 'num_heads', 0);
  const heads = n > 0 ? n : null;
  const b = q?.[0] ?? null;
  const s = q?.[1] ?? null;
  const mul = (x: Dim | undefined, y: Dim | undefined): Dim => (typeof x === 'number' && typeof y === 'number' ? x * y : null);
  let vHidden: Dim = null; let kLen: Dim = null; let kHead: Dim = null; let vHead: Dim = null;
  if (!c.has(1)) { // packed QKV [B, S, N, 3, head]
    vHidden = mul(q?.[2], q?.[4]); kLen = s; kHead = vHead = q?.[4] ?? null;
  } else if (!c.has(2)) { // packed KV [B, L, N, 2, head]
    const k = c.shape(1);
    vHidden = mul(k?.[2], k?.[4]); kLen = k?.[1] ?? null; kHead = vHead = k?.[4] ?? null;
  } else {
    const k = c.shape(1); const v = c.shape(2);
    if (v?.length === 4) { vHidden = mul(v[1], v[3]); kLen = k?.[2] ?? null; kHead = k?.[3] ?? null; vHead = v[3] ?? null; }
    else {
      vHidden = v?.[2] ?? null; kLen = k?.[1] ?? null;
      const per = (d: Dim | undefined): Dim => (typeof d === 'number' && heads ? d / heads : null);
      kHead = per(k?.[2]); vHead = per(v?.[2]);
    }
  }
  const past = c.has(6) ? c.shape(6)?.[2] ?? null : 0;
  const total = past === 0 ? kLen : typeof past === 'number' && typeof kLen === 'number' ? past + kLen : null;
  const kinds: OutputInfo[] = [out(c.elem(0), [b, s, vHidden]), out(c.elem(0), [b, heads, total, kHead]), out(c.elem(0), [b, heads, total, vHead])];
  return c.node.outputs.map((_, i) => kinds[i] ?? null);
};

const gqa: InferFn = (c) => {
  const q = c.shape(0);
  const n = intAttr(c, 'num_heads', 0);
  const nkv = intAttr(c, 'kv_num_heads', 0);
  const d = q?.[2];
  const heads = c.has(1) ? n : n + 2 * nkv;
  const head = typeof d === 'number' && n > 0 && nkv > 0 && d % heads === 0 ? d / heads : null;
  const total = c.has(6) ? scalarOf(c, 6) : null;
  const buf = c.has(3) ? c.shape(3)?.[2] ?? null : 0;
  const len = total !== null && typeof buf === 'number' ? Math.max(total, buf) : null;
  const cache = out(c.elem(0), [q?.[0] ?? null, nkv > 0 ? nkv : null, len, head]);
  const kinds: OutputInfo[] = [out(c.elem(0), [q?.[0] ?? null, q?.[1] ?? null, head === null ? null : head * n]), cache, cache];
  return c.node.outputs.map((_, i) => kinds[i] ?? null);
};

const range: InferFn = (c) => [out(c.elem(0), [rangeLength(scalarOf(c, 0), scalarOf(c, 1), c.has(2) ? scalarOf(c, 2) : 1)])];

const pad: InferFn = (c) => {
  const x = c.shape(0);
  if (x === null) return [out(c.elem(0), null)];
  const pads = c.ints(1);
  if (!pads || pads.length !== 2 * x.length) return [out(c.elem(0), x.map(() => null))];
  return [out(c.elem(0), x.map((d, i) => addDims(addDims(d, pads[i]!, false), pads[i + x.length]!, false)))];
};

const rule = (op: string, infer: InferFn, domain = MS): Rule => ({ dialect: 'onnx', domain, op, since: 1, infer });

export const onnxMicrosoftTransformerRules: Rule[] = [
  rule('Gelu', (c) => [out(c.elem(0), c.shape(0))]),
  rule('QuickGelu', (c) => [out(c.elem(0), c.shape(0))]),
  rule('BiasGelu', broadcastAll),
  rule('FastGelu', broadcastAll),
  rule('BiasAdd', broadcastAll),
  rule('FusedMatMul', fusedMatMul),
  rule('FusedConv', conv),
  rule('FusedGemm', gemm),
  rule('SkipLayerNormalization', skipNorm),
  rule('SkipSimplifiedLayerNormalization', skipNorm),
  rule('SimplifiedLayerNormalization', simplified, ''),
  rule('EmbedLayerNormalization', embed),
  rule('QEmbedLayerNormalization', embed),
  rule('GroupNorm', (c) => [out(c.elem(0), c.shape(0))]),
  rule('SkipGroupNorm', (c) => c.node.outputs.map(() => out(c.elem(0), c.shape(0)))),
  rule('Attention', attentionAt(4, 0)),
  rule('QAttention', attentionAt(8, 2)),
  rule('MultiHeadAttention', mha),
  rule('GroupQueryAttention', gqa),
  rule('RotaryEmbedding', (c) => [out(c.elem(0), c.shape(0))]),
  rule('Range', range),
  rule('Trilu', sameAsInput),
  rule('Pad', pad),
  rule('GatherND', gatherNd),
];
