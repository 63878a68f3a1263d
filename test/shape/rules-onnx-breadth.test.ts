import { describe, expect, it } from 'vitest';
import type { Attr } from '../../src/graph/attr.js';
import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Shape } from '../../src/graph/shape.js';
import { tensorFromFloat32, tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { A, B, codes, elemOf, s, shapeOf } from './build.js';

/**
 * Shape rules of the training, text, ai.onnx.ml, BitCast, ImageDecoder and MelWeightMatrix ops,
 * each case as onnx's inference function (onnx/defs/{training,text,traditionalml,tensor,image,math}).
 */
type In = { elem: ElementTypeName; shape: Shape } | { i64: number[]; dims?: number[] };
const t = (shape: Shape, elem: ElementTypeName = 'f32'): In => ({ elem, shape });

function run(domain: string, op: string, version: string, inputs: In[], attrs: Record<string, Attr> = {}, outputs = 1) {
  const b = new B('onnx', version);
  const vs = inputs.map((x, i): Value => ('i64' in x ? b.i64(x.i64, x.dims) : b.input(`in${i}`, x.elem, x.shape)));
  const n = b.g.addNode({ dialect: 'onnx', op, version, domain, name: `${op}_0` });
  for (const v of vs) n.addInput(v);
  for (const [k, a] of Object.entries(attrs)) n.attrs.set(k, a);
  for (let i = 0; i < outputs; i++) n.addOutput(null, [`out${i}`]);
  const r = b.infer();
  return { r, shapes: n.outputs.map((o) => shapeOf(r, o)), elems: n.outputs.map((o) => elemOf(r, o)) };
}

const TRAINING = 'ai.onnx.preview.training';
const ML = 'ai.onnx.ml';
const R = t([], 'f32');
const T = t([], 'i64');

describe('ai.onnx.preview.training optimizers: each updated tensor has its input\'s type and shape', () => {
  it('Adagrad [R, T, X1, X2, G1, G2, H1, H2] → [X1_new, X2_new, H1_new, H2_new]', () => {
    const { shapes, elems } = run(TRAINING, 'Adagrad', '1', [R, T, t([2]), t([3, 4], 'f64'), t([2]), t([3, 4], 'f64'), t([2]), t([3, 4], 'f64')], {}, 4);
    expect(shapes).toEqual([[2], [3, 4], [2], [3, 4]]);
    expect(elems).toEqual(['f32', 'f64', 'f32', 'f64']);
  });
  it('Momentum [R, T, X, G, V] → [X_new, V_new], V\'s own shape for V_new', () => {
    const { shapes } = run(TRAINING, 'Momentum', '1', [R, T, t([2, s('N')]), t([2, 5]), t([2, 5])], { mode: A.string('nesterov') }, 2);
    expect(shapes).toEqual([[2, s('N')], [2, 5]]);
  });
  it('Adam [R, T, X1, X2, G1, G2, V1, V2, H1, H2] → [X1, X2, V1, V2, H1, H2]', () => {
    const { shapes } = run(TRAINING, 'Adam', '1', [R, T, t([1]), t([2]), t([3]), t([4]), t([5]), t([6]), t([7]), t([8])], {}, 6);
    expect(shapes).toEqual([[1], [2], [5], [6], [7], [8]]);
  });
  it('an input count that is not whole runs is a shape error', () => {
    const { r } = run(TRAINING, 'Adam', '1', [R, T, t([1]), t([1]), t([1])], {}, 1);
    expect(codes(r)).toContain('SHAPE_RULE');
  });
  it('Gradient: output i is d y / d xs[i], shaped as input i', () => {
    const { shapes, elems } = run(TRAINING, 'Gradient', '1', [t([1, 2]), t([3]), t([4])], { xs: A.strings(['a', 'b']), zs: A.strings(['c']), y: A.string('y') }, 2);
    expect(shapes).toEqual([[1, 2], [3]]);
    expect(elems).toEqual(['f32', 'f32']);
  });
});

describe('text ops', () => {
  it('StringNormalizer-10: [C] → [?], [1, C] → [1, ?] (stopwords may drop any count)', () => {
    expect(run('', 'StringNormalizer', '10', [t([4], 'string')]).shapes).toEqual([[null]]);
    expect(run('', 'StringNormalizer', '10', [t([1, 4], 'string')]).shapes).toEqual([[1, null]]);
    expect(codes(run('', 'StringNormalizer', '10', [t([2, 4], 'string')]).r)).toContain('SHAPE_RULE');
  });
  it('TfIdfVectorizer-9: last dim max(ngram_indexes) + 1, float', () => {
    // the schema's required attributes (test_tfidfvectorizer_tf_only_bigrams_skip0's): without them it is SHAPE_BAD_ATTR
    const attrs = {
      mode: A.string('TF'), min_gram_length: A.int(2), max_gram_length: A.int(2), max_skip_count: A.int(0),
      ngram_counts: A.ints([0, 4]), ngram_indexes: A.ints([0, 1, 2, 3, 4, 5, 6]),
    };
    const one = run('', 'TfIdfVectorizer', '9', [t([12], 'i32')], attrs);
    expect(one.shapes).toEqual([[7]]);
    expect(one.elems).toEqual(['f32']);
    expect(run('', 'TfIdfVectorizer', '9', [t([2, 6], 'i64')], attrs).shapes).toEqual([[2, 7]]);
  });
  it('StringSplit-20: Y is X\'s shape + [?], Z int64 shaped as X', () => {
    const { shapes, elems } = run('', 'StringSplit', '20', [t([2, 2], 'string')], { maxsplit: A.int(2) }, 2);
    expect(shapes).toEqual([[2, 2, null], [2, 2]]);
    expect(elems).toEqual(['string', 'i64']);
  });
  it('StringConcat-20 broadcasts; RegexFullMatch-20 is bool of X\'s shape', () => {
    expect(run('', 'StringConcat', '20', [t([2, 1], 'string'), t([3], 'string')]).shapes).toEqual([[2, 3]]);
    const m = run('', 'RegexFullMatch', '20', [t([3], 'string')], { pattern: A.string('a.*') });
    expect([m.shapes, m.elems]).toEqual([[[3]], ['boolean']]);
  });
});

describe('ai.onnx.ml ops', () => {
  it('ArrayFeatureExtractor: X\'s dims but the last, then the count of indices', () => {
    expect(run(ML, 'ArrayFeatureExtractor', '1', [t([3, 4]), { i64: [0, 2] }]).shapes).toEqual([[3, 2]]);
    expect(run(ML, 'ArrayFeatureExtractor', '1', [t([3, 4], 'i64'), t([1, s('K')], 'i64')]).shapes).toEqual([[3, s('K')]]);
    expect(run(ML, 'ArrayFeatureExtractor', '1', [t([4]), { i64: [1] }]).shapes).toEqual([null]);
  });
  it('Binarizer: X\'s type and shape', () => {
    expect(run(ML, 'Binarizer', '1', [t([3, 4], 'f64')], { threshold: A.float(1) }).elems).toEqual(['f64']);
  });
  it('LabelEncoder: X\'s shape, the type of the values', () => {
    const ints = run(ML, 'LabelEncoder', '4', [t([5], 'string')], { keys_strings: A.strings(['a']), values_int64s: A.ints([1]) });
    expect([ints.shapes, ints.elems]).toEqual([[[5]], ['i64']]);
    const tensor = run(ML, 'LabelEncoder', '4', [t([2, 3], 'i64')], { keys_tensor: A.tensor(tensorFromInt64([1])), values_tensor: A.tensor(tensorFromFloat32([0.5])) });
    expect([tensor.shapes, tensor.elems]).toEqual([[[2, 3]], ['f32']]);
    expect(run(ML, 'LabelEncoder', '1', [t([5], 'string')], { classes_strings: A.strings(['a']) }).elems).toEqual(['i64']);
  });
  it('TreeEnsemble-5: [N, F] → [N, n_targets]', () => {
    expect(run(ML, 'TreeEnsemble', '5', [t([s('N'), 3], 'f64')], { n_targets: A.int(2) }).shapes).toEqual([[s('N'), 2]]);
  });
});

describe('BitCast, ImageDecoder, MelWeightMatrix', () => {
  it('BitCast-26: same shape, element type `to`, equal bit widths only', () => {
    const ok = run('', 'BitCast', '26', [t([2, 3], 'f32')], { to: A.int(6) });
    expect([ok.shapes, ok.elems]).toEqual([[[2, 3]], ['i32']]);
    expect(codes(run('', 'BitCast', '26', [t([2], 'f32')], { to: A.int(7) }).r)).toContain('SHAPE_RULE');
  });
  it('ImageDecoder-20: uint8 [?, ?, ?]', () => {
    expect(run('', 'ImageDecoder', '20', [t([100], 'u8')]).shapes).toEqual([[null, null, null]]);
  });
  it('MelWeightMatrix-17: [dft_length / 2 + 1, num_mel_bins] of output_datatype', () => {
    const m = run('', 'MelWeightMatrix', '17', [{ i64: [8], dims: [] }, { i64: [16], dims: [] }, { i64: [8192], dims: [] }, t([], 'f32'), t([], 'f32')], { output_datatype: A.int(11) });
    expect([m.shapes, m.elems]).toEqual([[[9, 8]], ['f64']]);
  });
});

describe('the other ai.onnx.ml ops (shapes as onnxruntime 1.31 gives them, measured)', () => {
  it('LinearRegressor [N, targets], a 1-D X as one sample; LinearClassifier Y [N], Z [N, classes]', () => {
    expect(run(ML, 'LinearRegressor', '1', [t([3])], { targets: A.int(2) }).shapes).toEqual([[1, 2]]);
    expect(run(ML, 'LinearRegressor', '1', [t([4, 3])], { targets: A.int(2) }).shapes).toEqual([[4, 2]]);
    const lc = run(ML, 'LinearClassifier', '1', [t([4, 3])], { intercepts: A.floats([0]), classlabels_ints: A.ints([0, 1]) }, 2);
    expect([lc.shapes, lc.elems]).toEqual([[[4], [4, 2]], ['i64', 'f32']]);
  });
  it('Normalizer, Scaler: float of X\'s shape; Imputer: X\'s type and shape; OneHotEncoder adds the category axis', () => {
    expect(run(ML, 'Scaler', '1', [t([3], 'i64')]).elems).toEqual(['f32']);
    expect(run(ML, 'Normalizer', '1', [t([4, 3])], { norm: A.string('L2') }).shapes).toEqual([[4, 3]]);
    expect(run(ML, 'Imputer', '1', [t([4, 3], 'i64')]).elems).toEqual(['i64']);
    expect(run(ML, 'OneHotEncoder', '1', [t([2, 2], 'i64')], { cats_int64s: A.ints([1, 2, 3, 4]) }).shapes).toEqual([[2, 2, 4]]);
  });
  it('tree ensembles of opsets 1–3 and FeatureVectorizer', () => {
    expect(run(ML, 'TreeEnsembleRegressor', '3', [t([4, 3])], { n_targets: A.int(2) }).shapes).toEqual([[4, 2]]);
    const tec = run(ML, 'TreeEnsembleClassifier', '3', [t([3])], { classlabels_strings: A.strings(['a', 'b']) }, 2);
    expect([tec.shapes, tec.elems]).toEqual([[[1], [1, 2]], ['string', 'f32']]);
    expect(run(ML, 'SVMRegressor', '1', [t([4, 3])]).shapes).toEqual([[4, 1]]);
    const svc = (attrs: Record<string, Attr>) => run(ML, 'SVMClassifier', '1', [t([4, 3])], { classlabels_ints: A.ints([0, 1, 2, 3]), ...attrs }, 2).shapes;
    expect(svc({ vectors_per_class: A.ints([1, 1, 1, 1]) })).toEqual([[4], [4, 6]]);
    expect(svc({ vectors_per_class: A.ints([1, 1, 1, 1]), prob_a: A.floats([1, 1, 1, 1, 1, 1]) })).toEqual([[4], [4, 4]]);
    expect(svc({})).toEqual([[4], [4, 4]]);
    expect(run(ML, 'FeatureVectorizer', '1', [t([4, 3]), t([4, 2])], { inputdimensions: A.ints([3, 2]) }).shapes).toEqual([[4, 5]]);
  });
  it('ZipMap: a sequence of maps from the labels to float scalars', () => {
    const b = run(ML, 'ZipMap', '1', [t([4, 2])], { classlabels_int64s: A.ints([0, 1]) });
    expect(b.r.types.get([...b.r.types.keys()].find((v) => v.names[0] === 'out0')!)).toEqual({ kind: 'sequence', elem: { kind: 'map', key: 'i64', value: { kind: 'tensor', elem: 'f32', shape: [] } } });
  });
});
