import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, normAxis } from '../helpers.js';
import type { ConvertContext } from '../spec.js';

/**
 * Softmax and LogSoftmax before opset 13 work on x coerced to 2-D at `axis` (default 1):
 * [prod(dims before axis), prod(dims from axis)], the op over the second dim, then x's shape
 * again. Over the last axis that is the op over that axis (one IR node); otherwise the IR is
 * Reshape → op over axis 1 → Reshape back, as OpenVINO's frontend writes it.
 */
export function coerced2dToIr(c: ConvertContext, irOp: string, version: string): void {
  const a = c.attr.int('axis', 1n);
  const r = c.rank(0);
  if (r === null) { c.error(`${c.node.op} before opset 13 needs the rank of its input, which is not known`); return; }
  const axis = normAxis(a, r);
  if (axis < 0 || axis > Math.max(r - 1, 0)) { c.unsupportedAttr('axis', String(a), `out of range for rank ${r}`); return; }
  const x = c.input(0)!;
  if (r === 0 || axis === r - 1) { c.output(0, c.emit(irOp, [x], { axis: String(r === 0 ? 0 : -1) }, 1, version)[0]!); return; }
  const shape = c.emit('ShapeOf', [x], { output_type: 'i64' }, 1, 'opset3')[0]!;
  const tail = c.emit('Slice', [shape, i64Const(c, [BigInt(axis)]), i64Const(c, [BigInt(r)]), i64Const(c, [1n]), i64Const(c, [0n])], {}, 1, 'opset8')[0]!;
  const inner = c.emit('ReduceProd', [tail, i64Const(c, [0n])], { keep_dims: 'true' }, 1, 'opset1')[0]!;
  const flat = c.emit('Reshape', [x, c.emit('Concat', [i64Const(c, [-1n]), inner], { axis: '0' }, 1, 'opset1')[0]!], { special_zero: 'false' }, 1, 'opset1')[0]!;
  const y: Value = c.emit(irOp, [flat], { axis: '1' }, 1, version)[0]!;
  c.output(0, c.emit('Reshape', [y, shape], { special_zero: 'false' }, 1, 'opset1')[0]!);
}

/** IR → ONNX before opset 13: only an op over the last axis is the coerced form. */
export function coerced2dToOnnx(c: ConvertContext, onnxOp: string): void {
  const a = c.attr.int('axis', 1n);
  const r = c.rank(0);
  if (r === null || (r > 0 && normAxis(a, r) !== r - 1)) {
    c.unsupportedAttr('axis', String(a), `ONNX ${onnxOp} before opset 13 flattens at axis; only the last axis converts (use --opset 13 or later)`, 13);
    return;
  }
  const axis = Math.max(r - 1, 0);
  c.output(0, c.emit(onnxOp, [c.input(0)], axis === 1 ? {} : { axis: A.int(axis) })[0]!);
}
