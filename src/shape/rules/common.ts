import { attrInt, attrInts, attrString } from '../../graph/attr-read.js';
import { elementType, type ElementTypeName } from '../../graph/element-type.js';
import type { TensorType } from '../../graph/types.js';
import type { Dialect } from '../../graph/node.js';
import { isStatic, isSymbol, type Dim, type Shape } from '../../graph/shape.js';
import type { BroadcastResult } from '../broadcast.js';
import { addDims, mulDims, normAxis } from '../dim.js';
import type { InferFn, OutputInfo, PartialValue, Rule, RuleContext } from '../rule.js';
import { out } from '../rule.js';

/** Attribute helpers with defaults, as numbers (attribute values here are small). */
export const intAttr = (c: RuleContext, name: string, def: number): number => {
  const v = attrInt(c.node, name);
  return v === undefined ? def : Number(v);
};
export const intsAttr = (c: RuleContext, name: string): number[] | undefined => attrInts(c.node, name)?.map(Number);
export const strAttr = (c: RuleContext, name: string, def: string): string => attrString(c.node, name) ?? def;

/** One rule per op name, same function: for families defined as data. */
export function family(dialect: Dialect, ops: readonly string[], since: number, infer: InferFn, until?: number): Rule[] {
  return ops.map((op) => (until === undefined ? { dialect, op, since, infer } : { dialect, op, since, until, infer }));
}

/** Output 0 has input 0's type (and data: Identity). */
export const sameAsInput: InferFn = (c) => [{ type: c.type(0), value: c.value(0) }];

/** Output 0 has input 0's type; its data is `f` of the input's data where every element is static. */
export const unaryData = (f: ((x: number) => number) | null): InferFn => (c) => {
  const v = c.value(0);
  const value = f && v && v.every(isStatic) ? (v as number[]).map(f) : null;
  return [{ type: c.type(0), value }];
};

/** Output 0 has input 0's shape and the given element type. */
export const sameShapeAs = (elem: ElementTypeName): InferFn => (c) => [out(elem, c.shape(0))];

/**
 * The type operands 0 and 1 share when broadcasting them changes nothing: one tensor type object
 * (inference interns types, so equal types are one object) of known rank whose dims are all
 * static or unknown; null otherwise. Broadcasting such a shape with itself gives it back under
 * every rule (ONNX multidirectional; OpenVINO numpy, pdpd and none), so a rule may return the
 * type itself: no new shape and type per node of a long chain of same-shaped operands. Symbols
 * and intervals are left to the broadcast (OpenVINO's numpy rule does not keep a symbol).
 */
export function sharedOperandType(c: RuleContext): TensorType | null {
  const t = c.type(0);
  if (t === null || t !== c.type(1) || t.kind !== 'tensor' || t.shape === null || t.elem === 'dynamic') return null;
  const shape = t.shape;
  for (let i = 0; i < shape.length; i++) {
    const d = shape[i];
    if (d !== null && typeof d !== 'number') return null;
  }
  return t;
}

/** Applies a broadcast result, reporting a failure. */
export function broadcastOr(c: RuleContext, r: BroadcastResult): Shape {
  if (r.ok) return r.shape;
  c.error(r.reason);
  return null;
}

/** Elementwise data propagation on partial values (same length, or one side a single element). */
export function zipValues(a: PartialValue | null, b: PartialValue | null, f: (x: Dim, y: Dim) => Dim): PartialValue | null {
  if (!a || !b) return null;
  if (a.length === b.length) return a.map((x, i) => f(x, b[i]!));
  if (a.length === 1) return b.map((y) => f(a[0]!, y));
  if (b.length === 1) return a.map((x) => f(x, b[0]!));
  return null;
}

/** Arithmetic on partial values; `intervals` for OpenVINO's bound evaluation. */
/** Integer remainders for data propagation (null for a zero divisor): with the divisor's sign (floor), or the dividend's (C's %). */
export const floorMod = (x: number, y: number): number | null => (y === 0 ? null : x - Math.floor(x / y) * y);
export const truncMod = (x: number, y: number): number | null => (y === 0 ? null : x % y);

export const ARITH: Record<string, (intervals: boolean) => (x: Dim, y: Dim) => Dim> = {
  add: (iv) => (x, y) => addDims(x, y, iv),
  sub: () => (x, y) => (isStatic(x) && isStatic(y) ? x - y : isStatic(y) && y === 0 ? x : null),
  mul: (iv) => (x, y) => mulDims(x, y, iv),
  div: () => (x, y) => (isStatic(x) && isStatic(y) && y !== 0 ? Math.trunc(x / y) : isStatic(y) && y === 1 ? x : null),
};

/** Axis normalisation that reports. */
export function axisOr(c: RuleContext, axis: number, rank: number): number | undefined {
  const a = normAxis(axis, rank);
  if (a === undefined) c.error(`axis ${axis} is out of range for rank ${rank}`);
  return a;
}

/** A shape as a partial value (Shape/ShapeOf data): rank known → one element per dim. */
export function shapeAsValue(s: Shape): PartialValue | null {
  return s === null ? null : [...s];
}

/**
 * Past this many axes a shape operand's declared length is not made into a rank: no engine runs
 * such a tensor, and a length of 2^32 declared on an input made an array of 2^32 dims (Invalid
 * array length; 10^8 would have taken gigabytes). The rank is then unknown, which is never wrong.
 */
export const MAX_MATERIALIZED_RANK = 4096;

/** The shape a 1-D shape tensor describes: from its data when known, else rank from its length. */
export function shapeFromInput(c: RuleContext, i: number): { dims: Dim[] } | null {
  const v = c.value(i);
  if (v) return { dims: [...v] };
  const s = c.shape(i);
  if (s && s.length === 1 && isStatic(s[0]!) && s[0] <= MAX_MATERIALIZED_RANK) return { dims: Array.from({ length: s[0] }, () => null) };
  return null;
}

export const unknownOut = (): OutputInfo => ({ type: { kind: 'tensor', elem: 'dynamic', shape: null } });

/** A count for a message: exact, or 'more than 2^53' where a product of dims is no longer exact (Infinity included). */
export const countText = (n: number): string => (Number.isSafeInteger(n) ? String(n) : 'more than 2^53');

/**
 * Integer data converted to integer type `to` (OpenVINO Convert, ONNX Cast / CastLike): a number
 * `to` holds stays itself, one it does not hold is unknown (engines wrap or saturate it: nothing to
 * propagate as known), and so is an interval reaching past `to`'s range; a symbolic dim (a size,
 * below 2^31) stays itself in a type of 32 bits or more and is unknown in a narrower one.
 */
export function convertedIntData(v: PartialValue | null, to: ElementTypeName): PartialValue | null {
  if (!v) return null;
  const t = elementType(to);
  if (t.kind !== 'int' && t.kind !== 'uint') return null;
  const lo = t.kind === 'int' ? -(2 ** (t.bits - 1)) : 0;
  const hi = t.kind === 'int' ? 2 ** (t.bits - 1) - 1 : 2 ** t.bits - 1;
  const fits = (x: number): boolean => x >= lo && x <= hi;
  return v.map((x): Dim => {
    if (x === null) return null;
    if (isStatic(x)) return fits(x) ? x : null;
    if (isSymbol(x)) return t.bits >= 32 ? x : null;
    return fits(x.min) && fits(x.max) ? x : null;
  });
}
