import { irSideOf, type OpMapping } from '../../mappings/spec.js';
import { A, type Attr, type ElementTypeName } from '../../src/graph/index.js';
import { TENSOR_SAMPLES } from './op-samples-tensor.js';

/**
 * One or more small instances of every mapping entry, by `onnxOp>irOp`: operand types (constants
 * where the op needs them), attributes, output count, and the opsets to try. Used by the table
 * tests (mappings.test.ts) and by the engine runs (test/conformance/if.test.ts).
 */
export interface In { elem: ElementTypeName; shape: number[]; ints?: number[]; floats?: number[] }
export interface Sample {
  inputs: (In | null)[];
  attrs?: Record<string, Attr>;
  outputs?: number;
  opsets?: number[];
  /** Attributes expected after ONNX → IR → ONNX when the round trip spells them differently. */
  back?: Record<string, Attr>;
}

export const F = (...shape: number[]): In => ({ elem: 'f32', shape: shape.length ? shape : [2, 3] });
export const B: In = { elem: 'boolean', shape: [2, 3] };
export const I = (...ints: number[]): In => ({ elem: 'i64', shape: [ints.length], ints });
export const IS = (v: number): In => ({ elem: 'i64', shape: [], ints: [v] });
export const W = (...shape: number[]): In => ({ elem: 'f32', shape, floats: Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => (i % 7) / 7) });

const unary: Sample[] = [{ inputs: [F()] }];
const binary: Sample[] = [{ inputs: [F(), F()] }];
const logical: Sample[] = [{ inputs: [B, B] }];

/** The samples key of an entry: `onnxOp>irOp`, or `onnxOp>onnxOp` for a decomposition (`ir: null`). */
export const sampleKey = (e: OpMapping): string => `${e.onnx.op}>${irSideOf(e)?.op ?? e.onnx.op}`;

