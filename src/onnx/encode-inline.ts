import { elementType } from '../graph/element-type.js';
import type { Dim } from '../graph/shape.js';
import type { ValueType } from '../graph/types.js';
import { int32Size, int64Size, lenFieldSize, LEN, stringSize, type ProtoWriter, VARINT } from './proto-writer.js';

/**
 * The messages most of a model is made of, written in place: their size is computed first, then
 * tag, length and fields go straight into the parent's writer. The general path (encode.ts) writes
 * each message into a writer of its own and copies it into its parent; for a 100k-node model that
 * is several writers and copies per node and per value_info (a TypeProto alone nests four messages).
 * Same bytes as the general path (test/onnx/encode-differential.test.ts): fields in field-number
 * order, the same varints and strings (proto-writer.ts).
 */

/** A tensor or sparse tensor type: the size of its TypeProto's fields, else -1 (the general path writes it). */
export function tensorTypeSize(t: ValueType): number {
  if (t.kind !== 'tensor' && t.kind !== 'sparse_tensor') return -1;
  const code = t.elem === 'dynamic' ? 0 : elementType(t.elem).onnx;
  if (code === null) return -1;
  return lenFieldSize(tensorBodySize(code, t.shape));
}

function tensorBodySize(code: number, shape: readonly Dim[] | null): number {
  let n = 1 + int32Size(code);
  if (shape !== null) n += lenFieldSize(shapeSize(shape));
  return n;
}

function shapeSize(shape: readonly Dim[]): number {
  let n = 0;
  for (let i = 0; i < shape.length; i++) n += lenFieldSize(dimSize(shape[i]!));
  return n;
}

/** TensorShapeProto.Dimension: dim_value, dim_param, or neither (an interval or unknown dim). */
function dimSize(d: Dim): number {
  if (typeof d === 'number') return 1 + int64Size(d);
  if (d !== null && 'sym' in d) return lenFieldSize(stringSize(d.sym));
  return 0;
}

/** Writes the TypeProto of `t` (tensorTypeSize(t) ≥ 0) as field `field`. */
export function writeTensorType(w: ProtoWriter, field: number, t: ValueType & { kind: 'tensor' | 'sparse_tensor' }): void {
  const code = t.elem === 'dynamic' ? 0 : elementType(t.elem).onnx!;
  const body = tensorBodySize(code, t.shape);
  w.tag(field, LEN).varint(lenFieldSize(body));
  w.tag(t.kind === 'tensor' ? 1 : 8, LEN).varint(body);
  w.tag(1, VARINT).int32(code);
  if (t.shape === null) return;
  w.tag(2, LEN).varint(shapeSize(t.shape));
  for (let i = 0; i < t.shape.length; i++) {
    const d = t.shape[i]!;
    w.tag(1, LEN).varint(dimSize(d));
    if (typeof d === 'number') w.int64Field(1, d);
    else if (d !== null && 'sym' in d) w.stringField(2, d.sym);
  }
}

/**
 * A ValueInfoProto of a name and a type (null: none written), as field `field`. Only for values
 * without doc_string, metadata or a TypeProto kept from the file, whose type is null or sized by
 * tensorTypeSize (`typeSize`, -1 for none).
 */
export function writeValueInfo(w: ProtoWriter, field: number, name: string, t: ValueType | null, typeSize: number): void {
  let n = lenFieldSize(stringSize(name));
  if (t !== null && typeSize >= 0) n += lenFieldSize(typeSize);
  w.tag(field, LEN).varint(n).stringField(1, name);
  if (t !== null && typeSize >= 0) writeTensorType(w, 2, t as ValueType & { kind: 'tensor' | 'sparse_tensor' });
}

/**
 * A NodeProto with no attribute, body, doc_string, overload, metadata or device configuration
 * (most nodes), as GraphProto.node (field 1): `names` holds its `nIn` input names, then its output
 * names (up to names.length: the caller's reused scratch list); name, op_type, domain.
 */
export function writePlainNode(w: ProtoWriter, names: readonly string[], nIn: number, nAll: number, name: string, op: string, domain: string): void {
  let n = lenFieldSize(stringSize(op));
  for (let i = 0; i < nAll; i++) n += lenFieldSize(stringSize(names[i]!));
  if (name) n += lenFieldSize(stringSize(name));
  if (domain) n += lenFieldSize(stringSize(domain));
  w.tag(1, LEN).varint(n);
  for (let i = 0; i < nAll; i++) w.stringField(i < nIn ? 1 : 2, names[i]!);
  if (name) w.stringField(3, name);
  w.stringField(4, op);
  if (domain) w.stringField(7, domain);
}
