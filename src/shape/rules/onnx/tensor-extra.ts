import { out, type Rule } from '../../rule.js';

/**
 * ONNX ops of the tensor / detection families the other rule files do not cover, after onnx's
 * inference functions: NonMaxSuppression (selected_indices: [?, 3] int64).
 */
export const onnxTensorExtraRules: Rule[] = [
  { dialect: 'onnx', op: 'NonMaxSuppression', since: 10, infer: () => [out('i64', [null, 3])] },
];
