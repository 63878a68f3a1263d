/** The conformance harness's judge: tolerances, NaN, exact integers, shapes, descriptions. */
import { describe, expect, it } from 'vitest';
import { compareOutputs, compareTensors } from '../helpers/compare.js';
import type { OracleTensor } from '../helpers/oracle.js';

const f32 = (v: number[], shape = [v.length]): OracleTensor => ({ dtype: 'f32', shape, data: new Uint8Array(new Float32Array(v).buffer) });
const f16 = (bits: number[]): OracleTensor => ({ dtype: 'f16', shape: [bits.length], data: new Uint8Array(new Uint16Array(bits).buffer) });
const i64 = (v: bigint[]): OracleTensor => ({ dtype: 'i64', shape: [v.length], data: new Uint8Array(new BigInt64Array(v).buffer) });
const bool = (v: number[]): OracleTensor => ({ dtype: 'boolean', shape: [v.length], data: new Uint8Array(v) });
const str = (v: string[]): OracleTensor => ({ dtype: 'string', shape: [v.length], data: new Uint8Array(0), strings: v.map((s) => new TextEncoder().encode(s)) });

describe('compareTensors', () => {
  it.each([
    ['identical f32', f32([1, 2, 3]), f32([1, 2, 3])],
    ['f32 within rtol 1e-4', f32([1000.05]), f32([1000])],
    ['f32 near zero within atol', f32([5e-6]), f32([0])],
    ['NaN equals NaN', f32([NaN, 1]), f32([NaN, 1])],
    ['equal infinities', f32([Infinity, -Infinity]), f32([Infinity, -Infinity])],
    ['f16 1.0 vs 1.0', f16([0x3c00]), f16([0x3c00])],
    ['i64 beyond 2^53 exact', i64([2n ** 60n + 1n]), i64([2n ** 60n + 1n])],
    ['booleans', bool([1, 0]), bool([1, 0])],
    ['strings', str(['a', 'bc']), str(['a', 'bc'])],
    ['scalars', f32([7], []), f32([7], [])],
  ])('%s: equal', (_, got, want) => {
    expect(compareTensors(got, want)).toBeNull();
  });

  it.each([
    ['f32 beyond rtol', f32([1000.2]), f32([1000]), /1\/1 elements differ beyond rtol 0.0001.*at \[0\]: 1000\.2/],
    ['NaN vs number', f32([NaN]), f32([0]), /1\/1 elements differ/],
    ['opposite infinities', f32([Infinity]), f32([-Infinity]), /differ/],
    ['i64 off by one beyond 2^53', i64([2n ** 60n + 1n]), i64([2n ** 60n]), /1\/1 elements differ; first at \[0\]: 1152921504606846977, expected 1152921504606846976/],
    ['boolean', bool([1, 1]), bool([1, 0]), /first at \[1\]: 1, expected 0/],
    ['string', str(['a']), str(['b']), /"a", expected "b"/],
    ['element type', i64([1n]), f32([1]), /element type i64, expected f32/],
    ['shape', f32([1, 2], [2, 1]), f32([1, 2], [1, 2]), /shape \[2,1\], expected \[1,2\]/],
    ['f16 1.0 vs 1.5', f16([0x3c00]), f16([0x3e00]), /at \[0\]: 1, expected 1\.5/],
  ])('%s: differs', (_, got, want, message) => {
    expect(compareTensors(got, want)).toMatch(message);
  });

  it('names the worst element by its multi-dimensional index', () => {
    expect(compareTensors(f32([0, 0, 0, 9], [2, 2]), f32([0, 0, 0, 0], [2, 2]))).toMatch(/worst at \[1,1\]: 9, expected 0/);
  });

  it('compares sub-byte tensors by their elements\' bits, not by the padding of the last byte', () => {
    const u2 = (bytes: number[], n: number): OracleTensor => ({ dtype: 'u2', shape: [n], data: Uint8Array.from(bytes) });
    // [1, 2, 3, 0, 1, 2, 3], low bits first: 0x39, then 0x39 with any 2 padding bits on top
    expect(compareTensors(u2([0x39, 0xf9], 7), u2([0x39, 0x39], 7))).toBeNull();
    expect(compareTensors(u2([0x39, 0x3a], 7), u2([0x39, 0x39], 7))).toMatch(/u2 element \[4\] is bits 2, expected 1/);
    const i4 = (bytes: number[], n: number): OracleTensor => ({ dtype: 'i4', shape: [n], data: Uint8Array.from(bytes) });
    expect(compareTensors(i4([0x21, 0xf3], 3), i4([0x21, 0x03], 3))).toBeNull();
    expect(compareTensors(i4([0x21, 0x04], 3), i4([0x21, 0x03], 3))).toMatch(/i4 element \[2\] is bits 4, expected 3/);
  });

  it('reads tensors whose bytes are an unaligned view', () => {
    const buf = new Uint8Array(9);
    buf.set(new Uint8Array(new Float32Array([1, 2]).buffer), 1);
    expect(compareTensors({ dtype: 'f32', shape: [2], data: buf.subarray(1) }, f32([1, 2]))).toBeNull();
  });
});

describe('compareOutputs', () => {
  it('finds outputs by name, else by #index, and reports missing ones', () => {
    expect(compareOutputs({ y: f32([1]) }, [{ name: 'y', tensor: f32([1]) }])).toEqual([]);
    expect(compareOutputs({ '#0': f32([1]) }, [{ name: '', tensor: f32([1]) }])).toEqual([]);
    expect(compareOutputs({}, [{ name: 'y', tensor: f32([1]) }])).toEqual(['output y: missing']);
    expect(compareOutputs({ y: f32([2]) }, [{ name: 'y', tensor: f32([1]) }])[0]).toMatch(/^output y: 1\/1 elements differ/);
  });
});

describe('bfloat16 test data stored as uint16 bits (old ONNX test files)', () => {
  const bits = (xs: number[], dtype: string): OracleTensor => ({ dtype, shape: [xs.length], data: new Uint8Array(new Uint16Array(xs).buffer) });
  it('reads the expected uint16 bits as bfloat16 when the engine gives bfloat16', () => {
    expect(compareTensors(bits([0x3f80, 0x4000], 'bf16'), bits([0x3f80, 0x4000], 'u16'))).toBeNull();
    expect(compareTensors(bits([0x3f80, 0x4040], 'bf16'), bits([0x3f80, 0x4000], 'u16'))).toMatch(/1\/2 elements differ/);
  });
  it('keeps other type mismatches as differences', () => {
    expect(compareTensors(bits([1], 'u16'), bits([1], 'bf16'))).toBe('element type u16, expected bf16');
  });
});
