import { fromIrElementType } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { cast, irOnly, never, on, reduce, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * Positions in sorted boundaries, which ONNX has no op for, as a count of the boundaries below
 * each value (exact: comparisons and an integer sum).
 * - Bucketize-3 (data, 1-D buckets): with_right_bound (intervals (b[i−1], b[i]]) counts b < x,
 *   otherwise ([b[i−1], b[i])) b ≤ x.
 * - SearchSorted-15 (sorted_sequence [..., N], values [..., M]; or a 1-D sequence for any values):
 *   right_mode counts s ≤ v (the last position v can take), otherwise s < v (the first).
 * The result is output_type (i64 or i32).
 */
function countBelow(c: ConvertContext, bounds: Value, values: Value, orEqual: boolean): void {
  const t = (c.attr.string('output_type') ?? 'i64').trim().toLowerCase();
  const elem = fromIrElementType(t)?.name;
  if (elem !== 'i64' && elem !== 'i32') { c.unsupportedAttr('output_type', t, 'i64 or i32'); return; }
  if (c.elem(0) !== c.elem(1)) { c.error(`${c.node.op} of ${c.elem(0) ?? 'unknown'} and ${c.elem(1) ?? 'unknown'} operands: ONNX compares one element type`); return; }
  const below = on(c, orEqual ? 'LessOrEqual' : 'Less', [bounds, unsqueeze(c, values, [-1n])]);
  const count = reduce(c, 'ReduceSum', cast(c, below, 'i64'), [-1n], false);
  c.output(0, elem === 'i64' ? count : cast(c, count, 'i32'));
}

export const BUCKETIZE: readonly OpMapping[] = [
  {
    onnx: { op: 'LessOrEqual', since: 12 },
    ir: { op: 'Bucketize', version: 'opset3' },
    when: never,
    handles: { ir: ['output_type', 'with_right_bound'] },
    note: 'ReduceSum over the buckets of (b < x), or (b <= x) without the right bound',
    toIr: irOnly,
    toOnnx: (c) => countBelow(c, c.input(1)!, c.input(0)!, !(c.attr.bool('with_right_bound') ?? true)),
  },
  {
    onnx: { op: 'LessOrEqual', since: 12 },
    ir: { op: 'SearchSorted', version: 'opset15' },
    when: never,
    handles: { ir: ['output_type', 'right_mode'] },
    note: 'ReduceSum over the sequence of (s < v), or (s <= v) in right_mode',
    toIr: irOnly,
    toOnnx: (c) => {
      const r = c.rank(0);
      if (r === null) { c.error('SearchSorted needs the rank of sorted_sequence to be known'); return; }
      const seq = r === 1 ? c.input(0)! : unsqueeze(c, c.input(0)!, [-2n]);
      countBelow(c, seq, c.input(1)!, c.attr.bool('right_mode') ?? false);
    },
  },
];
