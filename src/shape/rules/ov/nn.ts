import { attrString } from '../../../graph/attr-read.js';
import { interval, isStatic, type Dim } from '../../../graph/shape.js';
import { addDims, dimRange, mulDims, normAxis, sliceDim } from '../../dim.js';
import { out, type InferFn, type PartialValue, type Rule, type RuleContext } from '../../rule.js';
import { axisOr, family, intAttr, intsAttr, sameAsInput, strAttr } from '../common.js';
import { windowDim, type PadMode } from '../window.js';
import { fromIrElementType } from '../../../graph/element-type.js';
import { evaluateScatterElements, evaluateScatterUpdate } from './evaluate.js';
import { checkBatchNormOperands, checkConvChannels } from './channels.js';
import { checkWindowFits } from './window-fits.js';

/**
 * OpenVINO neural-network and slicing ops: Convolution, GroupConvolution, MaxPool, AvgPool,
 * BatchNormInference, Pad, TopK, Slice-8, Identity-16, NonZero, OneHot, DepthToSpace/SpaceToDepth.
 */
function padMode(c: RuleContext): PadMode {
  const a = (attrString(c.node, 'auto_pad') ?? 'explicit').toLowerCase();
  if (a === 'same_upper' || a === 'same_lower') return 'same';
  if (a === 'valid') return 'valid';
  return 'explicit';
}

function spatial(c: RuleContext, x: readonly Dim[], kernel: readonly number[], rounding: string): Dim[] {
  const n = x.length - 2;
  const ones = Array.from({ length: n }, () => 1);
  const zeros = Array.from({ length: n }, () => 0);
  const strides = intsAttr(c, 'strides') ?? ones;
  const dil = intsAttr(c, 'dilations') ?? ones;
  const pb = intsAttr(c, 'pads_begin') ?? zeros;
  const pe = intsAttr(c, 'pads_end') ?? zeros;
  const mode = padMode(c);
  const r = rounding.toLowerCase();
  return x.slice(2).map((d, i) => windowDim(d, {
    kernel: kernel[i] ?? 1, stride: strides[i] ?? 1, dilation: dil[i] ?? 1, padBegin: pb[i] ?? 0, padEnd: pe[i] ?? 0,
    mode, ceil: r === 'ceil' || r === 'ceil_torch', dropPaddedLast: r === 'ceil_torch',
  }));
}

const convolution = (group: boolean): InferFn => (c) => {
  const x = c.shape(0);
  const w = c.shape(1);
  if (x === null) return [out(c.elem(0), null)];
  const off = group ? 1 : 0;
  const wRank = c.shape(1)?.length;
  if (x.length < 3 || (wRank !== undefined && wRank !== x.length + off)) {
    c.error(`data of rank ${x.length} and filters of rank ${wRank ?? '?'}: data needs batch, channels and at least one spatial dim, the filters ${group ? 'groups, ' : ''}output and input channels and one dim per spatial dim`);
    return [out(c.elem(0), null)];
  }
  checkConvChannels(c, x, w, group);
  const cout = w === null ? null : group ? mulDims(w[0]!, w[1]!, true) : w[0]!;
  if (w === null || !w.slice(2 + off).every(isStatic)) return [out(c.elem(0), [x[0]!, cout, ...x.slice(2).map(() => null)])];
  checkWindowFits(c, x, w.slice(2 + off));
  return [out(c.elem(0), [x[0]!, cout, ...spatial(c, x, w.slice(2 + off) as number[], 'floor')])];
};

