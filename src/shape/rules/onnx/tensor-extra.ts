import { attrInt } from '../../../graph/attr-read.js';
import { elementType, fromOnnxDataType } from '../../../graph/element-type.js';
import { interval, isStatic, type Dim } from '../../../graph/shape.js';
import { dimRange, mulDims, normAxis } from '../../dim.js';
import { out, type InferFn, type Rule } from '../../rule.js';
import { matmulShape } from '../shared.js';
import type { Shape } from '../../../graph/shape.js';
import { onnxBroadcast } from '../../broadcast.js';

/**
 * ONNX ops of the tensor / detection families the other rule files do not cover, after onnx's
 * inference functions: Unique, NonMaxSuppression (selected_indices: [?, 3] int64), QLinearMatMul (the
 * MatMul shape of a and b, the type of y_zero_point).
 */
/**
 * Unique-11: Y has 1..n elements (n = element count; with axis: that dim becomes 1..d, others
 * kept), indices / counts [1..n] int64 (per slice with axis), inverse_indices one per element
 * (per slice along axis).
 */
const unique: InferFn = (c) => {
  const x = c.shape(0);
  const upTo = (d: Dim): Dim => (isStatic(d) ? (d === 0 ? 0 : interval(1, d)) : d === null ? null : interval(Math.min(1, dimRange(d)[0]), dimRange(d)[1]));
  const a = attrInt(c.node, 'axis');
  if (x === null) return [out(c.elem(0), null), out('i64', [null]), out('i64', [null]), out('i64', [null])];
  if (a === undefined) {
    const n = x.reduce<Dim>((p, d) => mulDims(p, d, true), 1);
    return [out(c.elem(0), [upTo(n)]), out('i64', [upTo(n)]), out('i64', [n]), out('i64', [upTo(n)])];
  }
  const ax = normAxis(Number(a), x.length);
  if (ax === undefined) { c.error(`axis ${a} is out of range for rank ${x.length}`); return [out(c.elem(0), null)]; }
  const k = upTo(x[ax]!);
  return [out(c.elem(0), x.map((d, i) => (i === ax ? k : d))), out('i64', [k]), out('i64', [x[ax]!]), out('i64', [k])];
};

/** BitCast-26: the same shape, element type `to`, which must have the input's bit width. */
const bitCast: InferFn = (c) => {
  const code = Number(attrInt(c.node, 'to') ?? -1n);
  const to = fromOnnxDataType(code);
  if (to === undefined || to.name === 'string') { c.error(`to = ${code} is not a fixed-width ONNX element type`); return [out('dynamic', c.shape(0))]; }
  const from = c.elem(0);
  if (from !== 'dynamic' && elementType(from).bits !== to.bits) c.error(`${from} has ${elementType(from).bits} bits and ${to.name} ${to.bits}: BitCast needs equal widths`);
  return [out(to.name, c.shape(0))];
};

const onnxPair = (x: Shape, y: Shape) => onnxBroadcast([x, y]);

export const onnxTensorExtraRules: Rule[] = [
  { dialect: 'onnx', op: 'BitCast', since: 26, infer: bitCast },
  { dialect: 'onnx', op: 'Unique', since: 11, infer: unique },
  { dialect: 'onnx', op: 'NonMaxSuppression', since: 10, infer: () => [out('i64', [null, 3])] },
  { dialect: 'onnx', op: 'QLinearMatMul', since: 10, infer: (c) => [out(c.elem(7), matmulShape(c, c.shape(0), c.shape(3), false, false, onnxPair))] },
];
