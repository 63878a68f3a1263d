import type { Dim, Shape } from '../../../graph/shape.js';
import { mergeDim } from '../../dim.js';
import { out, type InferFn, type Rule } from '../../rule.js';

/**
 * ONNX FlexAttention-1 (domain ai.onnx.preview): Q [B, q_heads, L, E], K [B, kv_heads, S, E],
 * V [B, kv_heads, S, Ev] → Y [B, q_heads, L, Ev] of Q's type (score_mod / prob_mod keep the
 * [B, q_heads, L, S] shape of what they modify).
 */
const flexAttention: InferFn = (c) => {
  const at = (s: Shape, i: number): Dim => s?.[i] ?? null;
  const q = c.shape(0);
  const k = c.shape(1);
  const v = c.shape(2);
  for (const [s, name] of [[q, 'Q'], [k, 'K'], [v, 'V']] as const) {
    if (s && s.length !== 4) c.error(`${name} must be rank 4 (batch, heads, sequence, head size), got rank ${s.length}`);
  }
  const batch = mergeDim(mergeDim(at(q, 0), at(k, 0)) ?? at(q, 0), at(v, 0)) ?? at(q, 0);
  return [out(c.elem(0), [batch, at(q, 1), at(q, 2), at(v, 3)])];
};

export const onnxFlexAttentionRules: Rule[] = [
  { dialect: 'onnx', domain: 'ai.onnx.preview', op: 'FlexAttention', since: 1, infer: flexAttention },
];
