import { scalarLike } from '../generator/constant-of-shape.js';
import { i64Const } from '../helpers.js';
import type { OpMapping } from '../spec.js';

/**
 * ONNX LpNormalization → IR, as OpenVINO's frontend writes it: x divided by its L1 or L2 norm
 * along `axis` (default -1), dims kept: Divide(x, ReduceL1|ReduceL2(x, [axis], keep_dims)); where
 * the norm is 0 the result is 0, as ONNX's reference defines it (0/0 = 0), by a Select.
 * (IR NormalizeL2 goes to ONNX through the entry in mappings/ir-decompose.ts.)
 */
export const LP_NORMALIZATION: readonly OpMapping[] = [
  {
    onnx: { op: 'LpNormalization', since: 1 },
    ir: null,
    decomposes: ['ReduceL1', 'ReduceL2', 'Divide', 'Equal', 'Select'],
    handles: { onnx: ['axis', 'p'] },
    note: 'IR: x / ReduceL1|L2(x, axis, keep_dims), 0 where the norm is 0',
    toIr: (c) => {
      const p = c.attr.int('p', 2n);
      if (p !== 1n && p !== 2n) { c.unsupportedAttr('p', String(p), 'ONNX allows 1 or 2'); return; }
      const axis = c.attr.int('axis', -1n);
      const x = c.input(0)!;
      const norm = c.emit(p === 1n ? 'ReduceL1' : 'ReduceL2', [x, i64Const(c, [axis])], { keep_dims: 'true' }, 1, 'opset4')[0]!;
      const zero = scalarLike(c, 0, 0, 'LpNormalization');
      if (!zero) return;
      const q = c.emit('Divide', [x, norm], { auto_broadcast: 'numpy', m_pythondiv: 'true' }, 1, 'opset1')[0]!;
      const none = c.emit('Equal', [norm, zero], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
      c.output(0, c.emit('Select', [none, zero, q], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!);
    },
  },
];
