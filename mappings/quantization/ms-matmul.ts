import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { dynamicQuantizeU8, floatOf, floatScalar, is8bit, MS, opt, quantizeTo } from './ms-requantize.js';

/**
 * onnxruntime's com.microsoft quantized matrix products (quantize_dynamic / quantize_static), as
 * onnxruntime computes them (contrib_ops/cpu/quantization): an exact int32 product of the shifted
 * operands, then float scaling:
 *  - MatMulIntegerToFloat(A, B, a_scale, b_scale, a_zp?, b_zp?, bias?) =
 *    f(Σ (A - a_zp)(B - b_zp)) · (a_scale · b_scale) + bias, of a_scale's float type.
 *  - DynamicQuantizeMatMul(A, B, b_scale, b_zp?, bias?): A quantized to uint8 first over the whole
 *    tensor, as onnxruntime's GetQuantizationParameter does: the range [min(A, 0), max(A, 0)],
 *    scale (max - min) / 255 (1 when max = min), zero point RoundHalfToEven(-min / scale), A_q =
 *    Saturate(RoundHalfToEven(A / scale) + zp); then MatMulIntegerToFloat with those.
 *  - QGemm(A, a_scale, a_zp, B, b_scale, b_zp, C?, y_scale?, y_zp?; alpha, transA, transB): the
 *    int32 product (transposes as Gemm's) plus the int32 C, times alpha · a_scale · b_scale (÷
 *    y_scale when given); with y_zero_point requantized to its type (round half to even, saturate),
 *    else float.
 * A 1-D b_scale / b_zero_point is per column of B (per row of a transposed B).
 */
