import { attrInts } from '../../../graph/attr-read.js';
import { dimToJson, isStatic, type Dim } from '../../../graph/shape.js';
import { onnxBroadcast } from '../../broadcast.js';
import { out, type InferFn, type Rule } from '../../rule.js';
import { broadcastOr } from '../common.js';

/**
 * Ops on strings and token ids (onnx/defs/text, nn), each after onnx's inference function:
 * - StringNormalizer-10: string, [C] → [?] and [1, C] → [1, ?] (stopwords may drop any count).
 * - TfIdfVectorizer-9: float, [C] → [max(ngram_indexes) + 1], [N, C] → [N, max + 1].
 * - StringSplit-20: Y string, X's shape + [?] (the most substrings of any element); Z int64, X's shape.
 * - StringConcat-20: string, the broadcast of X and Y. RegexFullMatch-20: bool, X's shape.
 */
const stringNormalizer: InferFn = (c) => {
  const x = c.shape(0);
  if (x === null) return [out('string', null)];
  if (x.length === 1) return [out('string', [null])];
  if (x.length === 2 && (x[0] === 1 || !isStatic(x[0]!))) return [out('string', [x[0]!, null])];
  c.error(`X must be [C] or [1, C], not [${x.map(dimToJson).join(', ')}]`);
  return [out('string', null)];
};

const tfIdfVectorizer: InferFn = (c) => {
  const x = c.shape(0);
  const indexes = attrInts(c.node, 'ngram_indexes');
  if (!indexes || indexes.length === 0 || indexes.some((i) => i < 0n)) {
    c.error('ngram_indexes must be non-empty with no negative values');
    return [out('f32', null)];
  }
  const width = Number(indexes.reduce((a, b) => (b > a ? b : a))) + 1;
  if (x === null) return [out('f32', null)];
  if (x.length === 1) return [out('f32', [width])];
  if (x.length === 2) return [out('f32', [x[0]!, width])];
  c.error(`X must have rank 1 or 2, not ${x.length}`);
  return [out('f32', null)];
};

const stringSplit: InferFn = (c) => {
  const x = c.shape(0);
  return [out('string', x === null ? null : [...x, null as Dim]), out('i64', x)];
};

export const onnxTextRules: Rule[] = [
  { dialect: 'onnx', op: 'StringNormalizer', since: 10, infer: stringNormalizer },
  { dialect: 'onnx', op: 'TfIdfVectorizer', since: 9, infer: tfIdfVectorizer },
  { dialect: 'onnx', op: 'StringSplit', since: 20, infer: stringSplit },
  { dialect: 'onnx', op: 'StringConcat', since: 20, infer: (c) => [out('string', broadcastOr(c, onnxBroadcast([c.shape(0), c.shape(1)])))] },
  { dialect: 'onnx', op: 'RegexFullMatch', since: 20, infer: (c) => [out('boolean', c.shape(0))] },
];
