import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { irBuilder } from '../nn/ir-build.js';
import { rotate } from '../nn/rotary-embedding.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { isWanted, LOWEST, present, shapeOf, staticDim } from './attention-core.js';

/**
 * com.microsoft GroupQueryAttention (the attention of onnxruntime-genai's LLM exports), in IR ops,
 * as onnxruntime's CPU kernel computes it (docs/ContribOperators.md; contrib_ops/cpu/bert/
 * group_query_attention.cc, gqa_attention_base.h, group_query_attention_helper.h):
 *   query [B, S, N·h] with key / value [B, S, N_kv·h], or query packed [B, S, (N + 2 N_kv)·h]
 *   (key and value absent); N = num_heads, N_kv = kv_num_heads, query head i reads kv head i / (N / N_kv)
 *   total_sequence_length T (one int32), seqlens_k [B] int32 (the keys of row b are seqlens_k[b] + 1)
 *   the first prompt is S == T (no past read); otherwise row b's past is seqlens_k[b] + 1 - S
 *   present_key / present_value [B, N_kv, max(T, past buffer), h]: the row's past (from past_key /
 *   past_value [B, N_kv, P, h]), its S new keys / values after it, zeros behind
 *   do_rotary: Q and K (the new ones) rotate at positions past_b + s by cos_cache / sin_cache
 *   [max positions, rotary_dim / 2] (rotary_interleaved: even / odd pairs), before the cache
 *   scores = scale (default 1/√h) · QKᵀ, softcap > 0: softcap · tanh(scores / softcap); key j is
 *   seen by query s of row b when j ≤ past_b + s, j < seqlens_k[b] + 1 and, with local_window_size
 *   w > 0, j > past_b + s − w (the query's w last keys, its own among them: onnxruntime 1.31's CPU
 *   kernel; its older ones kept w + 1); output = Softmax(scores)·V as [B, S, N·h]
 * Refused, naming the node: position_ids, attention_bias, head_sink, k_scale / v_scale (a quantized
 * cache), q_norm_weight / k_norm_weight; smooth_softmax 1, qk_output / a read output_qk, causal 0,
 * sliding_window_cache, kv_cache_bit_width, k_quant_type / v_quant_type. A past / present buffer
 * shared by I/O binding is not in the graph: the IR computes the separate buffers' present (zeros
 * behind the row's keys, where a shared buffer keeps what it held).
 */
const MS = 'com.microsoft';

/** Inputs 9 … 15 by name: none is converted. */
const REFUSED_INPUTS: readonly [number, string][] = [
  [9, 'position_ids'], [10, 'attention_bias'], [11, 'head_sink'], [12, 'k_scale'], [13, 'v_scale'], [14, 'q_norm_weight'], [15, 'k_norm_weight'],
];

