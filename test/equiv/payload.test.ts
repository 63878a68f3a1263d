import { describe, expect, it } from 'vitest';
import { comparePayloads, roundTo, roundToNearest } from '../../src/equiv/payload.js';
import { makeTensor, tensorFromFloat32, tensorFromInt64 } from '../../src/graph/tensor.js';

const f32 = (v: number[], dims?: number[]) => ({ tensor: tensorFromFloat32(v, dims), kept: 'f32' as const });
const f16 = (bits: number[], dims = [bits.length]) => ({ tensor: makeTensor('f16', dims, new Uint8Array(new Uint16Array(bits).buffer)), kept: 'f16' as const });

describe('rounding to a kept precision (IEEE, ties to even)', () => {
  it('f16: 65504 is the largest finite; from 65520 on, infinity; 1048576 overflows', () => {
    expect(roundTo(65504, 'f16')).toBe(65504);
    expect(roundTo(65519, 'f16')).toBe(65504);
    expect(roundTo(65520, 'f16')).toBe(Infinity);
    expect(roundTo(-1048576, 'f16')).toBe(-Infinity);
  });
  it('f16: 0.1 → 0.0999755859375; 1 + 2^-11 ties to 1 (even), 1 + 3·2^-11 to 1 + 2^-9; subnormals keep 2^-24 steps', () => {
    expect(roundTo(0.1, 'f16')).toBe(0.0999755859375);
    expect(roundTo(1 + 2 ** -11, 'f16')).toBe(1);
    expect(roundTo(1 + 3 * 2 ** -11, 'f16')).toBe(1 + 2 ** -9);
    expect(roundTo(3 * 2 ** -25, 'f16')).toBe(2 ** -23);
  });
  it('f32 is Math.fround', () => {
    for (const x of [0.1, 1 / 3, 1e-40, 3.4e38]) expect(roundTo(x, 'f32')).toBe(Math.fround(x));
  });
  it('the fast paths (f32: Math.fround; f16 from an f32 value: its f16 bits) round as the general algorithm does', () => {
    // f32 values of every exponent an f16 has and beyond (subnormals, ties, overflow), from their bits
    const bits = new Uint32Array(1);
    const asF32 = new Float32Array(bits.buffer);
    let seed = 12345;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let k = 0; k < 20000; k++) {
      const exp = 100 + (next() % 60); // 2^-27 … 2^32
      bits[0] = ((next() & 1) << 31) | (exp << 23) | (k % 7 === 0 ? (next() & 0x7fe000) | 0x1000 : next() & 0x7fffff); // every 7th a tie for f16
      const x = asF32[0]!;
      expect(roundTo(x, 'f16')).toBe(roundToNearest(x, 'f16'));
      expect(roundTo(x, 'f32')).toBe(roundToNearest(x, 'f32'));
      const d = x * (1 + 2 ** -40); // a double f32 cannot hold: the general path, as before
      expect(roundTo(d, 'f16')).toBe(roundToNearest(d, 'f16'));
      expect(roundTo(d, 'f32')).toBe(roundToNearest(d, 'f32'));
    }
  });
});

describe('comparing two constant payloads', () => {
  it('f32 against its f16 compression: equal within f16 (0.1 → 0x2e66)', () => {
    expect(comparePayloads(f32([0.1, 1, -2]), f16([0x2e66, 0x3c00, 0xc000]))).toBeNull();
  });
  it('a finite value that became inf is a difference, even though f16 cannot hold it', () => {
    expect(comparePayloads(f32([1048576, 1]), f16([0x7c00, 0x3c00]))).toBe('1 of 2 elements differ beyond f16 precision (element 0: 1048576 vs Infinity)');
  });
  it('NaN equals only NaN', () => {
    expect(comparePayloads(f32([NaN]), f32([NaN]))).toBeNull();
    expect(comparePayloads(f32([NaN]), f32([0]))).toContain('element 0: NaN vs 0');
  });
  it('f32 against f32 must be equal exactly; integers exactly', () => {
    expect(comparePayloads(f32([1]), f32([1.0000001]))).toContain('beyond f32 precision');
    expect(comparePayloads({ tensor: tensorFromInt64([1, 2]), kept: 'i64' }, { tensor: tensorFromInt64([1, 3]), kept: 'i64' })).toContain('element 1: 2 vs 3');
  });
  it('dims that differ only in 1s are compared; other dims are not (a transposed weight is not guessed at)', () => {
    expect(comparePayloads(f32([5], []), f32([5], [1, 1, 1]))).toBeNull();
    expect(comparePayloads(f32([1, 2, 3, 4, 5, 6], [2, 3]), f32([1, 4, 2, 5, 3, 6], [3, 2]))).toBeUndefined();
  });
});

describe('a rounding that is not ties-to-even is still within the kept precision', () => {
  it('0.0390167236328125 (a tie between two f16 values) stored as the upper neighbour: equal; two steps off: not', () => {
    const a = 0.0390167236328125;
    expect(comparePayloads(f32([a]), f32([0.039031982421875]))).toContain('f32'); // f32 keeps it exactly
    const half = (x: number) => ({ tensor: tensorFromFloat32([x]), kept: 'f16' as const });
    expect(comparePayloads(f32([a]), half(0.039031982421875))).toBeNull();
    expect(comparePayloads(f32([a]), half(0.039031982421875 + 2 * 2 ** -15))).toContain('beyond f16 precision');
  });
});