const pool: InferFn = (c) => {
  const x = c.shape(0);
  const kernel = intsAttr(c, 'kernel');
  const idxElem = fromIrElementType(strAttr(c, 'index_element_type', 'i64'))?.name ?? 'i64';
  if (x === null || !kernel) return c.node.outputs.map((_, i) => out(i === 1 ? idxElem : c.elem(0), null));
  if (x.length !== kernel.length + 2) {
    c.error(`data of rank ${x.length} for a kernel of ${kernel.length} dims: rank ${kernel.length + 2} (batch, channels, then one dim per kernel dim) is needed`);
    return c.node.outputs.map((_, i) => out(i === 1 ? idxElem : c.elem(0), null));
  }
  checkWindowFits(c, x, kernel);
  const shape = [x[0]!, x[1]!, ...spatial(c, x, kernel, strAttr(c, 'rounding_type', 'floor'))];
  return c.node.outputs.map((_, i) => out(i === 1 ? idxElem : c.elem(0), shape));
};

const pad: InferFn = (c) => {
  const x = c.shape(0);
  const pb = c.ints(1);
  const pe = c.ints(2);
  if (x === null) return [out(c.elem(0), null)];
  if (!pb || !pe) return [out(c.elem(0), x.map(() => null))];
  return [out(c.elem(0), x.map((d, i) => addDims(addDims(d, pb[i] ?? 0, true), pe[i] ?? 0, true)))];
};

const topk: InferFn = (c) => {
  const x = c.shape(0);
  const k = c.ints(1)?.[0] ?? null;
  const idxElem = fromIrElementType(strAttr(c, 'index_element_type', 'i32'))?.name ?? 'i32';
  if (x === null) return [out(c.elem(0), null), out(idxElem, null)];
  const axis = axisOr(c, intAttr(c, 'axis', -1), x.length);
  const dims = x.map((d, i) => {
    if (i !== axis) return d;
    if (k === null) return upTo(d);
    if (isStatic(d)) return Math.min(d, k);
    // OpenVINO gives k for a dynamic dim (checked: 2..10 and ? with k=5 give 5)
    const [lo, hi] = dimRange(d);
    return hi < k ? interval(lo, hi) : k;
  });
  return [out(c.elem(0), dims), out(idxElem, dims)];
};

/**
 * Known data of a Slice-8 whose input dims are static (any rank): the picked elements in order,
 * with start/stop clamped per the spec (as OpenVINO's constant folding computes them).
 */
function sliceValue(v: PartialValue | null, x: readonly Dim[], start: number[], stop: number[], step: number[], axes: number[]): PartialValue | null {
  if (!v || !x.every(isStatic)) return null;
  const dims = x as number[];
  if (v.length !== dims.reduce((p, d) => p * d, 1)) return null;
  const picks: number[][] = dims.map((d) => Array.from({ length: d }, (_, i) => i));
  for (let k = 0; k < axes.length; k++) {
    const a = normAxis(axes[k]!, dims.length);
    const st = step[k]!;
    if (a === undefined || st === 0) return null;
    const len = dims[a]!;
    const norm = (y0: number) => { const y = y0 < 0 ? y0 + len : y0; return st > 0 ? Math.min(Math.max(y, 0), len) : Math.min(Math.max(y, -1), len - 1); };
    const picked: number[] = [];
    for (let i = norm(start[k]!); st > 0 ? i < norm(stop[k]!) : i > norm(stop[k]!); i += st) picked.push(i);
    picks[a] = picked;
  }
  let flat: number[] = [0];
  for (let a = 0; a < dims.length; a++) {
    const next: number[] = [];
    for (const base of flat) for (const i of picks[a]!) next.push(base * dims[a]! + i);
    flat = next;
    if (flat.length > 1024) return null;
  }
  return flat.map((j) => v[j]!);
}

/** 0..max of a dim (a slice of it of unknown bounds). */
export const upTo = (d: Dim): Dim => interval(0, dimRange(d)[1]);

