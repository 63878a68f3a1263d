import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, irOnly, never, on, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { asF32, below, column, dim1, dropBackground, f32Const, readNmsOrder, writeNmsRows } from './nms-rows.js';

/**
 * MulticlassNms-8/9 (OpenVINO's PaddlePaddle frontend: PP-YOLO, PicoDet) as ONNX NonMaxSuppression,
 * following OpenVINO's CPU plugin (intel_cpu/src/nodes/multiclass_nms.cpp), per batch and class:
 * the boxes of score ≥ score_threshold, the nms_top_k (≥ 0) best of them, greedy NMS dropping a box
 * whose IoU with a kept one is ≥ iou_threshold; a box of non-positive width or height has IoU 0
 * with every box; normalized=false adds 1 to widths and heights. Then nms-rows.ts orders, cuts and
 * writes the rows.
 * ONNX NonMaxSuppression keeps score > its threshold and drops IoU > its threshold: both get the
 * f32 just below OpenVINO's. nms_top_k is a mask on the scores (the others −inf) from TopK;
 * boxes of non-positive size are (0, 0, 0, 0) for the NMS (onnxruntime orders the corners
 * itself, OpenVINO takes them as given); normalized=false is x2 + 1, y2 + 1 (rounded once more).
 * MulticlassNms-9's per-class boxes (scores [C, ΣM], boxes [C, ΣM, 4], roisnum [N]) are each
 * (class, image) as one ONNX batch of max(roisnum) boxes, the rows past an image's count −inf.
 * Refused: nms_eta < 1 with iou_threshold > 0.5 (an IoU threshold that shrinks as boxes are kept,
 * which ONNX's NMS has no form of; at ≤ 0.5 OpenVINO never shrinks it), iou_threshold ≤ 0 (every
 * box then suppresses every other in OpenVINO, even disjoint ones).
 */

/** The boxes as the NMS compares them (see above). */
function nmsBoxes(c: ConvertContext, boxes: Value, normalized: boolean): Value {
  const lo = on(c, 'Slice', [boxes, i64Const(c, [0n]), i64Const(c, [2n]), i64Const(c, [-1n])]);
  let hi = on(c, 'Slice', [boxes, i64Const(c, [2n]), i64Const(c, [4n]), i64Const(c, [-1n])]);
  if (!normalized) hi = on(c, 'Add', [hi, f32Const(c, 1)]);
  const shifted = normalized ? boxes : on(c, 'Concat', [lo, hi], { axis: A.int(-1) });
  const size = on(c, 'Sub', [hi, lo]);
  const ok = on(c, 'And', [
    on(c, 'Greater', [on(c, 'Gather', [size, i64Scalar(c, 0n)], { axis: A.int(-1) }), f32Const(c, 0, [])]),
    on(c, 'Greater', [on(c, 'Gather', [size, i64Scalar(c, 1n)], { axis: A.int(-1) }), f32Const(c, 0, [])]),
  ]);
  return on(c, 'Where', [unsqueeze(c, ok, [-1n]), shifted, f32Const(c, 0, [])]);
}

/** Scores outside the nms_top_k best of each (batch, class) become −inf (`scores` […, M]). */
function topK(c: ConvertContext, scores: Value, nmsTopK: bigint): Value {
  if (nmsTopK < 0n) return scores;
  const m = dim1(c, scores, -1n);
  const k = on(c, 'Min', [i64Const(c, [nmsTopK]), m]);
  const [values, idx] = c.emit('TopK', [scores, k], { axis: A.int(-1), largest: A.int(1), sorted: A.int(1) }, 2);
  const floor = on(c, 'Expand', [f32Const(c, -Infinity, []), on(c, 'Shape', [scores])]);
  return on(c, 'ScatterElements', [floor, idx!, values!], { axis: A.int(-1) });
}

