import { describe, expect, it } from 'vitest';
import { bf16BitsToNumber, f16BitsToNumber, f32ToBf16Bits, f32ToF16Bits } from '../../src/graph/f16.js';

describe('binary16', () => {
  it('every f16 bit pattern reads as IEEE 754 says: (−1)^s · 2^(e−15) · (1 + m/1024), subnormals m · 2^−24, e = 31 inf or NaN', () => {
    for (let h = 0; h < 0x10000; h++) {
      const s = h & 0x8000 ? -1 : 1;
      const e = (h >> 10) & 0x1f;
      const m = h & 0x3ff;
      const expected = e === 0 ? s * m * 2 ** -24 : e === 0x1f ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
      expect(Object.is(f16BitsToNumber(h), expected)).toBe(true);
    }
  });

  it('every finite f16 goes back to its own bits', () => {
    for (let h = 0; h < 0x10000; h++) {
      if (((h >> 10) & 0x1f) === 0x1f) continue;
      expect(f32ToF16Bits(f16BitsToNumber(h))).toBe(h);
    }
  });

  it('bfloat16: every pattern is the f32 with those upper 16 bits, and every non-NaN one goes back to its bits', () => {
    const f = new Float32Array(1);
    const u = new Uint32Array(f.buffer);
    for (let h = 0; h < 0x10000; h++) {
      u[0] = h << 16;
      expect(Object.is(bf16BitsToNumber(h), f[0])).toBe(true);
      if (!Number.isNaN(f[0])) expect(f32ToBf16Bits(f[0]!)).toBe(h);
    }
  });
});
