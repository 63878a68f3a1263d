import { attrInt, attrString } from '../../../graph/attr-read.js';
import { fromOnnxDataType, type ElementTypeName } from '../../../graph/element-type.js';
import { isStatic, type Dim } from '../../../graph/shape.js';
import { mulDims, normAxis } from '../../dim.js';
import { out, type InferFn, type Rule, type RuleContext } from '../../rule.js';
import { family, intAttr, intsAttr } from '../common.js';
import { scalarOf } from '../shared.js';

/**
 * More ONNX ops, each after onnx's inference function: quantization, ConvTranspose, recurrent
 * layers (LSTM, GRU, RNN), losses, GridSample, RoiAlign, Compress, Det, window functions.
 */
const typeAttr = (c: RuleContext, name: string, fallback: ElementTypeName): ElementTypeName => {
  const v = attrInt(c.node, name);
  return v === undefined || v === 0n ? fallback : fromOnnxDataType(Number(v))?.name ?? fallback;
};

/** QuantizeLinear: x's shape; type from y_zero_point, else output_dtype (21+), else uint8. */
const quantize: InferFn = (c) => [out(c.has(2) ? c.elem(2) : typeAttr(c, 'output_dtype', 'u8'), c.shape(0))];
/** DequantizeLinear: x's shape; type of x_scale (23+: output_dtype when given). */
const dequantize: InferFn = (c) => [out(typeAttr(c, 'output_dtype', c.elem(1)), c.shape(0))];
const dynamicQuantize: InferFn = (c) => [out('u8', c.shape(0)), out('f32', []), out('u8', [])];

/** ConvTranspose: output_shape when given, else s·(in-1) + output_padding + (k-1)·d + 1 - pads. */
const convTranspose: InferFn = (c) => {
  const x = c.shape(0);
  const w = c.shape(1);
  if (x === null) return [out(c.elem(0), null)];
  const n = x.length - 2;
  const group = intAttr(c, 'group', 1);
  const cout = w === null ? null : mulDims(w[1]!, group, false);
  const explicit = intsAttr(c, 'output_shape');
  if (explicit) return [out(c.elem(0), [x[0]!, cout, ...explicit.slice(-n)])];
  const kernel = intsAttr(c, 'kernel_shape') ?? (w ? w.slice(2) : []);
  const ones = Array.from({ length: n }, () => 1);
  const strides = intsAttr(c, 'strides') ?? ones;
  const dil = intsAttr(c, 'dilations') ?? ones;
  const pads = intsAttr(c, 'pads') ?? Array.from({ length: 2 * n }, () => 0);
  const outPad = intsAttr(c, 'output_padding') ?? Array.from({ length: n }, () => 0);
  const auto = (attrString(c.node, 'auto_pad') ?? 'NOTSET').toUpperCase();
  const dims = x.slice(2).map((d, i): Dim => {
    const k = kernel[i];
    if (!isStatic(d) || k === undefined || !isStatic(k)) return null;
    if (auto === 'SAME_UPPER' || auto === 'SAME_LOWER') return d * strides[i]!;
    const p = auto === 'VALID' ? 0 : pads[i]! + pads[i + n]!;
    return strides[i]! * (d - 1) + outPad[i]! + (k - 1) * dil[i]! + 1 - p;
  });
  return [out(c.elem(0), [x[0]!, cout, ...dims])];
};

/** LSTM/GRU/RNN: Y [seq, dirs, batch, hidden] and Y_h/Y_c [dirs, batch, hidden]; layout=1 puts batch first. */
const recurrent: InferFn = (c) => {
  const x = c.shape(0);
  const layout = intAttr(c, 'layout', 0);
  const hidden: Dim = attrInt(c.node, 'hidden_size') === undefined ? null : Number(attrInt(c.node, 'hidden_size'));
  const dirs = (attrString(c.node, 'direction') ?? 'forward') === 'bidirectional' ? 2 : 1;
  const seq = x === null ? null : layout === 0 ? x[0]! : x[1]!;
  const batch = x === null ? null : layout === 0 ? x[1]! : x[0]!;
  const elem = c.elem(0);
  const y = out(elem, layout === 0 ? [seq, dirs, batch, hidden] : [batch, seq, dirs, hidden]);
  const state = out(elem, layout === 0 ? [dirs, batch, hidden] : [batch, dirs, hidden]);
  return c.node.outputs.map((_, i) => (i === 0 ? y : state));
};

