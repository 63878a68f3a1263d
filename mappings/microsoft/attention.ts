import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { irBuilder, type IrBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { ATTEND_IR_OPS, attend, isWanted, maskFormOf, present, shapeOf, splitHeads, staticDim } from './attention-core.js';

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

/** Where Attention and QAttention keep their optional inputs. */
interface Layout { mask: number; past: number; attentionBias: number | null; pastSequenceLength: number | null; weights: number }

/** What follows the projection, shared by Attention and QAttention; `project` gives QKV [B, S, hq + hk + hv]. */
function mergedAttention(c: ConvertContext, elem: ElementTypeName, at: Layout, project: (b: IrBuilder) => Value | null): void {
  if (c.rank(0) !== 3) { c.error(`${c.node.op} takes a 3-D input [batch, sequence, input_hidden] (rank ${c.rank(0) ?? 'unknown'})`); return; }
  const n = c.attr.int('num_heads');
  if (n === undefined || n <= 0n) { c.unsupportedAttr('num_heads', String(n ?? 'absent'), 'a positive head count is required'); return; }
  if (c.attr.int('do_rotary', 0n) !== 0n) { c.unsupportedAttr('do_rotary', '1', `rotary embedding inside ${c.node.op} is not converted`); return; }
  if (c.attr.int('past_present_share_buffer', 0n) !== 0n) { c.unsupportedAttr('past_present_share_buffer', '1', 'a shared past / present buffer is not converted'); return; }
  if (at.pastSequenceLength !== null && present(c, at.pastSequenceLength)) { c.error(`past_sequence_length (input ${at.pastSequenceLength}) is read only with past_present_share_buffer, which is not converted`); return; }
  const rotaryDim = c.attr.int('rotary_embedding_dim');
  if (rotaryDim !== undefined && rotaryDim !== 0n) { c.unsupportedAttr('rotary_embedding_dim', String(rotaryDim), 'rotary embedding inside Attention is not converted'); return; }

  // hidden sizes of Q, K, V
  const sizes = c.attr.ints('qkv_hidden_sizes');
  let hq: number; let hk: number; let hv: number;
  if (sizes && sizes.length) {
    if (sizes.length !== 3 || sizes[0] !== sizes[1]) { c.unsupportedAttr('qkv_hidden_sizes', `[${sizes.join(',')}]`, 'three sizes, Q\'s equal to K\'s'); return; }
    [hq, hk, hv] = sizes.map(Number) as [number, number, number];
  } else {
    const total = staticDim(shapeOf(c, at.weights), 1);
    if (total === null || total % 3 !== 0) { c.error(`${c.node.op} without qkv_hidden_sizes needs the weights' last dim known and a multiple of 3 (got ${total ?? 'unknown'})`); return; }
    hq = hk = hv = total / 3;
  }
  if (hq % Number(n) !== 0 || hv % Number(n) !== 0) { c.error(`hidden sizes ${hq} / ${hv} are not multiples of num_heads ${n}`); return; }
  const headQ = hq / Number(n);
  const hasPast = present(c, at.past);
  if (hasPast && hk !== hv) { c.error('with past, the K and V hidden sizes must be equal (onnxruntime\'s rule)'); return; }
  if (isWanted(c, 1) && hk !== hv) { c.error('present stacks K and V: their hidden sizes must be equal'); return; }

  const maskForm = maskFormOf(c, at.mask, 'mask_index', true);
  if (maskForm === undefined) return;

  const b = irBuilder(c);
  const qkv = project(b);
  if (!qkv) return;
  const q = splitHeads(b, b.slice(qkv, 0n, BigInt(hq), 2n), n);
  let k = splitHeads(b, b.slice(qkv, BigInt(hq), BigInt(hq + hk), 2n), n);
  let v = splitHeads(b, b.slice(qkv, BigInt(hq + hk), BigInt(hq + hk + hv), 2n), n);
  if (hasPast) {
    const past = c.input(at.past)!;
    k = b.concat([b.squeeze(b.slice(past, 0n, 1n, 0n), [0n]), k], 2);
    v = b.concat([b.squeeze(b.slice(past, 1n, 2n, 0n), [0n]), v], 2);
  }
  if (c.node.outputs.length > 1) {
    if (isWanted(c, 1)) c.output(1, b.concat([b.unsqueeze(k, [0n]), b.unsqueeze(v, [0n])], 0));
    else c.unused(1);
  }
  c.output(0, attend(c, b, elem, {
    q, k, v,
    scale: c.attr.float('scale') ?? 1 / Math.sqrt(headQ),
    mask: maskForm === null ? null : { input: at.mask, form: maskForm },
    bias: at.attentionBias !== null && present(c, at.attentionBias) ? at.attentionBias : null,
    unidirectional: c.attr.int('unidirectional', 0n) !== 0n,
    pastLen: hasPast ? b.dim(c.input(at.past)!, 3n) : null,
  }));
}

function attentionToIr(c: ConvertContext): void {
  const elem = c.elem(0);
  if (elem === null || !['f32', 'f16', 'bf16'].includes(elem)) { c.error(`Attention takes float, float16 or bfloat16 input (got ${elem ?? 'unknown'})`); return; }
  mergedAttention(c, elem, { mask: 3, past: 4, attentionBias: 5, pastSequenceLength: 6, weights: 1 }, (b) => {
    const qkv = b.matmul(c.input(0)!, c.input(1)!);
    return present(c, 2) ? b.add(qkv, c.input(2)!) : qkv;
  });
}

/**
 * QAttention(input, weight, bias, input_scale, weight_scale, mask_index?, input_zero_point?,
 * weight_zero_point?, past?): Attention whose merged projection is onnxruntime's quantized GEMM
 * (contrib_ops/cpu/quantization/attention_quant.cc): an exact int32 product of (input − input_zp)
 * and (weight − weight_zp), then f(acc) · (input_scale · weight_scale) + bias — weight_scale and
 * weight_zero_point a scalar or per column [3 · hidden]; the rest is Attention's.
 */
function qAttentionToIr(c: ConvertContext): void {
  const elem = c.elem(2);
  if (elem !== 'f32' && elem !== 'f16') { c.error(`QAttention takes a float or float16 bias and scales (got ${elem ?? 'unknown'})`); return; }
  for (const [i, what] of [[0, 'input'], [1, 'weight']] as const) {
    const e = c.elem(i);
    if (e !== 'u8' && e !== 'i8') { c.error(`${what} (input ${i}) is ${e ?? 'of unknown type'}: QAttention takes uint8 or int8`); return; }
  }
  for (const [i, what] of [[3, 'input_scale'], [6, 'input_zero_point']] as const) {
    const r = present(c, i) ? c.rank(i) : 0;
    const s = shapeOf(c, i);
    if (r === null || r > 1 || (r === 1 && s?.[0] !== 1)) { c.error(`${what} (input ${i}) must be a scalar or of one element (per tensor)`); return; }
  }
  for (const i of [4, 7]) {
    const r = present(c, i) ? c.rank(i) : 0;
    if (r === null || r > 1) { c.error(`input ${i} must be a scalar or 1-D per column of the weight, ${r === null ? 'of unknown rank' : `not of rank ${r}`}`); return; }
  }
  mergedAttention(c, elem, { mask: 5, past: 8, attentionBias: null, pastSequenceLength: null, weights: 1 }, (b) => {
    const shifted = (x: number, zp: number): Value => {
      const xi = b.convert(c.input(x)!, 'i32');
      return present(c, zp) ? b.sub(xi, b.convert(c.input(zp)!, 'i32')) : xi;
    };
    const acc = b.matmul(shifted(0, 6), shifted(1, 7));
    const scale = b.mul(c.input(3)!, c.input(4)!);
    return b.add(b.mul(b.convert(acc, elem), scale), c.input(2)!);
  });
}

export const MS_ATTENTION: readonly OpMapping[] = [
  {
    onnx: { op: 'Attention', domain: MS, since: 1 },
    ir: null,
    decomposes: [...ATTEND_IR_OPS, 'Slice', 'Squeeze'],
    handles: { onnx: ['num_heads', 'qkv_hidden_sizes', 'unidirectional', 'mask_filter_value', 'scale', 'do_rotary', 'rotary_embedding_dim', 'past_present_share_buffer'] },
    note: 'IR: the merged QKV projection split into heads, scale · QKᵀ + additive masks (raw, [B], [2B]) + attention_bias, future keys the lowest value when unidirectional, Softmax · V; present when read',
    toIr: attentionToIr,
  },
  {
    onnx: { op: 'QAttention', domain: MS, since: 1 },
    ir: null,
    decomposes: [...ATTEND_IR_OPS, 'Slice', 'Squeeze', 'Convert', 'Subtract'],
    handles: { onnx: ['num_heads', 'unidirectional', 'mask_filter_value', 'scale', 'do_rotary', 'past_present_share_buffer'] },
    note: 'IR: Attention whose projection is the exact int32 product of (input − zp)(weight − zp), · input_scale · weight_scale (+ bias) in float',
    toIr: qAttentionToIr,
  },
];
