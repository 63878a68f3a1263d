import type { ElementTypeName } from '../graph/element-type.js';
import type { Tensor } from '../graph/tensor.js';
import { readFloats, readIntegers } from '../graph/tensor.js';
import type { Value } from '../graph/value.js';
import { f16BitsToNumber } from '../graph/f16.js';

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

export function payloadOf(value: Value): Payload | undefined {
  // A body parameter fed (at any depth) from a constant holds that constant: ONNX captures an
  // outer initializer where ovc puts a Const inside the body.
  let v = value;
  for (let owner = v.graph.owner; owner && !v.producer && !v.constant; owner = v.graph.owner) {
    const b = owner.node.bodies.get(owner.key)?.inputs.find((x) => x.param === v);
    const feeder = b ? owner.node.inputs[b.from] : undefined;
    if (!feeder) break;
    v = feeder;
  }
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

function readNumbers(t: Tensor): number[] | bigint[] | undefined {
  if (t.elem === 'f32' || t.elem === 'f64') return readFloats(t);
  if (t.elem === 'f16' || t.elem === 'bf16') {
    const v = new DataView(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    const n = t.data.byteLength / 2;
    const out: number[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = t.elem === 'f16' ? f16BitsToNumber(v.getUint16(i * 2, true)) : bf16ToNumber(v.getUint16(i * 2, true));
    return out;
  }
  try { return readIntegers(t); } catch { return undefined; }
}


function bf16ToNumber(h: number): number {
  const b = new DataView(new ArrayBuffer(4));
  b.setUint32(0, h << 16, true);
  return b.getFloat32(0, true);
}

/**
 * Compares two payloads; undefined when they are not comparable (other element counts or dims,
 * strings, sub-byte types), else the list of differences (empty: equal within precision).
 */
export function comparePayloads(a: Payload, b: Payload): string | null | undefined {
  if (squeeze(a.tensor.dims) !== squeeze(b.tensor.dims)) return undefined;
  const xa = readNumbers(a.tensor);
  const xb = readNumbers(b.tensor);
  if (!xa || !xb || xa.length !== xb.length) return undefined;
  const ra = RANK[a.kept];
  const rb = RANK[b.kept];
  const kept = ra === undefined ? b.kept : rb === undefined ? a.kept : ra <= rb ? a.kept : b.kept;
  const narrowed = a.kept !== b.kept; // one side was stored in a coarser format: any faithful rounding
  let bad = 0;
  let first = '';
  for (let i = 0; i < xa.length; i++) {
    const pi = xa[i]!;
    const qi = xb[i]!;
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
  return `${bad} of ${xa.length} elements differ beyond ${kept} precision (${first})`;
}
