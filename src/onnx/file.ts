import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { OvirError } from '../diag/diagnostic.js';
import type { Model } from '../graph/model.js';
import { writeFilesAtomic, type WriteOptions } from '../fs/atomic.js';
import { regularFileSize } from '../fs/regular-file.js';
import { LAZY_FILE_BYTES } from '../fs/sparse-file.js';
import { decodeOnnx } from './decode.js';
import { encodeOnnxChunks, type EncodeOptions } from './encode.js';
import { readOnnxSparse } from './sparse-read.js';

/**
 * Reads an .onnx file. Weights stay views of the file's buffer; external data is read relative to
 * (and confined to) the model's folder. A big file's big initializers are read on demand
 * (sparse-read.ts; the writers copy them from the file). Every failure is an OvirError with `file` set.
 */
export function readOnnxFile(path: string): Model {
  const opts = { file: path, baseDir: dirname(resolve(path)) };
  let bytes: Uint8Array;
  try {
    if (regularFileSize(path) >= LAZY_FILE_BYTES) {
      const sparse = readOnnxSparse(path);
      if (sparse) {
        const model = decodeOnnx(sparse.bytes, opts);
        // every raw_data left in the file became a tensor reading it on demand (else: read whole)
        if (sparse.allSkippedTaken()) return model;
      }
    }
    bytes = readFileSync(path);
  } catch (e) {
    if (e instanceof OvirError) throw e;
    const err = e as NodeJS.ErrnoException;
    const reason = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a folder' : err.code === 'EACCES' ? 'permission denied' : err.message;
    throw OvirError.of('FILE_NOT_FOUND', '', { reason }, path);
  }
  return decodeOnnx(bytes, opts);
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
