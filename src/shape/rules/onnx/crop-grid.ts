import { attrInts } from '../../../graph/attr-read.js';
import type { Dim } from '../../../graph/shape.js';
import { normAxis } from '../../dim.js';
import { out, type InferFn, type Rule } from '../../rule.js';

/**
 * CenterCropPad-18: x's rank; along `axes` (default all) the dims `shape` holds, the others x's.
 * AffineGrid-20: size [N, C, H, W] → grid [N, H, W, 2]; size [N, C, D, H, W] → [N, D, H, W, 3].
 */
const centerCropPad: InferFn = (c) => {
  const x = c.shape(0);
  if (x === null) return [out(c.elem(0), null)];
  const r = x.length;
  const given = attrInts(c.node, 'axes');
  const axes = given ? given.map((a) => normAxis(Number(a), r)) : x.map((_, i) => i);
  const target = c.ints(1);
  const dims: Dim[] = [...x];
  axes.forEach((a, j) => { if (a !== undefined) dims[a] = target?.[j] ?? null; });
  return [out(c.elem(0), dims)];
};

const affineGrid: InferFn = (c) => {
  const size = c.ints(1);
  const len = size?.length ?? c.shape(1)?.[0];
  if (len !== 4 && len !== 5) return [out(c.elem(0), null)];
  const n = len - 2;
  const spatial: Dim[] = size ? size.slice(2) : new Array<Dim>(n).fill(null);
  return [out(c.elem(0), [size?.[0] ?? c.shape(0)?.[0] ?? null, ...spatial, n])];
};

export const onnxCropGridRules: readonly Rule[] = [
  { dialect: 'onnx', op: 'CenterCropPad', since: 18, infer: centerCropPad },
  { dialect: 'onnx', op: 'AffineGrid', since: 20, infer: affineGrid },
];
