import { byteSize, type ElementTypeName } from './element-type.js';
import { f32ToBf16Bits, f32ToF16Bits } from './f16.js';
import { elementCount } from './shape.js';

/**
 * A constant tensor payload. Fixed-width data is raw little-endian row-major bytes — for sub-byte
 * types packed as IR stores them (u1 MSB-first; 4-bit types element 0 in the low nibble), which is
 * also ONNX's raw_data layout for int4/uint4/float4e2m1. `data` is normally a view into the file
 * buffer it came from: never copy it per element. Strings are kept as their UTF-8 bytes per element.
 */
export interface Tensor {
  readonly elem: ElementTypeName;
  readonly dims: readonly number[];
  readonly data: Uint8Array;
  /** For elem 'string' only: one byte array per element (then `data` is empty). */
  readonly strings?: readonly Uint8Array[];
}

export function makeTensor(elem: ElementTypeName, dims: readonly number[], data: Uint8Array): Tensor {
  return { elem, dims, data };
}

export function makeStringTensor(dims: readonly number[], strings: readonly Uint8Array[]): Tensor {
  return { elem: 'string', dims, data: new Uint8Array(0), strings };
}

/** Bytes the data must have for its element type and dims. */
export function expectedByteLength(t: Pick<Tensor, 'elem' | 'dims'>): number {
  return byteSize(t.elem, elementCount(t.dims));
}

/** Little helpers for building small tensors in code (tests, mappings that emit constants). */
export function tensorFromInt64(values: readonly (number | bigint)[], dims: readonly number[] = [values.length]): Tensor {
  const buf = new BigInt64Array(values.map((v) => BigInt(v)));
  return makeTensor('i64', dims, new Uint8Array(buf.buffer));
}

export function tensorFromFloat32(values: readonly number[], dims: readonly number[] = [values.length]): Tensor {
  return makeTensor('f32', dims, new Uint8Array(new Float32Array(values).buffer));
}

export function tensorFromInt32(values: readonly number[], dims: readonly number[] = [values.length]): Tensor {
  return makeTensor('i32', dims, new Uint8Array(new Int32Array(values).buffer));
}

export function tensorFromBool(values: readonly boolean[], dims: readonly number[] = [values.length]): Tensor {
  return makeTensor('boolean', dims, Uint8Array.from(values, (b) => (b ? 1 : 0)));
}

function view(t: Tensor): DataView {
  return new DataView(t.data.buffer, t.data.byteOffset, t.data.byteLength);
}

/** Reads an integer-valued tensor (i8..i64, u8..u64, boolean) as bigints; for axes, shapes, indices. */
export function readIntegers(t: Tensor): bigint[] {
  const n = elementCount(t.dims);
  const v = view(t);
  const out: bigint[] = [];
  const width: Partial<Record<ElementTypeName, [number, (o: number) => bigint]>> = {
    i64: [8, (o) => v.getBigInt64(o, true)],
    u64: [8, (o) => v.getBigUint64(o, true)],
    i32: [4, (o) => BigInt(v.getInt32(o, true))],
    u32: [4, (o) => BigInt(v.getUint32(o, true))],
    i16: [2, (o) => BigInt(v.getInt16(o, true))],
    u16: [2, (o) => BigInt(v.getUint16(o, true))],
    i8: [1, (o) => BigInt(v.getInt8(o))],
    u8: [1, (o) => BigInt(v.getUint8(o))],
    boolean: [1, (o) => BigInt(v.getUint8(o))],
  };
  const w = width[t.elem];
  if (!w) throw new Error(`readIntegers: ${t.elem} is not an integer type`);
  for (let i = 0; i < n; i++) out.push(w[1](i * w[0]));
  return out;
}

/** Reads a float tensor (f32, f64) as numbers. */
export function readFloats(t: Tensor): number[] {
  const n = elementCount(t.dims);
  const v = view(t);
  const out: number[] = [];
  if (t.elem === 'f32') for (let i = 0; i < n; i++) out.push(v.getFloat32(i * 4, true));
  else if (t.elem === 'f64') for (let i = 0; i < n; i++) out.push(v.getFloat64(i * 8, true));
  else return readIntegers(t).map(Number);
  return out;
}

const INT_RANGE: Partial<Record<ElementTypeName, readonly [number, number]>> = {
  i8: [-128, 127], u8: [0, 255], i16: [-32768, 32767], u16: [0, 65535], i32: [-(2 ** 31), 2 ** 31 - 1], u32: [0, 2 ** 32 - 1],
  i64: [-(2 ** 63), 2 ** 63], u64: [0, 2 ** 64],
};

/**
 * A scalar (rank 0) of element type `elem` holding `v` (integers: truncated); null for types not
 * built here and for an integer `v` the type cannot hold.
 */
export function scalarTensor(elem: ElementTypeName, v: number): Tensor | null {
  const int = INT_RANGE[elem];
  if (int && !(Number.isFinite(v) && Math.trunc(v) >= int[0] && Math.trunc(v) <= int[1])) return null;
  const b = new ArrayBuffer(8);
  const dv = new DataView(b);
  switch (elem) {
    case 'f32': dv.setFloat32(0, v, true); return makeTensor('f32', [], new Uint8Array(b, 0, 4));
    case 'f16': dv.setUint16(0, f32ToF16Bits(v), true); return makeTensor('f16', [], new Uint8Array(b, 0, 2));
    case 'f64': dv.setFloat64(0, v, true); return makeTensor('f64', [], new Uint8Array(b, 0, 8));
    case 'i64': dv.setBigInt64(0, BigInt(Math.trunc(v)), true); return makeTensor('i64', [], new Uint8Array(b, 0, 8));
    case 'bf16': dv.setUint16(0, f32ToBf16Bits(v), true); return makeTensor('bf16', [], new Uint8Array(b, 0, 2));
    case 'i32': dv.setInt32(0, Math.trunc(v), true); return makeTensor('i32', [], new Uint8Array(b, 0, 4));
    case 'i16': dv.setInt16(0, Math.trunc(v), true); return makeTensor('i16', [], new Uint8Array(b, 0, 2));
    case 'i8': dv.setInt8(0, Math.trunc(v)); return makeTensor('i8', [], new Uint8Array(b, 0, 1));
    case 'u8': dv.setUint8(0, Math.trunc(v)); return makeTensor('u8', [], new Uint8Array(b, 0, 1));
    case 'u16': dv.setUint16(0, Math.trunc(v), true); return makeTensor('u16', [], new Uint8Array(b, 0, 2));
    case 'u32': dv.setUint32(0, Math.trunc(v), true); return makeTensor('u32', [], new Uint8Array(b, 0, 4));
    case 'u64': dv.setBigUint64(0, BigInt(Math.trunc(v)), true); return makeTensor('u64', [], new Uint8Array(b, 0, 8));
    default: return null;
  }
}
