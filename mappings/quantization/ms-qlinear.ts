import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, normAxis } from '../helpers.js';
import { spatialToIr } from '../nn/conv.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { dequantize8, floatOf, floatScalar, is8bit, MS, requantize8 } from './ms-requantize.js';

/**
 * onnxruntime's com.microsoft QLinear* ops that quantize_static (QOperator format) writes, which
 * OpenVINO has no op for: each dequantizes its operands, computes the float op and requantizes
 * (ms-requantize.ts: onnxruntime's rounding half to even and saturation):
 *  - QLinearAdd / QLinearMul(A, A_scale, A_zp?, B, B_scale, B_zp?, C_scale, C_zp?): Add / Multiply.
 *  - QLinearSigmoid(X, X_scale, X_zp?, Y_scale, Y_zp?): Sigmoid.
 *  - QLinearLeakyRelu(… alpha = 0.01): x ≥ 0 ? x : alpha · x (Select).
 *  - QLinearConcat(Y_scale, Y_zp, (X, X_scale, X_zp)…, axis): Concat of the dequantized Xs.
 *  - QLinearGlobalAveragePool(X, x_scale, x_zp, y_scale, y_zp, channels_last = 0): ReduceMean over
 *    the spatial dims.
 *  - QLinearAveragePool(X, x_scale, x_zp?, y_scale, y_zp?, AveragePool's attributes, channels_last):
 *    AvgPool (channels_last: Transpose to channels first and back).
 *  - QLinearReduceMean(data, data_scale, data_zp?, reduced_scale, reduced_zp?, axes, keepdims):
 *    ReduceMean over `axes` ("Dequantize(Input) -> ReduceMean on fp32 data -> Quantize(output)";
 *    both attributes required, as its schema has them).
 *  - QLinearSoftmax(X, X_scale, x_zp?, y_scale, y_zp, axis = -1, opset): Softmax over `axis`; an
 *    `opset` before 13 coerces X to 2-D at `axis` as Softmax did then.
 *  - QLinearWhere(condition, X, x_scale, x_zp, Y, y_scale, y_zp, z_scale, z_zp): Select of the
 *    dequantized X and Y (onnxruntime requantizes each by a lookup table, then selects: the same).
 */