/** Slice-8: start, stop, step, axes (optional) inputs. */
const slice8: InferFn = (c) => {
  const x = c.shape(0);
  if (x === null) return [out(c.elem(0), null)];
  const start = c.ints(1);
  const stop = c.ints(2);
  const step = c.ints(3);
  const axes = c.has(4) ? c.ints(4) : start?.map((_, i) => i) ?? null;
  // bounds unknown: each sliced dim lies in 0..its size (all dims when the axes are unknown too)
  if (!start || !stop || !step || !axes) {
    const sliced = axes ? new Set(axes.map((a) => normAxis(a, x.length))) : null;
    return [out(c.elem(0), x.map((d, i) => (sliced && !sliced.has(i) ? d : upTo(d))))];
  }
  const dims = [...x];
  axes.forEach((a, k) => {
    const n = normAxis(a, x.length);
    if (n === undefined) { c.error(`axis ${a} out of range`); return; }
    dims[n] = sliceDim(start[k]!, stop[k]!, step[k]!, x[n]!, true);
  });
  return [out(c.elem(0), dims, sliceValue(c.value(0), x, start, stop, step, axes))];
};

/** NonZero-3: [rank, 0..element count] (OpenVINO bounds the count by the input size). */
const nonZero: InferFn = (c) => {
  const x = c.shape(0);
  const elem = fromIrElementType(strAttr(c, 'output_type', 'i64'))?.name ?? 'i64';
  const [, hi] = dimRange(x === null ? null : x.reduce<Dim>((a, d) => mulDims(a, d, true), 1));
  return [out(elem, [x === null ? null : x.length, interval(0, hi)])];
};

const oneHot: InferFn = (c) => {
  const idx = c.shape(0);
  if (idx === null) return [out(c.elem(2), null)];
  const depth = c.ints(1)?.[0] ?? null;
  const a = normAxis(intAttr(c, 'axis', -1), idx.length + 1);
  if (a === undefined) { c.error('axis out of range'); return [out(c.elem(2), null)]; }
  const dims = [...idx];
  dims.splice(a, 0, depth);
  return [out(c.elem(2), dims)];
};

const depthToSpace: InferFn = (c) => {
  const x = c.shape(0);
  const b = intAttr(c, 'block_size', 1);
  if (x === null) return [out(c.elem(0), null)];
  const toSpace = c.node.op === 'DepthToSpace';
  const n = x.length - 2;
  const f = b ** n;
  const ch = x[1]!;
  const cOut = isStatic(ch) ? (toSpace ? ch / f : ch * f) : null;
  return [out(c.elem(0), [x[0]!, cOut, ...x.slice(2).map((d) => (isStatic(d) ? (toSpace ? d * b : d / b) : null))])];
};

/** ConvolutionBackpropData-1 / GroupConvolutionBackpropData-1: out = s·(in-1) + k' - pads + output_padding, or output_shape. */
const convBackprop = (group: boolean): InferFn => (c) => {
  const x = c.shape(0);
  const w = c.shape(1);
  if (x === null) return [out(c.elem(0), null)];
  const off = group ? 1 : 0;
  const wRank = c.shape(1)?.length;
  if (x.length < 3 || (wRank !== undefined && wRank !== x.length + off)) {
    c.error(`data of rank ${x.length} and filters of rank ${wRank ?? '?'}: data needs batch, channels and at least one spatial dim, the filters ${group ? 'groups, ' : ''}output and input channels and one dim per spatial dim`);
    return [out(c.elem(0), null)];
  }
  const cout = w === null ? null : group ? mulDims(w[0]!, w[2]!, true) : w[1]!;
  const n = x.length - 2;
  if (c.has(2)) {
    const os = c.value(2);
    return [out(c.elem(0), [x[0]!, cout, ...(os && os.length === n ? os : Array.from({ length: n }, () => null))])];
  }
  const k = w?.slice(2 + off) ?? [];
  const ones = Array.from({ length: n }, () => 1);
  const zeros = Array.from({ length: n }, () => 0);
  const strides = intsAttr(c, 'strides') ?? ones;
  const dil = intsAttr(c, 'dilations') ?? ones;
  const pb = intsAttr(c, 'pads_begin') ?? zeros;
  const pe = intsAttr(c, 'pads_end') ?? zeros;
  const op = intsAttr(c, 'output_padding') ?? zeros;
  const mode = padMode(c);
  const dims = x.slice(2).map((d, i) => {
    const ki = k[i];
    if (!isStatic(d) || ki === undefined || !isStatic(ki)) return null;
    if (mode === 'same') return d * strides[i]!;
    const pads = mode === 'valid' ? 0 : pb[i]! + pe[i]!;
    return strides[i]! * (d - 1) + (ki - 1) * dil[i]! + 1 - pads + op[i]!;
  });
  return [out(c.elem(0), [x[0]!, cout, ...dims])];
};

