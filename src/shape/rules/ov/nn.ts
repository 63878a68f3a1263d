import { attrString } from '../../../graph/attr-read.js';
import { interval, isStatic, type Dim } from '../../../graph/shape.js';
import { addDims, dimRange, mulDims, normAxis, sliceDim } from '../../dim.js';
import { out, type InferFn, type PartialValue, type Rule, type RuleContext } from '../../rule.js';
import { axisOr, family, intAttr, intsAttr, sameAsInput, strAttr } from '../common.js';
import { windowDim, type PadMode } from '../window.js';
import { fromIrElementType } from '../../../graph/element-type.js';

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
  const cout = w === null ? null : group ? mulDims(w[0]!, w[1]!, true) : w[0]!;
  if (w === null || !w.slice(2 + off).every(isStatic)) return [out(c.elem(0), [x[0]!, cout, ...x.slice(2).map(() => null)])];
  return [out(c.elem(0), [x[0]!, cout, ...spatial(c, x, w.slice(2 + off) as number[], 'floor')])];
};

const pool: InferFn = (c) => {
  const x = c.shape(0);
  const kernel = intsAttr(c, 'kernel');
  const idxElem = fromIrElementType(strAttr(c, 'index_element_type', 'i64'))?.name ?? 'i64';
  if (x === null || !kernel) return c.node.outputs.map((_, i) => out(i === 1 ? idxElem : c.elem(0), null));
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
    if (k === null) return null;
    if (isStatic(d)) return Math.min(d, k);
    // OpenVINO gives k for a dynamic dim (checked: 2..10 and ? with k=5 give 5)
    const [lo, hi] = dimRange(d);
    return hi < k ? interval(lo, hi) : k;
  });
  return [out(c.elem(0), dims), out(idxElem, dims)];
};

/** Slice-8: start, stop, step, axes (optional) inputs. */
const slice8: InferFn = (c) => {
  const x = c.shape(0);
  if (x === null) return [out(c.elem(0), null)];
  const start = c.ints(1);
  const stop = c.ints(2);
  const step = c.ints(3);
  const axes = c.has(4) ? c.ints(4) : start?.map((_, i) => i) ?? null;
  if (!start || !stop || !step || !axes) return [out(c.elem(0), x.map(() => null))];
  const dims = [...x];
  axes.forEach((a, k) => {
    const n = normAxis(a, x.length);
    if (n === undefined) { c.error(`axis ${a} out of range`); return; }
    dims[n] = sliceDim(start[k]!, stop[k]!, step[k]!, x[n]!, true);
  });
  let value: PartialValue | null = null;
  const v = c.value(0);
  if (v && x.length === 1 && axes.length === 1) {
    const len = v.length;
    const st = step[0]!;
    const norm = (y0: number) => { const y = y0 < 0 ? y0 + len : y0; return st > 0 ? Math.min(Math.max(y, 0), len) : Math.min(Math.max(y, -1), len - 1); };
    const picked: Dim[] = [];
    for (let i = norm(start[0]!); st > 0 ? i < norm(stop[0]!) : i > norm(stop[0]!); i += st) picked.push(v[i]!);
    value = picked;
  }
  return [out(c.elem(0), dims, value)];
};

const nonZero: InferFn = (c) => {
  const x = c.shape(0);
  const elem = fromIrElementType(strAttr(c, 'output_type', 'i64'))?.name ?? 'i64';
  return [out(elem, [x === null ? null : x.length, null])];
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

export const ovNnRules: Rule[] = [
  { dialect: 'ov', op: 'Convolution', since: 1, infer: convolution(false) },
  { dialect: 'ov', op: 'GroupConvolution', since: 1, infer: convolution(true) },
  ...family('ov', ['MaxPool', 'AvgPool'], 1, pool),
  ...family('ov', ['BatchNormInference'], 1, (c) => [out(c.elem(0), c.shape(0))]),
  { dialect: 'ov', op: 'Pad', since: 1, infer: pad },
  { dialect: 'ov', op: 'TopK', since: 1, infer: topk },
  { dialect: 'ov', op: 'Slice', since: 8, infer: slice8 },
  { dialect: 'ov', op: 'Identity', since: 16, infer: sameAsInput },
  { dialect: 'ov', op: 'NonZero', since: 3, infer: nonZero },
  { dialect: 'ov', op: 'OneHot', since: 1, infer: oneHot },
  ...family('ov', ['DepthToSpace', 'SpaceToDepth'], 1, depthToSpace),
  ...family('ov', ['ScatterUpdate', 'ScatterElementsUpdate', 'ScatterNDUpdate'], 3, (c) => [out(c.elem(0), c.shape(0))]),
  { dialect: 'ov', op: 'GatherElements', since: 6, infer: (c) => [out(c.elem(0), c.shape(1))] },
];
