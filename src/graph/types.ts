import type { ElementTypeName } from './element-type.js';
import { formatShape, type Shape } from './shape.js';

/**
 * The type of a value. IR knows only tensors; ONNX also has sequences, optionals, maps and sparse
 * tensors, which we keep so that they can be reported (and refused by the converter) by name.
 */
export type ValueType =
  | { readonly kind: 'tensor'; readonly elem: ElementTypeName; readonly shape: Shape }
  | { readonly kind: 'sparse_tensor'; readonly elem: ElementTypeName; readonly shape: Shape }
  | { readonly kind: 'sequence'; readonly elem: ValueType | null }
  | { readonly kind: 'optional'; readonly elem: ValueType | null }
  | { readonly kind: 'map'; readonly key: ElementTypeName; readonly value: ValueType | null }
  | { readonly kind: 'unknown' };

export type TensorType = Extract<ValueType, { kind: 'tensor' }>;

export const tensorType = (elem: ElementTypeName, shape: Shape): TensorType => ({ kind: 'tensor', elem, shape });
export const UNKNOWN_TYPE: ValueType = { kind: 'unknown' };

export function isTensorType(t: ValueType): t is TensorType {
  return t.kind === 'tensor';
}

/** ONNX-style description: tensor(float), seq(tensor(int64)), optional(…). */
/** A type as messages show it: a tensor as `f32[2,?]`, another kind as describeType says; null as '?'. */
export function showType(t: ValueType | null): string {
  if (t === null) return '?';
  if (t.kind === 'tensor') return `${t.elem}${formatShape(t.shape)}`;
  return describeType(t);
}

export function describeType(t: ValueType | null): string {
  if (t === null) return '?';
  switch (t.kind) {
    case 'tensor': return `tensor(${t.elem})`;
    case 'sparse_tensor': return `sparse_tensor(${t.elem})`;
    case 'sequence': return `seq(${describeType(t.elem)})`;
    case 'optional': return `optional(${describeType(t.elem)})`;
    case 'map': return `map(${t.key},${describeType(t.value)})`;
    case 'unknown': return 'unknown';
  }
}
