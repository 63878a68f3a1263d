import { attrFloats, attrInt, attrInts, attrString, attrStrings } from '../../../graph/attr-read.js';
import type { ElementTypeName } from '../../../graph/element-type.js';
import type { Dim } from '../../../graph/shape.js';
import type { ValueType } from '../../../graph/types.js';
import { out, type InferFn, type Rule, type RuleContext } from '../../rule.js';

/**
 * The other ai.onnx.ml ops (onnx/defs/traditionalml: preprocessing, linear models, SVMs, tree
 * ensembles of opsets 1–3, ZipMap). Where onnx has an inference function, its rule:
 * - CastMap: float / int64 / string by cast_to (default float). DictVectorizer: the map's value type.
 * - CategoryMapper: string ⇄ int64, X's shape. OneHotEncoder: float, X's shape + [category count].
 * - LinearClassifier: Y [N] (string labels or int64), Z float [N, classes] (classes = intercepts,
 *   2 for one intercept over two labels), N = X's dim 0 (1 for a 1-D X).
 * - SVMClassifier: Y string / int64, Z float (types only). ZipMap: a sequence of maps from the
 *   labels (string or int64) to float scalars.
 * Where onnx has none, the output the op's definition states (types, and shapes only where
 * the definition fixes them): Imputer X's type and shape; Normalizer, Scaler float of X's shape;
 * LinearRegressor float [N, targets]; TreeEnsembleRegressor float [N, n_targets];
 * TreeEnsembleClassifier Y [N] of its label type, Z float [N, labels] (onnxruntime writes one
 * column per label, two for a binary model); SVMRegressor float [N, 1]; SVMClassifier Y [N], Z
 * [N, ?] unless its width is fixed: libsvm without prob_a: a column per class pair, 2 for two
 * classes; otherwise one per class (onnxruntime's widths); FeatureVectorizer float [N, Σ inputdimensions].
 */
const batchOf = (c: RuleContext): Dim => {
  const x = c.shape(0);
  return x === null ? null : x.length === 1 ? 1 : x.length === 2 ? x[0]! : null;
};
const labelType = (c: RuleContext): ElementTypeName => ((attrStrings(c.node, 'classlabels_strings')?.length ?? 0) > 0 ? 'string' : 'i64');

const castMap: InferFn = (c) => {
  const to = attrString(c.node, 'cast_to') ?? 'TO_FLOAT';
  const elem: ElementTypeName | null = to === 'TO_FLOAT' ? 'f32' : to === 'TO_INT64' ? 'i64' : to === 'TO_STRING' ? 'string' : null;
  if (elem === null) c.error(`cast_to ${to} is not TO_FLOAT, TO_INT64 or TO_STRING`);
  return [out(elem ?? 'dynamic', null)];
};

const dictVectorizer: InferFn = (c) => {
  const m = c.type(0);
  const v = m?.kind === 'map' ? m.value : null;
  return [out(v?.kind === 'tensor' ? v.elem : 'dynamic', null)];
};

const categoryMapper: InferFn = (c) => {
  const x = c.elem(0);
  return [out(x === 'string' ? 'i64' : x === 'i64' ? 'string' : 'dynamic', c.shape(0))];
};

const oneHotEncoder: InferFn = (c) => {
  const n = Math.max(attrInts(c.node, 'cats_int64s')?.length ?? 0, attrStrings(c.node, 'cats_strings')?.length ?? 0);
  const x = c.shape(0);
  return [out('f32', x === null ? null : [...x, n])];
};

const linearClassifier: InferFn = (c) => {
  const labels = labelType(c);
  const count = labels === 'string' ? attrStrings(c.node, 'classlabels_strings')?.length ?? 0 : attrInts(c.node, 'classlabels_ints')?.length ?? 0;
  const intercepts = attrFloats(c.node, 'intercepts');
  const classes: Dim = intercepts === undefined ? null : intercepts.length === 1 && count === 2 ? 2 : intercepts.length;
  const n = batchOf(c);
  return [out(labels, [n]), out('f32', [n, classes])];
};

const zipMap: InferFn = (c) => {
  const key: ElementTypeName = (attrStrings(c.node, 'classlabels_strings')?.length ?? 0) > 0 ? 'string' : 'i64';
  const type: ValueType = { kind: 'sequence', elem: { kind: 'map', key, value: { kind: 'tensor', elem: 'f32', shape: [] } } };
  return [{ type }];
};

const featureVectorizer: InferFn = (c) => {
  const dims = attrInts(c.node, 'inputdimensions');
  return [out('f32', [batchOf(c), dims ? dims.reduce((a, b) => a + Number(b), 0) : null])];
};

const labelCount = (c: RuleContext): number => Math.max(attrInts(c.node, 'classlabels_int64s')?.length ?? 0, attrStrings(c.node, 'classlabels_strings')?.length ?? 0);

const treeEnsembleClassifier: InferFn = (c) => {
  const n = labelCount(c);
  return [out(labelType(c), [batchOf(c)]), out('f32', [batchOf(c), n > 0 ? n : null])];
};

const svmClassifier: InferFn = (c) => {
  const classes = Math.max(attrInts(c.node, 'classlabels_ints')?.length ?? 0, attrStrings(c.node, 'classlabels_strings')?.length ?? 0);
  const libsvm = (attrInts(c.node, 'vectors_per_class') ?? []).some((v) => v > 0n);
  const prob = (attrFloats(c.node, 'prob_a')?.length ?? 0) > 0;
  const width: Dim = classes === 0 ? null : libsvm && !prob ? (classes > 2 ? (classes * (classes - 1)) / 2 : 2) : classes;
  const labels: ElementTypeName = (attrStrings(c.node, 'classlabels_strings')?.length ?? 0) > 0 ? 'string' : 'i64';
  return [out(labels, [batchOf(c)]), out('f32', [batchOf(c), width])];
};

const ML = 'ai.onnx.ml';
const rule = (op: string, since: number, infer: InferFn): Rule => ({ dialect: 'onnx', domain: ML, op, since, infer });
export const onnxMlClassicRules: Rule[] = [
  rule('CastMap', 1, castMap),
  rule('DictVectorizer', 1, dictVectorizer),
  rule('CategoryMapper', 1, categoryMapper),
  rule('OneHotEncoder', 1, oneHotEncoder),
  rule('LinearClassifier', 1, linearClassifier),
  rule('SVMClassifier', 1, svmClassifier),
  rule('ZipMap', 1, zipMap),
  rule('Imputer', 1, (c) => [out(c.elem(0), c.shape(0))]),
  rule('Normalizer', 1, (c) => [out('f32', c.shape(0))]),
  rule('Scaler', 1, (c) => [out('f32', c.shape(0))]),
  rule('LinearRegressor', 1, (c) => [out('f32', [batchOf(c), Number(attrInt(c.node, 'targets') ?? 1n)])]),
  rule('SVMRegressor', 1, (c) => [out('f32', [batchOf(c), 1])]),
  rule('TreeEnsembleRegressor', 1, (c) => [out('f32', [batchOf(c), attrInt(c.node, 'n_targets') === undefined ? null : Number(attrInt(c.node, 'n_targets'))])]),
  rule('TreeEnsembleClassifier', 1, treeEnsembleClassifier),
  rule('FeatureVectorizer', 1, featureVectorizer),
];
