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

/** One operand of an elementwise evaluation: its known data and its shape. */
export interface Operand {
  readonly value: PartialValue | null;
  readonly shape: readonly Dim[] | null;
}

/**
 * Known data combined element by element under numpy broadcasting (right-aligned, 1 stretches):
 * what evaluating an elementwise op on small tensors gives. Needs every operand's data and a
 * static shape whose element count is the data's length; null otherwise (or when the result
 * would exceed MAX_PARTIAL_ELEMENTS, or the shapes do not broadcast). `f` sees one element of
 * each operand and may return null (an element it cannot compute).
 */
export function broadcastValues(ops: readonly Operand[], f: (xs: readonly Dim[]) => Dim): PartialValue | null {
  let rank = 0;
  for (const o of ops) {
    if (!o.value || !o.shape || !o.shape.every(isStatic)) return null;
    if (o.value.length !== elementCount(o.shape as number[])) return null;
    rank = Math.max(rank, o.shape.length);
  }
  const dims: number[] = Array.from({ length: rank }, () => 1);
  const padded = ops.map((o) => [...Array.from({ length: rank - o.shape!.length }, () => 1), ...(o.shape as number[])]);
  for (const s of padded) {
    for (let k = 0; k < rank; k++) {
      if (s[k] === 1 || s[k] === dims[k]) continue;
      if (dims[k] !== 1) return null;
      dims[k] = s[k]!;
    }
  }
  const count = elementCount(dims);
  if (count > MAX_PARTIAL_ELEMENTS) return null;
  // each operand's stride per output axis (0 where it stretches)
  const strides = padded.map((s) => {
    const st: number[] = Array.from({ length: rank }, () => 0);
    let acc = 1;
    for (let k = rank - 1; k >= 0; k--) { st[k] = s[k] === 1 ? 0 : acc; acc *= s[k]!; }
    return st;
  });
  const result: Dim[] = [];
  const xs: Dim[] = Array.from({ length: ops.length }, () => null);
  for (let i = 0; i < count; i++) {
    for (let j = 0; j < ops.length; j++) {
      let rest = i;
      let at = 0;
      for (let k = rank - 1; k >= 0; k--) { at += (rest % dims[k]!) * strides[j]![k]!; rest = Math.floor(rest / dims[k]!); }
      xs[j] = ops[j]!.value![at]!;
    }
    result.push(f(xs));
  }
  return result;
}

/** Whether every element of the data is known exactly (OpenVINO: lower bound == upper bound). */
export function fullyKnown(v: PartialValue | null): v is readonly number[] {
  return v !== null && v.every(isStatic);
}
