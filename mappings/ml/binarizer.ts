import { elementType } from '../../src/graph/element-type.js';
import { irBuilder } from '../nn/ir-build.js';
import type { OpMapping } from '../spec.js';

/**
 * ai.onnx.ml Binarizer (OpenVINO has no op): Y = 1 where X > threshold, else 0, of X's type
 * (onnx's reference: (x > threshold).astype(x.dtype); NaN gives 0). On integers x > t ⇔
 * x > ⌊t⌋, so the threshold becomes ⌊t⌋ clamped to the type (below its least value every x is
 * greater: x ≥ least).
 */
export const BINARIZER: readonly OpMapping[] = [
  {
    onnx: { op: 'Binarizer', domain: 'ai.onnx.ml', since: 1 },
    ir: null,
    decomposes: ['Greater', 'GreaterEqual', 'Select'],
    handles: { onnx: ['threshold'] },
    note: 'IR: Select(X > threshold, 1, 0) of X\'s type',
    toIr: (c) => {
      const elem = c.elem(0);
      if (elem === null) { c.error('Binarizer needs the element type of X'); return; }
      const info = elementType(elem);
      if (info.kind !== 'float' && info.kind !== 'int') { c.error(`Binarizer of ${elem}: X is float, double, int64 or int32`); return; }
      const b = irBuilder(c);
      const x = c.input(0)!;
      const t = c.attr.float('threshold', 0);
      let above;
      if (info.kind === 'float') above = c.emit('Greater', [x, b.scalar(elem, t)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
      else {
        const least = -(2 ** (info.bits - 1));
        const most = 2 ** (info.bits - 1) - 1;
        const k = Math.floor(t);
        above = k < least
          ? c.emit('GreaterEqual', [x, b.scalar(elem, least)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!
          : c.emit('Greater', [x, b.scalar(elem, Math.min(k, most))], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
      }
      c.output(0, b.select(above, b.scalar(elem, 1), b.scalar(elem, 0)));
    },
  },
];
