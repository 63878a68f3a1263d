import { fromIrElementType, type ElementTypeName } from '../../../graph/element-type.js';
import type { Dim, Shape } from '../../../graph/shape.js';
import { out, type InferFn, type Rule, type RuleContext } from '../../rule.js';
import { family, sameAsInput, strAttr } from '../common.js';

/**
 * OpenVINO ops that come from its other frontends (TensorFlow, PyTorch, PaddlePaddle) and that
 * ovir writes to ONNX as subgraphs, each after the op's shape_infer: Roll-7, ShuffleChannels-1,
 * SliceScatter-15 (data's type), Bucketize-3 (data's shape, output_type), SearchSorted-15 (values'
 * shape, output_type), the embedding bags (a row per bag or segment, then the table's row shape).
 */
const elemAttr = (c: RuleContext, name: string, def: ElementTypeName): ElementTypeName =>
  fromIrElementType(strAttr(c, name, def).trim())?.name ?? def;

/** [rows, ...table.shape[1:]] for an embedding op whose row count is `rows`. */
function rowsOfTable(c: RuleContext, rows: Dim): Shape {
  const t = c.shape(0);
  return t === null ? null : [rows, ...t.slice(1)];
}

const firstDim = (c: RuleContext, i: number): Dim => c.shape(i)?.[0] ?? null;

const bucketize: InferFn = (c) => [out(elemAttr(c, 'output_type', 'i64'), c.shape(0))];
const searchSorted: InferFn = (c) => [out(elemAttr(c, 'output_type', 'i64'), c.shape(1))];
const bagPacked: InferFn = (c) => [out(c.elem(0), rowsOfTable(c, firstDim(c, 1)))];
const bagOffsets: InferFn = (c) => [out(c.elem(0), rowsOfTable(c, firstDim(c, 2)))];
const segments: InferFn = (c) => {
  const n = c.ints(3);
  return [out(c.elem(0), rowsOfTable(c, n !== null && n.length === 1 ? n[0]! : null))];
};

/** AdaptiveAvgPool-8 / AdaptiveMaxPool-8: data's leading dims, then output_shape; Max adds the indices. */
const adaptive = (withIndices: boolean): InferFn => (c) => {
  const s = c.shape(0);
  const sizes = c.ints(1);
  const n = c.shape(1)?.[0];
  let shape: Shape = null;
  // one output size per spatial axis: never more than the data has axes (a declared [2^32] made 2^32 dims)
  if (s !== null && typeof n === 'number' && n > s.length) c.error(`output_shape has ${n} elements, more than the ${s.length} axes of the data`);
  else if (s !== null && typeof n === 'number') shape = [...s.slice(0, s.length - n), ...(sizes ?? new Array<Dim>(n).fill(null))];
  const y = out(c.elem(0), shape);
  return withIndices ? [y, out(elemAttr(c, 'index_element_type', 'i64'), shape)] : [y];
};

/** SpaceToBatch-2 / BatchToSpace-2: the batch times (or divided by) the block product; each other dim padded then divided (or multiplied then cropped). */
const spaceBatch = (toBatch: boolean): InferFn => (c) => {
  const s = c.shape(0);
  const [block, begin, end] = [c.ints(1), c.ints(2), c.ints(3)];
  if (s === null || !block || !begin || !end || block.length !== s.length) return [out(c.elem(0), s === null ? null : s.map(() => null))];
  const prod = block.reduce((a, b) => a * b, 1);
  const dims = s.map((d, i): Dim => {
    if (typeof d !== 'number') return null;
    if (i === 0) return toBatch ? d * prod : d / prod;
    return toBatch ? (d + begin[i]! + end[i]!) / block[i]! : d * block[i]! - begin[i]! - end[i]!;
  });
  return [out(c.elem(0), dims)];
};

/** SegmentMax-16: [num_segments (or max(segment_ids) + 1), ...data.shape[1:]]. */
const segmentMax: InferFn = (c) => {
  const n = c.has(2) ? c.ints(2) : null;
  const ids = c.ints(1);
  const rows: Dim = n !== null && n.length === 1 ? n[0]! : !c.has(2) && ids !== null && ids.length ? Math.max(...ids) + 1 : null;
  return [out(c.elem(0), rowsOfTable(c, rows))];
};

/**
 * NonMaxSuppression-1/3/4: one output of rows of 3. Its spec fixes the row count (−1 padding);
 * OpenVINO's CPU plugin returns only the selected rows (measured), so the count is left unknown.
 */
const nmsRows: InferFn = (c) => [out(c.version >= 3 ? elemAttr(c, 'output_type', 'i64') : 'i64', [null, 3])];

export const ovIrOnlyRules: Rule[] = [
  ...family('ov', ['Roll'], 7, sameAsInput),
  ...family('ov', ['ShuffleChannels'], 1, sameAsInput),
  ...family('ov', ['SliceScatter'], 15, sameAsInput),
  { dialect: 'ov', op: 'Bucketize', since: 3, infer: bucketize },
  { dialect: 'ov', op: 'SearchSorted', since: 15, infer: searchSorted },
  { dialect: 'ov', op: 'EmbeddingBagPackedSum', since: 3, infer: bagPacked },
  { dialect: 'ov', op: 'EmbeddingBagPacked', since: 15, infer: bagPacked },
  { dialect: 'ov', op: 'EmbeddingBagOffsetsSum', since: 3, infer: bagOffsets },
  { dialect: 'ov', op: 'EmbeddingBagOffsets', since: 15, infer: bagOffsets },
  { dialect: 'ov', op: 'EmbeddingSegmentsSum', since: 3, infer: segments },
  { dialect: 'ov', op: 'AdaptiveAvgPool', since: 8, infer: adaptive(false) },
  { dialect: 'ov', op: 'SpaceToBatch', since: 2, infer: spaceBatch(true) },
  { dialect: 'ov', op: 'SegmentMax', since: 16, infer: segmentMax },
  { dialect: 'ov', op: 'NonMaxSuppression', since: 1, until: 4, infer: nmsRows },
  { dialect: 'ov', op: 'BatchToSpace', since: 2, infer: spaceBatch(false) },
  { dialect: 'ov', op: 'AdaptiveMaxPool', since: 8, infer: adaptive(true) },
];
