import { A } from '../../src/graph/attr.js';
import { i64Scalar } from '../helpers.js';
import type { OpMapping } from '../spec.js';

/**
 * ONNX Unique-11(X; axis?, sorted = 1) ⇄ IR Unique-10(data, axis?; sorted, index_element_type,
 * count_element_type): outputs in the same order (values, first indices, inverse indices, counts).
 * ONNX's axis attribute is IR's optional 2nd input; ONNX indices and counts are int64, so IR i32
 * ones come back through a Cast.
 */
export const UNIQUE: readonly OpMapping[] = [
  {
    onnx: { op: 'Unique', since: 11 },
    ir: { op: 'Unique', version: 'opset10' },
    handles: { onnx: ['axis', 'sorted'], ir: ['sorted', 'index_element_type', 'count_element_type'] },
    toIr: (c) => {
      const axis = c.attr.int('axis');
      const sorted = (c.attr.int('sorted') ?? 1n) !== 0n;
      const ins = axis === undefined ? [c.input(0)] : [c.input(0), i64Scalar(c, axis)];
      const outs = c.emit('Unique', ins, { sorted: String(sorted), index_element_type: 'i64', count_element_type: 'i64' }, 4, 'opset10');
      for (let i = 0; i < c.node.outputs.length; i++) c.output(i, outs[i]!);
    },
    toOnnx: (c) => {
      const attrs: Record<string, ReturnType<typeof A.int>> = {};
      if (c.numInputs > 1 && c.input(1)) {
        const axis = c.constInts(1);
        if (axis === null || axis.length !== 1) { c.needsConstant(1, 'axis (ONNX axis is an attribute)'); return; }
        attrs['axis'] = A.int(axis[0]!);
      }
      if (c.attr.bool('sorted') === false) attrs['sorted'] = A.int(0);
      const outs = c.emit('Unique', [c.input(0)], attrs, 4);
      const types = [null, 'index_element_type', 'index_element_type', 'count_element_type'] as const;
      types.forEach((t, i) => {
        const want = t === null ? 'i64' : (c.attr.string(t) ?? 'i64').trim().toLowerCase();
        c.output(i, want === 'i64' ? outs[i]! : c.emit('Cast', [outs[i]!], { to: A.int(want === 'i32' ? 6 : 7) })[0]!);
      });
    },
  },
];
