import { A } from '../../src/graph/attr.js';
import { elementType, type ElementTypeName } from '../../src/graph/element-type.js';
import { tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, indexI64, irOnly, never, on, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * CTCGreedyDecoder-1 and CTCGreedyDecoderSeqLen-6 (TensorFlow / Open Model Zoo text recognition),
 * which ONNX lacks, after OpenVINO's references: at each step t of batch n the class is the first
 * maximum over the classes (ArgMax); it is written out when t is within the sequence, it is not the
 * blank, and (merge_repeated) it differs from the class of step t − 1 (blank or not, −1 before
 * the first step); the written classes are packed to the left, the rest −1. Without a Loop: the
 * kept steps' places are CumSum(keep) − 1, the others go to a spare column T, ScatterElements
 * into a [N, T + 1] row of −1, Slice [:, :T]; the length is ReduceSum(keep).
 *  - SeqLen-6: data [N, T, C], sequence_length [N], blank_index (default C − 1); outputs the classes
 *    [N, T] (classes_index_type) and the lengths [N] (sequence_length_type).
 *  - CTCGreedyDecoder-1: data [T, N, C], sequence_masks [T, N] (a sequence ends at its first 0),
 *    the blank C − 1; one output [N, T, 1, 1] of the data's type.
 */
function decode(c: ConvertContext, cls: Value, valid: Value, blank: Value, merge: boolean, steps: Value): { decoded: Value; lengths: Value } {
  // cls [N, T] i64, valid [N, T] bool, blank i64 scalar, steps = T (i64 [1])
  let keep = on(c, 'And', [valid, on(c, 'Not', [on(c, 'Equal', [cls, blank])])]);
  if (merge) {
    const n = on(c, 'Gather', [on(c, 'Shape', [cls]), i64Const(c, [0n])], { axis: A.int(0) });
    const first = on(c, 'Expand', [c.constant(tensorFromInt64([-1n], [1, 1])), on(c, 'Concat', [n, i64Const(c, [1n])], { axis: A.int(0) })]);
    const before = on(c, 'Slice', [cls, i64Const(c, [0n]), i64Const(c, [-1n]), i64Const(c, [1n])]);
    const prev = on(c, 'Concat', [first, before], { axis: A.int(1) });
    keep = on(c, 'And', [keep, on(c, 'Not', [on(c, 'Equal', [cls, prev])])]);
  }
  const kept = cast(c, keep, 'i64');
  const place = on(c, 'Sub', [on(c, 'CumSum', [kept, i64Scalar(c, 1n)]), i64Scalar(c, 1n)]);
  const target = on(c, 'Where', [keep, place, on(c, 'Reshape', [steps, i64Const(c, [])])]);
  const rows = on(c, 'Shape', [on(c, 'Pad', [cls, i64Const(c, [0n, 0n, 0n, 1n])])]); // [N, T + 1]
  const empty = on(c, 'Expand', [i64Scalar(c, -1n), rows]);
  const scattered = on(c, 'ScatterElements', [empty, target, cls], { axis: A.int(1) });
  const decoded = on(c, 'Slice', [scattered, i64Const(c, [0n]), steps, i64Const(c, [1n])]);
  const lengths = on(c, 'ReduceSum', [kept, i64Const(c, [1n])], { keepdims: A.int(0) });
  return { decoded, lengths };
}

const dimOf = (c: ConvertContext, v: Value, axis: bigint): Value => on(c, 'Gather', [on(c, 'Shape', [v]), i64Const(c, [axis])], { axis: A.int(0) });
const asType = (c: ConvertContext, v: Value, t: ElementTypeName): Value => (t === 'i64' ? v : cast(c, v, t));

function indexType(c: ConvertContext, name: string): ElementTypeName | null {
  const t = (c.attr.string(name) ?? 'i32').trim().toLowerCase();
  if (t !== 'i32' && t !== 'i64') { c.unsupportedAttr(name, t, 'i32 or i64'); return null; }
  return t;
}

function seqLenToOnnx(c: ConvertContext): void {
  const classesType = indexType(c, 'classes_index_type');
  const lengthType = indexType(c, 'sequence_length_type');
  if (!classesType || !lengthType) return;
  const merge = c.attr.bool('merge_repeated') ?? true;
  const data = c.input(0)!;
  const cls = on(c, 'ArgMax', [data], { axis: A.int(2), keepdims: A.int(0) });
  const steps = dimOf(c, data, 1n);
  const t = on(c, 'Range', [i64Scalar(c, 0n), on(c, 'Reshape', [steps, i64Const(c, [])]), i64Scalar(c, 1n)]);
  const valid = on(c, 'Less', [unsqueeze(c, t, [0n]), unsqueeze(c, indexI64(c, 1), [1n])]);
  const blank = c.numInputs > 2 && c.input(2)
    ? on(c, 'Reshape', [indexI64(c, 2), i64Const(c, [])])
    : on(c, 'Sub', [on(c, 'Reshape', [dimOf(c, data, 2n), i64Const(c, [])]), i64Scalar(c, 1n)]);
  const { decoded, lengths } = decode(c, cls, valid, blank, merge, steps);
  c.output(0, asType(c, decoded, classesType));
  c.output(1, asType(c, lengths, lengthType));
}

function greedyToOnnx(c: ConvertContext): void {
  const elem = c.elem(0);
  if (elem === null || elem === 'dynamic' || elementType(elem).kind !== 'float') { c.error('CTCGreedyDecoder needs float data'); return; }
  const merge = c.attr.bool('ctc_merge_repeated') ?? true;
  const data = c.input(0)!;
  const cls = on(c, 'Transpose', [on(c, 'ArgMax', [data], { axis: A.int(2), keepdims: A.int(0) })], { perm: A.ints([1, 0]) });
  // a sequence ends at its first zero mask: steps before any zero
  const zeros = cast(c, on(c, 'Not', [cast(c, c.input(1)!, 'boolean')]), 'i64');
  const valid = on(c, 'Equal', [on(c, 'Transpose', [on(c, 'CumSum', [zeros, i64Scalar(c, 0n)])], { perm: A.ints([1, 0]) }), i64Scalar(c, 0n)]);
  const blank = on(c, 'Sub', [on(c, 'Reshape', [dimOf(c, data, 2n), i64Const(c, [])]), i64Scalar(c, 1n)]);
  const { decoded } = decode(c, cls, valid, blank, merge, dimOf(c, data, 0n));
  c.output(0, unsqueeze(c, cast(c, decoded, elem), [2n, 3n]));
}

export const CTC_GREEDY_DECODER: readonly OpMapping[] = [
  {
    onnx: { op: 'ScatterElements', since: 13 },
    ir: { op: 'CTCGreedyDecoderSeqLen', version: 'opset6' },
    when: never,
    handles: { ir: ['merge_repeated', 'classes_index_type', 'sequence_length_type'] },
    note: 'ArgMax per step, kept steps (in the sequence, not blank, not a repeat) packed left by CumSum + ScatterElements',
    toIr: irOnly,
    toOnnx: seqLenToOnnx,
  },
  {
    onnx: { op: 'ScatterElements', since: 13 },
    ir: { op: 'CTCGreedyDecoder', version: 'opset1' },
    when: never,
    handles: { ir: ['ctc_merge_repeated'] },
    note: 'ArgMax per step, kept steps (before the first zero mask, not blank C − 1, not a repeat) packed left by CumSum + ScatterElements',
    toIr: irOnly,
    toOnnx: greedyToOnnx,
  },
];