/** Interpolate-1/4/11: target sizes from data, or floor((in + pads) · scale). */
const interpolate: InferFn = (c) => {
  const x = c.shape(0);
  if (x === null) return [out(c.elem(0), null)];
  const pb = intsAttr(c, 'pads_begin') ?? [];
  const pe = intsAttr(c, 'pads_end') ?? [];
  const padded = x.map((d, i) => addDims(addDims(d, pb[i] ?? 0, true), pe[i] ?? 0, true));
  let axes: number[] | null;
  let sizes: PartialValue | null = null;
  let scales: number[] | null = null;
  if (c.version < 4) {
    axes = intsAttr(c, 'axes') ?? null;
    sizes = c.value(1);
  } else {
    const mode = strAttr(c, 'shape_calculation_mode', 'sizes').toLowerCase();
    const axesInput = c.version >= 11 ? 2 : 3;
    axes = c.has(axesInput) ? c.ints(axesInput) : x.map((_, i) => i);
    const src = c.version >= 11 ? 1 : mode === 'sizes' ? 1 : 2;
    if (mode === 'sizes') sizes = c.value(src);
    else scales = floatsOf(c, src);
  }
  if (!axes) return [out(c.elem(0), x.map(() => null))];
  const dims = [...padded];
  axes.forEach((a, k) => {
    const n = normAxis(a, x.length);
    if (n === undefined) return;
    if (sizes) dims[n] = sizes[k] ?? null;
    else if (scales) { const d = padded[n]!; dims[n] = isStatic(d) ? Math.floor(d * scales[k]! + 1e-5) : null; }
    else dims[n] = null;
  });
  return [out(c.elem(0), dims)];
};

function floatsOf(c: RuleContext, i: number): number[] | null {
  const t = c.constant(i);
  if (!t) return null;
  if (t.elem === 'f32') return Array.from(new Float32Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength)));
  if (t.elem === 'f16') return null;
  return c.ints(i);
}

const gridSample: InferFn = (c) => {
  const x = c.shape(0);
  const g = c.shape(1);
  return [out(c.elem(0), [x?.[0] ?? g?.[0] ?? null, x?.[1] ?? null, g?.[1] ?? null, g?.[2] ?? null])];
};

const roiAlign: InferFn = (c) => [out(c.elem(0), [c.shape(1)?.[0] ?? null, c.shape(0)?.[1] ?? null, intAttr(c, 'pooled_h', 1), intAttr(c, 'pooled_w', 1)])];

/** ScaledDotProductAttention-13: query's shape with value's last dim (batch dims broadcast). */
const sdpa: InferFn = (c) => {
  const q = c.shape(0);
  const v = c.shape(2);
  if (q === null || q.length === 0) return [out(c.elem(0), null)];
  return [out(c.elem(0), [...q.slice(0, -1), v === null || v.length === 0 ? null : v[v.length - 1]!])];
};

/**
 * GatherElements-6: indices' shape; as OpenVINO validates it, data and indices have one rank and
 * equal dims except along axis (where both are known).
 */
