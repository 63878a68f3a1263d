import { elementType } from '../graph/element-type.js';
import { elementCount, isStatic, type Dim } from '../graph/shape.js';
import { readIntegers, type Tensor } from '../graph/tensor.js';
import type { PartialValue } from './rule.js';

/** Partial values are only tracked for small tensors (shapes, axes, indices), as both engines do. */
export const MAX_PARTIAL_ELEMENTS = 1024;

/** A constant integer/boolean tensor's data as a partial value (every element static). */
export function partialFromTensor(t: Tensor): PartialValue | null {
  const kind = elementType(t.elem).kind;
  if (kind !== 'int' && kind !== 'uint' && kind !== 'bool') return null;
  if (elementType(t.elem).bits < 8) return null;
  if (elementCount(t.dims) > MAX_PARTIAL_ELEMENTS) return null;
  if (t.data.byteLength < (elementType(t.elem).bits / 8) * elementCount(t.dims)) return null;
  return readIntegers(t).map(toDimNumber);
}

/** A bigint as a number; beyond ±2^53 (INT64_MAX used as "to the end") it becomes ±Infinity. */
export function toDimNumber(b: bigint): number {
  if (b > BigInt(Number.MAX_SAFE_INTEGER)) return Infinity;
  if (b < BigInt(Number.MIN_SAFE_INTEGER)) return -Infinity;
  return Number(b);
}

/** All elements static: as numbers; otherwise null. */
export function staticValues(v: PartialValue | null): number[] | null {
  if (v === null) return null;
  return v.every(isStatic) ? (v as number[]) : null;
}

/** A partial value whose elements are known: convenience for rules. */
export function known(values: readonly number[]): PartialValue {
  return values;
}

export function allUnknown(n: number): Dim[] {
  return Array.from({ length: n }, () => null);
}
