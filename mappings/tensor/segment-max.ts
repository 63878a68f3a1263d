import { A } from '../../src/graph/attr.js';
import { tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { scalarLike } from '../generator/constant-of-shape.js';
import { i64Const, i64Scalar, INT64_MAX } from '../helpers.js';
import { cast, indexI64, irOnly, never, on, reduce, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * SegmentMax-16 (PyTorch / TensorFlow frontends), which ONNX lacks: the rows of data scattered
 * with ScatterND reduction max (ONNX opset 18) at their segment_ids into rows that start at the
 * least element of data (so max(start, x) = x), the segment count num_segments or else
 * max(segment_ids) + 1; an empty segment is filled with 0 (fill_mode ZERO) or the lowest value of
 * the element type (LOWEST: f16/f32/f64, i32, i64).
 */
const LOWEST: Partial<Record<string, number>> = { f32: -3.4028234663852886e38, f16: -65504, f64: -Number.MAX_VALUE, i32: -2147483648 };

function segmentMaxToOnnx(c: ConvertContext): void {
  const mode = (c.attr.string('fill_mode') ?? '').trim().toLowerCase();
  if (mode !== 'zero' && mode !== 'lowest') { c.unsupportedAttr('fill_mode', mode, 'ZERO or LOWEST'); return; }
  const elem = c.elem(0);
  const rank = c.rank(0);
  if (elem === null || rank === null) { c.error('SegmentMax needs the element type and rank of data to be known'); return; }
  let fill: Value | null;
  if (mode === 'zero') fill = scalarLike(c, 0, 0, 'SegmentMax fill');
  else if (elem === 'i64') fill = c.constant(tensorFromInt64([-(1n << 63n)], []));
  else if (LOWEST[elem] !== undefined) fill = scalarLike(c, 0, LOWEST[elem]!, 'SegmentMax fill');
  else { c.unsupportedAttr('fill_mode', mode, `the lowest ${elem} is not written here (f16, f32, f64, i32, i64 are)`); return; }
  if (!fill) return;
  const data = c.input(0)!;
  const seg = indexI64(c, 1);
  const count = c.numInputs > 2 && c.input(2)
    ? on(c, 'Reshape', [indexI64(c, 2), i64Const(c, [])])
    : on(c, 'Add', [reduce(c, 'ReduceMax', seg, [0n], false), i64Scalar(c, 1n)]);
  const rowShape = on(c, 'Slice', [on(c, 'Shape', [data]), i64Const(c, [1n]), i64Const(c, [INT64_MAX])]);
  const least = on(c, 'ReduceMin', [data], { keepdims: A.int(0) });
  const start = on(c, 'Expand', [least, on(c, 'Concat', [unsqueeze(c, count, [0n]), rowShape], { axis: A.int(0) })]);
  const maxed = on(c, 'ScatterND', [start, unsqueeze(c, seg, [1n]), data], { reduction: A.string('max') });
  const ids = on(c, 'Range', [i64Scalar(c, 0n), count, i64Scalar(c, 1n)]);
  const members = reduce(c, 'ReduceSum', cast(c, on(c, 'Equal', [unsqueeze(c, ids, [1n]), unsqueeze(c, seg, [0n])]), 'i64'), [1n], false);
  let empty = on(c, 'Equal', [members, i64Scalar(c, 0n)]);
  if (rank > 1) empty = unsqueeze(c, empty, Array.from({ length: rank - 1 }, (_, k) => BigInt(k + 1)));
  c.output(0, on(c, 'Where', [empty, fill, maxed]));
}

export const SEGMENT_MAX: readonly OpMapping[] = [
  {
    onnx: { op: 'ScatterND', since: 18 },
    ir: { op: 'SegmentMax', version: 'opset16' },
    when: never,
    handles: { ir: ['fill_mode'] },
    note: 'ScatterND max of the rows at their segment into rows of the least element; empty segments filled',
    toIr: irOnly,
    toOnnx: segmentMaxToOnnx,
  },
];
