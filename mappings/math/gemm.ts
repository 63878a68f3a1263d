import type { Value } from '../../src/graph/value.js';
import { scalarLike } from '../generator/constant-of-shape.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ONNX ops with no single IR op, written as the IR ops they are made of (IR → ONNX then goes
 * through those ops' own entries):
 *   Gemm    = alpha · MatMul(A, B, transpose_a, transpose_b) + beta · C
 *   Flatten = Reshape to [prod(dims[:axis]), prod(dims[axis:])]
 *   Size    = ReduceProd(ShapeOf(x)) as an i64 scalar
 */
export const GEMM: readonly OpMapping[] = [
  {
    // Gemm-1..6's `broadcast` says whether C may be broadcast to A·B (else it has A·B's shape):
    // numpy broadcasting covers both.
    onnx: { op: 'Gemm', since: 1 },
    ir: null,
    decomposes: ['MatMul', 'Multiply', 'Add'],
    handles: { onnx: ['alpha', 'beta', 'transA', 'transB', 'broadcast'] },
    note: 'IR: MatMul (transpose_a/b) · alpha + beta · C',
    toIr: (c) => {
      const y = gemmToIrValue(c);
      if (y) c.output(0, y);
    },
  },
];

/**
 * Gemm's IR form, alpha · MatMul(A, B) + beta · C, or null after a diagnostic; com.microsoft
 * FusedGemm builds on it (mappings/microsoft/fused.ts).
 */
export function gemmToIrValue(c: ConvertContext): Value | null {
  const alpha = c.attr.float('alpha') ?? 1;
  const beta = c.attr.float('beta') ?? 1;
  const ta = (c.attr.int('transA') ?? 0n) !== 0n;
  const tb = (c.attr.int('transB') ?? 0n) !== 0n;
  let y = c.emit('MatMul', [c.input(0), c.input(1)], { transpose_a: String(ta), transpose_b: String(tb) }, 1, 'opset1')[0]!;
  if (alpha !== 1) {
    const s = scalarLike(c, 0, alpha, 'Gemm alpha');
    if (!s) return null;
    y = c.emit('Multiply', [y, s], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  }
  const cIn = c.numInputs > 2 ? c.input(2) : null;
  if (cIn && beta !== 0) {
    let bias: Value = cIn;
    if (beta !== 1) {
      const s = scalarLike(c, 2, beta, 'Gemm beta');
      if (!s) return null;
      bias = c.emit('Multiply', [bias, s], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
    }
    y = c.emit('Add', [y, bias], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  }
  return y;
}
