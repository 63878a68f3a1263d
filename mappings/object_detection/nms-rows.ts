import { A } from '../../src/graph/attr.js';
import type { ElementTypeName } from '../../src/graph/element-type.js';
import { tensorFromFloat32 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { INT64_MAX, i64Const, i64Scalar, onnxAxesOp } from '../helpers.js';
import { cast, on, reduce, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext } from '../spec.js';

/**
 * What OpenVINO's MulticlassNms-8/9 and MatrixNms-8 share once each (batch, class) has its kept
 * boxes (mappings/object_detection/multiclass-nms.ts, matrix-nms.ts): the rows are ordered, cut to
 * keep_top_k per batch and written as the three outputs, as OpenVINO's CPU plugin does
 * (intel_cpu/src/nodes/multiclass_nms.cpp, matrix_nms.cpp):
 *   1. per batch by score, descending (ties: class, then box index, ascending);
 *   2. keep_top_k (≥ 0) rows of each batch;
 *   3. sort_result_across_batch: all rows by score (ties: batch, class, box) or by class (then
 *      batch, score); else classid orders each batch's rows by class (then score) for MulticlassNms
 *      (MatrixNms's CPU kernel leaves them); none and score keep step 1's order;
 *   4. selected_outputs [K, 6] (class, score, x1, y1, x2, y2) in the boxes' type, selected_indices
 *      [K, 1] and valid_outputs [N] (rows per batch) in output_type.
 * Sorting is ONNX TopK, which puts equal keys in input order (onnx's TopK: the lower index first),
 * so a sort by several keys is one stable TopK per key, the least significant first.
 * OpenVINO's per-batch sort treats scores within 1e-6 as equal (then the class decides): scores
 * that close order by score here.
 */

/** One row per kept box: batch, class, box index (i64 [K]), score (f32 [K]), box (f32 [K, 4]), flat index (i64 [K]). */
export interface NmsRows {
  batch: Value;
  cls: Value;
  box: Value;
  score: Value;
  coords: Value;
  index: Value;
}

export type SortResultType = 'score' | 'classid' | 'none';

/** The attributes both ops share, read and checked (null after a diagnostic). */
export interface NmsOrder {
  readonly sortType: SortResultType;
  readonly acrossBatch: boolean;
  readonly keepTopK: bigint;
  readonly outputType: 'i32' | 'i64';
  /** classid without sort_result_across_batch reorders each batch's rows (MulticlassNms; not MatrixNms). */
  readonly classidPerBatch: boolean;
}

export function readNmsOrder(c: ConvertContext, classidPerBatch: boolean): NmsOrder | null {
  const sortType = (c.attr.string('sort_result_type') ?? 'none').trim().toLowerCase();
  if (sortType !== 'score' && sortType !== 'classid' && sortType !== 'none') { c.unsupportedAttr('sort_result_type', sortType, 'supported: score, classid, none'); return null; }
  const outputType = (c.attr.string('output_type') ?? 'i64').trim().toLowerCase();
  if (outputType !== 'i32' && outputType !== 'i64') { c.unsupportedAttr('output_type', outputType, 'supported: i32, i64'); return null; }
  return { sortType, acrossBatch: c.attr.bool('sort_result_across_batch') ?? false, keepTopK: c.attr.int('keep_top_k') ?? -1n, outputType, classidPerBatch };
}

/** The f32 just below `v` (a threshold ONNX compares with `>` where OpenVINO compares with `>=`). */
export function below(v: number): number {
  const f = new Float32Array([v]);
  if (!Number.isFinite(f[0]!)) return f[0]!;
  if (f[0] === 0) return -(2 ** -149);
  const bits = new Int32Array(f.buffer);
  bits[0] = f[0]! > 0 ? bits[0]! - 1 : bits[0]! + 1;
  return f[0]!;
}

export const f32Const = (c: ConvertContext, v: number, dims: readonly number[] = [1]): Value => c.constant(tensorFromFloat32([v], dims));

/** `v` (source input `i`) as f32, the type OpenVINO's CPU plugin computes these ops in. */
export const asF32 = (c: ConvertContext, i: number): Value => (c.elem(i) === 'f32' ? c.input(i)! : cast(c, c.input(i)!, 'f32'));

/** Column `k` of an i64 [K, 3] tensor, as [K]. */
export const column = (c: ConvertContext, rows: Value, k: bigint): Value => on(c, 'Gather', [rows, i64Scalar(c, k)], { axis: A.int(1) });

/** Dim `axis` of `v` as an i64 [1]. */
export const dim1 = (c: ConvertContext, v: Value, axis: bigint): Value =>
  on(c, 'Slice', [on(c, 'Shape', [v]), i64Const(c, [axis]), i64Const(c, [axis === -1n ? INT64_MAX : axis + 1n])]);

/** The rows reordered by `key` (1-D), stably: ascending or descending. */
function sortBy(c: ConvertContext, rows: NmsRows, key: Value, descending: boolean): NmsRows {
  const k = on(c, 'Shape', [key]);
  const order = c.emit('TopK', [key, k], { axis: A.int(0), largest: A.int(descending ? 1 : 0), sorted: A.int(1) }, 2)[1]!;
  return pick(c, rows, order);
}

function pick(c: ConvertContext, rows: NmsRows, at: Value): NmsRows {
  const g = (v: Value): Value => on(c, 'Gather', [v, at], { axis: A.int(0) });
  return { batch: g(rows.batch), cls: g(rows.cls), box: g(rows.box), score: g(rows.score), coords: g(rows.coords), index: g(rows.index) };
}

function keepWhere(c: ConvertContext, rows: NmsRows, cond: Value): NmsRows {
  const k = (v: Value): Value => on(c, 'Compress', [v, cond], { axis: A.int(0) });
  return { batch: k(rows.batch), cls: k(rows.cls), box: k(rows.box), score: k(rows.score), coords: k(rows.coords), index: k(rows.index) };
}

/** Rows of each batch 0…N-1 (i64 [N]) from the rows' batch column. */
function perBatch(c: ConvertContext, batch: Value, n: Value): Value {
  const all = on(c, 'Range', [i64Scalar(c, 0n), onnxAxesOp(c, 'Squeeze', n, [0n]), i64Scalar(c, 1n)]);
  const hit = cast(c, on(c, 'Equal', [unsqueeze(c, batch, [1n]), all]), 'i64'); // [K, N]
  return reduce(c, 'ReduceSum', hit, [0n], false);
}

/** Drops the rows of class `background` (OpenVINO skips that class). */
export function dropBackground(c: ConvertContext, rows: NmsRows, background: bigint): NmsRows {
  if (background < 0n) return rows;
  return keepWhere(c, rows, on(c, 'Not', [on(c, 'Equal', [rows.cls, i64Scalar(c, background)])]));
}

/**
 * Steps 1–4 above on the kept rows of `n` (i64 [1]) batches, listed batch by batch (the order
 * within a batch is free). Writes the node's three outputs.
 */
export function writeNmsRows(c: ConvertContext, rows0: NmsRows, n: Value, order: NmsOrder, boxesElem: ElementTypeName | null): void {
  // 1. per batch by score: class, then box ascending, score descending, batch ascending
  let rows = sortBy(c, rows0, rows0.box, false);
  rows = sortBy(c, rows, rows.cls, false);
  rows = sortBy(c, rows, rows.score, true);
  rows = sortBy(c, rows, rows.batch, false);
  // 2. keep_top_k of each batch: a row's rank is its position less its batch's first position
  if (order.keepTopK >= 0n) {
    const first = on(c, 'CumSum', [perBatch(c, rows.batch, n), i64Scalar(c, 0n)], { exclusive: A.int(1) });
    const positions = on(c, 'Range', [i64Scalar(c, 0n), onnxAxesOp(c, 'Squeeze', on(c, 'Shape', [rows.batch]), [0n]), i64Scalar(c, 1n)]);
    const rank = on(c, 'Sub', [positions, on(c, 'Gather', [first, rows.batch], { axis: A.int(0) })]);
    rows = keepWhere(c, rows, on(c, 'Less', [rank, i64Scalar(c, order.keepTopK)]));
  }
  // 3. the final order
  if (order.acrossBatch && order.sortType === 'score') rows = sortBy(c, rows, rows.score, true);
  else if (order.sortType === 'classid' && (order.acrossBatch || order.classidPerBatch)) {
    rows = sortBy(c, rows, rows.cls, false);
    if (!order.acrossBatch) rows = sortBy(c, rows, rows.batch, false);
  }
  // 4. the outputs
  const elem = boxesElem ?? 'f32';
  const head = [unsqueeze(c, cast(c, rows.cls, 'f32'), [1n]), unsqueeze(c, rows.score, [1n])];
  const selected = on(c, 'Concat', [...head, rows.coords], { axis: A.int(1) });
  c.output(0, elem === 'f32' ? selected : cast(c, selected, elem));
  const typed = (v: Value): Value => (order.outputType === 'i64' ? v : cast(c, v, 'i32'));
  c.output(1, typed(unsqueeze(c, rows.index, [1n])));
  c.output(2, typed(perBatch(c, rows.batch, n)));
}
