import type { ElementTypeName } from '../../src/graph/element-type.js';
import { readFloats, readIntegers, tensorFromInt64, type Tensor } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedTensor } from '../typed-consts.js';

/**
 * ai.onnx.ml LabelEncoder (OpenVINO has no op) with numeric keys and values: each element of X
 * becomes the value of the key it equals, else the default. IR: with the keys K and values V as
 * constants, eq = (X[..., None] == K) (a NaN key matches NaN, as onnxruntime's map does), the
 * position Σ eq · [0, 1, …, n−1] (keys are distinct: duplicates are refused, engines disagree on
 * which wins), and Y = Select(any(eq), V[position], default). Keys or values of strings are
 * refused: OpenVINO IR has no string element type (LabelEncoder-1 maps strings only).
 * Default: default_tensor, else default_int64 (−1) for integer values, default_float (−0) for floats.
 */
interface Numbers { readonly elem: ElementTypeName; readonly values: readonly (number | bigint)[]; readonly attr: string }

function numbersOf(c: ConvertContext, side: 'keys' | 'values'): Numbers | null | 'strings' {
  const t = c.attr.tensor(`${side}_tensor`);
  if (t) return t.elem === 'string' ? 'strings' : { elem: t.elem, values: t.elem === 'i64' ? readIntegers(t) : readFloats(t), attr: `${side}_tensor` };
  if (c.attr.strings(`${side}_strings`)) return 'strings';
  const ints = c.attr.ints(`${side}_int64s`);
  if (ints) return { elem: 'i64', values: ints, attr: `${side}_int64s` };
  const floats = c.attr.floats(`${side}_floats`);
  if (floats) return { elem: 'f32', values: floats, attr: `${side}_floats` };
  return null;
}

const constOf = (c: ConvertContext, elem: ElementTypeName, values: readonly (number | bigint)[], dims: number[]): Value | null => {
  const t: Tensor | null = elem === 'i64' ? tensorFromInt64(values, dims) : typedTensor(elem, values.map(Number), dims);
  return t ? c.constant(t) : null;
};

function labelEncoder(c: ConvertContext): void {
  if (c.opset < 2) { c.unsupportedAttr(c.attr.has('classes_strings') ? 'classes_strings' : 'default_string', 'strings', 'LabelEncoder-1 maps strings to int64 and back: OpenVINO IR has no string element type'); return; }
  const keys = numbersOf(c, 'keys');
  const values = numbersOf(c, 'values');
  if (keys === 'strings' || values === 'strings') {
    const attr = ['keys_strings', 'values_strings', 'keys_tensor', 'values_tensor'].find((a) => c.attr.has(a) && (a.endsWith('strings') || c.attr.tensor(a)?.elem === 'string'))!;
    c.unsupportedAttr(attr, 'strings', 'OpenVINO IR has no string element type');
    return;
  }
  if (!keys || !values) { c.error(`LabelEncoder needs one of keys_* and one of values_* (${!keys ? 'no keys' : 'no values'})`); return; }
  const n = keys.values.length;
  if (n === 0 || values.values.length !== n) { c.error(`LabelEncoder has ${n} keys and ${values.values.length} values: they must be as many, at least one`); return; }
  if (c.elem(0) !== keys.elem) { c.error(`X is ${c.elem(0) ?? 'of unknown type'} and the keys (${keys.attr}) ${keys.elem}: they must be the same type`); return; }
  const seen = new Set<string>();
  for (const k of keys.values) {
    const s = typeof k === 'number' && Number.isNaN(k) ? 'NaN' : String(k);
    if (seen.has(s)) { c.unsupportedAttr(keys.attr, s, 'a key appears twice: engines differ on which value it maps to'); return; }
    seen.add(s);
  }
  let dflt: number | bigint;
  const dt = c.attr.tensor('default_tensor');
  if (dt) {
    if (dt.elem !== values.elem || dt.dims.length !== 1 || dt.dims[0] !== 1) { c.unsupportedAttr('default_tensor', `${dt.elem}[${dt.dims.join(',')}]`, `must be a 1-element ${values.elem} tensor`); return; }
    dflt = (dt.elem === 'i64' ? readIntegers(dt) : readFloats(dt))[0]!;
  } else {
    dflt = values.elem === 'f32' || values.elem === 'f64' || values.elem === 'f16' ? c.attr.float('default_float', -0) : c.attr.int('default_int64', -1n);
  }
  const kc = constOf(c, keys.elem, keys.values, [n]);
  const vc = constOf(c, values.elem, values.values, [n]);
  const dc = constOf(c, values.elem, [dflt], []);
  if (!kc || !vc || !dc) { c.error(`LabelEncoder of ${keys.elem} keys to ${values.elem} values: no constant of that type is built`); return; }
  const nb = { auto_broadcast: 'numpy' };
  const one = (op: string, inputs: (Value | null)[], attrs: Record<string, string>, version = 'opset1'): Value => c.emit(op, inputs, attrs, 1, version)[0]!;
  const x = one('Unsqueeze', [c.input(0), i64Const(c, [-1n])], {});
  let eq = one('Equal', [x, kc], nb);
  const nanKeys = keys.values.map((k) => typeof k === 'number' && Number.isNaN(k));
  if (nanKeys.some(Boolean)) {
    const mask = c.constant(typedTensor('boolean', nanKeys.map(Number), [n])!);
    eq = one('Select', [mask, one('IsNaN', [x], {}, 'opset10'), eq], nb);
  }
  const iota = c.constant(tensorFromInt64(Array.from({ length: n }, (_, i) => i), [n]));
  const position = one('ReduceSum', [one('Select', [eq, iota, i64Scalar(c, 0n)], nb), i64Const(c, [-1n])], { keep_dims: 'false' });
  const found = one('ReduceLogicalOr', [eq, i64Const(c, [-1n])], { keep_dims: 'false' });
  const mapped = one('Gather', [vc, position, i64Scalar(c, 0n)], { batch_dims: '0' }, 'opset8');
  c.output(0, one('Select', [found, mapped, dc], nb));
}

export const LABEL_ENCODER: readonly OpMapping[] = [
  {
    onnx: { op: 'LabelEncoder', domain: 'ai.onnx.ml', since: 1 },
    ir: null,
    decomposes: ['Unsqueeze', 'Equal', 'IsNaN', 'Select', 'ReduceSum', 'ReduceLogicalOr', 'Gather'],
    handles: { onnx: ['classes_strings', 'keys_tensor', 'keys_strings', 'keys_int64s', 'keys_floats', 'values_tensor', 'values_strings', 'values_int64s', 'values_floats', 'default_tensor', 'default_int64', 'default_float', 'default_string'] },
    note: 'IR: eq = X[..., None] == keys; Select(any(eq), values[Σ eq · iota], default); string keys or values refused',
    toIr: labelEncoder,
  },
];
