import type { Value } from '../../src/graph/value.js';
import { scalarLike } from '../generator/constant-of-shape.js';
import { i64Const } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ONNX MaxUnpool-9/11/22 (OpenVINO has no op), as onnx's reference computes it: the values of X go
 * to the flattened positions I (MaxPool's indices, over the whole tensor) of a zero tensor of the
 * inferred shape
 *   [N, C, (in − 1)·stride + kernel − pad_begin − pad_end …]
 * which, when output_shape is given, is then zero-padded at the end of each dim to output_shape.
 * IR: ScatterUpdate-3 (axis 0) of Reshape(X, [-1]) at Reshape(I, [-1]) into Broadcast(0, [∏shape]),
 * Reshape to the inferred shape, Pad-1 to output_shape. The inferred shape is computed from
 * ShapeOf(X) as (shape − 1)·S + K − P with S = [1, 1, strides], K = [1, 1, kernel],
 * P = [0, 0, pad_begin + pad_end], so run-time dims work too.
 */
function maxUnpoolToIr(c: ConvertContext): void {
  const r = c.rank(0);
  if (r === null || r < 3) { c.error(`MaxUnpool needs X of known rank ≥ 3 (got ${r ?? 'unknown'})`); return; }
  const n = r - 2;
  const kernel = c.attr.ints('kernel_shape');
  if (!kernel || kernel.length !== n) { c.unsupportedAttr('kernel_shape', kernel?.join(',') ?? '(absent)', `kernel_shape must hold ${n} dims`); return; }
  const strides = c.attr.ints('strides') ?? new Array<bigint>(n).fill(1n);
  const pads = c.attr.ints('pads') ?? new Array<bigint>(2 * n).fill(0n);
  if (strides.length !== n || pads.length !== 2 * n) { c.error(`strides/pads do not match ${n} spatial dims`); return; }
  const zero = scalarLike(c, 0, 0, 'MaxUnpool');
  if (!zero) return;
  const bin = (op: string, a: Value, b: Value): Value => c.emit(op, [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const x = c.input(0)!;
  const shapeOf = c.emit('ShapeOf', [x], { output_type: 'i64' }, 1, 'opset3')[0]!;
  const S = i64Const(c, [1n, 1n, ...strides]);
  const K = i64Const(c, [1n, 1n, ...kernel]);
  const P = i64Const(c, [0n, 0n, ...kernel.map((_, i) => pads[i]! + pads[i + n]!)]);
  const inferred = bin('Subtract', bin('Add', bin('Multiply', bin('Subtract', shapeOf, i64Const(c, [1n])), S), K), P);
  const total = c.emit('ReduceProd', [inferred, i64Const(c, [0n])], { keep_dims: 'true' }, 1, 'opset1')[0]!;
  const zeros = c.emit('Broadcast', [zero, total], { mode: 'numpy' }, 1, 'opset3')[0]!;
  const flat = (v: Value): Value => c.emit('Reshape', [v, i64Const(c, [-1n])], { special_zero: 'false' }, 1, 'opset1')[0]!;
  let idx = flat(c.input(1)!);
  if (c.elem(1) !== 'i64' && c.elem(1) !== 'i32') idx = c.emit('Convert', [idx], { destination_type: 'i64' }, 1, 'opset1')[0]!;
  const scattered = c.emit('ScatterUpdate', [zeros, idx, flat(x), i64Const(c, [0n])], {}, 1, 'opset3')[0]!;
  const y = c.emit('Reshape', [scattered, inferred], { special_zero: 'false' }, 1, 'opset1')[0]!;
  const given = c.numInputs > 2 ? c.input(2) : null;
  if (!given) { c.output(0, y); return; }
  const target = c.elem(2) === 'i64' ? given : c.emit('Convert', [given], { destination_type: 'i64' }, 1, 'opset1')[0]!;
  const padEnd = bin('Subtract', target, inferred);
  c.output(0, c.emit('Pad', [y, i64Const(c, new Array<bigint>(r).fill(0n)), padEnd, zero], { pad_mode: 'constant' }, 1, 'opset1')[0]!);
}

export const MAX_UNPOOL: readonly OpMapping[] = [
  {
    onnx: { op: 'MaxUnpool', since: 9 },
    ir: null,
    decomposes: ['ShapeOf', 'ReduceProd', 'Broadcast', 'ScatterUpdate', 'Reshape', 'Pad'],
    handles: { onnx: ['kernel_shape', 'strides', 'pads'] },
    note: 'IR: ScatterUpdate of X at the flat indices into zeros of the inferred shape, padded to output_shape',
    toIr: maxUnpoolToIr,
  },
];
