import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { OvirError } from '../diag/diagnostic.js';
import type { Model } from '../graph/model.js';
import { writeFilesAtomic, type WriteOptions } from '../fs/atomic.js';
import { decodeOnnx } from './decode.js';
import { encodeOnnxChunks, type EncodeOptions } from './encode.js';

/**
 * Reads an .onnx file. Weights stay views of the file's buffer; external data is read relative to
 * (and confined to) the model's folder. Every failure is an OvirError with `file` set.
 */
export function readOnnxFile(path: string): Model {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const reason = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a folder' : err.code === 'EACCES' ? 'permission denied' : err.message;
    throw OvirError.of('FILE_NOT_FOUND', '', { reason }, path);
  }
  return decodeOnnx(bytes, { file: path, baseDir: dirname(resolve(path)) });
}

/**
 * Writes a model as .onnx, with its external data file (if any) beside it, atomically: on failure
 * nothing at `path` is touched. External data goes to `<name>.data` unless opts say otherwise;
 * `opts.fsync`: durably.
 */
export function writeOnnxFile(model: Model, path: string, opts: EncodeOptions & WriteOptions = {}): void {
  const location = opts.externalData?.location ?? `${basename(path)}.data`;
  // Chunks: the weights are written from their views (the file's buffer), never copied.
  const { chunks, external } = encodeOnnxChunks(model, { ...opts, defaultLocation: location });
  const dir = dirname(path);
  try {
    writeFilesAtomic([...external.map((f) => ({ path: join(dir, f.path), chunks: f.chunks })), { path, chunks }], { fsync: opts.fsync });
  } catch (e) {
    throw OvirError.of('FILE_WRITE_FAILED', '', { path, reason: (e as Error).message }, path);
  }
}
