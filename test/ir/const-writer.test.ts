import { describe, expect, it } from 'vitest';
import { makeTensor } from '../../src/graph/index.js';
import { ConstWriter } from '../../src/ir/const-writer.js';

/** A u8 tensor of `n` zero bytes with `marks` set to 1: alike wherever the writer samples. */
function blob(n: number, ...marks: number[]) {
  const data = new Uint8Array(n);
  for (const m of marks) data[m] = 1;
  return makeTensor('u8', [n], data);
}

describe('ConstWriter: the .bin stores identical blobs once, and only identical ones', () => {
  it('gives an identical blob the offset of the first, wherever it comes from', () => {
    const w = new ConstWriter();
    expect(w.write(blob(1000, 7))).toEqual({ offset: 0, size: 1000 });
    expect(w.write(blob(1000, 8))).toEqual({ offset: 1000, size: 1000 });
    expect(w.write(blob(1000, 7))).toEqual({ offset: 0, size: 1000 });
    expect(w.write(blob(10))).toEqual({ offset: 2000, size: 10 });
    expect(w.chunks.reduce((s, c) => s + c.byteLength, 0)).toBe(2010);
  });

  it('keeps blobs apart that differ only between the sampled bytes, past the byte-compare limit too', () => {
    const w = new ConstWriter();
    // 40 blobs equal at start, middle and end, each with its own byte set at 200 + k: the writer
    // compares the first few byte by byte, then goes over to digests; none may be merged.
    const offsets = Array.from({ length: 40 }, (_, k) => w.write(blob(4096, 200 + k)).offset);
    expect(new Set(offsets).size).toBe(40);
    // …and each, written again, is found, in both the compared and the hashed part of the group.
    for (const k of [0, 5, 20, 39]) expect(w.write(blob(4096, 200 + k)).offset).toBe(offsets[k]);
    expect(w.chunks.length).toBe(40);
  });

  it('stores an empty blob as one zero byte, once, as OpenVINO\'s serializer does (Constant-1: size is positive)', () => {
    const w = new ConstWriter();
    expect(w.write(blob(0))).toEqual({ offset: 0, size: 1 });
    expect(w.write(blob(3))).toEqual({ offset: 1, size: 3 });
    expect(w.write(blob(0))).toEqual({ offset: 0, size: 1 });
    expect(Buffer.concat(w.chunks).subarray(0, 1)).toEqual(Buffer.of(0));
  });
});
