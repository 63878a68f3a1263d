import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, verifyGraph, type Attr, type ElementTypeName, type Model } from '../../src/graph/index.js';
import type { Shape } from '../../src/graph/shape.js';
import { Builder } from './builder.js';

/**
 * ONNX → IR of the classic ai.onnx.ml ops (mappings/ml/): what the IR holds and what is refused.
 * The numbers are judged by the engines in test/conformance/ml-ops.test.ts (onnxruntime on the
 * model, OpenVINO on ovir's IR).
 */
const ML = 'ai.onnx.ml';

function model(op: string, attrs: Record<string, Attr>, outputs: string[], x: { elem?: ElementTypeName; shape?: Shape } = {}, opset = 3): Model {
  const b = new Builder('onnx', 17);
  b.model.onnx!.opsetImports.set(ML, opset);
  const n = b.graph.addNode({ dialect: 'onnx', op, domain: ML, version: String(opset), name: op.toLowerCase() });
  n.addInput(b.input('X', x.elem ?? 'f32', x.shape ?? [4, 3]));
  for (const [name, a] of Object.entries(attrs)) n.attrs.set(name, a);
  for (const o of outputs) b.output(n.addOutput(null, [o]));
  return b.model;
}
const ops = (m: Model) => [...allNodes(m.graph)].map((n) => n.op);
const refusal = (m: Model): string[] => {
  try { convertModel(m); return []; } catch (e) {
    return (e as OvirError).diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`);
  }
};

/**
 * Two trees: tree 0 (ids 5, 6, 7): node 5 x1 ≤ 0.5 → leaf 6, else leaf 7; tree 3 is one node
 * 2 x0 > 1 (true 0, false 1), leaves 0 and 1, listed after its branch. Weights per leaf and target.
 */
const TREES: Record<string, Attr> = {
  nodes_treeids: A.ints([0, 0, 0, 3, 3, 3]),
  nodes_nodeids: A.ints([5, 6, 7, 2, 0, 1]),
  nodes_featureids: A.ints([1, 0, 0, 0, 0, 0]),
  nodes_modes: A.strings(['BRANCH_LEQ', 'LEAF', 'LEAF', 'BRANCH_GT', 'LEAF', 'LEAF']),
  nodes_values: A.floats([0.5, 0, 0, 1, 0, 0]),
  nodes_truenodeids: A.ints([6, 0, 0, 0, 0, 0]),
  nodes_falsenodeids: A.ints([7, 0, 0, 1, 0, 0]),
};
const regressor = (extra: Record<string, Attr> = {}): Model => model('TreeEnsembleRegressor', {
  ...TREES, n_targets: A.int(2),
  target_ids: A.ints([0, 1, 0, 1, 0, 1, 0, 1]), target_treeids: A.ints([0, 0, 0, 0, 3, 3, 3, 3]), target_nodeids: A.ints([6, 6, 7, 7, 0, 0, 1, 1]),
  target_weights: A.floats([1, 2, 3, 4, 5, 6, 7, 8]), ...extra,
}, ['Y']);
const classifier = (labels: number[], extra: Record<string, Attr> = {}): Model => model('TreeEnsembleClassifier', {
  ...TREES, classlabels_int64s: A.ints(labels),
  class_ids: A.ints([0, 1, 0, 1, 0, 1, 0, 1]), class_treeids: A.ints([0, 0, 0, 0, 3, 3, 3, 3]), class_nodeids: A.ints([6, 6, 7, 7, 0, 0, 1, 1]),
  class_weights: A.floats([0.1, 0.9, 0.8, 0.2, 0.3, 0.7, 0.6, 0.4]), ...extra,
}, ['Y', 'Z']);

describe('TreeEnsembleRegressor / TreeEnsembleClassifier', () => {
  it('the regressor walks the node table one step per branch node of the deepest path: [N, n_targets] float', () => {
    const ir = convertModel(regressor());
    expect(ops(ir).filter((o) => o === 'GatherElements')).toHaveLength(1);
    expect(ops(ir)).not.toContain('TreeEnsembleRegressor');
    expect(ir.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [4, 2] });
    expect(verifyGraph(ir.graph)).toEqual([]);
  });
  it('a NaN is never ≥ or > a split: GT and GTE nodes mask IsNaN (OpenVINO\'s CPU plugin answers true)', () => {
    const o = ops(convertModel(regressor()));
    expect(o).toEqual(expect.arrayContaining(['Greater', 'IsNaN', 'LogicalNot']));
  });
  it('post_transform SOFTMAX is onnxruntime\'s formula, PROBIT its erfinv approximation', () => {
    expect(ops(convertModel(regressor({ post_transform: A.string('SOFTMAX') })))).toEqual(expect.arrayContaining(['ReduceMax', 'Maximum', 'Exp', 'ReduceSum', 'Divide']));
    expect(ops(convertModel(regressor({ post_transform: A.string('PROBIT') })))).toEqual(expect.arrayContaining(['Log', 'Sqrt']));
  });
  it('a classifier of more than two classes: labels by the first largest score (TopK stable), Z [N, classes]', () => {
    const three = classifier([4, 5, 6]);
    const ir = convertModel(three);
    expect(ops(ir)).toContain('TopK');
    expect(ir.graph.outputs.map((o) => o.type)).toMatchObject([{ elem: 'i64', shape: [4] }, { elem: 'f32', shape: [4, 3] }]);
    expect(verifyGraph(ir.graph)).toEqual([]);
  });
  it('two classes follow onnxruntime\'s binary rules: the label by Greater, no TopK', () => {
    const ir = convertModel(classifier([0, 1]));
    expect(ops(ir)).not.toContain('TopK');
    expect(ir.graph.outputs.map((o) => o.type)).toMatchObject([{ elem: 'i64', shape: [4] }, { elem: 'f32', shape: [4, 2] }]);
    expect(verifyGraph(ir.graph)).toEqual([]);
  });
  it('string labels are refused naming the attribute: IR cannot hold them', () => {
    expect(refusal(classifier([0, 1], { classlabels_int64s: A.ints([]), classlabels_strings: A.strings(['a', 'b']) })))
      .toEqual(["CONVERT_UNSUPPORTED_ATTR main/treeensembleclassifier: TreeEnsembleClassifier: attribute 'classlabels_strings' = strings is not supported (OpenVINO IR has no string element type: the labels output cannot be held)"]);
  });
  it('PROBIT on two classes where a sample may reach no class-1 weight is refused (onnxruntime leaves Z[:, 1] unwritten)', () => {
    const m = classifier([0, 1], { class_ids: A.ints([0, 0, 0, 0, 0, 0, 0, 0]), post_transform: A.string('PROBIT') });
    expect(refusal(m)).toEqual([expect.stringMatching(/^CONVERT_UNSUPPORTED_ATTR main\/treeensembleclassifier: .*'post_transform' = PROBIT .*second column of Z unwritten/)]);
  });
  it('bad tables are refused with what is wrong: unknown modes, missing children, leaves without weights, features past X', () => {
    expect(refusal(regressor({ nodes_modes: A.strings(['BRANCH_MEMBER', 'LEAF', 'LEAF', 'BRANCH_GT', 'LEAF', 'LEAF']) })))
      .toEqual([expect.stringMatching(/'nodes_modes' = BRANCH_MEMBER is not supported/)]);
    expect(refusal(regressor({ nodes_truenodeids: A.ints([9, 0, 0, 0, 0, 0]) })))
      .toEqual(['CONVERT_OP main/treeensembleregressor: TreeEnsembleRegressor: node 5 of tree 0: nodes_truenodeids = 9 names no node of that tree']);
    expect(refusal(regressor({ target_ids: A.ints([0, 1]), target_treeids: A.ints([0, 0]), target_nodeids: A.ints([6, 6]), target_weights: A.floats([1, 2]) })))
      .toEqual(['CONVERT_OP main/treeensembleregressor: TreeEnsembleRegressor: leaf 1 (in listing order) of tree 0 has no target weight']);
    expect(refusal(regressor({ nodes_featureids: A.ints([3, 0, 0, 0, 0, 0]) })))
      .toEqual([expect.stringMatching(/'nodes_featureids' = 3 is not supported \(X has 3 features\)/)]);
    expect(refusal(regressor({ aggregate_function: A.string('MEDIAN') }))).toEqual([expect.stringMatching(/'aggregate_function' = MEDIAN/)]);
  });
});

const single = (op: string, attrs: Record<string, Attr>, outputs = ['Y'], x: { elem?: ElementTypeName; shape?: Shape } = {}): Model => model(op, attrs, outputs, x, 1);

describe('linear models and preprocessing', () => {
  it('LinearRegressor is a MatMul by the coefficients plus the intercepts: [N, targets]', () => {
    const ir = convertModel(single('LinearRegressor', { coefficients: A.floats([1, 2, 3, 4, 5, 6]), intercepts: A.floats([1, 2]), targets: A.int(2) }));
    expect(ops(ir)).toEqual(['MatMul', 'Add']);
    expect(ir.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [4, 2] });
  });
  it('coefficients that are not whole rows of X\'s features are refused', () => {
    expect(refusal(single('LinearRegressor', { coefficients: A.floats([1, 2, 3, 4]), targets: A.int(2) })))
      .toEqual(['CONVERT_OP main/linearregressor: LinearRegressor: X has 3 features, coefficients 2 per output']);
  });
  it('LinearClassifier of one intercept needs two labels; PROBIT there and string labels are refused', () => {
    const binary = (extra: Record<string, Attr>) => single('LinearClassifier', { coefficients: A.floats([1, 2, 3]), intercepts: A.floats([0]), ...extra }, ['Y', 'Z']);
    expect(convertModel(binary({ classlabels_ints: A.ints([3, 7]) })).graph.outputs.map((o) => o.type)).toMatchObject([{ elem: 'i64', shape: [4] }, { elem: 'f32', shape: [4, 2] }]);
    expect(refusal(binary({ classlabels_ints: A.ints([3]) }))).toEqual([expect.stringMatching(/needs exactly 2 labels/)]);
    expect(refusal(binary({ classlabels_ints: A.ints([0, 1]), post_transform: A.string('PROBIT') }))).toEqual([expect.stringMatching(/'post_transform' = PROBIT is not supported/)]);
    expect(refusal(binary({ classlabels_strings: A.strings(['a', 'b']) }))).toEqual([expect.stringMatching(/'classlabels_strings' = strings is not supported/)]);
  });
  it('Scaler, Normalizer, Imputer keep X\'s shape; OneHotEncoder adds the categories; FeatureVectorizer concatenates', () => {
    expect(convertModel(single('Scaler', { offset: A.floats([1]), scale: A.floats([2]) })).graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [4, 3] });
    expect(ops(convertModel(single('Normalizer', { norm: A.string('L2') })))).toEqual(expect.arrayContaining(['ReduceSum', 'Sqrt', 'Select']));
    expect(ops(convertModel(single('Imputer', { imputed_value_floats: A.floats([1, 2, 3]), replaced_value_float: A.float(NaN) })))).toEqual(['IsNaN', 'Select']);
    expect(convertModel(single('OneHotEncoder', { cats_int64s: A.ints([4, 2]) }, ['Y'], { elem: 'i64' })).graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [4, 3, 2] });
    expect(convertModel(single('FeatureVectorizer', { inputdimensions: A.ints([5]) })).graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [4, 5] });
  });
  it('string categories and unknown norms are refused naming the attribute', () => {
    expect(refusal(single('OneHotEncoder', { cats_strings: A.strings(['a']) }))).toEqual([expect.stringMatching(/'cats_strings' = strings is not supported/)]);
    expect(refusal(single('Normalizer', { norm: A.string('L3') }))).toEqual([expect.stringMatching(/'norm' = L3 is not supported/)]);
  });
});

describe('SVMs', () => {
  const svc = (extra: Record<string, Attr> = {}) => single('SVMClassifier', {
    classlabels_ints: A.ints([1, 2, 3]), vectors_per_class: A.ints([1, 1, 1]), support_vectors: A.floats([1, 0, 0, 0, 1, 0, 0, 0, 1]),
    coefficients: A.floats([1, -1, 0.5, 0.5, 1, -1]), rho: A.floats([0.1, 0.2, 0.3]), kernel_type: A.string('RBF'), kernel_params: A.floats([0.5, 0, 0]), ...extra,
  }, ['Y', 'Z']);
  it('SVMClassifier one-vs-one: the RBF kernel from squared differences, pair scores by MatMul, votes, the first class with most', () => {
    const ir = convertModel(svc());
    expect(ops(ir)).toEqual(expect.arrayContaining(['Subtract', 'ReduceSum', 'Exp', 'MatMul', 'TopK']));
    expect(ir.graph.outputs.map((o) => o.type)).toMatchObject([{ elem: 'i64', shape: [4] }, { elem: 'f32', shape: [4, 3] }]);
    expect(verifyGraph(ir.graph)).toEqual([]);
  });
  it('probability estimates (prob_a, prob_b): Z is the classes\' probabilities, from libsvm\'s pairwise coupling in a Loop of 100 rounds; unpaired ones are refused', () => {
    const ir = convertModel(svc({ prob_a: A.floats([-1, -2, -1]), prob_b: A.floats([0, 0.1, 0]) }));
    expect(ops(ir)).toEqual(expect.arrayContaining(['Loop', 'TopK']));
    const loop = [...allNodes(ir.graph)].find((n) => n.op === 'Loop')!;
    expect(loop.inputs[0]!.constant?.dims).toEqual([]);
    expect(ir.graph.outputs.map((o) => o.type)).toMatchObject([{ elem: 'i64', shape: [4] }, { elem: 'f32', shape: [4, 3] }]);
    expect(verifyGraph(ir.graph)).toEqual([]);
    expect(refusal(svc({ prob_a: A.floats([1, 1, 1]), prob_b: A.floats([0, 0]) }))).toEqual([expect.stringMatching(/prob_a has 3 values and prob_b 2/)]);
    expect(refusal(svc({ prob_a: A.floats([1]), prob_b: A.floats([0]) }))).toEqual([expect.stringMatching(/prob_a and prob_b have 1 values for 3 class pairs/)]);
  });
  it('SVMRegressor: kernels · coefficients + rho, one_class as ±1: [N, 1]', () => {
    const ir = convertModel(single('SVMRegressor', { n_supports: A.int(2), support_vectors: A.floats([1, 0, 0, 0, 1, 0]), coefficients: A.floats([1, -1]), rho: A.floats([0.5]),
      kernel_type: A.string('POLY'), kernel_params: A.floats([0.5, 1, 3]), one_class: A.int(1) }));
    expect(ops(ir)).toContain('Select');
    expect(ir.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [4, 1] });
  });
});
