import { attrString } from '../../../graph/attr-read.js';
import { isStatic, type Dim, type Shape } from '../../../graph/shape.js';
import { addDims, normAxis } from '../../dim.js';
import { out, type InferFn, type Rule, type RuleContext } from '../../rule.js';
import { axisOr, family, intAttr, intsAttr, shapeFromInput } from '../common.js';
import { windowDim, type PadMode } from '../window.js';
import { scalarOf } from '../shared.js';

/**
 * ONNX neural-network ops (onnx/defs/nn): Conv, pooling (MaxPool, AveragePool, LpPool, global
 * pools), normalisations, Pad, TopK, OneHot, NonZero, DepthToSpace/SpaceToDepth, Resize.
 */

function padMode(c: RuleContext): PadMode | 'same_lower' {
  const a = (attrString(c.node, 'auto_pad') ?? 'NOTSET').toUpperCase();
  if (a === 'SAME_UPPER' || a === 'SAME_LOWER') return 'same';
  if (a === 'VALID') return 'valid';
  return 'explicit';
}

/**
 * Spatial output dims of a conv/pool over input x with kernel sizes `kernel`. With ceil_mode, from
 * opset 22 a last window that would start in the end padding is dropped (onnx 1.23: MaxPool-22 and
 * AveragePool-22 give 1 where -21 give 2 for the test_*_ceil_last_window_starts_on_pad cases).
 */
function spatial(c: RuleContext, x: readonly Dim[], kernel: readonly number[], ceil: boolean): Dim[] {
  const n = x.length - 2;
  const strides = intsAttr(c, 'strides') ?? Array.from({ length: n }, () => 1);
  const dil = intsAttr(c, 'dilations') ?? Array.from({ length: n }, () => 1);
  const pads = intsAttr(c, 'pads') ?? Array.from({ length: 2 * n }, () => 0);
  const mode = padMode(c) as PadMode;
  if (kernel.length !== n) c.error(`kernel has ${kernel.length} dims for ${n} spatial dims`);
  return x.slice(2).map((d, i) => windowDim(d, {
    kernel: kernel[i] ?? 1, stride: strides[i] ?? 1, dilation: dil[i] ?? 1, padBegin: pads[i] ?? 0, padEnd: pads[i + n] ?? 0,
    mode, ceil, dropPaddedLast: c.version >= 22,
  }));
}

/** onnx's check of a kernel_shape attribute (convPoolShapeInference): every value positive. Whether it reported. */
function kernelProblems(c: RuleContext, kernel: readonly number[]): boolean {
  if (kernel.every((k) => k > 0)) return false;
  c.error(`kernel_shape ${JSON.stringify(kernel)} must only contain positive values`);
  return true;
}

export const conv: InferFn = (c) => {
  const x = c.shape(0);
  const w = c.shape(1);
  if (x === null) return [out(c.elem(0), null)];
  if (x.length < 3) { c.error(`input of rank ${x.length}: rank ≥ 3 is needed (batch, channels, then one dim per spatial dim)`); return [out(c.elem(0), null)]; }
  // groups, as onnxruntime checks them: a positive count dividing W's output channels (the input
  // channels against W's × group: the IR's Convolution rule says it, after conversion)
  const group = intAttr(c, 'group', 1);
  if (!(group >= 1)) { c.error(`group ${group} is not a positive count`); return [out(c.elem(0), null)]; }
  if (w !== null && isStatic(w[0]!) && w[0]! % group !== 0) { c.error(`W's ${w[0]} output channels are not divisible by group ${group}`); return [out(c.elem(0), null)]; }
  let kernel = intsAttr(c, 'kernel_shape');
  if (kernel && !kernelProblems(c, kernel)) {
    // onnxruntime refuses a kernel_shape other than W's spatial dims (the IR reads W's)
    const ws = w?.slice(2);
    if (ws && (ws.length !== kernel.length || ws.some((d, i) => isStatic(d) && d !== kernel![i]))) c.error(`kernel_shape ${JSON.stringify(kernel)} is not W's spatial dims [${ws.map((d) => (isStatic(d) ? d : '?')).join(',')}]`);
  }
  if (!kernel) {
    if (w === null || !w.slice(2).every(isStatic)) return [out(c.elem(0), [x[0]!, w?.[0] ?? null, ...x.slice(2).map(() => null)])];
    kernel = w.slice(2) as number[];
  }
  return [out(c.elem(0), [x[0]!, w?.[0] ?? null, ...spatial(c, x, kernel, false)])];
};

export const pool: InferFn = (c) => {
  const x = c.shape(0);
  const kernel = intsAttr(c, 'kernel_shape');
  if (kernel) kernelProblems(c, kernel);
  if (x === null || !kernel) return c.node.outputs.map((_, i) => out(i === 1 ? 'i64' : c.elem(0), null));
  if (x.length < 3) { c.error(`input of rank ${x.length}: rank ≥ 3 is needed (batch, channels, then one dim per spatial dim)`); return []; }
  const ceil = intAttr(c, 'ceil_mode', 0) !== 0;
  const shape: Shape = [x[0]!, x[1]!, ...spatial(c, x, kernel, ceil)];
  return c.node.outputs.map((_, i) => out(i === 1 ? 'i64' : c.elem(0), shape));
};

