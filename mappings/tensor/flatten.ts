import type { Value } from '../../src/graph/value.js';
import { i64Const, normAxis } from '../helpers.js';
import type { OpMapping } from '../spec.js';

export const FLATTEN_SIZE: readonly OpMapping[] = [
  {
    onnx: { op: 'Flatten', since: 1 },
    ir: null,
    decomposes: ['Reshape'],
    handles: { onnx: ['axis'] },
    note: 'IR: Reshape to [prod(dims[:axis]), prod(dims[axis:])], computed from ShapeOf',
    toIr: (c) => {
      const a = c.attr.int('axis') ?? 1n;
      const r = c.rank(0);
      if (a < 0n && r === null) { c.error(`axis ${a} counts from the end: the rank of the input must be known`); return; }
      const axis = r === null ? Number(a) : normAxis(a, r);
      const x = c.input(0)!;
      const shape = c.emit('ShapeOf', [x], { output_type: 'i64' }, 1, 'opset3')[0]!;
      const prod = (start: number, stop: bigint): Value => {
        const part = c.emit('Slice', [shape, i64Const(c, [BigInt(start)]), i64Const(c, [stop]), i64Const(c, [1n]), i64Const(c, [0n])], {}, 1, 'opset8')[0]!;
        return c.emit('ReduceProd', [part, i64Const(c, [0n])], { keep_dims: 'true' }, 1, 'opset1')[0]!;
      };
      const head = axis === 0 ? i64Const(c, [1n]) : prod(0, BigInt(axis));
      const tail = prod(axis, 9223372036854775807n);
      const target = c.emit('Concat', [head, tail], { axis: '0' }, 1, 'opset1')[0]!;
      c.output(0, c.emit('Reshape', [x, target], { special_zero: 'false' }, 1, 'opset1')[0]!);
    },
  },
  {
    onnx: { op: 'Size', since: 1 },
    ir: null,
    decomposes: ['ShapeOf', 'ReduceProd'],
    note: 'IR: ReduceProd over ShapeOf (an i64 scalar)',
    toIr: (c) => {
      const shape = c.emit('ShapeOf', [c.input(0)], { output_type: 'i64' }, 1, 'opset3')[0]!;
      c.output(0, c.emit('ReduceProd', [shape, i64Const(c, [0n])], { keep_dims: 'false' }, 1, 'opset1')[0]!);
    },
  },
];
