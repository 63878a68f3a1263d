import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, dimOf, irOnly, never, on, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { greedyKeep } from './nms-rotated.js';
import { decodeBoxDeltas } from './box-deltas.js';
import { asF32, f32Const } from './nms-rows.js';

/**
 * GenerateProposals-9 (Mask R-CNN heads of OpenVINO's ONNX / PaddlePaddle frontends), which ONNX
 * lacks, as OpenVINO's CPU plugin computes it (generate_proposals.cpp). Per image n: im_info [N, 3|4]
 * (H, W, scale_h[, scale_w]), anchors [H, W, A, 4], deltas [N, 4A, H, W] (per anchor dx, dy,
 * d log w, d log h), scores [N, A, H, W]; with o = 0 when normalized, else 1: each anchor
 * (order h, w, a) moved as Proposal does (w = x1 − x0 + o, centre x0 + w/2, d log at most
 * log(1000/16), x1' = centre + w'/2 − o), clipped to [0, W − o] × [0, H − o]; it counts only when
 * min_size·scale_w ≤ x1 − x0 + o and min_size·scale_h ≤ y1 − y0 + o (the others keep their place in
 * the ranking but are never output nor suppress). The pre_nms_count best by score; greedy NMS, a box
 * suppressed by a kept one when their IoU (sizes + o, 0 unless x0 ≤ x1' and y0 ≤ y1' both ways) is
 * above nms_threshold, up to post_nms_count; rois [ΣK, 4] and scores [ΣK] image after image, roi_num
 * [N] (roi_num_type). The plugin ranks by std::partial_sort, which leaves equal scores in no
 * defined order: here equal scores keep the lower index first.
 *
 * ONNX form: the proposals of all images at once, TopK, the plugin's IoU of every pair in f32 (the
 * same operations), then the greedy selection of nms-rotated.ts (an ONNX Loop over the ranks) and
 * NonZero rows.
 */
