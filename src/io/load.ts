import type { Model } from '../graph/model.js';
import type { WriteOptions } from '../fs/atomic.js';
import { readIrFile, writeIrFile } from '../ir/file.js';
import { readOnnxFile, writeOnnxFile } from '../onnx/file.js';
import { formatOf, unknownFormat, type ModelFormat } from './format.js';

export { formatOf, type ModelFormat };

function requireFormat(path: string): ModelFormat {
  const f = formatOf(path);
  if (!f) throw unknownFormat(path);
  return f;
}

/**
 * Reads a model by its extension: `.onnx` (ONNX ModelProto) or `.xml` (OpenVINO IR, with the
 * `.bin` beside it). Throws an OvirError (FILE_UNKNOWN_FORMAT, or the codec's diagnostics).
 */
export function loadModel(path: string): Model {
  return requireFormat(path) === 'onnx' ? readOnnxFile(path) : readIrFile(path);
}

/**
 * Writes a model by the extension of `path`: `.onnx`, or `.xml` (+ `.bin` beside it). The write is
 * atomic: on failure, nothing at `path` (or its `.bin`) is touched; `opts.fsync` makes it durable
 * (see WriteOptions).
 */
export function saveModel(model: Model, path: string, opts: WriteOptions = {}): void {
  if (requireFormat(path) === 'onnx') writeOnnxFile(model, path, opts);
  else writeIrFile(model, path, opts);
}
