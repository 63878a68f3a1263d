import { isStatic, type Dim } from '../../graph/shape.js';
import { normAxis } from '../dim.js';
import { out, type InferFn, type Rule, type RuleContext } from '../rule.js';
import { intAttr, intsAttr } from './common.js';
import { windowDim } from './window.js';

/**
 * Image folding, deformable convolution, unpooling and cache scatter, both dialects:
 * - Col2Im-18 / Col2Im-15: [N, C·∏k, L] → [N, C, *image_shape] (IR also [C·∏k, L] → [C, H, W]).
 * - DeformConv-19 / DeformableConvolution-1/8: [N, C_out (W's dim 0), oH, oW], each spatial dim as
 *   a convolution's: ⌊(in + pads − ((k − 1)·dilation + 1)) / stride⌋ + 1.
 * - MaxUnpool-9: output_shape when given, else N, C and (in − 1)·stride + k − pad_begin − pad_end.
 * - SwiGLU-28: A's type. TensorScatter-24: past_cache's type.
 */
const channelsOf = (cdim: Dim | undefined, block: number[] | null): Dim => {
  if (!block || cdim === undefined || !isStatic(cdim)) return null;
  const p = block.reduce((a, b) => a * b, 1);
  return p > 0 && cdim % p === 0 ? cdim / p : null;
};

const col2im: InferFn = (c) => {
  const x = c.shape(0);
  const image = c.ints(1);
  const n = image?.length ?? c.shape(1)?.[0];
  const spatial: Dim[] = image ?? (typeof n === 'number' ? new Array<Dim>(n).fill(null) : []);
  if (x === null || (image === null && typeof n !== 'number')) return [out(c.elem(0), null)];
  const batched = x.length === 3;
  const ch = channelsOf(x[batched ? 1 : 0], c.ints(2));
  return [out(c.elem(0), batched ? [x[0]!, ch, ...spatial] : [ch, ...spatial])];
};

const deformable = (dataIn: number, weightsIn: number, ir: boolean): InferFn => (c) => {
  const x = c.shape(dataIn);
  const w = c.shape(weightsIn);
  if (x === null || x.length !== 4) return [out(c.elem(0), null)];
  const strides = intsAttr(c, 'strides') ?? [1, 1];
  const dil = intsAttr(c, 'dilations') ?? [1, 1];
  const pads = ir ? [...(intsAttr(c, 'pads_begin') ?? [0, 0]), ...(intsAttr(c, 'pads_end') ?? [0, 0])] : intsAttr(c, 'pads') ?? [0, 0, 0, 0];
  const kernel = w && w.length === 4 ? w.slice(2) : (intsAttr(c, 'kernel_shape') ?? [null, null]);
  const dims = x.slice(2).map((d, i) => {
    const k = kernel[i];
    return typeof k === 'number' ? windowDim(d, { kernel: k, stride: strides[i] ?? 1, dilation: dil[i] ?? 1, padBegin: pads[i] ?? 0, padEnd: pads[i + 2] ?? 0, mode: 'explicit', ceil: false }) : null;
  });
  return [out(c.elem(0), [x[0]!, w?.[0] ?? null, ...dims])];
};

const maxUnpool: InferFn = (c) => {
  const x = c.shape(0);
  const given = c.node.inputs.length > 2 && c.node.inputs[2] ? c.ints(2) : undefined;
  if (given) return [out(c.elem(0), given)];
  if (given === null) return [out(c.elem(0), x ? x.map(() => null) : null)];
  if (x === null) return [out(c.elem(0), null)];
  const k = intsAttr(c, 'kernel_shape') ?? [];
  const n = x.length - 2;
  const s = intsAttr(c, 'strides') ?? new Array<number>(n).fill(1);
  const p = intsAttr(c, 'pads') ?? new Array<number>(2 * n).fill(0);
  return [out(c.elem(0), x.map((d, i) => {
    if (i < 2) return d;
    const j = i - 2;
    return isStatic(d) && k[j] !== undefined ? (d - 1) * (s[j] ?? 1) + k[j]! - (p[j] ?? 0) - (p[j + n] ?? 0) : null;
  }))];
};

const sameAs = (i: number): InferFn => (c: RuleContext) => [out(c.elem(i), c.shape(i))];

/** TensorScatter-24: axis must name a dim after the batch. */
const tensorScatter: InferFn = (c) => {
  const x = c.shape(0);
  if (x) {
    const axis = intAttr(c, 'axis', -2);
    const a = normAxis(axis, x.length);
    if (a === undefined || a === 0) c.error(`axis ${axis} of a rank-${x.length} cache: it must name a dim after the batch`);
  }
  return [out(c.elem(0), x)];
};

export const imageOpsRules: readonly Rule[] = [
  { dialect: 'onnx', op: 'Col2Im', since: 18, infer: col2im },
  { dialect: 'ov', op: 'Col2Im', since: 15, infer: col2im },
  { dialect: 'onnx', op: 'DeformConv', since: 19, infer: deformable(0, 1, false) },
  { dialect: 'ov', op: 'DeformableConvolution', since: 1, infer: deformable(0, 2, true) },
  { dialect: 'onnx', op: 'MaxUnpool', since: 9, infer: maxUnpool },
  { dialect: 'onnx', op: 'SwiGLU', since: 28, infer: sameAs(0) },
  { dialect: 'onnx', op: 'TensorScatter', since: 24, infer: tensorScatter },
];
