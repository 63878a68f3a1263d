import { attrInt, attrString } from '../../../graph/attr-read.js';
import type { ElementTypeName } from '../../../graph/element-type.js';
import type { Dim, Shape } from '../../../graph/shape.js';
import { onnxBroadcast } from '../../broadcast.js';
import { out, type InferFn, type Rule, type RuleContext } from '../../rule.js';
import { broadcastOr, intAttr, intsAttr } from '../common.js';
import { concatShapes, matmulShape, reduceShape } from '../shared.js';
import { conv, pool } from './nn.js';

/**
 * onnxruntime's com.microsoft quantization contrib ops (docs/ContribOperators.md in onnxruntime),
 * each after its schema's inference function:
 * - QLinearAdd / QLinearMul: A and B broadcast (numpy), of A's type.
 * - QLinearSigmoid / QLinearLeakyRelu / QLinearSoftmax: X's type and shape.
 * - QLinearConcat(Y_scale, Y_zero_point, (X, X_scale, X_zero_point)…): the Xs concatenated along
 *   `axis`, of Y_zero_point's type.
 * - QLinearWhere(condition, X, …, Y, …, z_scale, z_zero_point): the three broadcast, of z_zero_point's type.
 * - QLinearReduceMean: ReduceMean's dims over axes and keepdims (both required), X's type.
 * - QLinearGlobalAveragePool: spatial dims 1 (channels_last: the dims between N and C).
 * - QLinearAveragePool: AveragePool's dims (channels_last: the channel dim last).
 * - QLinearConv: Conv's dims over X and w (channels_last alike), of y_zero_point's type.
 * - DynamicQuantizeMatMul(A, B, …) / MatMulIntegerToFloat(A, B, a_scale, …): MatMul's dims, of
 *   A's / a_scale's float type.
 * - QuantizeLinear / DequantizeLinear (com.microsoft): x's shape; y_zero_point's type (u8 without
 *   one) / the scale's type.
 * - QGemm(A, a_scale, a_zp, B, b_scale, b_zp, C?, y_scale?, y_zp?): Gemm's [M, N]; y_zero_point's
 *   type when given, else f32.
 * - MatMulNBits(A, B, scales, …): A's dims but the last, then N; A's type.
 * - DynamicQuantizeLSTM: LSTM's outputs, float.
 * - GatherBlockQuantized: Gather's dims over the unpacked data, of the scales' type.
 */
export const MS = 'com.microsoft';

/** The rule context with inputs renumbered: input i of the view is input `map[i]` of the node. */
function view(c: RuleContext, map: readonly number[], shapes: Partial<Record<number, Shape>> = {}): RuleContext {
  const at = (i: number): number => map[i] ?? -1;
  return Object.create(c, {
    numInputs: { value: map.length },
    has: { value: (i: number) => c.has(at(i)) },
    shape: { value: (i: number) => (i in shapes ? shapes[i]! : c.shape(at(i))) },
    elem: { value: (i: number) => c.elem(at(i)) },
    type: { value: (i: number) => c.type(at(i)) },
    tensor: { value: (i: number) => c.tensor(at(i)) },
    value: { value: () => null },
    ints: { value: (i: number) => c.ints(at(i)) },
    constant: { value: (i: number) => c.constant(at(i)) },
  }) as RuleContext;
}

const sameAsX: InferFn = (c) => [out(c.elem(0), c.shape(0))];

const binary: InferFn = (c) => [out(c.elem(0), broadcastOr(c, onnxBroadcast([c.shape(0), c.shape(3)])))];

const concat: InferFn = (c) => {
  if (c.numInputs < 5 || (c.numInputs - 2) % 3 !== 0) { c.error(`${c.numInputs} inputs: Y_scale, Y_zero_point and one or more (X, X_scale, X_zero_point) triples`); return [out(c.elem(1), null)]; }
  const shapes: Shape[] = [];
  for (let i = 2; i < c.numInputs; i += 3) shapes.push(c.shape(i));
  const axis = attrInt(c.node, 'axis');
  return [out(c.elem(1), axis === undefined ? null : concatShapes(c, shapes, Number(axis), false))];
};

const reduceMean: InferFn = (c) => {
  const axes = intsAttr(c, 'axes');
  const keep = attrInt(c.node, 'keepdims');
  if (!axes || keep === undefined) { c.error('attributes axes and keepdims are required'); return [out(c.elem(0), null)]; }
  return [out(c.elem(0), reduceShape(c, c.shape(0), axes, keep !== 0n, false))];
};

const channelsLast = (c: RuleContext): boolean => intAttr(c, 'channels_last', 0) !== 0;
/** [N, D1.., C] ⇄ [N, C, D1..]. */
const toFirst = (s: readonly Dim[]): Dim[] => [s[0]!, s[s.length - 1]!, ...s.slice(1, -1)];
const toLast = (s: readonly Dim[]): Dim[] => [s[0]!, ...s.slice(2), s[1]!];

const globalAveragePool: InferFn = (c) => {
  const x = c.shape(0);
  if (x === null) return [out(c.elem(0), null)];
  if (x.length < 3) { c.error(`X of rank ${x.length}: rank ≥ 3 is needed`); return [out(c.elem(0), null)]; }
  const last = channelsLast(c);
  return [out(c.elem(0), x.map((d, i) => (i === 0 || (last ? i === x.length - 1 : i === 1) ? d : 1)))];
};

const averagePool: InferFn = (c) => {
  const x = c.shape(0);
  const last = channelsLast(c) && x !== null && x.length >= 3;
  const r = pool(view(c, [0], last ? { 0: toFirst(x) } : {}))[0];
  const s = r?.type?.kind === 'tensor' ? r.type.shape : null;
  return [out(c.elem(0), last && s !== null ? toLast(s) : s)];
};