function multiclassNmsToOnnx(c: ConvertContext): void {
  const order = readNmsOrder(c, true);
  if (!order) return;
  const iou = c.attr.float('iou_threshold') ?? 0;
  const scoreThreshold = c.attr.float('score_threshold') ?? 0;
  const eta = c.attr.float('nms_eta') ?? 1;
  const nmsTopK = c.attr.int('nms_top_k') ?? -1n;
  const background = c.attr.int('background_class') ?? -1n;
  const normalized = c.attr.bool('normalized') ?? true;
  if (!(iou > 0)) { c.unsupportedAttr('iou_threshold', String(iou), 'at most 0 OpenVINO suppresses even disjoint boxes; ONNX NonMaxSuppression never does'); return; }
  if (eta < 1 && eta >= 0 && iou > 0.5) { c.unsupportedAttr('nms_eta', String(eta), `below 1 with iou_threshold ${iou} > 0.5, OpenVINO shrinks the IoU threshold after each kept box; ONNX NonMaxSuppression has one threshold`); return; }
  if (c.opset < 11) { c.error(`MulticlassNms is written with ONNX Range, CumSum and TopK-11 (opset 11 or later; target ${c.opset})`); return; }
  const shared = c.rank(1);
  if (shared !== 3 && shared !== 2) { c.error(`scores must be of rank 3 ([N, C, M], boxes shared by the classes) or 2 ([C, ΣM] with roisnum); got ${shared ?? 'an unknown rank'}`); return; }
  if (shared === 2 && !(c.numInputs > 2 && c.input(2))) { c.error('scores of rank 2 ([C, ΣM]) need the roisnum input'); return; }
  const boxes = asF32(c, 0);
  const scores = asF32(c, 1);
  const thresholds = [f32Const(c, below(iou)), f32Const(c, below(scoreThreshold))];
  const nms = (b: Value, s: Value, m: Value): Value => on(c, 'NonMaxSuppression', [nmsBoxes(c, b, normalized), topK(c, s, nmsTopK), m, ...thresholds]);

  if (shared === 3) {
    const sel = nms(boxes, scores, dim1(c, boxes, 1n));
    const batch = column(c, sel, 0n);
    const box = column(c, sel, 2n);
    const pair = on(c, 'Concat', [unsqueeze(c, batch, [1n]), unsqueeze(c, box, [1n])], { axis: A.int(1) });
    const rows = {
      batch, cls: column(c, sel, 1n), box,
      score: on(c, 'GatherND', [scores, sel]),
      coords: on(c, 'GatherND', [boxes, pair]),
      index: on(c, 'Add', [on(c, 'Mul', [batch, dim1(c, boxes, 1n)]), box]),
    };
    writeNmsRows(c, dropBackground(c, rows, background), dim1(c, boxes, 0n), order, c.elem(0));
    return;
  }
  // per-class boxes: image i holds rows first[i] … first[i] + roisnum[i] − 1 of every class
  const counts = c.elem(2) === 'i64' ? c.input(2)! : cast(c, c.input(2)!, 'i64');
  const n = on(c, 'Shape', [counts]);
  const first = on(c, 'CumSum', [counts, i64Scalar(c, 0n)], { exclusive: A.int(1) });
  const longest = on(c, 'ReduceMax', [on(c, 'Concat', [i64Const(c, [0n]), counts], { axis: A.int(0) })], { keepdims: A.int(1) }); // [1]
  const j = unsqueeze(c, on(c, 'Range', [i64Scalar(c, 0n), on(c, 'Squeeze', [longest]), i64Scalar(c, 1n)]), [0n]); // [1, R]
  const at = on(c, 'Add', [unsqueeze(c, first, [1n]), j]); // [N, R]
  const inside = on(c, 'Less', [j, unsqueeze(c, counts, [1n])]);
  const last = on(c, 'Sub', [dim1(c, scores, 1n), i64Const(c, [1n])]);
  const clamped = on(c, 'Max', [on(c, 'Min', [at, last]), i64Scalar(c, 0n)]);
  const flatShape = (tail: bigint[]): Value => on(c, 'Concat', [i64Const(c, [-1n]), longest, ...(tail.length ? [i64Const(c, tail)] : [])], { axis: A.int(0) });
  const gb = on(c, 'Reshape', [on(c, 'Gather', [boxes, clamped], { axis: A.int(1) }), flatShape([4n])]); // [C·N, R, 4]
  const gs = on(c, 'Reshape', [on(c, 'Where', [inside, on(c, 'Gather', [scores, clamped], { axis: A.int(1) }), f32Const(c, -Infinity, [])]), flatShape([])]); // [C·N, R]
  const sel = nms(gb, unsqueeze(c, gs, [1n]), longest);
  const cn = column(c, sel, 0n);
  const box = column(c, sel, 2n);
  const nScalar = on(c, 'Squeeze', [n]);
  const batch = on(c, 'Mod', [cn, nScalar]);
  const cls = on(c, 'Div', [cn, nScalar]);
  const pair = on(c, 'Concat', [unsqueeze(c, cn, [1n]), unsqueeze(c, box, [1n])], { axis: A.int(1) });
  const rows = {
    batch, cls, box,
    score: on(c, 'GatherND', [gs, pair]),
    coords: on(c, 'GatherND', [gb, pair]),
    index: on(c, 'Add', [on(c, 'Mul', [on(c, 'Add', [on(c, 'Gather', [first, batch], { axis: A.int(0) }), box]), dim1(c, scores, 0n)]), cls]),
  };
  writeNmsRows(c, dropBackground(c, rows, background), n, order, c.elem(0));
}

const ATTRS = ['sort_result_type', 'sort_result_across_batch', 'output_type', 'iou_threshold', 'score_threshold', 'nms_top_k', 'keep_top_k', 'background_class', 'normalized', 'nms_eta'];

export const MULTICLASS_NMS: readonly OpMapping[] = [
  {
    onnx: { op: 'NonMaxSuppression', since: 11 },
    ir: { op: 'MulticlassNms', version: 'opset9', reads: ['opset8'] },
    when: never,
    handles: { ir: ATTRS },
    note: 'ONNX NonMaxSuppression per batch and class, then TopK sorts, keep_top_k and the three outputs as OpenVINO\'s CPU plugin writes them',
    toIr: irOnly,
    toOnnx: multiclassNmsToOnnx,
  },
];