const bin = (c: ConvertContext, op: string, a: Value, b: Value): Value => c.emit(op, [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;

/** X at input 0 with scale 1 / zp 2, Y with scale 3 / zp 4: Y = requantize(f(dequantize(X))). */
function unary(f: (c: ConvertContext, x: Value, fe: ElementTypeName) => Value | null): (c: ConvertContext) => void {
  return (c) => {
    const q = is8bit(c, 0, 'X');
    const fe = floatOf(c, 1);
    if (!q || !fe || !floatOf(c, 3)) return;
    const y = f(c, dequantize8(c, 0, 1, 2, fe), fe);
    const out = y && requantize8(c, y, 3, 4, q, fe);
    if (out) c.output(0, out);
  };
}

function binary(op: 'Add' | 'Multiply'): (c: ConvertContext) => void {
  return (c) => {
    const q = is8bit(c, 0, 'A');
    const qb = is8bit(c, 3, 'B');
    const fe = floatOf(c, 1);
    if (!q || !qb || !fe || !floatOf(c, 4) || !floatOf(c, 6)) return;
    if (qb !== q) { c.error(`A is ${q} and B ${qb}: ${c.node.op} takes one type T`); return; }
    const y = bin(c, op, dequantize8(c, 0, 1, 2, fe), dequantize8(c, 3, 4, 5, fe));
    const out = requantize8(c, y, 6, 7, q, fe);
    if (out) c.output(0, out);
  };
}

const leakyRelu = (c: ConvertContext, x: Value, fe: ElementTypeName): Value => {
  const alpha = c.attr.float('alpha', 0.01);
  const neg = bin(c, 'Multiply', x, floatScalar(c, fe, alpha));
  const pos = bin(c, 'GreaterEqual', x, floatScalar(c, fe, 0));
  return c.emit('Select', [pos, x, neg], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
};

function concat(c: ConvertContext): void {
  const n = c.numInputs;
  if (n < 5 || (n - 2) % 3 !== 0) { c.error(`${n} inputs: QLinearConcat takes Y_scale, Y_zero_point and one or more (X, X_scale, X_zero_point) triples`); return; }
  const q = is8bit(c, 1, 'Y_zero_point');
  const fe = floatOf(c, 0);
  if (!q || !fe) return;
  const axis = c.attr.int('axis');
  if (axis === undefined) { c.error('attribute axis is required'); return; }
  const parts: Value[] = [];
  for (let i = 2; i < n; i += 3) {
    const xq = is8bit(c, i, 'X');
    if (!xq || !floatOf(c, i + 1)) return;
    if (xq !== q) { c.error(`input ${i} is ${xq} and Y_zero_point ${q}: QLinearConcat takes one type`); return; }
    parts.push(dequantize8(c, i, i + 1, i + 2, fe));
  }
  const y = c.emit('Concat', parts, { axis: String(axis) }, 1, 'opset1')[0]!;
  const out = requantize8(c, y, 0, 1, q, fe);
  if (out) c.output(0, out);
}

/** Rank of X (≥ 3) or a diagnostic. */
function spatialRank(c: ConvertContext): number | null {
  const r = c.rank(0);
  if (r === null || r < 3) { c.error(`X of ${r === null ? 'unknown rank' : `rank ${r}`}: ${c.node.op} needs X of known rank ≥ 3`); return null; }
  return r;
}

const channelsLast = (c: ConvertContext): boolean | null => {
  const v = c.attr.int('channels_last', 0n);
  if (v !== 0n && v !== 1n) { c.unsupportedAttr('channels_last', String(v), 'must be 0 or 1'); return null; }
  return v === 1n;
};

const globalAveragePool = (c: ConvertContext, x: Value): Value | null => {
  const r = spatialRank(c);
  const last = channelsLast(c);
  if (r === null || last === null) return null;
  const axes = Array.from({ length: r - 2 }, (_, k) => BigInt(last ? k + 1 : k + 2));
  return c.emit('ReduceMean', [x, i64Const(c, axes)], { keep_dims: 'true' }, 1, 'opset1')[0]!;
};

const averagePool = (c: ConvertContext, x: Value): Value | null => {
  const r = spatialRank(c);
  const last = channelsLast(c);
  const kernel = c.attr.ints('kernel_shape');
  if (r === null || last === null) return null;
  if (!kernel) { c.error('attribute kernel_shape is required'); return null; }
  if (kernel.length !== r - 2) { c.error(`kernel_shape has ${kernel.length} dims and X ${r - 2} spatial dims`); return null; }
  const attrs = spatialToIr(c, kernel.length, false);
  if (!attrs) return null;
  attrs['kernel'] = kernel.join(',');
  attrs['rounding_type'] = c.attr.int('ceil_mode', 0n) !== 0n ? 'ceil' : 'floor';
  attrs['exclude-pad'] = c.attr.int('count_include_pad', 0n) !== 0n ? 'false' : 'true';
  const perm = (p: number[]): Value => i64Const(c, p.map(BigInt));
  const toFirst = [0, r - 1, ...Array.from({ length: r - 2 }, (_, k) => k + 1)];
  const toLast = [0, ...Array.from({ length: r - 2 }, (_, k) => k + 2), 1];
  const xin = last ? c.emit('Transpose', [x, perm(toFirst)], {}, 1, 'opset1')[0]! : x;
  const y = c.emit('AvgPool', [xin], attrs, 1, 'opset1')[0]!;
  return last ? c.emit('Transpose', [y, perm(toLast)], {}, 1, 'opset1')[0]! : y;
};

const reduceMean = (c: ConvertContext, x: Value): Value | null => {
  const axes = c.attr.ints('axes');
  const keep = c.attr.int('keepdims');
  if (!axes) { c.error('attribute axes is required'); return null; }
  if (keep === undefined) { c.error('attribute keepdims is required'); return null; }
  const r = c.rank(0);
  if (r !== null && axes.some((a) => a < -r || a >= r)) { c.unsupportedAttr('axes', axes.join(','), `out of range for rank ${r}`); return null; }
  return c.emit('ReduceMean', [x, i64Const(c, axes)], { keep_dims: keep !== 0n ? 'true' : 'false' }, 1, 'opset1')[0]!;
};

const softmax = (c: ConvertContext, x: Value): Value | null => {
  const r = c.rank(0);
  const opset = c.attr.int('opset');
  if (opset === undefined) { c.error('attribute opset is required'); return null; }
  const a = c.attr.int('axis', -1n);
  if (r === null) { c.error('QLinearSoftmax needs the rank of X'); return null; }
  const axis = normAxis(a, r);
  if (r === 0 || axis < 0 || axis >= r) { c.unsupportedAttr('axis', String(a), `out of range for rank ${r}`); return null; }
  if (opset >= 13n || axis === r - 1) return c.emit('Softmax', [x], { axis: String(axis) }, 1, 'opset8')[0]!;
  // before opset 13: over the dims from `axis` on, X seen as [prod(dims before), prod(dims from axis)]
  const shape = c.emit('ShapeOf', [x], { output_type: 'i64' }, 1, 'opset3')[0]!;
  const flat = c.emit('Reshape', [x, i64Const(c, [...new Array<bigint>(axis).fill(0n), -1n])], { special_zero: 'true' }, 1, 'opset1')[0]!;
  const s = c.emit('Softmax', [flat], { axis: String(axis) }, 1, 'opset8')[0]!;
  return c.emit('Reshape', [s, shape], { special_zero: 'false' }, 1, 'opset1')[0]!;
};

function where(c: ConvertContext): void {
  if (c.numInputs !== 9) { c.error(`${c.numInputs} inputs: QLinearWhere takes 9 (condition, X, x_scale, x_zero_point, Y, y_scale, y_zero_point, z_scale, z_zero_point)`); return; }
  if (c.elem(0) !== 'boolean') { c.error(`condition is ${c.elem(0) ?? 'of unknown type'}: boolean`); return; }
  const q = is8bit(c, 8, 'z_zero_point');
  const fe = floatOf(c, 7);
  if (!q || !fe || !floatOf(c, 2) || !floatOf(c, 5)) return;
  for (const [i, what] of [[1, 'X'], [3, 'x_zero_point'], [4, 'Y'], [6, 'y_zero_point']] as const) {
    const e = is8bit(c, i, what);
    if (!e) return;
    if (e !== q) { c.error(`${what} is ${e} and z_zero_point ${q}: QLinearWhere takes one type`); return; }
  }
  const y = c.emit('Select', [c.input(0), dequantize8(c, 1, 2, 3, fe), dequantize8(c, 4, 5, 6, fe)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const out = requantize8(c, y, 7, 8, q, fe);
  if (out) c.output(0, out);
}

const POOL_ATTRS = ['auto_pad', 'ceil_mode', 'channels_last', 'count_include_pad', 'kernel_shape', 'pads', 'strides'];
const DEQ = ['Convert', 'Subtract', 'Multiply'];
const REQ = ['Divide', 'Round', 'Add', 'Clamp', 'Convert'];

export const MS_QLINEAR: readonly OpMapping[] = [
  {
    onnx: { op: 'QLinearAdd', domain: MS, since: 1 },
    ir: null,
    decomposes: [...DEQ, ...REQ],
    note: 'IR: dequantized operands, Add, requantized (round half to even, saturate)',
    toIr: binary('Add'),
  },
  {
    onnx: { op: 'QLinearMul', domain: MS, since: 1 },
    ir: null,
    decomposes: [...DEQ, ...REQ],
    note: 'IR: dequantized operands, Multiply, requantized (round half to even, saturate)',
    toIr: binary('Multiply'),
  },
  {
    onnx: { op: 'QLinearSigmoid', domain: MS, since: 1 },
    ir: null,
    decomposes: [...DEQ, 'Sigmoid', ...REQ],
    note: 'IR: dequantized X, Sigmoid, requantized',
    toIr: unary((c, x) => c.emit('Sigmoid', [x], {}, 1, 'opset1')[0]!),
  },
  {
    onnx: { op: 'QLinearLeakyRelu', domain: MS, since: 1 },
    ir: null,
    decomposes: [...DEQ, 'GreaterEqual', 'Select', ...REQ],
    handles: { onnx: ['alpha'] },
    note: 'IR: dequantized X, Select(x ≥ 0, x, alpha·x), requantized',
    toIr: unary(leakyRelu),
  },
  {
    onnx: { op: 'QLinearConcat', domain: MS, since: 1 },
    ir: null,
    decomposes: [...DEQ, 'Concat', ...REQ],
    handles: { onnx: ['axis'] },
    note: 'IR: each X dequantized with its own scale / zero point, Concat, requantized',
    toIr: concat,
  },
  {
    onnx: { op: 'QLinearGlobalAveragePool', domain: MS, since: 1 },
    ir: null,
    decomposes: [...DEQ, 'ReduceMean', ...REQ],
    handles: { onnx: ['channels_last'] },
    note: 'IR: dequantized X, ReduceMean over the spatial dims, requantized',
    toIr: unary(globalAveragePool),
  },
  {
    onnx: { op: 'QLinearAveragePool', domain: MS, since: 1 },
    ir: null,
    decomposes: [...DEQ, 'Transpose', 'AvgPool', ...REQ],
    handles: { onnx: POOL_ATTRS },
    note: 'IR: dequantized X, AvgPool (channels_last: between Transposes), requantized',
    toIr: unary(averagePool),
  },
  {
    onnx: { op: 'QLinearReduceMean', domain: MS, since: 1 },
    ir: null,
    decomposes: [...DEQ, 'ReduceMean', ...REQ],
    handles: { onnx: ['axes', 'keepdims'] },
    note: 'IR: dequantized data, ReduceMean over axes, requantized',
    toIr: unary(reduceMean),
  },
  {
    onnx: { op: 'QLinearSoftmax', domain: MS, since: 1 },
    ir: null,
    decomposes: [...DEQ, 'Softmax', 'ShapeOf', 'Reshape', ...REQ],
    handles: { onnx: ['axis', 'opset'] },
    note: 'IR: dequantized X, Softmax over axis (opset < 13: X coerced to 2-D at axis), requantized',
    toIr: unary(softmax),
  },
  {
    onnx: { op: 'QLinearWhere', domain: MS, since: 1 },
    ir: null,
    decomposes: [...DEQ, 'Select', ...REQ],
    note: 'IR: Select of the dequantized X and Y, requantized',
    toIr: where,
  },
];
