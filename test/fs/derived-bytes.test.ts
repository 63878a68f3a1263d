import { describe, expect, it } from 'vitest';
import { DerivedBytes } from '../../src/fs/derived-bytes.js';
import { COPY_BYTES, eachPieceOf, onDemand, readPiece } from '../../src/fs/sparse-file.js';

// DerivedBytes: bytes computed from a source when needed. Whatever range is asked for, in whatever
// order, the bytes are those of converting the whole source at once.

/** Each source u32 becomes its low 16 bits (4 source bytes → 2 result bytes, as f32 → f16). */
const low16 = (src: Uint8Array, dst: Uint8Array): void => {
  const s = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const d = new DataView(dst.buffer, dst.byteOffset, dst.byteLength);
  for (let k = 0, j = 0; k < src.byteLength; k += 4, j += 2) d.setUint16(j, s.getUint32(k, true) & 0xffff, true);
};

function source(n: number): { src: Uint8Array; want: Buffer } {
  const words = Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 0);
  const src = new Uint8Array(words.buffer);
  const want = Buffer.alloc(n * 2);
  low16(src, want);
  return { src, want };
}

describe('DerivedBytes', () => {
  const n = (COPY_BYTES >> 1) + 12345; // more than one piece of the source
  const { src, want } = source(n);

  it('copy hands over exactly the converted bytes, in pieces, without filling its buffer', () => {
    const d = new DerivedBytes(src, 2, 2, low16);
    expect(d.size).toBe(n * 2);
    expect(onDemand(d.bytes)).toBe(d);
    const pieces: Buffer[] = [];
    eachPieceOf(d.bytes, (p) => pieces.push(Buffer.from(p)));
    expect(pieces.length).toBeGreaterThan(1);
    expect(Buffer.concat(pieces).equals(want)).toBe(true);
    expect(d.isFilled(0, d.size)).toBe(false);
  });

  it('fill of odd, unaligned and overlapping ranges, in any order, gives the same bytes', () => {
    const d = new DerivedBytes(src, 2, 2, low16);
    for (const [a, b] of [[7, 8], [1, 100001], [d.size - 3, d.size], [50000, 300001], [4095, 4097]] as const) {
      d.fill(a, b);
      expect(d.isFilled(a, b)).toBe(true);
      expect(d.bytes.subarray(a, b).equals(want.subarray(a, b))).toBe(true);
    }
    expect(d.isFilled(0, d.size)).toBe(false);
    d.fill(0, d.size);
    expect(d.bytes.equals(want)).toBe(true);
  });

  it('read (what check and the .bin dedup use) gives any range, filled or not', () => {
    const d = new DerivedBytes(src, 2, 2, low16);
    for (const [at, len] of [[0, 10], [3, 1001], [d.size - 5, 5], [123457, COPY_BYTES]] as const) {
      const m = Math.min(len, d.size - at);
      expect(readPiece(d.bytes, at, m, 0).equals(want.subarray(at, at + m))).toBe(true);
    }
    d.fill(0, 9000);
    expect(readPiece(d.bytes, 11, 100, 1).equals(want.subarray(11, 111))).toBe(true);
  });

  it('a source that is itself derived is read through its own scratch (nested computation)', () => {
    const inner = new DerivedBytes(src, 2, 2, low16);
    // the result of inner, as u16 → each u16 pair's low byte... 2 source bytes → 1 result byte
    const lowByte = (s: Uint8Array, d: Uint8Array) => { for (let k = 0; k < d.length; k++) d[k] = s[2 * k]!; };
    const outer = new DerivedBytes(inner.bytes, 2, 1, lowByte);
    const expected = Buffer.alloc(n);
    lowByte(want, expected);
    const pieces: Buffer[] = [];
    eachPieceOf(outer.bytes, (p) => pieces.push(Buffer.from(p)));
    expect(Buffer.concat(pieces).equals(expected)).toBe(true);
  });

  it('refuses a source that is no whole number of results', () => {
    expect(() => new DerivedBytes(new Uint8Array(6), 4, 2, low16)).toThrow(RangeError);
  });
});
