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

/** Where a tensor made by `lazyTensor` keeps its view (not enumerable: a copy of the tensor reads `data`). */
const RAW = Symbol('ovir.rawData');

/**
 * A tensor over `view` whose bytes are read on first use: `data` calls `fill` once (which must
 * make `view` hold the bytes), then gives the view. For weights of files read on demand
 * (src/fs/sparse-file.ts); writers of files take `rawData` and copy the bytes from the file.
 */
export function lazyTensor(elem: ElementTypeName, dims: readonly number[], view: Uint8Array, fill: () => void): Tensor {
  let read = false;
  const t = { elem, dims } as { elem: ElementTypeName; dims: readonly number[]; data: Uint8Array };
  Object.defineProperty(t, 'data', {
    enumerable: true,
    get(): Uint8Array {
      if (!read) {
        fill();
        read = true;
      }
      return view;
    },
  });
  Object.defineProperty(t, RAW, { value: view });
  return t;
}

/**
 * The tensor's data without reading it: for a lazyTensor its view, whose bytes may not be read
 * yet (only code that copies them with src/fs/sparse-file.ts's eachPieceOf or fills them first
 * may look at them; its byteLength is always right).
 */
export function rawData(t: Tensor): Uint8Array {
  return (t as { [RAW]?: Uint8Array })[RAW] ?? t.data;
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

/** How a scalar of each element type is written; integers with the half-open range they hold. */
interface ScalarWriter { bytes: number; put: (dv: DataView, v: number) => void; range?: readonly [number, number] }
const SCALARS: Partial<Record<ElementTypeName, ScalarWriter>> = {
  f64: { bytes: 8, put: (dv, v) => dv.setFloat64(0, v, true) },
  f32: { bytes: 4, put: (dv, v) => dv.setFloat32(0, v, true) },
  f16: { bytes: 2, put: (dv, v) => dv.setUint16(0, f32ToF16Bits(v), true) },
  bf16: { bytes: 2, put: (dv, v) => dv.setUint16(0, f32ToBf16Bits(v), true) },
  i64: { bytes: 8, put: (dv, v) => dv.setBigInt64(0, BigInt(v), true), range: [-(2 ** 63), 2 ** 63] },
  i32: { bytes: 4, put: (dv, v) => dv.setInt32(0, v, true), range: [-(2 ** 31), 2 ** 31] },
  i16: { bytes: 2, put: (dv, v) => dv.setInt16(0, v, true), range: [-(2 ** 15), 2 ** 15] },
  i8: { bytes: 1, put: (dv, v) => dv.setInt8(0, v), range: [-128, 128] },
  u64: { bytes: 8, put: (dv, v) => dv.setBigUint64(0, BigInt(v), true), range: [0, 2 ** 64] },
  u32: { bytes: 4, put: (dv, v) => dv.setUint32(0, v, true), range: [0, 2 ** 32] },
  u16: { bytes: 2, put: (dv, v) => dv.setUint16(0, v, true), range: [0, 2 ** 16] },
  u8: { bytes: 1, put: (dv, v) => dv.setUint8(0, v), range: [0, 256] },
};

/**
 * A scalar (rank 0) of element type `elem` holding `v` (integers: truncated); null for types not
 * built here and for an integer `v` the type cannot hold.
 */
export function scalarTensor(elem: ElementTypeName, v: number): Tensor | null {
  const w = SCALARS[elem];
  if (!w) return null;
  if (w.range) {
    v = Math.trunc(v);
    if (!(v >= w.range[0] && v < w.range[1])) return null;
  }
  const data = new Uint8Array(w.bytes);
  w.put(new DataView(data.buffer), v);
  return makeTensor(elem, [], data);
}
