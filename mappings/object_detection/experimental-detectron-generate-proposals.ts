import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, irOnly, never, on, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { decodeBoxDeltas } from './box-deltas.js';
import { asF32, f32Const } from './nms-rows.js';

/**
 * ExperimentalDetectronGenerateProposalsSingleImage-6 (Mask R-CNN IRs) as ONNX ops, following
 * OpenVINO's CPU plugin (experimental_detectron_generate_proposals_single_image.cpp). Inputs
 * im_info [3] (H, W, scale), anchors [H·W·A, 4], deltas [4A, H, W], scores [A, H, W]. For each
 * cell and anchor (order h, w, a): the anchor moved by the deltas with +1 sizes (w = x1 − x0 + 1,
 * centre x0 + w/2, d log w at most log(1000/16), x1 = centre + w'/2 − 1), clipped to
 * [0, W − 1] × [0, H − 1], its score zeroed when narrower or lower than min_size; the
 * pre_nms_count best (TopK); greedy NMS, IoU > nms_threshold without an offset (ONNX
 * NonMaxSuppression as it is), up to post_nms_count; rois [post_nms_count, 4] and their scores,
 * zeros after the kept ones, as the plugin writes them.
 */
function generateProposalsToOnnx(c: ConvertContext): void {
  const minSize = c.attr.float('min_size') ?? 0;
  const nmsThreshold = c.attr.float('nms_threshold') ?? 0.7;
  const pre = c.attr.int('pre_nms_count') ?? 1000n;
  const post = c.attr.int('post_nms_count') ?? 1000n;
  if (pre <= 0n || post <= 0n) { c.unsupportedAttr(pre <= 0n ? 'pre_nms_count' : 'post_nms_count', String(pre <= 0n ? pre : post), 'must be positive'); return; }
  if (c.opset < 11) { c.error(`ExperimentalDetectronGenerateProposalsSingleImage is written with ONNX ScatterND and TopK-11 (opset 11 or later; target ${c.opset})`); return; }
  const info = asF32(c, 0);
  const anchors = asF32(c, 1); // [H·W·A, 4]
  const deltas = asF32(c, 2); // [4A, H, W]
  const scores = asF32(c, 3); // [A, H, W]
  const at = (v: Value, i: bigint): Value => on(c, 'Gather', [v, i64Scalar(c, i)], { axis: A.int(-1) });
  const op = (name: string, a: Value, b: Value): Value => on(c, name, [a, b]);
  const one = f32Const(c, 1, []);
  const half = f32Const(c, 0.5, []);
  const imgH = at(info, 0n);
  const imgW = at(info, 1n);
  // deltas [4A, H, W] → [H·W·A, 4]; scores [A, H, W] → [H·W·A]
  const d = on(c, 'Reshape', [on(c, 'Transpose', [on(c, 'Reshape', [deltas, on(c, 'Concat', [i64Const(c, [-1n, 4n]), on(c, 'Slice', [on(c, 'Shape', [deltas]), i64Const(c, [1n]), i64Const(c, [3n])])], { axis: A.int(0) })])], { perm: A.ints([2n, 3n, 0n, 1n]) }), i64Const(c, [-1n, 4n])]);
  const s = on(c, 'Reshape', [on(c, 'Transpose', [scores], { perm: A.ints([1n, 2n, 0n]) }), i64Const(c, [-1n])]);
  const anchor = [0n, 1n, 2n, 3n].map((k) => at(anchors, k)) as [Value, Value, Value, Value];
  const delta = [0n, 1n, 2n, 3n].map((k) => at(d, k)) as [Value, Value, Value, Value];
  const { cx, cy, w: pw, h: ph } = decodeBoxDeltas(c, anchor, delta, one);
  const clamp = (v: Value, hi: Value): Value => op('Max', f32Const(c, 0, []), op('Min', v, hi));
  const wLim = op('Sub', imgW, one);
  const hLim = op('Sub', imgH, one);
  const bx0 = clamp(op('Sub', cx, op('Mul', half, pw)), wLim);
  const by0 = clamp(op('Sub', cy, op('Mul', half, ph)), hLim);
  const bx1 = clamp(op('Sub', op('Add', cx, op('Mul', half, pw)), one), wLim);
  const by1 = clamp(op('Sub', op('Add', cy, op('Mul', half, ph)), one), hLim);
  const atLeast = (v: Value, lo: number): Value => on(c, 'Not', [op('Less', v, f32Const(c, lo, []))]);
  const big = on(c, 'And', [atLeast(op('Add', op('Sub', bx1, bx0), one), minSize), atLeast(op('Add', op('Sub', by1, by0), one), minSize)]);
  const score = on(c, 'Where', [big, s, f32Const(c, 0, [])]); // [P]
  const boxes = on(c, 'Concat', [bx0, by0, bx1, by1].map((v) => unsqueeze(c, v, [1n])), { axis: A.int(1) }); // [P, 4]
  const p = on(c, 'Shape', [score]);
  const [topScores, topIdx] = c.emit('TopK', [score, op('Min', p, i64Const(c, [pre]))], { axis: A.int(0), largest: A.int(1), sorted: A.int(1) }, 2);
  const topBoxes = on(c, 'Gather', [boxes, topIdx!], { axis: A.int(0) }); // [k, 4]
  const sel = on(c, 'NonMaxSuppression', [unsqueeze(c, topBoxes, [0n]), unsqueeze(c, topScores!, [0n, 1n]), i64Const(c, [post]), f32Const(c, nmsThreshold)]);
  const kept = on(c, 'Gather', [sel, i64Scalar(c, 2n)], { axis: A.int(1) }); // [K]: NMS lists them best first
  const k = on(c, 'Shape', [kept]);
  const slot = unsqueeze(c, on(c, 'Range', [i64Scalar(c, 0n), on(c, 'Squeeze', [k]), i64Scalar(c, 1n)]), [1n]); // [K, 1]
  const zeros = (shape: bigint[]): Value => on(c, 'Expand', [f32Const(c, 0, []), i64Const(c, shape)]);
  const rois = on(c, 'ScatterND', [zeros([post, 4n]), slot, on(c, 'Gather', [topBoxes, kept], { axis: A.int(0) })]);
  const roiScores = on(c, 'ScatterND', [zeros([post]), slot, on(c, 'Gather', [topScores!, kept], { axis: A.int(0) })]);
  const elem = c.elem(1) ?? 'f32';
  c.output(0, elem === 'f32' ? rois : cast(c, rois, elem));
  c.output(1, elem === 'f32' ? roiScores : cast(c, roiScores, elem));
}

export const EXPERIMENTAL_DETECTRON_GENERATE_PROPOSALS: readonly OpMapping[] = [
  {
    onnx: { op: 'NonMaxSuppression', since: 11 },
    ir: { op: 'ExperimentalDetectronGenerateProposalsSingleImage', version: 'opset6' },
    when: never,
    handles: { ir: ['min_size', 'nms_threshold', 'pre_nms_count', 'post_nms_count'] },
    note: 'the anchors moved by the deltas, clipped, TopK, ONNX NonMaxSuppression and zero rows to post_nms_count, as OpenVINO\'s CPU plugin',
    toIr: irOnly,
    toOnnx: generateProposalsToOnnx,
  },
];