/** NegativeLogLikelihoodLoss: reduction none → target's shape, else a scalar. */
const nll: InferFn = (c) => [out(c.elem(0), (attrString(c.node, 'reduction') ?? 'mean') === 'none' ? c.shape(1) : [])];
/** SoftmaxCrossEntropyLoss: loss like NLL; log_prob has the scores' shape. */
const sce: InferFn = (c) => [nll(c)[0]!, out(c.elem(0), c.shape(0))];

const gridSample: InferFn = (c) => {
  const x = c.shape(0);
  const g = c.shape(1);
  if (g === null) return [out(c.elem(0), x === null ? null : x.map(() => null))];
  return [out(c.elem(0), [x?.[0] ?? g[0]!, x?.[1] ?? null, ...g.slice(1, -1)])];
};

const roiAlign: InferFn = (c) => [out(c.elem(0), [c.shape(1)?.[0] ?? null, c.shape(0)?.[1] ?? null, intAttr(c, 'output_height', 1), intAttr(c, 'output_width', 1)])];

/** MaxRoiPool-1: [num_rois, C, pooled_shape[0], pooled_shape[1]]. */
const maxRoiPool: InferFn = (c) => {
  const p = intsAttr(c, 'pooled_shape');
  return [out(c.elem(0), [c.shape(1)?.[0] ?? null, c.shape(0)?.[1] ?? null, p?.[0] ?? null, p?.[1] ?? null])];
};

const compress: InferFn = (c) => {
  const x = c.shape(0);
  const axis = attrInt(c.node, 'axis');
  if (axis === undefined) return [out(c.elem(0), [null])];
  if (x === null) return [out(c.elem(0), null)];
  const a = normAxis(Number(axis), x.length);
  return [out(c.elem(0), x.map((d, i) => (i === a ? null : d)))];
};

const det: InferFn = (c) => {
  const x = c.shape(0);
  return [out(c.elem(0), x === null ? null : x.slice(0, -2))];
};

const windowFn: InferFn = (c) => {
  const n = scalarOf(c, 0);
  return [out(typeAttr(c, 'output_datatype', 'f32'), [n === null ? null : n])];
};

export const onnxMoreRules: Rule[] = [
  { dialect: 'onnx', op: 'QuantizeLinear', since: 10, infer: quantize },
  { dialect: 'onnx', op: 'DequantizeLinear', since: 10, infer: dequantize },
  { dialect: 'onnx', op: 'DynamicQuantizeLinear', since: 11, infer: dynamicQuantize },
  { dialect: 'onnx', op: 'ConvTranspose', since: 1, infer: convTranspose },
  ...family('onnx', ['LSTM', 'GRU', 'RNN'], 1, recurrent),
  { dialect: 'onnx', op: 'NegativeLogLikelihoodLoss', since: 12, infer: nll },
  { dialect: 'onnx', op: 'SoftmaxCrossEntropyLoss', since: 12, infer: sce },
  { dialect: 'onnx', op: 'GridSample', since: 16, infer: gridSample },
  { dialect: 'onnx', op: 'RoiAlign', since: 10, infer: roiAlign },
  { dialect: 'onnx', op: 'MaxRoiPool', since: 1, infer: maxRoiPool },
  { dialect: 'onnx', op: 'Compress', since: 9, infer: compress },
  { dialect: 'onnx', op: 'Det', since: 11, infer: det },
  ...family('onnx', ['BlackmanWindow', 'HammingWindow', 'HannWindow'], 17, windowFn),
];