/** Samples by `onnxOp>irOp`. */
export const SAMPLES: Record<string, Sample[]> = {
  'Constant>Const': [],
  'If>If': [], // If has its own suite (if-to-ir / if-to-onnx)
  'Loop>Loop': [], // Loop has its own suite (loop.test.ts; engines: test/conformance/loop.test.ts)
  'Scan>TensorIterator': [], // Scan has its own suite (test/convert/scan.test.ts)
  'LSTM>LSTMCell': [], 'GRU>GRUCell': [], 'RNN>RNNCell': [], // IR → ONNX only: test/convert/rnn-cells.test.ts
  // Checked by their own suite (test/convert-extra): ONNX ops written as several IR ops
  // (`ir: null`), and Pad / LSTM whose operands need hand-made fixtures.
  'ConstantOfShape>ConstantOfShape': [], 'Gemm>Gemm': [], 'Flatten>Flatten': [], 'Size>Size': [],
  'Pad>Pad': [], 'LSTM>LSTMSequence': [],
  // signal and integer / quantized ops: test/convert/signal-quant-ops.test.ts
  'HannWindow>HannWindow': [], 'HammingWindow>HammingWindow': [], 'BlackmanWindow>BlackmanWindow': [],
  'DFT>DFT': [], 'DFT>IDFT': [], 'DFT>RDFT': [], 'DFT>IRDFT': [], 'STFT>STFT': [],
  'MatMulInteger>MatMulInteger': [], 'ConvInteger>ConvInteger': [], 'QLinearConv>QLinearConv': [],
  'GRU>GRUSequence': [], 'PRelu>PRelu': [], 'LeakyRelu>LeakyRelu': [],
  'Reciprocal>Reciprocal': [], 'ThresholdedRelu>ThresholdedRelu': [],
  // ONNX ops written as other IR ops: test/convert-extra/nn-math-ops.test.ts (and the engines)
  'Sum>Sum': [], 'Mean>Mean': [], 'Max>Max': [], 'Min>Min': [], 'Celu>Celu': [], 'Shrink>Shrink': [],
  'LpPool>LpPool': [], 'LpNormalization>LpNormalization': [], 'AffineGrid>AffineGrid': [], 'CenterCropPad>CenterCropPad': [],
  'SwiGLU>SwiGLU': [], 'MaxUnpool>MaxUnpool': [], 'TensorScatter>TensorScatter': [], // test/convert-extra/native-decompositions.test.ts
  'CumProd>CumProd': [], // a Loop over the axis: test/convert/cumprod.test.ts
  // random numbers (engines judge distributions: test/conformance/random-ops.test.ts): test/convert/random-ops.test.ts
  'RandomUniform>RandomUniform': [], 'RandomUniformLike>RandomUniformLike': [], 'RandomNormal>RandomNormal': [],
  'RandomNormalLike>RandomNormalLike': [], 'Bernoulli>Bernoulli': [], 'Multinomial>Multinomial': [],
  'Det>Det': [], // elimination in a Loop: test/convert/det.test.ts
  'TfIdfVectorizer>TfIdfVectorizer': [], // strided Slices against the pool: test/convert/tfidf-vectorizer.test.ts
  'BitCast>BitCast': [], // a Convert where it keeps the bits: test/convert/bitcast.test.ts
  'MelWeightMatrix>MelWeightMatrix': [], // run-time scalars: test/convert/mel-weight-matrix.test.ts
  'CausalConvWithState>CausalConvWithState': [], // test/convert/causal-conv-with-state.test.ts
  'LinearAttention>LinearAttention': [], // a Loop over T: test/convert/linear-attention.test.ts
  'FlexAttention>FlexAttention': [], // test/convert/flex-attention.test.ts
  // ai.onnx.preview.training optimizers and ai.onnx.ml ops as IR arithmetic (ONNX → IR only): test/convert/training-ml.test.ts
  'Adagrad>Adagrad': [], 'Momentum>Momentum': [], 'Adam>Adam': [],
  'Binarizer>Binarizer': [], 'ArrayFeatureExtractor>ArrayFeatureExtractor': [], 'LabelEncoder>LabelEncoder': [], 'TreeEnsemble>TreeEnsemble': [],
  // onnxruntime's com.microsoft quantization ops (ONNX → IR only): test/convert/ms-quant.test.ts, engines in test/conformance/contrib-ops.test.ts
  'QLinearAdd>QLinearAdd': [], 'QLinearMul>QLinearMul': [], 'QLinearSigmoid>QLinearSigmoid': [], 'QLinearLeakyRelu>QLinearLeakyRelu': [],
  'QLinearConcat>QLinearConcat': [], 'QLinearGlobalAveragePool>QLinearGlobalAveragePool': [], 'QLinearAveragePool>QLinearAveragePool': [],
  'QLinearSoftmax>QLinearSoftmax': [], 'QLinearReduceMean>QLinearReduceMean': [], 'QLinearWhere>QLinearWhere': [], 'MatMulIntegerToFloat>MatMulIntegerToFloat': [],
  'DynamicQuantizeMatMul>DynamicQuantizeMatMul': [], 'QGemm>QGemm': [], 'MatMulNBits>MatMulNBits': [], 'DynamicQuantizeLSTM>DynamicQuantizeLSTM': [],
  'GatherBlockQuantized>GatherBlockQuantized': [], 'QAttention>QAttention': [], 'QEmbedLayerNormalization>QEmbedLayerNormalization': [],
  // classic ai.onnx.ml ops (ONNX → IR only): test/convert/ml-classic.test.ts, engines in test/conformance/ml-ops.test.ts
  'TreeEnsembleRegressor>TreeEnsembleRegressor': [], 'TreeEnsembleClassifier>TreeEnsembleClassifier': [],
  'LinearRegressor>LinearRegressor': [], 'LinearClassifier>LinearClassifier': [], 'Scaler>Scaler': [], 'Normalizer>Normalizer': [],
  'Imputer>Imputer': [], 'OneHotEncoder>OneHotEncoder': [], 'FeatureVectorizer>FeatureVectorizer': [],
  'SVMRegressor>SVMRegressor': [], 'SVMClassifier>SVMClassifier': [],
  // onnxruntime's com.microsoft transformer ops (ONNX → IR only; Gelu, Attention, RotaryEmbedding, Range, Trilu share ONNX ops' keys):
  // test/convert/microsoft-transformer.test.ts, engines in test/conformance/contrib-fusion.test.ts
  'BiasGelu>BiasGelu': [], 'FastGelu>FastGelu': [], 'QuickGelu>QuickGelu': [], 'BiasAdd>BiasAdd': [],
  'FusedMatMul>FusedMatMul': [], 'FusedConv>FusedConv': [], 'FusedGemm>FusedGemm': [],
  'SkipLayerNormalization>SkipLayerNormalization': [], 'GroupNorm>GroupNorm': [], 'SkipGroupNorm>SkipGroupNorm': [], 'SkipSimplifiedLayerNormalization>SkipSimplifiedLayerNormalization': [],
  'SimplifiedLayerNormalization>SimplifiedLayerNormalization': [], 'EmbedLayerNormalization>EmbedLayerNormalization': [],
  'MultiHeadAttention>MultiHeadAttention': [], 'GroupQueryAttention>GroupQueryAttention': [],
  'Sub>Sub': [], 'Mul>Mul': [], 'Div>Div': [], 'Pow>Pow': [], 'And>And': [], 'Or>Or': [], 'Xor>Xor': [],
  // sequence ops, resolved at conversion time (IR has no sequence; no IR → ONNX): test/convert/sequence.test.ts
  'SequenceEmpty>SequenceEmpty': [], 'SequenceConstruct>SequenceConstruct': [], 'SequenceInsert>SequenceInsert': [],
  'SequenceErase>SequenceErase': [], 'SequenceAt>SequenceAt': [], 'SequenceLength>SequenceLength': [],
  'SplitToSequence>SplitToSequence': [], 'ConcatFromSequence>ConcatFromSequence': [],
  'Optional>Optional': [], 'OptionalHasElement>OptionalHasElement': [], 'OptionalGetElement>OptionalGetElement': [],
  'Identity>Identity': unary,
  // ONNX attributes that are IR scalar inputs (non-defaults come back, defaults stay absent).
  'HardSigmoid>HardSigmoid': [{ inputs: [F()] }, { inputs: [F()], attrs: { alpha: A.float(0.25) }, opsets: [7, 22] }],
  'Selu>Selu': [{ inputs: [F()] }, { inputs: [F()], attrs: { alpha: A.float(1.5), gamma: A.float(2) } }],
  'CastLike>ConvertLike': [{ inputs: [F(), { elem: 'i64', shape: [1] }] }],
  'Cast>Convert': [{ inputs: [F()], attrs: { to: A.int(7) } }, { inputs: [F()], attrs: { to: A.int(9) }, opsets: [13, 19, 21] }],
  'Add>Add': binary, 'Sub>Subtract': binary, 'Mul>Multiply': binary, 'Div>Divide': binary, 'Pow>Power': binary,
  'Equal>Equal': binary, 'Greater>Greater': binary, 'Less>Less': binary,
  'GreaterOrEqual>GreaterEqual': binary, 'LessOrEqual>LessEqual': binary,
  'And>LogicalAnd': logical, 'Or>LogicalOr': logical, 'Xor>LogicalXor': logical, 'Not>LogicalNot': [{ inputs: [B] }],
  'Where>Select': [{ inputs: [B, F(), F()] }],
  'Max>Maximum': binary, 'Min>Minimum': binary,
  'Abs>Abs': unary, 'Neg>Negative': unary, 'Relu>Relu': unary, 'Sigmoid>Sigmoid': unary, 'Tanh>Tanh': unary,
  'Exp>Exp': unary, 'Log>Log': unary, 'Sqrt>Sqrt': unary, 'Floor>Floor': unary, 'Ceil>Ceiling': unary,
  'Erf>Erf': unary, 'Sin>Sin': unary, 'Cos>Cos': unary, 'Sign>Sign': unary,
  'Reshape>Reshape': [
    { inputs: [F(), I(3, 2)] },
    // allowzero=1 matters only where the shape holds a 0: elsewhere IR → ONNX leaves it out (valid before opset 14)
    { inputs: [F(), I(3, 2)], attrs: { allowzero: A.int(1) }, opsets: [14, 19], back: {} },
    { inputs: [{ elem: 'f32', shape: [0, 3] }, I(3, 0)], attrs: { allowzero: A.int(1) }, opsets: [14, 19] },
  ],
  'Squeeze>Squeeze': [
    { inputs: [F(1, 3)], attrs: { axes: A.ints([0]) }, opsets: [11] },
    { inputs: [F(1, 3), I(0)], opsets: [13, 21] },
    { inputs: [F(1, 3)], opsets: [11, 13] },
  ],
  'Unsqueeze>Unsqueeze': [
    { inputs: [F()], attrs: { axes: A.ints([0]) }, opsets: [7, 11] },
    { inputs: [F(), I(0)], opsets: [13, 21] },
  ],
  'Shape>ShapeOf': [{ inputs: [F()] }],
  'Concat>Concat': [{ inputs: [F(), F()], attrs: { axis: A.int(1) } }],
  'Transpose>Transpose': [{ inputs: [F()], attrs: { perm: A.ints([1, 0]) } }, { inputs: [F()], back: { perm: A.ints([1, 0]) } }],
  'Expand>Broadcast': [{ inputs: [F(1, 3), I(2, 3)] }],
  'Tile>Tile': [{ inputs: [F(), I(2, 1)] }],
  'Slice>Slice': [
    { inputs: [F(), I(0), I(1), I(1), I(1)], opsets: [10, 17] },
    // Slice-1: starts/ends/axes attributes
    { inputs: [F()], attrs: { starts: A.ints([0]), ends: A.ints([1]), axes: A.ints([1]) }, opsets: [7, 9] },
  ],
  'Range>Range': [{ inputs: [{ elem: 'f32', shape: [], floats: [0] }, { elem: 'f32', shape: [], floats: [5] }, { elem: 'f32', shape: [], floats: [1] }] }],
  'Split>Split': [{ inputs: [F(2, 4)], attrs: { axis: A.int(1) }, outputs: 2, opsets: [11, 13] }, { inputs: [F(2, 4)], attrs: { axis: A.int(1), num_outputs: A.int(2) }, outputs: 2, opsets: [18] }],
  'Split>VariadicSplit': [
    { inputs: [F(2, 4)], attrs: { axis: A.int(1), split: A.ints([1, 3]) }, outputs: 2, opsets: [11] },
    { inputs: [F(2, 4), I(1, 3)], attrs: { axis: A.int(1) }, outputs: 2, opsets: [13, 18] },
  ],
  'Gather>Gather': [{ inputs: [F(), I(1, 0)], attrs: { axis: A.int(1) } }, { inputs: [F(), I(0)] }],
  'Softmax>Softmax': [{ inputs: [F()], opsets: [13] }, { inputs: [F()], attrs: { axis: A.int(0) }, opsets: [13] }, { inputs: [F()], attrs: { axis: A.int(1) }, opsets: [11], back: {} }],
  'MatMul>MatMul': [{ inputs: [F(2, 3), F(3, 2)] }],
  'Clip>Clamp': [
    { inputs: [F(), { elem: 'f32', shape: [], floats: [0] }, { elem: 'f32', shape: [], floats: [6] }], opsets: [11, 17] },
    // Clip-1/6: min/max attributes, absent = no bound
    { inputs: [F()], attrs: { min: A.float(0), max: A.float(6) }, opsets: [7, 10] },
    { inputs: [F()], attrs: { max: A.float(6) }, opsets: [8] },
  ],
  'Conv>Convolution': [{ inputs: [F(1, 2, 5, 5), W(4, 2, 3, 3)], attrs: { pads: A.ints([1, 1, 1, 1]), strides: A.ints([2, 2]) } }],
  'Conv>GroupConvolution': [{ inputs: [F(1, 4, 5, 5), W(4, 2, 3, 3)], attrs: { group: A.int(2), dilations: A.ints([2, 2]) } }],
  'MaxPool>MaxPool': [{ inputs: [F(1, 1, 4, 4)], attrs: { kernel_shape: A.ints([2, 2]), strides: A.ints([2, 2]) } }, { inputs: [F(1, 1, 5, 5)], attrs: { kernel_shape: A.ints([2, 2]), ceil_mode: A.int(1), auto_pad: A.string('SAME_UPPER') }, opsets: [12] }],
  'AveragePool>AvgPool': [{ inputs: [F(1, 1, 4, 4)], attrs: { kernel_shape: A.ints([2, 2]), pads: A.ints([1, 1, 0, 0]), count_include_pad: A.int(1) } }],
  'BatchNormalization>BatchNormInference': [
    { inputs: [F(1, 2, 3, 3), W(2), W(2), W(2), W(2)], opsets: [9, 17] },
    { inputs: [F(1, 2, 3, 3), W(2), W(2), W(2), W(2)], attrs: { epsilon: A.float(0.001) }, opsets: [7, 9, 17] },
  ],
  'Tan>Tan': unary, 'Asin>Asin': unary, 'Acos>Acos': unary, 'Atan>Atan': unary, 'Sinh>Sinh': unary, 'Cosh>Cosh': unary,
  'Asinh>Asinh': unary, 'Acosh>Acosh': unary, 'Atanh>Atanh': unary, 'Softplus>SoftPlus': unary, 'HardSwish>HSwish': [{ inputs: [F()], opsets: [14] }],
  'Mish>Mish': [{ inputs: [F()], opsets: [18] }], 'IsNaN>IsNaN': unary, 'Round>Round': unary, 'Softsign>SoftSign': unary,
  // IR-only forms (mappings/ir-only/decompose.ts) have their own suite (ir-decompose.test.ts)
  'HardSigmoid>HSigmoid': [], 'Erf>ErfInv': [], 'LpNormalization>NormalizeL2': [], 'Softmax>ScaledDotProductAttention': [],
  // IR-only ops of OpenVINO's other frontends as ONNX subgraphs have their own suite (ir-only-ops.test.ts)
  ...Object.fromEntries(['ScatterElements>ScatterUpdate', 'Slice>SliceScatter', 'Range>Roll', 'Range>ShuffleChannels', 'LessOrEqual>Bucketize',
    'LessOrEqual>SearchSorted', 'ReduceSumSquare>GRN', 'ReduceSum>EmbeddingBagPackedSum', 'ReduceSum>EmbeddingBagPacked',
    'ScatterND>EmbeddingBagOffsetsSum', 'ScatterND>EmbeddingBagOffsets', 'ScatterND>EmbeddingSegmentsSum', 'Equal>NotEqual',
    'Sub>SquaredDifference', 'Equal>IsFinite', 'ReduceMean>AdaptiveAvgPool', 'ReduceMax>AdaptiveMaxPool', 'Transpose>SpaceToBatch', 'Transpose>BatchToSpace', 'ScatterND>SegmentMax'].map((key) => [key, []])),
  // IR-only ops of NNCF, the Open Model Zoo and other frontends (ir-frontend-ops.test.ts, native-ir-ops.test.ts)
  ...Object.fromEntries(['Cast>FakeConvert', 'Cast>ConvertPromoteTypes', 'Transpose>ReorgYolo', 'Sigmoid>RegionYolo', 'Gather>ExtractImagePatches', 'ScatterElements>CTCGreedyDecoderSeqLen', 'ScatterElements>CTCGreedyDecoder', 'MaxRoiPool>ROIPooling', 'Concat>NV12toRGB', 'Concat>NV12toBGR', 'Concat>I420toRGB', 'Concat>I420toBGR', 'Constant>PriorBoxClustered'].map((key) => [key, []])),
  // IR-only ops written as longer ONNX subgraphs (ir-only-subgraphs.test.ts, native-ir-ops.test.ts)
  ...Object.fromEntries(['CumSum>PSROIPooling', 'Loop>GatherTree', 'ScatterElements>ISTFT', 'Loop>Inverse', 'ScatterElements>SparseFillEmptyRows', 'Loop>CTCLoss'].map((key) => [key, []])),
  // the IR ops IR → ONNX read last (ir-ops-late.test.ts, native-ir-ops.test.ts)
  ...Object.fromEntries(['MatMul>GroupedMatMul', 'Concat>RGBtoNV12', 'Concat>BGRtoNV12'].map((key) => [key, []])),
  // the detection ops IR → ONNX read last (detection-late.test.ts, native-ir-ops.test.ts)
  ...Object.fromEntries(['Gather>ROIAlignRotated', 'Loop>NMSRotated', 'Loop>GenerateProposals', 'Gather>ExperimentalDetectronROIFeatureExtractor', 'Loop>ExperimentalDetectronDetectionOutput', 'Gather>DeformablePSROIPooling'].map((key) => [key, []])),
  // the SSD head of the Open Model Zoo (ssd-head.test.ts, native-ir-ops.test.ts)
  'Constant>PriorBox': [], 'NonMaxSuppression>DetectionOutput': [],
  // OpenVINO's detection post-processing as ONNX subgraphs (detection-nms.test.ts, native-ir-ops.test.ts)
  'NonMaxSuppression>MulticlassNms': [], 'TopK>MatrixNms': [], 'NonMaxSuppression>Proposal': [],
  'TopK>ExperimentalDetectronTopKROIs': [], 'Range>ExperimentalDetectronPriorGridGenerator': [],
  'NonMaxSuppression>ExperimentalDetectronGenerateProposalsSingleImage': [],
  // OpenVINO's state variables as graph inputs and outputs (state-variables.test.ts)
  'Identity>ReadValue': [], 'Identity>Assign': [],
  // ONNX reductions written as IR subgraphs (reduce-composite.test.ts)
  'ReduceSumSquare>ReduceSumSquare': [],
  // losses written as IR subgraphs: judged by the engines (conformance convert-onnx-ir, loss-ops.test.ts)
  'NegativeLogLikelihoodLoss>NegativeLogLikelihoodLoss': [], 'SoftmaxCrossEntropyLoss>SoftmaxCrossEntropyLoss': [], 'ReduceLogSum>ReduceLogSum': [], 'ReduceLogSumExp>ReduceLogSumExp': [],
  'Swish>Swish': [{ inputs: [F()], opsets: [24] }, { inputs: [F()], attrs: { alpha: A.float(0.5) }, opsets: [24] }],
  'Gelu>Gelu': [{ inputs: [F()], opsets: [20] }, { inputs: [F()], attrs: { approximate: A.string('tanh') }, opsets: [20] }],
  'BitwiseNot>BitwiseNot': [{ inputs: [{ elem: 'i32', shape: [2] }] }],
  'BitwiseAnd>BitwiseAnd': [{ inputs: [{ elem: 'i32', shape: [2] }, { elem: 'i32', shape: [2] }] }],
  'BitwiseOr>BitwiseOr': [{ inputs: [{ elem: 'i32', shape: [2] }, { elem: 'i32', shape: [2] }] }],
  'BitwiseXor>BitwiseXor': [{ inputs: [{ elem: 'i32', shape: [2] }, { elem: 'i32', shape: [2] }] }],
  'IsInf>IsInf': [{ inputs: [F()] }, { inputs: [F()], attrs: { detect_negative: A.int(0) } }],
  'Elu>Elu': [{ inputs: [F()] }, { inputs: [F()], attrs: { alpha: A.float(0.5) } }],
  'CumSum>CumSum': [{ inputs: [F(), IS(1)] }, { inputs: [F(), IS(0)], attrs: { exclusive: A.int(1), reverse: A.int(1) } }],
  'Mod>FloorMod': [{ inputs: [{ elem: 'i32', shape: [2] }, { elem: 'i32', shape: [2] }] }],
  'Mod>Mod': [{ inputs: [F(), F()], attrs: { fmod: A.int(1) } }],
  'GatherElements>GatherElements': [{ inputs: [F(), { elem: 'i64', shape: [2, 3], ints: [0, 1, 2, 0, 1, 2] }], attrs: { axis: A.int(1) } }],
  'NonZero>NonZero': [{ inputs: [F()] }],
  'TopK>TopK': [
    { inputs: [F(), I(2)], outputs: 2 },
    { inputs: [F(), I(1)], attrs: { axis: A.int(0), largest: A.int(0) }, outputs: 2 },
  ],
  'LogSoftmax>LogSoftmax': [{ inputs: [F()] }, { inputs: [F()], attrs: { axis: A.int(0) }, opsets: [13] }],
  'Einsum>Einsum': [{ inputs: [F(2, 3), F(3, 2)], attrs: { equation: A.string('ij,jk->ik') } }],
  'DepthToSpace>DepthToSpace': [{ inputs: [F(1, 4, 2, 2)], attrs: { blocksize: A.int(2) } }, { inputs: [F(1, 4, 2, 2)], attrs: { blocksize: A.int(2), mode: A.string('CRD') } }],
  'SpaceToDepth>SpaceToDepth': [{ inputs: [F(1, 1, 4, 4)], attrs: { blocksize: A.int(2) } }],
  'ReduceL1>ReduceL1': [{ inputs: [F()], attrs: { axes: A.ints([1]) }, opsets: [13] }, { inputs: [F(), I(1)], opsets: [18] }],
  // their own suite: test/convert-extra/mappings-extra.test.ts
  'GlobalAveragePool>GlobalAveragePool': [], 'Dropout>Dropout': [], 'RMSNormalization>RMSNormalization': [], 'Attention>Attention': [],
  'GroupNormalization>GroupNormalization': [], 'RotaryEmbedding>RotaryEmbedding': [],
  'GridSample>GridSample': [
    { inputs: [F(1, 1, 3, 3), F(1, 2, 2, 2)], attrs: { align_corners: A.int(1), mode: A.string('nearest'), padding_mode: A.string('border') }, opsets: [16] },
    { inputs: [F(1, 1, 3, 3), F(1, 2, 2, 2)], attrs: { mode: A.string('cubic'), padding_mode: A.string('reflection') }, opsets: [20, 22] },
  ],
  'RoiAlign>ROIAlign': [
    { inputs: [F(1, 2, 6, 6), { elem: 'f32', shape: [2, 4], floats: [0, 0, 4, 4, 1.5, 0.5, 5, 3.25] }, I(0, 0)], attrs: { output_height: A.int(2), output_width: A.int(3), sampling_ratio: A.int(2) }, opsets: [10] },
    { inputs: [F(1, 2, 6, 6), { elem: 'f32', shape: [2, 4], floats: [0, 0, 4, 4, 1.5, 0.5, 5, 3.25] }, I(0, 0)], attrs: { coordinate_transformation_mode: A.string('output_half_pixel'), spatial_scale: A.float(0.5) }, opsets: [16] },
    { inputs: [F(1, 2, 6, 6), { elem: 'f32', shape: [2, 4], floats: [0, 0, 4, 4, 1.5, 0.5, 5, 3.25] }, I(0, 0)], attrs: { output_height: A.int(3), output_width: A.int(2) }, opsets: [16] },
  ],
  'Col2Im>Col2Im': [
    { inputs: [F(1, 4, 9), I(4, 4), I(2, 2)], opsets: [18] },
    { inputs: [F(1, 4, 9), I(4, 4), I(2, 2)], attrs: { strides: A.ints([2, 2]), pads: A.ints([1, 1, 1, 1]) }, opsets: [18] },
    { inputs: [F(1, 4, 9), I(5, 5), I(2, 2)], attrs: { dilations: A.ints([2, 2]) }, opsets: [18] },
  ],
  'DeformConv>DeformableConvolution': [
    { inputs: [F(1, 2, 4, 4), W(3, 2, 2, 2), F(1, 8, 3, 3)], opsets: [19] },
    { inputs: [F(1, 2, 4, 4), W(2, 1, 2, 2), F(1, 16, 5, 5), W(2), F(1, 8, 5, 5)], attrs: { group: A.int(2), offset_group: A.int(2), pads: A.ints([1, 1, 1, 1]) }, opsets: [22] },
    { inputs: [F(1, 2, 5, 5), W(2, 2, 2, 2), F(1, 8, 2, 3), null, F(1, 4, 2, 3)], attrs: { strides: A.ints([2, 1]), dilations: A.ints([1, 2]) }, opsets: [19] },
  ],
  'LRN>LRN': [{ inputs: [F(1, 5, 2, 2)], attrs: { size: A.int(3) } }, { inputs: [F(1, 5, 2, 2)], attrs: { size: A.int(3), alpha: A.float(0.0002), beta: A.float(0.5), bias: A.float(2) } }], 'GlobalMaxPool>GlobalMaxPool': [], 'GlobalLpPool>GlobalLpPool': [],
  'Resize>Interpolate': [
    { inputs: [F(1, 1, 2, 2), { elem: 'f32', shape: [0], floats: [] }, { elem: 'f32', shape: [4], floats: [1, 1, 2, 2] }], attrs: { coordinate_transformation_mode: A.string('asymmetric'), nearest_mode: A.string('floor') }, opsets: [11] },
    { inputs: [F(1, 1, 2, 2), null, { elem: 'f32', shape: [4], floats: [1, 1, 2, 1.5] }], attrs: { mode: A.string('linear'), coordinate_transformation_mode: A.string('align_corners') }, opsets: [13, 19] },
    { inputs: [F(1, 1, 2, 2), null, null, I(1, 1, 3, 5)], attrs: { mode: A.string('cubic'), cubic_coeff_a: A.float(-0.5) }, opsets: [13] },
    { inputs: [F(1, 1, 2, 2), null, { elem: 'f32', shape: [2], floats: [2, 2] }], attrs: { mode: A.string('linear'), antialias: A.int(1), axes: A.ints([2, 3]) }, opsets: [18] },
    // Resize-10: asymmetric, nearest or linear by scales
    { inputs: [F(1, 1, 2, 2), { elem: 'f32', shape: [4], floats: [1, 1, 2, 3] }], opsets: [10] },
  ],
  'Upsample>Interpolate': [
    { inputs: [F(1, 1, 2, 2)], attrs: { scales: A.floats([1, 1, 2, 2]) }, opsets: [7] },
    { inputs: [F(1, 1, 2, 2), { elem: 'f32', shape: [4], floats: [1, 1, 2, 2] }], attrs: { mode: A.string('linear') }, opsets: [9] },
  ],
  'ConvTranspose>ConvolutionBackpropData': [
    { inputs: [F(1, 2, 3, 3), W(2, 4, 3, 3)], attrs: { strides: A.ints([2, 2]), pads: A.ints([1, 1, 0, 0]), output_padding: A.ints([1, 1]) } },
    { inputs: [F(1, 2, 3, 3), W(2, 4, 3, 3)], attrs: { strides: A.ints([2, 2]), output_shape: A.ints([8, 8]) }, back: { strides: A.ints([2, 2]), output_padding: A.ints([1, 1]) } },
  ],
  'ConvTranspose>GroupConvolutionBackpropData': [
    { inputs: [F(1, 4, 3, 3), W(4, 2, 3, 3)], attrs: { group: A.int(2), dilations: A.ints([2, 2]) } },
  ],
  'RNN>RNNSequence': [],
  'MeanVarianceNormalization>MVN': [],
  'LayerNormalization>LayerNormalization': [],
  'InstanceNormalization>InstanceNormalization': [],
  'ArgMax>ArgMax': [],
  'ArgMin>ArgMin': [],
  // boolean ReduceMax/Min ⇄ ReduceLogicalOr/And: test/convert/onnx-semantics.test.ts
  'ReduceMax>ReduceLogicalOr': [],
  'ReduceMin>ReduceLogicalAnd': [],
  'ReduceL2>ReduceL2': [{ inputs: [F()], attrs: { axes: A.ints([1]) }, opsets: [13] }, { inputs: [F(), I(1)], opsets: [18] }],
};
for (const op of ['ReduceMax', 'ReduceMin', 'ReduceMean', 'ReduceProd']) {
  SAMPLES[`${op}>${op}`] = [
    { inputs: [F()], attrs: { axes: A.ints([1]) }, opsets: [13] },
    { inputs: [F()], attrs: { axes: A.ints([1]), keepdims: A.int(0) }, opsets: [13] },
    { inputs: [F(), I(1)], opsets: [18] },
  ];
}
SAMPLES['ReduceSum>ReduceSum'] = [{ inputs: [F()], attrs: { axes: A.ints([0]) }, opsets: [11] }, { inputs: [F(), I(1)], attrs: { keepdims: A.int(0) }, opsets: [13] }];

Object.assign(SAMPLES, TENSOR_SAMPLES);
