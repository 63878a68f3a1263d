import type { Dim, Shape } from '../../../graph/shape.js';
import { addDims, divDims, mulDims } from '../../dim.js';
import { out, type InferFn, type Rule } from '../../rule.js';
import { intAttr } from '../common.js';

/**
 * ONNX Attention-23+ (onnx/defs/nn: Attention) and RotaryEmbedding-23.
 * 4-D: Q [B, q_heads, L, D], K [B, kv_heads, S, D], V [B, kv_heads, S, Dv];
 * 3-D: Q [B, L, q_heads·D], K [B, S, kv_heads·D], V [B, S, kv_heads·Dv].
 * Y: [B, q_heads, L, Dv] (3-D: [B, L, q_heads·Dv]); present_key / present_value:
 * [B, kv_heads, P + S, D / Dv] (P: past_key's sequence length); qk_matmul_output: [B, q_heads, L, P + S].
 */
const attention: InferFn = (c) => {
  const q = c.shape(0);
  const k = c.shape(1);
  const v = c.shape(2);
  const at = (s: Shape, i: number): Dim => s?.[i] ?? null;
  const rank = q?.length ?? k?.length ?? v?.length ?? null;
  const elem = c.elem(0);
  const n = c.node.outputs.length;
  if (rank !== 3 && rank !== 4) {
    if (rank !== null) c.error(`Q, K and V must be 3-D or 4-D (got rank ${rank})`);
    return Array.from({ length: n }, () => out(elem, null));
  }
  const past = c.has(4) ? at(c.shape(4), 2) : 0;
  const batch = at(q, 0) ?? at(k, 0) ?? at(v, 0);
  let qHeads: Dim; let kvHeads: Dim; let qLen: Dim; let kvLen: Dim; let dk: Dim; let dv: Dim;
  if (rank === 4) {
    qHeads = at(q, 1); kvHeads = at(k, 1) ?? at(v, 1); qLen = at(q, 2); kvLen = at(k, 2) ?? at(v, 2);
    dk = at(k, 3) ?? at(q, 3); dv = at(v, 3);
  } else {
    const qh = intAttr(c, 'q_num_heads', 0);
    const kvh = intAttr(c, 'kv_num_heads', 0);
    if (qh <= 0 || kvh <= 0) c.error('3-D Q, K and V need q_num_heads and kv_num_heads');
    qHeads = qh > 0 ? qh : null; kvHeads = kvh > 0 ? kvh : null; qLen = at(q, 1); kvLen = at(k, 1) ?? at(v, 1);
    dk = kvHeads === null ? null : divDims(at(k, 2), kvHeads, false);
    dv = kvHeads === null ? null : divDims(at(v, 2), kvHeads, false);
  }
  const total = addDims(past, kvLen, false);
  const y: Shape = rank === 4 ? [batch, qHeads, qLen, dv] : [batch, qLen, qHeads === null ? null : mulDims(qHeads, dv, false)];
  const shapes: Shape[] = [y, [batch, kvHeads, total, dk], [batch, kvHeads, total, dv], [batch, qHeads, qLen, total]];
  return Array.from({ length: n }, (_, i) => out(i === 1 ? c.elem(1) : i === 2 ? c.elem(2) : elem, shapes[i] ?? null));
};

export const onnxAttentionRules: Rule[] = [
  { dialect: 'onnx', op: 'Attention', since: 23, infer: attention },
  { dialect: 'onnx', op: 'RotaryEmbedding', since: 23, infer: (c) => [out(c.elem(0), c.shape(0))] },
];
