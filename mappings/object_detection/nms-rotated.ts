import { A } from '../../src/graph/attr.js';
import { makeTensor, tensorFromBool, tensorFromInt64 } from '../../src/graph/tensor.js';
import { tensorType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, dimOf, irOnly, never, on, onnxLoop, reduce, unsqueeze, type LoopBody } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { asF32, f32Const } from './nms-rows.js';

/**
 * NMSRotated-13 (rotated-box detectors), which ONNX lacks (its NonMaxSuppression takes upright boxes
 * only), as OpenVINO's reference (nms_rotated.cpp) and CPU plugin compute it (measured equal).
 * boxes [B, N, 5] = [cx, cy, w, h, angle], scores [B, C, N], max_output_boxes_per_class,
 * iou_threshold, score_threshold. Per batch and class: the boxes scoring above score_threshold, by
 * score descending (ties: lower index first), each kept unless its IoU with a kept box is above
 * iou_threshold, at most max_output_boxes_per_class; rows listed batch by batch, class by class in
 * that order, or (sort_result_descending) all by score, ties by batch, class, index. The IoU of two
 * rotated boxes is their intersection area over w·h + w'·h' − it, 0 when an area is not positive;
 * the angle is negated when not clockwise, the corners
 * (cx ∓ ½h·sin a ∓ ½w·cos a, cy ± ½h·cos a ∓ ½w·sin a) and their reflections through the centre.
 * Outputs: selected_indices [M, 3] (batch, class, box) and valid_outputs [1] = M in output_type,
 * selected_scores [M, 3] (batch, class, score) in the scores' type: the CPU plugin returns the M
 * selected rows only (measured), as here.
 *
 * ONNX form: the intersection area of every pair of boxes of a batch at once, without sorting
 * polygon corners: by Green's theorem it is ½|Σ x dy − y dx| over the boundary of the intersection,
 * which is each box's edges clipped to the other box (Liang–Barsky: each half-plane bounds the
 * edge's parameter; one side inclusive, the other strict, so an edge both boxes share counts
 * once), in f64 from f32 corners. The greedy selection is an ONNX Loop over the N ranks of all
 * batches and classes at once, carrying the kept mask and counts; the rows are NonZero of the
 * mask (batch, class, rank order), then a stable TopK by score when sort_result_descending.
 */
const f64Tensor = (v: number) => makeTensor('f64', [], new Uint8Array(new Float64Array([v]).buffer));
const f64 = (c: ConvertContext, v: number): Value => c.constant(f64Tensor(v));
const op = (c: ConvertContext, name: string, a: Value, b: Value): Value => on(c, name, [a, b]);

/** The corners of each box: x and y [B, N, 4] (f32, as the reference computes them). */
function corners(c: ConvertContext, boxes: Value, clockwise: boolean): { xs: Value; ys: Value } {
  const col = (k: bigint): Value => on(c, 'Gather', [boxes, i64Scalar(c, k)], { axis: A.int(2) }); // [B, N]
  const [x, y, w, h] = [0n, 1n, 2n, 3n].map(col) as [Value, Value, Value, Value];
  const angle = clockwise ? col(4n) : on(c, 'Neg', [col(4n)]);
  const half = f32Const(c, 0.5, []);
  const c2 = op(c, 'Mul', on(c, 'Cos', [angle]), half);
  const s2 = op(c, 'Mul', on(c, 'Sin', [angle]), half);
  const x0 = op(c, 'Sub', op(c, 'Sub', x, op(c, 'Mul', s2, h)), op(c, 'Mul', c2, w));
  const y0 = op(c, 'Sub', op(c, 'Add', y, op(c, 'Mul', c2, h)), op(c, 'Mul', s2, w));
  const x1 = op(c, 'Sub', op(c, 'Add', x, op(c, 'Mul', s2, h)), op(c, 'Mul', c2, w));
  const y1 = op(c, 'Sub', op(c, 'Sub', y, op(c, 'Mul', c2, h)), op(c, 'Mul', s2, w));
  const two = f32Const(c, 2, []);
  const mirror = (centre: Value, p: Value): Value => op(c, 'Sub', op(c, 'Mul', two, centre), p);
  const stack = (vs: Value[]): Value => on(c, 'Concat', vs.map((v) => unsqueeze(c, v, [2n])), { axis: A.int(2) });
  return { xs: stack([x0, x1, mirror(x, x0), mirror(x, x1)]), ys: stack([y0, y1, mirror(y, y0), mirror(y, y1)]) };
}

/**
 * Σ over the edges of box i clipped to box j of (ax·by − bx·ay)·orientation(i): [B, N, N] (f64).
 * Axes while clipping: [B, i, j, edge of i, half-plane of j].
 */
