import type { ElementTypeName } from '../graph/element-type.js';
import { rawData, type Tensor } from '../graph/tensor.js';
import { PIECE_BYTES, readPiece, sameBytes } from '../fs/sparse-file.js';
import type { Value } from '../graph/value.js';
import { boundOuterValue } from '../graph/body.js';
import { bf16BitsToNumber, f16BitsToNumber, f32BitsToF16Bits, f32ToF16Bits } from '../graph/f16.js';

/**
 * Constant payloads, compared within the precision the target keeps.
 *
 * A value's payload is its constant (initializer, IR Const; a body parameter bound to one, at
 * any depth), an ONNX `Constant` node's `value`,
 * or — looking through one conversion, as fp16 compression writes it (`Const f16 → Convert f32`) —
 * the converted constant, whose precision is then the source's (f16). Two payloads are compared
 * when they hold as many elements and their dims agree once 1-dims are dropped (`[4]` ~ `[1,4]`);
 * otherwise they are not compared (a reshaped or transposed weight is not guessed at).
 *
 * Per element: NaN only equals NaN; a finite number never equals an infinity (a constant out of
 * f16 range that became inf is a corruption, not rounding); otherwise, in the coarser of the two
 * kept precisions (f16, bf16, f32, f64), both must round to the same value or — when one side was
 * stored in the coarser format — lie within one step (ulp) of each other: a tie rounded away from
 * zero instead of to even is still the precision kept. f64 values, integers and booleans must be equal exactly.
 */
export interface Payload { tensor: Tensor; kept: ElementTypeName }

const FLOAT_BITS: Partial<Record<ElementTypeName, [mantissa: number, minExp: number, max: number]>> = {
  f16: [10, -14, 65504],
  bf16: [7, -126, 3.3895313892515355e38],
  f32: [23, -126, 3.4028234663852886e38],
};
const RANK: Partial<Record<ElementTypeName, number>> = { bf16: 0, f16: 1, f32: 2, f64: 3 };

export function payloadOf(value: Value, memo?: Map<Value, Value | null>): Payload | undefined {
  // A body parameter fed (at any depth) from a constant holds that constant: ONNX captures an
  // outer initializer where ovc puts a Const inside the body.
  const v = boundOuterValue(value, memo);
  if (!v) return undefined;
  if (v.constant) return { tensor: v.constant, kept: v.constant.elem };
  const p = v.producer;
  if (!p) return undefined;
  if (p.dialect === 'onnx' && p.op === 'Constant' && p.domain === '') {
    const a = p.attrs.get('value');
    return a?.type === 'tensor' ? { tensor: a.value, kept: a.value.elem } : undefined;
  }
  const isConvert = p.dialect === 'ov' ? p.op === 'Convert' : p.op === 'Cast' && p.domain === '';
  const src = isConvert ? p.inputs[0]?.constant : undefined;
  if (src && isFloat(src.elem)) return { tensor: src, kept: src.elem };
  return undefined;
}

const isFloat = (e: ElementTypeName): boolean => e in RANK;

/** Rounds to a binary float format with `mant` fraction bits (ties to even); beyond `max`: ±inf. */
export function roundTo(x: number, elem: ElementTypeName): number {
  if (!Number.isFinite(x) || x === 0) return x;
  // Fast paths, the same rounding (test/equiv/payload.test.ts checks them against the general one):
  // to f32, JavaScript's own; to f16 from a value f32 holds exactly (every f32/f16/bf16 weight),
  // through the f16 bits. Per element of a 400 MB model, the general path took ~50 s.
  if (elem === 'f32') return Math.fround(x);
  if (elem === 'f16' && Math.fround(x) === x) return f16BitsToNumber(f32ToF16Bits(x));
  return roundToNearest(x, elem);
}

