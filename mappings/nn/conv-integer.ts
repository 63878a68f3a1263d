import { makeTensor, type Tensor } from '../../src/graph/tensor.js';
import { Value } from '../../src/graph/value.js';
import type { ConvertContext } from '../spec.js';

/**
 * IR → ONNX: an i32 Convolution or GroupConvolution whose operands are 8-bit tensors converted to
 * i32, each less an 8-bit zero point converted alike (what ovc and ovir write for ONNX ConvInteger;
 * grouped: its depthwise convolutions, as in quantized MobileNets), is ONNX ConvInteger of the
 * 8-bit tensors: ONNX Conv takes no integers, and ConvInteger computes exactly
 * this (x − x_zero_point) ⊛ (w − w_zero_point) in int32. Null when the operands are anything else.
 */
export interface IntegerConvOperands {
  x: Value; w: Value; xZero: Value | null; wZero: Value | null;
  /** GroupConvolution: the weights are ONNX's [O, I/G, k…] already (ovir's IR reshapes them after the 8-bit widening). */
  onnxLayout: boolean;
}

const EIGHT_BIT = new Set(['u8', 'i8']);

/**
 * An i32 constant as u8 values q and a u8 zero point z with q − z its values (z 0, absent, when
 * they are all in [0, 255]), when some z fits them all; else null. u8, not i8: onnxruntime-node
 * 1.23 has ConvInteger kernels for u8 weights only (measured), and u8 with a zero point holds
 * every i8 range as well.
 */
function narrowed(t: Tensor): { q: Tensor; z: Tensor | null } | null {
  if (t.elem !== 'i32') return null;
  const n = t.dims.reduce((a, d) => a * d, 1);
  const dv = new DataView(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < n; i++) { const x = dv.getInt32(i * 4, true); if (x < lo) lo = x; if (x > hi) hi = x; }
  const z = -lo;
  if (z > 255 || hi + z > 255) return null;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = dv.getInt32(i * 4, true) + z;
  return { q: makeTensor('u8', [...t.dims], out), z: z ? makeTensor('u8', [], new Uint8Array([z])) : null };
}

/**
 * `grouped`: a GroupConvolution, whose weights [G, O/G, I/G, k…] become ConvInteger's [O, I/G, k…]
 * with `group` G (conv.ts reshapes them): its weight zero point must then be one value, not one per
 * IR weight position.
 */
export function integerConvOperands(c: ConvertContext, grouped = false): IntegerConvOperands | null {
  if (c.elem(0) !== 'i32' || c.elem(1) !== 'i32') return null;
  const elemOf = (v: Value): string | null => { const t = c.typeOf(v); return t?.kind === 'tensor' ? t.elem : null; };
  /** The 8-bit source of `v` = Convert(8-bit → i32), else null. */
  const widened = (v: Value | null | undefined): Value | null => {
    const p = v?.producer;
    if (!p || p.op !== 'Convert' || p.outputs.length !== 1) return null;
    const src = p.inputs[0];
    return src && EIGHT_BIT.has(elemOf(src) ?? '') ? src : null;
  };
  /**
   * [value, zero point] of operand `v`: Convert(q) or Subtract(Convert(q), [Unsqueeze](Convert(zp))),
   * or an i32 constant whose values fit 8 bits less a zero point (ovc folds constant weights less
   * their zero point into one: its IR of a quantized ISNet), as those u8 values and zero point.
   */
  const operand = (v: Value | null | undefined): [Value | Tensor, Value | Tensor | null] | null => {
    const narrow = v?.constant ? narrowed(v.constant) : null;
    if (narrow) return [narrow.q, narrow.z];
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
  // ovir's IR of a grouped ConvInteger: the widened [O, I/G, k…] weights less their zero point, Reshaped to [G, O/G, I/G, k…]
  const wIn = c.node.inputs[1];
  const reshape = grouped && wIn?.producer?.op === 'Reshape' ? wIn.producer : null;
  const onnxLayout = reshape !== null && mergesGroups(c, reshape.inputs[0] ?? null, wIn ?? null);
  const w = operand(onnxLayout ? reshape!.inputs[0] : wIn);
  if (!x || !w) return null;
  const count = (v: Value | Tensor): number | null => {
    const dims = v instanceof Value ? (() => { const t = c.typeOf(v); return t?.kind === 'tensor' ? t.shape : null; })() : v.dims;
    return dims && dims.every((d) => typeof d === 'number') ? (dims as number[]).reduce((a, d) => a * d, 1) : null;
  };
  const rank = (v: Value | Tensor | null): number | null => {
    if (v === null || !(v instanceof Value)) return v ? v.dims.length : null;
    const t = c.typeOf(v);
    return t?.kind === 'tensor' && t.shape ? t.shape.length : null;
  };
  // ONNX: x_zero_point is a scalar (per tensor); w_zero_point a scalar or one per output channel
  const xr = rank(x[1]);
  const wr = rank(w[1]);
  if (x[1] && (xr === null || xr > 1)) return null;
  if (w[1] && (wr === null || wr > 1)) return null;
  if (grouped && !onnxLayout && w[1] && count(w[1]) !== 1) return null;
  const conv = (v: Value | Tensor | null): Value | null => (v === null ? null : v instanceof Value ? c.converted(v) : c.constant(v));
  const [cx, cw] = [conv(x[0]), conv(w[0])];
  if (!cx || !cw) return null;
  return { x: cx, w: cw, xZero: conv(x[1]), wZero: conv(w[1]), onnxLayout };
}

/** Whether `from` is [G·O/G, I/G, k…] for `to` of static dims [G, O/G, I/G, k…] (a Reshape merging the first two dims). */
function mergesGroups(c: ConvertContext, from: Value | null, to: Value | null): boolean {
  const dims = (v: Value | null): readonly (number | unknown)[] | null => { const t = v ? c.typeOf(v) : null; return t?.kind === 'tensor' ? t.shape : null; };
  const [a, b] = [dims(from), dims(to)];
  if (!a || !b || b.length !== a.length + 1 || ![...a, ...b].every((d) => typeof d === 'number')) return false;
  const [g, per, ...rest] = b as number[];
  const [o, ...aRest] = a as number[];
  return o === g! * per! && rest.every((d, i) => d === aRest[i]);
}
