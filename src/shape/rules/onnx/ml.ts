import { attrInt, attrStrings, attrTensor, attrInts, attrFloats } from '../../../graph/attr-read.js';
import type { ElementTypeName } from '../../../graph/element-type.js';
import { isStatic, isSymbol, type Dim } from '../../../graph/shape.js';
import { out, type InferFn, type Rule, type RuleContext } from '../../rule.js';

/**
 * ai.onnx.ml ops (onnx/defs/traditionalml), each after onnx's inference function:
 * - ArrayFeatureExtractor-1: X's type; rank ≥ 2: X's dims but the last, then the count of indices
 *   (the product of Y's dims; a single symbolic dim among 1s is kept; unknown otherwise). A rank-1
 *   X is left without a shape, as onnx leaves it.
 * - Binarizer-1: X's type and shape.
 * - LabelEncoder: X's shape; the element type of the values (values_tensor's, else values_strings
 *   string, values_int64s int64, values_floats float); opset 1 maps strings to int64 and back.
 * - TreeEnsemble-5: X [N, F] → [N, n_targets] of X's type.
 */
const arrayFeatureExtractor: InferFn = (c) => {
  const x = c.shape(0);
  if (x === null || x.length < 2) return [out(c.elem(0), null)];
  const y = c.shape(1);
  let last: Dim = null;
  if (y !== null && y.length > 0) {
    let count = 1;
    let symbol: Dim | undefined;
    let known = true;
    for (const d of y) {
      if (isStatic(d)) count *= d;
      else if (isSymbol(d) && symbol === undefined) symbol = d;
      else known = false;
    }
    if (known) last = symbol === undefined ? count : count === 1 ? symbol : null;
  }
  return [out(c.elem(0), [...x.slice(0, -1), last])];
};

function labelValues(c: RuleContext): ElementTypeName | null {
  const t = attrTensor(c.node, 'values_tensor');
  if (t) return t.elem;
  if (attrStrings(c.node, 'values_strings')) return 'string';
  if (attrInts(c.node, 'values_int64s')) return 'i64';
  if (attrFloats(c.node, 'values_floats')) return 'f32';
  return null;
}

const labelEncoder: InferFn = (c) => {
  if (c.version < 2) {
    const x = c.elem(0);
    return [out(x === 'string' ? 'i64' : x === 'i64' ? 'string' : 'dynamic', c.shape(0))];
  }
  const elem = labelValues(c);
  if (elem === null) { c.error('none of values_tensor, values_strings, values_int64s, values_floats is set'); return [out('dynamic', c.shape(0))]; }
  return [out(elem, c.shape(0))];
};

const treeEnsemble: InferFn = (c) => {
  const x = c.shape(0);
  if (x !== null && x.length !== 2) { c.error(`X must have rank 2, not ${x.length}`); return [out(c.elem(0), null)]; }
  const targets = attrInt(c.node, 'n_targets');
  return [out(c.elem(0), [x === null ? null : x[0]!, targets === undefined ? null : Number(targets)])];
};

const ML = 'ai.onnx.ml';
export const onnxMlRules: Rule[] = [
  { dialect: 'onnx', domain: ML, op: 'ArrayFeatureExtractor', since: 1, infer: arrayFeatureExtractor },
  { dialect: 'onnx', domain: ML, op: 'Binarizer', since: 1, infer: (c) => [out(c.elem(0), c.shape(0))] },
  { dialect: 'onnx', domain: ML, op: 'LabelEncoder', since: 1, infer: labelEncoder },
  { dialect: 'onnx', domain: ML, op: 'TreeEnsemble', since: 5, infer: treeEnsemble },
];
