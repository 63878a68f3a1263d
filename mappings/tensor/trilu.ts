import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedScalar } from '../typed-consts.js';

/**
 * ONNX Trilu-14 has no OpenVINO op; like OpenVINO's frontend, IR keeps the elements whose column
 * minus row is ≥ k (upper) or ≤ k (lower) of the last two axes and zeroes the rest:
 * Select(Range(cols)[None, :] cmp Range(k, rows + k)[:, None], x, 0). IR → ONNX goes back op by op.
 */
function axisLength(c: ConvertContext, shape: Value, axis: bigint): Value {
  return c.emit('Gather', [shape, i64Scalar(c, axis), i64Scalar(c, 0n)], { batch_dims: '0' }, 1, 'opset8')[0]!;
}

export const TRILU: OpMapping = {
  onnx: { op: 'Trilu', since: 14 },
  ir: null,
  decomposes: ['ShapeOf', 'Gather', 'Add', 'Range', 'Unsqueeze', 'GreaterEqual', 'LessEqual', 'Select'],
  handles: { onnx: ['upper'] },
  note: 'IR: Select of a Range-built band mask (no IR op of this name exists)',
  toIr: (c) => {
    const x = c.input(0)!;
    const elem = c.elem(0);
    const zero = elem === null ? null : typedScalar(elem, 0);
    if (zero === null) { c.error(`Trilu of ${elem ?? 'an unknown element type'} (numeric and boolean types only)`); return; }
    const upper = (c.attr.int('upper') ?? 1n) !== 0n;
    const shape = c.emit('ShapeOf', [x], { output_type: 'i64' }, 1, 'opset3')[0]!;
    const k = c.numInputs > 1 && c.input(1) ? c.input(1)! : i64Scalar(c, 0n);
    const range = (from: Value, to: Value): Value => c.emit('Range', [from, to, i64Scalar(c, 1n)], { output_type: 'i64' }, 1, 'opset4')[0]!;
    const unsqueeze = (v: Value, axis: bigint): Value => c.emit('Unsqueeze', [v, i64Const(c, [axis])], {}, 1, 'opset1')[0]!;
    // rows shifted by k, as a column: k .. rows + k - 1; columns as a row: 0 .. cols - 1
    const rowsEnd = c.emit('Add', [axisLength(c, shape, -2n), k], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
    const rows = unsqueeze(range(k, rowsEnd), 1n);
    const cols = unsqueeze(range(i64Scalar(c, 0n), axisLength(c, shape, -1n)), 0n);
    const keep = c.emit(upper ? 'GreaterEqual' : 'LessEqual', [cols, rows], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
    c.output(0, c.emit('Select', [keep, x, c.constant(zero)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!);
  },
};

export const TRILU_OPS: readonly OpMapping[] = [TRILU];
