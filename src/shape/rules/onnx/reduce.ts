import { out, type InferFn, type Rule } from '../../rule.js';
import { axisOr, family, intAttr, intsAttr } from '../common.js';
import { reduceShape, reduceValue } from '../shared.js';

/**
 * ONNX reductions: axes as an attribute (ReduceSum before 13, the others before 18), as an
 * input afterwards (with noop_with_empty_axes); keepdims default 1; no axes → all axes.
 */
const REDUCE = ['ReduceMax', 'ReduceMin', 'ReduceMean', 'ReduceSum', 'ReduceProd', 'ReduceL1', 'ReduceL2',
  'ReduceLogSum', 'ReduceLogSumExp', 'ReduceSumSquare'];


const reduce: InferFn = (c) => {
  const inputAxesSince = c.node.op === 'ReduceSum' ? 13 : 18;
  const keep = intAttr(c, 'keepdims', 1) !== 0;
  let axes: number[] | null | undefined;
  let noop = false;
  if (c.version < inputAxesSince) axes = intsAttr(c, 'axes');
  else {
    axes = c.has(1) ? c.ints(1) : undefined;
    noop = intAttr(c, 'noop_with_empty_axes', 0) !== 0;
  }
  return [out(c.elem(0), reduceShape(c, c.shape(0), axes, keep, noop), reduceValue(c.node.op, c.value(0), c.shape(0), false))];
};


const argReduce: InferFn = (c) => {
  const s = c.shape(0);
  if (s === null) return [out('i64', null)];
  const axis = axisOr(c, intAttr(c, 'axis', 0), s.length);
  const keep = intAttr(c, 'keepdims', 1) !== 0;
  if (axis === undefined) return [out('i64', null)];
  return [out('i64', reduceShape(c, s, [axis], keep, false))];
};

export const onnxReduceRules: Rule[] = [
  ...family('onnx', REDUCE, 1, reduce),
  ...family('onnx', ['ArgMax', 'ArgMin'], 1, argReduce),
];