function clippedEdges(c: ConvertContext, xs: Value, ys: Value, orient: Value, strict: boolean): Value {
  const next = (v: Value): Value => on(c, 'Gather', [v, i64Const(c, [1n, 2n, 3n, 0n])], { axis: A.int(2) });
  const atI = (v: Value): Value => unsqueeze(c, v, [2n, 4n]); // [B, N, 1, 4, 1]
  const atJ = (v: Value): Value => unsqueeze(c, v, [1n, 3n]); // [B, 1, N, 1, 4]
  const [px, py, qx, qy] = [xs, ys, next(xs), next(ys)].map(atI) as [Value, Value, Value, Value];
  const [vx, vy] = [atJ(xs), atJ(ys)];
  const ex = op(c, 'Sub', atJ(next(xs)), vx);
  const ey = op(c, 'Sub', atJ(next(ys)), vy);
  const sj = unsqueeze(c, orient, [1n, 3n, 4n]); // [B, 1, N, 1, 1]
  const side = (x: Value, y: Value): Value => op(c, 'Mul', sj, op(c, 'Sub', op(c, 'Mul', ex, op(c, 'Sub', y, vy)), op(c, 'Mul', ey, op(c, 'Sub', x, vx))));
  const f0 = side(px, py);
  const f1 = side(qx, qy);
  const zero = f64(c, 0);
  const inside = (f: Value): Value => (strict ? op(c, 'Greater', f, zero) : on(c, 'Not', [op(c, 'Less', f, zero)]));
  const [in0, in1] = [inside(f0), inside(f1)];
  const denom = op(c, 'Sub', f0, f1);
  const crossing = op(c, 'Div', f0, on(c, 'Where', [op(c, 'Equal', denom, zero), f64(c, 1), denom]));
  const enters = on(c, 'And', [in1, on(c, 'Not', [in0])]);
  const leaves = on(c, 'And', [in0, on(c, 'Not', [in1])]);
  const t0 = reduce(c, 'ReduceMax', on(c, 'Where', [enters, crossing, zero]), [4n], true); // [B, N, N, 4, 1]
  const t1 = on(c, 'Neg', [reduce(c, 'ReduceMax', on(c, 'Neg', [on(c, 'Where', [leaves, crossing, f64(c, 1)])]), [4n], true)]);
  const outside = reduce(c, 'ReduceMax', cast(c, on(c, 'Not', [on(c, 'Or', [in0, in1])]), 'f64'), [4n], true);
  const kept = on(c, 'And', [op(c, 'Equal', outside, zero), op(c, 'Less', t0, t1)]);
  const first = (v: Value): Value => on(c, 'Gather', [v, i64Scalar(c, 0n)], { axis: A.int(4) }); // the edge's own values, [B, N, 1, 4] → broadcast
  const [pxe, pye, qxe, qye] = [px, py, qx, qy].map(first) as [Value, Value, Value, Value];
  const at = (t: Value, p: Value, q: Value): Value => op(c, 'Add', p, op(c, 'Mul', on(c, 'Squeeze', [t, i64Const(c, [4n])]), op(c, 'Sub', q, p)));
  const [ax, ay, bx, by] = [at(t0, pxe, qxe), at(t0, pye, qye), at(t1, pxe, qxe), at(t1, pye, qye)];
  const term = op(c, 'Sub', op(c, 'Mul', ax, by), op(c, 'Mul', bx, ay)); // [B, N, N, 4]
  const masked = on(c, 'Where', [on(c, 'Squeeze', [kept, i64Const(c, [4n])]), term, zero]);
  return op(c, 'Mul', reduce(c, 'ReduceSum', masked, [3n], false), unsqueeze(c, orient, [2n]));
}

