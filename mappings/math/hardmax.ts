import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar, normAxis } from '../helpers.js';
import type { OpMapping } from '../spec.js';
import { typedScalar } from '../typed-consts.js';

/**
 * ONNX Hardmax has no OpenVINO op; as OpenVINO's frontend: the index of the first maximum along
 * the axis (TopK k=1, stable), one-hot along that axis (OneHot with on 1 / off 0 of x's type).
 * Hardmax-13 works on one axis (default -1); Hardmax-1/11 on x flattened to 2-D at `axis`
 * (default 1), then reshaped back.
 */
export const HARDMAX: readonly OpMapping[] = [
  {
    onnx: { op: 'Hardmax', since: 1 },
    ir: null,
    decomposes: ['TopK', 'ShapeOf', 'Gather', 'Squeeze', 'OneHot', 'Slice', 'ReduceProd', 'Concat', 'Reshape'],
    handles: { onnx: ['axis'] },
    note: 'IR: TopK-11 k=1 indices one-hot by OneHot-1 (2-D flattened before opset 13)',
    toIr: (c) => {
      const rank = c.rank(0);
      const elem = c.elem(0);
      const on = elem === null ? null : typedScalar(elem, 1);
      const off = elem === null ? null : typedScalar(elem, 0);
      if (rank === null || on === null || off === null) { c.error(`Hardmax needs x of known rank and a numeric element type (got ${elem ?? 'unknown'})`); return; }
      const legacy = c.opset < 13;
      const axis = normAxis(c.attr.int('axis') ?? (legacy ? 1n : -1n), rank);
      if (axis < 0 || axis >= Math.max(rank, 1)) { c.error(`axis out of range for rank ${rank}`); return; }
      let x = c.input(0)!;
      let shape: Value | null = null;
      let along = axis;
      if (legacy) {
        // [prod(dims before axis), prod(dims from axis)], then back to x's shape
        shape = c.emit('ShapeOf', [x], { output_type: 'i64' }, 1, 'opset3')[0]!;
        const tail = c.emit('ReduceProd', [c.emit('Slice', [shape, i64Const(c, [BigInt(axis)]), i64Const(c, [BigInt(rank)]), i64Const(c, [1n])], {}, 1, 'opset8')[0]!, i64Const(c, [0n])], { keep_dims: 'true' }, 1, 'opset1')[0]!;
        const target = c.emit('Concat', [i64Const(c, [-1n]), tail], { axis: '0' }, 1, 'opset1')[0]!;
        x = c.emit('Reshape', [x, target], { special_zero: 'false' }, 1, 'opset1')[0]!;
        along = 1;
      }
      const [, idx] = c.emit('TopK', [x, i64Scalar(c, 1n)], { axis: String(along), mode: 'max', sort: 'value', index_element_type: 'i64', stable: 'true' }, 2, 'opset11');
      const depth = c.emit('Gather', [c.emit('ShapeOf', [x], { output_type: 'i64' }, 1, 'opset3')[0]!, i64Scalar(c, BigInt(along)), i64Scalar(c, 0n)], { batch_dims: '0' }, 1, 'opset8')[0]!;
      const squeezed = c.emit('Squeeze', [idx!, i64Const(c, [BigInt(along)])], {}, 1, 'opset1')[0]!;
      let y = c.emit('OneHot', [squeezed, depth, c.constant(on), c.constant(off)], { axis: String(along) }, 1, 'opset1')[0]!;
      if (shape) y = c.emit('Reshape', [y, shape], { special_zero: 'false' }, 1, 'opset1')[0]!;
      c.output(0, y);
    },
  },
];
