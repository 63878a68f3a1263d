/**
 * Element types: one table for both formats.
 *
 * The canonical name is OpenVINO's `element_type` spelling where IR has the type (f32, i64, boolean…),
 * and a name in the same style where only ONNX has it (c64, f8e4m3fnuz, i2…). `ovir info` prints these.
 * `onnx` is TensorProto.DataType; `precision` is what OpenVINO's serializer writes on ports (null: IR
 * lacks the type). `bits` is the storage width of one element; sub-byte types are packed (see `packing`).
 */
export type ElementTypeName =
  | 'f64' | 'f32' | 'f16' | 'bf16'
  | 'f8e4m3' | 'f8e5m2' | 'f8e4m3fnuz' | 'f8e5m2fnuz' | 'f8e8m0' | 'f4e2m1' | 'nf4'
  | 'i2' | 'i4' | 'i8' | 'i16' | 'i32' | 'i64'
  | 'u1' | 'u2' | 'u3' | 'u4' | 'u6' | 'u8' | 'u16' | 'u32' | 'u64'
  | 'boolean' | 'string' | 'c64' | 'c128'
  | 'dynamic';

/** How sub-byte elements sit in a byte. */
export type Packing = 'byte' | 'msb-first' | 'low-nibble-first' | 'low-bits-first';

export interface ElementTypeInfo {
  readonly name: ElementTypeName;
  /** ONNX TensorProto.DataType code, or null if ONNX has no such type. */
  readonly onnx: number | null;
  /** ONNX spelling in type strings, e.g. tensor(float). */
  readonly onnxName: string | null;
  /** IR port precision as OpenVINO's serializer writes it, or null if IR lacks the type. */
  readonly precision: string | null;
  /** Bits per element in storage; 0 for string and dynamic. */
  readonly bits: number;
  readonly packing: Packing;
  readonly kind: 'float' | 'int' | 'uint' | 'bool' | 'string' | 'complex' | 'dynamic';
  /** Types OpenVINO stores in fixed blocks: `elements` per `bytes` (u3: 8 in 3 bytes, u6: 4 in 3). */
  readonly block?: { readonly elements: number; readonly bytes: number };
}

const T = (
  name: ElementTypeName, onnx: number | null, onnxName: string | null, precision: string | null,
  bits: number, kind: ElementTypeInfo['kind'], packing: Packing = 'byte',
): ElementTypeInfo => ({ name, onnx, onnxName, precision, bits, kind, packing });

export const ELEMENT_TYPES: readonly ElementTypeInfo[] = [
  T('f32', 1, 'float', 'FP32', 32, 'float'),
  T('u8', 2, 'uint8', 'U8', 8, 'uint'),
  T('i8', 3, 'int8', 'I8', 8, 'int'),
  T('u16', 4, 'uint16', 'U16', 16, 'uint'),
  T('i16', 5, 'int16', 'I16', 16, 'int'),
  T('i32', 6, 'int32', 'I32', 32, 'int'),
  T('i64', 7, 'int64', 'I64', 64, 'int'),
  T('string', 8, 'string', 'STRING', 0, 'string'),
  T('boolean', 9, 'bool', 'BOOL', 8, 'bool'),
  T('f16', 10, 'float16', 'FP16', 16, 'float'),
  T('f64', 11, 'double', 'FP64', 64, 'float'),
  T('u32', 12, 'uint32', 'U32', 32, 'uint'),
  T('u64', 13, 'uint64', 'U64', 64, 'uint'),
  T('c64', 14, 'complex64', null, 64, 'complex'),
  T('c128', 15, 'complex128', null, 128, 'complex'),
  T('bf16', 16, 'bfloat16', 'BF16', 16, 'float'),
  T('f8e4m3', 17, 'float8e4m3fn', 'F8E4M3', 8, 'float'),
  T('f8e4m3fnuz', 18, 'float8e4m3fnuz', null, 8, 'float'),
  T('f8e5m2', 19, 'float8e5m2', 'F8E5M2', 8, 'float'),
  T('f8e5m2fnuz', 20, 'float8e5m2fnuz', null, 8, 'float'),
  T('u4', 21, 'uint4', 'U4', 4, 'uint', 'low-nibble-first'),
  T('i4', 22, 'int4', 'I4', 4, 'int', 'low-nibble-first'),
  T('f4e2m1', 23, 'float4e2m1', 'F4E2M1', 4, 'float', 'low-nibble-first'),
  T('f8e8m0', 24, 'float8e8m0', 'F8E8M0', 8, 'float'),
  T('u2', 25, 'uint2', 'U2', 2, 'uint', 'low-bits-first'),
  T('i2', 26, 'int2', null, 2, 'int', 'low-bits-first'),
  T('u1', null, null, 'BIN', 1, 'uint', 'msb-first'),
  { ...T('u3', null, null, 'U3', 3, 'uint', 'byte'), block: { elements: 8, bytes: 3 } },
  { ...T('u6', null, null, 'U6', 6, 'uint', 'byte'), block: { elements: 4, bytes: 3 } },
  T('nf4', null, null, 'NF4', 4, 'float', 'low-nibble-first'),
  T('dynamic', 0, 'undefined', 'UNSPECIFIED', 0, 'dynamic'),
];

