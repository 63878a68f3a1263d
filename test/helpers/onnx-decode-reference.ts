import { Diagnostics, OvirError } from '../../src/diag/diagnostic.js';
import type { Model } from '../../src/graph/model.js';
import { decodeModelProto, type DecodeOptions } from '../../src/onnx/decode.js';
import type { ModelProto } from '../../src/onnx/proto-types.js';
import { T } from '../../src/onnx/schema.js';
import { decodeMessage } from '../../src/onnx/wire.js';

/**
 * The ONNX decoder as it was before it read the bytes with protobufjs's Reader (src/onnx/proto-read.ts):
 * the whole ModelProto decoded into protobufjs's message objects first, then the graph built from
 * them. Kept for tests only, as the reference the decoder must match (test/onnx/decode-differential.test.ts).
 */
export function decodeOnnxReference(bytes: Uint8Array, opts: DecodeOptions = {}): Model {
  const diags = new Diagnostics();
  let mp: ModelProto;
  try {
    mp = decodeMessage<ModelProto>(T.ModelProto, bytes);
  } catch (e) {
    diags.add('ONNX_BAD_PROTOBUF', '', { what: `${bytes.byteLength} bytes`, reason: (e as Error).message });
    throw new OvirError(diags.list, opts.file);
  }
  const model = decodeModelProto(mp, opts, diags);
  diags.throwIfErrors(opts.file);
  if (diags.list.length) model.graph.meta['diagnostics'] = diags.list;
  return model;
}
