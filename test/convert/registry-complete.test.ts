import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_MAPPINGS } from '../../mappings/index.js';
import { irSideOf, irVersionsOf, type OpMapping } from '../../mappings/spec.js';
import { MAX_ONNX_OPSET } from '../../src/convert/index.js';
import { defaultRegistry } from '../../src/shape/rules/index.js';
import { SAMPLES, sampleKey } from './op-samples.js';

/**
 * The one op table is complete: every mapping entry has, for every version it covers,
 * - an ONNX shape rule (each opset of its ONNX range, up to the newest opset ovir emits),
 * - an OpenVINO shape rule (each IR version it reads or writes; for a decomposition, each IR op
 *   it is written as),
 * - round-trip samples in op-samples.ts, or a suite of its own (OWN_SUITE, which must exist and
 *   name the op).
 * What is missing is named. Entries that lacked something when this test was written are listed
 * in ALLOWED with the reason; a new entry cannot be added incomplete, and an allowance that is no
 * longer needed fails too (so the list only shrinks).
 */

/** Entries checked by a suite of their own instead of op-samples (the file must name the op). */
const OWN_SUITE: Record<string, string> = {
  'Constant>Const': 'test/convert/constant.test.ts',
  'If>If': 'test/convert/if-to-ir.test.ts',
  'Loop>Loop': 'test/convert/loop.test.ts',
  'Scan>TensorIterator': 'test/convert/scan.test.ts',
  'ConstantOfShape>ConstantOfShape': 'test/convert-extra/mappings-extra.test.ts',
  'Gemm>Gemm': 'test/convert-extra/mappings-extra.test.ts',
  'Flatten>Flatten': 'test/convert-extra/mappings-extra.test.ts',
  'Size>Size': 'test/convert-extra/mappings-extra.test.ts',
  'Pad>Pad': 'test/convert-extra/mappings-extra.test.ts',
  'LSTM>LSTMSequence': 'test/convert-extra/mappings-extra.test.ts',
  'GRU>GRUSequence': 'test/convert-extra/mappings-extra.test.ts',
  'RNN>RNNSequence': 'test/convert-extra/mappings-extra.test.ts',
  'LSTM>LSTMCell': 'test/convert/rnn-cells.test.ts',
  'GRU>GRUCell': 'test/convert/rnn-cells.test.ts',
  'RNN>RNNCell': 'test/convert/rnn-cells.test.ts',
  'PRelu>PRelu': 'test/convert-extra/mappings-extra.test.ts',
  'LeakyRelu>LeakyRelu': 'test/convert-extra/mappings-extra.test.ts',
  'Reciprocal>Reciprocal': 'test/convert-extra/mappings-extra.test.ts',
  'ThresholdedRelu>ThresholdedRelu': 'test/convert-extra/mappings-extra.test.ts',
  'MeanVarianceNormalization>MVN': 'test/convert-extra/mappings-extra.test.ts',
  'LayerNormalization>LayerNormalization': 'test/convert-extra/mappings-extra.test.ts',
  'InstanceNormalization>InstanceNormalization': 'test/convert-extra/mappings-extra.test.ts',
  'ArgMax>ArgMax': 'test/convert-extra/mappings-extra.test.ts',
  'ArgMin>ArgMin': 'test/convert-extra/mappings-extra.test.ts',
  'GlobalAveragePool>GlobalAveragePool': 'test/convert-extra/nn-vision.test.ts',
  'GlobalMaxPool>GlobalMaxPool': 'test/convert-extra/nn-vision.test.ts',
  'GlobalLpPool>GlobalLpPool': 'test/convert-extra/nn-vision.test.ts',
  'Dropout>Dropout': 'test/convert-extra/nn-vision.test.ts',
  'RMSNormalization>RMSNormalization': 'test/convert-extra/nn-vision.test.ts',
  'Attention>Attention': 'test/convert-extra/attention.test.ts',
  'RotaryEmbedding>RotaryEmbedding': 'test/convert-extra/attention.test.ts',
  'GroupNormalization>GroupNormalization': 'test/convert-extra/group-normalization.test.ts',
  'Slice>StridedSlice': 'test/convert/tensor-ops.test.ts',
  'Slice>Reverse': 'test/convert/tensor-ops.test.ts',
  'Trilu>Trilu': 'test/convert/tensor-ops.test.ts',
  'Hardmax>Hardmax': 'test/convert/tensor-ops.test.ts',
  'OneHot>OneHot': 'test/convert/tensor-ops.test.ts',
  'EyeLike>Eye': 'test/convert/tensor-ops.test.ts',
  'NonMaxSuppression>NonMaxSuppression': 'test/convert/tensor-ops.test.ts',
  'QuantizeLinear>QuantizeLinear': 'test/convert/tensor-ops.test.ts',
  'DequantizeLinear>DequantizeLinear': 'test/convert/tensor-ops.test.ts',
  'QLinearMatMul>QLinearMatMul': 'test/convert/tensor-ops.test.ts',
  'DynamicQuantizeLinear>DynamicQuantizeLinear': 'test/convert/tensor-ops.test.ts',
  'QuantizeLinear>FakeQuantize': 'test/convert/tensor-ops.test.ts',
  'Compress>Compress': 'test/convert/tensor-ops.test.ts',
  'ReduceMax>ReduceLogicalOr': 'test/convert/onnx-semantics.test.ts',
  'ReduceMin>ReduceLogicalAnd': 'test/convert/onnx-semantics.test.ts',
  'HardSigmoid>HSigmoid': 'test/convert/ir-decompose.test.ts',
  'Erf>ErfInv': 'test/convert/ir-decompose.test.ts',
  'LpNormalization>NormalizeL2': 'test/convert/ir-decompose.test.ts',
  'Softmax>ScaledDotProductAttention': 'test/convert/ir-decompose.test.ts',
  'ReduceSumSquare>ReduceSumSquare': 'test/convert/reduce-composite.test.ts',
  'ReduceLogSum>ReduceLogSum': 'test/convert/reduce-composite.test.ts',
  'ReduceLogSumExp>ReduceLogSumExp': 'test/convert/reduce-composite.test.ts',
  'NegativeLogLikelihoodLoss>NegativeLogLikelihoodLoss': 'test/convert/loss-ops.test.ts',
  'SoftmaxCrossEntropyLoss>SoftmaxCrossEntropyLoss': 'test/convert/loss-ops.test.ts',
  ...Object.fromEntries(['Sum', 'Mean', 'Max', 'Min', 'Celu', 'Shrink', 'Sub', 'Mul', 'Div', 'Pow', 'And', 'Or', 'Xor',
      'LpPool', 'LpNormalization', 'AffineGrid', 'CenterCropPad']
    .map((op) => [`${op}>${op}`, 'test/convert-extra/nn-math-ops.test.ts'])),
  ...Object.fromEntries(['SwiGLU', 'MaxUnpool', 'TensorScatter'].map((op) => [`${op}>${op}`, 'test/convert-extra/native-decompositions.test.ts'])),
  'CumProd>CumProd': 'test/convert/cumprod.test.ts',
  ...Object.fromEntries(['RandomUniform>RandomUniform', 'RandomUniformLike>RandomUniformLike', 'RandomNormal>RandomNormal',
      'RandomNormalLike>RandomNormalLike', 'Bernoulli>Bernoulli', 'Multinomial>Multinomial'].map((key) => [key, 'test/convert/random-ops.test.ts'])),
  // onnxruntime's com.microsoft quantization contrib ops (ONNX → IR only; engines in test/conformance/contrib-ops.test.ts)
  ...Object.fromEntries(['QLinearAdd', 'QLinearMul', 'QLinearSigmoid', 'QLinearLeakyRelu', 'QLinearConcat', 'QLinearGlobalAveragePool',
      'QLinearAveragePool', 'QLinearSoftmax', 'QLinearReduceMean', 'QLinearWhere', 'MatMulIntegerToFloat', 'DynamicQuantizeMatMul', 'QGemm', 'MatMulNBits', 'DynamicQuantizeLSTM', 'GatherBlockQuantized']
    .map((op) => [`${op}>${op}`, 'test/convert/ms-quant.test.ts'])),
  ...Object.fromEntries(['QAttention', 'QEmbedLayerNormalization'].map((op) => [`${op}>${op}`, 'test/convert/ms-quant.test.ts'])),
  'Det>Det': 'test/convert/det.test.ts',
  'TfIdfVectorizer>TfIdfVectorizer': 'test/convert/tfidf-vectorizer.test.ts',
  'BitCast>BitCast': 'test/convert/bitcast.test.ts',
  'MelWeightMatrix>MelWeightMatrix': 'test/convert/mel-weight-matrix.test.ts',
  'CausalConvWithState>CausalConvWithState': 'test/convert/causal-conv-with-state.test.ts',
  'LinearAttention>LinearAttention': 'test/convert/linear-attention.test.ts',
  'FlexAttention>FlexAttention': 'test/convert/flex-attention.test.ts',
  ...Object.fromEntries(['Adagrad', 'Momentum', 'Adam', 'Binarizer', 'ArrayFeatureExtractor', 'LabelEncoder', 'TreeEnsemble']
    .map((op) => [`${op}>${op}`, 'test/convert/training-ml.test.ts'])),
  ...Object.fromEntries(['TreeEnsembleRegressor', 'TreeEnsembleClassifier', 'LinearRegressor', 'LinearClassifier', 'Scaler', 'Normalizer', 'Imputer',
      'OneHotEncoder', 'FeatureVectorizer', 'SVMRegressor', 'SVMClassifier']
    .map((op) => [`${op}>${op}`, 'test/convert/ml-classic.test.ts'])),
  ...Object.fromEntries(['ScatterElements>ScatterUpdate', 'Slice>SliceScatter', 'Range>Roll', 'Range>ShuffleChannels', 'LessOrEqual>Bucketize',
      'LessOrEqual>SearchSorted', 'ReduceSumSquare>GRN', 'ReduceSum>EmbeddingBagPackedSum', 'ReduceSum>EmbeddingBagPacked',
      'ScatterND>EmbeddingBagOffsetsSum', 'ScatterND>EmbeddingBagOffsets', 'ScatterND>EmbeddingSegmentsSum', 'Equal>NotEqual',
      'Sub>SquaredDifference', 'Equal>IsFinite', 'ReduceMean>AdaptiveAvgPool', 'ReduceMax>AdaptiveMaxPool', 'Transpose>SpaceToBatch', 'Transpose>BatchToSpace', 'ScatterND>SegmentMax'].map((key) => [key, 'test/convert/ir-only-ops.test.ts'])),
  // IR-only ops of NNCF, the Open Model Zoo and other frontends (mappings/quantization/fake-convert.ts, …)
  ...Object.fromEntries(['Cast>FakeConvert', 'Cast>ConvertPromoteTypes', 'Transpose>ReorgYolo', 'Sigmoid>RegionYolo', 'Gather>ExtractImagePatches', 'ScatterElements>CTCGreedyDecoderSeqLen', 'ScatterElements>CTCGreedyDecoder', 'MaxRoiPool>ROIPooling', 'Concat>NV12toRGB', 'Concat>NV12toBGR', 'Concat>I420toRGB', 'Concat>I420toBGR', 'Constant>PriorBoxClustered'].map((key) => [key, 'test/convert/ir-frontend-ops.test.ts'])),
  // IR-only ops written as longer ONNX subgraphs (s8-irmore)
  ...Object.fromEntries(['CumSum>PSROIPooling', 'Loop>GatherTree', 'ScatterElements>ISTFT', 'Loop>Inverse', 'ScatterElements>SparseFillEmptyRows', 'Loop>CTCLoss'].map((key) => [key, 'test/convert/ir-only-subgraphs.test.ts'])),
  // the IR ops IR → ONNX read last (s19-irops)
  ...Object.fromEntries(['MatMul>GroupedMatMul', 'Concat>RGBtoNV12', 'Concat>BGRtoNV12'].map((key) => [key, 'test/convert/ir-ops-late.test.ts'])),
  // the detection ops IR → ONNX read last (s19-det)
  ...Object.fromEntries(['Gather>ROIAlignRotated', 'Loop>NMSRotated', 'Loop>GenerateProposals', 'Gather>ExperimentalDetectronROIFeatureExtractor', 'Loop>ExperimentalDetectronDetectionOutput', 'Gather>DeformablePSROIPooling'].map((key) => [key, 'test/convert/detection-late.test.ts'])),
  // the SSD head of the Open Model Zoo (mappings/object_detection/prior-box.ts, detection-output.ts)
  'Constant>PriorBox': 'test/convert/ssd-head.test.ts',
  'NonMaxSuppression>DetectionOutput': 'test/convert/ssd-head.test.ts',
  // OpenVINO's detection post-processing as ONNX subgraphs (detection-nms.test.ts, native-ir-ops.test.ts)
  'NonMaxSuppression>MulticlassNms': 'test/convert/detection-nms.test.ts', 'TopK>MatrixNms': 'test/convert/detection-nms.test.ts', 'NonMaxSuppression>Proposal': 'test/convert/detection-nms.test.ts',
  'TopK>ExperimentalDetectronTopKROIs': 'test/convert/detection-nms.test.ts', 'Range>ExperimentalDetectronPriorGridGenerator': 'test/convert/detection-nms.test.ts',
  'NonMaxSuppression>ExperimentalDetectronGenerateProposalsSingleImage': 'test/convert/detection-nms.test.ts',
  // onnxruntime's contrib ops of transformer models (mappings/microsoft/; engines: test/conformance/contrib-fusion.test.ts)
  ...Object.fromEntries(['Gelu', 'BiasGelu', 'FastGelu', 'QuickGelu', 'BiasAdd', 'FusedMatMul', 'FusedConv', 'FusedGemm', 'SkipLayerNormalization',
      'SkipSimplifiedLayerNormalization', 'EmbedLayerNormalization', 'GroupNorm', 'SkipGroupNorm', 'Attention', 'MultiHeadAttention', 'GroupQueryAttention', 'RotaryEmbedding', 'Range', 'Trilu', 'Pad', 'GatherND'].map((op) => [`com.microsoft:${op}>${op}`, 'test/convert/microsoft-transformer.test.ts'])),
  'SimplifiedLayerNormalization>SimplifiedLayerNormalization': 'test/convert/microsoft-transformer.test.ts',
  'Identity>ReadValue': 'test/convert/state-variables.test.ts',
  'Identity>Assign': 'test/convert/state-variables.test.ts',
  'HannWindow>HannWindow': 'test/convert/signal-quant-ops.test.ts',
  'HammingWindow>HammingWindow': 'test/convert/signal-quant-ops.test.ts',
  'BlackmanWindow>BlackmanWindow': 'test/convert/signal-quant-ops.test.ts',
  'DFT>DFT': 'test/convert/signal-quant-ops.test.ts',
  'DFT>IDFT': 'test/convert/signal-quant-ops.test.ts',
  'DFT>RDFT': 'test/convert/signal-quant-ops.test.ts',
  'DFT>IRDFT': 'test/convert/signal-quant-ops.test.ts',
  'STFT>STFT': 'test/convert/signal-quant-ops.test.ts',
  'MatMulInteger>MatMulInteger': 'test/convert/signal-quant-ops.test.ts',
  'ConvInteger>ConvInteger': 'test/convert/signal-quant-ops.test.ts',
  'QLinearConv>QLinearConv': 'test/convert/signal-quant-ops.test.ts',
  ...Object.fromEntries(['SequenceEmpty', 'SequenceConstruct', 'SequenceInsert', 'SequenceErase', 'SequenceAt', 'SequenceLength',
      'SplitToSequence', 'ConcatFromSequence', 'Optional', 'OptionalHasElement', 'OptionalGetElement']
    .map((op) => [`${op}>${op}`, 'test/convert/sequence.test.ts'])),
};

