/**
 * The types of IR `<data>` attributes of known ops, as OpenVINO's visitors declare them. An
 * attribute listed here is read typed (and written back formatted as OpenVINO formats that type);
 * anything else is kept as the raw string written. Keys are canonical op names (src/ir/op-names.ts);
 * one entry covers every version of the op (attribute names do not change meaning across versions).
 *
 * Kinds: int (int64), ints (list of int64, written "1, 2"), float (double, written %.17g),
 * floats (list of float, written %g), bool (true/false), string, elem (an element type name, kept
 * as a string: f32, i64, boolean…), shape (a partial shape in the Parameter syntax, kept as a
 * string), strings (list of strings, written "a, b").
 */
export type AttrKind = 'int' | 'ints' | 'float' | 'floats' | 'bool' | 'string' | 'elem' | 'shape' | 'strings';

type Schema = Readonly<Record<string, AttrKind>>;

const BROADCAST: Schema = { auto_broadcast: 'string' };
const CONV: Schema = { strides: 'ints', dilations: 'ints', pads_begin: 'ints', pads_end: 'ints', auto_pad: 'string' };
const REDUCE: Schema = { keep_dims: 'bool' };
const RNN: Schema = {
  hidden_size: 'int', activations: 'strings', activations_alpha: 'floats', activations_beta: 'floats', clip: 'float',
  direction: 'string', linear_before_reset: 'bool', input_forget: 'bool', weights_format: 'string',
};
const NONE: Schema = {};

const broadcastOps = [
  'Add', 'Subtract', 'Multiply', 'Power', 'Maximum', 'Minimum', 'FloorMod', 'Mod', 'SquaredDifference', 'Equal',
  'NotEqual', 'Greater', 'GreaterEqual', 'Less', 'LessEqual', 'LogicalAnd', 'LogicalOr', 'LogicalXor', 'Select',
  'BitwiseAnd', 'BitwiseOr', 'BitwiseXor', 'BitwiseLeftShift', 'BitwiseRightShift', 'PRelu', 'Xor',
];
const noAttrOps = [
  'Result', 'If', 'Loop', 'TensorIterator', 'Abs', 'Negative', 'LogicalNot', 'Relu', 'Sigmoid', 'Tanh', 'Exp', 'Log',
  'Sqrt', 'Sin', 'Cos', 'Tan', 'Asin', 'Acos', 'Atan', 'Sinh', 'Cosh', 'Asinh', 'Acosh', 'Atanh', 'Erf', 'Floor',
  'Ceiling', 'Sign', 'Unsqueeze', 'Transpose', 'VariadicSplit', 'Tile', 'ConvertLike', 'HSwish', 'HSigmoid',
  'Mish', 'SoftPlus', 'SoftSign', 'Swish', 'Selu', 'HardSigmoid', 'Slice', 'SpaceToBatch', 'BatchToSpace', 'Roll',
  'BitwiseNot', 'IsNaN', 'Identity', 'ScatterUpdate', 'ScatterNDUpdate', 'DFT', 'IDFT', 'RDFT', 'IRDFT', 'Inverse', 'GroupedMatMul',
];

