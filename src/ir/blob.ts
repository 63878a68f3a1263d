import { byteSize, type ElementTypeName } from '../graph/element-type.js';
import { elementCount } from '../graph/shape.js';
import { makeStringTensor, rawData, type Tensor } from '../graph/tensor.js';
import { filled, MAX_BUFFER_BYTES, tensorOver, type FileBytes } from '../fs/sparse-file.js';

/**
 * Const payloads in the .bin: raw little-endian row-major data; sub-byte types packed (u1
 * MSB-first, u2 low bits first, 4-bit types low nibble first); u3 and u6 in groups (8 u3 in 3
 * bytes, 4 u6 in 3 bytes), as OpenVINO sizes them. Strings: int32 header `[N, 0, end_0 … end_{N-1}]`
 * (ends relative to the first character byte) followed by the characters.
 */

/** Bytes OpenVINO needs for `count` elements of `elem` (strings excluded). */
export function irByteSize(elem: ElementTypeName, count: number): number {
  return byteSize(elem, count);
}

export type BlobResult = { ok: true; tensor: Tensor } | { ok: false; code: 'IR_BLOB_BOUNDS' | 'IR_BLOB_TOO_SMALL' | 'IR_BLOB_TOO_BIG' | 'IR_STRING_BLOB'; detail: string };

/**
 * The tensor of a Const whose data is `bin[offset, offset+size)`: a view, never a copy. Checks
 * that the range lies inside the file and that `size` holds the data the type and shape need.
 */
export function constFromBin(bin: FileBytes, elem: ElementTypeName, dims: readonly number[], offset: number, size: number): BlobResult {
  if (offset < 0 || size < 0 || offset + size > bin.byteLength) {
    return { ok: false, code: 'IR_BLOB_BOUNDS', detail: `bytes ${offset}..${offset + size} lie outside the ${bin.byteLength}-byte .bin` };
  }
  const n = elementCount(dims);
  if (elem === 'string') return stringsFromBlob(filled(bin.subarray(offset, offset + size)), dims);
  const need = irByteSize(elem, n);
  if (size < need) {
    return { ok: false, code: 'IR_BLOB_TOO_SMALL', detail: `size ${size} is smaller than the ${need} bytes ${n} ${elem} elements need` };
  }
  if (need > MAX_BUFFER_BYTES) {
    return { ok: false, code: 'IR_BLOB_TOO_BIG', detail: `${need} bytes in one tensor: more than the ${MAX_BUFFER_BYTES} bytes of Node's largest buffer, which ovir holds one tensor in` };
  }
  return { ok: true, tensor: tensorOver(elem, dims, bin.subarray(offset, offset + need)) };
}

function stringsFromBlob(blob: Uint8Array, dims: readonly number[]): BlobResult {
  const n = elementCount(dims);
  const bad = (detail: string): BlobResult => ({ ok: false, code: 'IR_STRING_BLOB', detail });
  if (n === 0 && blob.byteLength === 0) return { ok: true, tensor: makeStringTensor(dims, []) };
  const headerBytes = 4 * (n + 2);
  if (blob.byteLength < headerBytes) return bad(`${blob.byteLength} bytes cannot hold the header of ${n} strings`);
  const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const count = dv.getInt32(0, true);
  if (count !== n) return bad(`header says ${count} strings, the shape says ${n}`);
  const chars = blob.subarray(headerBytes);
  const strings: Uint8Array[] = [];
  let prev = dv.getInt32(4, true);
  if (prev !== 0) return bad(`first offset is ${prev}, expected 0`);
  for (let i = 0; i < n; i++) {
    const end = dv.getInt32(8 + 4 * i, true);
    if (end < prev || end > chars.byteLength) return bad(`string ${i} ends at ${end}, outside ${prev}..${chars.byteLength}`);
    strings.push(chars.subarray(prev, end));
    prev = end;
  }
  return { ok: true, tensor: makeStringTensor(dims, strings) };
}

/**
 * The .bin bytes of a tensor, as chunks (no copy of fixed-width data; weights read on demand are
 * not read: see rawData).
 */
export function blobChunks(t: Tensor): Uint8Array[] {
  if (t.elem !== 'string') return [rawData(t)];
  const strs = t.strings ?? [];
  const header = new Int32Array(strs.length + 2);
  header[0] = strs.length;
  let end = 0;
  header[1] = 0;
  strs.forEach((s, i) => {
    end += s.byteLength;
    header[i + 2] = end;
  });
  return [new Uint8Array(header.buffer), ...strs];
}
