/**
 * OpenVINO op type names. A layer's `type` is matched case-insensitively (as OpenVINO's opset
 * lookup does) against the canonical names of the OpenVINO model (Relu, Softmax, PRelu, Constant);
 * the serializer translates four of them for IR (Const, ReLU, SoftMax, PReLU).
 */
export const CANONICAL_OPS: readonly string[] = [
  'Abs', 'Acos', 'Acosh', 'AdaptiveAvgPool', 'AdaptiveMaxPool', 'Add', 'Asin', 'Asinh', 'Assign', 'Atan', 'Atanh',
  'AvgPool', 'BatchNormInference', 'BatchToSpace', 'BinaryConvolution', 'BitwiseAnd', 'BitwiseLeftShift',
  'BitwiseNot', 'BitwiseOr', 'BitwiseRightShift', 'BitwiseXor', 'Broadcast', 'Bucketize', 'Ceiling', 'Clamp',
  'Col2Im', 'Concat', 'Constant', 'Convert', 'ConvertLike', 'ConvertPromoteTypes', 'Convolution',
  'ConvolutionBackpropData', 'Cos', 'Cosh', 'CTCGreedyDecoder', 'CTCGreedyDecoderSeqLen', 'CTCLoss', 'CumSum',
  'DeformableConvolution', 'DeformablePSROIPooling', 'DepthToSpace', 'DetectionOutput', 'DFT', 'Divide', 'Einsum',
  'Elu', 'EmbeddingBagOffsets', 'EmbeddingBagOffsetsSum', 'EmbeddingBagPacked', 'EmbeddingBagPackedSum',
  'EmbeddingSegmentsSum', 'Equal', 'Erf', 'Exp', 'ExperimentalDetectronDetectionOutput',
  'ExperimentalDetectronGenerateProposalsSingleImage', 'ExperimentalDetectronPriorGridGenerator',
  'ExperimentalDetectronROIFeatureExtractor', 'ExperimentalDetectronTopKROIs', 'ExtractImagePatches', 'Eye',
  'FakeConvert', 'FakeQuantize', 'Floor', 'FloorMod', 'Gather', 'GatherElements', 'GatherND', 'GatherTree', 'Gelu',
  'GenerateProposals', 'Greater', 'GreaterEqual', 'GridSample', 'GRN', 'GroupConvolution',
  'GroupConvolutionBackpropData', 'GroupNormalization', 'GRUCell', 'GRUSequence', 'HardSigmoid', 'HSigmoid',
  'HSwish', 'I420toBGR', 'I420toRGB', 'IDFT', 'If', 'Interpolate', 'Inverse', 'IRDFT', 'IsFinite', 'IsInf', 'IsNaN',
  'Less', 'LessEqual', 'Log', 'LogicalAnd', 'LogicalNot', 'LogicalOr', 'LogicalXor', 'LogSoftmax', 'Loop', 'LRN',
  'LSTMCell', 'LSTMSequence', 'MatMul', 'MatrixNms', 'Maximum', 'MaxPool', 'Minimum', 'Mish', 'Mod', 'MulticlassNms',
  'Multinomial', 'Multiply', 'MVN', 'Negative', 'NMSRotated', 'NonMaxSuppression', 'NonZero', 'NormalizeL2',
  'NotEqual', 'NV12toBGR', 'NV12toRGB', 'OneHot', 'Pad', 'Parameter', 'Power', 'PRelu', 'PriorBox',
  'PriorBoxClustered', 'Proposal', 'PSROIPooling', 'RandomUniform', 'Range', 'RDFT', 'ReadValue', 'ReduceL1',
  'ReduceL2', 'ReduceLogicalAnd', 'ReduceLogicalOr', 'ReduceMax', 'ReduceMean', 'ReduceMin', 'ReduceProd',
  'ReduceSum', 'RegionYolo', 'Relu', 'ReorgYolo', 'Reshape', 'Result', 'Reverse', 'ReverseSequence', 'RNNCell',
  'RNNSequence', 'ROIAlign', 'ROIAlignRotated', 'ROIPooling', 'Roll', 'Round', 'ScaledDotProductAttention',
  'ScatterElementsUpdate', 'ScatterNDUpdate', 'ScatterUpdate', 'SearchSorted', 'Select', 'Selu', 'ShapeOf',
  'ShuffleChannels', 'Sigmoid', 'Sign', 'Sin', 'Sinh', 'Slice', 'SliceScatter', 'Softmax', 'SoftPlus', 'SoftSign',
  'SpaceToBatch', 'SpaceToDepth', 'Split', 'Sqrt', 'SquaredDifference', 'Squeeze', 'STFT', 'ISTFT',
  'StridedSlice', 'StringTensorPack', 'StringTensorUnpack', 'Subtract', 'Swish', 'Tan', 'Tanh',
  'TensorIterator', 'Tile', 'TopK', 'Transpose', 'Unique', 'Unsqueeze', 'VariadicSplit', 'Identity',
  'SegmentMax', 'AvgPool', 'Squeeze', 'Xor', 'GroupedMatMul', 'RGBtoNV12', 'BGRtoNV12',
];

const byLower = new Map<string, string>();
for (const op of CANONICAL_OPS) byLower.set(op.toLowerCase(), op);
// IR spellings read back to the model's names.
byLower.set('const', 'Constant');

/** The canonical OpenVINO op name for a layer `type` (case-insensitive), or the type as written. */
export function canonicalOp(type: string): string {
  return byLower.get(type.toLowerCase()) ?? type;
}

const SERIALIZER_SPELLING: Record<string, string> = { Constant: 'Const', PRelu: 'PReLU', Relu: 'ReLU', Softmax: 'SoftMax' };

/** The `type` the serializer writes for a canonical op name. */
export function irTypeName(op: string): string {
  return SERIALIZER_SPELLING[op] ?? op;
}
