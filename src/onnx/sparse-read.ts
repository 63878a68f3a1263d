import { LAZY_TENSOR_BYTES, SparseFile } from '../fs/sparse-file.js';

/** ModelProto.graph, GraphProto.initializer, TensorProto.raw_data (onnx.proto field numbers). */
const MODEL_GRAPH = 7;
const GRAPH_INITIALIZER = 5;
const TENSOR_RAW_DATA = 9;

const MODEL = 0;
const GRAPH = 1;
const TENSOR = 2;

/**
 * An .onnx file read except for the raw_data of the main graph's big initializers (at least
 * LAZY_TENSOR_BYTES each), which stay in the file until something reads them (src/fs/sparse-file.ts):
 * the protobuf fields are walked from the file (ModelProto → graph → initializer → raw_data), every
 * other field is read whole. Null when the file is not the protobuf this walk expects (a bad length,
 * a group, bytes after the end of a message): the caller reads it whole, and the decoder says what
 * is wrong with it as it would have.
 */
export function readOnnxSparse(path: string): SparseFile | null {
  const f = SparseFile.open(path);
  const b = f.bytes;
  let pos = 0;

  /** An unsigned varint at `pos` below `end` (-1: malformed, or above 2^53). */
  const varint = (end: number): number => {
    let x = 0;
    let scale = 1;
    for (let i = 0; i < 10 && pos < end; i++) {
      const c = b[pos++]!;
      x += (c & 0x7f) * scale;
      if (c < 0x80) return Number.isSafeInteger(x) ? x : -1;
      scale *= 128;
    }
    return -1;
  };

  const walk = (start: number, end: number, kind: number): boolean => {
    pos = start;
    while (pos < end) {
      f.fill(pos, Math.min(end, pos + 20)); // a key and a varint, fixed64 or length after it: at most 20 bytes
      const key = varint(end);
      if (key < 0) return false;
      const wire = key % 8;
      const field = Math.floor(key / 8);
      if (wire === 0) {
        if (varint(end) < 0) return false;
      } else if (wire === 1 || wire === 5) {
        pos += wire === 1 ? 8 : 4;
      } else if (wire === 2) {
        const length = varint(end);
        if (length < 0 || pos + length > end) return false;
        const at = pos;
        if (kind === MODEL && field === MODEL_GRAPH) {
          if (!walk(at, at + length, GRAPH)) return false;
        } else if (kind === GRAPH && field === GRAPH_INITIALIZER) {
          if (!walk(at, at + length, TENSOR)) return false;
        } else if (kind === TENSOR && field === TENSOR_RAW_DATA && length >= LAZY_TENSOR_BYTES) {
          f.skip(at, length);
        } else f.fill(at, at + length);
        pos = at + length;
      } else return false;
    }
    return pos === end;
  };

  return walk(0, f.size, MODEL) ? f : null;
}
