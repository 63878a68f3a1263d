import { describe, expect, it } from 'vitest';
import { compareOutputs, f16Bits, pairNames } from '../../src/batch/run-ort.js';

type T = Parameters<typeof compareOutputs>[0][string];
const t = (type: string, dims: number[], data: ArrayLike<number | bigint>) => ({ type, dims, data }) as unknown as T;

describe('--run: comparing outputs', () => {
  it('equal outputs are ok with max difference 0; NaN equals NaN', () => {
    expect(compareOutputs({ y: t('float32', [3], new Float32Array([1, NaN, -2])) }, { y: t('float32', [3], new Float32Array([1, NaN, -2])) }))
      .toEqual({ ok: true, maxAbsDiff: 0 });
  });

  it('within rtol 1e-5 / atol 1e-6 is ok, beyond is not', () => {
    expect(compareOutputs({ y: t('float32', [1], [1000]) }, { y: t('float32', [1], [1000.005]) }).ok).toBe(true);
    const r = compareOutputs({ y: t('float32', [2], [1, 2]) }, { y: t('float32', [2], [1, 2.01]) });
    expect(r.ok).toBe(false);
    expect(r.detail).toMatch(/'y': 1 of 2 values differ/);
    expect(r.maxAbsDiff).toBeCloseTo(0.01, 5);
  });

  it('integers compare exactly (bigint too)', () => {
    expect(compareOutputs({ i: t('int64', [2], new BigInt64Array([1n, 2n])) }, { i: t('int64', [2], new BigInt64Array([1n, 3n])) }).ok).toBe(false);
  });

  it.each([
    ['dims', t('float32', [2, 1], [1, 2]), /dims \[1,2\] vs \[2,1\]/],
    ['dtype', t('float64', [1, 2], [1, 2]), /dtype float32 vs float64/],
  ])('a different %s is reported', (_, other, msg) => {
    const r = compareOutputs({ y: t('float32', [1, 2], [1, 2]) }, { y: other });
    expect(r.ok).toBe(false);
    expect(r.detail).toMatch(msg);
  });

  it('an output missing after the round trip is reported', () => {
    expect(compareOutputs({ y: t('float32', [1], [1]) }, {}).detail).toMatch(/output 'y' missing/);
  });
});

describe('--run: pairing two files\' inputs and outputs as check pairs the interface', () => {
  it('by name when all of A\'s names are in B, whatever B\'s order', () => {
    expect([...pairNames(['x', 'y'], ['y', 'x', 'z'])!]).toEqual([['x', 'x'], ['y', 'y']]);
  });
  it('by position when the names differ and the counts agree', () => {
    expect([...pairNames(['x', 'y'], ['a', 'b'])!]).toEqual([['x', 'a'], ['y', 'b']]);
  });
  it('not at all when neither holds', () => {
    expect(pairNames(['x', 'y'], ['a'])).toBeNull();
  });
});

describe('--run: f16 feeds', () => {
  it.each([
    [0.5, 0x3800], [-1, 0xbc00], [0.999, 0x3bfe], [0.25, 0x3400], [-0.1, 0xae66], [1e-6, 0], [-1e-6, 0x8000],
  ])('%f → 0x%s', (x, bits) => {
    expect(f16Bits(x)).toBe(bits);
  });
});