const byName = new Map(ELEMENT_TYPES.map((t) => [t.name, t]));
const byOnnx = new Map(ELEMENT_TYPES.filter((t) => t.onnx !== null).map((t) => [t.onnx!, t]));
const byOnnxName = new Map(ELEMENT_TYPES.filter((t) => t.onnxName).map((t) => [t.onnxName!, t]));
/**
 * The port `precision` spellings OpenVINO's ov::element::Type(string) reads (measured on 2026.4):
 * for each IR type its precision (FP32, BOOL, BIN) and its name (f32, boolean, u1), exactly as
 * written — no other case (fp32, F32, bool are refused), no spaces — and the aliases U1, bin and
 * undefined (= dynamic). Types IR lacks (c64, i2, the fnuz floats) are no precision.
 */
const byPrecision = new Map<string, ElementTypeInfo>();
for (const t of ELEMENT_TYPES) {
  if (!t.precision) continue;
  byPrecision.set(t.precision, t);
  byPrecision.set(t.name, t);
}
byPrecision.set('U1', byName.get('u1')!);
byPrecision.set('bin', byName.get('u1')!);
byPrecision.set('undefined', byName.get('dynamic')!);

export function elementType(name: ElementTypeName): ElementTypeInfo {
  const t = byName.get(name);
  if (!t) throw new Error(`unknown element type ${name}`);
  return t;
}

/** `element_type` attribute of Parameter/Const: lowercase names only (OpenVINO rejects FP32, bool). */
export function fromIrElementType(s: string): ElementTypeInfo | undefined {
  const t = byName.get(s as ElementTypeName);
  return t && t.precision !== null ? t : undefined;
}

/** Port `precision` as OpenVINO reads it: FP32 or f32, BOOL or boolean, BIN or u1, exactly as written (see byPrecision). */
export function fromIrPrecision(s: string): ElementTypeInfo | undefined {
  return byPrecision.get(s);
}

export function fromOnnxDataType(code: number): ElementTypeInfo | undefined {
  return byOnnx.get(code);
}

export function fromOnnxTypeName(s: string): ElementTypeInfo | undefined {
  return byOnnxName.get(s);
}

/** Whether OpenVINO IR can hold this element type. */
export function irHas(name: ElementTypeName): boolean {
  return elementType(name).precision !== null && name !== 'dynamic';
}

/** Whether ONNX can hold this element type. */
export function onnxHas(name: ElementTypeName): boolean {
  return elementType(name).onnx !== null && name !== 'dynamic';
}

/** Bytes needed for `count` elements of a fixed-width type (sub-byte types packed, rounded up). */
export function byteSize(name: ElementTypeName, count: number): number {
  const t = elementType(name);
  if (t.block) return Math.ceil(count / t.block.elements) * t.block.bytes;
  return Math.ceil((count * t.bits) / 8);
}

/** byteSize of a tensor of `dims` as decimal text, exact however large (for messages: 2^64 is not 18446744073709552000). */
export function byteSizeText(name: ElementTypeName, dims: readonly number[]): string {
  const t = elementType(name);
  let count = 1n;
  for (const d of dims) count *= BigInt(d);
  const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;
  return String(t.block ? ceilDiv(count, BigInt(t.block.elements)) * BigInt(t.block.bytes) : ceilDiv(count * BigInt(t.bits), 8n));
}