const globalPool: InferFn = (c) => {
  const x = c.shape(0);
  return [out(c.elem(0), x === null ? null : x.map((d, i) => (i < 2 ? d : 1)))];
};

const batchNorm: InferFn = (c) => {
  const outs = [out(c.elem(0), c.shape(0))];
  const ch = c.shape(0)?.[1] ?? null;
  for (let i = 1; i < c.node.outputs.length; i++) outs.push(out(c.elem(1), [ch]));
  return outs;
};

const layerNorm: InferFn = (c) => {
  const x = c.shape(0);
  const outs = [out(c.elem(0), x)];
  if (c.node.outputs.length > 1) {
    const axis = intAttr(c, 'axis', -1);
    const a = x === null ? undefined : normAxis(axis, x.length);
    const stat = x === null || a === undefined ? null : x.map((d, i) => (i < a ? d : 1));
    const elem = c.version >= 17 ? 'f32' : c.elem(0);
    for (let i = 1; i < c.node.outputs.length; i++) outs.push(out(elem, stat));
  }
  return outs;
};

/** Pad-2 (attribute pads), 11/13/18/19/21 (pads input; 18: axes input). */
const pad: InferFn = (c) => {
  const x = c.shape(0);
  if (x === null) return [out(c.elem(0), null)];
  const pads = c.version < 11 ? intsAttr(c, 'pads') ?? null : c.ints(1);
  if (!pads) return [out(c.elem(0), x.map(() => null))];
  let axes = x.map((_, i) => i);
  if (c.version >= 18 && c.has(3)) {
    const a = c.ints(3);
    if (!a) return [out(c.elem(0), x.map(() => null))];
    axes = a.map((v) => normAxis(v, x.length) ?? -1);
  }
  const n = axes.length;
  if (pads.length !== 2 * n) { c.error(`pads has ${pads.length} values for ${n} axes`); return [out(c.elem(0), x.map(() => null))]; }
  const dims = [...x];
  axes.forEach((a, i) => { if (a >= 0) dims[a] = addDims(addDims(x[a]!, pads[i]!, false), pads[i + n]!, false); });
  return [out(c.elem(0), dims)];
};

const topk: InferFn = (c) => {
  const x = c.shape(0);
  const k = c.version >= 10 ? (c.ints(1)?.[0] ?? null) : intAttr(c, 'k', -1);
  if (x === null) return [out(c.elem(0), null), out('i64', null)];
  const axis = axisOr(c, intAttr(c, 'axis', -1), x.length);
  const dims = x.map((d, i) => (i === axis ? (k !== null && k >= 0 ? k : null) : d));
  return [out(c.elem(0), dims), out('i64', dims)];
};

const oneHot: InferFn = (c) => {
  const idx = c.shape(0);
  if (idx === null) return [out(c.elem(2), null)];
  const depth = scalarOf(c, 1);
  const axis = intAttr(c, 'axis', -1);
  const rank = idx.length + 1;
  const a = normAxis(axis, rank);
  if (a === undefined) { c.error(`axis ${axis} out of range`); return [out(c.elem(2), null)]; }
  const dims = [...idx];
  dims.splice(a, 0, depth === null ? null : Math.trunc(depth));
  return [out(c.elem(2), dims)];
};

const nonZero: InferFn = (c) => {
  const x = c.shape(0);
  return [out('i64', [x === null ? null : x.length, null])];
};

const depthToSpace: InferFn = (c) => {
  const x = c.shape(0);
  const b = intAttr(c, 'blocksize', 1);
  if (x === null || x.length !== 4) return [out(c.elem(0), x === null ? null : [null, null, null, null])];
  const toSpace = c.node.op === 'DepthToSpace';
  const ch = x[1]!;
  const cOut = isStatic(ch) ? (toSpace ? ch / (b * b) : ch * b * b) : null;
  const sp = (d: Dim) => (isStatic(d) ? (toSpace ? d * b : d / b) : null);
  return [out(c.elem(0), [x[0]!, cOut, sp(x[2]!), sp(x[3]!)])];
};

/** f32 constant data of input `i`, or null. */
function f32Const(c: RuleContext, i: number): Float32Array | null {
  const t = c.has(i) ? c.constant(i) : null;
  if (!t || t.elem !== 'f32' || t.dims.length !== 1) return null;
  return new Float32Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength));
}

/**
 * Resize-11+: `sizes` when given (18+: scaled by one common factor under keep_aspect_ratio_policy
 * not_larger / not_smaller), else floor(in · scale) from constant scales; 18+: over `axes`.
 */
