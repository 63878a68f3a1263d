import { describe, expect, it } from 'vitest';
import type { Attr } from '../../src/graph/attr.js';
import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Shape } from '../../src/graph/shape.js';
import type { Value } from '../../src/graph/value.js';
import { A, B, codes, elemOf, errors, iv, s, shapeOf } from './build.js';

type In = { elem: ElementTypeName; shape: Shape } | { i64: number[]; dims?: number[] };
const t = (shape: Shape, elem: ElementTypeName = 'f32'): In => ({ elem, shape });
const k = (i64: number[], dims?: number[]): In => (dims ? { i64, dims } : { i64 });

function run(op: string, version: string, inputs: In[], attrs: Record<string, Attr> = {}, outputs = 1) {
  const b = new B('ov', version);
  const vs = inputs.map((x, i): Value => ('i64' in x ? b.i64(x.i64, x.dims) : b.input(`in${i}`, x.elem, x.shape)));
  const n = b.node(op, vs, attrs, { outputs });
  const r = b.infer();
  return { r, shapes: n.outputs.map((o) => shapeOf(r, o)), elems: n.outputs.map((o) => elemOf(r, o)) };
}
const raw = (v: string) => A.raw(v);

// [case (OpenVINO op spec / what validate_and_infer_types gives, checked with openvino 2026.4), op, version, inputs, attrs, shapes, elem]
const CASES: [string, string, string, In[], Record<string, Attr>, Shape[], ElementTypeName][] = [
  ['Add-1 numpy: (8,1,6,1) + (7,1,5) → (8,7,6,5)', 'Add', 'opset1', [t([8, 1, 6, 1]), t([7, 1, 5])], {}, [[8, 7, 6, 5]], 'f32'],
  ['Add-1 interval 1..8 with 4 → 4', 'Add', 'opset1', [t([iv(1, 8)]), t([4])], {}, [[4]], 'f32'],
  ['Add-1 intervals 1..4 and 0..8 → 0..8', 'Add', 'opset1', [t([iv(1, 4)]), t([iv(0, 8)])], {}, [[iv(0, 8)]], 'f32'],
  ['Add-1 auto_broadcast=none', 'Add', 'opset1', [t([2, null]), t([null, 3])], { auto_broadcast: raw('none') }, [[2, 3]], 'f32'],
  ['Subtract-1 pdpd axis=1', 'Subtract', 'opset1', [t([2, 3, 4, 5]), t([3, 4])], { auto_broadcast: raw('pdpd'), axis: raw('1') }, [[2, 3, 4, 5]], 'f32'],
  ['Multiply-1', 'Multiply', 'opset1', [t([2, 3]), t([])], {}, [[2, 3]], 'f32'],
  // operands of one type (interned: one object) give that type back; symbols and intervals still broadcast
  ['Add-1 operands of one type (2,?,3) → (2,?,3)', 'Add', 'opset1', [t([2, null, 3]), t([2, null, 3])], {}, [[2, null, 3]], 'f32'],
  ['Add-1 operands of one type, a symbol: numpy broadcast does not keep it', 'Add', 'opset1', [t([s('N'), 3]), t([s('N'), 3])], {}, [[null, 3]], 'f32'],
  ['Add-1 operands of one interval type 1..4 → 1..4', 'Add', 'opset1', [t([iv(1, 4)]), t([iv(1, 4)])], {}, [[iv(1, 4)]], 'f32'],
  ['Subtract-1 pdpd, operands of one type', 'Subtract', 'opset1', [t([2, 3]), t([2, 3])], { auto_broadcast: raw('pdpd') }, [[2, 3]], 'f32'],
  ['Equal-1 operands of one type → boolean', 'Equal', 'opset1', [t([2, 3]), t([2, 3])], {}, [[2, 3]], 'boolean'],
  ['Divide-1', 'Divide', 'opset1', [t([null, 3]), t([1, 3])], {}, [[null, 3]], 'f32'],
  ['Abs-1', 'Abs', 'opset1', [t([2, iv(1, 5)])], {}, [[2, iv(1, 5)]], 'f32'],
  ['Negative-1', 'Negative', 'opset1', [t([2], 'i32')], {}, [[2]], 'i32'],
  ['Relu-1', 'Relu', 'opset1', [t(null)], {}, [null], 'f32'],
  ['Sigmoid-1', 'Sigmoid', 'opset1', [t([4])], {}, [[4]], 'f32'],
  ['Equal-1 → boolean', 'Equal', 'opset1', [t([2, 3]), t([3])], {}, [[2, 3]], 'boolean'],
  ['Greater-1', 'Greater', 'opset1', [t([2, 3]), t([3])], {}, [[2, 3]], 'boolean'],
  ['Less-1', 'Less', 'opset1', [t([2, 3]), t([3])], {}, [[2, 3]], 'boolean'],
  ['LogicalNot-1', 'LogicalNot', 'opset1', [t([2], 'boolean')], {}, [[2]], 'boolean'],
  ['LogicalAnd-1', 'LogicalAnd', 'opset1', [t([2, 1], 'boolean'), t([3], 'boolean')], {}, [[2, 3]], 'boolean'],
  ['LogicalOr-1', 'LogicalOr', 'opset1', [t([2, 1], 'boolean'), t([3], 'boolean')], {}, [[2, 3]], 'boolean'],
  ['Convert-1 destination_type=i64', 'Convert', 'opset1', [t([2, 3])], { destination_type: raw('i64') }, [[2, 3]], 'i64'],
  ['Squeeze-1 axes [1] of (1,?,3): the dynamic dim must be 1', 'Squeeze', 'opset1', [t([1, null, 3]), k([1])], {}, [[1, 3]], 'f32'],
  ['Squeeze-15 no axes with a dynamic dim → dynamic rank', 'Squeeze', 'opset15', [t([1, null, 3])], {}, [null], 'f32'],
  ['Squeeze-1 no axes: every static 1', 'Squeeze', 'opset1', [t([1, 2, 1, 3])], {}, [[2, 3]], 'f32'],
  ['Unsqueeze-1 axes [0,-1] of (3,4) → (1,3,4,1)', 'Unsqueeze', 'opset1', [t([3, 4]), k([0, -1])], {}, [[1, 3, 4, 1]], 'f32'],
  ['Reshape-1 special_zero: (2,3,4) with (0,-1) → (2,12)', 'Reshape', 'opset1', [t([2, 3, 4]), k([0, -1])], { special_zero: raw('true') }, [[2, 12]], 'f32'],
  ['NonMaxSuppression-9 5 boxes, max 3 per class, 2 batches × 4 classes (OpenVINO: 0..min(5, 3)·2·4 rows)', 'NonMaxSuppression', 'opset9', [t([2, 5, 4]), t([2, 4, 5]), k([3], []), t([]), t([])], { output_type: raw('i32') }, [[iv(0, 24), 3], [iv(0, 24), 3], [1]], 'i32'],
  ['NonMaxSuppression-9 (tf.image.non_max_suppression): 20 boxes, max 5 → 0..5 rows', 'NonMaxSuppression', 'opset9', [t([1, 20, 4]), t([1, 1, 20]), k([5], [])], { output_type: raw('i32') }, [[iv(0, 5), 3], [iv(0, 5), 3], [1]], 'i32'],
  ['NonMaxSuppression-5 max per class not constant, or boxes dynamic → unknown rows', 'NonMaxSuppression', 'opset5', [t([1, null, 4]), t([1, 1, null]), k([5], [])], {}, [[null, 3], [null, 3], [1]], 'i64'],
  ['StridedSlice-1 run-time begin/end of 3 entries, shrink entry 0, entry 1 masked whole: (5,3,7) → (3,..7) (x[i] in a TensorFlow loop)', 'StridedSlice', 'opset1', [t([5, 3, 7]), t([3], 'i32'), t([3], 'i32'), k([1, 1, 1])], { begin_mask: raw('0,1,0'), end_mask: raw('0,1,0'), new_axis_mask: raw('0,0,0'), shrink_axis_mask: raw('1,0,0'), ellipsis_mask: raw('0,0,0') }, [[3, iv(0, 7)]], 'f32'],
  ['StridedSlice-1 run-time begin/end, new axis then shrink: (5,3,7) → (1,..5,7)', 'StridedSlice', 'opset1', [t([5, 3, 7]), t([3], 'i32'), t([3], 'i32'), k([1, 1, 1])], { begin_mask: raw('0,0,0'), end_mask: raw('0,0,0'), new_axis_mask: raw('1,0,0'), shrink_axis_mask: raw('0,0,1'), ellipsis_mask: raw('0,0,0') }, [[1, iv(0, 5), 7]], 'f32'],
  ['Reshape-1 special_zero: a copied dynamic dim cancels its input dim, (?,3,8,24) with (0,-1) → (?,576) (a TensorFlow flatten)', 'Reshape', 'opset1', [t([null, 3, 8, 24]), k([0, -1])], { special_zero: raw('true') }, [[null, 576]], 'f32'],
  ['Reshape-1 special_zero: (?,3,?,4) with (0,0,-1) → (?,3,?): the -1 is still unknown', 'Reshape', 'opset1', [t([null, 3, null, 4]), k([0, 0, -1])], { special_zero: raw('true') }, [[null, 3, null]], 'f32'],
  ['Reshape-1 -1 over an interval: (2..10,3) → (-1) = 6..30', 'Reshape', 'opset1', [t([iv(2, 10), 3]), k([-1])], { special_zero: raw('false') }, [[iv(6, 30)]], 'f32'],
  ['Reshape-1 (?,3) → (-1,6) = (?,6)', 'Reshape', 'opset1', [t([null, 3]), k([-1, 6])], { special_zero: raw('false') }, [[null, 6]], 'f32'],
  ['ShapeOf-3 output_type=i32', 'ShapeOf', 'opset3', [t([2, null, 4])], { output_type: raw('i32') }, [[3]], 'i32'],
  ['ShapeOf-1', 'ShapeOf', 'opset1', [t(null)], {}, [[null]], 'i64'],
  ['Concat-1 intervals add: (1..3,2)+(2..4,2) → (3..7,2)', 'Concat', 'opset1', [t([iv(1, 3), 2]), t([iv(2, 4), 2])], { axis: raw('0') }, [[iv(3, 7), 2]], 'f32'],
  ['Split-1 num_splits=2 of 4..10 → 2..5 each', 'Split', 'opset1', [t([iv(4, 10), 3]), k([0], [])], { num_splits: raw('2') }, [[iv(2, 5), 3], [iv(2, 5), 3]], 'f32'],
  ['VariadicSplit-1 [2,-1] of 5..10 → 2 and ?', 'VariadicSplit', 'opset1', [t([iv(5, 10), 3]), k([0], []), k([2, -1])], {}, [[2, 3], [null, 3]], 'f32'],
  ['VariadicSplit-1 [2,-1] of 7 → 2 and 5', 'VariadicSplit', 'opset1', [t([7]), k([0], []), k([2, -1])], {}, [[2], [5]], 'f32'],
  ['Transpose-1 order (2,0,1)', 'Transpose', 'opset1', [t([2, 3, 4]), k([2, 0, 1])], {}, [[4, 2, 3]], 'f32'],
  ['Transpose-1 empty order reverses', 'Transpose', 'opset1', [t([2, 3, 4]), k([])], {}, [[4, 3, 2]], 'f32'],
  ['Gather-8 batch_dims=1: data (2,5,4) indices (2,3) axis 1 → (2,3,4)', 'Gather', 'opset8', [t([2, 5, 4]), t([2, 3], 'i64'), k([1], [])], { batch_dims: raw('1') }, [[2, 3, 4]], 'f32'],
  ['Gather-1 axis 0', 'Gather', 'opset1', [t([5, 4]), t([3], 'i64'), k([0], [])], {}, [[3, 4]], 'f32'],
  ['ReduceMax-1 keep_dims=false', 'ReduceMax', 'opset1', [t([3, 2, 2]), k([1])], { keep_dims: raw('false') }, [[3, 2]], 'f32'],
  ['ReduceMin-1 keep_dims=true', 'ReduceMin', 'opset1', [t([3, 2, 2]), k([1])], { keep_dims: raw('true') }, [[3, 1, 2]], 'f32'],
  ['ReduceMean-1', 'ReduceMean', 'opset1', [t([3, 2, 2]), k([0, 2])], {}, [[2]], 'f32'],
  ['ReduceSum-1', 'ReduceSum', 'opset1', [t([3, 2, 2]), k([-1])], { keep_dims: raw('true') }, [[3, 2, 1]], 'f32'],
  ['MatMul-1 transpose_a: (2,4,3)ᵀ × (4,5) → (2,3,5)', 'MatMul', 'opset1', [t([2, 4, 3]), t([4, 5])], { transpose_a: raw('true') }, [[2, 3, 5]], 'f32'],
  ['FakeConvert-13: the data\'s type and shape, refined by the scale: (?,3) with (1,3) → (?,3)', 'FakeConvert', 'opset13', [t([null, 3]), t([1, 3])], { destination_type: raw('f8e4m3') }, [[null, 3]], 'f32'],
  ['FakeConvert-13: (2,1..4) with scale (3) → (2,3)', 'FakeConvert', 'opset13', [t([2, iv(1, 4)]), t([3])], { destination_type: raw('f8e4m3') }, [[2, 3]], 'f32'],
  ['Broadcast-3 numpy: (3,1) to (2,3,6)', 'Broadcast', 'opset3', [t([3, 1]), k([2, 3, 6])], {}, [[2, 3, 6]], 'f32'],
  ['Broadcast-3 bidirectional: (3,1) with (1,4) → (3,4)', 'Broadcast', 'opset3', [t([3, 1]), k([1, 4])], { mode: raw('bidirectional') }, [[3, 4]], 'f32'],
  ['Broadcast-1 explicit: target shape', 'Broadcast', 'opset1', [t([3]), k([2, 3]), k([1])], { mode: raw('explicit') }, [[2, 3]], 'f32'],
  ['Select-1: (2,1) ? (1,3) : (2,3) → (2,3)', 'Select', 'opset1', [t([2, 1], 'boolean'), t([1, 3]), t([2, 3])], {}, [[2, 3]], 'f32'],
  ['Range-4 0..5 step 2 → 3', 'Range', 'opset4', [k([0], []), k([5], []), k([2], [])], { output_type: raw('f32') }, [[3]], 'f32'],
  ['Convolution-1: (1,3,5..9,7) W(8,3,3,3) strides 2 pads 1 → (1,8,3..5,4)', 'Convolution', 'opset1', [t([1, 3, iv(5, 9), 7]), t([8, 3, 3, 3])],
    { strides: raw('2,2'), pads_begin: raw('1,1'), pads_end: raw('1,1'), dilations: raw('1,1') }, [[1, 8, iv(3, 5), 4]], 'f32'],
  ['MaxPool-14 ceil: k1 s2 pads_end 1 on 3 → 3', 'MaxPool', 'opset14', [t([1, 1, 3])], { kernel: raw('1'), strides: raw('2'), pads_begin: raw('0'), pads_end: raw('1'), rounding_type: raw('ceil') }, [[1, 1, 3], [1, 1, 3]], 'f32'],
  ['MaxPool-14 ceil_torch drops the window starting in the padding → 2', 'MaxPool', 'opset14', [t([1, 1, 3])], { kernel: raw('1'), strides: raw('2'), pads_begin: raw('0'), pads_end: raw('1'), rounding_type: raw('ceil_torch') }, [[1, 1, 2], [1, 1, 2]], 'f32'],
  ['MaxPool-1 floor over 4..10, k3 s2 → 1..4', 'MaxPool', 'opset1', [t([1, 1, iv(4, 10)])], { kernel: raw('3'), strides: raw('2'), pads_begin: raw('0'), pads_end: raw('0') }, [[1, 1, iv(1, 4)]], 'f32'],
  ['TopK-11 k=5 on a dynamic dim → 5', 'TopK', 'opset11', [t([2, iv(2, 10)]), k([5], [])], { axis: raw('-1') }, [[2, 5], [2, 5]], 'f32'],
  ['Pad-12: (2,1..3) pads (1,2)/(0,1) → (3,4..6)', 'Pad', 'opset12', [t([2, iv(1, 3)]), k([1, 2]), k([0, 1])], {}, [[3, iv(4, 6)]], 'f32'],
  ['Slice-8: start 1 stop 3 step 1 axes 0 on (5,4) → (2,4)', 'Slice', 'opset8', [t([5, 4]), k([1]), k([3]), k([1]), k([0])], {}, [[2, 4]], 'f32'],
  ['Reverse-1 keeps the shape', 'Reverse', 'opset1', [t([2, 2]), k([0])], { mode: raw('index') }, [[2, 2]], 'f32'],
  ['NonZero-3: [rank, 0..element count] (test_compress_0 in OpenVINO: [1,..3])', 'NonZero', 'opset3', [t([3], 'boolean')], { output_type: raw('i64') }, [[1, iv(0, 3)]], 'i64'],
  ['Slice-8 with runtime bounds: every dim 0..its size (test_slice: [..20,..10,..5])', 'Slice', 'opset8', [t([20, 10, 5]), t([2], 'i64'), t([2], 'i64'), t([2], 'i64')], {}, [[iv(0, 20), iv(0, 10), iv(0, 5)]], 'f32'],
  ['ReduceSum-1 runtime axes of shape [1], keep_dims=false: rank drops by one', 'ReduceSum', 'opset1', [t([3, 2, 2]), t([1], 'i64')], { keep_dims: raw('false') }, [[null, null]], 'f32'],
  ['Squeeze-1 runtime axes of shape [1] on (1,3,4,5): [?,?,?] (test_squeeze)', 'Squeeze', 'opset1', [t([1, 3, 4, 5]), t([1], 'i64')], {}, [[null, null, null]], 'f32'],
  ['Tile-1 runtime repeats of shape [4]: rank 4, dims ? (test_tile)', 'Tile', 'opset1', [t([2, 3, 4, 5]), t([4], 'i64')], {}, [[null, null, null, null]], 'f32'],
  ['TopK-11 runtime k: 0..dim (test_top_k: [3,..4])', 'TopK', 'opset11', [t([3, 4]), t([], 'i64')], { axis: raw('1') }, [[3, iv(0, 4)], [3, iv(0, 4)]], 'f32'],
  ['LSTMSequence-5: Y [batch, dirs, seq, hidden], Ho, Co [batch, dirs, hidden]', 'LSTMSequence', 'opset5', [t([3, 1, 2]), t([3, 1, 5]), t([3, 1, 5]), t([3], 'i32')],
    { hidden_size: raw('5'), direction: raw('forward') }, [[3, 1, 1, 5], [3, 1, 5], [3, 1, 5]], 'f32'],
  ['ConvolutionBackpropData-1: s·(in-1) + k - pads (3 → 2·2 + 3 - 0 = 7)', 'ConvolutionBackpropData', 'opset1', [t([1, 1, 3, 3]), t([1, 2, 3, 3])],
    { strides: raw('2,2'), pads_begin: raw('0,0'), pads_end: raw('0,0'), dilations: raw('1,1') }, [[1, 2, 7, 7]], 'f32'],
  ['Interpolate-11 sizes on axes (2,3)', 'Interpolate', 'opset11', [t([1, 1, 4, 4]), k([8, 6]), k([2, 3])], { shape_calculation_mode: raw('sizes') }, [[1, 1, 8, 6]], 'f32'],
  ['GridSample-9: [N, C, grid H, grid W]', 'GridSample', 'opset9', [t([1, 3, 8, 8]), t([1, 4, 5, 2])], {}, [[1, 3, 4, 5]], 'f32'],
  ['Unique-10 without axis on (3,3): [1..9] [1..9] [9] [1..9]', 'Unique', 'opset10', [t([3, 3])], {}, [[iv(1, 9)], [iv(1, 9)], [9], [iv(1, 9)]], 'f32'],
  ['Unique-10 axis 1 on (2,4,2): [2,1..4,2] [1..16] [4] [1..16]', 'Unique', 'opset10', [t([2, 4, 2]), k([1], [])], {}, [[2, iv(1, 4), 2], [iv(1, 16)], [4], [iv(1, 16)]], 'f32'],
  ['ReduceSum-1 two runtime axes, keep_dims=false: dynamic rank (axes may repeat)', 'ReduceSum', 'opset1', [t([3, 4, 5]), t([2], 'i64')], { keep_dims: raw('false') }, [null], 'f32'],
  ['StridedSlice-1 begin (1,0) end (3,2) on (1..8,5) → (0..2,2)', 'StridedSlice', 'opset1', [t([iv(1, 8), 5]), k([1, 0]), k([3, 2]), k([1, 1])], { begin_mask: raw('0,0'), end_mask: raw('0,0') }, [[iv(0, 2), 2]], 'f32'],
  ['StridedSlice-1 masks: new axis, shrink, end mask', 'StridedSlice', 'opset1', [t([4, 5, 6]), k([0, 1, 0]), k([0, 0, 3]), k([1, 1, 1])],
    { begin_mask: raw('0,0,1'), end_mask: raw('0,1,0'), new_axis_mask: raw('1,0,0'), shrink_axis_mask: raw('0,0,0') }, [[1, 3, 3, 6]], 'f32'],
  ['StridedSlice-1 ellipsis then [1:-1] on (4,5,6) → (4,5,4)', 'StridedSlice', 'opset1', [t([4, 5, 6]), k([0, 1]), k([0, -1]), k([1, 1])],
    { begin_mask: raw('1,0'), end_mask: raw('1,0'), ellipsis_mask: raw('1,0') }, [[4, 5, 4]], 'f32'],
  ['StridedSlice-1 shrink_axis removes the dim', 'StridedSlice', 'opset1', [t([4, 5]), k([1]), k([2]), k([1])], { begin_mask: raw('0'), end_mask: raw('0'), shrink_axis_mask: raw('1') }, [[5]], 'f32'],
];

