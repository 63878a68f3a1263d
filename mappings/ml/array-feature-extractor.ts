import { i64Const, i64Scalar } from '../helpers.js';
import type { OpMapping } from '../spec.js';

/**
 * ai.onnx.ml ArrayFeatureExtractor (OpenVINO has no op): the elements of X at the indices Y
 * (flattened) along X's last axis, as onnx's reference computes it: X[..., Y.ravel()], shaped
 * X.shape[:-1] + [Y's element count], a 1-D X as [1, count]. IR: Gather-8 along the last axis
 * of the flattened Y (a negative index counts from the end, as numpy's).
 */
export const ARRAY_FEATURE_EXTRACTOR: readonly OpMapping[] = [
  {
    onnx: { op: 'ArrayFeatureExtractor', domain: 'ai.onnx.ml', since: 1 },
    ir: null,
    decomposes: ['Reshape', 'Gather', 'Unsqueeze'],
    note: 'IR: Gather(X, Reshape(Y, [-1]), axis = -1); a 1-D X unsqueezed to [1, count]',
    toIr: (c) => {
      const rank = c.rank(0);
      if (rank === null) { c.error('ArrayFeatureExtractor needs the rank of X'); return; }
      if (rank === 0) { c.error('X is a scalar: ArrayFeatureExtractor selects along its last axis'); return; }
      if (c.elem(0) === 'string') { c.error('X holds strings, which OpenVINO IR has no element type for'); return; }
      const flat = c.emit('Reshape', [c.input(1), i64Const(c, [-1n])], { special_zero: 'false' }, 1, 'opset1')[0]!;
      const picked = c.emit('Gather', [c.input(0), flat, i64Scalar(c, -1n)], { batch_dims: '0' }, 1, 'opset8')[0]!;
      c.output(0, rank === 1 ? c.emit('Unsqueeze', [picked, i64Const(c, [0n])], {}, 1, 'opset1')[0]! : picked);
    },
  },
];
