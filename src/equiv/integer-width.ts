import { elementType, type ElementTypeName } from '../graph/element-type.js';
import type { Dim } from '../graph/shape.js';
import type { Value } from '../graph/value.js';

/**
 * Integer tensors whose width is how a form spells them, not what they hold: ONNX takes shapes,
 * axes and indices as i64 where OpenVINO takes i32 too (ovir's ONNX form casts an i32 shape to i64
 * for Expand, and folds such casts of constants), OpenVINO's TensorFlow frontend counts in i32 where
 * an ONNX Loop counts in i64. Two rules, each only where the width is what differs:
 * throughIntegerConvert (which values stand for an op's input), sameIntegerNumbers (when a pair's
 * width does not matter).
 */

/** The element type inference gives a value (undefined: not a tensor, or not known). */
export type ElemOf = (v: Value) => ElementTypeName | undefined;

const isInteger = (e: ElementTypeName | undefined): boolean => e !== undefined && e !== 'dynamic' && ['int', 'uint'].includes(elementType(e).kind);

/**
 * Whether converting integers of type `from` to `to` keeps every value: `to` holds all of
 * `from`'s range (i32 → i64, u8 → i16, u32 → u64), so the converted tensor holds the same numbers.
 * A narrowing one (i64 → i32, i32 → u64) may wrap: the two forms then need not read the same numbers.
 */
function exact(from: ElementTypeName, to: ElementTypeName): boolean {
  const f = elementType(from);
  const t = elementType(to);
  if (f.kind === t.kind) return t.bits >= f.bits;
  return f.kind === 'uint' && t.kind === 'int' && t.bits > f.bits;
}

/** The value a Convert (IR) or Cast (ONNX) converts, if `v` is made by one. */
function converted(v: Value): Value | undefined {
  const p = v.producer;
  if (!p || !p.inputs[0]) return undefined;
  const op = p.dialect === 'ov' ? p.op === 'Convert' : p.op === 'Cast' && (p.domain === '' || p.domain === 'ai.onnx');
  return op ? p.inputs[0] : undefined;
}

/**
 * Two inputs an op reads at one position, in the two forms: the values they stand for. Where one
 * form reads an integer tensor as it is and the other reads it converted to another integer type
 * (ovir's ONNX form casts an i32 shape to i64 for Expand; OpenVINO's TensorFlow frontend counts in
 * i32 where an ONNX Loop counts in i64), the op reads the same numbers: what is converted stands for
 * what the other form reads, which then pair (their types compared as any pair's). Only when that
 * is what makes the types differ: the converted value has the other form's element type, all three
 * are integers, and the conversion keeps every value (it widens: `exact`). Anything else (a
 * narrowing or float conversion, a Convert on both sides) is left as it is.
 */
export function throughIntegerConvert(va: Value, vb: Value, elemOf: ElemOf): [Value, Value] {
  const ea = elemOf(va);
  const eb = elemOf(vb);
  if (ea === eb || !isInteger(ea) || !isInteger(eb)) return [va, vb];
  const xb = converted(vb);
  if (xb && !converted(va) && elemOf(xb) === ea && exact(ea!, eb!)) return [va, xb];
  const xa = converted(va);
  if (xa && !converted(vb) && elemOf(xa) === eb && exact(eb!, ea!)) return [xa, vb];
  return [va, vb];
}

/**
 * Whether two integer tensors of other widths hold the same numbers, as both forms' inference
 * knows them in full (shape data, axes: `values` of inferTypes): then they are one tensor stored in
 * two widths, as constants reached through the data flow are judged by their numbers.
 */
export function sameIntegerNumbers(ea: ElementTypeName | undefined, eb: ElementTypeName | undefined, xa: readonly Dim[] | undefined, xb: readonly Dim[] | undefined): boolean {
  if (ea === eb || !isInteger(ea) || !isInteger(eb) || !xa || !xb || xa.length !== xb.length) return false;
  return xa.every((d, i) => typeof d === 'number' && d === xb[i]);
}
