import { attrBool } from '../../../graph/attr-read.js';
import { out, type InferFn, type Rule } from '../../rule.js';
import { reduceShape, reduceValue } from '../shared.js';
import { family } from '../common.js';
import { matmulShape } from '../shared.js';
import { ovNumpyBroadcast } from '../../broadcast.js';

/** OpenVINO reductions (axes input, keep_dims default false) and MatMul (transpose_a/b, numpy batch). */
const REDUCE = ['ReduceMax', 'ReduceMin', 'ReduceMean', 'ReduceSum', 'ReduceProd', 'ReduceL1', 'ReduceL2',
  'ReduceLogicalAnd', 'ReduceLogicalOr'];

const reduce: InferFn = (c) => {
  const keep = attrBool(c.node, 'keep_dims') ?? false;
  const axes = c.ints(1);
  const s = c.shape(0);
  if (axes !== null && axes.length === 0) return [out(c.elem(0), s, c.value(0))];
  // axes unknown: keep_dims keeps the rank; otherwise one axis drops one dim, and several give a
  // dynamic rank (they may repeat) — as OpenVINO (checked: [?,?] for one axis of rank 3, [...] for two)
  const n = c.shape(1);
  if (axes === null && s !== null && !keep && n !== null && n.length <= 1) {
    const count = n.length === 0 ? 1 : n[0];
    if (count === 1) return [out(c.elem(0), Array.from({ length: Math.max(0, s.length - 1) }, () => null))];
    return [out(c.elem(0), null)];
  }
  return [out(c.elem(0), reduceShape(c, s, axes, keep, false), reduceValue(c.node.op, c.value(0), s, true))];
};

const matmul: InferFn = (c) => {
  const ta = attrBool(c.node, 'transpose_a') ?? false;
  const tb = attrBool(c.node, 'transpose_b') ?? false;
  return [out(c.elem(0), matmulShape(c, c.shape(0), c.shape(1), ta, tb, ovNumpyBroadcast))];
};

export const ovReduceRules: Rule[] = [
  ...family('ov', REDUCE, 1, reduce),
  { dialect: 'ov', op: 'MatMul', since: 0, infer: matmul },
];
