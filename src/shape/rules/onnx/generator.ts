import { attrInt } from '../../../graph/attr-read.js';
import { fromOnnxDataType, type ElementTypeName } from '../../../graph/element-type.js';
import { out, type InferFn, type Rule, type RuleContext } from '../../rule.js';
import { family, intsAttr } from '../common.js';

/**
 * ONNX generators and sequence queries: random tensors (shape from an attribute or from the
 * input, dtype from `dtype` or the input), EyeLike, SequenceLength.
 */
function dtype(c: RuleContext, fallback: ElementTypeName): ElementTypeName {
  const d = attrInt(c.node, 'dtype');
  if (d === undefined) return fallback;
  const t = fromOnnxDataType(Number(d));
  if (!t) { c.error(`unknown dtype ${d}`); return 'dynamic'; }
  return t.name;
}

const like: InferFn = (c) => [out(dtype(c, c.elem(0)), c.shape(0))];
const fromAttr: InferFn = (c) => [out(dtype(c, 'f32'), intsAttr(c, 'shape') ?? null)];
/** Multinomial: [batch_size, sample_size] class indices of `dtype` (default int32). */
const multinomial: InferFn = (c) => {
  const x = c.shape(0);
  if (x !== null && x.length !== 2) c.error(`Multinomial takes [batch_size, class_size] input (rank ${x.length})`);
  return [out(dtype(c, 'i32'), [x?.[0] ?? null, Number(attrInt(c.node, 'sample_size') ?? 1n)])];
};

export const onnxGeneratorRules: Rule[] = [
  ...family('onnx', ['RandomUniformLike', 'RandomNormalLike', 'Bernoulli', 'EyeLike'], 1, like),
  ...family('onnx', ['RandomUniform', 'RandomNormal'], 1, fromAttr),
  { dialect: 'onnx', op: 'Multinomial', since: 7, infer: multinomial },
  { dialect: 'onnx', op: 'SequenceLength', since: 11, infer: () => [out('i64', [])] },
];