export const ATTR_SCHEMA: Readonly<Record<string, Schema>> = {
  ...Object.fromEntries(noAttrOps.map((op) => [op, NONE])),
  ...Object.fromEntries(broadcastOps.map((op) => [op, BROADCAST])),
  Parameter: { shape: 'shape', element_type: 'elem' },
  Constant: { element_type: 'elem', shape: 'ints', offset: 'int', size: 'int' },
  Divide: { auto_broadcast: 'string', m_pythondiv: 'bool' },
  Convert: { destination_type: 'elem', no_clamp: 'bool', use_rounding: 'bool' },
  Squeeze: { allow_axis_skip: 'bool' },
  Reshape: { special_zero: 'bool' },
  ShapeOf: { output_type: 'elem' },
  Concat: { axis: 'int' },
  Split: { num_splits: 'int' },
  Gather: { batch_dims: 'int' },
  GatherElements: { axis: 'int' },
  GatherND: { batch_dims: 'int' },
  ReduceMax: REDUCE, ReduceMin: REDUCE, ReduceMean: REDUCE, ReduceSum: REDUCE, ReduceProd: REDUCE,
  ReduceL1: REDUCE, ReduceL2: REDUCE, ReduceLogicalAnd: REDUCE, ReduceLogicalOr: REDUCE,
  MatMul: { transpose_a: 'bool', transpose_b: 'bool' },
  RGBtoNV12: { single_plane: 'bool' },
  BGRtoNV12: { single_plane: 'bool' },
  Broadcast: { mode: 'string' },
  Convolution: CONV,
  GroupConvolution: CONV,
  ConvolutionBackpropData: { ...CONV, output_padding: 'ints' },
  GroupConvolutionBackpropData: { ...CONV, output_padding: 'ints' },
  BinaryConvolution: { ...CONV, mode: 'string', pad_value: 'float' },
  DeformableConvolution: { ...CONV, group: 'int', deformable_group: 'int', bilinear_interpolation_pad: 'bool' },
  MaxPool: {
    strides: 'ints', dilations: 'ints', pads_begin: 'ints', pads_end: 'ints', kernel: 'ints', rounding_type: 'string',
    auto_pad: 'string', index_element_type: 'elem', axis: 'int',
  },
  AvgPool: {
    strides: 'ints', pads_begin: 'ints', pads_end: 'ints', kernel: 'ints', 'exclude-pad': 'bool',
    rounding_type: 'string', auto_pad: 'string', dilations: 'ints',
  },
  AdaptiveMaxPool: { index_element_type: 'elem' },
  Softmax: { axis: 'int' },
  LogSoftmax: { axis: 'int' },
  Clamp: { min: 'float', max: 'float' },
  Elu: { alpha: 'float' },
  Gelu: { approximation_mode: 'string' },
  Range: { output_type: 'elem' },
  StridedSlice: { begin_mask: 'ints', end_mask: 'ints', new_axis_mask: 'ints', shrink_axis_mask: 'ints', ellipsis_mask: 'ints' },
  Pad: { pad_mode: 'string' },
  Interpolate: {
    mode: 'string', shape_calculation_mode: 'string', coordinate_transformation_mode: 'string', nearest_mode: 'string',
    antialias: 'bool', pads_begin: 'ints', pads_end: 'ints', cube_coeff: 'float', axes: 'ints', align_corners: 'bool',
  },
  TopK: { axis: 'int', mode: 'string', sort: 'string', index_element_type: 'elem', stable: 'bool' },
  MVN: { eps: 'float', normalize_variance: 'bool', eps_mode: 'string', across_channels: 'bool', reduction_axes: 'ints' },
  NonZero: { output_type: 'elem' },
  NonMaxSuppression: { box_encoding: 'string', sort_result_descending: 'bool', output_type: 'elem' },
  Einsum: { equation: 'string' },
  CumSum: { exclusive: 'bool', reverse: 'bool' },
  DepthToSpace: { mode: 'string', block_size: 'int' },
  SpaceToDepth: { mode: 'string', block_size: 'int' },
  OneHot: { axis: 'int' },
  ScatterElementsUpdate: { reduction: 'string', use_init_val: 'bool' },
  LRN: { alpha: 'float', beta: 'float', bias: 'float', size: 'int' },
  BatchNormInference: { epsilon: 'float' },
  NormalizeL2: { eps: 'float', eps_mode: 'string' },
  ReverseSequence: { batch_axis: 'int', seq_axis: 'int' },
  Round: { mode: 'string' },
  Unique: { sorted: 'bool', index_element_type: 'elem', count_element_type: 'elem' },
  Eye: { output_type: 'elem' },
  RandomUniform: { output_type: 'elem', global_seed: 'int', op_seed: 'int', alignment: 'string' },
  FakeQuantize: { levels: 'int', auto_broadcast: 'string' },
  ShuffleChannels: { axis: 'int', group: 'int' },
  Bucketize: { output_type: 'elem', with_right_bound: 'bool' },
  GRN: { bias: 'float' },
  Reverse: { mode: 'string' },
  LSTMSequence: RNN, GRUSequence: RNN, RNNSequence: RNN, LSTMCell: RNN, GRUCell: RNN, RNNCell: RNN,
  ScaledDotProductAttention: { causal: 'bool' },
  GroupNormalization: { num_groups: 'int', epsilon: 'float' },
  Col2Im: { strides: 'ints', dilations: 'ints', pads_begin: 'ints', pads_end: 'ints' },
  GridSample: { align_corners: 'bool', mode: 'string', padding_mode: 'string' },
  CTCGreedyDecoderSeqLen: { merge_repeated: 'bool', classes_index_type: 'elem', sequence_length_type: 'elem' },
  IsInf: { detect_negative: 'bool', detect_positive: 'bool' },
  SearchSorted: { right_mode: 'bool' },
  Multinomial: { convert_type: 'elem', with_replacement: 'bool', log_probs: 'bool', global_seed: 'int', op_seed: 'int' },
};

/** The declared kind of attribute `name` of `op`, or undefined (then it is kept raw). */
export function attrKind(op: string, name: string): AttrKind | undefined {
  return ATTR_SCHEMA[op]?.[name];
}