function generateProposalsToOnnx(c: ConvertContext): void {
  const minSize = c.attr.float('min_size') ?? 0;
  const nmsThreshold = c.attr.float('nms_threshold') ?? 0.7;
  const pre = c.attr.int('pre_nms_count') ?? 1000n;
  const post = c.attr.int('post_nms_count') ?? 1000n;
  const normalized = c.attr.bool('normalized') ?? true;
  const numType = (c.attr.string('roi_num_type') ?? 'i64').trim().toLowerCase();
  if (pre <= 0n || post <= 0n) { c.unsupportedAttr(pre <= 0n ? 'pre_nms_count' : 'post_nms_count', String(pre <= 0n ? pre : post), 'must be positive'); return; }
  if (numType !== 'i64' && numType !== 'i32') { c.unsupportedAttr('roi_num_type', numType, 'i64 or i32'); return; }
  const eta = c.attr.float('nms_eta') ?? 1;
  if (eta !== 1) { c.unsupportedAttr('nms_eta', String(eta), 'OpenVINO\'s CPU plugin ignores nms_eta while its spec shrinks the threshold as boxes are kept: no one definition to write (1 only)'); return; }
  const o = f32Const(c, normalized ? 0 : 1, []);
  const info = asF32(c, 0); // [N, 3|4]
  const anchors = on(c, 'Reshape', [asF32(c, 1), i64Const(c, [-1n, 4n])]); // [P, 4], P = H·W·A
  const deltas = asF32(c, 2); // [N, 4A, H, W]
  const scores = asF32(c, 3); // [N, A, H, W]
  const op = (name: string, a: Value, b: Value): Value => on(c, name, [a, b]);
  const last = (v: Value, k: bigint): Value => on(c, 'Gather', [v, i64Scalar(c, k)], { axis: A.int(-1) });
  const N = dimOf(c, scores, 0n);
  const n1 = unsqueeze(c, N, [0n]);
  // deltas [N, A, 4, H, W] → [N, H, W, A, 4] → [N, P, 4]; scores [N, A, H, W] → [N, P]
  const d5 = on(c, 'Reshape', [deltas, on(c, 'Concat', [n1, unsqueeze(c, dimOf(c, scores, 1n), [0n]), i64Const(c, [4n]), on(c, 'Slice', [on(c, 'Shape', [deltas]), i64Const(c, [2n]), i64Const(c, [4n])])], { axis: A.int(0) })]);
  const d = on(c, 'Reshape', [on(c, 'Transpose', [d5], { perm: A.ints([0n, 3n, 4n, 1n, 2n]) }), on(c, 'Concat', [n1, i64Const(c, [-1n, 4n])], { axis: A.int(0) })]);
  const s = on(c, 'Reshape', [on(c, 'Transpose', [scores], { perm: A.ints([0n, 2n, 3n, 1n]) }), on(c, 'Concat', [n1, i64Const(c, [-1n])], { axis: A.int(0) })]);
  const anchor = [0n, 1n, 2n, 3n].map((k) => unsqueeze(c, last(anchors, k), [0n])) as [Value, Value, Value, Value];
  const delta = [0n, 1n, 2n, 3n].map((k) => last(d, k)) as [Value, Value, Value, Value];
  const half = f32Const(c, 0.5, []);
  const { cx, cy, w: pw, h: ph } = decodeBoxDeltas(c, anchor, delta, o);
  const column = (k: bigint): Value => unsqueeze(c, last(info, k), [1n]); // [N, 1]
  const imgH = column(0n);
  const imgW = column(1n);
  const infoLen = dimOf(c, info, 1n);
  const scaleH = column(2n);
  const scaleW = on(c, 'Where', [op('Equal', infoLen, i64Scalar(c, 4n)), unsqueeze(c, on(c, 'Gather', [info, on(c, 'Sub', [infoLen, i64Scalar(c, 1n)])], { axis: A.int(1) }), [1n]), column(2n)]);
  const clamp = (v: Value, hi: Value): Value => op('Max', f32Const(c, 0, []), op('Min', v, hi));
  const [wLim, hLim] = [op('Sub', imgW, o), op('Sub', imgH, o)];
  const bx0 = clamp(op('Sub', cx, op('Mul', half, pw)), wLim);
  const by0 = clamp(op('Sub', cy, op('Mul', half, ph)), hLim);
  const bx1 = clamp(op('Sub', op('Add', cx, op('Mul', half, pw)), o), wLim);
  const by1 = clamp(op('Sub', op('Add', cy, op('Mul', half, ph)), o), hLim);
  const min = f32Const(c, minSize, []);
  const alive = on(c, 'And', [
    on(c, 'Not', [op('Less', op('Add', op('Sub', bx1, bx0), o), op('Mul', min, scaleW))]),
    on(c, 'Not', [op('Less', op('Add', op('Sub', by1, by0), o), op('Mul', min, scaleH))]),
  ]); // [N, P]
  const P = dimOf(c, s, 1n);
  const K = op('Min', P, i64Scalar(c, pre));
  const [top, idx] = c.emit('TopK', [s, unsqueeze(c, K, [0n])], { axis: A.int(1), largest: A.int(1), sorted: A.int(1) }, 2) as [Value, Value]; // [N, K]
  const pick = (v: Value): Value => on(c, 'GatherElements', [v, idx], { axis: A.int(1) });
  const [X0, Y0, X1, Y1] = [bx0, by0, bx1, by1].map(pick) as [Value, Value, Value, Value];
  const valid = pick(alive);
  // the plugin's IoU of every pair [N, K, K] (i: axis 1, j: axis 2), in f32
  const I = (v: Value): Value => unsqueeze(c, v, [2n]);
  const J = (v: Value): Value => unsqueeze(c, v, [1n]);
  const zero = f32Const(c, 0, []);
  const overlap = on(c, 'And', [
    on(c, 'And', [on(c, 'Not', [op('Greater', I(X0), J(X1))]), on(c, 'Not', [op('Greater', I(Y0), J(Y1))])]),
    on(c, 'And', [on(c, 'Not', [op('Greater', J(X0), I(X1))]), on(c, 'Not', [op('Greater', J(Y0), I(Y1))])]),
  ]);
  const width = op('Max', zero, op('Add', op('Sub', op('Min', I(X1), J(X1)), op('Max', I(X0), J(X0))), o));
  const height = op('Max', zero, op('Add', op('Sub', op('Min', I(Y1), J(Y1)), op('Max', I(Y0), J(Y0))), o));
  const area = op('Mul', width, height);
  const size = (a0: Value, b0: Value, a1: Value, b1: Value): Value => op('Mul', op('Add', op('Sub', a1, a0), o), op('Add', op('Sub', b1, b0), o));
  const union = op('Sub', op('Add', I(size(X0, Y0, X1, Y1)), J(size(X0, Y0, X1, Y1))), area);
  const iou = on(c, 'Where', [overlap, op('Div', area, union), zero]);
  const full = on(c, 'Concat', [n1, i64Const(c, [1n]), unsqueeze(c, K, [0n])], { axis: A.int(0) }); // [N, 1, K]
  const { kept, count } = greedyKeep(c, cast(c, unsqueeze(c, iou, [1n]), 'f64'), unsqueeze(c, valid, [1n]), f32AsF64(c, nmsThreshold), i64Scalar(c, post), K, full);
  const where = on(c, 'NonZero', [on(c, 'Squeeze', [kept, i64Const(c, [1n])])]); // [2, M]: image, rank
  const rows = on(c, 'Transpose', [where], { perm: A.ints([1n, 0n]) });
  const boxes = on(c, 'Concat', [X0, Y0, X1, Y1].map((v) => unsqueeze(c, v, [2n])), { axis: A.int(2) }); // [N, K, 4]
  const rois = on(c, 'GatherND', [boxes, rows]);
  const roiScores = on(c, 'GatherND', [top, rows]);
  const elem = c.elem(1) ?? 'f32';
  c.output(0, elem === 'f32' ? rois : cast(c, rois, elem));
  c.output(1, elem === 'f32' ? roiScores : cast(c, roiScores, elem));
  const num = on(c, 'Reshape', [count, i64Const(c, [-1n])]);
  c.output(2, numType === 'i64' ? num : cast(c, num, 'i32'));
}

/** The f32 threshold as an f64 scalar (exact): an f32 IoU compares with it as with the f32. */
const f32AsF64 = (c: ConvertContext, v: number): Value => cast(c, f32Const(c, v, []), 'f64');

export const GENERATE_PROPOSALS: readonly OpMapping[] = [
  {
    onnx: { op: 'Loop', since: 13 },
    ir: { op: 'GenerateProposals', version: 'opset9' },
    when: never,
    handles: { ir: ['min_size', 'nms_threshold', 'pre_nms_count', 'post_nms_count', 'normalized', 'nms_eta', 'roi_num_type'] },
    note: 'the anchors moved by the deltas, clipped, TopK, the plugin\'s IoU (+1 sizes unless normalized) of every pair, greedy NMS in an ONNX Loop, NonZero rows image after image, as OpenVINO\'s CPU plugin',
    toIr: irOnly,
    toOnnx: generateProposalsToOnnx,
  },
];
