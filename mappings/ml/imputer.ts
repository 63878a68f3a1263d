import { tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedTensor } from '../typed-consts.js';

/**
 * ai.onnx.ml Imputer (OpenVINO has no op): X where it is not the replaced value, else the imputed
 * value of its feature (one per feature of X's last axis, else the first for all), as onnxruntime
 * (imputer.cc) computes it: float X with imputed_value_floats / replaced_value_float (a NaN
 * replaced value replaces NaNs), int64 X with imputed_value_int64s / replaced_value_int64.
 */
function imputer(c: ConvertContext): void {
  const elem = c.elem(0);
  const rank = c.rank(0);
  const floats = c.attr.floats('imputed_value_floats') ?? [];
  const ints = c.attr.ints('imputed_value_int64s') ?? [];
  if ((floats.length > 0) === (ints.length > 0)) { c.error('one of imputed_value_floats and imputed_value_int64s must be set, not both'); return; }
  const isFloat = floats.length > 0;
  if (isFloat ? elem !== 'f32' : elem !== 'i64') { c.error(`imputed_value_${isFloat ? 'floats' : 'int64s'} impute ${isFloat ? 'float' : 'int64'} X; X is ${elem ?? 'of unknown type'}`); return; }
  if (rank === null || rank < 1) { c.error(`X needs a rank of at least 1; its rank is ${rank ?? 'unknown'}`); return; }
  const count = isFloat ? floats.length : ints.length;
  const t = c.type(0);
  const stride = t?.kind === 'tensor' && t.shape ? t.shape[rank === 1 ? 0 : 1] : null;
  if (count > 1 && typeof stride !== 'number') { c.error('one imputed value per feature needs X\'s feature dim known'); return; }
  if (count > 1 && rank > 2 && count === stride) { c.error('one imputed value per feature of an X of rank > 2 (onnxruntime cycles them over the flat elements)'); return; }
  const perFeature = count > 1 && count === stride;
  const nb = { auto_broadcast: 'numpy' };
  const one = (op: string, inputs: (Value | null)[], attrs: Record<string, string> = nb, version = 'opset1'): Value => c.emit(op, inputs, attrs, 1, version)[0]!;
  const x = c.input(0)!;
  const dims = perFeature ? [count] : [];
  let values: Value;
  let hit: Value;
  if (isFloat) {
    values = c.constant(typedTensor('f32', perFeature ? floats : [floats[0]!], dims)!);
    const replaced = c.attr.float('replaced_value_float', 0);
    hit = Number.isNaN(replaced) ? one('IsNaN', [x], {}, 'opset10') : one('Equal', [x, c.constant(typedTensor('f32', [replaced], [])!)]);
  } else {
    values = c.constant(tensorFromInt64(perFeature ? ints : [ints[0]!], dims));
    hit = one('Equal', [x, c.constant(tensorFromInt64([c.attr.int('replaced_value_int64', 0n)], []))]);
  }
  c.output(0, one('Select', [hit, values, x]));
}

export const IMPUTER: readonly OpMapping[] = [
  {
    onnx: { op: 'Imputer', domain: 'ai.onnx.ml', since: 1 },
    ir: null,
    decomposes: ['Equal', 'IsNaN', 'Select'],
    handles: { onnx: ['imputed_value_floats', 'imputed_value_int64s', 'replaced_value_float', 'replaced_value_int64'] },
    note: 'IR: Select(X = replaced, imputed, X)',
    toIr: imputer,
  },
];
