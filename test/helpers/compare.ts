/**
 * Comparing engine outputs with expected outputs.
 *
 * Floats (f64, f32, f16, bf16): |got - want| <= atol + rtol * |want|, NaN equals NaN, infinities
 * must match in sign. Integers, booleans and strings: exact. Element type and shape must match.
 * `compareTensors` returns null when equal, else one line saying what differs and where.
 */
import type { OracleTensor } from './oracle.js';
import { f16BitsToNumber } from '../../src/graph/f16.js';
import { ELEMENT_TYPES } from '../../src/graph/element-type.js';

export interface Tolerance {
  rtol: number;
  atol: number;
}

/** f32/f64: rtol 1e-4 with a small atol for values near zero; half types get their own precision. */
export const DEFAULT_TOLERANCE: Readonly<Record<'f64' | 'f32' | 'f16' | 'bf16', Tolerance>> = {
  f64: { rtol: 1e-4, atol: 1e-6 },
  f32: { rtol: 1e-4, atol: 1e-5 },
  f16: { rtol: 1e-3, atol: 1e-3 },
  bf16: { rtol: 1e-2, atol: 1e-2 },
};

const FLOAT = new Set(['f64', 'f32', 'f16', 'bf16']);
const WIDTH: Record<string, number> = {
  f64: 8, f32: 4, f16: 2, bf16: 2, i8: 1, i16: 2, i32: 4, i64: 8, u8: 1, u16: 2, u32: 4, u64: 8, boolean: 1,
};


/** The elements of a numeric tensor as numbers (floats) or bigints (64-bit integers). */
export function tensorValues(t: OracleTensor): number[] | bigint[] {
  const w = WIDTH[t.dtype];
  if (w === undefined) throw new Error(`cannot read elements of type ${t.dtype}`);
  const n = Math.floor(t.data.byteLength / w);
  const dv = new DataView(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  switch (t.dtype) {
    case 'f64': return Array.from({ length: n }, (_, i) => dv.getFloat64(i * 8, true));
    case 'f32': return Array.from({ length: n }, (_, i) => dv.getFloat32(i * 4, true));
    case 'f16': return Array.from({ length: n }, (_, i) => f16BitsToNumber(dv.getUint16(i * 2, true)));
    case 'bf16': {
      const f = new DataView(new ArrayBuffer(4));
      return Array.from({ length: n }, (_, i) => { f.setUint32(0, dv.getUint16(i * 2, true) << 16, false); return f.getFloat32(0, false); });
    }
    case 'i64': return Array.from({ length: n }, (_, i) => dv.getBigInt64(i * 8, true));
    case 'u64': return Array.from({ length: n }, (_, i) => dv.getBigUint64(i * 8, true));
    case 'i32': return Array.from({ length: n }, (_, i) => dv.getInt32(i * 4, true));
    case 'u32': return Array.from({ length: n }, (_, i) => dv.getUint32(i * 4, true));
    case 'i16': return Array.from({ length: n }, (_, i) => dv.getInt16(i * 2, true));
    case 'u16': return Array.from({ length: n }, (_, i) => dv.getUint16(i * 2, true));
    case 'i8': return Array.from({ length: n }, (_, i) => dv.getInt8(i));
    case 'boolean': return Array.from({ length: n }, (_, i) => (dv.getUint8(i) ? 1 : 0));
    default: return Array.from({ length: n }, (_, i) => dv.getUint8(i)); // u8
  }
}

const count = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);
const showShape = (s: readonly number[]): string => `[${s.join(',')}]`;

function index(flat: number, shape: readonly number[]): string {
  const idx: number[] = [];
  for (let k = shape.length - 1; k >= 0; k--) {
    const d = shape[k]!;
    idx.unshift(d ? flat % d : 0);
    flat = d ? Math.floor(flat / d) : 0;
  }
  return `[${idx.join(',')}]`;
}

function fmt(v: number | bigint): string {
  return typeof v === 'bigint' ? v.toString() : Number.isInteger(v) ? String(v) : v.toPrecision(7);
}