const resize: InferFn = (c) => {
  const x = c.shape(0);
  if (x === null) return [out(c.elem(0), null)];
  const axes = (intsAttr(c, 'axes') ?? x.map((_, i) => i)).map((a) => normAxis(a, x.length));
  const sized = c.has(3) && !(c.shape(3)?.[0] === 0);
  if (sized) {
    const s = shapeFromInput(c, 3);
    if (!s || s.dims.length !== axes.length) return [out(c.elem(0), x.map(() => null))];
    const dims: Dim[] = [...x];
    const keep = attrString(c.node, 'keep_aspect_ratio_policy') ?? 'stretch';
    if (keep === 'not_larger' || keep === 'not_smaller') {
      // one scale for every resized axis: the least / greatest of sizes[i] / in[i]; sizes round half up
      const ins = axes.map((a) => x[a!]);
      const sz = s.dims;
      if (!ins.every(isStatic) || !sz.every(isStatic)) { axes.forEach((a) => { dims[a!] = null; }); return [out(c.elem(0), dims)]; }
      const ratios = ins.map((d, k) => (sz[k] as number) / (d as number));
      const scale = keep === 'not_larger' ? Math.min(...ratios) : Math.max(...ratios);
      axes.forEach((a, k) => { dims[a!] = Math.floor((ins[k] as number) * scale + 0.5); });
      return [out(c.elem(0), dims)];
    }
    axes.forEach((a, k) => { if (a !== undefined) dims[a] = s.dims[k] ?? null; });
    return [out(c.elem(0), dims)];
  }
  const scales = f32Const(c, 2);
  if (!scales || scales.length !== axes.length) return [out(c.elem(0), x.map(() => null))];
  const dims: Dim[] = [...x];
  axes.forEach((a, k) => { if (a !== undefined) { const d = x[a]!; dims[a] = isStatic(d) ? Math.floor(d * scales[k]!) : null; } });
  return [out(c.elem(0), dims)];
};

/** Upsample-7 (scales attribute), Upsample-9 and Resize-10 (scales input): floor(in · scale). */
const upsample: InferFn = (c) => {
  const x = c.shape(0);
  if (x === null) return [out(c.elem(0), null)];
  const attr = c.node.attrs.get('scales');
  const scales = attr?.type === 'floats' ? attr.value : f32Const(c, 1);
  if (!scales || scales.length !== x.length) return [out(c.elem(0), x.map(() => null))];
  return [out(c.elem(0), x.map((d, i) => (isStatic(d) ? Math.floor(d * scales[i]!) : null)))];
};

const gatherElements: InferFn = (c) => [out(c.elem(0), c.shape(1))];

export const gatherNd: InferFn = (c) => {
  const data = c.shape(0);
  const idx = c.shape(1);
  const batch = intAttr(c, 'batch_dims', 0);
  if (data === null || idx === null || idx.length === 0) return [out(c.elem(0), null)];
  const last = idx[idx.length - 1]!;
  if (!isStatic(last)) return [out(c.elem(0), null)];
  return [out(c.elem(0), [...idx.slice(0, -1), ...data.slice(batch + last)])];
};

export const onnxNnRules: Rule[] = [
  { dialect: 'onnx', op: 'Conv', since: 1, infer: conv },
  ...family('onnx', ['MaxPool', 'AveragePool', 'LpPool'], 1, pool),
  ...family('onnx', ['GlobalAveragePool', 'GlobalMaxPool', 'GlobalLpPool'], 1, globalPool),
  { dialect: 'onnx', op: 'BatchNormalization', since: 1, infer: batchNorm },
  { dialect: 'onnx', op: 'LayerNormalization', since: 17, infer: layerNorm },
  ...family('onnx', ['GroupNormalization', 'RMSNormalization'], 18, (c) => [out(c.elem(0), c.shape(0))]),
  { dialect: 'onnx', op: 'Pad', since: 2, infer: pad },
  { dialect: 'onnx', op: 'TopK', since: 1, infer: topk },
  { dialect: 'onnx', op: 'OneHot', since: 9, infer: oneHot },
  { dialect: 'onnx', op: 'NonZero', since: 9, infer: nonZero },
  ...family('onnx', ['DepthToSpace', 'SpaceToDepth'], 1, depthToSpace),
  { dialect: 'onnx', op: 'Resize', since: 11, infer: resize },
  { dialect: 'onnx', op: 'Resize', since: 10, until: 10, infer: upsample },
  { dialect: 'onnx', op: 'Upsample', since: 7, infer: upsample },
  { dialect: 'onnx', op: 'GatherElements', since: 11, infer: gatherElements },
  { dialect: 'onnx', op: 'GatherND', since: 11, infer: gatherNd },
  ...family('onnx', ['ScatterElements', 'ScatterND', 'Scatter'], 9, (c) => [out(c.elem(0), c.shape(0))]),
];
