import { ovAutoBroadcast, ovNumpyBroadcast } from '../../broadcast.js';
import { out, type InferFn, type Rule } from '../../rule.js';
import { fromIrElementType } from '../../../graph/element-type.js';
import { broadcastOr, family, intAttr, strAttr } from '../common.js';
import { mergeElem } from './elementwise.js';

/**
 * OpenVINO ops of the tensor / indexing / detection / generator families that the other rule
 * files do not cover, each after the op's shape_infer: BitwiseLeftShift-15 / BitwiseRightShift-15
 * (binary elementwise with auto_broadcast), NonMaxSuppression-5/9, MulticlassNms-8/9, MatrixNms-8, Proposal-1/4,
 * FakeConvert-13.
 */
const shift: InferFn = (c) => {
  const elem = mergeElem(c, c.elem(0), c.elem(1));
  return [out(elem, broadcastOr(c, ovAutoBroadcast(strAttr(c, 'auto_broadcast', 'numpy'), c.shape(0), c.shape(1), intAttr(c, 'axis', -1))))];
};

/** NonMaxSuppression-5/9: selected indices and scores [?, 3], valid_outputs [1]. */
const nms: InferFn = (c) => {
  const t = fromIrElementType(strAttr(c, 'output_type', 'i64').trim())?.name ?? 'i64';
  return [out(t, [null, 3]), out(c.elem(1), [null, 3]), out(t, [1])];
};

/**
 * MulticlassNms-8/9, MatrixNms-8: selected_outputs [?, 6] of the boxes' type, selected_indices
 * [?, 1] and valid_outputs [N] in output_type (N: the batch of boxes [N, M, 4], or roisnum's
 * length when the scores are [C, ΣM]).
 */
const detectionNms: InferFn = (c) => {
  const t = fromIrElementType(strAttr(c, 'output_type', 'i64').trim())?.name ?? 'i64';
  const perClass = c.shape(1)?.length === 2;
  const n = perClass ? (c.numInputs > 2 ? c.shape(2)?.[0] ?? null : null) : c.shape(0)?.[0] ?? null;
  return [out(c.elem(0), [null, 6]), out(t, [null, 1]), out(t, [n])];
};

/**
 * Proposal-1/4: rois [N · post_nms_topn, 5] (N the batch of class_probs), Proposal-4's scores
 * [N · post_nms_topn], of class_probs' type.
 */
const proposal: InferFn = (c) => {
  const n = c.shape(0)?.[0];
  const post = intAttr(c, 'post_nms_topn', 0);
  const rows = typeof n === 'number' && post > 0 ? n * post : null;
  return [out(c.elem(0), [rows, 5]), out(c.elem(0), [rows])];
};

/**
 * FakeConvert-13: the data's element type; its shape numpy-broadcast with the scale's, which may
 * refine it but not grow it (2..4 with a scale of 3 is 3, as OpenVINO's broadcast_merge_into).
 */
const fakeConvert: InferFn = (c) => {
  const data = c.shape(0);
  const shape = broadcastOr(c, ovNumpyBroadcast(data, c.shape(1)));
  if (data !== null && shape !== null && shape.length !== data.length) c.error('scale must broadcast into the data (unidirectional)');
  return [out(c.elem(0), data !== null && shape !== null && shape.length !== data.length ? data : shape)];
};

export const ovTensorExtraRules: Rule[] = [
  { dialect: 'ov', op: 'FakeConvert', since: 13, infer: fakeConvert },
  { dialect: 'ov', op: 'NonMaxSuppression', since: 5, infer: nms },
  { dialect: 'ov', op: 'MulticlassNms', since: 8, infer: detectionNms },
  { dialect: 'ov', op: 'MatrixNms', since: 8, infer: detectionNms },
  { dialect: 'ov', op: 'Proposal', since: 1, infer: proposal },
  ...family('ov', ['BitwiseLeftShift', 'BitwiseRightShift'], 15, shift),
];
