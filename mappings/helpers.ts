import { A, type Attr } from '../src/graph/attr.js';
import { tensorFromInt64 } from '../src/graph/tensor.js';
import type { Value } from '../src/graph/value.js';
import type { ConvertContext } from './spec.js';

/**
 * Small pieces the escape hatches share: moving an ONNX attribute to an IR constant input and
 * back, and reading an axes-like operand whichever form it has.
 */

/** ONNX → IR: the source inputs, in order, without trailing absent ones. */
export function presentInputs(c: ConvertContext, count = c.numInputs): (Value | null)[] {
  const out: (Value | null)[] = [];
  for (let i = 0; i < count; i++) out.push(c.input(i));
  while (out.length && out[out.length - 1] === null) out.pop();
  return out;
}

/** The ints of ONNX attribute `name`, or undefined. */
export function onnxInts(c: ConvertContext, name: string): bigint[] | undefined {
  const a = c.node.attrs.get(name);
  if (!a) return undefined;
  if (a.type === 'ints') return [...a.value];
  if (a.type === 'int') return [a.value];
  c.unsupportedAttr(name, a.type, 'expected a list of integers');
  return undefined;
}

/** An i64 1-D constant in the target graph. */
export const i64Const = (c: ConvertContext, values: readonly bigint[]): Value => c.constant(tensorFromInt64(values));
/** An i64 scalar constant in the target graph. */
export const i64Scalar = (c: ConvertContext, v: bigint): Value => c.constant(tensorFromInt64([v], []));

/**
 * IR → ONNX: operand `index` that ONNX takes as attribute `attr` before opset `inputSince` and as
 * an input from then on. Returns the attribute to set (old form) or pushes the input (new form).
 * A non-constant operand in the old form is a diagnostic.
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
 * IR → ONNX: operand `index` as ONNX wants axes-like inputs — a 1-D int64 tensor. IR allows any
 * integer type and scalars (ovc writes u64 and scalar axes): constants are rewritten, run-time
 * values get a Cast to int64 and a Reshape to [-1].
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

/** Normalizes axis `a` for rank `r` (negative counts from the end). */
export const normAxis = (a: bigint, r: number): number => (a < 0n ? Number(a) + r : Number(a));
