import { A } from '../../src/graph/attr.js';
import { tensorFromInt64 } from '../../src/graph/tensor.js';
import { tensorType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, dimOf, irOnly, never, on, onnxLoop, unsqueeze, type LoopBody } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * GroupedMatMul-17 (mixture-of-experts layers of LLM IRs), which ONNX lacks, as OpenVINO 2026.4
 * defines it (op/grouped_matmul.hpp, grouped_matmul_shape_inference.hpp: mat_b holds each group's
 * weights transposed, [G, N, K]; OpenVINO's CPU plugin has no kernel for it and the op no evaluate,
 * measured):
 * - 3-D × 3-D, no offsets: out[g] = mat_a[g] · mat_b[g]ᵀ, [G, M, N] — one ONNX MatMul of mat_a
 *   and Transpose(mat_b, [0, 2, 1]).
 * - 2-D × 3-D with offsets [G] (cumulative row counts, i32 or i64): rows offsets[g − 1] …
 *   offsets[g] − 1 of mat_a [T, K] (from row 0 for g = 0) times mat_b[g]ᵀ; rows from
 *   offsets[G − 1] on are 0 (the reference zero-fills the output). Written as an ONNX Loop over
 *   the G groups concatenating each group's MatMul of its Slice of rows (T·N·K products, as the op
 *   computes, and no [T, K, N] copy of the weights), then a Pad of zero rows to T.
 * The 2-D × 2-D form of later OpenVINO versions (weight gradients) is no IR 2026.4 accepts: refused.
 */
function groupedMatMulToOnnx(c: ConvertContext): void {
  const [ra, rb] = [c.rank(0), c.rank(1)];
  const a = c.input(0)!;
  const bt = on(c, 'Transpose', [c.input(1)!], { perm: A.ints([0n, 2n, 1n]) }); // [G, K, N]
  const offsets = c.numInputs > 2 ? c.input(2) : null;
  if (ra === 3 && rb === 3) {
    c.output(0, on(c, 'MatMul', [a, bt]));
    return;
  }
  if (ra !== 2 || rb !== 3 || !offsets) {
    c.error(`GroupedMatMul of mat_a rank ${ra ?? 'unknown'} and mat_b rank ${rb ?? 'unknown'}${offsets ? '' : ' without offsets'}: OpenVINO 2026.4 defines 3-D × 3-D and 2-D × 3-D with offsets`);
    return;
  }
  const elem = c.elem(0);
  if (elem === null || elem === 'dynamic') { c.error('GroupedMatMul needs the element type of mat_a to be known'); return; }
  const bounds = on(c, 'Concat', [i64Const(c, [0n]), c.elem(2) === 'i64' ? offsets : cast(c, offsets, 'i64')], { axis: A.int(0) }); // [G + 1]
  // no rows yet: [0, N], of mat_a's type
  const none = on(c, 'MatMul', [on(c, 'Slice', [a, i64Const(c, [0n]), i64Const(c, [0n]), i64Const(c, [0n])]), on(c, 'Gather', [bt, i64Scalar(c, 0n)], { axis: A.int(0) })]);
  const bType = c.type(1);
  const n = bType?.kind === 'tensor' && bType.shape ? bType.shape[1] ?? null : null;
  const k = bType?.kind === 'tensor' && bType.shape ? bType.shape[2] ?? null : null;
  const [rows] = onnxLoop(c, {
    trips: dimOf(c, offsets, 0n), iteration: 'g',
    carried: [{ value: none, name: 'rows', type: tensorType(elem, [null, typeof n === 'number' ? n : null]) }],
    captures: [
      { value: a, name: 'mat_a', type: tensorType(elem, [null, typeof k === 'number' ? k : null]) },
      { value: bt, name: 'weights', type: tensorType(elem, [null, typeof k === 'number' ? k : null, typeof n === 'number' ? n : null]) },
      { value: bounds, name: 'bounds', type: tensorType('i64', [null]) },
    ],
  }, groupRows);
  // rows past the last offset: zeros, up to mat_a's row count
  const missing = on(c, 'Max', [on(c, 'Sub', [dimOf(c, a, 0n), dimOf(c, rows!, 0n)]), i64Scalar(c, 0n)]);
  const zero = i64Const(c, [0n]);
  const pads = on(c, 'Concat', [zero, zero, unsqueeze(c, missing, [0n]), zero], { axis: A.int(0) });
  c.output(0, on(c, 'Pad', [rows!, pads]));
}

/** One group g: rows bounds[g] … bounds[g + 1] − 1 of mat_a times weights[g], appended to the rows so far. */
function groupRows({ graph: g, i, carried: [done], captures: [a, w, bounds], op }: LoopBody): { carried: Value[] } {
  const axis0 = { axis: A.int(0) };
  const one = g.addInitializer(tensorFromInt64([1n]));
  const zero = g.addInitializer(tensorFromInt64([0n]));
  const rows = (v: Value, from: Value, to: Value): Value => op('Slice', [v, from, to, zero, one]);
  // the group's first and end row as 1-D: bounds[g : g + 1] and bounds[g + 1 : g + 2]
  const from = op('Reshape', [i, one]);
  const next = op('Add', [from, one]);
  const slice = rows(a!, rows(bounds!, from, next), rows(bounds!, next, op('Add', [next, one])));
  const part = op('MatMul', [slice, op('Gather', [w!, i], axis0)]);
  return { carried: [op('Concat', [done!, part], axis0)] };
}

export const GROUPED_MATMUL: readonly OpMapping[] = [
  {
    onnx: { op: 'MatMul', since: 13 },
    ir: { op: 'GroupedMatMul', version: 'opset17' },
    when: never,
    note: 'mat_b [G, N, K] transposed; 3-D × 3-D one MatMul, 2-D × 3-D a Loop over the groups of rows (offsets) and zero rows after the last',
    toIr: irOnly,
    toOnnx: groupedMatMulToOnnx,
  },
];
