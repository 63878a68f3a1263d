import { tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedTensor } from '../typed-consts.js';

/**
 * ai.onnx.ml OneHotEncoder with cats_int64s (OpenVINO has no op): Y [..., categories] float, 1 at
 * the category of each element of X, as onnxruntime (onehotencoder.cc) computes it: float and
 * double X truncated to int64 first; a category listed twice counts at its last position (the
 * later index overwrites the map). An element of no category gives a row of zeros; with zeros = 0
 * onnxruntime fails the run instead (the IR has no way to fail a run: the row stays zeros).
 * cats_strings: IR has no strings, refused.
 */
function oneHotEncoder(c: ConvertContext): void {
  if ((c.attr.strings('cats_strings')?.length ?? 0) > 0) { c.unsupportedAttr('cats_strings', 'strings', 'OpenVINO IR has no string element type'); return; }
  const cats = c.attr.ints('cats_int64s') ?? [];
  if (!cats.length) { c.error('cats_int64s is required (one category at least)'); return; }
  const elem = c.elem(0);
  if (elem !== 'f32' && elem !== 'f64' && elem !== 'i64' && elem !== 'i32') { c.error(`X of ${elem ?? 'unknown type'}: X is int64, int32, float or double`); return; }
  const nb = { auto_broadcast: 'numpy' };
  const one = (op: string, inputs: (Value | null)[], attrs: Record<string, string> = nb): Value => c.emit(op, inputs, attrs, 1, 'opset1')[0]!;
  let x = c.input(0)!;
  if (elem === 'f32' || elem === 'f64') {
    // C++'s cast truncates toward zero
    const zero = c.constant(typedTensor(elem, [0], [])!);
    x = one('Select', [one('Less', [x, zero]), one('Ceiling', [x], {}), one('Floor', [x], {})]);
  }
  if (elem !== 'i64') x = one('Convert', [x], { destination_type: 'i64' });
  const last = new Map<bigint, number>();
  cats.forEach((k, i) => last.set(k, i));
  const hit = one('Equal', [one('Unsqueeze', [x, i64Const(c, [-1n])], {}), c.constant(tensorFromInt64(cats, [cats.length]))]);
  let y = one('Convert', [hit], { destination_type: 'f32' });
  if (last.size !== cats.length) y = one('Multiply', [y, c.constant(typedTensor('f32', cats.map((k, i) => Number(last.get(k) === i)), [cats.length])!)]);
  c.output(0, y);
}

export const ONE_HOT_ENCODER: readonly OpMapping[] = [
  {
    onnx: { op: 'OneHotEncoder', domain: 'ai.onnx.ml', since: 1 },
    ir: null,
    decomposes: ['Less', 'Ceiling', 'Floor', 'Select', 'Convert', 'Unsqueeze', 'Equal', 'Multiply'],
    handles: { onnx: ['cats_int64s', 'cats_strings', 'zeros'] },
    note: 'IR: Equal(X[..., None], categories) as float (X truncated to int64)',
    toIr: oneHotEncoder,
  },
];
