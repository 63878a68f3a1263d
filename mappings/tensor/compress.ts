import { i64Const, i64Scalar } from '../helpers.js';
import type { OpMapping } from '../spec.js';

/**
 * ONNX Compress-9/11(input, condition; axis?) has no OpenVINO op; as OpenVINO's frontend: the
 * indices where the 1-D condition holds (NonZero, squeezed to 1-D) gathered along `axis`, or
 * along the flattened input when there is no axis. A condition shorter than the axis selects
 * among its first elements only, as ONNX says.
 */
export const COMPRESS: readonly OpMapping[] = [
  {
    onnx: { op: 'Compress', since: 9 },
    ir: null,
    decomposes: ['NonZero', 'Squeeze', 'Reshape', 'Gather'],
    handles: { onnx: ['axis'] },
    note: 'IR: Gather of the NonZero indices of the condition',
    toIr: (c) => {
      const axis = c.attr.int('axis');
      const nz = c.emit('NonZero', [c.input(1)], { output_type: 'i64' }, 1, 'opset3')[0]!;
      const idx = c.emit('Squeeze', [nz, i64Const(c, [0n])], {}, 1, 'opset1')[0]!;
      const data = axis === undefined ? c.emit('Reshape', [c.input(0), i64Const(c, [-1n])], { special_zero: 'false' }, 1, 'opset1')[0]! : c.input(0);
      c.output(0, c.emit('Gather', [data, idx, i64Scalar(c, axis ?? 0n)], { batch_dims: '0' }, 1, 'opset8')[0]!);
    },
  },
];
