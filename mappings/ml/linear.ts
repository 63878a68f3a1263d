import { tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedTensor } from '../typed-consts.js';
import { mlArith, POST_TRANSFORM_OPS, readPostTransform, type MlArith } from './post-transform.js';

/**
 * ai.onnx.ml LinearRegressor and LinearClassifier (OpenVINO has no op), as onnxruntime computes
 * them (linearregressor.cc, linearclassifier.cc): X as float ([F] is one row), scores
 * X · coefficientsᵀ + intercepts (coefficients [outputs, F] row-major; the regressor's intercepts
 * only when one per target).
 * - Regressor: post_transform over the targets (LOGISTIC a sigmoid, as MLAS computes it; SOFTMAX,
 *   SOFTMAX_ZERO, PROBIT as ml_common.h); one target: only PROBIT applies, as in onnxruntime.
 * - Classifier: classes = intercepts. One class (onnxruntime 1.31 requires two labels then): label
 *   labels[1] / labels[0] by score > 0, Z = (1 − t, t) with t the sigmoid of the score under
 *   LOGISTIC and the score itself under NONE, SOFTMAX and SOFTMAX_ZERO (measured); PROBIT there is
 *   refused (onnxruntime writes the probits packed into a [N, 2] Z).
 *   Several classes: label of the first largest raw score, Z transformed as the regressor's.
 *   multi_class is not read by onnxruntime, nor here. String labels cannot be held in IR: refused.
 */
interface Affine { readonly scores: Value; readonly outputs: number }

function affine(c: ConvertContext, m: MlArith, outputs: number, intercepts: readonly number[] | null): Affine | null {
  const elem = c.elem(0);
  const rank = c.rank(0);
  if (elem !== 'f32' && elem !== 'f64' && elem !== 'i64' && elem !== 'i32') { c.error(`X of ${elem ?? 'unknown type'}: X is float, double, int64 or int32`); return null; }
  if (rank !== 1 && rank !== 2) { c.error(`X must be [N, F] or [F]; its rank is ${rank ?? 'unknown'}`); return null; }
  const coefficients = c.attr.floats('coefficients');
  if (!coefficients?.length) { c.error('coefficients is required'); return null; }
  if (outputs < 1 || coefficients.length % outputs !== 0) { c.error(`coefficients has ${coefficients.length} values: not a whole row of features for each of ${outputs} outputs`); return null; }
  const features = coefficients.length / outputs;
  const t = c.type(0);
  const f = t?.kind === 'tensor' && t.shape ? t.shape[t.shape.length - 1] : null;
  if (typeof f === 'number' && f !== features) { c.error(`X has ${f} features, coefficients ${features} per output`); return null; }
  let x = m.toF32(c.input(0)!, elem);
  if (rank === 1) x = m.op('Unsqueeze', [x, i64Const(c, [0n])]);
  let scores = m.op('MatMul', [x, c.constant(typedTensor('f32', coefficients, [outputs, features])!)], { transpose_a: 'false', transpose_b: 'true' });
  if (intercepts) scores = m.op('Add', [scores, c.constant(typedTensor('f32', intercepts, [outputs])!)], { auto_broadcast: 'numpy' });
  return { scores, outputs };
}

function regressor(c: ConvertContext): void {
  const m = mlArith(c);
  const post = readPostTransform(c);
  const targets = Number(c.attr.int('targets', 1n));
  const intercepts = c.attr.floats('intercepts') ?? [];
  const a = affine(c, m, targets, intercepts.length === targets ? intercepts : null);
  if (!a || post === null) return;
  c.output(0, targets === 1 ? (post === 'PROBIT' ? m.probit(a.scores) : a.scores) : m.applyBatched(post, a.scores));
}

function classifier(c: ConvertContext): void {
  if ((c.attr.strings('classlabels_strings')?.length ?? 0) > 0) { c.unsupportedAttr('classlabels_strings', 'strings', 'OpenVINO IR has no string element type: the labels output cannot be held'); return; }
  const m = mlArith(c);
  const post = readPostTransform(c);
  const labels = c.attr.ints('classlabels_ints') ?? [];
  const intercepts = c.attr.floats('intercepts') ?? [];
  if (!intercepts.length) { c.error('intercepts is required: one per class'); return; }
  const classes = intercepts.length;
  if (classes > 1 && labels.length < classes) { c.error(`classlabels_ints has ${labels.length} labels for ${classes} classes (intercepts)`); return; }
  if (classes === 1 && labels.length !== 2) { c.error(`one intercept (a binary classifier) needs exactly 2 labels in classlabels_ints; it has ${labels.length}`); return; }
  if (post === 'PROBIT' && classes === 1) { c.unsupportedAttr('post_transform', 'PROBIT', 'one class with two labels: onnxruntime writes the probits packed into a Z of two columns'); return; }
  const a = affine(c, m, classes, intercepts);
  if (!a || post === null) return;
  const nb = { auto_broadcast: 'numpy' };
  const label = (v: bigint): Value => c.constant(tensorFromInt64([v], []));
  if (classes === 1) {
    const s = m.op('Squeeze', [a.scores, i64Const(c, [1n])]);
    const above = m.op('Greater', [s, m.scalar(0)], nb);
    c.output(0, m.op('Select', [above, label(labels[1]!), label(labels[0]!)], nb));
    const t = post === 'LOGISTIC' ? m.op('Sigmoid', [a.scores]) : a.scores;
    c.output(1, m.op('Concat', [m.op('Subtract', [m.scalar(1), t], nb), t], { axis: '1' }));
    return;
  }
  const top = c.emit('TopK', [a.scores, i64Scalar(c, 1n)], { axis: '-1', mode: 'max', sort: 'value', index_element_type: 'i64', stable: 'true' }, 2, 'opset11')[1]!;
  const idx = m.op('Squeeze', [top, i64Const(c, [-1n])]);
  c.output(0, m.op('Gather', [c.constant(tensorFromInt64(labels.slice(0, classes), [classes])), idx, i64Scalar(c, 0n)], { batch_dims: '0' }, 'opset8'));
  c.output(1, m.applyBatched(post, a.scores));
}

const OPS = [...POST_TRANSFORM_OPS, 'Unsqueeze', 'MatMul', 'Squeeze', 'Concat', 'TopK', 'Gather'];

export const LINEAR_MODELS: readonly OpMapping[] = [
  {
    onnx: { op: 'LinearRegressor', domain: 'ai.onnx.ml', since: 1 },
    ir: null,
    decomposes: OPS,
    handles: { onnx: ['coefficients', 'intercepts', 'targets', 'post_transform'] },
    note: 'IR: MatMul by the coefficients + intercepts, onnxruntime\'s post_transform',
    toIr: regressor,
  },
  {
    onnx: { op: 'LinearClassifier', domain: 'ai.onnx.ml', since: 1 },
    ir: null,
    decomposes: OPS,
    handles: { onnx: ['coefficients', 'intercepts', 'classlabels_ints', 'classlabels_strings', 'multi_class', 'post_transform'] },
    note: 'IR: MatMul by the coefficients + intercepts; label of the first largest score (or score > 0 for one class), onnxruntime\'s post_transform',
    toIr: classifier,
  },
];