const gatherElements: InferFn = (c) => {
  const [x, idx] = [c.shape(0), c.shape(1)];
  if (x && idx) {
    if (x.length !== idx.length) c.error(`data of rank ${x.length} and indices of rank ${idx.length} differ`);
    else {
      const axis = axisOr(c, intAttr(c, 'axis', 0), x.length);
      x.forEach((d, i) => {
        const e = idx[i]!;
        if (i !== axis && isStatic(d) && isStatic(e) && d !== e) c.error(`data dim ${i} (${d}) and indices dim ${i} (${e}) differ`);
      });
    }
  }
  return [out(c.elem(0), idx)];
};

/** BatchNormInference: the data's type; the per-channel operands checked against its channels. */
const BN_OPERANDS = ['gamma', 'beta', 'mean', 'variance'] as const;
const batchNorm = (data: number, perChannel: readonly number[]): InferFn => (c) => {
  checkBatchNormOperands(c, data, perChannel, BN_OPERANDS);
  return [out(c.elem(data), c.shape(data))];
};

export const ovNnRules: Rule[] = [
  { dialect: 'ov', op: 'ConvolutionBackpropData', since: 1, infer: convBackprop(false) },
  { dialect: 'ov', op: 'GroupConvolutionBackpropData', since: 1, infer: convBackprop(true) },
  { dialect: 'ov', op: 'Interpolate', since: 1, infer: interpolate },
  { dialect: 'ov', op: 'GridSample', since: 9, infer: gridSample },
  { dialect: 'ov', op: 'ROIAlign', since: 3, infer: roiAlign },
  { dialect: 'ov', op: 'ROIAlignRotated', since: 15, infer: roiAlign },
  { dialect: 'ov', op: 'FakeQuantize', since: 1, infer: (c) => [out(c.elem(0), c.shape(0))] },
  { dialect: 'ov', op: 'Reverse', since: 1, infer: (c) => [out(c.elem(0), c.shape(0))] },
  { dialect: 'ov', op: 'GroupNormalization', since: 12, infer: (c) => [out(c.elem(0), c.shape(0))] },
  { dialect: 'ov', op: 'ScaledDotProductAttention', since: 13, infer: sdpa },
  { dialect: 'ov', op: 'Convolution', since: 1, infer: convolution(false) },
  { dialect: 'ov', op: 'GroupConvolution', since: 1, infer: convolution(true) },
  ...family('ov', ['MaxPool', 'AvgPool'], 1, pool),
  // BatchNormInference-1 reads (gamma, beta, data, mean, variance); -5 (data, gamma, beta, mean, variance)
  { dialect: 'ov', op: 'BatchNormInference', since: 1, until: 4, infer: batchNorm(2, [0, 1, 3, 4]) },
  { dialect: 'ov', op: 'BatchNormInference', since: 5, infer: batchNorm(0, [1, 2, 3, 4]) },
  { dialect: 'ov', op: 'Pad', since: 1, infer: pad },
  { dialect: 'ov', op: 'TopK', since: 1, infer: topk },
  { dialect: 'ov', op: 'Slice', since: 8, infer: slice8 },
  { dialect: 'ov', op: 'Identity', since: 16, infer: sameAsInput },
  { dialect: 'ov', op: 'NonZero', since: 3, infer: nonZero },
  { dialect: 'ov', op: 'OneHot', since: 1, infer: oneHot },
  ...family('ov', ['DepthToSpace', 'SpaceToDepth'], 1, depthToSpace),
  ...family('ov', ['ScatterNDUpdate'], 3, (c) => [out(c.elem(0), c.shape(0))]),
  { dialect: 'ov', op: 'ScatterUpdate', since: 3, infer: (c) => [out(c.elem(0), c.shape(0), evaluateScatterUpdate(c))] },
  { dialect: 'ov', op: 'ScatterElementsUpdate', since: 3, infer: (c) => [out(c.elem(0), c.shape(0), evaluateScatterElements(c))] },
  { dialect: 'ov', op: 'GatherElements', since: 6, infer: gatherElements },
];