/** IoU of every pair of boxes of a batch: [B, N, N] (f64). */
function rotatedIou(c: ConvertContext, boxes: Value, clockwise: boolean): Value {
  const { xs: xs32, ys: ys32 } = corners(c, boxes, clockwise);
  const [xs, ys] = [cast(c, xs32, 'f64'), cast(c, ys32, 'f64')];
  const corner = (v: Value, k: bigint): Value => on(c, 'Gather', [v, i64Scalar(c, k)], { axis: A.int(2) });
  // orientation of each box's corner order: the sign of (p1 − p0) × (p2 − p1)
  const turn = op(c, 'Sub',
    op(c, 'Mul', op(c, 'Sub', corner(xs, 1n), corner(xs, 0n)), op(c, 'Sub', corner(ys, 2n), corner(ys, 1n))),
    op(c, 'Mul', op(c, 'Sub', corner(ys, 1n), corner(ys, 0n)), op(c, 'Sub', corner(xs, 2n), corner(xs, 1n))));
  const orient = on(c, 'Sign', [turn]); // [B, N]
  const inclusive = clippedEdges(c, xs, ys, orient, false);
  const strict = clippedEdges(c, xs, ys, orient, true);
  const inter = op(c, 'Div', on(c, 'Abs', [op(c, 'Add', inclusive, on(c, 'Transpose', [strict], { perm: A.ints([0n, 2n, 1n]) }))]), f64(c, 2));
  const area32 = op(c, 'Mul', on(c, 'Gather', [boxes, i64Scalar(c, 2n)], { axis: A.int(2) }), on(c, 'Gather', [boxes, i64Scalar(c, 3n)], { axis: A.int(2) }));
  const area = cast(c, area32, 'f64');
  const [ai, aj] = [unsqueeze(c, area, [2n]), unsqueeze(c, area, [1n])];
  const zero = f64(c, 0);
  const positive = on(c, 'And', [op(c, 'Greater', ai, zero), op(c, 'Greater', aj, zero)]);
  const union = op(c, 'Sub', op(c, 'Add', ai, aj), inter);
  return on(c, 'Where', [positive, op(c, 'Div', inter, on(c, 'Where', [positive, union, f64(c, 1)])), zero]);
}

/** One rank k: the candidate of rank k of every (batch, class) is kept unless suppressed or the class is full. */
function greedyStep({ graph: g, i: k, carried: [kept, count], captures: [iou, valid, threshold, most, ranks], op: b }: LoopBody): { carried: Value[] } {
  const axis2 = { axis: A.int(2) };
  const row = b('Gather', [iou!, k], axis2); // [B, C, N]: IoU of rank k with every rank
  const hit = b('And', [kept!, b('Greater', [row, threshold!])]);
  const suppressed = b('Greater', [b('ReduceSum', [b('Cast', [hit], { to: A.int(7) }), g.addInitializer(tensorFromInt64([2n], [1]))], { keepdims: A.int(0) }), g.addInitializer(tensorFromInt64([0n], []))]);
  const room = b('Less', [count!, most!]);
  const sel = b('And', [b('And', [b('Gather', [valid!, k], axis2), b('Not', [suppressed])]), room]); // [B, C]
  const at = b('Equal', [ranks!, k]); // [N]
  const nextKept = b('Or', [kept!, b('And', [at, b('Unsqueeze', [sel, g.addInitializer(tensorFromInt64([2n], [1]))])])]);
  return { carried: [nextKept, b('Add', [count!, b('Cast', [sel], { to: A.int(7) })])] };
}

/**
 * Greedy NMS of every (batch, class) at once, the candidates by rank: iou [B, C, N, N] (f64) of
 * ranks, valid [B, C, N] (the candidates that count), threshold (f64 scalar: suppressed above it),
 * limit (i64 scalar), N (i64 scalar), shape [B, C, N] (i64). Rank k is kept when valid, no kept
 * rank has IoU above threshold with it, and fewer than limit are kept: an ONNX Loop over the ranks.
 * Returns the kept mask [B, C, N] and the counts [B, C].
 */
export function greedyKeep(c: ConvertContext, iou: Value, valid: Value, threshold: Value, limit: Value, N: Value, shape: Value): { kept: Value; count: Value } {
  const ranks = on(c, 'Range', [i64Scalar(c, 0n), N, i64Scalar(c, 1n)]);
  const none = on(c, 'Expand', [c.constant(tensorFromBool([false], [])), shape]);
  const zeros = on(c, 'Expand', [i64Scalar(c, 0n), on(c, 'Slice', [shape, i64Const(c, [0n]), i64Const(c, [2n])])]);
  const [kept, count] = onnxLoop(c, {
    trips: N, iteration: 'rank',
    carried: [{ value: none, name: 'kept', type: tensorType('boolean', [null, null, null]) }, { value: zeros, name: 'count', type: tensorType('i64', [null, null]) }],
    captures: [
      { value: iou, name: 'iou', type: tensorType('f64', [null, null, null, null]) }, { value: valid, name: 'valid', type: tensorType('boolean', [null, null, null]) },
      { value: threshold, name: 'iou_threshold', type: tensorType('f64', []) }, { value: limit, name: 'max_output', type: tensorType('i64', []) },
      { value: ranks, name: 'ranks', type: tensorType('i64', [null]) },
    ],
  }, greedyStep);
  return { kept: kept!, count: count! };
}

function scalarInput(c: ConvertContext, i: number, to: 'i64' | 'f32' | 'f64'): Value {
  const v = c.input(i)!;
  const typed = c.elem(i) === to ? v : cast(c, v, to);
  return on(c, 'Reshape', [typed, i64Const(c, [])]);
}

