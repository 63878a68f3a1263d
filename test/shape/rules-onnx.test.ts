import { describe, expect, it } from 'vitest';
import type { Attr } from '../../src/graph/attr.js';
import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Shape } from '../../src/graph/shape.js';
import { tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { A, B, codes, elemOf, errors, s, shapeOf } from './build.js';

/** An input: a runtime tensor (elem + shape) or a constant (i64 data). */
type In = { elem: ElementTypeName; shape: Shape } | { i64: number[]; dims?: number[] } | null;
const t = (shape: Shape, elem: ElementTypeName = 'f32'): In => ({ elem, shape });
const k = (i64: number[], dims?: number[]): In => (dims ? { i64, dims } : { i64 });

function run(op: string, version: string, inputs: In[], attrs: Record<string, Attr> = {}, outputs = 1) {
  const b = new B('onnx', version);
  const vs = inputs.map((x, i): Value | null => {
    if (x === null) return null;
    if ('i64' in x) return b.i64(x.i64, x.dims);
    return b.input(`in${i}`, x.elem, x.shape);
  });
  const n = b.node(op, vs, attrs, { outputs });
  const r = b.infer();
  return { r, n, shapes: n.outputs.map((o) => shapeOf(r, o)), elems: n.outputs.map((o) => elemOf(r, o)) };
}

// [spec case, op, opset, inputs, attrs, expected output shapes, expected element type of output 0]
const CASES: [string, string, string, In[], Record<string, Attr>, Shape[], ElementTypeName][] = [
  ['Add-14 test_add_bcast: (3,4,5) + (5)', 'Add', '14', [t([3, 4, 5]), t([5])], {}, [[3, 4, 5]], 'f32'],
  // operands of one type (interned: one object) give that type back; symbols broadcast as onnx does
  ['Add-14 operands of one type (2,?,3) → (2,?,3)', 'Add', '14', [t([2, null, 3]), t([2, null, 3])], {}, [[2, null, 3]], 'f32'],
  ['Mul-14 operands of one type with a symbol keep it', 'Mul', '14', [t([s('N'), 3]), t([s('N'), 3])], {}, [[s('N'), 3]], 'f32'],
  ['Equal-11 operands of one type → bool', 'Equal', '11', [t([2, 3]), t([2, 3])], {}, [[2, 3]], 'boolean'],
  ['Add-6 legacy broadcast=1: output shaped as A', 'Add', '6', [t([2, 3, 4, 5]), t([3, 4])], { broadcast: A.int(1), axis: A.int(1) }, [[2, 3, 4, 5]], 'f32'],
  ['Sub-14 test_sub_bcast', 'Sub', '14', [t([3, 4, 5]), t([5])], {}, [[3, 4, 5]], 'f32'],
  ['Mul-14 symbolic batch', 'Mul', '14', [t([s('N'), 4]), t([1, 4])], {}, [[s('N'), 4]], 'f32'],
  ['Div-14 test_div_bcast', 'Div', '14', [t([3, 4, 5]), t([5])], {}, [[3, 4, 5]], 'f32'],
  ['Abs-13 keeps the input type', 'Abs', '13', [t([3, 4], 'i32')], {}, [[3, 4]], 'i32'],
  ['Neg-13', 'Neg', '13', [t([3, 4, 5])], {}, [[3, 4, 5]], 'f32'],
  ['Relu-14', 'Relu', '14', [t([3, 4, 5])], {}, [[3, 4, 5]], 'f32'],
  ['Sigmoid-13', 'Sigmoid', '13', [t([s('B'), 4])], {}, [[s('B'), 4]], 'f32'],
  ['Equal-13 test_equal_bcast: bool', 'Equal', '13', [t([3, 4, 5], 'i32'), t([5], 'i32')], {}, [[3, 4, 5]], 'boolean'],
  ['Greater-13 test_greater_bcast', 'Greater', '13', [t([3, 4, 5]), t([5])], {}, [[3, 4, 5]], 'boolean'],
  ['Less-13 test_less_bcast', 'Less', '13', [t([3, 4, 5]), t([5])], {}, [[3, 4, 5]], 'boolean'],
  ['Not-1 test_not_3d', 'Not', '1', [t([3, 4, 5], 'boolean')], {}, [[3, 4, 5]], 'boolean'],
  ['And-7 test_and_bcast4v3d', 'And', '7', [t([3, 4, 5, 6], 'boolean'), t([5, 6], 'boolean')], {}, [[3, 4, 5, 6]], 'boolean'],
  ['Or-7 test_or_bcast3v1d', 'Or', '7', [t([3, 4, 5], 'boolean'), t([5], 'boolean')], {}, [[3, 4, 5]], 'boolean'],
  ['Cast-19 to=INT64 (7)', 'Cast', '19', [t([3, 4])], { to: A.int(7) }, [[3, 4]], 'i64'],
  ['Identity-16', 'Identity', '16', [t([s('N'), 2])], {}, [[s('N'), 2]], 'f32'],
  ['Constant-13 value_ints', 'Constant', '13', [], { value_ints: A.ints([1, 2, 3]) }, [[3]], 'i64'],
  ['Constant-13 value tensor', 'Constant', '13', [], { value: A.tensor(tensorFromInt64([1, 2, 3, 4, 5, 6], [2, 3])) }, [[2, 3]], 'i64'],
  ['Squeeze-13 test_squeeze: axes=[0] on (1,3,4,5)', 'Squeeze', '13', [t([1, 3, 4, 5]), k([0])], {}, [[3, 4, 5]], 'f32'],
  ['Squeeze-13 test_squeeze_negative_axes: axes=[-2] on (1,3,1,5)', 'Squeeze', '13', [t([1, 3, 1, 5]), k([-2])], {}, [[1, 3, 5]], 'f32'],
  ['Squeeze-11 attribute axes', 'Squeeze', '11', [t([1, 3, 1, 5])], { axes: A.ints([0, 2]) }, [[3, 5]], 'f32'],
  ['Squeeze-13 no axes: every 1', 'Squeeze', '13', [t([1, 3, 1, 5])], {}, [[3, 5]], 'f32'],
  ['Unsqueeze-13 test_unsqueeze_two_axes: axes=[1,4] on (3,4,5)', 'Unsqueeze', '13', [t([3, 4, 5]), k([1, 4])], {}, [[3, 1, 4, 5, 1]], 'f32'],
  ['Unsqueeze-13 test_unsqueeze_negative_axes: axes=[-2] on (1,3,1,5)', 'Unsqueeze', '13', [t([1, 3, 1, 5]), k([-2])], {}, [[1, 3, 1, 1, 5]], 'f32'],
  ['Unsqueeze-11 attribute axes=[0]', 'Unsqueeze', '11', [t([3])], { axes: A.ints([0]) }, [[1, 3]], 'f32'],
  ['Reshape-14 test_reshape_reordered_all_dims (2,3,4)→(4,2,3)', 'Reshape', '14', [t([2, 3, 4]), k([4, 2, 3])], {}, [[4, 2, 3]], 'f32'],
  ['Reshape-14 test_reshape_negative_dim (2,3,4)→(2,-1,2)', 'Reshape', '14', [t([2, 3, 4]), k([2, -1, 2])], {}, [[2, 6, 2]], 'f32'],
  ['Reshape-14 test_reshape_zero_dim (2,3,4)→(2,0,4,1)', 'Reshape', '14', [t([2, 3, 4]), k([2, 0, 4, 1])], {}, [[2, 3, 4, 1]], 'f32'],
  ['Reshape-14 test_reshape_zero_and_negative_dim (2,3,4)→(2,0,1,-1)', 'Reshape', '14', [t([2, 3, 4]), k([2, 0, 1, -1])], {}, [[2, 3, 1, 4]], 'f32'],
  ['Reshape-14 test_reshape_allowzero_reordered: (0,3,4)→(3,4,0)', 'Reshape', '14', [t([0, 3, 4]), k([3, 4, 0])], { allowzero: A.int(1) }, [[3, 4, 0]], 'f32'],
  ['Reshape-14 unknown target data: rank from its length', 'Reshape', '14', [t([2, 3]), t([3], 'i64')], {}, [[null, null, null]], 'f32'],
  ['Shape-15 test_shape', 'Shape', '15', [t([3, 4, 5])], {}, [[3]], 'i64'],
  ['Shape-15 test_shape_start_1_end_negative_1', 'Shape', '15', [t([3, 4, 5])], { start: A.int(1), end: A.int(-1) }, [[1]], 'i64'],
  ['Concat-13 test_concat_2d_axis_1', 'Concat', '13', [t([2, 2]), t([2, 2])], { axis: A.int(1) }, [[2, 4]], 'f32'],
  ['Concat-13 test_concat_3d_axis_negative_3', 'Concat', '13', [t([2, 2, 2]), t([2, 2, 2])], { axis: A.int(-3) }, [[4, 2, 2]], 'f32'],
  ['Concat-13 symbol on the axis gives unknown', 'Concat', '13', [t([s('N'), 2]), t([2, 2])], { axis: A.int(0) }, [[null, 2]], 'f32'],
  ['Split-13 test_split_equal_parts_1d: 6 → 2,2,2', 'Split', '13', [t([6])], { axis: A.int(0) }, [[2], [2], [2]], 'f32'],
  ['Split-13 test_split_variable_parts_1d: [2,4]', 'Split', '13', [t([6]), k([2, 4])], { axis: A.int(0) }, [[2], [4]], 'f32'],
  ['Split-11 attribute split=[2,4]', 'Split', '11', [t([2, 6])], { axis: A.int(1), split: A.ints([2, 4]) }, [[2, 2], [2, 4]], 'f32'],
  ['Split-18 test_split_1d_uneven_split_opset18: 7 into 4 → 2,2,2,1', 'Split', '18', [t([7])], { num_outputs: A.int(4) }, [[2], [2], [2], [1]], 'f32'],
  ['Transpose-13 test_transpose_default: reversed', 'Transpose', '13', [t([2, 3, 4])], {}, [[4, 3, 2]], 'f32'],
  ['Transpose-13 test_transpose_all_permutations_4: perm (2,0,1)', 'Transpose', '13', [t([2, 3, 4])], { perm: A.ints([2, 0, 1]) }, [[4, 2, 3]], 'f32'],
  ['Gather-13 test_gather_0: data (5,4,3,2) indices (3) axis 0', 'Gather', '13', [t([5, 4, 3, 2]), t([3], 'i64')], {}, [[3, 4, 3, 2]], 'f32'],
  ['Gather-13 test_gather_1: axis 1', 'Gather', '13', [t([5, 4, 3, 2]), t([3], 'i64')], { axis: A.int(1) }, [[5, 3, 3, 2]], 'f32'],
  ['Gather-13 test_gather_2d_indices: data (3,3) indices (1,2) axis 1', 'Gather', '13', [t([3, 3]), t([1, 2], 'i64')], { axis: A.int(1) }, [[3, 1, 2]], 'f32'],
  ['Gather-13 scalar index removes the axis', 'Gather', '13', [t([5, 4]), k([1], [])], {}, [[4]], 'f32'],
  ['ReduceMax-18 test_reduce_max_keepdims: axes=[1]', 'ReduceMax', '18', [t([3, 2, 2]), k([1])], { keepdims: A.int(1) }, [[3, 1, 2]], 'f32'],
  ['ReduceMin-18 test_reduce_min_do_not_keepdims', 'ReduceMin', '18', [t([3, 2, 2]), k([1])], { keepdims: A.int(0) }, [[3, 2]], 'f32'],
  ['ReduceMean-13 attribute axes, default keepdims', 'ReduceMean', '13', [t([3, 2, 2])], { axes: A.ints([-1]) }, [[3, 2, 1]], 'f32'],
  ['ReduceSum-13 test_reduce_sum_default_axes_keepdims: all axes', 'ReduceSum', '13', [t([3, 2, 2])], {}, [[1, 1, 1]], 'f32'],
  ['ReduceSum-13 test_reduce_sum_empty_axes_input_noop', 'ReduceSum', '13', [t([3, 2, 2]), k([])], { noop_with_empty_axes: A.int(1) }, [[3, 2, 2]], 'f32'],
  ['ReduceSum-11 attribute axes', 'ReduceSum', '11', [t([3, 2, 2])], { axes: A.ints([0, 2]), keepdims: A.int(0) }, [[2]], 'f32'],
  ['MatMul-13 test_matmul_2d', 'MatMul', '13', [t([3, 4]), t([4, 3])], {}, [[3, 3]], 'f32'],
  ['MatMul-13 test_matmul_3d', 'MatMul', '13', [t([2, 3, 4]), t([2, 4, 3])], {}, [[2, 3, 3]], 'f32'],
  ['MatMul-13 test_matmul_4d broadcast batch', 'MatMul', '13', [t([1, 2, 3, 4]), t([5, 1, 4, 3])], {}, [[5, 2, 3, 3]], 'f32'],
  ['MatMul-13 1-D × 2-D drops the prepended dim', 'MatMul', '13', [t([4]), t([4, 3])], {}, [[3]], 'f32'],
  ['MatMul-13 2-D × 1-D drops the appended dim', 'MatMul', '13', [t([3, 4]), t([4])], {}, [[3]], 'f32'],
  ['Gemm-13 transA transB', 'Gemm', '13', [t([4, 3]), t([5, 4])], { transA: A.int(1), transB: A.int(1) }, [[3, 5]], 'f32'],
  ['Slice-13 test_slice: starts (0,0) ends (3,10) steps (1,1) on (20,10,5)', 'Slice', '13', [t([20, 10, 5]), k([0, 0]), k([3, 10]), k([0, 1]), k([1, 1])], {}, [[3, 10, 5]], 'f32'],
  ['Slice-13 test_slice_neg_steps', 'Slice', '13', [t([20, 10, 5]), k([20, 10, 4]), k([0, 0, 1]), k([0, 1, 2]), k([-1, -3, -2])], {}, [[19, 3, 2]], 'f32'],
  ['Slice-13 test_slice_end_out_of_bounds', 'Slice', '13', [t([20, 10, 5]), k([1]), k([1000]), k([1]), k([1])], {}, [[20, 9, 5]], 'f32'],
  ['Expand-13 test_expand_dim_changed: (3,1)→(2,1,6)', 'Expand', '13', [t([3, 1]), k([2, 1, 6])], {}, [[2, 3, 6]], 'f32'],
  ['Where-16 test_where_example', 'Where', '16', [t([2, 2], 'boolean'), t([2, 2]), t([2, 2])], {}, [[2, 2]], 'f32'],
  ['Flatten-13 test_flatten_axis2: (2,3,4,5)', 'Flatten', '13', [t([2, 3, 4, 5])], { axis: A.int(2) }, [[6, 20]], 'f32'],
  ['Tile-13 test_tile_precomputed', 'Tile', '13', [t([2, 2]), k([2, 2])], {}, [[4, 4]], 'f32'],
  ['ConstantOfShape-9 test_constantofshape_int_zeros', 'ConstantOfShape', '9', [k([10, 6])], {}, [[10, 6]], 'f32'],
  ['Conv-11 test_conv_with_strides_padding: (1,1,7,5) W(1,1,3,3) strides 2 pads 1 → (1,1,4,3)', 'Conv', '11', [t([1, 1, 7, 5]), t([1, 1, 3, 3])], { strides: A.ints([2, 2]), pads: A.ints([1, 1, 1, 1]) }, [[1, 1, 4, 3]], 'f32'],
  ['Conv-11 test_conv_with_autopad_same: SAME_LOWER strides 2 → ceil(5/2)', 'Conv', '11', [t([1, 1, 5, 5]), t([1, 1, 3, 3])], { auto_pad: A.string('SAME_LOWER'), strides: A.ints([2, 2]) }, [[1, 1, 3, 3]], 'f32'],
  ['MaxPool-12 ceil_mode: (1,1,4,4) k3 s2 → (1,1,2,2) (onnx keeps a window starting in the padding)', 'MaxPool', '12', [t([1, 1, 4, 4])], { kernel_shape: A.ints([3, 3]), strides: A.ints([2, 2]), ceil_mode: A.int(1) }, [[1, 1, 2, 2]], 'f32'],
  ['MaxPool-12 k1 s2 pads (0,1) ceil on 3 → 3', 'MaxPool', '12', [t([1, 1, 3])], { kernel_shape: A.ints([1]), strides: A.ints([2]), pads: A.ints([0, 1]), ceil_mode: A.int(1) }, [[1, 1, 3]], 'f32'],
  ['MaxPool-22 test_maxpool_2d_ceil_output_size_reduce_by_one: the window starting in the padding is dropped', 'MaxPool', '22', [t([1, 1, 2, 2])], { kernel_shape: A.ints([1, 1]), strides: A.ints([2, 2]), ceil_mode: A.int(1) }, [[1, 1, 1, 1]], 'f32'],
  ['AveragePool-22 test_averagepool_2d_ceil_last_window_starts_on_pad', 'AveragePool', '22', [t([1, 3, 2, 2])], { kernel_shape: A.ints([3, 3]), strides: A.ints([3, 3]), pads: A.ints([1, 1, 1, 1]), ceil_mode: A.int(1) }, [[1, 3, 1, 1]], 'f32'],
  ['AveragePool-19 SAME_UPPER k3 s2 on 5 → 3', 'AveragePool', '19', [t([1, 1, 5])], { kernel_shape: A.ints([3]), strides: A.ints([2]), auto_pad: A.string('SAME_UPPER') }, [[1, 1, 3]], 'f32'],
  ['MaxPool-12 VALID dilations 2 k3 on 7 → 3', 'MaxPool', '12', [t([1, 1, 7])], { kernel_shape: A.ints([3]), auto_pad: A.string('VALID'), dilations: A.ints([2]) }, [[1, 1, 3]], 'f32'],
  ['GlobalAveragePool-1', 'GlobalAveragePool', '1', [t([1, 3, 5, 5])], {}, [[1, 3, 1, 1]], 'f32'],
  ['Pad-19 test_constant_pad: (1,3,4,5) pads (0,0,1,3,0,0,2,4) → (1,3,7,12)', 'Pad', '19', [t([1, 3, 4, 5]), k([0, 0, 1, 3, 0, 0, 2, 4])], {}, [[1, 3, 7, 12]], 'f32'],
  ['TopK-11 test_top_k: k=3 axis 1 of (3,4)', 'TopK', '11', [t([3, 4]), k([3])], { axis: A.int(1) }, [[3, 3], [3, 3]], 'f32'],
  ['OneHot-11 depth 10, axis -1 on (2,3)', 'OneHot', '11', [t([2, 3], 'i64'), k([10], []), t([2])], {}, [[2, 3, 10]], 'f32'],
  ['ConvTranspose-11 test_convtranspose: (1,1,3,3) W(1,2,3,3) → (1,2,5,5)', 'ConvTranspose', '11', [t([1, 1, 3, 3]), t([1, 2, 3, 3])], {}, [[1, 2, 5, 5]], 'f32'],
  ['ConvTranspose-11 test_convtranspose_group_2: group 2, W(2,1,3,3) → C 2', 'ConvTranspose', '11', [t([1, 2, 3, 3]), t([2, 1, 3, 3])], { group: A.int(2) }, [[1, 2, 5, 5]], 'f32'],
  ['LSTM-14 test_lstm_defaults: Y [seq, dirs, batch, hidden], Y_h, Y_c', 'LSTM', '14', [t([1, 3, 2]), t([1, 12, 2]), t([1, 12, 3])], { hidden_size: A.int(3) }, [[1, 1, 3, 3], [1, 3, 3], [1, 3, 3]], 'f32'],
  ['QuantizeLinear-19 test_quantizelinear: type of y_zero_point', 'QuantizeLinear', '19', [t([6]), t([], 'f32'), t([], 'u8')], {}, [[6]], 'u8'],
  ['DequantizeLinear-19: type of x_scale', 'DequantizeLinear', '19', [t([4], 'u8'), t([], 'f32')], {}, [[4]], 'f32'],
  ['NegativeLogLikelihoodLoss-13 reduction none: target shape', 'NegativeLogLikelihoodLoss', '13', [t([3, 5, 2]), t([3, 2], 'i64')], { reduction: A.string('none') }, [[3, 2]], 'f32'],
  ['Einsum-12 test_einsum_batch_matmul: bij,bjk->bik', 'Einsum', '12', [t([5, 2, 3]), t([5, 3, 4])], { equation: A.string('bij,bjk->bik') }, [[5, 2, 4]], 'f32'],
  ['Einsum-12 test_einsum_transpose: ij->ji', 'Einsum', '12', [t([3, 4])], { equation: A.string('ij->ji') }, [[4, 3]], 'f32'],
  ['Einsum-12 test_einsum_inner_prod: i,i (implicit) → scalar', 'Einsum', '12', [t([5]), t([5])], { equation: A.string('i,i') }, [[]], 'f32'],
  ['Einsum-12 implicit ij,jk → ik', 'Einsum', '12', [t([2, 3]), t([3, 4])], { equation: A.string('ij,jk') }, [[2, 4]], 'f32'],
  ['Einsum-12 test_einsum_batch_diagonal: ...ii ->...i', 'Einsum', '12', [t([3, 5, 5])], { equation: A.string('...ii ->...i') }, [[3, 5]], 'f32'],
  ['Range-11 test_range_int32_type_negative_delta', 'Range', '11', [k([10], []), k([6], []), k([-3], [])], {}, [[2]], 'i64'],
];

describe('ONNX shape rules (onnx shape inference, backend test cases)', () => {
  it.each(CASES)('%s', (_, op, version, inputs, attrs, shapes, elem) => {
    const { r, shapes: got, elems } = run(op, version, inputs, attrs, shapes.length);
    expect(errors(r)).toEqual([]);
    expect(got).toEqual(shapes);
    expect(elems[0]).toBe(elem);
  });

  it.each<[string, string, In[], Record<string, Attr>]>([
    ['Add: (2,3) + (4) cannot broadcast', 'Add', [t([2, 3]), t([4])], {}],
    ['Concat: ranks differ', 'Concat', [t([2, 2]), t([2])], { axis: A.int(0) }],
    ['MatMul: inner dims 4 and 5', 'MatMul', [t([3, 4]), t([5, 3])], {}],
    ['Squeeze: axis of size 3', 'Squeeze', [t([1, 3]), k([1])], {}],
    ['Reshape: 24 elements into 5 × -1', 'Reshape', [t([2, 3, 4]), k([5, -1])], {}],
  ])('reports %s as a diagnostic at the node, not a throw', (_, op, inputs, attrs) => {
    const { r } = run(op, '17', inputs, attrs);
    expect(codes(r)).toContain('SHAPE_RULE');
    expect(r.diagnostics[0]!.where).toBe(`main/${op}_0`);
  });

  it('an op without a rule: outputs unknown and an info diagnostic', () => {
    const b = new B('onnx', '17');
    const n = b.node('NoSuchOp', [b.input('x', 'f32', [2])]);
    const r = b.infer();
    expect(r.types.get(n.outputs[0]!)).toEqual({ kind: 'unknown' });
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([['SHAPE_UNKNOWN_OP', 'info']]);
  });

  it('a wrongly typed attribute is a diagnostic', () => {
    const { r } = run('Transpose', '13', [t([2, 3])], { perm: A.string('x') });
    expect(codes(r)).toContain('SHAPE_BAD_ATTR');
  });

  it('an attribute of another kind than the schema\'s, or a required one absent, is an error and nothing is inferred (never the default in its place)', () => {
    const softmax = run('Softmax', '13', [t([2, 3])], { axis: A.string('0') });
    expect(softmax.r.diagnostics.map((d) => `${d.code} ${d.severity} ${d.message}`)).toEqual([
      "SHAPE_BAD_ATTR error Softmax: attribute 'axis' is <string>: the Softmax-13 schema says int",
    ]);
    expect(softmax.r.types.get(softmax.n.outputs[0]!)).toEqual({ kind: 'unknown' });
    const concat = run('Concat', '13', [t([2, 3]), t([2, 3])], {});
    expect(concat.r.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([
      "SHAPE_BAD_ATTR Concat: attribute 'axis' is required (the Concat-13 schema); the node has none",
    ]);
    expect(concat.r.types.get(concat.n.outputs[0]!)).toEqual({ kind: 'unknown' });
  });
});

describe('ONNX data propagation', () => {
  it('Shape → Gather → Concat → Reshape gives a static shape', () => {
    const b = new B('onnx', '17');
    const x = b.input('x', 'f32', [2, 3, 4]);
    const shape = b.node('Shape', [x]).outputs[0]!;
    const g0 = b.node('Gather', [shape, b.i64([0], [1])]).outputs[0]!;
    const g12 = b.node('Gather', [shape, b.i64([1, 2])]).outputs[0]!;
    const prod = b.node('ReduceProd', [g12], { keepdims: A.int(1) }, { version: '17' }).outputs[0]!;
    void prod;
    const mul = b.node('Mul', [b.node('Gather', [shape, b.i64([1], [1])]).outputs[0]!, b.node('Gather', [shape, b.i64([2], [1])]).outputs[0]!]).outputs[0]!;
    const cat = b.node('Concat', [g0, mul], { axis: A.int(0) }).outputs[0]!;
    const y = b.node('Reshape', [x, cat]).outputs[0]!;
    const r = b.infer();
    expect(errors(r)).toEqual([]);
    expect(r.values.get(cat)).toEqual([2, 12]);
    expect(shapeOf(r, y)).toEqual([2, 12]);
  });

  it('symbols flow through the data: Reshape(x, Concat(Shape(x)[0:1], [-1])) keeps N', () => {
    const b = new B('onnx', '17');
    const x = b.input('x', 'f32', [s('N'), 3, 4]);
    const shape = b.node('Shape', [x]).outputs[0]!;
    const first = b.node('Slice', [shape, b.i64([0]), b.i64([1])]).outputs[0]!;
    const cat = b.node('Concat', [first, b.i64([-1])], { axis: A.int(0) }).outputs[0]!;
    const y = b.node('Reshape', [x, cat]).outputs[0]!;
    const r = b.infer();
    expect(shapeOf(r, y)).toEqual([s('N'), 12]);
  });

  it('LayerNormalization expanded (backend test): Neg and ConstantOfShape data give the reduced shape', () => {
    const b = new B('onnx', '17');
    const x = b.input('x', 'f32', [3, 4]);
    const xs = b.node('Shape', [x]).outputs[0]!;
    const axis = b.i64([-1]);
    const prefix = b.node('Slice', [xs, b.i64([0]), axis]).outputs[0]!;
    const num = b.node('Neg', [axis]).outputs[0]!;
    const suffix = b.node('ConstantOfShape', [num], { value: A.tensor(tensorFromInt64([1], [1])) }).outputs[0]!;
    const reduced = b.node('Concat', [prefix, suffix], { axis: A.int(0) }).outputs[0]!;
    const mean = b.node('ReduceMean', [x], { axes: A.ints([1]) }).outputs[0]!;
    const y = b.node('Reshape', [mean, reduced]).outputs[0]!;
    const r = b.infer();
    expect(r.values.get(num)).toEqual([1]);
    expect(r.values.get(suffix)).toEqual([1]);
    expect(shapeOf(r, y)).toEqual([3, 1]);
  });

  it('other unary ops carry no data (Relu of shape data is not shape data)', () => {
    const b = new B('onnx', '17');
    const xs = b.node('Shape', [b.input('x', 'f32', [3, 4])]).outputs[0]!;
    const relu = b.node('Relu', [xs]).outputs[0]!;
    expect(b.infer().values.get(relu)).toBeUndefined();
  });

  it('RandomUniformLike / Bernoulli take the input shape and dtype (or the dtype attribute)', () => {
    const { shapes, elems } = run('RandomUniformLike', '17', [t([10], 'f64')], { dtype: A.int(1) });
    expect([shapes[0], elems[0]]).toEqual([[10], 'f32']);
  });

  it('Unsqueeze and Squeeze of a scalar dim keep the data; Cast to int64 too', () => {
    const b = new B('onnx', '17');
    const x = b.input('x', 'f32', [7, 2]);
    const d = b.node('Gather', [b.node('Shape', [x]).outputs[0]!, b.i64([0], [])]).outputs[0]!;
    const u = b.node('Unsqueeze', [d, b.i64([0])]).outputs[0]!;
    const c = b.node('Cast', [u], { to: A.int(7) }).outputs[0]!;
    const z = b.node('ConstantOfShape', [c]).outputs[0]!;
    const r = b.infer();
    expect(r.values.get(d)).toEqual([7]);
    expect(shapeOf(r, d)).toEqual([]);
    expect(shapeOf(r, z)).toEqual([7]);
  });
});
