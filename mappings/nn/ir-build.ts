import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext } from '../spec.js';
import { typedScalar } from '../typed-consts.js';

/**
 * The IR ops the attention-family decompositions (attention.ts, rotary-embedding.ts) are written
 * in, one small function each, at the op version OpenVINO's opsets define them. Binary ops
 * broadcast numpy-style, as the ONNX ops they come from.
 */
export interface IrBuilder {
  add(a: Value, b: Value): Value;
  sub(a: Value, b: Value): Value;
  mul(a: Value, b: Value): Value;
  div(a: Value, b: Value): Value;
  unary(op: 'Tanh' | 'Sqrt' | 'Negative', x: Value): Value;
  compare(op: 'Equal' | 'Less' | 'LessEqual' | 'GreaterEqual', a: Value, b: Value): Value;
  and(a: Value, b: Value): Value;
  select(cond: Value, a: Value, b: Value): Value;
  matmul(a: Value, b: Value, transposeB?: boolean): Value;
  softmax(x: Value): Value;
  convert(x: Value, to: ElementTypeName): Value;
  /** Reshape with special_zero (a 0 copies the input dim). */
  reshape(x: Value, pattern: readonly bigint[] | Value): Value;
  transpose(x: Value, perm: readonly bigint[]): Value;
  concat(xs: readonly Value[], axis: number): Value;
  unsqueeze(x: Value, axes: readonly bigint[]): Value;
  squeeze(x: Value, axes: readonly bigint[]): Value;
  split(x: Value, axis: bigint, parts: number): Value[];
  /** Slice-8 of one axis: [start, stop) step 1. */
  slice(x: Value, start: bigint, stop: bigint, axis: bigint): Value;
  /** Slice-8 of one axis with a step. */
  sliceStep(x: Value, start: bigint, stop: bigint, step: bigint, axis: bigint): Value;
  gather(data: Value, indices: Value, axis: bigint): Value;
  shapeOf(x: Value): Value;
  /** Dim `axis` of `x` as an i64 scalar. */
  dim(x: Value, axis: bigint): Value;
  /** 0, 1, …, n - 1 (n an i64 scalar). */
  range(n: Value): Value;
  /** ReduceMin over the last axis, dims kept. */
  reduceMinLast(x: Value): Value;
  /** A scalar of element type `elem` (built as f32 and converted where no constant of that type is built here, e.g. bf16). */
  scalar(elem: ElementTypeName, v: number): Value;
}

export function irBuilder(c: ConvertContext): IrBuilder {
  const nb = { auto_broadcast: 'numpy' };
  const one = (op: string, inputs: readonly (Value | null)[], attrs: Record<string, string>, version: string): Value => c.emit(op, inputs, attrs, 1, version)[0]!;
  const b: IrBuilder = {
    add: (x, y) => one('Add', [x, y], nb, 'opset1'),
    sub: (x, y) => one('Subtract', [x, y], nb, 'opset1'),
    mul: (x, y) => one('Multiply', [x, y], nb, 'opset1'),
    div: (x, y) => one('Divide', [x, y], { ...nb, m_pythondiv: 'true' }, 'opset1'),
    unary: (op, x) => one(op, [x], {}, 'opset1'),
    compare: (op, x, y) => one(op, [x, y], nb, 'opset1'),
    and: (x, y) => one('LogicalAnd', [x, y], nb, 'opset1'),
    select: (cond, x, y) => one('Select', [cond, x, y], nb, 'opset1'),
    matmul: (x, y, tb = false) => one('MatMul', [x, y], { transpose_a: 'false', transpose_b: tb ? 'true' : 'false' }, 'opset1'),
    softmax: (x) => one('Softmax', [x], { axis: '-1' }, 'opset8'),
    convert: (x, to) => one('Convert', [x], { destination_type: to }, 'opset1'),
    reshape: (x, p) => one('Reshape', [x, Array.isArray(p) ? i64Const(c, p) : (p as Value)], { special_zero: 'true' }, 'opset1'),
    transpose: (x, perm) => one('Transpose', [x, i64Const(c, perm)], {}, 'opset1'),
    concat: (xs, axis) => one('Concat', xs, { axis: String(axis) }, 'opset1'),
    unsqueeze: (x, axes) => one('Unsqueeze', [x, i64Const(c, axes)], {}, 'opset1'),
    squeeze: (x, axes) => one('Squeeze', [x, i64Const(c, axes)], {}, 'opset1'),
    split: (x, axis, parts) => c.emit('Split', [x, i64Scalar(c, axis)], { num_splits: String(parts) }, parts, 'opset1'),
    slice: (x, start, stop, axis) => b.sliceStep(x, start, stop, 1n, axis),
    sliceStep: (x, start, stop, step, axis) => one('Slice', [x, i64Const(c, [start]), i64Const(c, [stop]), i64Const(c, [step]), i64Const(c, [axis])], {}, 'opset8'),
    gather: (data, idx, axis) => one('Gather', [data, idx, i64Scalar(c, axis)], { batch_dims: '0' }, 'opset8'),
    shapeOf: (x) => one('ShapeOf', [x], { output_type: 'i64' }, 'opset3'),
    dim: (x, axis) => b.gather(b.shapeOf(x), i64Scalar(c, axis), 0n),
    range: (n) => one('Range', [i64Scalar(c, 0n), n, i64Scalar(c, 1n)], { output_type: 'i64' }, 'opset4'),
    reduceMinLast: (x) => one('ReduceMin', [x, i64Const(c, [-1n])], { keep_dims: 'true' }, 'opset1'),
    scalar: (elem, v) => {
      const t = typedScalar(elem, v);
      return t ? c.constant(t) : b.convert(c.constant(typedScalar('f32', v)!), elem);
    },
  };
  return b;
}
