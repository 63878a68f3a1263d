import { out, type Rule } from '../../rule.js';
import { matmulShape } from '../shared.js';
import type { Shape } from '../../../graph/shape.js';
import { onnxBroadcast } from '../../broadcast.js';

/**
 * ONNX ops of the tensor / detection families the other rule files do not cover, after onnx's
 * inference functions: NonMaxSuppression (selected_indices: [?, 3] int64), QLinearMatMul (the
 * MatMul shape of a and b, the type of y_zero_point).
 */
const onnxPair = (x: Shape, y: Shape) => onnxBroadcast([x, y]);

export const onnxTensorExtraRules: Rule[] = [
  { dialect: 'onnx', op: 'NonMaxSuppression', since: 10, infer: () => [out('i64', [null, 3])] },
  { dialect: 'onnx', op: 'QLinearMatMul', since: 10, infer: (c) => [out(c.elem(7), matmulShape(c, c.shape(0), c.shape(3), false, false, onnxPair))] },
];
