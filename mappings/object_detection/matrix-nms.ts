import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, irOnly, never, on, reduce, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedScalar } from '../typed-consts.js';
import { asF32, dim1, f32Const, readNmsOrder, writeNmsRows } from './nms-rows.js';

/**
 * MatrixNms-8 (OpenVINO's PaddlePaddle frontend: PP-YOLOv2, PicoDet) as ONNX ops, following
 * OpenVINO's CPU plugin (intel_cpu/src/nodes/matrix_nms.cpp). Per batch and class, no box
 * suppresses another: each score decays by how much its box overlaps the better ones.
 *   candidates: score > score_threshold, the nms_top_k (≥ 0) best, by score (TopK);
 *   IoU(i, j) of candidate i with candidate j: 0 when the boxes are apart (x1ⱼ > x2ᵢ, x2ⱼ < x1ᵢ,
 *     y1ⱼ > y2ᵢ or y2ⱼ < y1ᵢ); else (min x2 − max x1 + n)(min y2 − max y1 + n) over
 *     areaᵢ + areaⱼ − that, area (x2 − x1 + n)(y2 − y1 + n), or 0 for x2 < x1 or y2 < y1
 *     (n = 1 when not normalized, else 0);
 *   max_iouⱼ = max(0, IoU(j, k) over the better k);
 *   decay(i) = min(1, f(IoU(i, j), max_iouⱼ) over the better j), f linear
 *     (1 − iou) / (1 − max_iou + 1e-10) (in f64, as the kernel's double literals compute it) or
 *     gaussian exp((max_iou² − iou²) · gaussian_sigma);
 *   kept: decay(i) · scoreᵢ > post_threshold, with that score.
 * The IoUs of the nms_top_k candidates are one [N, C, k, k] tensor (k²/2 of them used), the
 * better-j pairs a constant-free mask from Range. Then nms-rows.ts orders, cuts and writes the rows
 * (the CPU kernel orders each batch by score only, whatever sort_result_type, unless
 * sort_result_across_batch).
 */