/** `x` rounded to nearest even in `elem`'s format, by its mantissa bits and exponent range (any float format of FLOAT_BITS). */
export function roundToNearest(x: number, elem: ElementTypeName): number {
  const f = FLOAT_BITS[elem];
  if (!f || !Number.isFinite(x) || x === 0) return x;
  const [mant, minExp, max] = f;
  const a = Math.abs(x);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  if (e < minExp) e = minExp;
  const q = 2 ** (e - mant);
  const y = a / q;
  let n = Math.floor(y);
  const d = y - n;
  if (d > 0.5 || (d === 0.5 && n % 2 === 1)) n++;
  const r = n * q;
  // IEEE: a value at or past max + half an ulp of max rounds to infinity.
  const out = r > max ? Infinity : r;
  return x < 0 ? -out : out;
}

/** The spacing of the kept format's values around |x| (0 for f64 and non-float formats: exact). */
function ulp(x: number, elem: ElementTypeName): number {
  const f = FLOAT_BITS[elem];
  if (!f || x === 0) return 0;
  const [mant, minExp] = f;
  let e = Math.floor(Math.log2(x));
  if (2 ** e > x) e--;
  return 2 ** (Math.max(e, minExp) - mant);
}

const squeeze = (dims: readonly number[]): string => dims.filter((d) => d !== 1).join(',');

/** Element i of a numeric tensor, read in place (no array of every element). */
type NumberAt = (i: number) => number | bigint;

/** Readers per element type: (view, i) → element i (little-endian). */
const READ: Partial<Record<ElementTypeName, [bytes: number, read: (v: DataView, i: number) => number | bigint]>> = {
  f64: [8, (v, i) => v.getFloat64(i * 8, true)],
  f32: [4, (v, i) => v.getFloat32(i * 4, true)],
  f16: [2, (v, i) => f16BitsToNumber(v.getUint16(i * 2, true))],
  bf16: [2, (v, i) => bf16BitsToNumber(v.getUint16(i * 2, true))],
  i64: [8, (v, i) => v.getBigInt64(i * 8, true)],
  u64: [8, (v, i) => v.getBigUint64(i * 8, true)],
  i32: [4, (v, i) => v.getInt32(i * 4, true)],
  u32: [4, (v, i) => v.getUint32(i * 4, true)],
  i16: [2, (v, i) => v.getInt16(i * 2, true)],
  u16: [2, (v, i) => v.getUint16(i * 2, true)],
  i8: [1, (v, i) => v.getInt8(i)],
  u8: [1, (v, i) => v.getUint8(i)],
  boolean: [1, (v, i) => v.getUint8(i)],
};

/** An f32 payload and an f16 one, in that order (a weight and its fp16 compression), else null. */
function f32AndF16(a: Tensor, b: Tensor): [f32: Tensor, f16: Tensor] | null {
  return a.elem === 'f32' && b.elem === 'f16' ? [a, b] : a.elem === 'f16' && b.elem === 'f32' ? [b, a] : null;
}

/**
 * Whether f16 bits `q` are finite and, bit for bit, the f32 of bits `u` rounded to f16: then the
 * two are equal in f16, what the loop would find through numbers (an f16 infinity is left to it:
 * a finite value that became inf is a difference).
 */
const isF16Of = (u: number, q: number): boolean => (q & 0x7c00) !== 0x7c00 && f32BitsToF16Bits(u) === q;

/**
 * Whether an f32 payload and an f16 one agree everywhere by isF16Of, read piece by piece (a big
 * file's weights are not read into memory: a model checked against ovc's fp16 IR holds neither).
 */
function allF16Rounded(a: Tensor, b: Tensor): boolean {
  const pair = f32AndF16(a, b);
  if (!pair) return false;
  const f = rawData(pair[0]);
  const h = rawData(pair[1]);
  const n = h.byteLength >>> 1;
  if (f.byteLength !== n * 4) return false;
  const per = PIECE_BYTES >>> 2; // elements per piece (the f32 side's bytes bound it)
  for (let at = 0; at < n; at += per) {
    const m = Math.min(per, n - at);
    const fp = readPiece(f, at * 4, m * 4, 0);
    const hp = readPiece(h, at * 2, m * 2, 1);
    const fd = new DataView(fp.buffer, fp.byteOffset, m * 4);
    const hd = new DataView(hp.buffer, hp.byteOffset, m * 2);
    for (let k = 0; k < m; k++) if (!isF16Of(fd.getUint32(k * 4, true), hd.getUint16(k * 2, true))) return false;
  }
  return true;
}