/** Gaps that existed when the completeness test was introduced: `problem` → reason. */
const ALLOWED: Record<string, string> = {
  'Constant>Const (ONNX 1..): no OpenVINO shape rule for Const opset1':
    'IR Const is a graph initializer in ovir, not a node: no rule is ever looked up for it',
};

const range = (e: OpMapping): string => `${e.onnx.since}..${e.onnx.until ?? ''}`;
const opsetOf = (v: string): number => Number(/^opset(\d+)$/.exec(v)?.[1] ?? NaN);

/** What an entry lacks, one line per gap, each naming entry, dialect, op and versions. */
function gaps(e: OpMapping): string[] {
  const reg = defaultRegistry();
  const out: string[] = [];
  const name = `${sampleKey(e)} (ONNX ${range(e)})`;
  const missingOnnx: number[] = [];
  for (let v = e.onnx.since; v <= Math.min(e.onnx.until ?? MAX_ONNX_OPSET, MAX_ONNX_OPSET); v++) {
    if (!reg.lookup('onnx', e.onnx.domain ?? '', e.onnx.op, v)) missingOnnx.push(v);
  }
  if (missingOnnx.length) out.push(`${name}: no ONNX shape rule for ${e.onnx.op} at opset ${missingOnnx.join(', ')}`);
  const ir = irSideOf(e);
  if (ir) {
    for (const v of irVersionsOf(e)) {
      if (!reg.lookup('ov', '', ir.op, opsetOf(v))) out.push(`${name}: no OpenVINO shape rule for ${ir.op} ${v}`);
    }
  } else {
    // a sequence op resolved at conversion time may write no IR op at all (decomposes: [])
    if (e.decomposes === undefined || (!e.decomposes.length && !e.sequences)) out.push(`${name}: a decomposition (ir: null) must list the IR ops it is written as (decomposes)`);
    for (const op of e.decomposes ?? []) {
      if (!reg.keys.includes(`ov::${op}`)) out.push(`${name}: no OpenVINO shape rule for ${op}, which it is written as`);
    }
    if (e.ir !== null) out.push(`${name}: legacy spelling version: 'decomposed' (write ir: null, decomposes: [...])`);
  }
  const key = sampleKey(e);
  // an op of another domain may name its suite as '<domain>:<key>' (com.microsoft Gelu is not ONNX Gelu-20, whose samples its key finds)
  const own = (e.onnx.domain ? OWN_SUITE[`${e.onnx.domain}:${key}`] : undefined) ?? OWN_SUITE[key];
  if (own !== undefined) {
    if (!existsSync(own) || !readFileSync(own, 'utf8').includes(e.onnx.op)) out.push(`${name}: its own suite ${own} does not exist or does not name ${e.onnx.op}`);
  } else if (!SAMPLES[key]?.length) {
    out.push(`${name}: no samples in test/convert/op-samples.ts (key '${key}') and no suite of its own`);
  }
  return out;
}