/** QLinearConv: Conv's dims over X and w (channels_last: X and Y channels last), of y_zero_point's type. */
const qlinearConv: InferFn = (c) => {
  const x = c.shape(0);
  const last = channelsLast(c) && x !== null && x.length >= 3;
  const r = conv(view(c, [0, 3], last ? { 0: toFirst(x) } : {}))[0];
  const s = r?.type?.kind === 'tensor' ? r.type.shape : null;
  return [out(c.elem(7), last && s !== null ? toLast(s) : s)];
};

const onnxPair = (x: Shape, y: Shape) => onnxBroadcast([x, y]);
const matmulTo = (elem: (c: RuleContext) => ElementTypeName): InferFn => (c) => [out(elem(c), matmulShape(c, c.shape(0), c.shape(1), false, false, onnxPair))];

const quantize: InferFn = (c) => [out(c.has(2) ? c.elem(2) : 'u8', c.shape(0))];
const dequantize: InferFn = (c) => [out(c.elem(1), c.shape(0))];

const qgemm: InferFn = (c) => {
  const elem: ElementTypeName = c.has(8) ? c.elem(8) : 'f32';
  const a = c.shape(0);
  const b = c.shape(3);
  if (a === null || b === null) return [out(elem, [null, null])];
  if (a.length !== 2 || b.length !== 2) { c.error('QGemm operands A and B must be 2-D'); return [out(elem, [null, null])]; }
  const ta = intAttr(c, 'transA', 0) !== 0;
  const tb = intAttr(c, 'transB', 0) !== 0;
  const k1 = ta ? a[0]! : a[1]!;
  const k2 = tb ? b[1]! : b[0]!;
  if (typeof k1 === 'number' && typeof k2 === 'number' && k1 !== k2) c.error(`inner dimensions differ: ${k1} and ${k2}`);
  return [out(elem, [ta ? a[1]! : a[0]!, tb ? b[0]! : b[1]!])];
};

const matmulNBits: InferFn = (c) => {
  const a = c.shape(0);
  const n = attrInt(c.node, 'N');
  if (n === undefined) { c.error('attribute N is required'); return [out(c.elem(0), null)]; }
  if (a === null) return [out(c.elem(0), null)];
  if (a.length < 1) { c.error('A must not be a scalar'); return [out(c.elem(0), null)]; }
  return [out(c.elem(0), [...a.slice(0, -1), Number(n)])];
};

/** DynamicQuantizeLSTM: Y [S, dirs, batch, H], Y_h and Y_c [dirs, batch, H] (H: hidden_size, else R's dim 1). */
const dynamicQuantizeLstm: InferFn = (c) => {
  const x = c.shape(0);
  const r = c.shape(2);
  const dirs = attrString(c.node, 'direction') === 'bidirectional' ? 2 : 1;
  const hs = attrInt(c.node, 'hidden_size');
  const h: Dim = hs !== undefined ? Number(hs) : r !== null && r.length === 3 ? r[1]! : null;
  const s: Dim = x !== null && x.length === 3 ? x[0]! : null;
  const n: Dim = x !== null && x.length === 3 ? x[1]! : null;
  return c.node.outputs.map((_, i) => out('f32', i === 0 ? [s, dirs, n, h] : [dirs, n, h]));
};

/** GatherBlockQuantized: Gather's dims over the unpacked data (uint8: bits per value, packed along the last dim), of the scales' type. */
const gatherBlockQuantized: InferFn = (c) => {
  const data = c.shape(0);
  const idx = c.shape(1);
  const elem = c.elem(2);
  if (data === null || idx === null) return [out(elem, null)];
  const r = data.length;
  const bits = Number(attrInt(c.node, 'bits') ?? 4n);
  const per = c.elem(0) === 'u8' && [2, 4, 8].includes(bits) ? 8 / bits : 1;
  const last = data[r - 1];
  const dims: Dim[] = [...data.slice(0, -1), typeof last === 'number' ? last * per : null];
  const a = Number(attrInt(c.node, 'gather_axis') ?? 0n);
  const ga = a < 0 ? a + r : a;
  if (ga < 0 || ga >= r) { c.error(`gather_axis ${a} out of range for data of rank ${r}`); return [out(elem, null)]; }
  return [out(elem, [...dims.slice(0, ga), ...idx, ...dims.slice(ga + 1)])];
};

const rule = (op: string, infer: InferFn): Rule => ({ dialect: 'onnx', domain: MS, op, since: 1, infer });

export const onnxMsQuantRules: Rule[] = [
  rule('QLinearAdd', binary),
  rule('QLinearMul', binary),
  rule('QLinearSigmoid', sameAsX),
  rule('QLinearLeakyRelu', sameAsX),
  rule('QLinearSoftmax', sameAsX),
  rule('QLinearReduceMean', reduceMean),
  rule('QLinearConcat', concat),
  rule('QLinearWhere', (c) => [out(c.elem(8), broadcastOr(c, onnxBroadcast([c.shape(0), c.shape(1), c.shape(4)])))]),
  rule('QLinearGlobalAveragePool', globalAveragePool),
  rule('QLinearAveragePool', averagePool),
  rule('QLinearConv', qlinearConv),
  rule('DynamicQuantizeMatMul', matmulTo((c) => c.elem(0))),
  rule('MatMulIntegerToFloat', matmulTo((c) => c.elem(2))),
  rule('QuantizeLinear', quantize),
  rule('DequantizeLinear', dequantize),
  rule('QGemm', qgemm),
  rule('MatMulNBits', matmulNBits),
  rule('DynamicQuantizeLSTM', dynamicQuantizeLstm),
  rule('GatherBlockQuantized', gatherBlockQuantized),
];