/**
 * Element by element, isF16Of for an f32 payload against an f16 one (most elements of a compressed
 * weight with a few differences are decided without numbers: ~50 ns per element through them).
 */
function f16Rounding(a: Tensor, b: Tensor): ((i: number) => boolean) | null {
  const pair = f32AndF16(a, b);
  if (!pair) return null;
  const [f, h] = pair;
  const fv = new DataView(f.data.buffer, f.data.byteOffset, f.data.byteLength);
  const hv = new DataView(h.data.buffer, h.data.byteOffset, h.data.byteLength);
  return (i) => isF16Of(fv.getUint32(i * 4, true), hv.getUint16(i * 2, true));
}

/** How many elements `t` holds and a reader of each; undefined for types not compared as numbers. */
function numbersOf(t: Tensor): { n: number; at: NumberAt } | undefined {
  const r = READ[t.elem];
  if (!r) return undefined;
  const d = t.data;
  const v = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const read = r[1];
  return { n: Math.floor(d.byteLength / r[0]), at: (i) => read(v, i) };
}

/**
 * Compares two payloads; undefined when they are not comparable (other element counts or dims,
 * strings, sub-byte types), else the list of differences (empty: equal within precision).
 */
export function comparePayloads(a: Payload, b: Payload): string | null | undefined {
  if (squeeze(a.tensor.dims) !== squeeze(b.tensor.dims)) return undefined;
  // The same bytes of the same numeric type are equal in any precision: compared as bytes (a
  // 400 MB model's weights took 4.4 s as numbers one by one, and a faithful conversion keeps them)
  // (weights of big files are compared as their files hold them, not read into memory: sameBytes)
  if (a.tensor.elem === b.tensor.elem && READ[a.tensor.elem] !== undefined && sameBytes(rawData(a.tensor), rawData(b.tensor))) return null;
  if (allF16Rounded(a.tensor, b.tensor)) return null;
  const xa = numbersOf(a.tensor);
  const xb = numbersOf(b.tensor);
  if (!xa || !xb || xa.n !== xb.n) return undefined;
  const ra = RANK[a.kept];
  const rb = RANK[b.kept];
  const kept = ra === undefined ? b.kept : rb === undefined ? a.kept : ra <= rb ? a.kept : b.kept;
  const narrowed = a.kept !== b.kept; // one side was stored in a coarser format: any faithful rounding
  let bad = 0;
  let first = '';
  const rounded = f16Rounding(a.tensor, b.tensor);
  for (let i = 0; i < xa.n; i++) {
    if (rounded !== null && rounded(i)) continue;
    const pi = xa.at(i);
    const qi = xb.at(i);
    if (typeof pi === 'bigint' && typeof qi === 'bigint') {
      if (pi === qi) continue;
      if (bad++ === 0) first = `element ${i}: ${pi} vs ${qi}`;
      continue;
    }
    const p = Number(pi);
    const q = Number(qi);
    if (Number.isNaN(p) || Number.isNaN(q)) {
      if (Number.isNaN(p) && Number.isNaN(q)) continue;
    } else if (Number.isFinite(p) !== Number.isFinite(q)) {
      /* a finite number against an infinity: never equal */
    } else if (p === q || roundTo(p, kept) === roundTo(q, kept) || (narrowed && Math.abs(p - q) <= ulp(Math.max(Math.abs(p), Math.abs(q)), kept))) continue;
    if (bad++ === 0) first = `element ${i}: ${String(p)} vs ${String(q)}`;
  }
  if (bad === 0) return null;
  return `${bad} of ${xa.n} elements differ beyond ${kept} precision (${first})`;
}
