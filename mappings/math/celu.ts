import { scalarLike } from '../generator/constant-of-shape.js';
import type { Value } from '../../src/graph/value.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/** ONNX Celu (OpenVINO has no op), as OpenVINO's frontend writes it: alpha · Elu(x / alpha, 1). */

const bin = (c: ConvertContext, op: string, a: Value, b: Value): Value =>
  c.emit(op, [a, b], op === 'Divide' ? { auto_broadcast: 'numpy', m_pythondiv: 'true' } : { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;

export const CELU: readonly OpMapping[] = [
  {
    onnx: { op: 'Celu', since: 12 },
    ir: null,
    decomposes: ['Divide', 'Elu', 'Multiply'],
    handles: { onnx: ['alpha'] },
    note: 'IR: alpha · Elu(x / alpha, 1)',
    toIr: (c) => {
      const alpha = c.attr.float('alpha', 1);
      if (alpha === 0) { c.unsupportedAttr('alpha', '0', 'Celu divides by alpha'); return; }
      const a = scalarLike(c, 0, alpha, 'Celu alpha');
      if (!a) return;
      const elu = c.emit('Elu', [bin(c, 'Divide', c.input(0)!, a)], { alpha: '1' }, 1, 'opset1')[0]!;
      c.output(0, bin(c, 'Multiply', elu, a));
    },
  },
];
