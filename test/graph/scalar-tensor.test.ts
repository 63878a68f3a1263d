import { describe, expect, it } from 'vitest';
import { f32ToBf16Bits } from '../../src/graph/f16.js';
import { scalarTensor } from '../../src/graph/tensor.js';

describe('scalarTensor: a rank-0 constant of any numeric element type', () => {
  it('bf16 is the upper half of the f32 bits, rounded to nearest even', () => {
    expect(f32ToBf16Bits(1)).toBe(0x3f80);
    expect(f32ToBf16Bits(-2)).toBe(0xc000);
    // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: ties to even (1)
    expect(f32ToBf16Bits(1 + 2 ** -8)).toBe(0x3f80);
    // 1 + 3·2^-8 lies halfway between 1 + 2^-7 and 1 + 2^-6: ties to even (1 + 2^-6)
    expect(f32ToBf16Bits(1 + 3 * 2 ** -8)).toBe(0x3f82);
    expect(f32ToBf16Bits(Infinity)).toBe(0x7f80);
    expect(f32ToBf16Bits(NaN) & 0x7fc0).toBe(0x7fc0);
    expect([...scalarTensor('bf16', 1)!.data]).toEqual([0x80, 0x3f]);
  });

  it('integers of every width, little-endian; a value the type cannot hold builds nothing', () => {
    expect([...scalarTensor('u8', 200)!.data]).toEqual([200]);
    expect([...scalarTensor('i8', -1)!.data]).toEqual([255]);
    expect([...scalarTensor('i16', -2)!.data]).toEqual([0xfe, 0xff]);
    expect([...scalarTensor('u32', 2 ** 32 - 1)!.data]).toEqual([255, 255, 255, 255]);
    expect(scalarTensor('u8', 256)).toBeNull();
    expect(scalarTensor('i64', 2 ** 63)).toBeNull();
    expect([...scalarTensor('i64', -(2 ** 63))!.data]).toEqual([0, 0, 0, 0, 0, 0, 0, 0x80]);
    expect(scalarTensor('u16', -1)).toBeNull();
    expect(scalarTensor('i32', NaN)).toBeNull();
    expect(scalarTensor('string', 1)).toBeNull();
  });
});
