import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import type { ConvertContext } from '../spec.js';
import { typedScalar } from '../typed-consts.js';

/**
 * The two halves of onnxruntime's com.microsoft QLinear* kernels (onnxruntime's MLAS), as IR:
 *  - dequantize: (f(x) - f(zero_point)) · scale, f the scale's float type (zero point absent: 0);
 *  - requantize: Saturate(RoundHalfToEven(y / scale) + zero_point), MLAS's MlasQuantizeLinear
 *    (`nearbyintf`, then clamped to the type's range). OpenVINO's frontend writes some of these ops
 *    without the rounding or the saturation (a bare Convert of y / scale + zp): onnxruntime's
 *    numbers are the reference here, so ovir rounds and saturates as MLAS does.
 * 8-bit types only (the ops' type constraint T is uint8 / int8).
 */
export const MS = 'com.microsoft';
export const RANGE8: Partial<Record<ElementTypeName, readonly [number, number]>> = { u8: [0, 255], i8: [-128, 127] };

/** Source input i when present (an empty name or a missing trailing input: null). */
export const opt = (c: ConvertContext, i: number): Value | null => (c.numInputs > i ? c.input(i) : null);

const bin = (c: ConvertContext, op: string, a: Value, b: Value, extra: Record<string, string> = {}): Value =>
  c.emit(op, [a, b], { auto_broadcast: 'numpy', ...extra }, 1, 'opset1')[0]!;
const convert = (c: ConvertContext, x: Value, to: ElementTypeName): Value => c.emit('Convert', [x], { destination_type: to }, 1, 'opset1')[0]!;

/** Whether source input i is 8-bit quantized data (u8 / i8); else a diagnostic naming it. */
export function is8bit(c: ConvertContext, i: number, what: string): ElementTypeName | null {
  const e = c.elem(i);
  if (e !== null && RANGE8[e]) return e;
  c.error(`${what} (input ${i}) is ${e ?? 'of unknown type'}: ${c.node.op} takes uint8 or int8`);
  return null;
}

/** The float type of scale input i (f32 as the ops declare; f16 accepted), else a diagnostic. */
export function floatOf(c: ConvertContext, i: number): ElementTypeName | null {
  const e = c.elem(i);
  if (e === 'f32' || e === 'f16') return e;
  c.error(`the scale (input ${i}) is ${e ?? 'of unknown type'}: ${c.node.op} takes float scales`);
  return null;
}

/** (f(x) - f(zp)) · scale of source inputs x, scale, zp (zp may be absent). */
export function dequantize8(c: ConvertContext, x: number, scale: number, zp: number | null, fe: ElementTypeName): Value {
  const xf = convert(c, c.input(x)!, fe);
  const z = zp === null ? null : opt(c, zp);
  const shifted = z ? bin(c, 'Subtract', xf, convert(c, z, fe)) : xf;
  return bin(c, 'Multiply', shifted, c.input(scale)!);
}

/** Saturate(RoundHalfToEven(y / scale) + zp) as type q, of a float y and source inputs scale, zp. */
export function requantize8(c: ConvertContext, y: Value, scale: number, zp: number | null, q: ElementTypeName, fe: ElementTypeName): Value | null {
  if (!RANGE8[q]) { c.error(`a quantized output of ${q}: ${c.node.op} gives uint8 or int8`); return null; }
  return quantizeTo(c, y, c.input(scale)!, zp === null ? null : opt(c, zp), q, fe);
}

/** Integer types a com.microsoft QuantizeLinear / DequantizeLinear takes, with their ranges. */
export const RANGES: Partial<Record<ElementTypeName, readonly [number, number]>> = {
  ...RANGE8, u16: [0, 65535], i16: [-32768, 32767], u4: [0, 15], i4: [-8, 7],
};

/** Saturate(RoundHalfToEven(y / scale) + zp) as type q (one of RANGES), of target values. */
export function quantizeTo(c: ConvertContext, y: Value, scale: Value, zp: Value | null, q: ElementTypeName, fe: ElementTypeName): Value | null {
  const range = RANGES[q];
  if (!range) { c.error(`quantizing to ${q}: ${c.node.op} gives 4-, 8- or 16-bit integers`); return null; }
  const scaled = bin(c, 'Divide', y, scale, { m_pythondiv: 'true' });
  let r = c.emit('Round', [scaled], { mode: 'half_to_even' }, 1, 'opset5')[0]!;
  if (zp) r = bin(c, 'Add', r, convert(c, zp, fe));
  const clamped = c.emit('Clamp', [r], { min: String(range[0]), max: String(range[1]) }, 1, 'opset1')[0]!;
  return convert(c, clamped, q);
}

/** A scalar constant of float type fe. */
export const floatScalar = (c: ConvertContext, fe: ElementTypeName, v: number): Value => c.constant(typedScalar(fe, v)!);

/**
 * x (f32) quantized to uint8 over `axes` (all of them: the whole tensor) as onnxruntime's
 * GetQuantizationParameter and MlasQuantizeLinear do for its dynamically quantized ops: the range
 * [min(x, 0), max(x, 0)], scale (max - min) / 255 (1 when max = min), zero point
 * RoundHalfToEven(Clamp(-min / scale)), x_q = Clamp(RoundHalfToEven(x / scale) + zp). Written with
 * `op` (the main graph's emit or a Loop body's); gives i32(x_q) - i32(zp) and the scale. `rangeOf`:
 * the part of x whose range sets the parameters (x itself unless onnxruntime reads a part only).
 */
export function dynamicQuantizeU8(op: (name: string, ins: Value[], attrs?: Record<string, string>, version?: string) => Value, f32: (v: number) => Value, axes: Value, x: Value, rangeOf: Value = x): { shifted: Value; scale: Value } {
  const nb = { auto_broadcast: 'numpy' };
  const reduce = (name: string): Value => op(name, [rangeOf, axes], { keep_dims: 'false' });
  const lo = op('Minimum', [reduce('ReduceMin'), f32(0)], nb);
  const hi = op('Maximum', [reduce('ReduceMax'), f32(0)], nb);
  const range = op('Divide', [op('Subtract', [hi, lo], nb), f32(255)], { ...nb, m_pythondiv: 'true' });
  const scale = op('Select', [op('Equal', [hi, lo], nb), f32(1), range], nb);
  const round = (v: Value): Value => op('Round', [v], { mode: 'half_to_even' }, 'opset5');
  const clamp = (v: Value): Value => op('Clamp', [v], { min: '0', max: '255' });
  const zp = round(clamp(op('Divide', [op('Subtract', [f32(0), lo], nb), scale], { ...nb, m_pythondiv: 'true' })));
  const xq = clamp(op('Add', [round(op('Divide', [x, scale], { ...nb, m_pythondiv: 'true' })), zp], nb));
  const i32 = (v: Value): Value => op('Convert', [v], { destination_type: 'i32' });
  return { shifted: op('Subtract', [i32(xq), i32(zp)], nb), scale };
}
