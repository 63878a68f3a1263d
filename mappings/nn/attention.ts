import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Shape } from '../../src/graph/shape.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { irBuilder, type IrBuilder } from './ir-build.js';

/**
 * ONNX Attention-23/24/25 has no OpenVINO op of its semantics (ScaledDotProductAttention-13 has
 * no softcap, no fully-masked-row guard, no qk_matmul_output, no GQA head repetition): IR writes
 * the operator's definition (onnx's reference and function body) as its ops:
 *
 *   3-D Q/K/V  → Reshape [B, S, heads, -1] → Transpose [B, heads, S, head_size]
 *   past_key / past_value → Concat along the sequence axis = present_key / present_value
 *   Q·√scale, K·√scale (scale default 1/√head_size) → MatMul(Q, Kᵀ)
 *   GQA: each K/V head repeated q_num_heads / kv_num_heads times ([h0, h0, h1, h1, …])
 *   softcap > 0 → softcap · tanh(QKᵀ / softcap)
 *   bias = attn_mask (bool: Select(mask, 0, -inf); last dim padded to the total length with
 *          False / -inf) + causal (key j allowed iff j ≤ i + offset; offset = past length, or
 *          nonpad_kv_seqlen − q length per batch, or 0) + window (25: offset + i − left ≤ j ≤
 *          offset + i + right) + padding (24: j < nonpad_kv_seqlen)
 *   Softmax(QKᵀ + bias) in softmax_precision; rows whose bias is all -inf are zero (not NaN)
 *   Y = P·V (3-D: back to [B, S, heads · v_head_size]); qk_matmul_output by its mode.
 */

const SOFTMAX_PRECISION: Record<string, ElementTypeName> = { 1: 'f32', 10: 'f16', 11: 'f64', 16: 'bf16' };

const isWanted = (c: ConvertContext, i: number): boolean => {
  const o = c.node.outputs[i];
  return !!o && (o.uses.length > 0 || o.graph.outputs.includes(o));
};
const present = (c: ConvertContext, i: number): boolean => c.numInputs > i && c.input(i) !== null;
const shapeOf = (c: ConvertContext, i: number): Shape | null => {
  const t = c.type(i);
  return t && t.kind === 'tensor' ? t.shape : null;
};
const staticDim = (s: Shape | null, i: number): number | null => {
  const d = s?.[i];
  return typeof d === 'number' ? d : null;
};

/** [B, S, heads·size] → [B, heads, S, size]. */
const splitHeads = (b: IrBuilder, x: Value, heads: bigint): Value => b.transpose(b.reshape(x, [0n, 0n, heads, -1n]), [0n, 2n, 1n, 3n]);

/** Repeats each head of a [B, kv_heads, S, D] value `rep` times in place: [h0, h0, h1, h1, …]. */
function repeatHeads(c: ConvertContext, b: IrBuilder, x: Value, rep: Value): Value {
  const x5 = b.unsqueeze(x, [2n]);
  const target = b.concat([i64Const(c, [1n, 1n]), rep, i64Const(c, [1n, 1n])], 0);
  const wide = c.emit('Broadcast', [x5, target], { mode: 'bidirectional' }, 1, 'opset3')[0]!;
  const s = b.shapeOf(wide);
  return b.reshape(wide, b.concat([b.slice(s, 0n, 1n, 0n), i64Const(c, [-1n]), b.slice(s, 3n, 5n, 0n)], 0));
}

