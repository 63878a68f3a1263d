import { tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedTensor } from '../typed-consts.js';
import { mlArith, POST_TRANSFORM_OPS, readPostTransform, type MlArith } from './post-transform.js';
import { svmProbabilities } from './svm-probability.js';

/**
 * ai.onnx.ml SVMRegressor and SVMClassifier (OpenVINO has no op), as onnxruntime computes them
 * (svmregressor.cc, svmclassifier.cc, SVMCommon in svmclassifier.h), X as float:
 * - The kernel of X [N, F] with the support vectors [V, F] (kernel_params = gamma, coef0, degree):
 *   LINEAR x·sv; POLY (gamma·x·sv + coef0)^degree; SIGMOID tanh(gamma·x·sv + coef0); RBF
 *   exp(−gamma·Σ(x − sv)²), the differences squared (not expanded), as onnxruntime.
 * - Regressor: with support vectors (n_supports > 0) kernels · coefficients + rho[0]; without, the
 *   linear model x·coefficients + rho[0] (the kernel is then LINEAR whatever kernel_type says).
 *   one_class: 1 where the value is > 0, else −1. onnxruntime reads post_transform and never
 *   applies it: neither does ovir. Y [N, 1].
 * - Classifier without support vectors (liblinear): scores x·coefficientsᵀ + rho[0] per class,
 *   label of the first largest score (two classes: label 1 when the score is ≥ 0.5 with all
 *   coefficients ≥ 0, or > 0 otherwise, as its ChooseClass), Z the transformed scores.
 * - Classifier with support vectors (libsvm, one-vs-one): for each pair i < j the score
 *   Σ coef[j−1][sv of i]·K + Σ coef[i][sv of j]·K + rho[pair] (one linear map of the kernels, built
 *   here), a vote for i where it is > 0, else for j; label of the first class with most votes;
 *   Z the pair scores, transformed (2+ pairs), or for two classes (−s, s) under NONE, else
 *   (1 − t, t), t the sigmoid of s under LOGISTIC and s itself under SOFTMAX(_ZERO) (measured). With
 *   prob_a / prob_b, Z is the classes' probabilities (Platt scaling of the pair scores, then libsvm's
 *   pairwise coupling: svm-probability.ts), post_transform applied to them; without, PROBIT on two
 *   classes is refused (onnxruntime writes one column).
 * String labels cannot be held in IR: refused.
 */
interface Kernel { readonly type: string; readonly gamma: number; readonly coef0: number; readonly degree: number }
const KERNELS = ['LINEAR', 'POLY', 'RBF', 'SIGMOID'];

function readKernel(c: ConvertContext): Kernel | null {
  const type = c.attr.string('kernel_type', 'LINEAR');
  if (!KERNELS.includes(type)) { c.unsupportedAttr('kernel_type', type, KERNELS.join(', ')); return null; }
  const p = c.attr.floats('kernel_params') ?? [];
  if (p.length !== 0 && p.length !== 3) { c.error(`kernel_params must be [gamma, coef0, degree]; it has ${p.length} values`); return null; }
  return { type, gamma: p[0] ?? 0, coef0: p[1] ?? 0, degree: p[2] ?? 0 };
}

/** X as float rows [N, F] with F checked against `features`; null after a diagnostic. */
function rows(c: ConvertContext, m: MlArith, features: number): Value | null {
  const elem = c.elem(0);
  const rank = c.rank(0);
  if (elem !== 'f32' && elem !== 'f64' && elem !== 'i64' && elem !== 'i32') { c.error(`X of ${elem ?? 'unknown type'}: X is float, double, int64 or int32`); return null; }
  if (rank !== 1 && rank !== 2) { c.error(`X must be [N, F] or [F]; its rank is ${rank ?? 'unknown'}`); return null; }
  if (!Number.isInteger(features) || features < 1) { c.error('the support vectors or coefficients are not whole rows of features'); return null; }
  const t = c.type(0);
  const f = t?.kind === 'tensor' && t.shape ? t.shape[t.shape.length - 1] : null;
  if (typeof f === 'number' && f !== features) { c.error(`X has ${f} features, the model ${features}`); return null; }
  const x = m.toF32(c.input(0)!, elem);
  return rank === 1 ? m.op('Unsqueeze', [x, i64Const(c, [0n])]) : x;
}

const f32 = (c: ConvertContext, values: readonly number[], dims: number[]): Value => c.constant(typedTensor('f32', values, dims)!);

