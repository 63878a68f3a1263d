import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { readFloats } from '../../src/graph/tensor.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import type { TensorProto } from '../../src/onnx/proto-types.js';
import { diagnosticsOf } from '../helpers/diagnostics.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * A sparse initializer (GraphProto.sparse_initializer) is a constant: zeros with each value at the
 * place its index gives, indices either linear ([NNZ]) or one coordinate row per value ([NNZ,
 * rank]). IR has no sparse tensors, so ONNX → IR writes its dense form, as OpenVINO's frontend
 * expands it. Before, it became a Parameter of no type ("Parameter 'w' has no known type").
 */
function addModel(indices: TensorProto, dims: number[], values = [1, 2]): Uint8Array {
  const g = ob.graph({
    name: 'main',
    inputs: [ob.valueInfo('x', 'f32', dims)],
    outputs: [ob.valueInfo('y', 'f32', dims)],
    nodes: [ob.node('Add', ['x', 'w'], ['y'])],
  });
  const sparse = { values: ob.floatTensor('w', [values.length], values), indices, dims: dims.map(BigInt) };
  return ob.encodeModelProto(ob.model({ opset: 13, graph: { ...g, sparse_initializer: [sparse] } }));
}

const constOf = (bytes: Uint8Array) => {
  const ir = convertModel(decodeOnnx(bytes));
  const w = ir.graph.initializers.find((v) => v.names.includes('w'))!;
  return { dims: w.constant!.dims, values: readFloats(w.constant!) };
};

describe('sparse initializers (ONNX → IR)', () => {
  it('linear indices: a dense Const with the values in place', () => {
    expect(constOf(addModel(ob.int64Tensor('i', [2], [1, 4]), [2, 3]))).toEqual({ dims: [2, 3], values: [0, 1, 0, 0, 2, 0] });
  });

  it('coordinate indices [NNZ, rank]', () => {
    expect(constOf(addModel(ob.int64Tensor('i', [2, 2], [0, 2, 1, 0]), [2, 3]))).toEqual({ dims: [2, 3], values: [0, 0, 1, 2, 0, 0] });
  });

  it('an index outside the tensor is an error naming the tensor, never a write out of place', () => {
    expect(diagnosticsOf(() => convertModel(decodeOnnx(addModel(ob.int64Tensor('i', [2], [1, 6]), [2, 3])))))
      .toEqual(["ONNX_TENSOR_BAD main: tensor 'w': sparse initializer: index 6 of value 1 is outside the 6 elements"]);
    expect(diagnosticsOf(() => convertModel(decodeOnnx(addModel(ob.int64Tensor('i', [2, 2], [0, 3, 1, 0]), [2, 3])))))
      .toEqual(["ONNX_TENSOR_BAD main: tensor 'w': sparse initializer: index 3 of value 0 is outside dimension 1 (3)"]);
  });

  it('ONNX → ONNX keeps it sparse (the decoder carries it as written)', () => {
    const m = decodeOnnx(addModel(ob.int64Tensor('i', [2], [1, 4]), [2, 3]));
    expect(m.graph.inputs.find((v) => v.names.includes('w'))?.metaView['onnxSparseInitializer']).toBeInstanceOf(Uint8Array);
  });
});
