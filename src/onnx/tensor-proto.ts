import { Diagnostics, OvirError } from '../diag/diagnostic.js';
import type { Tensor } from '../graph/tensor.js';
import type { TensorProto } from './proto-types.js';
import { T } from './schema.js';
import { decodeTensor, encodeTensor } from './tensor-data.js';
import { decodeMessage, encodeMessage, str } from './wire.js';

/**
 * A serialized TensorProto on its own (the test_data_set_N/input_N.pb files of ONNX test data).
 * Data is a view of `bytes` when it is in raw_data. Throws OvirError on malformed input.
 */
export function decodeTensorProto(bytes: Uint8Array): { name: string; tensor: Tensor } {
  const diags = new Diagnostics();
  let p: TensorProto;
  try {
    p = decodeMessage<TensorProto>(T.TensorProto, bytes);
  } catch (e) {
    throw OvirError.of('ONNX_BAD_PROTOBUF', '', { what: 'TensorProto', reason: (e as Error).message });
  }
  const tensor = decodeTensor(p, { diags, where: '', external: null });
  diags.throwIfErrors();
  return { name: str(p, 'name'), tensor: tensor! };
}

/** Serializes a tensor as a TensorProto (raw_data, or string_data for strings). */
export function encodeTensorProto(tensor: Tensor, name: string): Uint8Array {
  return encodeMessage(T.TensorProto, encodeTensor(tensor, name));
}
