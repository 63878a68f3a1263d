/** One f32 and its bits (scratch of f32ToF16Bits: no array per call). */
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** IEEE binary32 → binary16 bits, round to nearest even (overflow → inf, NaN kept NaN). */
export function f32ToF16Bits(x: number): number {
  F32[0] = x;
  return f32BitsToF16Bits(U32[0]!);
}

/**
 * f32ToF16Bits of the f32 whose bits are `u` (for weights read as bits: no number made). An f32
 * whose f16 is normal (2^-14 ≤ |x| below the tie above 65504) is rebiased and rounded in one step:
 * adding 0xfff plus the kept part's lowest bit before dropping 13 mantissa bits rounds to nearest
 * even, and a carry out of the mantissa lands in the exponent as it should (measured: 7–10 →
 * 3 ns per weight of `--compress-to-fp16`; equal to the general path below for all 2^32 patterns).
 */
export function f32BitsToF16Bits(u: number): number {
  const a = u & 0x7fffffff;
  if (a >= 0x38800000 && a < 0x477ff000) return ((u >>> 16) & 0x8000) | ((a - 0x38000000 + 0xfff + ((a >>> 13) & 1)) >>> 13);
  const sign = (u >>> 16) & 0x8000;
  const exp = (u >>> 23) & 0xff;
  let mant = u & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    let r = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    if (rest > half || (rest === half && (r & 1))) r++;
    return sign | r;
  }
  let r = mant >>> 13;
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (r & 1))) { r++; if (r === 0x400) { r = 0; e++; if (e >= 0x1f) return sign | 0x7c00; } }
  return sign | (e << 10) | r;
}

/** IEEE binary16 bits → number (subnormals, ±inf and NaN included). */
export function f16BitsToNumber(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * F16_SUBNORMAL_STEP;
  if (e === 0x1f) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * F16_SCALE[e]!;
}

/** 2^(e − 15) per f16 exponent e (a table: `**` per element was most of comparing 100M f16 weights). */
const F16_SCALE = Float64Array.from({ length: 32 }, (_, e) => 2 ** (e - 15));
const F16_SUBNORMAL_STEP = 2 ** -24;

/** bfloat16 bits of x: the upper half of its f32 bits, rounded to nearest even (NaN stays NaN). */
export function f32ToBf16Bits(x: number): number {
  F32[0] = x;
  const u = U32[0]!;
  if ((u & 0x7fffffff) > 0x7f800000) return (u >>> 16) | 0x40; // quiet NaN
  return ((u + 0x7fff + ((u >>> 16) & 1)) >>> 16) & 0xffff;
}

/** The number whose f32 bits are bfloat16 `h` in the upper half. */
export function bf16BitsToNumber(h: number): number {
  U32[0] = (h & 0xffff) << 16;
  return F32[0]!;
}
