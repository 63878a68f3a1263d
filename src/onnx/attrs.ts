import type { Attr } from '../graph/attr.js';
import type { Tensor } from '../graph/tensor.js';
import type { ValueType } from '../graph/types.js';
import type { AttributeProto, GraphProto, TensorProto, TypeProto } from './proto-types.js';
import { AttrType, T } from './schema.js';
import { decodeTensor, encodeTensor, type TensorContext } from './tensor-data.js';
import { typeFromProto, typeToProto } from './value-type.js';
import { decodeMessage, encodeMessage, has, int64, list, str } from './wire.js';

/**
 * AttributeProto ↔ Attr. Typed kinds map one to one (INT/INTS as bigint, STRING as UTF-8 text).
 * GRAPH attributes are not attributes but bodies: `decodeAttr` returns them separately. Kinds we
 * only carry through — SPARSE_TENSOR(S), GRAPHS, function attribute references (ref_attr_name),
 * strings that are not UTF-8, TYPE_PROTO(S) a ValueType cannot hold exactly — become `raw` with
 * the encoded AttributeProto in `bytes`, and are written back exactly.
 */
const NAMES: Record<number, string> = Object.fromEntries(Object.entries(AttrType).map(([k, v]) => [v, k]));
const utf8 = new TextDecoder('utf-8', { fatal: true });
const enc = new TextEncoder();

/** The declared type, or (old models without `type`) the kind implied by the field that is set. */
function kindOf(a: AttributeProto): number {
  const t = Number(a.type ?? 0);
  if (t !== 0) return t;
  const order: [string, number][] = [
    ['f', AttrType.FLOAT], ['i', AttrType.INT], ['s', AttrType.STRING], ['t', AttrType.TENSOR], ['g', AttrType.GRAPH],
    ['sparse_tensor', AttrType.SPARSE_TENSOR], ['tp', AttrType.TYPE_PROTO],
  ];
  for (const [f, k] of order) if (has(a, f)) return k;
  const lists: [string, number][] = [
    ['floats', AttrType.FLOATS], ['ints', AttrType.INTS], ['strings', AttrType.STRINGS], ['tensors', AttrType.TENSORS],
    ['graphs', AttrType.GRAPHS], ['sparse_tensors', AttrType.SPARSE_TENSORS], ['type_protos', AttrType.TYPE_PROTOS],
  ];
  for (const [f, k] of lists) if (list(a, f).length) return k;
  return 0;
}

/** Each value field of AttributeProto, the type it belongs to, and whether it is a list. */
const FIELDS: readonly (readonly [string, number, boolean])[] = [
  ['f', AttrType.FLOAT, false], ['i', AttrType.INT, false], ['s', AttrType.STRING, false], ['t', AttrType.TENSOR, false],
  ['g', AttrType.GRAPH, false], ['sparse_tensor', AttrType.SPARSE_TENSOR, false], ['tp', AttrType.TYPE_PROTO, false],
  ['floats', AttrType.FLOATS, true], ['ints', AttrType.INTS, true], ['strings', AttrType.STRINGS, true], ['tensors', AttrType.TENSORS, true],
  ['graphs', AttrType.GRAPHS, true], ['sparse_tensors', AttrType.SPARSE_TENSORS, true], ['type_protos', AttrType.TYPE_PROTOS, true],
];

/**
 * onnx.checker's check_attribute: a value field set that is not the declared type's ("type field
 * and data field mismatch"), or more than one value field set, is an invalid attribute (none set
 * is the type's default value). onnxruntime refuses such a model; read by its type, an INT
 * holding only a string would be 0, a default the model never said.
 */
function fieldProblem(a: AttributeProto, declared: number): string | null {
  let used = 0;
  for (const [f, k, many] of FIELDS) {
    if (many ? list(a, f).length === 0 : !has(a, f)) continue;
    used++;
    if (declared !== 0 && declared !== k) return `its type is ${NAMES[declared] ?? declared} but it holds a ${NAMES[k]} value (field '${f}')`;
  }
  return used > 1 ? 'it holds more than one value field' : null;
}

export type DecodedAttr =
  | { kind: 'attr'; attr: Attr }
  | { kind: 'graph'; graph: GraphProto }
  | { kind: 'error' };