/** The values of `x` clamped to [lo, hi] (i64). */
const clamp = (c: ConvertContext, x: Value, lo: Value, hi: Value): Value =>
  c.emit('Minimum', [c.emit('Maximum', [x, lo], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!, hi], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;

/** The refusals of what onnxruntime computes and the IR does not; true when the node converts. */
function accepted(c: ConvertContext): boolean {
  for (const [i, name] of REFUSED_INPUTS) if (present(c, i)) { c.error(`input ${i} (${name}) is given: it is not converted`); return false; }
  if (c.attr.int('smooth_softmax', -1n) === 1n) { c.unsupportedAttr('smooth_softmax', '1', 'the smooth softmax (an extra 1 in the denominator) is not converted'); return false; }
  if (c.attr.int('qk_output', 0n) !== 0n) { c.unsupportedAttr('qk_output', String(c.attr.int('qk_output', 0n)), 'the QKᵀ output is not converted'); return false; }
  if (c.node.outputs.length > 3 && isWanted(c, 3)) { c.error('output 3 (output_qk) is read: it is not converted'); return false; }
  const causal = c.attr.int('causal', 1n);
  if (causal !== 1n) { c.unsupportedAttr('causal', String(causal), 'only causal attention (1) is converted'); return false; }
  if (c.attr.int('sliding_window_cache', 0n) !== 0n) { c.unsupportedAttr('sliding_window_cache', String(c.attr.int('sliding_window_cache', 0n)), 'a windowed (ring) KV cache is not converted'); return false; }
  const bits = c.attr.int('kv_cache_bit_width', 0n);
  if (bits !== 0n) { c.unsupportedAttr('kv_cache_bit_width', String(bits), 'a quantized KV cache is not converted'); return false; }
  for (const q of ['k_quant_type', 'v_quant_type']) {
    const t = c.attr.string(q, 'NONE');
    if (t !== 'NONE') { c.unsupportedAttr(q, t, 'a quantized KV cache is not converted'); return false; }
  }
  const window = c.attr.int('local_window_size', -1n);
  if (window !== -1n && window < 1n) { c.unsupportedAttr('local_window_size', String(window), '-1 (no window) or a window of at least 1'); return false; }
  return true;
}

function gqaToIr(c: ConvertContext): void {
  const elem = c.elem(0);
  if (elem !== 'f32' && elem !== 'f16') { c.error(`GroupQueryAttention takes float or float16 query, as onnxruntime's CPU kernel (got ${elem ?? 'unknown'})`); return; }
  const n = c.attr.int('num_heads');
  const nkv = c.attr.int('kv_num_heads');
  if (n === undefined || n <= 0n) { c.unsupportedAttr('num_heads', String(n ?? 'absent'), 'a positive head count is required'); return; }
  if (nkv === undefined || nkv <= 0n || n % nkv !== 0n) { c.unsupportedAttr('kv_num_heads', String(nkv ?? 'absent'), `a positive divisor of num_heads (${n}) is required`); return; }
  if (!accepted(c)) return;
  const hasKey = present(c, 1);
  if (hasKey !== present(c, 2)) { c.error('key and value must be given together (both absent: query is packed QKV)'); return; }
  const hasPast = present(c, 3);
  if (hasPast !== present(c, 4)) { c.error('past_key and past_value must be given together'); return; }
  if (c.rank(0) !== 3 || (hasKey && (c.rank(1) !== 3 || c.rank(2) !== 3))) { c.error('query, key and value must be 3-D [batch, sequence, hidden]'); return; }
  if (hasKey && staticDim(shapeOf(c, 1), 1) === 0) { c.error('key of sequence length 0 (the past buffer already complete) is not converted'); return; }
  if (!present(c, 5) || !present(c, 6)) { c.error('seqlens_k and total_sequence_length are required'); return; }
  if (c.elem(5) !== 'i32' || c.elem(6) !== 'i32') { c.error('seqlens_k and total_sequence_length must be int32'); return; }
  const rotary = c.attr.int('do_rotary', 0n) !== 0n;
  if (rotary && !(present(c, 7) && present(c, 8))) { c.error('do_rotary needs cos_cache and sin_cache'); return; }
  const half = rotary ? staticDim(shapeOf(c, 7), 1) : null;
  if (rotary && half === null) { c.error('do_rotary needs cos_cache\'s dim 1 (rotary_dim / 2) known'); return; }

  const b = irBuilder(c);
  const g = n / nkv;
  const d = staticDim(shapeOf(c, 0), 2);
  const heads = hasKey ? n : n + 2n * nkv;
  const headSize = d === null ? null : d / Number(heads);
  // [B, S, heads, h]
  let q4: Value; let k4: Value; let v4: Value;
  if (hasKey) {
    q4 = b.reshape(c.input(0)!, [0n, 0n, n, -1n]);
    k4 = b.reshape(c.input(1)!, [0n, 0n, nkv, -1n]);
    v4 = b.reshape(c.input(2)!, [0n, 0n, nkv, -1n]);
  } else {
    const all = b.reshape(c.input(0)!, [0n, 0n, heads, -1n]);
    q4 = b.slice(all, 0n, n, 2n);
    k4 = b.slice(all, n, n + nkv, 2n);
    v4 = b.slice(all, n + nkv, heads, 2n);
  }
  const seq = b.dim(q4, 1n);
  const total = b.reshape(b.convert(c.input(6)!, 'i64'), []);
  const one = i64Scalar(c, 1n);
  const keys = b.add(b.convert(c.input(5)!, 'i64'), one); // [B]: the keys of each row
  // the row's past: none in the first prompt (S == T), else keys − S
  const past = b.select(b.compare('Equal', seq, total), i64Scalar(c, 0n), b.sub(keys, seq)); // [B]
  const pastCol = b.unsqueeze(past, [1n]); // [B, 1]
  if (rotary) {
    const pos = b.add(pastCol, b.unsqueeze(b.range(seq), [0n])); // [B, S]
    const at = (cache: number): Value => b.unsqueeze(b.gather(c.input(cache)!, pos, 0n), [2n]); // [B, S, 1, d/2]
    const dim = headSize !== null && 2 * half! === headSize ? 0n : BigInt(2 * half!);
    const interleaved = c.attr.int('rotary_interleaved', 0n) !== 0n;
    const cos = at(7);
    const sin = at(8);
    q4 = rotate(b, q4, cos, sin, dim, interleaved);
    k4 = rotate(b, k4, cos, sin, dim, interleaved);
  }
  // the present buffers: [B, N_kv, L, h], L = max(T, P); position j of row b is past j (j < past_b),
  // new j − past_b (j < past_b + S), else 0
  const bufLen = hasPast ? b.dim(c.input(3)!, 2n) : i64Scalar(c, 0n);
  const len = c.emit('Maximum', [total, bufLen], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const cols = b.unsqueeze(b.range(len), [0n]); // [1, L]
  const fromNew = b.add(b.sub(cols, pastCol), bufLen); // index into past ++ new
  const index = clamp(c, b.select(b.compare('Less', cols, pastCol), cols, fromNew), i64Scalar(c, 0n), b.sub(b.add(bufLen, seq), one));
  const filled = b.unsqueeze(b.compare('Less', cols, b.add(pastCol, seq)), [1n, 3n]); // [B, 1, L, 1]
  const zero = b.scalar(elem, 0);
  // past ++ new as [B · (P + S), N_kv, h], the rows of batch b from b · (P + S) on
  const span = b.add(bufLen, seq);
  const flat = b.add(index, b.mul(b.unsqueeze(b.range(b.dim(c.input(0)!, 0n)), [1n]), span)); // [B, L]
  const rowShape = b.concat([i64Const(c, [-1n, nkv]), b.reshape(b.dim(q4, 3n), [1n])], 0);
  const cache = (newer: Value, pastInput: number): Value => {
    const joined = hasPast ? b.concat([b.transpose(c.input(pastInput)!, [0n, 2n, 1n, 3n]), newer], 1) : newer; // [B, P + S, N_kv, h]
    const rows = b.reshape(joined, rowShape);
    const picked = b.transpose(b.gather(rows, flat, 0n), [0n, 2n, 1n, 3n]); // [B, N_kv, L, h]
    return b.select(filled, picked, zero);
  };
  const presentK = cache(k4, 3);
  const presentV = cache(v4, 4);
  for (const [i, x] of [[1, presentK], [2, presentV]] as const) {
    if (c.node.outputs.length <= i) continue;
    if (isWanted(c, i)) c.output(i, x); else c.unused(i);
  }

  // Q as [B, N_kv, g, S, h] against K / V [B, N_kv, 1, L, h]: query head i = kv head i / g
  const q5 = b.transpose(b.reshape(q4, [0n, 0n, nkv, g, -1n]), [0n, 2n, 3n, 1n, 4n]);
  let scale = c.attr.float('scale', 0);
  let scores = b.matmul(q5, b.unsqueeze(presentK, [2n]), true);
  if (scale === 0 && headSize === null) {
    scores = b.div(scores, b.unary('Sqrt', b.convert(b.dim(q4, 3n), elem)));
  } else {
    if (scale === 0) scale = 1 / Math.sqrt(headSize!);
    scores = b.mul(scores, b.scalar(elem, scale));
  }
  const softcap = c.attr.float('softcap', 0);
  if (softcap > 0) scores = b.mul(b.unary('Tanh', b.div(scores, b.scalar(elem, softcap))), b.scalar(elem, softcap));
  const last = b.unsqueeze(b.add(pastCol, b.unsqueeze(b.range(seq), [0n])), [2n]); // [B, S, 1]: query s's last key
  const keyCols = b.unsqueeze(b.range(len), [0n, 1n]); // [1, 1, L]
  let seen = b.and(b.compare('LessEqual', keyCols, last), b.compare('Less', keyCols, b.unsqueeze(keys, [1n, 2n])));
  const window = c.attr.int('local_window_size', -1n);
  if (window > 0n) seen = b.and(seen, b.compare('GreaterEqual', keyCols, b.sub(last, i64Scalar(c, window - 1n))));
  scores = b.select(b.unsqueeze(seen, [1n, 2n]), scores, b.scalar(elem, LOWEST[elem]!));
  const y = b.matmul(b.softmax(scores), b.unsqueeze(presentV, [2n])); // [B, N_kv, g, S, h]
  c.output(0, b.reshape(b.transpose(y, [0n, 3n, 1n, 2n, 4n]), [0n, 0n, -1n]));
}

export const MS_GROUP_QUERY_ATTENTION: readonly OpMapping[] = [
  {
    onnx: { op: 'GroupQueryAttention', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Reshape', 'Slice', 'ShapeOf', 'Gather', 'Convert', 'Add', 'Subtract', 'Equal', 'Select', 'Unsqueeze', 'Range', 'Split', 'Squeeze',
      'Multiply', 'Concat', 'Maximum', 'Minimum', 'Less', 'LessEqual', 'GreaterEqual', 'LogicalAnd', 'Transpose', 'MatMul', 'Divide', 'Sqrt', 'Tanh', 'Softmax'],
    handles: { onnx: ['num_heads', 'kv_num_heads', 'scale', 'softcap', 'local_window_size', 'do_rotary', 'rotary_interleaved', 'smooth_softmax', 'qk_output',
      'causal', 'sliding_window_cache', 'kv_cache_bit_width', 'k_quant_type', 'v_quant_type', 'qk_norm_epsilon'] },
    note: 'IR: Q, K, V (separate or packed) in heads, rotary at each row\'s positions, past ++ new per row\'s seqlens_k into present (zeros behind), '
      + 'kv heads shared by query head groups, causal / window mask, softcap, Softmax · V',
    toIr: gqaToIr,
  },
];
