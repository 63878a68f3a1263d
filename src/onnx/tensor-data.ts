import type { Diagnostics } from '../diag/diagnostic.js';
import { byteSize, byteSizeText, fromOnnxDataType, elementType, type ElementTypeName } from '../graph/element-type.js';
import { makeStringTensor, makeTensor, type Tensor } from '../graph/tensor.js';
import { tensorOver } from '../fs/sparse-file.js';
import type { ExternalData } from './external.js';
import type { TensorProto } from './proto-types.js';
import { DATA_LOCATION_EXTERNAL } from './schema.js';
import { has, list, str } from './wire.js';

/**
 * TensorProto ↔ Tensor. raw_data (and external data) become views; the typed fields are converted
 * once into the raw little-endian layout of src/graph/tensor.ts:
 * - float_data: f32, c64 (real/imaginary pairs);  double_data: f64, c128;
 * - int32_data: one element per entry for 8/16/32-bit types (f16/bf16/f8 as their bit patterns),
 *   one packed byte per entry for 4-bit types (2 elements) and 2-bit types (4 elements);
 * - int64_data: i64;  uint64_data: u32, u64;  string_data: strings.
 */
type Typed = 'float_data' | 'double_data' | 'int32_data' | 'int64_data' | 'uint64_data';

/** Which typed field holds each element type, and how one entry becomes bytes. */
const TYPED: Partial<Record<ElementTypeName, { field: Typed; entriesPer: (n: number) => number; write: (dst: DataView, i: number, v: number | bigint) => void }>> = (() => {
  const one = (n: number) => n;
  const f32 = (d: DataView, i: number, v: number | bigint) => d.setFloat32(i * 4, Number(v), true);
  const f64 = (d: DataView, i: number, v: number | bigint) => d.setFloat64(i * 8, Number(v), true);
  const u8 = (d: DataView, i: number, v: number | bigint) => d.setUint8(i, Number(v) & 0xff);
  const u16 = (d: DataView, i: number, v: number | bigint) => d.setUint16(i * 2, Number(v) & 0xffff, true);
  const i32 = (d: DataView, i: number, v: number | bigint) => d.setInt32(i * 4, Number(v), true);
  const i64 = (d: DataView, i: number, v: number | bigint) => d.setBigInt64(i * 8, BigInt.asIntN(64, BigInt(v)), true);
  const u32 = (d: DataView, i: number, v: number | bigint) => d.setUint32(i * 4, Number(BigInt.asUintN(32, BigInt(v))), true);
  const u64 = (d: DataView, i: number, v: number | bigint) => d.setBigUint64(i * 8, BigInt.asUintN(64, BigInt(v)), true);
  const int32 = (write: typeof u8, entriesPer = one) => ({ field: 'int32_data' as const, entriesPer, write });
  return {
    f32: { field: 'float_data', entriesPer: one, write: f32 },
    c64: { field: 'float_data', entriesPer: (n) => 2 * n, write: f32 },
    f64: { field: 'double_data', entriesPer: one, write: f64 },
    c128: { field: 'double_data', entriesPer: (n) => 2 * n, write: f64 },
    i32: int32(i32),
    i16: int32(u16), u16: int32(u16), f16: int32(u16), bf16: int32(u16),
    i8: int32(u8), u8: int32(u8), boolean: int32(u8),
    f8e4m3: int32(u8), f8e4m3fnuz: int32(u8), f8e5m2: int32(u8), f8e5m2fnuz: int32(u8), f8e8m0: int32(u8),
    i4: int32(u8, (n) => Math.ceil(n / 2)), u4: int32(u8, (n) => Math.ceil(n / 2)), f4e2m1: int32(u8, (n) => Math.ceil(n / 2)),
    i2: int32(u8, (n) => Math.ceil(n / 4)), u2: int32(u8, (n) => Math.ceil(n / 4)),
    i64: { field: 'int64_data', entriesPer: one, write: i64 },
    u32: { field: 'uint64_data', entriesPer: one, write: u32 },
    u64: { field: 'uint64_data', entriesPer: one, write: u64 },
  };
})();

