import { isStatic, type Shape } from '../../../graph/shape.js';
import { onnxBroadcast } from '../../broadcast.js';
import { out, type InferFn, type Rule } from '../../rule.js';
import { intAttr } from '../common.js';
import { matmulShape } from '../shared.js';


const onnxPair = (x: Shape, y: Shape) => onnxBroadcast([x, y]);

const matmul: InferFn = (c) => [out(c.elem(0), matmulShape(c, c.shape(0), c.shape(1), false, false, onnxPair))];

export const gemm: InferFn = (c) => {
  const a = c.shape(0);
  const b = c.shape(1);
  const ta = intAttr(c, 'transA', 0) !== 0;
  const tb = intAttr(c, 'transB', 0) !== 0;
  if (a === null || b === null) return [out(c.elem(0), [null, null])];
  if (a.length !== 2 || b.length !== 2) { c.error('Gemm operands must be 2-D'); return [out(c.elem(0), [null, null])]; }
  const m = ta ? a[1]! : a[0]!;
  const k1 = ta ? a[0]! : a[1]!;
  const k2 = tb ? b[1]! : b[0]!;
  const n = tb ? b[0]! : b[1]!;
  if (isStatic(k1) && isStatic(k2) && k1 !== k2) c.error(`inner dimensions differ: ${k1} and ${k2}`);
  return [out(c.elem(0), [m, n])];
};

const onnxMatMulInteger: InferFn = (c) => [out('i32', matmulShape(c, c.shape(0), c.shape(1), false, false, onnxPair))];

export const onnxMathRules: Rule[] = [
  { dialect: 'onnx', op: 'MatMul', since: 1, infer: matmul },
  { dialect: 'onnx', op: 'MatMulInteger', since: 10, infer: onnxMatMulInteger },
  { dialect: 'onnx', op: 'Gemm', since: 1, infer: gemm },
];
