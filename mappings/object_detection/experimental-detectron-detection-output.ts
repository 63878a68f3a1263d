import { A } from '../../src/graph/attr.js';
import { tensorFromFloat32 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, dimOf, irOnly, never, on, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { greedyKeep } from './nms-rotated.js';
import { asF32, f32Const } from './nms-rows.js';

/**
 * ExperimentalDetectronDetectionOutput-6 (Mask R-CNN IRs: the box head's last layer), as OpenVINO's
 * CPU plugin computes it (experimental_detectron_detection_output.cpp). rois [R, 4], deltas
 * [R, 4C], scores [R, C], im_info (unused by the plugin). Per ROI whose x1 − x0 and y1 − y0 are
 * positive (the others: box, score and area 0) and class c ≥ 1: the ROI moved by the class's deltas
 * divided by deltas_weights (+1 sizes, d log at most max_delta_log_wh), its corners clamped at 0
 * only. Per class: the boxes scoring above score_threshold by score (ties: lower index first),
 * greedy NMS (IoU with +1 sizes, 0 unless the boxes touch, above nms_threshold suppressed), the
 * first post_nms_count kept. All kept rows class after class; when more than
 * max_detections_per_image, the best by score (ties: lower ROI index; across classes the plugin's
 * std::partial_sort leaves them in no order, here the lower class first), else in class order.
 * boxes [max_det, 4], classes [max_det] (i32), scores [max_det], zeros after the rows.
 * class_agnostic_box_regression = true is refused: the plugin ignores it (each class's own deltas).
 *
 * ONNX form: the boxes of every class at once, TopK per class, the plugin's IoU of every pair in
 * f32, the greedy selection of nms-rotated.ts (an ONNX Loop over the ranks), NonZero rows, then two
 * stable TopKs (by index, then by score) chosen by Where when the rows overflow, and zero rows.
 */
function detectionOutputToOnnx(c: ConvertContext): void {
  const scoreThreshold = c.attr.float('score_threshold') ?? 0.05;
  const nmsThreshold = c.attr.float('nms_threshold') ?? 0.5;
  const maxLog = c.attr.float('max_delta_log_wh') ?? Math.log(1000 / 16);
  const C = Number(c.attr.int('num_classes') ?? 81n);
  const post = c.attr.int('post_nms_count') ?? 2000n;
  const maxDet = c.attr.int('max_detections_per_image') ?? 100n;
  const agnostic = c.attr.bool('class_agnostic_box_regression') ?? false;
  const weights = c.attr.floats('deltas_weights') ?? [10, 10, 5, 5];
  if (agnostic) { c.unsupportedAttr('class_agnostic_box_regression', 'true', 'OpenVINO\'s CPU plugin ignores it (each class its own deltas) while its spec shares one box: no one definition to write'); return; }
  if (maxDet <= 0n) { c.unsupportedAttr('max_detections_per_image', String(maxDet), 'must be positive'); return; }
  if (weights.length !== 4) { c.unsupportedAttr('deltas_weights', weights.join(','), 'four weights'); return; }
  if (!(C >= 1)) { c.unsupportedAttr('num_classes', String(C), 'a positive integer'); return; }
  const op = (name: string, a: Value, b: Value): Value => on(c, name, [a, b]);
  const f = (v: number): Value => f32Const(c, v, []);
  const rois = asF32(c, 0); // [R, 4]
  const deltas = on(c, 'Reshape', [asF32(c, 1), i64Const(c, [0n, BigInt(C), 4n])]); // [R, C, 4]
  const scores = asF32(c, 2); // [R, C]
  const col = (v: Value, k: bigint): Value => on(c, 'Gather', [v, i64Scalar(c, k)], { axis: A.int(-1) });
  const [x0, y0, x1, y1] = [0n, 1n, 2n, 3n].map((k) => unsqueeze(c, col(rois, k), [1n])) as [Value, Value, Value, Value]; // [R, 1]
  const ok = on(c, 'And', [op('Greater', op('Sub', x1, x0), f(0)), op('Greater', op('Sub', y1, y0), f(0))]); // [R, 1]
  const one = f(1);
  const half = f(0.5);
  const ww = op('Add', op('Sub', x1, x0), one);
  const hh = op('Add', op('Sub', y1, y0), one);
  const cx = op('Add', x0, op('Mul', half, ww));
  const cy = op('Add', y0, op('Mul', half, hh));
  const [dx, dy, dw, dh] = [0n, 1n, 2n, 3n].map((k) => op('Div', col(deltas, k), f(weights[Number(k)]!))) as [Value, Value, Value, Value]; // [R, C]
  const pcx = op('Add', op('Mul', dx, ww), cx);
  const pcy = op('Add', op('Mul', dy, hh), cy);
  const lim = f(Math.fround(maxLog));
  const pw = op('Mul', on(c, 'Exp', [op('Min', dw, lim)]), ww);
  const ph = op('Mul', on(c, 'Exp', [op('Min', dh, lim)]), hh);
  const atLeast0 = (v: Value): Value => op('Max', f(0), v);
  const bx0 = atLeast0(op('Sub', pcx, op('Mul', half, pw)));
  const by0 = atLeast0(op('Sub', pcy, op('Mul', half, ph)));
  const bx1 = atLeast0(op('Sub', op('Add', pcx, op('Mul', half, pw)), one));
  const by1 = atLeast0(op('Sub', op('Add', pcy, op('Mul', half, ph)), one));
  const area = op('Mul', op('Add', op('Sub', bx1, bx0), one), op('Add', op('Sub', by1, by0), one));
  const zeroIfBad = (v: Value): Value => on(c, 'Transpose', [on(c, 'Where', [ok, v, f(0)])], { perm: A.ints([1n, 0n]) }); // [C, R]
  const [X0, Y0, X1, Y1, S, AR] = [bx0, by0, bx1, by1, scores, area].map(zeroIfBad) as [Value, Value, Value, Value, Value, Value];
  // per class by score, ties the lower index first
  const R = dimOf(c, scores, 0n);
  const [sorted, order] = c.emit('TopK', [S, unsqueeze(c, R, [0n])], { axis: A.int(1), largest: A.int(1), sorted: A.int(1) }, 2) as [Value, Value]; // [C, R]
  const notBackground = c.constant(tensorFromFloat32(Array.from({ length: C }, (_, k) => (k === 0 ? 0 : 1)), [C, 1]));
  const valid = on(c, 'And', [op('Greater', sorted, f(scoreThreshold)), op('Greater', notBackground, f(0))]);
  const pick = (v: Value): Value => on(c, 'GatherElements', [v, order], { axis: A.int(1) });
  const [PX0, PY0, PX1, PY1, PA] = [X0, Y0, X1, Y1, AR].map(pick) as [Value, Value, Value, Value, Value];
  const I = (v: Value): Value => unsqueeze(c, v, [2n]);
  const J = (v: Value): Value => unsqueeze(c, v, [1n]);
  const apart = on(c, 'Or', [on(c, 'Or', [op('Greater', J(PX0), I(PX1)), op('Less', J(PX1), I(PX0))]), on(c, 'Or', [op('Greater', J(PY0), I(PY1)), op('Less', J(PY1), I(PY0))])]);
  const iw = op('Add', op('Sub', op('Min', I(PX1), J(PX1)), op('Max', I(PX0), J(PX0))), one);
  const ih = op('Add', op('Sub', op('Min', I(PY1), J(PY1)), op('Max', I(PY0), J(PY0))), one);
  const inter = op('Mul', iw, ih);
  const none = on(c, 'Or', [apart, on(c, 'Or', [on(c, 'Not', [op('Greater', iw, f(0))]), on(c, 'Not', [op('Greater', ih, f(0))])])]);
  const iou = on(c, 'Where', [none, f(0), op('Div', inter, op('Sub', op('Add', I(PA), J(PA)), inter))]); // [C, R, R]
  const limit = post < 0n ? R : i64Scalar(c, post);
  const shape = on(c, 'Concat', [i64Const(c, [1n]), on(c, 'Shape', [sorted])], { axis: A.int(0) });
  const { kept } = greedyKeep(c, cast(c, unsqueeze(c, iou, [0n]), 'f64'), unsqueeze(c, valid, [0n]), cast(c, f(nmsThreshold), 'f64'), limit, R, shape);
  const rows = on(c, 'Transpose', [on(c, 'NonZero', [on(c, 'Squeeze', [kept, i64Const(c, [0n])])])], { perm: A.ints([1n, 0n]) }); // [M, 2]: class, rank
  const cls = on(c, 'Gather', [rows, i64Scalar(c, 0n)], { axis: A.int(1) });
  const idx = on(c, 'GatherND', [order, rows]); // [M]
  const score = on(c, 'GatherND', [sorted, rows]);
  const boxes = on(c, 'Concat', [PX0, PY0, PX1, PY1].map((v) => unsqueeze(c, v, [2n])), { axis: A.int(2) }); // [C, R, 4] by rank
  const box = on(c, 'GatherND', [boxes, rows]); // [M, 4]
  // more rows than max_detections_per_image: the best by score, ties by the lower index (two stable TopKs)
  const M = on(c, 'Slice', [on(c, 'Shape', [rows]), i64Const(c, [0n]), i64Const(c, [1n])]);
  const [, byIdx] = c.emit('TopK', [on(c, 'Neg', [cast(c, idx, 'f64')]), M], { axis: A.int(0), largest: A.int(1), sorted: A.int(1) }, 2) as [Value, Value];
  const [, byScore] = c.emit('TopK', [on(c, 'Gather', [score, byIdx], { axis: A.int(0) }), M], { axis: A.int(0), largest: A.int(1), sorted: A.int(1) }, 2) as [Value, Value];
  const best = on(c, 'Gather', [byIdx, byScore], { axis: A.int(0) });
  const perm = on(c, 'Where', [op('Greater', M, i64Const(c, [maxDet])), best, on(c, 'Range', [i64Scalar(c, 0n), on(c, 'Squeeze', [M, i64Const(c, [0n])]), i64Scalar(c, 1n)])]);
  const first = on(c, 'Slice', [perm, i64Const(c, [0n]), i64Const(c, [maxDet])]);
  const rowsOut = (v: Value, zeros: Value): Value => on(c, 'Slice', [on(c, 'Concat', [on(c, 'Gather', [v, first], { axis: A.int(0) }), zeros], { axis: A.int(0) }), i64Const(c, [0n]), i64Const(c, [maxDet])]);
  const zerosOf = (dims: bigint[], v: Value): Value => on(c, 'Expand', [v, i64Const(c, dims)]);
  const elem = c.elem(0) ?? 'f32';
  const typed = (v: Value): Value => (elem === 'f32' ? v : cast(c, v, elem));
  c.output(0, typed(rowsOut(box, zerosOf([maxDet, 4n], f(0)))));
  c.output(1, cast(c, rowsOut(cls, zerosOf([maxDet], i64Scalar(c, 0n))), 'i32'));
  c.output(2, typed(rowsOut(score, zerosOf([maxDet], f(0)))));
}

export const EXPERIMENTAL_DETECTRON_DETECTION_OUTPUT: readonly OpMapping[] = [
  {
    onnx: { op: 'Loop', since: 13 },
    ir: { op: 'ExperimentalDetectronDetectionOutput', version: 'opset6' },
    when: never,
    handles: { ir: ['score_threshold', 'nms_threshold', 'max_delta_log_wh', 'num_classes', 'post_nms_count', 'max_detections_per_image', 'class_agnostic_box_regression', 'deltas_weights'] },
    note: 'each class\'s boxes decoded, TopK per class, the plugin\'s IoU (+1 sizes), greedy NMS in an ONNX Loop, the best max_detections_per_image rows by score when they overflow, zero rows, as OpenVINO\'s CPU plugin',
    toIr: irOnly,
    toOnnx: detectionOutputToOnnx,
  },
];
