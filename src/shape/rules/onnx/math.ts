import { isStatic, type Dim, type Shape } from '../../../graph/shape.js';
import { onnxBroadcast, type BroadcastResult } from '../../broadcast.js';
import { mergeDim } from '../../dim.js';
import { out, type InferFn, type Rule, type RuleContext } from '../../rule.js';
import { broadcastOr, intAttr } from '../common.js';

/**
 * MatMul (numpy matmul: 1-D operands promoted and the added dim removed, batch dims broadcast,
 * inner dims must agree) and Gemm (2-D, transA/transB). `broadcast` is the batch broadcast of
 * the dialect (ONNX multidirectional, OpenVINO numpy).
 */
export function matmulShape(c: RuleContext, a: Shape, b: Shape, ta: boolean, tb: boolean,
  broadcast: (x: Shape, y: Shape) => BroadcastResult): Shape {
  if (a === null || b === null) return null;
  if (a.length === 0 || b.length === 0) { c.error('MatMul operands must not be scalars'); return null; }
  let a2: Dim[] = a.length === 1 ? [1, a[0]!] : [...a];
  let b2: Dim[] = b.length === 1 ? [b[0]!, 1] : [...b];
  const swap = (s: Dim[]) => [...s.slice(0, -2), s[s.length - 1]!, s[s.length - 2]!];
  if (ta && a.length > 1) a2 = swap(a2);
  if (tb && b.length > 1) b2 = swap(b2);
  const k1 = a2[a2.length - 1]!;
  const k2 = b2[b2.length - 2]!;
  if (mergeDim(k1, k2) === undefined) c.error(`inner dimensions differ: ${JSON.stringify(k1)} and ${JSON.stringify(k2)}`);
  const batch = broadcastOr(c, broadcast(a2.slice(0, -2), b2.slice(0, -2)));
  if (batch === null) return null;
  const dims = [...batch];
  if (a.length > 1) dims.push(a2[a2.length - 2]!);
  if (b.length > 1) dims.push(b2[b2.length - 1]!);
  return dims;
}

const onnxPair = (x: Shape, y: Shape) => onnxBroadcast([x, y]);

const matmul: InferFn = (c) => [out(c.elem(0), matmulShape(c, c.shape(0), c.shape(1), false, false, onnxPair))];

const gemm: InferFn = (c) => {
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
