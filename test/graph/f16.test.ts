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

  it('an f32 rounds to the nearest f16, a tie to the even one: at and one f32 step either side of every midpoint between neighbours, both signs, up to the tie above 65504 (→ inf)', () => {
    const f = new Float32Array(1);
    const u = new Uint32Array(f.buffer);
    const bitsOf = (x: number): number => { f[0] = x; return u[0]!; };
    const numberOf = (bits: number): number => { u[0] = bits >>> 0; return f[0]!; };
    const wrong: string[] = [];
    for (let h = 0; h < 0x7c00; h++) {
      // the midpoint between h and h + 1 (h = 0x7bff: 65504 and the next step, 65536, which is inf) is an f32 exactly
      const lo = f16BitsToNumber(h);
      const hi = h === 0x7bff ? 65536 : f16BitsToNumber(h + 1);
      const mid = bitsOf((lo + hi) / 2);
      const even = h & 1 ? h + 1 : h;
      for (const sign of [0, 0x80000000]) {
        const s16 = sign ? 0x8000 : 0;
        for (const [bits, want] of [[mid, even], [mid - 1, h], [mid + 1, h + 1]] as const) {
          const got = f32ToF16Bits(numberOf(bits | sign));
          if (got !== (want | s16)) wrong.push(`${numberOf(bits | sign)} → ${got.toString(16)}, want ${(want | s16).toString(16)}`);
        }
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
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
