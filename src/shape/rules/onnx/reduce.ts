import type { Dim, Shape } from '../../../graph/shape.js';
import { normalizeAxes } from '../../broadcast.js';
import { addDims, mulDims } from '../../dim.js';
import { out, type InferFn, type PartialValue, type Rule, type RuleContext } from '../../rule.js';
import { axisOr, family, intAttr, intsAttr } from '../common.js';

/**
 * ONNX reductions: axes as an attribute (ReduceSum before 13, the others before 18), as an
 * input afterwards (with noop_with_empty_axes); keepdims default 1; no axes → all axes.
 */
const REDUCE = ['ReduceMax', 'ReduceMin', 'ReduceMean', 'ReduceSum', 'ReduceProd', 'ReduceL1', 'ReduceL2',
  'ReduceLogSum', 'ReduceLogSumExp', 'ReduceSumSquare'];

export function reduceShape(c: RuleContext, s: Shape, axes: number[] | null | undefined, keep: boolean, noopEmpty: boolean): Shape {
  if (s === null) return null;
  if (axes === null) return keep ? s.map(() => null) : null;
  if (axes === undefined || axes.length === 0) {
    if (noopEmpty) return s;
    return keep ? s.map(() => 1) : [];
  }
  const norm = normalizeAxes(axes, s.length);
  if (typeof norm === 'string') { c.error(norm); return null; }
  const dims: Dim[] = [];
  s.forEach((d, i) => { if (!norm.includes(i)) dims.push(d); else if (keep) dims.push(1); });
  return dims;
}

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

/** ReduceProd / ReduceSum of 1-D shape data (a Flatten's element count) as data propagation. */
export function reduceValue(op: string, v: PartialValue | null, s: Shape, intervals: boolean): PartialValue | null {
  if (!v || !s || s.length !== 1) return null;
  if (op === 'ReduceProd') return [v.reduce<Dim>((a, d) => mulDims(a, d, intervals), 1)];
  if (op === 'ReduceSum') return [v.reduce<Dim>((a, d) => addDims(a, d, intervals), 0)];
  return null;
}

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
