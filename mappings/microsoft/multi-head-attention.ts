import type { Value } from '../../src/graph/value.js';
import { irBuilder, type IrBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { ATTEND_IR_OPS, attend, isWanted, maskFormOf, present, shapeOf, splitHeads, staticDim } from './attention-core.js';

/**
 * com.microsoft MultiHeadAttention (the attention onnxruntime's transformers optimizer fuses for
 * CLIP, ViT, T5, Whisper, Stable Diffusion: the projections stay outside), in IR ops, as
 * onnxruntime's CPU kernel computes it (docs/ContribOperators.md):
 *   query [B, S, D] with key / value [B, L, D_k] / [B, L, D_v] (split in num_heads), or key /
 *   value already [B, N, L, head] (cross attention), or key packed with value [B, L, N, 2, head]
 *   (value absent), or query packed with both [B, S, N, 3, head] (key and value absent)
 *   bias [D + D_k + D_v] added to Q, K, V before the split (3-D forms only)
 *   past_key / past_value [B, N, P, head] ++ K / V along the sequence = present_key / present_value
 *   then attention-core.ts: scale (default 1/√head) · QKᵀ + key_padding_mask (raw [B, T] /
 *   [B, S, T], or key lengths [B]) + attention_bias; unidirectional; Softmax · V → [B, S, N · head_v]
 * Refused, naming the node: past_sequence_length / cache_indirection (a shared buffer), bias with
 * 4-D or packed key / value, past with 4-D or packed key / value, the qk output.
 */
const MS = 'com.microsoft';

/** [B, L, N, parts, head] → `parts` values [B, N, L, head]. */
function unpack(b: IrBuilder, x: Value, parts: number): Value[] {
  return b.split(x, 3n, parts).map((p) => b.transpose(b.squeeze(p, [3n]), [0n, 2n, 1n, 3n]));
}

function mhaToIr(c: ConvertContext): void {
  const elem = c.elem(0);
  if (elem === null || !['f32', 'f16', 'bf16'].includes(elem)) { c.error(`MultiHeadAttention takes float, float16 or bfloat16 query (got ${elem ?? 'unknown'})`); return; }
  const n = c.attr.int('num_heads');
  if (n === undefined || n <= 0n) { c.unsupportedAttr('num_heads', String(n ?? 'absent'), 'a positive head count is required'); return; }
  if (present(c, 8) || present(c, 9)) { c.error('past_sequence_length / cache_indirection (a shared past / present buffer, beam search) are not converted'); return; }
  if (c.node.outputs.length > 3 && isWanted(c, 3)) { c.error('output 3 (qk) is read: it is not converted'); return; }
  const hasKey = present(c, 1);
  const hasValue = present(c, 2);
  if (!hasKey && hasValue) { c.error('value without key: no form of onnxruntime\'s takes it'); return; }
  const form = !hasKey ? 'packedQKV' : !hasValue ? 'packedKV' : c.rank(1) === 4 && c.rank(2) === 4 ? 'bnsh' : 'separate';
  if (form === 'separate' && (c.rank(0) !== 3 || c.rank(1) !== 3 || c.rank(2) !== 3)) {
    c.error(`query, key and value must be 3-D, or key and value 4-D [B, N, L, head] (ranks ${c.rank(0) ?? '?'}, ${c.rank(1) ?? '?'}, ${c.rank(2) ?? '?'})`);
    return;
  }
  const hasBias = present(c, 3);
  if (hasBias && form !== 'separate') { c.error(`bias with ${form === 'bnsh' ? '4-D' : 'packed'} key / value is not converted`); return; }
  const hasPast = present(c, 6) || present(c, 7);
  if (hasPast && !(present(c, 6) && present(c, 7))) { c.error('past_key and past_value must be given together'); return; }
  if (hasPast && form !== 'separate') { c.error(`past_key / past_value with ${form === 'bnsh' ? '4-D' : 'packed'} key / value are not converted`); return; }
  const maskForm = maskFormOf(c, 4, 'key_padding_mask', false);
  if (maskForm === undefined) return;

  const b = irBuilder(c);
  let q: Value; let k: Value; let v: Value;
  let headSize: number | null;
  if (form === 'packedQKV') {
    [q, k, v] = unpack(b, c.input(0)!, 3) as [Value, Value, Value];
    headSize = staticDim(shapeOf(c, 0), 4);
  } else {
    let qIn = c.input(0)!;
    let kIn = c.input(1)!;
    let vIn = hasValue ? c.input(2)! : null;
    const dq = staticDim(shapeOf(c, 0), 2);
    if (hasBias) {
      const dk = staticDim(shapeOf(c, 1), 2);
      const dv = staticDim(shapeOf(c, 2), 2);
      if (dq === null || dk === null || dv === null) { c.error('bias is split by the hidden sizes of query, key and value: they must be known'); return; }
      const bias = c.input(3)!;
      qIn = b.add(qIn, b.slice(bias, 0n, BigInt(dq), 0n));
      kIn = b.add(kIn, b.slice(bias, BigInt(dq), BigInt(dq + dk), 0n));
      vIn = b.add(vIn!, b.slice(bias, BigInt(dq + dk), BigInt(dq + dk + dv), 0n));
    }
    q = splitHeads(b, qIn, n);
    headSize = dq === null ? null : dq / Number(n);
    if (form === 'packedKV') [k, v] = unpack(b, kIn, 2) as [Value, Value];
    else if (form === 'bnsh') { k = kIn; v = vIn!; }
    else { k = splitHeads(b, kIn, n); v = splitHeads(b, vIn!, n); }
  }
  if (hasPast) {
    k = b.concat([c.input(6)!, k], 2);
    v = b.concat([c.input(7)!, v], 2);
  }
  for (const [i, x] of [[1, k], [2, v]] as const) {
    if (c.node.outputs.length <= i) continue;
    if (isWanted(c, i)) c.output(i, x); else c.unused(i);
  }
  let scale = c.attr.float('scale');
  if (scale === undefined || scale === 0) {
    if (headSize === null) { c.error('the default scale 1/√head_size needs the head size known (set scale, or give query a known hidden size)'); return; }
    scale = 1 / Math.sqrt(headSize);
  }
  c.output(0, attend(c, b, elem, {
    q, k, v, scale,
    mask: maskForm === null ? null : { input: 4, form: maskForm },
    bias: present(c, 5) ? 5 : null,
    unidirectional: c.attr.int('unidirectional', 0n) !== 0n,
    pastLen: hasPast ? b.dim(c.input(6)!, 2n) : null,
  }));
}

export const MS_MULTI_HEAD_ATTENTION: readonly OpMapping[] = [
  {
    onnx: { op: 'MultiHeadAttention', domain: MS, since: 1 },
    ir: null,
    decomposes: [...ATTEND_IR_OPS, 'Slice', 'Split', 'Squeeze'],
    handles: { onnx: ['num_heads', 'mask_filter_value', 'scale', 'unidirectional'] },
    note: 'IR: Q, K, V (separate, 4-D, packed KV or QKV) in heads, + bias, past ++ K / V, then Attention\'s scores, masks and Softmax · V',
    toIr: mhaToIr,
  },
];