describe('OpenVINO shape rules (validate_and_infer_types)', () => {
  it.each(CASES)('%s', (_, op, version, inputs, attrs, shapes, elem) => {
    const { r, shapes: got, elems } = run(op, version, inputs, attrs, shapes.length);
    expect(errors(r)).toEqual([]);
    expect(got).toEqual(shapes);
    expect(elems[0]).toBe(elem);
  });

  it.each<[string, string, In[], Record<string, Attr>]>([
    ['Add: (2,3) and (3,4) are inconsistent', 'Add', [t([2, 3]), t([3, 4])], {}],
    ['Add: element types f32 and i64 differ', 'Add', [t([2]), t([2], 'i64')], {}],
    ['Squeeze-1: axis of size 3', 'Squeeze', [t([1, 3]), k([1])], {}],
  ])('reports %s', (_, op, inputs, attrs) => {
    const { r } = run(op, 'opset1', inputs, attrs);
    expect(codes(r)).toContain('SHAPE_RULE');
  });

  it('ShapeOf → Gather → Concat → Reshape: bounds flow as intervals ((2..10,3) → (2..10, 1..15))', () => {
    const b = new B('ov', 'opset1');
    const x = b.input('x', 'f32', [iv(2, 10), 3]);
    const shape = b.node('ShapeOf', [x]).outputs[0]!;
    const g = b.node('Gather', [shape, b.i64([0]), b.i64([0], [])], {}, { version: 'opset8' }).outputs[0]!;
    const cat = b.node('Concat', [g, b.i64([-1])], { axis: A.raw('0') }).outputs[0]!;
    const y = b.node('Reshape', [x, cat], { special_zero: A.raw('false') }).outputs[0]!;
    const r = b.infer();
    expect(errors(r)).toEqual([]);
    expect(r.values.get(cat)).toEqual([iv(2, 10), -1]);
    expect(shapeOf(r, y)).toEqual([iv(2, 10), iv(1, 15)]);
  });

  it('VariadicSplit splits shape data (grouped ConvTranspose weights: Reshape to [G, C/G, …])', () => {
    const b = new B('ov', 'opset1');
    const w = b.input('w', 'f32', [2, 1, 3, 3]);
    const shape = b.node('ShapeOf', [w], {}, { version: 'opset3' }).outputs[0]!;
    const parts = b.node('VariadicSplit', [shape, b.i64([0], []), b.i64([1, -1])], {}, { outputs: 2 }).outputs;
    const cat = b.node('Concat', [b.i64([2]), b.i64([1]), parts[1]!], { axis: A.raw('0') }).outputs[0]!;
    const y = b.node('Reshape', [w, cat], { special_zero: A.raw('false') }).outputs[0]!;
    const r = b.infer();
    expect(r.values.get(parts[1]!)).toEqual([1, 3, 3]);
    expect(shapeOf(r, y)).toEqual([2, 1, 1, 3, 3]);
  });

  it('an IR version that is not opsetN finds no rule: info, outputs as declared', () => {
    const b = new B('ov', 'extension');
    const n = b.node('Relu', [b.input('x', 'f32', [2])], {}, { declared: [{ kind: 'tensor', elem: 'f32', shape: [2] }] });
    const r = b.infer();
    expect(r.diagnostics.map((d) => d.severity)).toEqual(['info']);
    expect(shapeOf(r, n.outputs[0]!)).toEqual([2]);
  });
});
