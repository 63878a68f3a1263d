import { elementType, type ElementTypeName } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, normAxis } from '../helpers.js';
import { irBuilder, type IrBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * onnxruntime's layer normalizations of transformer models (docs/ContribOperators.md), over the
 * last axis (SimplifiedLayerNormalization: [axis, rank)), written in IR ops:
 *   SkipLayerNormalization(input, skip, gamma, beta?, bias?): s = input + skip (+ bias);
 *     output = MVN(s) · gamma (+ beta); mean, inv_std_var = 1/√(Var(s) + epsilon) (dims kept);
 *     input_skip_bias_sum = s. epsilon defaults to 1e-12, as onnxruntime's schema has it.
 *   SkipSimplifiedLayerNormalization(input, skip, gamma, bias?): s as above;
 *     output = s / √(mean(s²) + epsilon) · gamma; inv_std_var; input_skip_bias_sum. Its `mean`
 *     output onnxruntime never writes (an unwritten buffer): refused when something reads it.
 *   SimplifiedLayerNormalization(X, scale) — onnxruntime registers it in the ONNX domain (''),
 *     not com.microsoft (OpenVINO's frontend first registered it under com.microsoft, where
 *     onnxruntime has no such op, and moved it to the ONNX domain): Y = X / √(mean(X², [axis, rank)) + epsilon) · scale computed in f32, as
 *     onnxruntime's CPU kernel computes it whatever stash_type says; inv_std_var (f32).
 */
const MS = 'com.microsoft';

const isWanted = (c: ConvertContext, i: number): boolean => {
  const o = c.node.outputs[i];
  return !!o && (o.uses.length > 0 || o.graph.outputs.includes(o));
};
const present = (c: ConvertContext, i: number): boolean => c.numInputs > i && c.input(i) !== null;

function floatElem(c: ConvertContext): ElementTypeName | null {
  const elem = c.elem(0);
  if (elem === null) { c.error(`${c.node.op} needs the element type of its input`); return null; }
  if (elementType(elem).kind !== 'float') { c.error(`${c.node.op} of ${elem} values: onnxruntime defines it on float types only`); return null; }
  return elem;
}

/** input + skip (+ bias at input `biasIndex`). */
function skipSum(c: ConvertContext, b: IrBuilder, biasIndex: number): Value {
  const s = b.add(c.input(0)!, c.input(1)!);
  return present(c, biasIndex) ? b.add(s, c.input(biasIndex)!) : s;
}

/** 1 / √(m + epsilon), m a mean over the normalized axes. */
const invRoot = (b: IrBuilder, elem: ElementTypeName, m: Value, eps: number): Value =>
  b.div(b.scalar(elem, 1), b.unary('Sqrt', b.add(m, b.scalar(elem, eps))));

/** A statistic output as onnxruntime types it: float (U) whatever the input's type. */
const asF32 = (b: IrBuilder, elem: ElementTypeName, v: Value): Value => (elem === 'f32' ? v : b.convert(v, 'f32'));

/** Outputs from 1 on: set where wanted (by `make`), else unused. */
function optionalOutputs(c: ConvertContext, make: Record<number, () => Value | null>): void {
  for (let i = 1; i < c.node.outputs.length; i++) {
    if (!isWanted(c, i)) { c.unused(i); continue; }
    const v = make[i]?.();
    if (v) c.output(i, v);
  }
}

function skipLayerNormToIr(c: ConvertContext): void {
  const elem = floatElem(c);
  if (!elem) return;
  const b = irBuilder(c);
  const eps = c.attr.float('epsilon', 1e-12);
  const s = skipSum(c, b, 4);
  const last = i64Const(c, [-1n]);
  let y = c.emit('MVN', [s, last], { normalize_variance: 'true', eps: String(eps), eps_mode: 'inside_sqrt' }, 1, 'opset6')[0]!;
  y = b.mul(y, c.input(2)!);
  if (present(c, 3)) y = b.add(y, c.input(3)!);
  c.output(0, y);
  let mean: Value | null = null;
  const meanOf = (): Value => (mean ??= c.emit('ReduceMean', [s, last], { keep_dims: 'true' }, 1, 'opset1')[0]!);
  optionalOutputs(c, {
    1: () => asF32(b, elem, meanOf()),
    2: () => {
      const d = b.sub(s, meanOf());
      return asF32(b, elem, invRoot(b, elem, c.emit('ReduceMean', [b.mul(d, d), last], { keep_dims: 'true' }, 1, 'opset1')[0]!, eps));
    },
    3: () => s,
  });
}

function skipSimplifiedToIr(c: ConvertContext): void {
  const elem = floatElem(c);
  if (!elem) return;
  const b = irBuilder(c);
  const eps = c.attr.float('epsilon', 1e-12);
  const s = skipSum(c, b, 3);
  const inv = invRoot(b, elem, c.emit('ReduceMean', [b.mul(s, s), i64Const(c, [-1n])], { keep_dims: 'true' }, 1, 'opset1')[0]!, eps);
  c.output(0, b.mul(b.mul(s, inv), c.input(2)!));
  optionalOutputs(c, {
    1: () => { c.error('output 1 (mean) is read, but onnxruntime never computes it for SkipSimplifiedLayerNormalization (it leaves the buffer unwritten): it has no value to convert'); return null; },
    2: () => asF32(b, elem, inv),
    3: () => s,
  });
}

function simplifiedToIr(c: ConvertContext): void {
  const elem = floatElem(c);
  if (!elem) return;
  const r = c.rank(0);
  if (r === null) { c.error('SimplifiedLayerNormalization needs the rank of X to be known (its axes are constant)'); return; }
  // stash_type types inv_std_var; onnxruntime computes in f32 whatever it says (its CPU kernels
  // have a float inv_std_var only: with another stash_type it runs the node only while nothing
  // reads inv_std_var)
  const stash = c.attr.int('stash_type', 1n);
  if (stash !== 1n && isWanted(c, 1)) { c.unsupportedAttr('stash_type', String(stash), 'inv_std_var is read: onnxruntime computes it as float (1) only'); return; }
  const axisAttr = c.attr.int('axis', -1n);
  const axis = normAxis(axisAttr, r);
  if (axis < 0 || axis >= r) { c.unsupportedAttr('axis', String(axisAttr), `X has rank ${r}`); return; }
  const b = irBuilder(c);
  const x = elem === 'f32' ? c.input(0)! : b.convert(c.input(0)!, 'f32');
  const axes = i64Const(c, Array.from({ length: r - axis }, (_, i) => BigInt(axis + i)));
  const inv = invRoot(b, 'f32', c.emit('ReduceMean', [b.mul(x, x), axes], { keep_dims: 'true' }, 1, 'opset1')[0]!, c.attr.float('epsilon', 1e-5));
  let y = b.mul(x, inv);
  if (elem !== 'f32') y = b.convert(y, elem);
  c.output(0, b.mul(y, c.input(1)!));
  optionalOutputs(c, { 1: () => inv });
}

const NORM_OPS = ['Add', 'Multiply', 'Subtract', 'Divide', 'Sqrt', 'ReduceMean'];

export const MS_LAYER_NORM: readonly OpMapping[] = [
  {
    onnx: { op: 'SkipLayerNormalization', domain: MS, since: 1 },
    ir: null,
    decomposes: ['MVN', ...NORM_OPS, 'Convert'],
    handles: { onnx: ['epsilon'] },
    note: 'IR: MVN-6 over the last axis of input + skip (+ bias), · gamma (+ beta); mean, inv_std_var, the sum when read',
    toIr: skipLayerNormToIr,
  },
  {
    onnx: { op: 'SkipSimplifiedLayerNormalization', domain: MS, since: 1 },
    ir: null,
    decomposes: [...NORM_OPS, 'Convert'],
    handles: { onnx: ['epsilon'] },
    note: 'IR: s / √(mean(s²) + epsilon) · gamma over the last axis, s = input + skip (+ bias); inv_std_var, the sum when read',
    toIr: skipSimplifiedToIr,
  },
  {
    onnx: { op: 'SimplifiedLayerNormalization', since: 1 },
    ir: null,
    decomposes: [...NORM_OPS, 'Convert'],
    handles: { onnx: ['axis', 'epsilon', 'stash_type'] },
    note: 'onnxruntime\'s contrib op in the ONNX domain. IR: X / √(mean(X²) + epsilon) · scale over [axis, rank), in f32',
    toIr: simplifiedToIr,
  },
];
