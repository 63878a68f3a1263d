import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ArgMax / ArgMin are TopK-11 with k = 1 (stable: the first of equal values, as ONNX) keeping the
 * indices output, squeezed when keepdims = 0.
 */
const argToIr = (mode: 'max' | 'min') => (c: ConvertContext): void => {
  const axis = c.attr.int('axis', 0n);
  const keep = c.attr.int('keepdims', 1n) !== 0n;
  // select_last_index (as OpenVINO's frontend): the first extreme of the reversed axis, counted back from the end
  const last = c.attr.int('select_last_index', 0n) !== 0n;
  const x = last ? c.emit('Reverse', [c.input(0), i64Const(c, [axis])], { mode: 'index' }, 1, 'opset1')[0]! : c.input(0);
  let [, idx] = c.emit('TopK', [x, i64Scalar(c, 1n)], { axis: String(axis), mode, sort: 'value', index_element_type: 'i64', stable: 'true' }, 2, 'opset11');
  if (last) {
    const size = c.emit('Gather', [c.emit('ShapeOf', [c.input(0)], { output_type: 'i64' }, 1, 'opset3')[0]!, i64Const(c, [axis]), i64Scalar(c, 0n)], { batch_dims: '0' }, 1, 'opset8')[0]!;
    const lastIndex = c.emit('Subtract', [size, i64Const(c, [1n])], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
    idx = c.emit('Subtract', [lastIndex, idx!], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  }
  c.output(0, keep ? idx! : c.emit('Squeeze', [idx, i64Const(c, [axis])], {}, 1, 'opset1')[0]!);
};

export const ARG_MAX: readonly OpMapping[] = [
  {
    onnx: { op: 'ArgMax', since: 1 },
    ir: null,
    decomposes: ['TopK'],
    handles: { onnx: ['axis', 'keepdims', 'select_last_index'] },
    note: 'IR: TopK-11 k=1 mode max, indices output',
    toIr: argToIr('max'),
  },
  {
    onnx: { op: 'ArgMin', since: 1 },
    ir: null,
    decomposes: ['TopK'],
    handles: { onnx: ['axis', 'keepdims', 'select_last_index'] },
    note: 'IR: TopK-11 k=1 mode min, indices output',
    toIr: argToIr('min'),
  },
];