function attentionToIr(c: ConvertContext): void {
  const rank = c.rank(0);
  const elem = c.elem(0);
  if (rank === null || elem === null) { c.error('Attention needs the rank and element type of Q to be known'); return; }
  if (rank !== 3 && rank !== 4) { c.error(`Attention takes 3-D or 4-D Q, K and V; Q has rank ${rank}`); return; }
  if (c.rank(1) !== rank || c.rank(2) !== rank) { c.error(`Attention needs Q, K and V of the same known rank (Q: ${rank}, K: ${c.rank(1) ?? '?'}, V: ${c.rank(2) ?? '?'})`); return; }
  const qHeadsAttr = c.attr.int('q_num_heads');
  const kvHeadsAttr = c.attr.int('kv_num_heads');
  if (rank === 3 && (qHeadsAttr === undefined || kvHeadsAttr === undefined || qHeadsAttr <= 0n || kvHeadsAttr <= 0n)) {
    c.unsupportedAttr(qHeadsAttr === undefined || qHeadsAttr <= 0n ? 'q_num_heads' : 'kv_num_heads', 'absent', '3-D Q, K and V need q_num_heads and kv_num_heads');
    return;
  }
  if (present(c, 4) !== present(c, 5)) { c.error('past_key and past_value must be given together'); return; }
  const hasPast = present(c, 4);
  const hasNonpad = c.entry.onnx.since >= 24 && present(c, 6);
  if (hasPast && hasNonpad) { c.error('nonpad_kv_seqlen cannot be combined with past_key / past_value'); return; }
  const mode = c.attr.int('qk_matmul_output_mode', 0n);
  if (mode < 0n || mode > 3n) { c.unsupportedAttr('qk_matmul_output_mode', String(mode), 'modes 0 (QKᵀ), 1 (after softcap), 2 (after bias), 3 (after softmax)'); return; }
  const precisionCode = c.attr.int('softmax_precision');
  const precision = precisionCode === undefined ? elem : SOFTMAX_PRECISION[String(precisionCode)];
  if (precision === undefined) { c.unsupportedAttr('softmax_precision', String(precisionCode), 'FLOAT (1), FLOAT16 (10), DOUBLE (11) or BFLOAT16 (16)'); return; }
  const windows = c.entry.onnx.since >= 25;
  const left = windows ? c.attr.int('left_window_size', -1n) : -1n;
  const right = windows ? c.attr.int('right_window_size', -1n) : -1n;
  if (left < -1n) { c.unsupportedAttr('left_window_size', String(left), '-1 (unbounded) or a nonnegative bound'); return; }
  if (right < -1n) { c.unsupportedAttr('right_window_size', String(right), '-1 (unbounded) or a nonnegative bound'); return; }
  const maskRank = present(c, 3) ? c.rank(3) : null;
  if (present(c, 3) && (maskRank === null || maskRank < 1)) { c.error('attn_mask needs a known rank of 1 or more (its last dim is padded to the total sequence length)'); return; }
  const maskElem = present(c, 3) ? c.elem(3) : null;
  if (present(c, 3) && maskElem !== 'boolean' && maskElem !== elem) { c.error(`attn_mask of ${maskElem ?? 'unknown'} type: a boolean mask or a float mask of Q's type (${elem}) converts`); return; }

  const b = irBuilder(c);
  const qShape = shapeOf(c, 0);
  const kShape = shapeOf(c, 1);

  // Q, K, V as [B, heads, S, head_size]; K and V grown by the cache.
  let q = c.input(0)!;
  let k = c.input(1)!;
  let v = c.input(2)!;
  if (rank === 3) {
    q = splitHeads(b, q, qHeadsAttr!);
    k = splitHeads(b, k, kvHeadsAttr!);
    v = splitHeads(b, v, kvHeadsAttr!);
  }
  if (hasPast) {
    k = b.concat([c.input(4)!, k], 2);
    v = b.concat([c.input(5)!, v], 2);
  }
  if (isWanted(c, 1)) c.output(1, k); else if (c.node.outputs.length > 1) c.unused(1);
  if (isWanted(c, 2)) c.output(2, v); else if (c.node.outputs.length > 2) c.unused(2);

  // √scale, in Q's element type (scale: the attribute, else 1/√head_size).
  const scaleAttr = c.attr.float('scale');
  const headSize = rank === 4 ? staticDim(qShape, 3) : (staticDim(qShape, 2) !== null ? staticDim(qShape, 2)! / Number(qHeadsAttr) : null);
  let sqrtScale: Value;
  if (scaleAttr !== undefined) sqrtScale = b.scalar(elem, Math.sqrt(scaleAttr));
  else if (headSize !== null) sqrtScale = b.scalar(elem, Math.sqrt(1 / Math.sqrt(headSize)));
  else {
    const d = b.convert(b.dim(q, 3n), 'f32');
    const s = b.unary('Sqrt', b.div(b.scalar('f32', 1), b.unary('Sqrt', d)));
    sqrtScale = elem === 'f32' ? s : b.convert(s, elem);
  }

  // GQA: K and V heads repeated to Q's head count (skipped where both counts are known equal).
  const qHeads = rank === 3 ? Number(qHeadsAttr) : staticDim(qShape, 1);
  const kvHeads = rank === 3 ? Number(kvHeadsAttr) : staticDim(kShape, 1);
  if (qHeads === null || kvHeads === null || qHeads !== kvHeads) {
    if (qHeads !== null && kvHeads !== null && qHeads % kvHeads !== 0) {
      c.error(`q_num_heads (${qHeads}) is not a multiple of kv_num_heads (${kvHeads})`);
      return;
    }
    const rep = qHeads !== null && kvHeads !== null
      ? i64Const(c, [BigInt(qHeads / kvHeads)])
      : b.reshape(b.div(b.dim(q, 1n), b.dim(k, 1n)), [1n]);
    k = repeatHeads(c, b, k, rep);
    v = repeatHeads(c, b, v, rep);
  }

  const qk = b.matmul(b.mul(q, sqrtScale), b.mul(k, sqrtScale), true);
  const softcap = c.attr.float('softcap', 0);
  const capped = softcap > 0 ? b.mul(b.unary('Tanh', b.div(qk, b.scalar(elem, softcap))), b.scalar(elem, softcap)) : qk;

  // The additive bias, [.., L, S]: mask, causal frontier, window and padding, each 0 or -inf.
  const zero = b.scalar(elem, 0);
  const negInf = b.scalar(elem, -Infinity);
  let bias: Value | null = null;
  const addBias = (x: Value): void => { bias = bias === null ? x : b.add(bias, x); };
  const total = b.dim(k, 2n);
  if (present(c, 3)) {
    let mask = c.input(3)!;
    const maskLast = staticDim(shapeOf(c, 3), maskRank! - 1);
    const kvLen = rank === 4 ? staticDim(kShape, 2) : staticDim(kShape, 1);
    const pastLen = hasPast ? staticDim(shapeOf(c, 4), 2) : 0;
    if (maskLast === null || kvLen === null || pastLen === null || maskLast !== kvLen + pastLen) {
      // pad the last dim to the total sequence length with False / -inf
      const short = b.reshape(b.sub(total, b.dim(mask, -1n)), [1n]);
      const ends = b.concat([i64Const(c, Array.from({ length: maskRank! - 1 }, () => 0n)), short], 0);
      const fill = maskElem === 'boolean' ? b.scalar('boolean', 0) : negInf;
      mask = c.emit('Pad', [mask, i64Const(c, Array.from({ length: maskRank! }, () => 0n)), ends, fill], { pad_mode: 'constant' }, 1, 'opset12')[0]!;
    }
    addBias(maskElem === 'boolean' ? b.select(mask, zero, negInf) : mask);
  }
  const causal = c.attr.int('is_causal', 0n) !== 0n;
  const windowed = left >= 0n || right >= 0n;
  const nonpad = hasNonpad ? c.input(6)! : null;
  if (causal || windowed) {
    const qLen = b.dim(q, 2n);
    const rows = b.unsqueeze(b.range(qLen), [1n]); // [L, 1]
    const cols = b.unsqueeze(b.range(total), [0n]); // [1, S]
    // absolute query positions: i + offset, [L, 1] or per batch [B, L, 1]
    const pos = hasPast ? b.add(rows, b.dim(c.input(4)!, 2n))
      : nonpad ? b.add(rows, b.reshape(b.sub(nonpad, qLen), [-1n, 1n, 1n]))
        : rows;
    const asBias = (allowed: Value): Value => {
      const x = b.select(allowed, zero, negInf);
      return nonpad ? b.unsqueeze(x, [1n]) : x; // per batch: [B, 1, L, S]
    };
    if (causal) addBias(asBias(b.compare('LessEqual', cols, pos)));
    if (windowed) {
      const diff = b.sub(pos, cols);
      let allowed: Value | null = null;
      if (left >= 0n) allowed = b.compare('LessEqual', diff, i64Const(c, [left]));
      if (right >= 0n) {
        const r = b.compare('GreaterEqual', diff, i64Const(c, [-right]));
        allowed = allowed ? b.and(allowed, r) : r;
      }
      addBias(asBias(allowed!));
    }
  }
  if (nonpad) {
    const valid = b.compare('Less', b.unsqueeze(b.range(total), [0n]), b.reshape(nonpad, [-1n, 1n])); // [B, S]
    addBias(b.unsqueeze(b.select(valid, zero, negInf), [1n, 2n]));
  }
  const biased = bias === null ? capped : b.add(capped, bias);

  let probs = b.softmax(precision === elem ? biased : b.convert(biased, precision));
  if (bias !== null) {
    // a row with no attendable key is zero, not NaN: decided on the bias, as onnx does
    // (OpenVINO's CPU ReduceMax of an all -inf f32 row gives the lowest finite value, not -inf;
    // its ReduceLogicalAnd has no u8 kernel: every element of the row equal to -inf, reduced as i32)
    const masked = b.convert(b.reduceMinLast(b.convert(b.compare('Equal', bias, negInf), 'i32')), 'boolean');
    probs = b.select(masked, b.scalar(precision, 0), probs);
  }
  if (precision !== elem) probs = b.convert(probs, elem);

  let y = b.matmul(probs, v);
  if (rank === 3) y = b.reshape(b.transpose(y, [0n, 2n, 1n, 3n]), [0n, 0n, -1n]);
  c.output(0, y);
  if (isWanted(c, 3)) c.output(3, [qk, capped, biased, probs][Number(mode)]!);
  else if (c.node.outputs.length > 3) c.unused(3);
}

const entry = (since: number, until: number | undefined, extra: readonly string[]): OpMapping => ({
  onnx: { op: 'Attention', since, ...(until !== undefined ? { until } : {}) },
  ir: null,
  decomposes: ['Reshape', 'Transpose', 'Concat', 'Broadcast', 'Multiply', 'MatMul', 'Divide', 'Tanh', 'Select', 'Pad',
    'ShapeOf', 'Gather', 'Range', 'Unsqueeze', 'Subtract', 'Add', 'LessEqual', 'GreaterEqual', 'Less', 'LogicalAnd',
    'Convert', 'Softmax', 'ReduceMin', 'Equal', 'Sqrt'],
  handles: { onnx: ['is_causal', 'kv_num_heads', 'q_num_heads', 'qk_matmul_output_mode', 'scale', 'softcap', 'softmax_precision', ...extra] },
  note: 'IR: the operator definition as MatMul / Softmax / Select ops (GQA, softcap, masks, cache, fully-masked rows zero)',
  toIr: attentionToIr,
});

export const ATTENTION: readonly OpMapping[] = [
  entry(23, 23, []),
  entry(24, 24, []),
  entry(25, undefined, ['left_window_size', 'right_window_size']),
];