export interface TensorContext {
  diags: Diagnostics;
  where: string;
  external: ExternalData | null;
}

/** Dims as numbers; null (with a diagnostic) when one is negative or beyond 2^53. */
export function tensorDims(dims: readonly bigint[], name: string, ctx: TensorContext): number[] | null {
  const out: number[] = [];
  for (const d of dims) {
    if (d < 0n || d > BigInt(Number.MAX_SAFE_INTEGER)) {
      if (d < 0n) ctx.diags.add('ONNX_TENSOR_BAD', ctx.where, { name, detail: `negative dimension ${d}` });
      else ctx.diags.add('ONNX_DIM_TOO_LARGE', ctx.where, { what: `tensor '${name}'`, value: d });
      return null;
    }
    out.push(Number(d));
  }
  return out;
}

/** Decodes a TensorProto; null (with diagnostics) when it cannot be read. */
export function decodeTensor(p: TensorProto, ctx: TensorContext): Tensor | null {
  const name = str(p, 'name');
  const bad = (detail: string) => {
    ctx.diags.add('ONNX_TENSOR_BAD', ctx.where, { name, detail });
    return null;
  };
  const code = Number(p.data_type ?? 0);
  const info = fromOnnxDataType(code);
  if (!info || info.name === 'dynamic') return bad(`data_type ${code} is not a known tensor element type`);
  const elem = info.name;
  const dims = tensorDims(list<bigint>(p, 'dims').map((d) => BigInt(d)), name, ctx);
  if (!dims) return null;
  if (has(p, 'segment')) return bad('segmented tensors (TensorProto.segment) are not supported');
  const count = dims.reduce((a, b) => a * b, 1);

  if (elem === 'string') {
    const strings = list<Uint8Array>(p, 'string_data');
    if (strings.length !== count) return bad(`has ${strings.length} strings, dims ${JSON.stringify(dims)} need ${count}`);
    return makeStringTensor(dims, strings);
  }
  const need = byteSize(elem, count);
  if (Number(p.data_location ?? 0) === DATA_LOCATION_EXTERNAL) {
    if (!ctx.external) return bad('has external data, which a tensor read on its own cannot resolve');
    const data = ctx.external.read(list(p, 'external_data'), name, need, ctx.where);
    return data ? tensorOver(elem, dims, data) : null;
  }
  if (has(p, 'raw_data')) {
    const raw = p.raw_data!;
    if (raw.byteLength !== need) return bad(`raw_data has ${raw.byteLength} bytes, ${elem} ${JSON.stringify(dims)} needs ${byteSizeText(elem, dims)}`);
    // a view of the file's bytes (read on demand when the file is big: src/onnx/sparse-read.ts)
    return tensorOver(elem, dims, raw);
  }
  const spec = TYPED[elem];
  if (!spec) return bad(`${elem} data must be in raw_data`);
  const values = list<number | bigint>(p, spec.field);
  const entries = spec.entriesPer(count);
  if (values.length === 0 && count > 0) {
    return bad(`has no data (neither raw_data nor ${spec.field}) for ${count} elements`);
  }
  if (values.length !== entries) return bad(`${spec.field} has ${values.length} entries, ${elem} ${JSON.stringify(dims)} needs ${entries}`);
  const out = new Uint8Array(need);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < entries; i++) spec.write(dv, i, values[i]!);
  return makeTensor(elem, dims, out);
}

/** A TensorProto holding `t` in raw_data (string_data for strings); `data` is referenced, not copied. */
export function encodeTensor(t: Tensor, name: string): TensorProto {
  const code = elementType(t.elem).onnx;
  const p: TensorProto = { dims: t.dims.map((d) => BigInt(d)), data_type: code ?? 0 };
  if (name) p.name = name;
  if (t.elem === 'string') p.string_data = [...(t.strings ?? [])];
  else p.raw_data = t.data;
  return p;
}
