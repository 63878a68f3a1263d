import { A, type Attr } from '../src/graph/attr.js';
import { tensorFromInt64 } from '../src/graph/tensor.js';
import type { Value } from '../src/graph/value.js';
import type { ConvertContext } from './spec.js';

/**
 * Small pieces the escape hatches share. (Operands that move between attribute and input are
 * `moves` lines in the entry, applied by the converter; attributes are read through `c.attr`.)
 */

/** An i64 1-D constant in the target graph. */
export const i64Const = (c: ConvertContext, values: readonly bigint[]): Value => c.constant(tensorFromInt64(values));
/** An i64 scalar constant in the target graph. */
export const i64Scalar = (c: ConvertContext, v: bigint): Value => c.constant(tensorFromInt64([v], []));

/** Normalizes axis `a` for rank `r` (negative counts from the end). */
/** The largest int64: an open end of a Slice. */
export const INT64_MAX = (1n << 63n) - 1n;

export const normAxis = (a: bigint, r: number): number => (a < 0n ? Number(a) + r : Number(a));

/** IR → ONNX: a Squeeze / Unsqueeze of constant `axes` in the form of the target opset (axes an input from 13). */
export function onnxAxesOp(c: ConvertContext, op: 'Squeeze' | 'Unsqueeze', v: Value, axes: readonly bigint[]): Value {
  return c.opset >= 13 ? c.emit(op, [v, i64Const(c, axes)])[0]! : c.emit(op, [v], { axes: A.ints(axes) })[0]!;
}

/**
 * IR → ONNX, for an op an escape hatch emits BESIDES its entry's own (e.g. NormalizeL2 written as
 * ReduceSumSquare): source operand `index` as that op takes it at the target opset — an input from
 * `inputSince`, the attribute `attr` before (a run-time operand is then CONVERT_NEEDS_CONSTANT).
 * For the entry's own op, declare a `moves` line (spec.ts) instead: the converter does this itself.
 */
export function operandAsAttrOrInput(
  c: ConvertContext, index: number, attr: string, inputSince: number, inputs: (Value | null)[], attrs: Map<string, Attr>, what: string,
): void {
  if (c.opset >= inputSince) {
    inputs.push(asI64Vector(c, index));
    return;
  }
  const v = c.constInts(index);
  if (v === null) { c.needsConstant(index, `${what}, an attribute before opset ${inputSince}: convert with --opset ${inputSince} or later`, inputSince); return; }
  attrs.set(attr, A.ints(v));
}

/**
 * IR → ONNX: operand `index` as ONNX wants shape-like inputs — a 1-D int64 tensor. IR allows any
 * integer type and scalars (ovc writes u64 and scalar axes): constants are rewritten, run-time
 * values get a Cast to int64 and a Reshape to [-1]. (An `attrToInput` move does this by itself.)
 */
export function asI64Vector(c: ConvertContext, index: number): Value | null {
  const v = c.input(index);
  if (!v) return v;
  const elem = c.elem(index);
  const rank = c.rank(index);
  if (elem === 'i64' && rank === 1) return v;
  const known = c.constInts(index);
  if (known !== null) return i64Const(c, known);
  const asI64 = elem === 'i64' ? v : c.emit('Cast', [v], { to: A.int(7) })[0]!;
  return rank === 1 ? asI64 : c.emit('Reshape', [asI64, i64Const(c, [-1n])])[0]!;
}
