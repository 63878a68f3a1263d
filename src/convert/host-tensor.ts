import { elementType, type ElementTypeName } from '../graph/element-type.js';
import { elementCount } from '../graph/shape.js';
import { makeTensor, type Tensor } from '../graph/tensor.js';
import { f16BitsToNumber, f32ToF16Bits } from '../graph/f16.js';

/**
 * A constant's elements as JS values, for constant folding: 64-bit integers as bigint, every
 * other numeric type (booleans as 0/1) as number. Only the types below are supported; the folder
 * leaves a node whose constants are of another type as it is.
 */
export interface HostTensor {
  readonly elem: ElementTypeName;
  readonly dims: readonly number[];
  readonly values: readonly (number | bigint)[];
}

interface Codec {
  readonly bytes: number;
  get(v: DataView, o: number): number | bigint;
  set(v: DataView, o: number, x: number | bigint): void;
}

const n = (x: number | bigint) => Number(x);
const b = (x: number | bigint) => (typeof x === 'bigint' ? x : BigInt(Math.trunc(x)));


const CODECS: Partial<Record<ElementTypeName, Codec>> = {
  f32: { bytes: 4, get: (v, o) => v.getFloat32(o, true), set: (v, o, x) => v.setFloat32(o, n(x), true) },
  f64: { bytes: 8, get: (v, o) => v.getFloat64(o, true), set: (v, o, x) => v.setFloat64(o, n(x), true) },
  f16: { bytes: 2, get: (v, o) => f16BitsToNumber(v.getUint16(o, true)), set: (v, o, x) => v.setUint16(o, f32ToF16Bits(n(x)), true) },
  i64: { bytes: 8, get: (v, o) => v.getBigInt64(o, true), set: (v, o, x) => v.setBigInt64(o, BigInt.asIntN(64, b(x)), true) },
  u64: { bytes: 8, get: (v, o) => v.getBigUint64(o, true), set: (v, o, x) => v.setBigUint64(o, BigInt.asUintN(64, b(x)), true) },
  i32: { bytes: 4, get: (v, o) => v.getInt32(o, true), set: (v, o, x) => v.setInt32(o, Number(BigInt.asIntN(32, b(x))), true) },
  u32: { bytes: 4, get: (v, o) => v.getUint32(o, true), set: (v, o, x) => v.setUint32(o, Number(BigInt.asUintN(32, b(x))), true) },
  i16: { bytes: 2, get: (v, o) => v.getInt16(o, true), set: (v, o, x) => v.setInt16(o, Number(BigInt.asIntN(16, b(x))), true) },
  u16: { bytes: 2, get: (v, o) => v.getUint16(o, true), set: (v, o, x) => v.setUint16(o, Number(BigInt.asUintN(16, b(x))), true) },
  i8: { bytes: 1, get: (v, o) => v.getInt8(o), set: (v, o, x) => v.setInt8(o, Number(BigInt.asIntN(8, b(x)))) },
  u8: { bytes: 1, get: (v, o) => v.getUint8(o), set: (v, o, x) => v.setUint8(o, Number(BigInt.asUintN(8, b(x)))) },
  boolean: { bytes: 1, get: (v, o) => (v.getUint8(o) ? 1 : 0), set: (v, o, x) => v.setUint8(o, x ? 1 : 0) },
};

export function foldable(elem: ElementTypeName): boolean {
  return CODECS[elem] !== undefined;
}

/** Whether the type's elements are bigint in a HostTensor. */
export const isWide = (elem: ElementTypeName): boolean => elem === 'i64' || elem === 'u64';
export const isFloat = (elem: ElementTypeName): boolean => elementType(elem).kind === 'float';

/** The tensor's elements, or null for a type the folder does not handle. */
export function toHost(t: Tensor): HostTensor | null {
  const c = CODECS[t.elem];
  if (!c) return null;
  const count = elementCount(t.dims);
  if (t.data.byteLength < count * c.bytes) return null;
  const v = new DataView(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  const values: (number | bigint)[] = new Array(count);
  for (let i = 0; i < count; i++) values[i] = c.get(v, i * c.bytes);
  return { elem: t.elem, dims: [...t.dims], values };
}

/** Stores values as `elem` (floats rounded to it, integers wrapped to its width, as a cast does in C). */
export function fromHost(h: HostTensor): Tensor {
  const c = CODECS[h.elem];
  if (!c) throw new Error(`fromHost: ${h.elem}`);
  const data = new Uint8Array(h.values.length * c.bytes);
  const v = new DataView(data.buffer);
  for (let i = 0; i < h.values.length; i++) c.set(v, i * c.bytes, h.values[i]!);
  return makeTensor(h.elem, h.dims, data);
}

/** A value of any numeric representation as `elem` expects it (bigint for 64-bit integers, truncating floats). */
export function coerce(x: number | bigint, elem: ElementTypeName): number | bigint {
  if (elem === 'boolean') return x ? 1 : 0;
  if (isWide(elem)) return b(x);
  if (isFloat(elem)) return n(x);
  return typeof x === 'bigint' ? Number(x) : Math.trunc(x);
}

export const host = (elem: ElementTypeName, dims: readonly number[], values: readonly (number | bigint)[]): HostTensor =>
  ({ elem, dims, values: values.map((x) => coerce(x, elem)) });

/** Row-major strides of `dims`. */
export function strides(dims: readonly number[]): number[] {
  const s = new Array<number>(dims.length);
  let acc = 1;
  for (let k = dims.length - 1; k >= 0; k--) { s[k] = acc; acc *= dims[k]!; }
  return s;
}
