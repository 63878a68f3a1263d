import { isStatic } from '../../src/graph/shape.js';
import { tensorFromInt64 } from '../../src/graph/tensor.js';
import { tensorType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { bodyOps } from '../body-ops.js';
import { irLoop } from '../ir-loop.js';

/**
 * ONNX Det-11/22(X: [*, M, M]) → Y: [*], the determinant of each square matrix. OpenVINO has no
 * determinant (nor does its ONNX frontend convert Det), so it is computed as numpy computes it
 * (LAPACK getrf): Gaussian elimination with partial pivoting, the determinant the product of the
 * pivots, negated once per row exchange. An IR Loop-5 of M iterations (M static) over the matrices
 * flattened to [B, M, M] carries the matrix and the running product; iteration k:
 * - p = the first row ≥ k of largest |A[·, k]| (TopK-11 max, k = 1, stable: the first of equals,
 *   as LAPACK's idamax);
 * - rows k and p exchanged (GatherElements along axis 1 of a per-matrix permutation; Gather-8
 *   with batch_dims 1 crashes OpenVINO 2026.4's CPU plugin when there is one matrix, measured);
 * - det ← det · A[k, k] · (p = k ? 1 : −1);
 * - every row i > k loses A[i, k] / A[k, k] times row k (a zero pivot — the whole column below is
 *   then zero — divides by 1 instead: the factors are 0 and det is already 0, as numpy's).
 * The products are reshaped to the batch dims after the loop.
 */
function detToIr(c: ConvertContext): void {
  const elem = c.elem(0);
  const t = c.type(0);
  const dims = t && t.kind === 'tensor' ? t.shape : null;
  if (!elem || elem === 'dynamic') { c.error('the element type of input 0 must be known'); return; }
  if (!dims || dims.length < 2) { c.error(dims ? `input 0 has rank ${dims.length}; Det takes [*, M, M]` : 'input 0 has an unknown rank'); return; }
  const m = dims[dims.length - 1]!;
  const m2 = dims[dims.length - 2]!;
  if (!isStatic(m) || !isStatic(m2)) { c.error('the matrix size M (the last two dims of input 0) must be known at conversion time: the elimination takes M steps'); return; }
  if (m !== m2) { c.error(`the matrices are ${m2}×${m}, not square`); return; }
  if (m === 0) { c.error('the matrices are 0×0'); return; }
  const batch = dims.slice(0, -2);
  const bStatic = batch.every(isStatic) ? (batch as number[]).reduce((a, d) => a * d, 1) : null;
  const b = irBuilder(c);
  const x = c.input(0)!;
  const n = BigInt(m);
  const a0 = c.emit('Reshape', [x, i64Const(c, [-1n, n, n])], { special_zero: 'false' }, 1, 'opset1')[0]!;
  const one = b.scalar(elem, 1);
  const ones = c.emit('Broadcast', [one, b.slice(b.shapeOf(a0), 0n, 1n, 0n)], { mode: 'numpy' }, 1, 'opset3')[0]!;
  const [detOut] = irLoop(c, {
    trips: i64Scalar(c, n), iteration: 'k',
    carried: [{ value: a0, name: 'matrices', type: tensorType(elem, [bStatic, m, m]) }, { value: ones, name: 'determinants', type: tensorType(elem, [bStatic]) }],
    outputs: [{ last: 1 }],
  }, ({ graph: g, iteration: k, carried: [mat, acc] }) => {
    const ops = bodyOps(g, `${c.node.name || 'Det'}/step`);
    const { op, i64 } = ops;
    const scalar = (v: number): Value => ops.scalar(elem, v);
    const nb = { auto_broadcast: 'numpy' };
    const rows = g.addInitializer(tensorFromInt64(Array.from({ length: m }, (_, i) => BigInt(i))));
    // the pivot row: largest |A[i, k]| over i ≥ k (others ranked below every |·| by −1)
    const col = op('Gather', [mat, k, i64(2n)], 'opset8', { batch_dims: '0' });
    const candidates = op('Select', [op('GreaterEqual', [rows, k], 'opset1', nb), op('Abs', [col]), scalar(-1)], 'opset1', nb);
    const top = ops.node('TopK', [candidates, i64(1n)], 'opset11', { axis: '1', mode: 'max', sort: 'value', index_element_type: 'i64', stable: 'true' }, 2);
    const p = top[1]!; // [B, 1]
    // rows k and p exchanged: row i reads row perm[i]
    const perm = op('Select', [op('Equal', [rows, k], 'opset1', nb), p,
      op('Select', [op('Equal', [rows, p], 'opset1', nb), k, rows], 'opset1', nb)], 'opset1', nb);
    const rowsOf = op('Broadcast', [op('Unsqueeze', [perm, i64(2n)]), op('ShapeOf', [mat], 'opset3', { output_type: 'i64' })], 'opset3', { mode: 'numpy' });
    const swapped = op('GatherElements', [mat, rowsOf], 'opset6', { axis: '1' });
    const pivotRow = op('Gather', [swapped, k, i64(1n)], 'opset8', { batch_dims: '0' }); // [B, M]
    const pivot = op('Gather', [pivotRow, k, i64(1n)], 'opset8', { batch_dims: '0' }); // [B]
    const exchanged = op('Squeeze', [op('Equal', [p, k], 'opset1', nb), i64(1n)]);
    const sign = op('Select', [exchanged, scalar(1), scalar(-1)], 'opset1', nb);
    const nextAcc = op('Multiply', [op('Multiply', [acc, pivot], 'opset1', nb), sign], 'opset1', nb);
    // elimination below the pivot
    const safe = op('Select', [op('Equal', [pivot, scalar(0)], 'opset1', nb), scalar(1), pivot], 'opset1', nb);
    const column = op('Gather', [swapped, k, i64(2n)], 'opset8', { batch_dims: '0' }); // [B, M]
    const factors = op('Select', [op('Greater', [rows, k], 'opset1', nb),
      op('Divide', [column, op('Unsqueeze', [safe, i64(1n)])], 'opset1', { ...nb, m_pythondiv: 'true' }), scalar(0)], 'opset1', nb);
    const update = op('Multiply', [op('Unsqueeze', [factors, i64(2n)]), op('Unsqueeze', [pivotRow, i64(1n)])], 'opset1', nb);
    const nextMat = op('Subtract', [swapped, update], 'opset1', nb);
    return { carried: [nextMat, nextAcc] };
  });
  // [B] → the batch dims ([] for one matrix)
  const batchShape = b.slice(b.shapeOf(x), 0n, -2n, 0n);
  c.output(0, c.emit('Reshape', [detOut, batchShape], { special_zero: 'false' }, 1, 'opset1')[0]!);
}

export const DET: readonly OpMapping[] = [
  {
    onnx: { op: 'Det', since: 11 }, ir: null,
    decomposes: ['Loop', 'Reshape', 'Broadcast', 'ShapeOf', 'Slice', 'Gather', 'GatherElements', 'Select', 'GreaterEqual', 'Greater', 'Abs', 'TopK', 'Equal', 'Squeeze', 'Unsqueeze', 'Multiply', 'Divide', 'Subtract'],
    toIr: detToIr,
    note: 'Gaussian elimination with partial pivoting (as LAPACK getrf) in a Loop-5 of M steps over [B, M, M]: the product of the pivots, negated per row exchange; M static',
  },
];