/** null when `got` equals `want` (floats within tolerance), else a one-line description. */
export function compareTensors(got: OracleTensor, want: OracleTensor, tol?: Partial<Tolerance>): string | null {
  // Old ONNX test data (before TensorProto had BFLOAT16 test files) stores bfloat16 values as uint16 bits.
  if (got.dtype === 'bf16' && want.dtype === 'u16') want = { ...want, dtype: 'bf16' };
  if (got.dtype !== want.dtype) return `element type ${got.dtype}, expected ${want.dtype}`;
  if (got.shape.length !== want.shape.length || got.shape.some((d, i) => d !== want.shape[i])) {
    return `shape ${showShape(got.shape)}, expected ${showShape(want.shape)}`;
  }
  const n = count(want.shape);
  if (want.dtype === 'string') {
    const a = got.strings ?? [];
    const b = want.strings ?? [];
    if (a.length !== b.length) return `${a.length} strings, expected ${b.length}`;
    const dec = new TextDecoder();
    for (let i = 0; i < b.length; i++) {
      if (Buffer.compare(Buffer.from(a[i]!), Buffer.from(b[i]!)) !== 0) {
        return `at ${index(i, want.shape)}: ${JSON.stringify(dec.decode(a[i]))}, expected ${JSON.stringify(dec.decode(b[i]))}`;
      }
    }
    return null;
  }
  const w = WIDTH[want.dtype];
  const info = ELEMENT_TYPES.find((t) => t.name === want.dtype);
  if (w === undefined && info && (info.packing === 'low-bits-first' || info.packing === 'low-nibble-first' || info.packing === 'msb-first')) {
    // Sub-byte types: the n elements' bit fields, not the padding bits of the last byte (which
    // OpenVINO leaves as it finds them: measured, a Convert to u2 of 7 values gives 0x39 then
    // 0x39/0x79/0xb9/0xf9 from run to run, the same 7 values).
    const at = (t: OracleTensor, i: number) => {
      const bit = i * info.bits;
      const byte = t.data[bit >> 3]!;
      const shift = info.packing === 'msb-first' ? 8 - info.bits - (bit & 7) : bit & 7;
      return (byte >> shift) & ((1 << info.bits) - 1);
    };
    const need = Math.ceil((n * info.bits) / 8);
    if (got.data.byteLength < need) return `${got.data.byteLength} data bytes, expected ${need}`;
    for (let i = 0; i < n; i++) if (at(got, i) !== at(want, i)) return `${want.dtype} element ${index(i, want.shape)} is bits ${at(got, i)}, expected ${at(want, i)}`;
    return null;
  }
  if (w === undefined) {
    // Types we cannot read element-wise (f8, u3, u6…): byte equality.
    return Buffer.compare(Buffer.from(got.data), Buffer.from(want.data)) === 0 ? null : `${want.dtype} bytes differ`;
  }
  if (got.data.byteLength < n * w) return `${got.data.byteLength} data bytes, expected ${n * w}`;
  if (want.data.byteLength < n * w) return `expected tensor has ${want.data.byteLength} data bytes for ${n} elements`;
  const a = tensorValues(got);
  const b = tensorValues(want);
  if (!FLOAT.has(want.dtype)) {
    let bad = 0;
    let first = -1;
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) { bad++; if (first < 0) first = i; }
    if (!bad) return null;
    return `${bad}/${n} elements differ; first at ${index(first, want.shape)}: ${fmt(a[first]!)}, expected ${fmt(b[first]!)}`;
  }
  const { rtol, atol } = { ...DEFAULT_TOLERANCE[want.dtype as keyof typeof DEFAULT_TOLERANCE], ...tol };
  let bad = 0;
  let worst = -1;
  let worstExcess = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (Number.isNaN(x) || Number.isNaN(y)) {
      if (Number.isNaN(x) && Number.isNaN(y)) continue;
      bad++;
      if (worstExcess < Infinity) { worstExcess = Infinity; worst = i; }
      continue;
    }
    if (x === y) continue; // equal infinities too
    if (!Number.isFinite(x) || !Number.isFinite(y)) { bad++; if (worstExcess < Infinity) { worstExcess = Infinity; worst = i; } continue; }
    const d = Math.abs(x - y);
    const limit = atol + rtol * Math.abs(y);
    if (!(d <= limit)) {
      bad++;
      const excess = Number.isFinite(d) ? d - limit : Infinity;
      if (excess > worstExcess) { worstExcess = excess; worst = i; }
    }
  }
  if (!bad) return null;
  const x = a[worst] as number;
  const y = b[worst] as number;
  return `${bad}/${n} elements differ beyond rtol ${rtol} atol ${atol}; worst at ${index(worst, want.shape)}: ${fmt(x)}, expected ${fmt(y)} (|d| ${fmt(Math.abs(x - y))})`;
}

/**
 * Compares named outputs: every expected output must be present in `got` and equal.
 * Returns the list of problems (empty when all equal).
 */
export function compareOutputs(
  got: Record<string, OracleTensor>, want: readonly { name: string; tensor: OracleTensor }[], tol?: Partial<Tolerance>,
): string[] {
  const problems: string[] = [];
  want.forEach(({ name, tensor }, i) => {
    const g = got[name] ?? got[`#${i}`];
    if (!g) { problems.push(`output ${name || `#${i}`}: missing`); return; }
    const d = compareTensors(g, tensor, tol);
    if (d) problems.push(`output ${name || `#${i}`}: ${d}`);
  });
  return problems;
}