/** [N, V]: the kernel of every row of x with every row of `vectors` [V, F]; `bias` added to a LINEAR one. */
function kernel(c: ConvertContext, m: MlArith, k: Kernel, x: Value, vectors: readonly number[], v: number, f: number, bias = 0): Value {
  const nb = { auto_broadcast: 'numpy' };
  const sv = f32(c, vectors, [v, f]);
  if (k.type === 'RBF') {
    const d = m.op('Subtract', [m.op('Unsqueeze', [x, i64Const(c, [1n])]), sv], nb);
    const sum = m.op('ReduceSum', [m.op('Multiply', [d, d], nb), i64Const(c, [2n])], { keep_dims: 'false' });
    return m.op('Exp', [m.op('Multiply', [sum, m.scalar(-k.gamma)], nb)]);
  }
  const dot = m.op('MatMul', [x, sv], { transpose_a: 'false', transpose_b: 'true' });
  if (k.type === 'LINEAR') return bias !== 0 ? m.op('Add', [dot, m.scalar(bias)], nb) : dot;
  let t = m.op('Multiply', [dot, m.scalar(k.gamma)], nb);
  if (k.coef0 !== 0) t = m.op('Add', [t, m.scalar(k.coef0)], nb);
  if (k.type === 'SIGMOID') return m.op('Tanh', [t]);
  if (k.degree === 2) return m.op('Multiply', [t, t], nb);
  if (k.degree === 3) return m.op('Multiply', [m.op('Multiply', [t, t], nb), t], nb);
  return m.op('Power', [t, m.scalar(k.degree)], nb);
}

function regressor(c: ConvertContext): void {
  const m = mlArith(c);
  const k = readKernel(c);
  const post = readPostTransform(c);
  const coefficients = c.attr.floats('coefficients') ?? [];
  const rho = c.attr.floats('rho') ?? [];
  const vectors = c.attr.floats('support_vectors') ?? [];
  const n = Number(c.attr.int('n_supports', 0n));
  if (!k || post === null) return;
  if (!coefficients.length || !rho.length) { c.error('coefficients and rho are required'); return; }
  const nb = { auto_broadcast: 'numpy' };
  let y: Value;
  if (n > 0) {
    if (coefficients.length !== n) { c.error(`coefficients has ${coefficients.length} values for ${n} support vectors`); return; }
    const x = rows(c, m, vectors.length / n);
    if (!x) return;
    const kx = kernel(c, m, k, x, vectors, n, vectors.length / n);
    y = m.op('Add', [m.op('MatMul', [kx, f32(c, coefficients, [1, n])], { transpose_a: 'false', transpose_b: 'true' }), m.scalar(rho[0]!)], nb);
  } else {
    const x = rows(c, m, coefficients.length);
    if (!x) return;
    y = kernel(c, m, { ...k, type: 'LINEAR' }, x, coefficients, 1, coefficients.length, rho[0]!);
  }
  if (c.attr.int('one_class', 0n) !== 0n) y = m.op('Select', [m.op('Greater', [y, m.scalar(0)], nb), m.scalar(1), m.scalar(-1)], nb);
  c.output(0, y);
}

