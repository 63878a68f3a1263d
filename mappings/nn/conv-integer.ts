import type { Value } from '../../src/graph/value.js';
import type { ConvertContext } from '../spec.js';

/**
 * IR → ONNX: an i32 Convolution whose operands are 8-bit tensors converted to i32, each less an
 * 8-bit zero point converted alike (what ovc and ovir write for ONNX ConvInteger), is ONNX
 * ConvInteger of the 8-bit tensors: ONNX Conv takes no integers, and ConvInteger computes exactly
 * this (x − x_zero_point) ⊛ (w − w_zero_point) in int32. Null when the operands are anything else.
 */
export interface IntegerConvOperands { x: Value; w: Value; xZero: Value | null; wZero: Value | null }

const EIGHT_BIT = new Set(['u8', 'i8']);

export function integerConvOperands(c: ConvertContext): IntegerConvOperands | null {
  if (c.elem(0) !== 'i32' || c.elem(1) !== 'i32') return null;
  const elemOf = (v: Value): string | null => { const t = c.typeOf(v); return t?.kind === 'tensor' ? t.elem : null; };
  /** The 8-bit source of `v` = Convert(8-bit → i32), else null. */
  const widened = (v: Value | null | undefined): Value | null => {
    const p = v?.producer;
    if (!p || p.op !== 'Convert' || p.outputs.length !== 1) return null;
    const src = p.inputs[0];
    return src && EIGHT_BIT.has(elemOf(src) ?? '') ? src : null;
  };
  /** [value, zero point] of operand `v`: Convert(q) or Subtract(Convert(q), [Unsqueeze](Convert(zp))). */
  const operand = (v: Value | null | undefined): [Value, Value | null] | null => {
    const q = widened(v);
    if (q) return [q, null];
    const s = v?.producer;
    if (!s || s.op !== 'Subtract') return null;
    const a = widened(s.inputs[0]);
    let b = s.inputs[1];
    if (b?.producer?.op === 'Unsqueeze') b = b.producer.inputs[0];
    const z = widened(b);
    return a && z && elemOf(a) === elemOf(z) ? [a, z] : null;
  };
  const x = operand(c.node.inputs[0]);
  const w = operand(c.node.inputs[1]);
  if (!x || !w) return null;
  const rank = (v: Value | null): number | null => { const t = v ? c.typeOf(v) : null; return t?.kind === 'tensor' && t.shape ? t.shape.length : null; };
  // ONNX: x_zero_point is a scalar (per tensor); w_zero_point a scalar or one per output channel
  const xr = rank(x[1]);
  const wr = rank(w[1]);
  if (x[1] && (xr === null || xr > 1)) return null;
  if (w[1] && (wr === null || wr > 1)) return null;
  const conv = (v: Value | null): Value | null => (v ? c.converted(v) : null);
  const [cx, cw] = [conv(x[0]), conv(w[0])];
  if (!cx || !cw) return null;
  return { x: cx, w: cw, xZero: conv(x[1]), wZero: conv(w[1]) };
}
