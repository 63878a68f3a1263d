import type { Tensor } from './tensor.js';
import type { ValueType } from './types.js';

/**
 * A typed attribute. ONNX attributes decode to their AttributeProto type (int64 as bigint).
 * IR `<data>` attributes decode typed where the op's attribute schema is known, and as `raw`
 * strings (exactly as written) otherwise, so that nothing is ever dropped. Graph-valued attributes
 * (If branches, Loop bodies) are not attributes here: they are the node's bodies.
 */
export type Attr =
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'int'; readonly value: bigint }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'tensor'; readonly value: Tensor }
  | { readonly type: 'type'; readonly value: ValueType }
  | { readonly type: 'floats'; readonly value: readonly number[] }
  | { readonly type: 'ints'; readonly value: readonly bigint[] }
  | { readonly type: 'strings'; readonly value: readonly string[] }
  | { readonly type: 'tensors'; readonly value: readonly Tensor[] }
  | { readonly type: 'types'; readonly value: readonly ValueType[] }
  /** Kept as written: IR attributes of unknown ops, or ONNX attribute kinds we only carry through
   * (sparse tensors, GRAPHS lists, function attribute references), as encoded bytes. */
  | { readonly type: 'raw'; readonly value: string; readonly bytes?: Uint8Array };

export const A = {
  float: (value: number): Attr => ({ type: 'float', value }),
  int: (value: number | bigint): Attr => ({ type: 'int', value: BigInt(value) }),
  string: (value: string): Attr => ({ type: 'string', value }),
  bool: (value: boolean): Attr => ({ type: 'bool', value }),
  tensor: (value: Tensor): Attr => ({ type: 'tensor', value }),
  floats: (value: readonly number[]): Attr => ({ type: 'floats', value }),
  ints: (value: readonly (number | bigint)[]): Attr => ({ type: 'ints', value: value.map((v) => BigInt(v)) }),
  strings: (value: readonly string[]): Attr => ({ type: 'strings', value }),
  raw: (value: string): Attr => ({ type: 'raw', value }),
};
