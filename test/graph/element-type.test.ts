import { describe, expect, it } from 'vitest';
import { byteSize, fromIrElementType, fromIrPrecision, fromOnnxDataType } from '../../src/graph/index.js';

describe('element types: storage sizes as OpenVINO and ONNX pack them', () => {
  it.each([
    ['f32', 6, 24], ['boolean', 3, 3], ['u1', 9, 2], ['u4', 3, 2], ['i4', 4, 2], ['u2', 5, 2],
    ['u3', 1, 3], ['u3', 8, 3], ['u3', 9, 6], ['u6', 4, 3], ['u6', 5, 6], ['f4e2m1', 1, 1], ['i64', 0, 0],
  ] as const)('%s × %i elements take %i bytes', (t, n, bytes) => {
    expect(byteSize(t, n)).toBe(bytes);
  });
});

describe('element types: names each format uses', () => {
  it('element_type takes only lowercase names (OpenVINO rejects FP32 and bool there)', () => {
    expect(fromIrElementType('f32')?.name).toBe('f32');
    expect(fromIrElementType('FP32')).toBeUndefined();
    expect(fromIrElementType('bool')).toBeUndefined();
    expect(fromIrElementType('c64')).toBeUndefined();
  });
  it('precision takes FP32 and f32, BOOL and boolean', () => {
    expect(fromIrPrecision('FP32')?.name).toBe('f32');
    expect(fromIrPrecision('f32')?.name).toBe('f32');
    expect(fromIrPrecision('BOOL')?.name).toBe('boolean');
    expect(fromIrPrecision('boolean')?.name).toBe('boolean');
    expect(fromIrPrecision('BIN')?.name).toBe('u1');
  });
  it('ONNX data types map to the same table (float8e4m3fn is f8e4m3)', () => {
    expect(fromOnnxDataType(1)?.name).toBe('f32');
    expect(fromOnnxDataType(17)?.name).toBe('f8e4m3');
    expect(fromOnnxDataType(18)?.name).toBe('f8e4m3fnuz');
    expect(fromOnnxDataType(26)?.name).toBe('i2');
  });
});
