import { describe, expect, it } from 'vitest';
import type { Value } from '../../src/graph/value.js';
import { A, B, errors, s } from './build.js';
import type { InferenceResult } from '../../src/shape/index.js';

/**
 * Integer data (shapes, axes, indices) through a conversion to another integer type, ONNX Cast and
 * OpenVINO Convert: a number the target type holds is known after it, one it does not hold is not
 * (engines wrap or saturate it; inference must never claim a number the engine does not compute),
 * and a symbolic dim stays itself only in a type of 32 bits or more.
 */
const data = (r: InferenceResult, v: Value) => r.values.get(v) ?? null;

describe('ONNX Cast of integer data', () => {
  const cast = (to: number) => {
    const g = new B('onnx');
    const k = g.node('Cast', [g.i64([300, -1, 7])], { to: A.int(to) }).outputs[0]!;
    const shape = g.node('Shape', [g.input('x', 'f32', [s('N'), 300, 5])]).outputs[0]!;
    const dims = g.node('Cast', [shape], { to: A.int(to) }).outputs[0]!;
    const r = g.infer();
    expect(errors(r)).toEqual([]);
    return { k: data(r, k), dims: data(r, dims) };
  };
  it('to int16 (it holds every number): [300, -1, 7], and the shape [N, 300, 5] only in part (N could exceed 16 bits)', () => {
    expect(cast(5)).toEqual({ k: [300, -1, 7], dims: [null, 300, 5] });
  });
  it('to uint8: 300 and -1 unknown, 7 known', () => {
    expect(cast(2)).toEqual({ k: [null, null, 7], dims: [null, null, 5] });
  });
  it('to int32: everything, the symbol N included', () => {
    expect(cast(6)).toEqual({ k: [300, -1, 7], dims: [s('N'), 300, 5] });
  });
});

describe('OpenVINO Convert of integer data', () => {
  const convert = (to: string) => {
    const g = new B('ov');
    const shape = g.node('ShapeOf', [g.input('x', 'f32', [s('N'), 300, 5])], { output_type: A.raw('i64') }, { version: 'opset3' }).outputs[0]!;
    const dims = g.node('Convert', [shape], { destination_type: A.raw(to) }).outputs[0]!;
    const r = g.infer();
    expect(errors(r)).toEqual([]);
    return data(r, dims);
  };
  it('to i8: 300 and N unknown, 5 known', () => expect(convert('i8')).toEqual([null, null, 5]));
  it('to i32: [N, 300, 5]', () => expect(convert('i32')).toEqual([s('N'), 300, 5]));
  it('to boolean: non-zero is 1 where known', () => expect(convert('boolean')).toEqual([null, 1, 1]));
});
