import { A } from '../../src/graph/attr.js';
import { tensorFromInt64 } from '../../src/graph/tensor.js';
import { tensorType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar, INT64_MAX } from '../helpers.js';
import { cast, dimOf, irOnly, never, on, onnxLoop, unsqueeze, type LoopBody } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * GatherTree-1 (beam search: TensorFlow's gather_tree, the Open Model Zoo's machine translation),
 * which ONNX lacks, after OpenVINO's reference (gather_tree.cpp) and CPU plugin. step_ids and
 * parent_ids [T, B, W], max_seq_len [B], end_token a scalar, all of one type (i32 or f32; indices
 * truncated toward zero). Per batch b and beam w, with L = min(T, max_seq_len[b]): the beam's path
 * is followed backwards from a = w at t = L − 1, out[t] = step_ids[t, b, a], a ← parent_ids[t, b, a];
 * every t ≥ L is end_token, and after the first end_token at t < L every later step is end_token.
 * Written as an ONNX Loop of T iterations (t = T − 1 − i) carrying the ancestor a [B, W]: each
 * iteration GatherElements the step's ids and parents at a (a kept while t ≥ L), the rows are
 * the Loop's scan output (reversed after it); then the end_token masks by an exclusive CumSum over
 * t. A parent outside [0, W) makes OpenVINO fail ("Wrong parent index"); onnxruntime fails too
 * (or, for −W … −1, reads from the end).
 */
function gatherTreeToOnnx(c: ConvertContext): void {
  const elem = c.elem(0);
  if (elem !== 'i32' && elem !== 'f32') { c.error(`GatherTree takes i32 or f32 (its spec's types), not ${elem ?? 'an unknown type'}`); return; }
  for (let i = 0; i < 4; i++) {
    if (c.elem(i) !== elem) { c.error(`GatherTree's inputs are all of one type: input ${i} is ${c.elem(i) ?? 'unknown'}, input 0 ${elem}`); return; }
  }
  const step = c.input(0)!;
  const asIndex = (v: Value): Value => cast(c, v, 'i64'); // truncation toward zero, as static_cast
  const parents = asIndex(c.input(1)!);
  const length = unsqueeze(c, asIndex(c.input(2)!), [1n]); // [B, 1]
  const end = on(c, 'Reshape', [c.input(3)!, i64Const(c, [])]);
  const T = dimOf(c, step, 0n);
  const W = dimOf(c, step, 2n);
  const beams = on(c, 'Range', [i64Scalar(c, 0n), W, i64Scalar(c, 1n)]);
  const start = on(c, 'Expand', [unsqueeze(c, beams, [0n]), on(c, 'Shape', [on(c, 'Gather', [parents, i64Scalar(c, 0n)], { axis: A.int(0) })])]); // [B, W]: a = w
  const [, reversed] = onnxLoop(c, {
    trips: T, iteration: 'i', scans: 1,
    carried: [{ value: start, name: 'ancestor', type: tensorType('i64', [null, null]) }],
    captures: [
      { value: step, name: 'step_ids', type: tensorType(elem, [null, null, null]) }, { value: parents, name: 'parent_ids', type: tensorType('i64', [null, null, null]) },
      { value: length, name: 'length', type: tensorType('i64', [null, 1]) }, { value: T, name: 'steps', type: tensorType('i64', []) },
    ],
  }, backwardStep);
  // rows in time order, then the end_token masks
  const rows = on(c, 'Slice', [reversed!, i64Const(c, [-1n]), i64Const(c, [-INT64_MAX - 1n]), i64Const(c, [0n]), i64Const(c, [-1n])]);
  const t = on(c, 'Reshape', [on(c, 'Range', [i64Scalar(c, 0n), T, i64Scalar(c, 1n)]), i64Const(c, [-1n, 1n, 1n])]);
  const inSequence = on(c, 'Less', [t, unsqueeze(c, length, [0n])]); // [T, B, 1]
  const isEnd = cast(c, on(c, 'And', [on(c, 'Equal', [rows, end]), inSequence]), 'i64');
  const endedBefore = on(c, 'Greater', [on(c, 'CumSum', [isEnd, i64Scalar(c, 0n)], { exclusive: A.int(1) }), i64Scalar(c, 0n)]);
  c.output(0, on(c, 'Where', [on(c, 'Or', [on(c, 'Not', [inSequence]), endedBefore]), end, rows]));
}

/** One iteration: (i, a; captured step_ids, parents, lengths, T) → (a', the row of step t = T − 1 − i). */
function backwardStep({ graph: g, i, carried: [a], captures: [step, parents, length, T], op }: LoopBody): { carried: Value[]; scans: Value[] } {
  const t = op('Sub', [op('Sub', [T!, g.addInitializer(tensorFromInt64([1n], []))]), i]);
  const axis0 = { axis: A.int(0) };
  const ids = op('Gather', [step!, t], axis0); // [B, W]
  const up = op('Gather', [parents!, t], axis0);
  const row = op('GatherElements', [ids, a!], { axis: A.int(1) });
  const next = op('Where', [op('Less', [t, length!]), op('GatherElements', [up, a!], { axis: A.int(1) }), a!]);
  return { carried: [next], scans: [row] };
}

export const GATHER_TREE: readonly OpMapping[] = [
  {
    onnx: { op: 'Loop', since: 11 },
    ir: { op: 'GatherTree', version: 'opset1' },
    when: never,
    note: 'a Loop over the steps backwards carrying each beam\'s ancestor (GatherElements), then the end_token masks (CumSum)',
    toIr: irOnly,
    toOnnx: gatherTreeToOnnx,
  },
];
