import type { Dim, Shape } from '../../../graph/shape.js';
import { divDims, mergeDim, mulDims } from '../../dim.js';
import { out, type InferFn, type Rule } from '../../rule.js';
import { intAttr, strAttr } from '../common.js';

const UPDATE_RULES = ['linear', 'gated', 'delta', 'gated_delta'];

/**
 * ONNX LinearAttention-27 (onnx/defs/nn): query [B, T, q_num_heads·d_k], key [B, T, kv_num_heads·d_k],
 * value [B, T, kv_num_heads·d_v], past_state [B, kv_num_heads, d_k, d_v].
 * output: [B, T, q_num_heads·d_v] of query's type; present_state: [B, kv_num_heads, d_k, d_v] of
 * past_state's type (query's without one).
 */
const linearAttention: InferFn = (c) => {
  const at = (s: Shape, i: number): Dim => s?.[i] ?? null;
  const q = c.shape(0);
  const k = c.shape(1);
  const v = c.shape(2);
  const past = c.has(3) ? c.shape(3) : null;
  const qHeads = intAttr(c, 'q_num_heads', 0);
  const kvHeads = intAttr(c, 'kv_num_heads', 0);
  if (qHeads <= 0 || kvHeads <= 0 || qHeads % kvHeads !== 0) c.error(`q_num_heads (${qHeads}) must be a positive multiple of kv_num_heads (${kvHeads})`);
  const rule = strAttr(c, 'update_rule', 'gated_delta');
  if (!UPDATE_RULES.includes(rule)) c.error(`update_rule '${rule}' is none of ${UPDATE_RULES.join(', ')}`);
  for (const [i, name] of [[0, 'query'], [1, 'key'], [2, 'value'], [4, 'decay'], [5, 'beta']] as const) {
    const s = c.has(i) ? c.shape(i) : null;
    if (s && s.length !== 3) c.error(`${name} must be rank 3 (B, T, H·D), got rank ${s.length}`);
  }
  if (past && past.length !== 4) c.error(`past_state must be rank 4 (B, H_kv, d_k, d_v), got rank ${past.length}`);
  const heads = qHeads > 0 && kvHeads > 0;
  const dk = mergeDim(heads ? divDims(at(q, 2), qHeads, false) : null, heads ? divDims(at(k, 2), kvHeads, false) : null) ?? null;
  const dv = heads ? divDims(at(v, 2), kvHeads, false) : null;
  const batch = at(q, 0) ?? at(k, 0) ?? at(v, 0) ?? at(past, 0);
  const state: Shape = [batch, heads ? kvHeads : at(past, 1), dk ?? at(past, 2), dv ?? at(past, 3)];
  const outs = [
    out(c.elem(0), [batch, at(q, 1) ?? at(k, 1) ?? at(v, 1), heads ? mulDims(qHeads, state[3]!, false) : null]),
    out(c.has(3) ? c.elem(3) : c.elem(0), state),
  ];
  return outs.slice(0, c.node.outputs.length);
};

export const onnxLinearAttentionRules: Rule[] = [
  { dialect: 'onnx', op: 'LinearAttention', since: 27, infer: linearAttention },
];
