import { fromOnnxDataType } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { INT64_MAX, i64Scalar } from '../helpers.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedScalar } from '../typed-consts.js';

/**
 * ONNX MelWeightMatrix-17(num_mel_bins M, dft_length, sample_rate, lower_edge_hertz,
 * upper_edge_hertz) → [dft_length / 2 + 1, M]: OpenVINO has no op (nor does its frontend
 * convert it), so the matrix is computed from its five run-time scalars as onnx's reference
 * (onnx/reference/ops/op_mel_weight_matrix.py) computes it, vectorized:
 *   mel(f) = 2595 · log10(1 + f / 700), its inverse hz(m) = 700 · (10^(m / 2595) − 1);
 *   bins b_k = ⌊(dft_length + 1) · hz(mel(lower) + k · step) / sample_rate⌋, k = 0 … M + 1,
 *   step = (mel(upper) − mel(lower)) / (M + 2);
 *   column i with l, c, r = b_i, b_i+1, b_i+2 and row j: 1 at j = c, (j − l) / (c − l) for
 *   l ≤ j < c, (r − j) / (r − c) for c < j < r, else 0 (the reference's two loops; their one
 *   overlap, j = c, is 1 in both).
 * In f32 (OpenVINO's CPU plugin runs f64 as f32; the reference takes the bins in f64: a bin edge
 * whose exact value lies within about 1e-6 of an integer may round the other way), then Converted
 * to `output_datatype` (default f32).
 */
function melToIr(c: ConvertContext): void {
  const code = c.attr.int('output_datatype', 1n);
  const out = fromOnnxDataType(Number(code));
  if (!out || out.onnx === null || typedScalar(out.name, 0) === null) {
    c.unsupportedAttr('output_datatype', String(code), 'a numeric type of whole bytes');
    return;
  }
  for (let i = 0; i < 5; i++) {
    const r = c.rank(i);
    if (r !== null && r !== 0) { c.error(`input ${i} must be a scalar (rank ${r})`); return; }
  }
  const b = irBuilder(c);
  const f = (v: number): Value => c.constant(typedScalar('f32', v)!);
  const asF32 = (i: number): Value => (c.elem(i) === 'f32' ? c.input(i)! : b.convert(c.input(i)!, 'f32'));
  const asI64 = (i: number): Value => (c.elem(i) === 'i64' ? c.input(i)! : b.convert(c.input(i)!, 'i64'));
  const range = (start: Value, stop: Value): Value => c.emit('Range', [start, stop, i64Scalar(c, 1n)], { output_type: 'i64' }, 1, 'opset4')[0]!;
  const unary = (op: string, x: Value): Value => c.emit(op, [x], {}, 1, 'opset1')[0]!;
  const m = asI64(0);
  const dft = asI64(1);
  const mel = (hz: Value): Value => b.div(b.mul(f(2595), unary('Log', b.add(f(1), b.div(hz, f(700))))), f(Math.LN10));
  const lowMel = mel(asF32(3));
  const count = b.add(m, i64Scalar(c, 2n));
  const step = b.div(b.sub(mel(asF32(4)), lowMel), b.convert(count, 'f32'));
  const melK = b.add(b.mul(b.convert(range(i64Scalar(c, 0n), count), 'f32'), step), lowMel);
  const hz = b.mul(f(700), b.sub(unary('Exp', b.mul(b.div(melK, f(2595)), f(Math.LN10))), f(1)));
  const scaled = b.mul(b.convert(b.add(dft, i64Scalar(c, 1n)), 'f32'), hz);
  const bins = unary('Floor', b.div(scaled, asF32(2))); // [M + 2], whole numbers
  const lo = b.slice(bins, 0n, -2n, 0n);
  const ce = b.slice(bins, 1n, -1n, 0n);
  const hi = b.slice(bins, 2n, INT64_MAX, 0n);
  // rows j = 0 … dft_length / 2 as a column
  const rows = b.unsqueeze(b.convert(range(i64Scalar(c, 0n), b.add(b.div(dft, i64Scalar(c, 2n)), i64Scalar(c, 1n))), 'f32'), [1n]);
  const rising = b.div(b.sub(rows, lo), b.sub(ce, lo));
  const falling = b.div(b.sub(hi, rows), b.sub(hi, ce));
  const onRise = b.and(b.compare('LessEqual', lo, rows), b.compare('Less', rows, ce));
  const onFall = b.and(b.compare('Less', ce, rows), b.compare('Less', rows, hi));
  const y = b.select(b.compare('Equal', rows, ce), f(1), b.select(onRise, rising, b.select(onFall, falling, f(0))));
  c.output(0, out.name === 'f32' ? y : b.convert(y, out.name));
}

export const MEL_WEIGHT_MATRIX: readonly OpMapping[] = [
  {
    onnx: { op: 'MelWeightMatrix', since: 17 },
    ir: null,
    decomposes: ['Convert', 'Range', 'Log', 'Exp', 'Floor', 'Add', 'Subtract', 'Multiply', 'Divide', 'Slice', 'Unsqueeze', 'LessEqual', 'Less', 'Equal', 'LogicalAnd', 'Select'],
    handles: { onnx: ['output_datatype'] },
    toIr: melToIr,
    note: 'the triangular filters of onnx\'s reference from the five run-time scalars (Range, Log/Exp for the mel scale, Floor for the bins, Select for the two slopes), in f32',
  },
];
