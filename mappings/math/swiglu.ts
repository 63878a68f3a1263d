import { scalarLike } from '../generator/constant-of-shape.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ONNX SwiGLU-28 (OpenVINO has no op): its function body, Swish(A) with alpha, times B.
 *   Y = Swish_alpha(A) · B,   Swish_alpha(a) = a · Sigmoid(alpha · a)
 * IR Swish-4 computes x · Sigmoid(beta · x), so beta = alpha (a scalar of A's element type).
 */
function swigluToIr(c: ConvertContext): void {
  const beta = scalarLike(c, 0, c.attr.float('alpha', 1), 'SwiGLU');
  if (!beta) return;
  const gate = c.emit('Swish', [c.input(0), beta], {}, 1, 'opset4')[0]!;
  c.output(0, c.emit('Multiply', [gate, c.input(1)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!);
}

export const SWIGLU: readonly OpMapping[] = [
  {
    onnx: { op: 'SwiGLU', since: 28 },
    ir: null,
    decomposes: ['Swish', 'Multiply'],
    handles: { onnx: ['alpha'] },
    note: 'IR: Multiply(Swish(A, beta = alpha), B), as the ONNX function body',
    toIr: swigluToIr,
  },
];
