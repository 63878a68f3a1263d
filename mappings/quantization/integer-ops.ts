import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { spatialToIr } from '../nn/conv.js';
import { i64Const } from '../helpers.js';
import { dequantize, quantize } from './quantize-linear.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * Integer and quantized MatMul / Conv (onnx/defs/quantization, math, nn) as OpenVINO's frontend
 * writes them (no IR op holds them):
 *  - MatMulInteger(A, B, a_zp?, b_zp?) = MatMul(i32(A) - i32(a_zp), i32(B) - i32(b_zp)) in int32;
 *    a 1-D a_zero_point is per row of A (unsqueezed to [M, 1]), a 1-D b_zero_point per column.
 *  - ConvInteger(x, w, x_zp?, w_zp?) = Convolution / GroupConvolution of i32(x) - i32(x_zp) and
 *    i32(w) - i32(w_zp) in int32; a 1-D w_zero_point is per output channel.
 *  - QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B?) = QuantizeLinear of the
 *    f32 convolution of the dequantized operands, plus B·x_scale·w_scale; a 1-D w_scale /
 *    w_zero_point is per output channel.
 */
const opt = (c: ConvertContext, i: number): Value | null => (c.numInputs > i ? c.input(i) : null);
const bin = (c: ConvertContext, op: string, a: Value, b: Value): Value => c.emit(op, [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
const toI32 = (c: ConvertContext, i: number): Value => (c.elem(i) === 'i32' ? c.input(i)! : c.emit('Convert', [c.input(i)], { destination_type: 'i32' }, 1, 'opset1')[0]!);

/** Input `i` (scalar or 1-D) shaped to broadcast along dim `axis` of a rank-`rank` operand. */
function along(c: ConvertContext, v: Value, i: number, axis: number, rank: number): Value | null {
  const t = c.type(i);
  const s = t?.kind === 'tensor' ? t.shape : null;
  if (s === null) { c.error(`input ${i} needs a known rank (a scalar, or 1-D along axis ${axis})`); return null; }
  if (s.length === 0 || (s.length === 1 && s[0] === 1)) return v;
  if (s.length !== 1) { c.error(`input ${i} of shape [${s.join(',')}]: a scalar or 1-D`); return null; }
  // dims before `axis` broadcast from the left by themselves: [n] → [n, 1, …] with rank - 1 - axis ones
  const trailing = Array.from({ length: rank - 1 - axis }, (_, k) => BigInt(k + 1));
  return trailing.length === 0 ? v : c.emit('Unsqueeze', [v, i64Const(c, trailing)], {}, 1, 'opset1')[0]!;
}

/** x - zp in int32 (zp absent: x). */
function shifted(c: ConvertContext, x: number, zp: number, axis: number | null, rank: number): Value | null {
  const v = toI32(c, x);
  if (!opt(c, zp)) return v;
  const z = axis === null ? toI32(c, zp) : along(c, toI32(c, zp), zp, axis, rank);
  return z && bin(c, 'Subtract', v, z);
}

/** Convolution (group 1) or GroupConvolution of x and weights w of static dims `wDims`. */
function convolution(c: ConvertContext, x: Value, w: Value, wDims: readonly number[] | null): Value | null {
  const wr = c.rank(c.node.op === 'QLinearConv' ? 3 : 1);
  if (wr === null) { c.error(`${c.node.op} needs the rank of its weights`); return null; }
  const attrs = spatialToIr(c, wr - 2, true);
  if (!attrs) return null;
  const group = Number(c.attr.int('group', 1n));
  if (group === 1) return c.emit('Convolution', [x, w], attrs, 1, 'opset1')[0]!;
  if (!wDims) { c.error(`a grouped ${c.node.op} needs static weight dims`); return null; }
  const [o, ...rest] = wDims;
  if (group < 1 || o! % group !== 0) { c.error(`weights have ${o} output channels, not divisible by group ${group}`); return null; }
  const gw = c.emit('Reshape', [w, i64Const(c, [group, o! / group, ...rest].map(BigInt))], { special_zero: 'false' }, 1, 'opset1')[0]!;
  return c.emit('GroupConvolution', [x, gw], attrs, 1, 'opset1')[0]!;
}

function staticDims(c: ConvertContext, i: number): number[] | null {
  const t = c.type(i);
  const s = t?.kind === 'tensor' ? t.shape : null;
  return s && s.every((d) => typeof d === 'number') ? (s as number[]) : null;
}

function matmulInteger(c: ConvertContext): void {
  const ra = c.rank(0);
  if (ra === null) { c.error('MatMulInteger needs the rank of A'); return; }
  // a_zero_point 1-D: one per row of A (dim -2); b_zero_point 1-D: one per column of B (dim -1)
  const a = shifted(c, 0, 2, ra >= 2 ? ra - 2 : null, ra);
  const b = shifted(c, 1, 3, null, 0);
  if (!a || !b) return;
  c.output(0, c.emit('MatMul', [a, b], { transpose_a: 'false', transpose_b: 'false' }, 1, 'opset1')[0]!);
}

function convInteger(c: ConvertContext): void {
  const wr = c.rank(1);
  if (wr === null) { c.error('ConvInteger needs the rank of its weights'); return; }
  const x = shifted(c, 0, 2, null, 0);
  const w = shifted(c, 1, 3, 0, wr);
  if (!x || !w) return;
  const y = convolution(c, x, w, staticDims(c, 1));
  if (y) c.output(0, y);
}

function qlinearConv(c: ConvertContext): void {
  const y = qlinearConvOf(c, c.input(0)!);
  if (y) c.output(0, y);
}

/** QLinearConv of the node's operands with x (channels first) in place of input 0. */
export function qlinearConvOf(c: ConvertContext, xIn: Value): Value | null {
  const wr = c.rank(3);
  const fe = c.elem(1);
  const q = c.elem(7);
  if (wr === null || fe === null || q === null) { c.error('QLinearConv needs the rank of w and the types of x_scale and y_zero_point'); return null; }
  const x = dequantize(c, xIn, c.input(1)!, fe, c.input(2));
  const ws = along(c, c.input(4)!, 4, 0, wr);
  const wz = along(c, c.input(5)!, 5, 0, wr);
  if (!x || !ws || !wz) return null;
  const w = dequantize(c, c.input(3)!, ws, c.elem(4), wz);
  if (!w) return null;
  let y = convolution(c, x, w, staticDims(c, 3));
  if (!y) return null;
  const bias = opt(c, 8);
  if (bias) {
    const scaled = bin(c, 'Multiply', c.emit('Convert', [bias], { destination_type: fe }, 1, 'opset1')[0]!, bin(c, 'Multiply', c.input(1)!, c.input(4)!));
    const b = c.emit('Reshape', [scaled, i64Const(c, [1n, -1n, ...new Array<bigint>(wr - 2).fill(1n)])], { special_zero: 'false' }, 1, 'opset1')[0]!;
    y = bin(c, 'Add', y, b);
  }
  return quantize(c, y, fe, c.input(6)!, c.elem(6), c.input(7), q as ElementTypeName);
}

const CONV_ATTRS = ['auto_pad', 'dilations', 'group', 'kernel_shape', 'pads', 'strides'];

export const INTEGER_OPS: readonly OpMapping[] = [
  {
    onnx: { op: 'MatMulInteger', since: 10 },
    ir: null,
    decomposes: ['Convert', 'Subtract', 'Unsqueeze', 'MatMul'],
    note: 'IR: int32 MatMul of the shifted operands (as OpenVINO\'s frontend)',
    toIr: matmulInteger,
  },
  {
    onnx: { op: 'ConvInteger', since: 10 },
    ir: null,
    decomposes: ['Convert', 'Subtract', 'Unsqueeze', 'Reshape', 'Convolution', 'GroupConvolution'],
    handles: { onnx: CONV_ATTRS },
    note: 'IR: int32 Convolution of the shifted operands (as OpenVINO\'s frontend)',
    toIr: convInteger,
  },
  {
    onnx: { op: 'QLinearConv', since: 10 },
    ir: null,
    decomposes: ['Convert', 'Subtract', 'Multiply', 'Add', 'Unsqueeze', 'Reshape', 'Convolution', 'GroupConvolution', 'FakeQuantize'],
    handles: { onnx: CONV_ATTRS },
    note: 'IR: dequantized operands, f32 Convolution, FakeQuantize + Convert (as OpenVINO\'s frontend)',
    toIr: qlinearConv,
  },
];
