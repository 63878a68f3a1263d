import { describe, expect, it } from 'vitest';
import type { ElementTypeName } from '../../src/graph/element-type.js';
import { makeStringTensor, makeTensor } from '../../src/graph/tensor.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { TensorProto } from '../../src/onnx/proto-types.js';
import { decodeTensorProto, encodeTensorProto } from '../../src/onnx/tensor-proto.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import * as ob from '../helpers/onnx-builder.js';

/** Packs small integers (two's complement bit patterns) LSB-first, element 0 in the low bits. */
function pack(values: readonly number[], bits: number): number[] {
  const perByte = 8 / bits;
  const out = new Array<number>(Math.ceil(values.length / perByte)).fill(0);
  values.forEach((v, i) => {
    out[Math.floor(i / perByte)]! |= (v & ((1 << bits) - 1)) << ((i % perByte) * bits);
  });
  return out;
}
const bytesOf = (a: ArrayBufferView) => [...new Uint8Array(a.buffer, a.byteOffset, a.byteLength)];

interface Case {
  elem: ElementTypeName;
  dims: number[];
  /** The typed-field form, as onnx.helper.make_tensor writes it. */
  typed: Partial<TensorProto>;
  /** The raw little-endian bytes it must decode to (our Tensor layout = ONNX raw_data layout). */
  raw: number[];
}

const CASES: Case[] = [
  { elem: 'f32', dims: [3], typed: { float_data: [1.5, -2, 3e38] }, raw: bytesOf(new Float32Array([1.5, -2, 3e38])) },
  { elem: 'f64', dims: [2], typed: { double_data: [0.1, -1e300] }, raw: bytesOf(new Float64Array([0.1, -1e300])) },
  { elem: 'c64', dims: [2], typed: { float_data: [1, 2, 3, -4] }, raw: bytesOf(new Float32Array([1, 2, 3, -4])) },
  { elem: 'c128', dims: [1], typed: { double_data: [1.25, -2.5] }, raw: bytesOf(new Float64Array([1.25, -2.5])) },
  { elem: 'i32', dims: [2, 2], typed: { int32_data: [-1, 2147483647, -2147483648, 0] }, raw: bytesOf(new Int32Array([-1, 2147483647, -2147483648, 0])) },
  { elem: 'i16', dims: [2], typed: { int32_data: [-2, 300] }, raw: bytesOf(new Int16Array([-2, 300])) },
  { elem: 'u16', dims: [2], typed: { int32_data: [65535, 1] }, raw: bytesOf(new Uint16Array([65535, 1])) },
  { elem: 'i8', dims: [2], typed: { int32_data: [-128, 127] }, raw: bytesOf(new Int8Array([-128, 127])) },
  { elem: 'u8', dims: [2], typed: { int32_data: [255, 0] }, raw: [255, 0] },
  { elem: 'boolean', dims: [3], typed: { int32_data: [1, 0, 1] }, raw: [1, 0, 1] },
  // float16/bfloat16 as their bit patterns (1.0, -2.0), as onnx.helper writes them
  { elem: 'f16', dims: [2], typed: { int32_data: [15360, 49152] }, raw: bytesOf(new Uint16Array([15360, 49152])) },
  { elem: 'bf16', dims: [2], typed: { int32_data: [16256, 49152] }, raw: bytesOf(new Uint16Array([16256, 49152])) },
  { elem: 'f8e4m3', dims: [2], typed: { int32_data: [56, 192] }, raw: [56, 192] },
  { elem: 'f8e4m3fnuz', dims: [2], typed: { int32_data: [64, 200] }, raw: [64, 200] },
  { elem: 'f8e5m2', dims: [2], typed: { int32_data: [60, 192] }, raw: [60, 192] },
  { elem: 'f8e5m2fnuz', dims: [2], typed: { int32_data: [64, 196] }, raw: [64, 196] },
  { elem: 'f8e8m0', dims: [2], typed: { int32_data: [127, 128] }, raw: [127, 128] },
  // 4-bit: two elements per int32_data entry, element 0 in the low nibble: int4 [1,-2,3] → [0xE1, 0x03]
  { elem: 'i4', dims: [3], typed: { int32_data: [0xe1, 0x03] }, raw: [0xe1, 0x03] },
  { elem: 'u4', dims: [5], typed: { int32_data: pack([1, 15, 7, 0, 9], 4) }, raw: pack([1, 15, 7, 0, 9], 4) },
  { elem: 'f4e2m1', dims: [3], typed: { int32_data: pack([1, 8, 15], 4) }, raw: pack([1, 8, 15], 4) },
  // 2-bit: four elements per entry, x0 | x1<<2 | x2<<4 | x3<<6: uint2 [1,2,3,0,1] → [57, 1]
  { elem: 'u2', dims: [5], typed: { int32_data: [57, 1] }, raw: [57, 1] },
  { elem: 'i2', dims: [6], typed: { int32_data: pack([1, -2, -1, 0, 1, -1], 2) }, raw: pack([1, -2, -1, 0, 1, -1], 2) },
  { elem: 'i64', dims: [3], typed: { int64_data: [-(2n ** 63n), 2n ** 53n + 1n, -1n] }, raw: bytesOf(new BigInt64Array([-(2n ** 63n), 2n ** 53n + 1n, -1n])) },
  { elem: 'u32', dims: [2], typed: { uint64_data: [1n, 4294967295n] }, raw: bytesOf(new Uint32Array([1, 4294967295])) },
  { elem: 'u64', dims: [2], typed: { uint64_data: [2n ** 64n - 1n, 2n ** 63n + 5n] }, raw: bytesOf(new BigUint64Array([2n ** 64n - 1n, 2n ** 63n + 5n])) },
];