function nmsRotatedToOnnx(c: ConvertContext): void {
  const outType = (c.attr.string('output_type') ?? 'i64').trim().toLowerCase();
  if (outType !== 'i64' && outType !== 'i32') { c.unsupportedAttr('output_type', outType, 'i64 or i32'); return; }
  const descending = c.attr.bool('sort_result_descending') ?? true;
  const clockwise = c.attr.bool('clockwise') ?? true;
  if (c.rank(0) !== null && c.rank(0) !== 3) { c.error(`NMSRotated needs boxes of rank 3 [batches, boxes, 5], not ${c.rank(0)}`); return; }
  const boxes = asF32(c, 0);
  const scores = asF32(c, 1); // [B, C, N]
  const most = scalarInput(c, 2, 'i64');
  const threshold = scalarInput(c, 3, 'f64');
  const scoreThreshold = scalarInput(c, 4, 'f32');
  const iou = rotatedIou(c, boxes, clockwise); // [B, N, N]
  const N = dimOf(c, scores, 2n);
  const [sorted, order] = c.emit('TopK', [scores, unsqueeze(c, N, [0n])], { axis: A.int(2), largest: A.int(1), sorted: A.int(1) }, 2) as [Value, Value];
  const valid = op(c, 'Greater', sorted, scoreThreshold); // [B, C, N] by rank
  // IoU by rank: rows then columns of each (batch, class)'s order
  const C = dimOf(c, scores, 1n);
  const full = on(c, 'Concat', [unsqueeze(c, dimOf(c, scores, 0n), [0n]), unsqueeze(c, C, [0n]), unsqueeze(c, N, [0n]), unsqueeze(c, N, [0n])], { axis: A.int(0) });
  const perClass = on(c, 'Expand', [unsqueeze(c, iou, [1n]), full]); // [B, C, N, N]
  const rows = on(c, 'GatherElements', [perClass, on(c, 'Expand', [unsqueeze(c, order, [3n]), full])], { axis: A.int(2) });
  const ranked = on(c, 'GatherElements', [rows, on(c, 'Expand', [unsqueeze(c, order, [2n]), full])], { axis: A.int(3) });
  // a negative count is a huge size_t in the reference: no limit
  const limit = on(c, 'Where', [op(c, 'Less', most, i64Scalar(c, 0n)), N, most]);
  const { kept } = greedyKeep(c, ranked, valid, threshold, limit, N, on(c, 'Shape', [scores]));
  const where = on(c, 'Transpose', [on(c, 'NonZero', [kept!])], { perm: A.ints([1n, 0n]) }); // [M, 3]: batch, class, rank
  let box = unsqueeze(c, on(c, 'GatherND', [order, where]), [1n]);
  let score = unsqueeze(c, on(c, 'GatherND', [sorted, where]), [1n]);
  let head = on(c, 'Slice', [where, i64Const(c, [0n]), i64Const(c, [2n]), i64Const(c, [1n])]);
  if (descending) {
    const M = on(c, 'Slice', [on(c, 'Shape', [where]), i64Const(c, [0n]), i64Const(c, [1n])]);
    const [, by] = c.emit('TopK', [on(c, 'Squeeze', [score, i64Const(c, [1n])]), M], { axis: A.int(0), largest: A.int(1), sorted: A.int(1) }, 2) as [Value, Value];
    const take = (v: Value): Value => on(c, 'Gather', [v, by], { axis: A.int(0) });
    [box, score, head] = [take(box), take(score), take(head)];
  }
  const typed = (v: Value): Value => (outType === 'i64' ? v : cast(c, v, 'i32'));
  c.output(0, typed(on(c, 'Concat', [head, box], { axis: A.int(1) })));
  const scoreElem = c.elem(1) ?? 'f32';
  const scoreRows = on(c, 'Concat', [cast(c, head, 'f32'), score], { axis: A.int(1) });
  c.output(1, scoreElem === 'f32' ? scoreRows : cast(c, scoreRows, scoreElem));
  c.output(2, typed(on(c, 'Slice', [on(c, 'Shape', [where]), i64Const(c, [0n]), i64Const(c, [1n])])));
}

export const NMS_ROTATED: readonly OpMapping[] = [
  {
    onnx: { op: 'Loop', since: 13 },
    ir: { op: 'NMSRotated', version: 'opset13' },
    when: never,
    handles: { ir: ['sort_result_descending', 'output_type', 'clockwise'] },
    note: 'rotated IoU of every pair as the edges of each box clipped to the other (Green\'s theorem, f64), greedy selection in an ONNX Loop over the ranks, NonZero rows, a stable TopK by score when sort_result_descending',
    toIr: irOnly,
    toOnnx: nmsRotatedToOnnx,
  },
];
