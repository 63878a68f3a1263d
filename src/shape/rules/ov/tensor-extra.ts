import { ovAutoBroadcast, ovNumpyBroadcast } from '../../broadcast.js';
import { interval, isStatic, type Dim } from '../../../graph/shape.js';
import { dimRange } from '../../dim.js';
import { out, type InferFn, type Rule, type RuleContext } from '../../rule.js';
import { fromIrElementType } from '../../../graph/element-type.js';
import { broadcastOr, family, intAttr, strAttr } from '../common.js';
import { mergeElem } from './elementwise.js';

/**
 * OpenVINO ops of the tensor / indexing / detection / generator families that the other rule
 * files do not cover, each after the op's shape_infer: BitwiseLeftShift-15 / BitwiseRightShift-15
 * (binary elementwise with auto_broadcast), NonMaxSuppression-5/9, MulticlassNms-8/9, MatrixNms-8, Proposal-1/4,
 * ExperimentalDetectronTopKROIs-6, ExperimentalDetectronPriorGridGenerator-6,
 * ExperimentalDetectronGenerateProposalsSingleImage-6,
 * FakeConvert-13.
 */
const shift: InferFn = (c) => {
  const elem = mergeElem(c, c.elem(0), c.elem(1));
  return [out(elem, broadcastOr(c, ovAutoBroadcast(strAttr(c, 'auto_broadcast', 'numpy'), c.shape(0), c.shape(1), intAttr(c, 'axis', -1))))];
};

/**
 * NonMaxSuppression-5/9: selected indices and scores [rows, 3], valid_outputs [1]. As OpenVINO's
 * nms shape_infer: with a static box count n and a constant max_output_boxes_per_class m, rows is
 * 0..min(n, m), times the largest batch and class counts of scores when its rank is known (an
 * unbounded one: unknown); otherwise unknown.
 */
const nms: InferFn = (c) => {
  const t = fromIrElementType(strAttr(c, 'output_type', 'i64').trim())?.name ?? 'i64';
  return [out(t, [nmsRows(c), 3]), out(c.elem(1), [nmsRows(c), 3]), out(t, [1])];
};

function nmsRows(c: RuleContext): Dim {
  const boxes = c.shape(0);
  const n = boxes && boxes.length > 1 ? boxes[1]! : null;
  const max = c.numInputs > 2 ? c.ints(2) : null;
  if (!isStatic(n) || !max || max.length !== 1 || max[0]! < 0) return null;
  let rows = Math.min(n, max[0]!);
  const scores = c.shape(1);
  if (scores && scores.length > 1) rows *= dimRange(scores[0]!)[1] * dimRange(scores[1]!)[1];
  return rows === Infinity ? null : interval(0, rows);
}

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

/** ExperimentalDetectronTopKROIs-6: [max_rois, 4] of the rois' type. */
const topKRois: InferFn = (c) => [out(c.elem(0), [intAttr(c, 'max_rois', 0), 4])];

/**
 * ExperimentalDetectronPriorGridGenerator-6: [H·W·P, 4] (flatten) or [H, W, P, 4] of the priors'
 * type, H, W the feature map's dims 2, 3 (OpenVINO's shape inference ignores the attributes h, w).
 */
const priorGrid: InferFn = (c) => {
  const p = c.shape(0)?.[0];
  const fm = c.shape(1);
  const num = (d: unknown): number | null => (typeof d === 'number' ? d : null);
  const h = num(fm?.[2]);
  const w = num(fm?.[3]);
  const flatten = strAttr(c, 'flatten', 'true').trim().toLowerCase() !== 'false';
  if (!flatten) return [out(c.elem(0), [h, w, num(p), 4])];
  return [out(c.elem(0), [h !== null && w !== null && typeof p === 'number' ? h * w * p : null, 4])];
};

/** ExperimentalDetectronGenerateProposalsSingleImage-6: rois [post_nms_count, 4], scores [post_nms_count]. */
const generateProposalsSingle: InferFn = (c) => {
  const post = intAttr(c, 'post_nms_count', 0);
  return [out(c.elem(1), [post, 4]), out(c.elem(1), [post])];
};

/** GenerateProposals-9: rois [ΣK, 4], scores [ΣK] of the anchors' type, roi_num [N] of roi_num_type (ΣK at most N · post_nms_count). */
const generateProposals: InferFn = (c) => {
  const t = fromIrElementType(strAttr(c, 'roi_num_type', 'i64').trim())?.name ?? 'i64';
  const n = c.shape(3)?.[0] ?? null;
  return [out(c.elem(1), [null, 4]), out(c.elem(1), [null]), out(t, [n])];
};

/** ExperimentalDetectronROIFeatureExtractor-6: features [R, C, output_size, output_size] of the maps' type, the rois [R, 4]. */
const roiFeatureExtractor: InferFn = (c) => {
  const size = intAttr(c, 'output_size', 0);
  const r = c.shape(0)?.[0] ?? null;
  return [out(c.elem(1), [r, c.shape(1)?.[1] ?? null, size, size]), out(c.elem(0), [r, 4])];
};

/** ExperimentalDetectronDetectionOutput-6: boxes [max_detections_per_image, 4], classes [max] (i32), scores [max] of the rois' type. */
const detectronDetectionOutput: InferFn = (c) => {
  const max = intAttr(c, 'max_detections_per_image', 0);
  return [out(c.elem(0), [max, 4]), out('i32', [max]), out(c.elem(0), [max])];
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
  { dialect: 'ov', op: 'NMSRotated', since: 13, infer: nms },
  { dialect: 'ov', op: 'MulticlassNms', since: 8, infer: detectionNms },
  { dialect: 'ov', op: 'MatrixNms', since: 8, infer: detectionNms },
  { dialect: 'ov', op: 'Proposal', since: 1, infer: proposal },
  { dialect: 'ov', op: 'ExperimentalDetectronTopKROIs', since: 6, infer: topKRois },
  { dialect: 'ov', op: 'ExperimentalDetectronPriorGridGenerator', since: 6, infer: priorGrid },
  { dialect: 'ov', op: 'ExperimentalDetectronGenerateProposalsSingleImage', since: 6, infer: generateProposalsSingle },
  { dialect: 'ov', op: 'GenerateProposals', since: 9, infer: generateProposals },
  { dialect: 'ov', op: 'ExperimentalDetectronDetectionOutput', since: 6, infer: detectronDetectionOutput },
  { dialect: 'ov', op: 'ExperimentalDetectronROIFeatureExtractor', since: 6, infer: roiFeatureExtractor },
  ...family('ov', ['BitwiseLeftShift', 'BitwiseRightShift'], 15, shift),
];
