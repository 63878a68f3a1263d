import { A } from '../../src/graph/index.js';
import type { In, Sample } from './op-samples.js';

/**
 * Samples for the tensor / indexing / quantization / detection / generator families
 * (mappings/tensor/scatter.ts and its neighbours), by `onnxOp>irOp`, merged into SAMPLES.
 */
const F = (...shape: number[]): In => ({ elem: 'f32', shape });
const idx = (shape: number[], ...ints: number[]): In => ({ elem: 'i64', shape, ints });

export const TENSOR_SAMPLES: Record<string, Sample[]> = {
  // IR-only forms, decompositions and ops with differently shaped operands are checked by
  // test/convert/tensor-ops.test.ts (listed in registry-complete.test.ts)
  'Slice>StridedSlice': [], 'Slice>Reverse': [], 'Trilu>Trilu': [], 'Hardmax>Hardmax': [], 'OneHot>OneHot': [], 'EyeLike>Eye': [],
  'NonMaxSuppression>NonMaxSuppression': [], 'QuantizeLinear>QuantizeLinear': [], 'DequantizeLinear>DequantizeLinear': [],
  'QLinearMatMul>QLinearMatMul': [], 'DynamicQuantizeLinear>DynamicQuantizeLinear': [], 'QuantizeLinear>FakeQuantize': [], 'Compress>Compress': [],
  'Scatter>ScatterElementsUpdate': [{ inputs: [F(2, 3), idx([1, 2], 1, 0), F(1, 2)], attrs: { axis: A.int(1) }, opsets: [9, 10] }],
  'ScatterElements>ScatterElementsUpdate': [
    { inputs: [F(2, 3), idx([1, 2], 1, 0), F(1, 2)], attrs: { axis: A.int(1) }, opsets: [11, 13] },
    { inputs: [F(2, 3), idx([1, 2], 1, 0), F(1, 2)], attrs: { reduction: A.string('mul') }, opsets: [16] },
    { inputs: [F(2, 3), idx([1, 2], 1, 0), F(1, 2)], attrs: { axis: A.int(-1), reduction: A.string('max') }, opsets: [18] },
  ],
  'ScatterND>ScatterNDUpdate': [
    { inputs: [F(2, 3), idx([1, 1], 1), F(1, 3)], opsets: [11, 13] },
    { inputs: [F(2, 3), idx([1, 1], 1), F(1, 3)], attrs: { reduction: A.string('add') }, opsets: [16] },
    { inputs: [F(2, 3), idx([1, 2], 1, 2), F(1)], attrs: { reduction: A.string('min') }, opsets: [18] },
  ],
  'GatherND>GatherND': [
    { inputs: [F(2, 3), idx([2, 1], 1, 0)], opsets: [11, 13] },
    { inputs: [F(2, 3), idx([2, 1], 1, 0)], attrs: { batch_dims: A.int(1) }, opsets: [12, 13] },
  ],
};
const U8 = (...shape: number[]): In => ({ elem: 'u8', shape });
Object.assign(TENSOR_SAMPLES, {
  'ReverseSequence>ReverseSequence': [
    // default batch_axis 1 (3 sequences), time_axis 0 (length 2): one length per sequence, each ≤ 2
    { inputs: [F(2, 3), idx([3], 1, 2, 1)], opsets: [10] },
    // batch_axis 0 (2 sequences), time_axis 1 (length 3)
    { inputs: [F(2, 3), idx([2], 3, 2)], attrs: { batch_axis: A.int(0), time_axis: A.int(1) } },
  ],
  'Unique>Unique': [{ inputs: [F(2, 3)], outputs: 4 }, { inputs: [F(2, 3)], attrs: { axis: A.int(1), sorted: A.int(0) }, outputs: 4 }],
  'BitShift>BitwiseLeftShift': [{ inputs: [U8(2, 3), U8(3)], attrs: { direction: A.string('LEFT') }, opsets: [11, 18] }],
  'BitShift>BitwiseRightShift': [{ inputs: [U8(2, 3), U8(3)], attrs: { direction: A.string('RIGHT') }, opsets: [11] }],
});
