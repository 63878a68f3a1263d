import { tensorFromBool } from '../../src/graph/tensor.js';
import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Shape } from '../../src/graph/shape.js';
import { tensorType, type ValueType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { irBuilder, type IrBuilder } from './ir-build.js';

/**
 * ONNX FlexAttention-1 (domain ai.onnx.preview) has no OpenVINO op: IR writes its function body.
 *   GQA: each K/V head repeated q_num_heads / kv_num_heads times in place ([h0, h0, h1, h1, …])
 *   √scale (scale default 1/√head_size, computed in f32) in Q's type; Scores = (Q·√scale)(K·√scale)ᵀ
 *   Scores in the softmax precision (softmax_precision, else f32, or f64 for f64 inputs)
 *   Scores = score_mod(Scores); P = Softmax(Scores, last axis); P = prob_mod(P)
 *   Y = P · V (V in the softmax precision), back in Q's type.
 * Each modifier graph becomes the body of a Loop-5 that runs once (the engine converts bodies from
 * its queue, as it does If / Loop bodies): the body's one formal input reads the tensor being
 * modified (an invariant input), the values it reads from outside are further invariant inputs,
 * and its one output is the Loop's (last-iteration) output.
 */
const SOFTMAX_PRECISION: Record<string, ElementTypeName> = { 1: 'f32', 10: 'f16', 11: 'f64', 16: 'bf16' };
const MODIFIERS = ['score_mod', 'prob_mod'] as const;

/** Repeats each head of a [B, kv_heads, S, D] value `rep` (a [1] i64) times in place. */
function repeatHeads(c: ConvertContext, b: IrBuilder, x: Value, rep: Value): Value {
  const target = b.concat([i64Const(c, [1n, 1n]), rep, i64Const(c, [1n, 1n])], 0);
  const wide = c.emit('Broadcast', [b.unsqueeze(x, [2n]), target], { mode: 'bidirectional' }, 1, 'opset3')[0]!;
  const s = b.shapeOf(wide);
  return b.reshape(wide, b.concat([b.slice(s, 0n, 1n, 0n), i64Const(c, [-1n]), b.slice(s, 3n, 5n, 0n)], 0));
}

/**
 * The modifier graph `key` applied to `x` (of type `type`: [B, q_heads, L, S] in the softmax
 * precision, which the body's formal input then has): a Loop-5 of one iteration whose body is the graph.
 */
function modify(c: ConvertContext, key: typeof MODIFIERS[number], x: Value, type: ValueType): Value {
  const sb = c.node.bodies.get(key)!;
  const own = Number(c.node.metaView['onnxInputCount'] ?? 3);
  const inputs: Value[] = [i64Scalar(c, 1n), c.constant(tensorFromBool([true])), x];
  const capture = new Map<number, number>();
  for (const bnd of sb.inputs) {
    if (bnd.from < own || capture.has(bnd.from)) continue;
    capture.set(bnd.from, inputs.length);
    inputs.push(c.input(bnd.from)!);
  }
  const y = c.emit('Loop', inputs, {}, 1, 'opset5')[0]!;
  const loop = c.lastNode!;
  const formal = sb.graph.inputs.findIndex((p) => p.metaView['onnxCapture'] !== true);
  const body = c.body(loop, key, 'body', (i) => capture.get(i) ?? i, { results: [0] });
  // the formal input is bound to no node input (src/graph/body-kinds.ts): it reads Loop input 2
  const param = body.graph.inputs[formal]!;
  param.type = type;
  body.inputs = [...body.inputs.filter((bnd) => bnd.param !== param), { param, from: 2 }];
  // result 0: the condition (true: one iteration); result 1: the modified tensor, appended when the
  // engine converts the body from its queue
  body.graph.outputs.push(body.graph.addInitializer(tensorFromBool([true]), [`${key}/cond`]));
  body.outputs = [{ result: 1, to: 0 }, { result: 0, to: -1, extra: { purpose: 'execution_condition' } }];
  return y;
}

function flexAttentionToIr(c: ConvertContext): void {
  const elem = c.elem(0);
  if (elem === null) { c.error('FlexAttention needs the element type of Q to be known'); return; }
  for (const [i, name] of [[0, 'Q'], [1, 'K'], [2, 'V']] as const) {
    const r = c.rank(i);
    if (r !== null && r !== 4) { c.error(`${name} must be rank 4 (batch, heads, sequence, head size), got rank ${r}`); return; }
  }
  const code = c.attr.int('softmax_precision');
  const precision = code === undefined ? (elem === 'f64' ? 'f64' : 'f32') : SOFTMAX_PRECISION[String(code)];
  if (precision === undefined) { c.unsupportedAttr('softmax_precision', String(code), 'FLOAT (1), FLOAT16 (10), DOUBLE (11) or BFLOAT16 (16)'); return; }
  for (const key of MODIFIERS) {
    const body = c.node.bodies.get(key);
    if (!body) continue;
    const formal = body.graph.inputs.filter((p) => p.metaView['onnxCapture'] !== true).length;
    if (formal !== 1 || body.graph.outputs.length !== 1) {
      c.error(`${key} must take exactly one input and give exactly one output (it has ${formal} and ${body.graph.outputs.length})`);
      return;
    }
  }
  const b = irBuilder(c);
  const shapeOf = (i: number): Shape => { const t = c.type(i); return t && t.kind === 'tensor' ? t.shape : null; };
  const qShape = shapeOf(0);
  const kShape = shapeOf(1);
  const staticAt = (s: Shape, i: number): number | null => (s && typeof s[i] === 'number' ? s[i] : null);

  const q = c.input(0)!;
  let k = c.input(1)!;
  let v = c.input(2)!;
  const qHeads = staticAt(qShape, 1);
  const kvHeads = staticAt(kShape, 1);
  if (qHeads === null || kvHeads === null || qHeads !== kvHeads) {
    if (qHeads !== null && kvHeads !== null && qHeads % kvHeads !== 0) { c.error(`Q's head count (${qHeads}) is not a multiple of K's (${kvHeads})`); return; }
    const rep = qHeads !== null && kvHeads !== null ? i64Const(c, [BigInt(qHeads / kvHeads)]) : b.reshape(b.div(b.dim(q, 1n), b.dim(k, 1n)), [1n]);
    k = repeatHeads(c, b, k, rep);
    v = repeatHeads(c, b, v, rep);
  }

  // √scale in f32 (the function body's ScaleFactorSqrtF32), then in Q's type
  const scaleAttr = c.attr.float('scale');
  const headSize = staticAt(qShape, 3);
  let sqrtScale: Value;
  if (scaleAttr !== undefined || headSize !== null) {
    const scale = scaleAttr !== undefined ? Math.fround(scaleAttr) : Math.fround(1 / Math.fround(Math.sqrt(headSize!)));
    sqrtScale = b.scalar(elem, Math.fround(Math.sqrt(scale)));
  } else {
    const s = c.emit('Sqrt', [b.div(b.scalar('f32', 1), c.emit('Sqrt', [b.convert(b.dim(q, 3n), 'f32')], {}, 1, 'opset1')[0]!)], {}, 1, 'opset1')[0]!;
    sqrtScale = elem === 'f32' ? s : b.convert(s, elem);
  }
  const scores = b.matmul(b.mul(q, sqrtScale), b.mul(k, sqrtScale), true);
  let s = precision === elem ? scores : b.convert(scores, precision);
  const modified = tensorType(precision, [qShape?.[0] ?? null, qShape?.[1] ?? null, qShape?.[2] ?? null, kShape?.[2] ?? null]);
  if (c.node.bodies.has('score_mod')) s = modify(c, 'score_mod', s, modified);
  let p = b.softmax(s);
  if (c.node.bodies.has('prob_mod')) p = modify(c, 'prob_mod', p, modified);
  const y = b.matmul(p, precision === elem ? v : b.convert(v, precision));
  c.output(0, precision === elem ? y : b.convert(y, elem));
}

export const FLEX_ATTENTION: readonly OpMapping[] = [
  {
    onnx: { op: 'FlexAttention', domain: 'ai.onnx.preview', since: 1 },
    ir: null,
    decomposes: ['Unsqueeze', 'Concat', 'Broadcast', 'ShapeOf', 'Slice', 'Reshape', 'Gather', 'Divide', 'Sqrt', 'Convert', 'Multiply',
      'MatMul', 'Softmax', 'Loop'],
    handles: { onnx: ['scale', 'softmax_precision'] },
    note: 'IR: the function body as MatMul / Softmax ops (GQA head repetition, softmax precision); score_mod / prob_mod each the body of a Loop-5 of one iteration',
    toIr: flexAttentionToIr,
  },
];
