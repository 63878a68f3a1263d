import { A, type Attr } from '../../src/graph/attr.js';
import { elementType, type ElementTypeName } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar, onnxAxesOp } from '../helpers.js';
import type { ConvertContext } from '../spec.js';

/**
 * Small builders for IR → ONNX escape hatches that write an IR-only op as an ONNX subgraph
 * (mappings/ir-only/, tensor/scatter-update.ts, tensor/roll.ts, …). Such entries name the ONNX op
 * they stand on (`onnx`), never match an ONNX node (`when: never`) and refuse ONNX → IR (`irOnly`).
 */
export const never = (): boolean => false;
export const irOnly = (c: ConvertContext): void => c.error(`${c.entry.ir?.op ?? c.node.op} is written to ONNX only (no ONNX op maps to it here)`);

/** One ONNX node with one output. */
export const on = (c: ConvertContext, op: string, inputs: readonly (Value | null)[], attrs: Record<string, Attr> = {}): Value =>
  c.emit(op, inputs, attrs)[0]!;

/** ONNX Cast of `v` to `to`. */
export const cast = (c: ConvertContext, v: Value, to: ElementTypeName): Value => on(c, 'Cast', [v], { to: A.int(elementType(to).onnx!) });

/** `v` (input `i`, an integer tensor) as int64, as ONNX index operands want it. */
export const indexI64 = (c: ConvertContext, i: number): Value => (c.elem(i) === 'i64' ? c.input(i)! : cast(c, c.input(i)!, 'i64'));

/** ONNX Unsqueeze of constant axes in the form of the target opset (helpers.ts onnxAxesOp). */
export const unsqueeze = (c: ConvertContext, v: Value, axes: readonly bigint[]): Value => onnxAxesOp(c, 'Unsqueeze', v, axes);

/** ONNX ReduceSum / ReduceMean / ReduceMax / ReduceSumSquare with constant axes in the form of the target opset. */
export function reduce(c: ConvertContext, op: 'ReduceSum' | 'ReduceMean' | 'ReduceMax' | 'ReduceSumSquare', v: Value, axes: readonly bigint[], keepdims: boolean): Value {
  const inputSince = op === 'ReduceSum' ? 13 : 18;
  const keep = { keepdims: A.int(keepdims ? 1 : 0) };
  return c.opset >= inputSince ? on(c, op, [v, i64Const(c, axes)], keep) : on(c, op, [v], { ...keep, axes: A.ints(axes) });
}

/** Dim `axis` of `v` at run time, an int64 scalar. */
export const dimOf = (c: ConvertContext, v: Value, axis: bigint): Value =>
  on(c, 'Gather', [on(c, 'Shape', [v]), i64Scalar(c, axis)], { axis: A.int(0) });

/** The row-major flat position of every element of `v`, shaped like `v` (int64). */
export function positions(c: ConvertContext, v: Value): Value {
  const n = on(c, 'Size', [v]);
  const flat = on(c, 'Range', [i64Scalar(c, 0n), n, i64Scalar(c, 1n)]);
  return on(c, 'Reshape', [flat, on(c, 'Shape', [v])]);
}

/** ONNX Reshape of `v` to one dimension. */
export const flatten1d = (c: ConvertContext, v: Value): Value => on(c, 'Reshape', [v, i64Const(c, [-1n])]);