export function decodeAttr(a: AttributeProto, ctx: TensorContext): DecodedAttr {
  const name = str(a, 'name');
  const kind = kindOf(a);
  const raw = (): DecodedAttr => ({
    kind: 'attr',
    attr: { type: 'raw', value: `AttributeProto ${NAMES[kind] ?? kind}${str(a, 'ref_attr_name') ? ` ref ${str(a, 'ref_attr_name')}` : ''}`, bytes: encodeMessage(T.AttributeProto, a) },
  });
  if (str(a, 'ref_attr_name') !== '') return raw();
  const problem = fieldProblem(a, Number(a.type ?? 0));
  if (problem !== null) {
    ctx.diags.add('ONNX_BAD_ATTR', ctx.where, { attr: name, detail: problem });
    return { kind: 'error' };
  }
  const tensor = (t: TensorProto | null | undefined): Tensor | null => decodeTensor(t ?? {}, { ...ctx, where: `${ctx.where} (attribute '${name}')` });
  const type = (tp: TypeProto | null | undefined): ValueType | null => {
    const d = typeFromProto(tp ?? {}, `attribute '${name}'`, ctx.where, ctx.diags);
    return d.lossless ? d.type : null;
  };
  switch (kind) {
    case AttrType.FLOAT: return { kind: 'attr', attr: { type: 'float', value: Number(a.f ?? 0) } };
    case AttrType.INT: return { kind: 'attr', attr: { type: 'int', value: int64(a, 'i') } };
    case AttrType.STRING: {
      try { return { kind: 'attr', attr: { type: 'string', value: utf8.decode(a.s ?? new Uint8Array(0)) } }; } catch { return raw(); }
    }
    case AttrType.FLOATS: return { kind: 'attr', attr: { type: 'floats', value: list<number>(a, 'floats').map(Number) } };
    case AttrType.INTS: return { kind: 'attr', attr: { type: 'ints', value: list<bigint>(a, 'ints').map((v) => BigInt(v)) } };
    case AttrType.STRINGS: {
      try { return { kind: 'attr', attr: { type: 'strings', value: list<Uint8Array>(a, 'strings').map((s) => utf8.decode(s)) } }; } catch { return raw(); }
    }
    case AttrType.TENSOR: {
      const t = tensor(a.t);
      return t ? { kind: 'attr', attr: { type: 'tensor', value: t } } : { kind: 'error' };
    }
    case AttrType.TENSORS: {
      const ts = list<TensorProto>(a, 'tensors').map(tensor);
      return ts.every((t) => t) ? { kind: 'attr', attr: { type: 'tensors', value: ts as Tensor[] } } : { kind: 'error' };
    }
    case AttrType.TYPE_PROTO: {
      const t = type(a.tp);
      return t ? { kind: 'attr', attr: { type: 'type', value: t } } : raw();
    }
    case AttrType.TYPE_PROTOS: {
      const ts = list<TypeProto>(a, 'type_protos').map(type);
      return ts.every((t) => t) ? { kind: 'attr', attr: { type: 'types', value: ts as ValueType[] } } : raw();
    }
    case AttrType.GRAPH: return { kind: 'graph', graph: a.g ?? {} };
    case AttrType.GRAPHS: case AttrType.SPARSE_TENSOR: case AttrType.SPARSE_TENSORS: return raw();
    default:
      ctx.diags.add('ONNX_BAD_ATTR', ctx.where, { attr: name, detail: `unknown attribute type ${kind}` });
      return { kind: 'error' };
  }
}

/** AttributeProto for `attr`; the problem when it cannot be written. */
export function encodeAttr(name: string, attr: Attr): { proto: AttributeProto | null; problem?: string } {
  const p = (body: Omit<AttributeProto, 'name'>) => ({ proto: { name, ...body } });
  switch (attr.type) {
    case 'float': return p({ type: AttrType.FLOAT, f: attr.value });
    case 'int': return p({ type: AttrType.INT, i: attr.value });
    case 'bool': return p({ type: AttrType.INT, i: attr.value ? 1n : 0n });
    case 'string': return p({ type: AttrType.STRING, s: enc.encode(attr.value) });
    case 'floats': return p({ type: AttrType.FLOATS, floats: [...attr.value] });
    case 'ints': return p({ type: AttrType.INTS, ints: [...attr.value] });
    case 'strings': return p({ type: AttrType.STRINGS, strings: attr.value.map((s) => enc.encode(s)) });
    case 'tensor': return p({ type: AttrType.TENSOR, t: encodeTensor(attr.value, '') });
    case 'tensors': return p({ type: AttrType.TENSORS, tensors: attr.value.map((t) => encodeTensor(t, '')) });
    case 'type': {
      const t = typeToProto(attr.value);
      return t.proto ? p({ type: AttrType.TYPE_PROTO, tp: t.proto }) : { proto: null, problem: t.problem ?? 'unknown type' };
    }
    case 'types': {
      const ts = attr.value.map(typeToProto);
      const bad = ts.find((t) => !t.proto);
      return bad ? { proto: null, problem: bad.problem ?? 'unknown type' } : p({ type: AttrType.TYPE_PROTOS, type_protos: ts.map((t) => t.proto!) });
    }
    case 'raw': {
      if (!attr.bytes) return { proto: null, problem: `it is an untyped value '${attr.value}' (from IR) with no ONNX form` };
      const a = decodeMessage<AttributeProto>(T.AttributeProto, attr.bytes);
      return { proto: { ...plain(a), name } };
    }
  }
}

/** A decoded message's own fields as a plain object (so spreading keeps them). */
function plain(a: object): AttributeProto {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(a)) out[k] = (a as Record<string, unknown>)[k];
  return out as AttributeProto;
}
