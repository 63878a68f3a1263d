import type { Diagnostics } from '../diag/diagnostic.js';
import { elementType, fromOnnxDataType, type ElementTypeName } from '../graph/element-type.js';
import type { Dim, Shape } from '../graph/shape.js';
import type { ValueType } from '../graph/types.js';
import type { TensorShapeProto, TypeProto } from './proto-types.js';
import { has, int64, list, str } from './wire.js';

/**
 * TypeProto ↔ ValueType. dim_value → number, dim_param → {sym}, neither → null; no shape → null.
 * `lossless` is false when the TypeProto says more than a ValueType can hold (opaque types,
 * denotations, element types we do not know); the decoder then keeps the TypeProto bytes too.
 */
export interface DecodedType { type: ValueType; lossless: boolean }

export function typeFromProto(tp: TypeProto, what: string, where: string, diags: Diagnostics): DecodedType {
  let lossless = true;
  const elem = (code: number | undefined): ElementTypeName => {
    const info = fromOnnxDataType(Number(code ?? 0));
    if (!info) {
      lossless = false;
      return 'dynamic';
    }
    return info.name;
  };
  const shape = (s: TensorShapeProto | null | undefined): Shape => {
    if (!s) return null;
    return list<object>(s, 'dim').map((d): Dim => {
      if (str(d, 'denotation') !== '') lossless = false;
      if (has(d, 'dim_value')) {
        const v = int64(d, 'dim_value');
        if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) {
          diags.add('ONNX_DIM_TOO_LARGE', where, { what, value: v });
          lossless = false;
          return null;
        }
        if (v < 0n) {
          // never passed on: OpenVINO refuses an IR dim below -1 and reads -1 as dynamic
          diags.add('ONNX_DIM_NEGATIVE', where, { what, value: v });
          lossless = false;
          return null;
        }
        return Number(v);
      }
      if (has(d, 'dim_param')) return { sym: str(d, 'dim_param') };
      return null;
    });
  };
  // Iterative over the nesting of sequence/optional/map element types.
  const one = (t: TypeProto | null | undefined): { type: ValueType; inner: TypeProto | null; set?: (v: ValueType | null) => ValueType } => {
    if (!t) return { type: { kind: 'unknown' }, inner: null };
    if (str(t, 'denotation') !== '') lossless = false;
    if (has(t, 'tensor_type')) return { type: { kind: 'tensor', elem: elem(t.tensor_type!.elem_type), shape: has(t.tensor_type, 'shape') ? shape(t.tensor_type!.shape) : null }, inner: null };
    if (has(t, 'sparse_tensor_type')) return { type: { kind: 'sparse_tensor', elem: elem(t.sparse_tensor_type!.elem_type), shape: has(t.sparse_tensor_type, 'shape') ? shape(t.sparse_tensor_type!.shape) : null }, inner: null };
    if (has(t, 'sequence_type')) return { type: { kind: 'unknown' }, inner: t.sequence_type!.elem_type ?? null, set: (e) => ({ kind: 'sequence', elem: e }) };
    if (has(t, 'optional_type')) return { type: { kind: 'unknown' }, inner: t.optional_type!.elem_type ?? null, set: (e) => ({ kind: 'optional', elem: e }) };
    if (has(t, 'map_type')) {
      const key = elem(t.map_type!.key_type);
      return { type: { kind: 'unknown' }, inner: t.map_type!.value_type ?? null, set: (v) => ({ kind: 'map', key, value: v }) };
    }
    lossless = false; // opaque, or no type at all
    return { type: { kind: 'unknown' }, inner: null };
  };
  const wraps: ((v: ValueType | null) => ValueType)[] = [];
  let cur: TypeProto | null = tp;
  let leaf: ValueType | null = null;
  for (;;) {
    const r = one(cur);
    if (!r.set) { leaf = r.type; break; }
    wraps.push(r.set);
    if (!r.inner) { leaf = null; break; }
    cur = r.inner;
  }
  let type: ValueType | null = leaf;
  for (let i = wraps.length - 1; i >= 0; i--) type = wraps[i]!(type);
  return { type: type ?? { kind: 'unknown' }, lossless };
}

function shapeToProto(s: Shape): TensorShapeProto {
  return {
    dim: s!.map((d) => {
      if (typeof d === 'number') return { dim_value: BigInt(d) };
      if (d !== null && 'sym' in d) return { dim_param: d.sym };
      return {};
    }),
  };
}

/** A TypeProto for `t`; null when ONNX cannot express it (with the reason). */
export function typeToProto(t: ValueType): { proto: TypeProto | null; problem?: string } {
  const code = (e: ElementTypeName): number | null => (e === 'dynamic' ? 0 : elementType(e).onnx);
  const wraps: ((inner: TypeProto | null) => TypeProto)[] = [];
  let cur: ValueType | null = t;
  let leaf: TypeProto | null = null;
  for (;;) {
    if (cur === null) break;
    if (cur.kind === 'tensor' || cur.kind === 'sparse_tensor') {
      const c = code(cur.elem);
      if (c === null) return { proto: null, problem: `element type ${cur.elem} does not exist in ONNX` };
      const body: { elem_type: number; shape?: TensorShapeProto } = { elem_type: c };
      if (cur.shape !== null) body.shape = shapeToProto(cur.shape);
      leaf = cur.kind === 'tensor' ? { tensor_type: body } : { sparse_tensor_type: body };
      break;
    }
    if (cur.kind === 'unknown') break;
    if (cur.kind === 'sequence') { wraps.push((e) => ({ sequence_type: e ? { elem_type: e } : {} })); cur = cur.elem; continue; }
    if (cur.kind === 'optional') { wraps.push((e) => ({ optional_type: e ? { elem_type: e } : {} })); cur = cur.elem; continue; }
    const key = code(cur.key);
    if (key === null) return { proto: null, problem: `map key type ${cur.key} does not exist in ONNX` };
    wraps.push((v) => ({ map_type: v ? { key_type: key, value_type: v } : { key_type: key } }));
    cur = cur.value;
  }
  let out: TypeProto | null = leaf;
  for (let i = wraps.length - 1; i >= 0; i--) out = wraps[i]!(out);
  return { proto: out };
}