describe('the op table is complete', () => {
  const all = ALL_MAPPINGS.flatMap(gaps);

  it('every entry has ONNX and OpenVINO shape rules for its versions, and samples or a suite', () => {
    expect(all.filter((g) => !(g in ALLOWED))).toEqual([]);
  });

  it('every allowance is still needed', () => {
    expect(Object.keys(ALLOWED).filter((g) => !all.includes(g))).toEqual([]);
  });

  it('a gap is named: an entry without shape rules or samples', () => {
    const bare: OpMapping = { onnx: { op: 'NoSuchOp', since: 24 }, ir: { op: 'NoSuchOp', version: 'opset3', reads: ['opset1'] } };
    expect(gaps(bare)).toEqual([
      'NoSuchOp>NoSuchOp (ONNX 24..): no ONNX shape rule for NoSuchOp at opset 24, 25',
      'NoSuchOp>NoSuchOp (ONNX 24..): no OpenVINO shape rule for NoSuchOp opset3',
      'NoSuchOp>NoSuchOp (ONNX 24..): no OpenVINO shape rule for NoSuchOp opset1',
      "NoSuchOp>NoSuchOp (ONNX 24..): no samples in test/convert/op-samples.ts (key 'NoSuchOp>NoSuchOp') and no suite of its own",
    ]);
  });
});