/** A model whose only initializer `w` (also its output) is `t`. */
function modelWith(t: TensorProto): Uint8Array {
  return ob.encodeModelProto(ob.model({
    irVersion: 10,
    opset: 21,
    graph: ob.graph({ name: 'g', initializers: [t], nodes: [ob.node('Identity', ['w'], ['y'])], outputs: [ob.valueInfo('y', t.data_type!)] }),
  }));
}
const initializer = (bytes: Uint8Array) => decodeOnnx(bytes).graph.initializers[0]!;

describe('tensors: every element type, typed fields and raw_data', () => {
  it.each(CASES)('$elem: typed field decodes to the raw layout and round-trips', ({ elem, dims, typed, raw }) => {
    const v = initializer(modelWith(ob.tensor('w', elem, dims, typed)));
    expect(v.constant!.elem).toBe(elem);
    expect(v.constant!.dims).toEqual(dims);
    expect([...v.constant!.data]).toEqual(raw);
    const again = initializer(encodeOnnx(decodeOnnx(modelWith(ob.tensor('w', elem, dims, typed)))).bytes);
    expect(again.constant!.elem).toBe(elem);
    expect([...again.constant!.data]).toEqual(raw);
  });

  it.each(CASES)('$elem: raw_data is a view into the input buffer and round-trips', ({ elem, dims, raw }) => {
    const bytes = modelWith(ob.rawTensor('w', elem, dims, Uint8Array.from(raw)));
    const v = initializer(bytes);
    expect(v.constant!.data.buffer).toBe(bytes.buffer);
    expect([...v.constant!.data]).toEqual(raw);
    expect(v.type).toEqual({ kind: 'tensor', elem, shape: dims });
    const again = initializer(encodeOnnx(decodeOnnx(bytes)).bytes);
    expect([...again.constant!.data]).toEqual(raw);
    expect(again.constant!.dims).toEqual(dims);
  });

  it('strings decode to their UTF-8 bytes per element and round-trip', () => {
    const v = initializer(modelWith(ob.stringTensor('w', [3], ['a', 'ünï', ''])));
    expect(v.constant!.elem).toBe('string');
    expect(v.constant!.strings!.map((s) => new TextDecoder().decode(s))).toEqual(['a', 'ünï', '']);
    const again = initializer(encodeOnnx(decodeOnnx(modelWith(ob.stringTensor('w', [3], ['a', 'ünï', ''])))).bytes);
    expect(again.constant!.strings!.map((s) => new TextDecoder().decode(s))).toEqual(['a', 'ünï', '']);
  });

  it.each([
    ['raw_data of the wrong size', ob.rawTensor('w', 'f32', [3], new Uint8Array(8)), /raw_data has 8 bytes, f32 \[3\] needs 12/],
    ['too few typed entries', ob.tensor('w', 'i4', [5], { int32_data: [1, 2] }), /int32_data has 2 entries, i4 \[5\] needs 3/],
    ['no data at all', ob.tensor('w', 'f32', [2]), /has no data/],
    ['an unknown data_type', ob.tensor('w', 99, [1], { raw_data: new Uint8Array(1) }), /data_type 99/],
    ['string count mismatch', ob.stringTensor('w', [2], ['x']), /has 1 strings/],
  ])('%s is reported, naming the tensor', (_what, t, message) => {
    const err = (() => { try { decodeOnnx(modelWith(t)); } catch (e) { return e; } return null; })();
    expect(err).toBeInstanceOf(OvirError);
    const d = (err as OvirError).diagnostics.find((x) => x.code === 'ONNX_TENSOR_BAD')!;
    expect(d.message).toMatch(message);
    expect(d.message).toContain("'w'");
  });
});

describe('TensorProto files (test_data_set_*/input_N.pb)', () => {
  it('encodeTensorProto/decodeTensorProto round-trip name, type, dims and bytes', () => {
    const t = makeTensor('i4', [3], Uint8Array.from([0xe1, 0x03]));
    const back = decodeTensorProto(encodeTensorProto(t, 'input_0'));
    expect(back.name).toBe('input_0');
    expect(back.tensor.elem).toBe('i4');
    expect(back.tensor.dims).toEqual([3]);
    expect([...back.tensor.data]).toEqual([0xe1, 0x03]);
    const s = decodeTensorProto(encodeTensorProto(makeStringTensor([1], [new TextEncoder().encode('hi')]), 's'));
    expect(new TextDecoder().decode(s.tensor.strings![0]!)).toBe('hi');
  });
  it('decodes typed-field TensorProtos as written by onnx', () => {
    const back = decodeTensorProto(ob.encodeTensorProtoMessage(ob.tensor('x', 'f16', [2], { int32_data: [15360, 49152] })));
    expect([...back.tensor.data]).toEqual(bytesOf(new Uint16Array([15360, 49152])));
  });
  it('malformed bytes are an OvirError, not a crash', () => {
    expect(() => decodeTensorProto(Uint8Array.from([0x0a, 0xff, 0xff]))).toThrow(OvirError);
  });
});
