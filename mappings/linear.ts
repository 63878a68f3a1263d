import type { Value } from '../src/graph/value.js';
import { scalarLike } from './generate.js';
import { i64Const, normAxis } from './helpers.js';
import type { OpMapping } from './spec.js';

/**
 * ONNX ops with no single IR op, written as the IR ops they are made of (IR → ONNX then goes
 * through those ops' own entries):
 *   Gemm    = alpha · MatMul(A, B, transpose_a, transpose_b) + beta · C
 *   Flatten = Reshape to [prod(dims[:axis]), prod(dims[axis:])]
 *   Size    = ReduceProd(ShapeOf(x)) as an i64 scalar
 */
export const LINEAR: readonly OpMapping[] = [
  {
    // Gemm-1..6's `broadcast` says whether C may be broadcast to A·B (else it has A·B's shape):
    // numpy broadcasting covers both.
    onnx: { op: 'Gemm', since: 1 },
    ir: null,
    decomposes: ['MatMul', 'Multiply', 'Add'],
    handles: { onnx: ['alpha', 'beta', 'transA', 'transB', 'broadcast'] },
    note: 'IR: MatMul (transpose_a/b) · alpha + beta · C',
    toIr: (c) => {
      const alpha = c.attr.float('alpha') ?? 1;
      const beta = c.attr.float('beta') ?? 1;
      const ta = (c.attr.int('transA') ?? 0n) !== 0n;
      const tb = (c.attr.int('transB') ?? 0n) !== 0n;
      let y = c.emit('MatMul', [c.input(0), c.input(1)], { transpose_a: String(ta), transpose_b: String(tb) }, 1, 'opset1')[0]!;
      if (alpha !== 1) {
        const s = scalarLike(c, 0, alpha, 'Gemm alpha');
        if (!s) return;
        y = c.emit('Multiply', [y, s], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
      }
      const cIn = c.numInputs > 2 ? c.input(2) : null;
      if (cIn && beta !== 0) {
        let bias: Value = cIn;
        if (beta !== 1) {
          const s = scalarLike(c, 2, beta, 'Gemm beta');
          if (!s) return;
          bias = c.emit('Multiply', [bias, s], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
        }
        y = c.emit('Add', [y, bias], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
      }
      c.output(0, y);
    },
  },
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
