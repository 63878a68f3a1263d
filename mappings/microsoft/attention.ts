import type { Shape } from '../../src/graph/shape.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import { irBuilder, type IrBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * com.microsoft Attention (BERT / GPT-2 self-attention as onnxruntime's transformers optimizer
 * fuses it: the Q, K, V projections merged in one weight), in IR ops, as onnxruntime's CPU kernel
 * computes it (docs/ContribOperators.md, contrib_ops/cpu/bert/attention*):
 *   QKV = input · weights (+ bias), split on the last axis into hidden_q, hidden_k, hidden_v
 *     (qkv_hidden_sizes, else three equal parts), each [B, S, num_heads, head] → [B, num_heads, S, head]
 *   past [2, B, N, P, head]: K = past[0] ++ K, V = past[1] ++ V along the sequence (total T = P + S);
 *     present = [K, V] stacked [2, B, N, T, head]
 *   scores = scale · Q·Kᵀ (scale default 1/√head_q) + mask + attention_bias
 *   mask, additive, mask_filter_value (default -10000) where masked, 0 elsewhere, summed over:
 *     mask_index [B, T] or [B, S, T] raw (0 masked); [B]: keys from mask_index[b] on masked
 *     (right padding); [2B]: keys from end[b] on and before start[b] masked (left padding);
 *   + attention_bias; unidirectional: the score of key j for query i where j > P + i is the
 *     type's lowest value, replacing the sum (as onnxruntime writes it into its mask)
 *   output = Softmax(scores)·V as [B, S, N · head_v]
 * Refused, naming the node: do_rotary, past_present_share_buffer / past_sequence_length,
 * mask_index of 4 dims or [3B + 2] (not onnxruntime's CPU forms), a non-int32 mask_index.
 */
const MS = 'com.microsoft';

/** The lowest finite value of each float type onnxruntime's Attention takes. */
const LOWEST: Record<string, number> = { f32: -3.4028234663852886e38, f16: -65504, bf16: -3.3895313892515355e38 };

const isWanted = (c: ConvertContext, i: number): boolean => {
  const o = c.node.outputs[i];
  return !!o && (o.uses.length > 0 || o.graph.outputs.includes(o));
};
const present = (c: ConvertContext, i: number): boolean => c.numInputs > i && c.input(i) !== null;
const shapeOf = (c: ConvertContext, i: number): Shape => {
  const t = c.type(i);
  return t && t.kind === 'tensor' ? t.shape : null;
};
const staticDim = (s: Shape, i: number): number | null => {
  const d = s?.[i < 0 ? s.length + i : i];
  return typeof d === 'number' ? d : null;
};

/** [B, S, N·h] → [B, N, S, h]. */
const heads = (b: IrBuilder, x: Value, n: bigint): Value => b.transpose(b.reshape(x, [0n, 0n, n, -1n]), [0n, 2n, 1n, 3n]);

function attentionToIr(c: ConvertContext): void {
  const elem = c.elem(0);
  if (elem === null || !['f32', 'f16', 'bf16'].includes(elem)) { c.error(`Attention takes float, float16 or bfloat16 input (got ${elem ?? 'unknown'})`); return; }
  if (c.rank(0) !== 3) { c.error(`Attention takes a 3-D input [batch, sequence, input_hidden] (rank ${c.rank(0) ?? 'unknown'})`); return; }
  const n = c.attr.int('num_heads');
  if (n === undefined || n <= 0n) { c.unsupportedAttr('num_heads', String(n ?? 'absent'), 'a positive head count is required'); return; }
  if (c.attr.int('do_rotary', 0n) !== 0n) { c.unsupportedAttr('do_rotary', '1', 'rotary embedding inside Attention is not converted'); return; }
  if (c.attr.int('past_present_share_buffer', 0n) !== 0n) { c.unsupportedAttr('past_present_share_buffer', '1', 'a shared past / present buffer is not converted'); return; }
  if (present(c, 6)) { c.error('past_sequence_length (input 6) is read only with past_present_share_buffer, which is not converted'); return; }
  const rotaryDim = c.attr.int('rotary_embedding_dim');
  if (rotaryDim !== undefined && rotaryDim !== 0n) { c.unsupportedAttr('rotary_embedding_dim', String(rotaryDim), 'rotary embedding inside Attention is not converted'); return; }

  // hidden sizes of Q, K, V
  const sizes = c.attr.ints('qkv_hidden_sizes');
  let hq: number; let hk: number; let hv: number;
  if (sizes && sizes.length) {
    if (sizes.length !== 3 || sizes[0] !== sizes[1]) { c.unsupportedAttr('qkv_hidden_sizes', `[${sizes.join(',')}]`, 'three sizes, Q\'s equal to K\'s'); return; }
    [hq, hk, hv] = sizes.map(Number) as [number, number, number];
  } else {
    const total = staticDim(shapeOf(c, 1), 1);
    if (total === null || total % 3 !== 0) { c.error(`Attention without qkv_hidden_sizes needs the weights' last dim known and a multiple of 3 (got ${total ?? 'unknown'})`); return; }
    hq = hk = hv = total / 3;
  }
  if (hq % Number(n) !== 0 || hv % Number(n) !== 0) { c.error(`hidden sizes ${hq} / ${hv} are not multiples of num_heads ${n}`); return; }
  const headQ = hq / Number(n);
  const hasPast = present(c, 4);
  if (hasPast && hk !== hv) { c.error('with past, the K and V hidden sizes must be equal (onnxruntime\'s rule)'); return; }
  if (isWanted(c, 1) && hk !== hv) { c.error('present stacks K and V: their hidden sizes must be equal'); return; }

  // mask_index form
  let maskForm: 'raw2' | 'raw3' | 'index' | null = null;
  if (present(c, 3)) {
    if (c.elem(3) !== 'i32') { c.error(`mask_index must be int32 (got ${c.elem(3) ?? 'unknown'})`); return; }
    const r = c.rank(3);
    if (r === 2) maskForm = 'raw2';
    else if (r === 3) maskForm = 'raw3';
    else if (r === 1) {
      // [B] or [2B]: told apart at run time when the lengths are not known here (read as [rows, B])
      const len = staticDim(shapeOf(c, 3), 0);
      const batch = staticDim(shapeOf(c, 0), 0);
      if (len !== null && batch !== null && len !== batch && len !== 2 * batch) {
        c.error(`a 1-D mask_index of ${len} values for batch ${batch}: onnxruntime's CPU kernel reads [batch] or [2 · batch]`);
        return;
      }
      maskForm = 'index';
    } else { c.error(`mask_index of rank ${r ?? 'unknown'}: the converted forms are [B, T], [B, S, T], [B] and [2B]`); return; }
  }

  const b = irBuilder(c);
  let qkv = b.matmul(c.input(0)!, c.input(1)!);
  if (present(c, 2)) qkv = b.add(qkv, c.input(2)!);
  const q = heads(b, b.slice(qkv, 0n, BigInt(hq), 2n), n);
  let k = heads(b, b.slice(qkv, BigInt(hq), BigInt(hq + hk), 2n), n);
  let v = heads(b, b.slice(qkv, BigInt(hq + hk), BigInt(hq + hk + hv), 2n), n);
  if (hasPast) {
    const past = c.input(4)!;
    k = b.concat([b.squeeze(b.slice(past, 0n, 1n, 0n), [0n]), k], 2);
    v = b.concat([b.squeeze(b.slice(past, 1n, 2n, 0n), [0n]), v], 2);
  }
  if (c.node.outputs.length > 1) {
    if (isWanted(c, 1)) c.output(1, b.concat([b.unsqueeze(k, [0n]), b.unsqueeze(v, [0n])], 0));
    else c.unused(1);
  }

  const scale = c.attr.float('scale') ?? 1 / Math.sqrt(headQ);
  let scores = b.mul(b.matmul(q, k, true), b.scalar(elem, scale));

  const filter = c.attr.float('mask_filter_value', -10000);
  const zero = b.scalar(elem, 0);
  const masked = b.scalar(elem, filter);
  const total = b.dim(k, 2n);
  let mask: Value | null = null;
  const addMask = (x: Value): void => { mask = mask === null ? x : b.add(mask, x); };
  if (maskForm === 'raw2' || maskForm === 'raw3') {
    const kept = c.emit('Greater', [c.input(3)!, b.scalar('i32', 0)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
    addMask(b.unsqueeze(b.select(kept, zero, masked), maskForm === 'raw2' ? [1n, 2n] : [1n]));
  } else if (maskForm === 'index') {
    // as [rows, B] (rows 1: end positions; 2: end, then start positions): keys from end[b] on and
    // before start[b] masked; with one row the start is 0 (its row times rows - 1)
    const batch = b.reshape(b.dim(c.input(0)!, 0n), [1n]);
    const idx = b.reshape(b.convert(c.input(3)!, 'i64'), b.concat([i64Const(c, [-1n]), batch], 0));
    const rows = b.dim(idx, 0n);
    const one = i64Const(c, [1n]);
    const end = b.reshape(b.gather(idx, i64Const(c, [0n]), 0n), [-1n, 1n]);
    const start = b.mul(b.reshape(b.gather(idx, b.sub(rows, one), 0n), [-1n, 1n]), b.sub(rows, one));
    const cols = b.unsqueeze(b.range(total), [0n]); // [1, T]
    const out = c.emit('LogicalOr', [b.compare('GreaterEqual', cols, end), b.compare('Less', cols, start)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
    addMask(b.unsqueeze(b.select(out, masked, zero), [1n, 2n]));
  }
  if (mask !== null) scores = b.add(scores, mask);
  if (present(c, 5)) scores = b.add(scores, c.input(5)!);
  if (c.attr.int('unidirectional', 0n) !== 0n) {
    // a future key's score is the type's lowest value, whatever the mask says (onnxruntime
    // overwrites the mask there: a query whose past keys are all masked still sees none of them)
    const past = hasPast ? b.dim(c.input(4)!, 3n) : null;
    const rows = b.unsqueeze(b.range(b.dim(c.input(0)!, 1n)), [1n]); // [S, 1]
    const last = past ? b.add(rows, past) : rows;
    const cols = b.unsqueeze(b.range(total), [0n]);
    scores = b.select(b.compare('LessEqual', cols, last), scores, b.scalar(elem, LOWEST[elem]!));
  }

  const y = b.matmul(b.softmax(scores), v);
  c.output(0, b.reshape(b.transpose(y, [0n, 2n, 1n, 3n]), [0n, 0n, -1n]));
}

export const MS_ATTENTION: readonly OpMapping[] = [
  {
    onnx: { op: 'Attention', domain: MS, since: 1 },
    ir: null,
    decomposes: ['MatMul', 'Add', 'Slice', 'Reshape', 'Transpose', 'Concat', 'Squeeze', 'Unsqueeze', 'Multiply', 'Greater', 'Select',
      'Convert', 'ShapeOf', 'Gather', 'Range', 'GreaterEqual', 'Less', 'LessEqual', 'LogicalOr', 'Softmax'],
    handles: { onnx: ['num_heads', 'qkv_hidden_sizes', 'unidirectional', 'mask_filter_value', 'scale', 'do_rotary', 'rotary_embedding_dim', 'past_present_share_buffer'] },
    note: 'IR: the merged QKV projection split into heads, scale · QKᵀ + additive masks (raw, [B], [2B]) + attention_bias, future keys the lowest value when unidirectional, Softmax · V; present when read',
    toIr: attentionToIr,
  },
];