const bin = (c: ConvertContext, op: string, a: Value, b: Value): Value => c.emit(op, [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
const convert = (c: ConvertContext, x: Value, to: ElementTypeName): Value => c.emit('Convert', [x], { destination_type: to }, 1, 'opset1')[0]!;

/** Rank of source input i (0 for a scalar), null when unknown. */
const rankOf = (c: ConvertContext, i: number): number | null => c.rank(i);

/**
 * A per-column operand (scalar, [1] or [N]) of B, shaped to broadcast over the product: a 1-D [N]
 * is along the last dim as it is; `rows` (a transposed B read per output column): [N, 1].
 */
function perColumn(c: ConvertContext, v: Value, i: number, rows: boolean): Value | null {
  const r = rankOf(c, i);
  if (r === null || r > 1) { c.error(`input ${i} must be a scalar or 1-D (per column of B), ${r === null ? 'of unknown rank' : `not of rank ${r}`}`); return null; }
  return r === 1 && rows ? c.emit('Unsqueeze', [v, i64Const(c, [1n])], {}, 1, 'opset1')[0]! : v;
}

/** i32(x) - i32(zp) of target values (zp absent: i32(x)). */
function shifted(c: ConvertContext, x: Value, zp: Value | null): Value {
  const xi = convert(c, x, 'i32');
  return zp ? bin(c, 'Subtract', xi, convert(c, zp, 'i32')) : xi;
}

const matmul = (c: ConvertContext, a: Value, b: Value, ta = false, tb = false): Value =>
  c.emit('MatMul', [a, b], { transpose_a: String(ta), transpose_b: String(tb) }, 1, 'opset1')[0]!;

/** f(acc) · multiplier (+ bias) in float type fe. */
function scaled(c: ConvertContext, acc: Value, multiplier: Value, bias: Value | null, fe: ElementTypeName): Value {
  const y = bin(c, 'Multiply', convert(c, acc, fe), multiplier);
  return bias ? bin(c, 'Add', y, bias) : y;
}

function matmulIntegerToFloat(c: ConvertContext): void {
  if (!is8bit(c, 0, 'A') || !is8bit(c, 1, 'B')) return;
  const fe = floatOf(c, 2);
  if (!fe || !floatOf(c, 3)) return;
  const aZp = opt(c, 4);
  const bZpRaw = opt(c, 5);
  const bZp = bZpRaw && perColumn(c, bZpRaw, 5, false);
  const bScale = perColumn(c, c.input(3)!, 3, false);
  if (!bScale || (bZpRaw && !bZp)) return;
  const acc = matmul(c, shifted(c, c.input(0)!, aZp), shifted(c, c.input(1)!, bZp));
  c.output(0, scaled(c, acc, bin(c, 'Multiply', c.input(2)!, bScale), opt(c, 6), fe));
}

function dynamicQuantizeMatMul(c: ConvertContext): void {
  const r = c.rank(0);
  if (c.elem(0) !== 'f32' || r === null) { c.error(`A must be float of known rank (is ${c.elem(0) ?? 'unknown'}${r === null ? ', rank unknown' : ''})`); return; }
  if (!is8bit(c, 1, 'B') || !floatOf(c, 2)) return;
  const bZpRaw = opt(c, 3);
  const bZp = bZpRaw && perColumn(c, bZpRaw, 3, false);
  const bScale = perColumn(c, c.input(2)!, 2, false);
  if (!bScale || (bZpRaw && !bZp)) return;
  const emit = (op: string, ins: Value[], attrs: Record<string, string> = {}, version = 'opset1'): Value => c.emit(op, ins, attrs, 1, version)[0]!;
  const all = i64Const(c, Array.from({ length: r }, (_, k) => BigInt(k)));
  const { shifted: aq, scale } = dynamicQuantizeU8(emit, (v) => floatScalar(c, 'f32', v), all, c.input(0)!);
  const acc = matmul(c, aq, shifted(c, c.input(1)!, bZp));
  c.output(0, scaled(c, acc, bin(c, 'Multiply', scale, bScale), opt(c, 4), 'f32'));
}

function qgemm(c: ConvertContext): void {
  const ta = c.attr.int('transA', 0n) !== 0n;
  const tb = c.attr.int('transB', 0n) !== 0n;
  if (!is8bit(c, 0, 'A') || !is8bit(c, 3, 'B') || !floatOf(c, 1) || !floatOf(c, 4)) return;
  const ra = c.rank(0);
  const rb = c.rank(3);
  if (ra !== 2 || rb !== 2) { c.error(`A and B must be 2-D (ranks ${ra ?? 'unknown'} and ${rb ?? 'unknown'})`); return; }
  const bZp = perColumn(c, c.input(5)!, 5, tb);
  const bScale = perColumn(c, c.input(4)!, 4, false);
  if (!bZp || !bScale) return;
  let acc = matmul(c, shifted(c, c.input(0)!, c.input(2)), shifted(c, c.input(3)!, bZp), ta, tb);
  const bias = opt(c, 6);
  if (bias) {
    if (c.elem(6) !== 'i32') { c.error(`C is ${c.elem(6) ?? 'of unknown type'}: QGemm adds an int32 C`); return; }
    acc = bin(c, 'Add', acc, bias);
  }
  const alpha = c.attr.float('alpha', 1);
  let multiplier = bin(c, 'Multiply', bin(c, 'Multiply', floatScalar(c, 'f32', alpha), c.input(1)!), bScale);
  const yScale = opt(c, 7);
  const yZp = opt(c, 8);
  if (yZp && !yScale) { c.error('y_zero_point without y_scale'); return; }
  if (yScale) {
    if (!floatOf(c, 7)) return;
    multiplier = bin(c, 'Divide', multiplier, yScale);
  }
  const y = scaled(c, acc, multiplier, null, 'f32');
  if (!yZp) { c.output(0, y); return; }
  const q = is8bit(c, 8, 'y_zero_point');
  if (!q) return;
  const out = quantizeTo(c, y, floatScalar(c, 'f32', 1), yZp, q, 'f32');
  if (out) c.output(0, out);
}

const PRODUCT = ['Convert', 'Subtract', 'Unsqueeze', 'MatMul', 'Multiply', 'Add'];

export const MS_MATMUL: readonly OpMapping[] = [
  {
    onnx: { op: 'MatMulIntegerToFloat', domain: MS, since: 1 },
    ir: null,
    decomposes: PRODUCT,
    note: 'IR: int32 MatMul of the shifted operands, times a_scale·b_scale, plus bias',
    toIr: matmulIntegerToFloat,
  },
  {
    onnx: { op: 'DynamicQuantizeMatMul', domain: MS, since: 1 },
    ir: null,
    decomposes: ['ReduceMin', 'ReduceMax', 'Minimum', 'Maximum', 'Divide', 'Equal', 'Select', 'Round', 'Clamp', ...PRODUCT],
    note: 'IR: A quantized to uint8 as onnxruntime does (ReduceMin/Max, Round, Clamp), int32 MatMul, scaled',
    toIr: dynamicQuantizeMatMul,
  },
  {
    onnx: { op: 'QGemm', domain: MS, since: 1 },
    ir: null,
    decomposes: [...PRODUCT, 'Divide', 'Round', 'Clamp'],
    handles: { onnx: ['alpha', 'transA', 'transB'] },
    note: 'IR: int32 MatMul (transposes as Gemm) plus C, scaled; with y_zero_point requantized',
    toIr: qgemm,
  },
];
