import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedTensor } from '../typed-consts.js';

/**
 * ai.onnx.ml FeatureVectorizer (OpenVINO has no op): the inputs' rows side by side as float
 * [N, Σ inputdimensions], as onnxruntime (feature_vectorizer.cc) computes it: each input flattened
 * to [N, -1] (a 1-D input is one row), its first inputdimensions[i] values, zero-padded where it
 * has fewer.
 */
function featureVectorizer(c: ConvertContext): void {
  const dims = c.attr.ints('inputdimensions') ?? [];
  if (dims.length !== c.numInputs) { c.error(`inputdimensions has ${dims.length} values for ${c.numInputs} inputs`); return; }
  const one = (op: string, inputs: (Value | null)[], attrs: Record<string, string> = {}, version = 'opset1'): Value => c.emit(op, inputs, attrs, 1, version)[0]!;
  const parts: Value[] = [];
  let batch: Value | null = null;
  for (let i = 0; i < c.numInputs; i++) {
    const elem = c.elem(i);
    const rank = c.rank(i);
    const d = Number(dims[i]!);
    if (elem !== 'f32' && elem !== 'f64' && elem !== 'i64' && elem !== 'i32') { c.error(`input ${i} of ${elem ?? 'unknown type'}: inputs are int32, int64, float or double`); return; }
    if (rank === null || rank < 1) { c.error(`input ${i} needs a rank of at least 1; its rank is ${rank ?? 'unknown'}`); return; }
    let x = c.input(i)!;
    if (elem !== 'f32') x = one('Convert', [x], { destination_type: 'f32' });
    x = one('Reshape', [x, i64Const(c, rank === 1 ? [1n, -1n] : [0n, -1n])], { special_zero: 'true' });
    const t = c.type(i);
    const width = t?.kind === 'tensor' && t.shape ? (rank === 1 ? t.shape[0] : t.shape.slice(1).reduce<number | null>((a, b) => (a === null || typeof b !== 'number' ? null : a * b), 1)) : null;
    if (width !== d) {
      batch ??= one('Gather', [one('ShapeOf', [x], { output_type: 'i64' }, 'opset3'), i64Const(c, [0n]), i64Scalar(c, 0n)], { batch_dims: '0' }, 'opset8');
      const zeros = one('Broadcast', [c.constant(typedTensor('f32', [0], [])!), one('Concat', [batch, i64Const(c, [BigInt(d)])], { axis: '0' })], { mode: 'numpy' }, 'opset3');
      const padded = one('Concat', [x, zeros], { axis: '1' });
      x = one('Slice', [padded, i64Const(c, [0n]), i64Const(c, [BigInt(d)]), i64Const(c, [1n]), i64Const(c, [1n])], {}, 'opset8');
    }
    parts.push(x);
  }
  c.output(0, parts.length === 1 ? parts[0]! : one('Concat', parts, { axis: '1' }));
}

export const FEATURE_VECTORIZER: readonly OpMapping[] = [
  {
    onnx: { op: 'FeatureVectorizer', domain: 'ai.onnx.ml', since: 1 },
    ir: null,
    decomposes: ['Convert', 'Reshape', 'ShapeOf', 'Gather', 'Broadcast', 'Concat', 'Slice'],
    handles: { onnx: ['inputdimensions'] },
    note: 'IR: the inputs as float rows [N, -1], cut or zero-padded to inputdimensions, concatenated',
    toIr: featureVectorizer,
  },
];