function matrixNmsToOnnx(c: ConvertContext): void {
  const order = readNmsOrder(c, false);
  if (!order) return;
  const decayFn = (c.attr.string('decay_function') ?? 'linear').trim().toLowerCase();
  if (decayFn !== 'linear' && decayFn !== 'gaussian') { c.unsupportedAttr('decay_function', decayFn, 'supported: linear, gaussian'); return; }
  const sigma = c.attr.float('gaussian_sigma') ?? 2;
  const scoreThreshold = c.attr.float('score_threshold') ?? 0;
  const postThreshold = c.attr.float('post_threshold') ?? 0;
  const nmsTopK = c.attr.int('nms_top_k') ?? -1n;
  const background = c.attr.int('background_class') ?? -1n;
  const norm = (c.attr.bool('normalized') ?? true) ? 0 : 1;
  if (c.opset < 12) { c.error(`MatrixNms is written with ONNX GatherND batch_dims, Range and TopK-11 (opset 12 or later; target ${c.opset})`); return; }
  if (c.rank(0) !== 3 || c.rank(1) !== 3) { c.error(`boxes [N, M, 4] and scores [N, C, M] must be of rank 3 (got ${c.rank(0) ?? 'unknown'}, ${c.rank(1) ?? 'unknown'})`); return; }
  const boxes = asF32(c, 0);
  const scores = asF32(c, 1);
  const m = dim1(c, boxes, 1n);
  const k = nmsTopK < 0n ? m : on(c, 'Min', [i64Const(c, [nmsTopK]), m]);
  const [best, idx] = c.emit('TopK', [scores, k], { axis: A.int(2), largest: A.int(1), sorted: A.int(1) }, 2); // [N, C, k]
  // the candidates' boxes [N, C, k, 4]
  const flatIdx = on(c, 'Reshape', [idx!, i64Const(c, [0n, -1n, 1n])]);
  const cand = on(c, 'Reshape', [on(c, 'GatherND', [boxes, flatIdx], { batch_dims: A.int(1) }), on(c, 'Concat', [on(c, 'Shape', [idx!]), i64Const(c, [4n])], { axis: A.int(0) })]);
  const coord = (j: bigint): Value => on(c, 'Gather', [cand, i64Scalar(c, j)], { axis: A.int(-1) }); // [N, C, k]
  const [x1, y1, x2, y2] = [0n, 1n, 2n, 3n].map(coord) as [Value, Value, Value, Value];
  const mine = (v: Value): Value => unsqueeze(c, v, [-1n]); // candidate i: [N, C, k, 1]
  const theirs = (v: Value): Value => unsqueeze(c, v, [-2n]); // candidate j: [N, C, 1, k]
  const op = (name: string, a: Value, b: Value): Value => on(c, name, [a, b]);
  const apart = on(c, 'Or', [
    on(c, 'Or', [op('Greater', theirs(x1), mine(x2)), op('Less', theirs(x2), mine(x1))]),
    on(c, 'Or', [op('Greater', theirs(y1), mine(y2)), op('Less', theirs(y2), mine(y1))]),
  ]);
  const n = f32Const(c, norm, []);
  const zero = f32Const(c, 0, []);
  const side = (lo: Value, hi: Value): Value => op('Add', op('Sub', op('Min', mine(hi), theirs(hi)), op('Max', mine(lo), theirs(lo))), n);
  const inter = op('Mul', side(x1, x2), side(y1, y2));
  const inverted = on(c, 'Or', [op('Less', x2, x1), op('Less', y2, y1)]);
  const area = on(c, 'Where', [inverted, zero, op('Mul', op('Add', op('Sub', x2, x1), n), op('Add', op('Sub', y2, y1), n))]); // [N, C, k]
  const iou = on(c, 'Where', [apart, zero, op('Div', inter, op('Sub', op('Add', mine(area), theirs(area)), inter))]); // [N, C, k, k]
  // candidate j is better than i: j < i
  const positions = on(c, 'Range', [i64Scalar(c, 0n), on(c, 'Squeeze', [k]), i64Scalar(c, 1n)]);
  const better = op('Less', unsqueeze(c, positions, [0n]), unsqueeze(c, positions, [1n])); // [k, k]
  const maxIou = reduce(c, 'ReduceMax', on(c, 'Where', [better, iou, zero]), [-1n], false); // [N, C, k]
  let decay: Value;
  if (decayFn === 'linear') {
    const one = c.constant(typedScalar('f64', 1)!);
    const num = op('Sub', one, cast(c, iou, 'f64'));
    const den = op('Add', op('Sub', one, cast(c, theirs(maxIou), 'f64')), c.constant(typedScalar('f64', Math.fround(1e-10))!));
    decay = cast(c, op('Div', num, den), 'f32');
  } else {
    const mj = theirs(maxIou);
    decay = on(c, 'Exp', [op('Mul', op('Sub', op('Mul', mj, mj), op('Mul', iou, iou)), f32Const(c, Math.fround(sigma), []))]);
  }
  const minDecay = reduceMin(c, on(c, 'Where', [better, decay, f32Const(c, 1, [])])); // [N, C, k]
  const decayed = op('Mul', minDecay, best!);
  let keep = on(c, 'And', [op('Greater', best!, f32Const(c, scoreThreshold, [])), op('Greater', decayed, f32Const(c, postThreshold, []))]);
  if (background >= 0n) {
    const classes = on(c, 'Range', [i64Scalar(c, 0n), on(c, 'Squeeze', [dim1(c, scores, 1n)]), i64Scalar(c, 1n)]);
    keep = on(c, 'And', [keep, on(c, 'Not', [unsqueeze(c, op('Equal', classes, i64Scalar(c, background)), [1n])])]);
  }
  const at = on(c, 'Transpose', [on(c, 'NonZero', [keep])], { perm: A.ints([1n, 0n]) }); // [K, 3]: batch, class, candidate
  const batch = on(c, 'Gather', [at, i64Scalar(c, 0n)], { axis: A.int(1) });
  const box = on(c, 'GatherND', [idx!, at]);
  const rows = {
    batch, cls: on(c, 'Gather', [at, i64Scalar(c, 1n)], { axis: A.int(1) }), box,
    score: on(c, 'GatherND', [decayed, at]),
    coords: on(c, 'GatherND', [cand, at]),
    index: op('Add', op('Mul', batch, m), box),
  };
  writeNmsRows(c, rows, dim1(c, boxes, 0n), order, c.elem(0));
}

/** ReduceMin over the last axis (ONNX takes axes as an input from opset 18). */
function reduceMin(c: ConvertContext, v: Value): Value {
  return c.opset >= 18 ? on(c, 'ReduceMin', [v, i64Const(c, [-1n])], { keepdims: A.int(0) }) : on(c, 'ReduceMin', [v], { axes: A.ints([-1n]), keepdims: A.int(0) });
}

const ATTRS = ['sort_result_type', 'sort_result_across_batch', 'output_type', 'score_threshold', 'nms_top_k', 'keep_top_k', 'background_class', 'decay_function', 'gaussian_sigma', 'post_threshold', 'normalized'];

export const MATRIX_NMS: readonly OpMapping[] = [
  {
    onnx: { op: 'TopK', since: 11 },
    ir: { op: 'MatrixNms', version: 'opset8' },
    when: never,
    handles: { ir: ATTRS },
    note: 'the decayed scores as ONNX ops over the [N, C, k, k] IoUs of the nms_top_k candidates, then TopK sorts, keep_top_k and the three outputs as OpenVINO\'s CPU plugin writes them',
    toIr: irOnly,
    toOnnx: matrixNmsToOnnx,
  },
];
