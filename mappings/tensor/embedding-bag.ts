import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { scalarLike } from '../generator/constant-of-shape.js';
import { i64Const, i64Scalar, INT64_MAX } from '../helpers.js';
import { cast, dimOf, indexI64, irOnly, never, on, reduce, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * Embedding bags (OpenVINO ops of the PyTorch / TensorFlow frontends) as ONNX: the rows
 * Gather(emb_table, indices), times per_sample_weights when given, reduced per bag.
 * - EmbeddingBagPackedSum-3 / EmbeddingBagPacked-15 (indices [bags, L]): ReduceSum (or ReduceMean
 *   for reduction mean) over L.
 * - EmbeddingBagOffsetsSum-3 / EmbeddingBagOffsets-15 (indices [N], bag b = indices[offsets[b] :
 *   offsets[b+1]]) and EmbeddingSegmentsSum-3 (row i goes to segment segment_ids[i] of
 *   num_segments): the rows summed into zeros with ScatterND reduction add (ONNX opset 16) at each
 *   row's bag (for offsets: the count of offsets ≤ i, minus 1); mean divides by the bag's size;
 *   an empty bag is row default_index of the table when given (a negative one: zeros), else zeros.
 */
type Reduction = 'sum' | 'mean';

function reduction(c: ConvertContext): Reduction | null {
  const r = (c.attr.string('reduction') ?? 'sum').trim().toLowerCase();
  if (r !== 'sum' && r !== 'mean') { c.unsupportedAttr('reduction', r, 'sum or mean'); return null; }
  if (r === 'mean' && weightsIndex(c) !== null) { c.unsupportedAttr('reduction', r, 'per_sample_weights go with reduction sum only (the spec)'); return null; }
  return r;
}

/** Input index of per_sample_weights when present. */
function weightsIndex(c: ConvertContext): number | null {
  const i = c.entry.ir?.op.startsWith('EmbeddingBagPacked') ? 2 : c.entry.ir?.op === 'EmbeddingSegmentsSum' ? 5 : 4;
  return c.numInputs > i && c.input(i) ? i : null;
}

/** The table's rows at `indices` (input 1), weighted; `lead` = the index dims (1 or 2). */
function rows(c: ConvertContext, lead: number): Value | null {
  const rank = c.rank(0);
  if (rank === null) { c.error(`${c.node.op} needs the rank of emb_table to be known`); return null; }
  const g = on(c, 'Gather', [c.input(0)!, c.input(1)!], { axis: A.int(0) });
  const w = weightsIndex(c);
  if (w === null) return g;
  const trailing = Array.from({ length: rank - 1 }, (_, k) => BigInt(lead + k));
  return on(c, 'Mul', [g, trailing.length ? unsqueeze(c, c.input(w)!, trailing) : c.input(w)!]);
}

/** Sums `g` [N, ...row] into `bags` rows at `bag` [N] (int64); empty bags (count 0) take the default row. */
function sumIntoBags(c: ConvertContext, g: Value, bag: Value, bags: Value, count: Value, red: Reduction, defaultAt: number): void {
  const rank = c.rank(0)!;
  const zero = scalarLike(c, 0, 0, c.node.op);
  if (!zero) return;
  const rowShape = on(c, 'Slice', [on(c, 'Shape', [c.input(0)!]), i64Const(c, [1n]), i64Const(c, [INT64_MAX])]);
  const zeros = on(c, 'Expand', [zero, on(c, 'Concat', [unsqueeze(c, bags, [0n]), rowShape], { axis: A.int(0) })]);
  let out = on(c, 'ScatterND', [zeros, unsqueeze(c, bag, [1n]), g], { reduction: A.string('add') });
  const perRow = (v: Value): Value => (rank > 1 ? unsqueeze(c, v, Array.from({ length: rank - 1 }, (_, k) => BigInt(k + 1))) : v);
  if (red === 'mean') {
    const n = cast(c, on(c, 'Max', [count, i64Scalar(c, 1n)]), c.elem(0)!);
    out = on(c, 'Div', [out, perRow(n)]);
  }
  if (c.numInputs > defaultAt && c.input(defaultAt)) {
    const known = c.constInts(defaultAt);
    if (known === null || known[0]! >= 0n) {
      const d = on(c, 'Reshape', [indexI64(c, defaultAt), i64Const(c, [])]);
      let empty = on(c, 'Equal', [count, i64Scalar(c, 0n)]);
      if (known === null) empty = on(c, 'And', [empty, on(c, 'GreaterOrEqual', [d, i64Scalar(c, 0n)])]);
      const row = on(c, 'Gather', [c.input(0)!, known === null ? on(c, 'Max', [d, i64Scalar(c, 0n)]) : d], { axis: A.int(0) });
      out = on(c, 'Where', [perRow(empty), row, out]);
    }
  }
  c.output(0, out);
}

function packedToOnnx(c: ConvertContext): void {
  const red = reduction(c);
  const g = red === null ? null : rows(c, 2);
  if (!g) return;
  c.output(0, reduce(c, red === 'mean' ? 'ReduceMean' : 'ReduceSum', g, [1n], false));
}

function offsetsToOnnx(c: ConvertContext): void {
  const red = reduction(c);
  const g = red === null ? null : rows(c, 1);
  if (!g || !red) return;
  const offsets = indexI64(c, 2);
  const n = dimOf(c, c.input(1)!, 0n);
  const at = on(c, 'Range', [i64Scalar(c, 0n), n, i64Scalar(c, 1n)]);
  const started = cast(c, on(c, 'LessOrEqual', [unsqueeze(c, offsets, [0n]), unsqueeze(c, at, [1n])]), 'i64');
  const bag = on(c, 'Sub', [reduce(c, 'ReduceSum', started, [1n], false), i64Scalar(c, 1n)]);
  const next = on(c, 'Concat', [on(c, 'Slice', [offsets, i64Const(c, [1n]), i64Const(c, [INT64_MAX])]), unsqueeze(c, n, [0n])], { axis: A.int(0) });
  sumIntoBags(c, g, bag, dimOf(c, c.input(2)!, 0n), on(c, 'Sub', [next, offsets]), red, 3);
}

function segmentsToOnnx(c: ConvertContext): void {
  const g = rows(c, 1);
  if (!g) return;
  const seg = indexI64(c, 2);
  const bags = on(c, 'Reshape', [indexI64(c, 3), i64Const(c, [])]);
  const ids = on(c, 'Range', [i64Scalar(c, 0n), bags, i64Scalar(c, 1n)]);
  const count = reduce(c, 'ReduceSum', cast(c, on(c, 'Equal', [unsqueeze(c, ids, [1n]), unsqueeze(c, seg, [0n])]), 'i64'), [1n], false);
  sumIntoBags(c, g, seg, bags, count, 'sum', 4);
}

const entry = (ir: string, version: string, stands: string, since: number, note: string, toOnnx: (c: ConvertContext) => void): OpMapping => ({
  onnx: { op: stands, since },
  ir: { op: ir, version },
  when: never,
  handles: { ir: version === 'opset15' ? ['reduction'] : [] },
  note,
  toIr: irOnly,
  toOnnx,
});

export const EMBEDDING_BAG: readonly OpMapping[] = [
  entry('EmbeddingBagPackedSum', 'opset3', 'ReduceSum', 13, 'ReduceSum over L of the weighted Gather(emb_table, indices)', packedToOnnx),
  entry('EmbeddingBagPacked', 'opset15', 'ReduceSum', 13, 'ReduceSum (ReduceMean) over L of the weighted Gather(emb_table, indices)', packedToOnnx),
  entry('EmbeddingBagOffsetsSum', 'opset3', 'ScatterND', 16, 'ScatterND add of the weighted rows at their bag; empty bags the default row', offsetsToOnnx),
  entry('EmbeddingBagOffsets', 'opset15', 'ScatterND', 16, 'ScatterND add of the weighted rows at their bag (÷ size for mean); empty bags the default row', offsetsToOnnx),
  entry('EmbeddingSegmentsSum', 'opset3', 'ScatterND', 16, 'ScatterND add of the weighted rows at their segment; empty segments the default row', segmentsToOnnx),
];
