import { A } from '../../src/graph/attr.js';
import { isStatic } from '../../src/graph/shape.js';
import { tensorFromFloat32, tensorFromInt64 } from '../../src/graph/tensor.js';
import { tensorType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, irOnly, never, on, onnxLoop, type LoopBody } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * Inverse-14 (PyTorch's torch.linalg.inv), which ONNX lacks: Gauss–Jordan elimination with partial
 * pivoting, in f32, as an ONNX Loop of n iterations (n, the matrix size, static) over the
 * matrices flattened to [B, n, n] and augmented with the identity, [B, n, 2n]. Iteration k:
 * the pivot row p is the first row ≥ k of largest |M[·, k]| (ArgMax), rows k and p are exchanged
 * (GatherElements), row k is divided by the pivot and every other row loses its column-k multiple
 * of it. The right half is then the inverse; adjoint transposes it (the inverse of the transpose,
 * for real matrices); reshaped to the input's batch dims. OpenVINO's reference (an LU
 * decomposition) rounds differently: the results agree within f32 rounding on well-conditioned
 * matrices; a singular matrix gives inf/NaN in both.
 */
function inverseToOnnx(c: ConvertContext): void {
  const t = c.type(0);
  const dims = t && t.kind === 'tensor' ? t.shape : null;
  const elem = c.elem(0);
  if (elem !== 'f32' && elem !== 'f16' && elem !== 'bf16') { c.error(`Inverse takes f32, f16 or bf16 data, not ${elem ?? 'an unknown type'}`); return; }
  if (!dims || dims.length < 2) { c.error(dims ? `input 0 has rank ${dims.length}; Inverse takes [*, n, n]` : 'input 0 has an unknown rank'); return; }
  const n = dims[dims.length - 1]!;
  if (!isStatic(n) || dims[dims.length - 2] !== n) { c.error('the matrix size n (the last two dims of input 0, equal) must be known at conversion time: the elimination takes n steps'); return; }
  const adjoint = c.attr.bool('adjoint') ?? false;
  const x = elem === 'f32' ? c.input(0)! : cast(c, c.input(0)!, 'f32');
  const N = BigInt(n);
  const matrices = on(c, 'Reshape', [x, i64Const(c, [-1n, N, N])]);
  const eye = Array.from({ length: n * n }, (_, i) => (Math.floor(i / n) === i % n ? 1 : 0));
  const identity = on(c, 'Expand', [c.constant(tensorFromFloat32(eye, [1, n, n])), on(c, 'Shape', [matrices])]);
  const augmented = on(c, 'Concat', [matrices, identity], { axis: A.int(2) }); // [B, n, 2n]
  const [done] = onnxLoop(c, { trips: i64Scalar(c, N), iteration: 'k', carried: [{ value: augmented, name: 'augmented', type: tensorType('f32', [null, n, 2 * n]) }] }, (b) => ({ carried: [eliminationStep(b, n)] }));
  let inverse = on(c, 'Slice', [done!, i64Const(c, [N]), i64Const(c, [2n * N]), i64Const(c, [2n]), i64Const(c, [1n])]);
  if (adjoint) inverse = on(c, 'Transpose', [inverse], { perm: A.ints([0, 2, 1]) });
  const y = on(c, 'Reshape', [inverse, on(c, 'Shape', [x])]);
  c.output(0, elem === 'f32' ? y : cast(c, y, elem));
}

/** One Gauss–Jordan step k on the augmented matrices M [B, n, 2n]: M after it. */
function eliminationStep({ graph: g, i: k, carried: [m], op }: LoopBody, n: number): Value {
  const konst = (t: Parameters<typeof g.addInitializer>[0]): Value => g.addInitializer(t);
  const rows = konst(tensorFromInt64(Array.from({ length: n }, (_, i) => BigInt(i)), [1, n])); // [1, n]
  const column = op('Gather', [m!, k], { axis: A.int(2) }); // [B, n]
  const magnitude = op('Max', [column, op('Neg', [column])]);
  const candidates = op('Where', [op('Less', [rows, k]), konst(tensorFromFloat32([-1], [])), magnitude]);
  const p = op('ArgMax', [candidates], { axis: A.int(1), keepdims: A.int(1) }); // [B, 1], the first of equals
  // row i reads row perm[i]: k ↔ p
  const isK = op('Equal', [rows, k]);
  const perm = op('Where', [isK, p, op('Where', [op('Equal', [rows, p]), k, rows])]); // [B, n]
  const unsq = (v: Value, axis: bigint): Value => op('Unsqueeze', [v, konst(tensorFromInt64([axis]))]);
  const swapped = op('GatherElements', [m!, op('Expand', [unsq(perm, 2n), op('Shape', [m!])])], { axis: A.int(1) });
  const pivotRow = op('Gather', [swapped, k], { axis: A.int(1) }); // [B, 2n]
  const pivot = op('Gather', [pivotRow, k], { axis: A.int(1) }); // [B]
  const normalized = op('Div', [pivotRow, unsq(pivot, 1n)]); // [B, 2n]
  const factors = op('Where', [isK, konst(tensorFromFloat32([0], [])), op('Gather', [swapped, k], { axis: A.int(2) })]); // [B, n]
  const eliminated = op('Sub', [swapped, op('Mul', [unsq(factors, 2n), unsq(normalized, 1n)])]);
  return op('Where', [unsq(isK, 2n), unsq(normalized, 1n), eliminated]);
}

export const INVERSE: readonly OpMapping[] = [
  {
    onnx: { op: 'Loop', since: 13 },
    ir: { op: 'Inverse', version: 'opset14' },
    when: never,
    handles: { ir: ['adjoint'] },
    note: 'Gauss–Jordan with partial pivoting in a Loop of n steps over [B, n, 2n] (n static)',
    toIr: irOnly,
    toOnnx: inverseToOnnx,
  },
];

