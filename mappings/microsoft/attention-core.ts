import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Shape } from '../../src/graph/shape.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import type { IrBuilder } from '../nn/ir-build.js';
import type { ConvertContext } from '../spec.js';

/**
 * What com.microsoft Attention and MultiHeadAttention share once Q, K, V are [B, N, S, head]
 * (onnxruntime's CPU attention: contrib_ops/cpu/bert/attention_cpu_base.h, attention_helper.h):
 *   scores = scale · Q·Kᵀ + mask + attention_bias, the mask additive (mask_filter_value where
 *   masked): raw [B, T] / [B, S, T] (0 masked), or per batch key lengths [B] (keys from len[b] on
 *   masked) and, for Attention, start positions after them [2B] (keys before start[b] masked);
 *   unidirectional: the score of key j for query i with j > past + i is the type's lowest value,
 *   replacing the sum (onnxruntime writes it into its mask buffer)
 *   output = Softmax(scores)·V as [B, S, N · head_v]
 */
export type MaskForm = 'raw2' | 'raw3' | 'index';

/** The lowest finite value of each float type onnxruntime's attention takes. */
export const LOWEST: Record<string, number> = { f32: -3.4028234663852886e38, f16: -65504, bf16: -3.3895313892515355e38 };

export const isWanted = (c: ConvertContext, i: number): boolean => {
  const o = c.node.outputs[i];
  return !!o && (o.uses.length > 0 || o.graph.outputs.includes(o));
};
export const present = (c: ConvertContext, i: number): boolean => c.numInputs > i && c.input(i) !== null;
export const shapeOf = (c: ConvertContext, i: number): Shape => {
  const t = c.type(i);
  return t && t.kind === 'tensor' ? t.shape : null;
};
export const staticDim = (s: Shape, i: number): number | null => {
  const d = s?.[i < 0 ? s.length + i : i];
  return typeof d === 'number' ? d : null;
};
/** [B, S, N·h] → [B, N, S, h]. */
export const splitHeads = (b: IrBuilder, x: Value, n: bigint): Value => b.transpose(b.reshape(x, [0n, 0n, n, -1n]), [0n, 2n, 1n, 3n]);

/**
 * The form of the mask at input `m` (null: none), or undefined after a diagnostic. A 1-D mask is
 * [B] (key lengths) or, with `starts`, [2B]; told apart at run time when lengths are unknown here.
 */
export function maskFormOf(c: ConvertContext, m: number, name: string, starts: boolean): MaskForm | null | undefined {
  if (!present(c, m)) return null;
  if (c.elem(m) !== 'i32') { c.error(`${name} must be int32 (got ${c.elem(m) ?? 'unknown'})`); return undefined; }
  const r = c.rank(m);
  if (r === 2) return 'raw2';
  if (r === 3) return 'raw3';
  if (r === 1) {
    const len = staticDim(shapeOf(c, m), 0);
    const batch = staticDim(shapeOf(c, 0), 0);
    if (len !== null && batch !== null && len !== batch && !(starts && len === 2 * batch)) {
      c.error(`a 1-D ${name} of ${len} values for batch ${batch}: onnxruntime's CPU kernel reads [batch]${starts ? ' or [2 · batch]' : ''}`);
      return undefined;
    }
    return 'index';
  }
  c.error(`${name} of rank ${r ?? 'unknown'}: the converted forms are [B, T], [B, S, T], [B]${starts ? ' and [2B]' : ''}`);
  return undefined;
}

export interface Attend {
  readonly q: Value;
  readonly k: Value;
  readonly v: Value;
  readonly scale: number;
  /** The mask input and its form. */
  readonly mask: { readonly input: number; readonly form: MaskForm } | null;
  /** The attention_bias input, when given. */
  readonly bias: number | null;
  readonly unidirectional: boolean;
  /** The past sequence length (i64 scalar), when K and V were grown by a cache. */
  readonly pastLen: Value | null;
}

/** Softmax(scale · QKᵀ + masks)·V as [B, S, N · head_v] (see above). */
export function attend(c: ConvertContext, b: IrBuilder, elem: ElementTypeName, a: Attend): Value {
  let scores = b.mul(b.matmul(a.q, a.k, true), b.scalar(elem, a.scale));
  const filter = c.attr.float('mask_filter_value', -10000);
  const zero = b.scalar(elem, 0);
  const masked = b.scalar(elem, filter);
  const total = b.dim(a.k, 2n);
  if (a.mask?.form === 'raw2' || a.mask?.form === 'raw3') {
    const kept = c.emit('Greater', [c.input(a.mask.input)!, b.scalar('i32', 0)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
    scores = b.add(scores, b.unsqueeze(b.select(kept, zero, masked), a.mask.form === 'raw2' ? [1n, 2n] : [1n]));
  } else if (a.mask?.form === 'index') {
    // as [rows, B] (rows 1: end positions; 2: end, then start positions): keys from end[b] on and
    // before start[b] masked; with one row the start is 0 (its row times rows - 1)
    const batch = b.reshape(b.dim(a.q, 0n), [1n]);
    const idx = b.reshape(b.convert(c.input(a.mask.input)!, 'i64'), b.concat([i64Const(c, [-1n]), batch], 0));
    const rows = b.dim(idx, 0n);
    const one = i64Const(c, [1n]);
    const end = b.reshape(b.gather(idx, i64Const(c, [0n]), 0n), [-1n, 1n]);
    const start = b.mul(b.reshape(b.gather(idx, b.sub(rows, one), 0n), [-1n, 1n]), b.sub(rows, one));
    const cols = b.unsqueeze(b.range(total), [0n]); // [1, T]
    const out = c.emit('LogicalOr', [b.compare('GreaterEqual', cols, end), b.compare('Less', cols, start)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
    scores = b.add(scores, b.unsqueeze(b.select(out, masked, zero), [1n, 2n]));
  }
  if (a.bias !== null) scores = b.add(scores, c.input(a.bias)!);
  if (a.unidirectional) {
    // a future key's score is the type's lowest value, whatever the mask says (onnxruntime
    // overwrites the mask there: a query whose past keys are all masked still sees none of them)
    const rows = b.unsqueeze(b.range(b.dim(a.q, 2n)), [1n]); // [S, 1]
    const last = a.pastLen ? b.add(rows, a.pastLen) : rows;
    const cols = b.unsqueeze(b.range(total), [0n]);
    scores = b.select(b.compare('LessEqual', cols, last), scores, b.scalar(elem, LOWEST[elem]!));
  }
  const y = b.matmul(b.softmax(scores), a.v);
  return b.reshape(b.transpose(y, [0n, 2n, 1n, 3n]), [0n, 0n, -1n]);
}

/** The IR ops attend writes. */
export const ATTEND_IR_OPS: readonly string[] = ['MatMul', 'Multiply', 'Greater', 'Select', 'Unsqueeze', 'Add', 'Reshape', 'Convert', 'Concat',
  'ShapeOf', 'Gather', 'Subtract', 'Range', 'GreaterEqual', 'Less', 'LogicalOr', 'LessEqual', 'Softmax', 'Transpose'];
