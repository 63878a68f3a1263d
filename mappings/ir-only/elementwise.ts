import { scalarLike } from '../generator/constant-of-shape.js';
import type { Value } from '../../src/graph/value.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { irOnly, never, on } from './onnx-build.js';

/**
 * Elementwise IR ops ONNX spells with two of its own (exact): NotEqual-1 = Not(Equal),
 * SquaredDifference-1 = (a − b)², IsFinite-10 = Equal(x − x, 0) (x − x is NaN exactly for ±inf
 * and NaN). Binary ones broadcast numpy-style as ONNX does (auto_broadcast numpy, or none: equal
 * shapes); pdpd is refused.
 */
function binaryOperands(c: ConvertContext): [Value, Value] | null {
  const b = (c.attr.string('auto_broadcast') ?? 'numpy').trim().toLowerCase();
  if (b !== 'numpy' && b !== 'none') { c.unsupportedAttr('auto_broadcast', b, 'numpy or none (ONNX broadcasts numpy-style)'); return null; }
  return [c.input(0)!, c.input(1)!];
}

export const IR_ELEMENTWISE: readonly OpMapping[] = [
  {
    onnx: { op: 'Equal', since: 7 },
    ir: { op: 'NotEqual', version: 'opset1' },
    when: never,
    handles: { ir: ['auto_broadcast'] },
    note: 'Not(Equal(a, b))',
    toIr: irOnly,
    toOnnx: (c) => {
      const ab = binaryOperands(c);
      if (ab) c.output(0, on(c, 'Not', [on(c, 'Equal', ab)]));
    },
  },
  {
    onnx: { op: 'Sub', since: 7 },
    ir: { op: 'SquaredDifference', version: 'opset1' },
    when: never,
    handles: { ir: ['auto_broadcast'] },
    note: '(a − b)·(a − b)',
    toIr: irOnly,
    toOnnx: (c) => {
      const ab = binaryOperands(c);
      if (!ab) return;
      const d = on(c, 'Sub', ab);
      c.output(0, on(c, 'Mul', [d, d]));
    },
  },
  {
    onnx: { op: 'Equal', since: 11 },
    ir: { op: 'IsFinite', version: 'opset10' },
    when: never,
    note: 'Equal(x − x, 0)',
    toIr: irOnly,
    toOnnx: (c) => {
      const x = c.input(0)!;
      const zero = scalarLike(c, 0, 0, 'IsFinite');
      if (zero) c.output(0, on(c, 'Equal', [on(c, 'Sub', [x, x]), zero]));
    },
  },
];