function classifier(c: ConvertContext): void {
  if ((c.attr.strings('classlabels_strings')?.length ?? 0) > 0) { c.unsupportedAttr('classlabels_strings', 'strings', 'OpenVINO IR has no string element type: the labels output cannot be held'); return; }
  const m = mlArith(c);
  const k = readKernel(c);
  const post = readPostTransform(c);
  const labels = c.attr.ints('classlabels_ints') ?? [];
  const coefficients = c.attr.floats('coefficients') ?? [];
  const rho = c.attr.floats('rho') ?? [];
  const vectors = c.attr.floats('support_vectors') ?? [];
  const perClass = (c.attr.ints('vectors_per_class') ?? []).map(Number);
  const probA = c.attr.floats('prob_a') ?? [];
  if (!k || post === null) return;
  if (labels.length < 2) { c.error(`classlabels_ints needs 2 labels at least; it has ${labels.length}`); return; }
  if (!coefficients.length || !rho.length) { c.error('coefficients and rho are required'); return; }
  const classes = labels.length;
  const v = perClass.reduce((a, b) => a + b, 0);
  const nb = { auto_broadcast: 'numpy' };
  const labelsT = c.constant(tensorFromInt64(labels, [classes]));
  const firstMax = (scores: Value): Value => {
    const top = c.emit('TopK', [scores, i64Scalar(c, 1n)], { axis: '-1', mode: 'max', sort: 'value', index_element_type: 'i64', stable: 'true' }, 2, 'opset11');
    return m.op('Squeeze', [top[1]!, i64Const(c, [-1n])]);
  };
  const pick = (idx: Value): Value => m.op('Gather', [labelsT, idx, i64Scalar(c, 0n)], { batch_dims: '0' }, 'opset8');
  if (v === 0) {
    // liblinear: one row of coefficients per class
    const x = rows(c, m, coefficients.length / classes);
    if (!x) return;
    const scores = kernel(c, m, { ...k, type: 'LINEAR' }, x, coefficients, classes, coefficients.length / classes, rho[0]!);
    const idx = firstMax(scores);
    let y = pick(idx);
    if (classes === 2 && probA.length === 0) {
      const max = m.op('ReduceMax', [scores, i64Const(c, [-1n])], { keep_dims: 'false' });
      const positive = coefficients.every((w) => w >= 0);
      const one = m.op(positive ? 'GreaterEqual' : 'Greater', [max, m.scalar(positive ? 0.5 : 0)], nb);
      y = m.op('Select', [one, c.constant(tensorFromInt64([labels[1]!], [])), y], nb);
    }
    c.output(0, y);
    c.output(1, m.applyBatched(post, scores));
    return;
  }
  const probB = c.attr.floats('prob_b') ?? [];
  if (probA.length !== probB.length) { c.error(`prob_a has ${probA.length} values and prob_b ${probB.length}: they come in pairs`); return; }
  if (perClass.length !== classes) { c.error(`vectors_per_class has ${perClass.length} values for ${classes} classes`); return; }
  const pairs = (classes * (classes - 1)) / 2;
  if (coefficients.length !== (classes - 1) * v) { c.error(`coefficients has ${coefficients.length} values: (classes − 1) × support vectors is ${(classes - 1) * v}`); return; }
  if (rho.length < pairs) { c.error(`rho has ${rho.length} values for ${pairs} class pairs`); return; }
  if (probA.length && probA.length < pairs) { c.error(`prob_a and prob_b have ${probA.length} values for ${pairs} class pairs`); return; }
  if (classes === 2 && post === 'PROBIT' && !probA.length) { c.unsupportedAttr('post_transform', 'PROBIT', 'two classes: onnxruntime writes the probit of the one score and leaves Z\'s second column unwritten'); return; }
  const x = rows(c, m, vectors.length / v);
  if (!x) return;
  const kx = kernel(c, m, k, x, vectors, v, vectors.length / v);
  // the pair scores as one linear map of the kernels, and which class each pair's sign votes for
  const start = perClass.map((_, i) => perClass.slice(0, i).reduce((a, b) => a + b, 0));
  const w = new Array<number>(pairs * v).fill(0);
  const forI = new Array<number>(pairs * classes).fill(0);
  const forJ = new Array<number>(pairs * classes).fill(0);
  let p = 0;
  for (let i = 0; i < classes - 1; i++) {
    for (let j = i + 1; j < classes; j++, p++) {
      for (let s = 0; s < perClass[i]!; s++) w[p * v + start[i]! + s] = coefficients[(j - 1) * v + start[i]! + s]!;
      for (let s = 0; s < perClass[j]!; s++) w[p * v + start[j]! + s] = coefficients[i * v + start[j]! + s]!;
      forI[p * classes + i] = 1;
      forJ[p * classes + j] = 1;
    }
  }
  const scores = m.op('Add', [m.op('MatMul', [kx, f32(c, w, [pairs, v])], { transpose_a: 'false', transpose_b: 'true' }), f32(c, rho.slice(0, pairs), [pairs])], nb);
  const win = m.op('Convert', [m.op('Greater', [scores, m.scalar(0)], nb)], { destination_type: 'f32' });
  const lose = m.op('Subtract', [m.scalar(1), win], nb);
  const mm = (a: Value, b: readonly number[]): Value => m.op('MatMul', [a, f32(c, b, [pairs, classes])], { transpose_a: 'false', transpose_b: 'false' });
  const votes = m.op('Add', [mm(win, forI), mm(lose, forJ)], nb);
  c.output(0, pick(firstMax(votes)));
  // with prob_a/prob_b, Z is the classes' probabilities (the label stays the vote's)
  if (probA.length) { c.output(1, m.applyBatched(post, svmProbabilities(c, m, scores, probA, probB, classes))); return; }
  if (classes > 2) { c.output(1, m.applyBatched(post, scores)); return; }
  if (post === 'NONE') { c.output(1, m.op('Concat', [m.op('Negative', [scores]), scores], { axis: '1' })); return; }
  const t = post === 'LOGISTIC' ? m.op('Sigmoid', [scores]) : scores;
  c.output(1, m.op('Concat', [m.op('Subtract', [m.scalar(1), t], nb), t], { axis: '1' }));
}

const OPS = [...POST_TRANSFORM_OPS, 'Unsqueeze', 'MatMul', 'Tanh', 'Power', 'Squeeze', 'Concat', 'TopK', 'Gather', 'GreaterEqual', 'Minimum', 'Reshape', 'Transpose',
  'ShapeOf', 'Broadcast', 'Loop'];

export const SVM: readonly OpMapping[] = [
  {
    onnx: { op: 'SVMRegressor', domain: 'ai.onnx.ml', since: 1 },
    ir: null,
    decomposes: OPS,
    handles: { onnx: ['coefficients', 'kernel_params', 'kernel_type', 'n_supports', 'one_class', 'post_transform', 'rho', 'support_vectors'] },
    note: 'IR: the kernel of X with the support vectors, · coefficients + rho (onnxruntime ignores post_transform)',
    toIr: regressor,
  },
  {
    onnx: { op: 'SVMClassifier', domain: 'ai.onnx.ml', since: 1 },
    ir: null,
    decomposes: OPS,
    handles: { onnx: ['classlabels_ints', 'classlabels_strings', 'coefficients', 'kernel_params', 'kernel_type', 'post_transform', 'prob_a', 'prob_b', 'rho',
      'support_vectors', 'vectors_per_class'] },
    note: 'IR: one-vs-one pair scores from the kernels and votes (liblinear: per-class scores); with prob_a/prob_b the classes\' probabilities by libsvm\'s pairwise coupling in a Loop of 100 rounds',
    toIr: classifier,
  },
];
