import { A, type Attr } from '../../src/graph/attr.js';
import { makeTensor } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/** A scalar i64 `k` from a 1-element 1-D one (constants reshaped as views), and back. */
function kScalar(c: ConvertContext, i: number, to: number[]): Value {
  const v = c.input(i)!;
  if (v.constant) return c.constant(makeTensor(v.constant.elem, to, v.constant.data));
  const ov = c.node.dialect === 'onnx';
  return c.emit('Reshape', [v, i64Const(c, to.map(BigInt))], ov ? { special_zero: 'false' } : {}, 1, ov ? 'opset1' : undefined)[0]!;
}

/**
 * ONNX TopK-11 (K a 1-element 1-D input; largest, sorted) ↔ IR TopK-11 (k a scalar; mode max/min,
 * sort value/none). IR sort="index" has no ONNX form; IR i32 indices are a Cast of ONNX's int64 ones.
 */
export const TOPK: readonly OpMapping[] = [
  {
    onnx: { op: 'TopK', since: 11 },
    ir: { op: 'TopK', version: 'opset11', reads: ['opset1', 'opset3'] },
    handles: { onnx: ['axis', 'largest', 'sorted'], ir: ['axis', 'mode', 'sort', 'index_element_type', 'stable'] },
    toIr: (c) => {
      const axis = c.attr.int('axis') ?? -1n;
      const largest = (c.attr.int('largest') ?? 1n) !== 0n;
      const sorted = (c.attr.int('sorted') ?? 1n) !== 0n;
      const outs = c.emit('TopK', [c.input(0), kScalar(c, 1, [])], {
        axis: String(axis), mode: largest ? 'max' : 'min', sort: sorted ? 'value' : 'none', index_element_type: 'i64', stable: 'true',
      }, 2, 'opset11');
      outs.forEach((v, i) => c.output(i, v));
    },
    toOnnx: (c) => {
      const mode = (c.attr.string('mode') ?? 'max').trim().toLowerCase();
      const sort = (c.attr.string('sort') ?? 'none').trim().toLowerCase();
      const iet = (c.attr.string('index_element_type') ?? 'i32').trim().toLowerCase();
      if (sort === 'index') { c.unsupportedAttr('sort', sort, 'ONNX TopK sorts by value or not at all'); return; }
      if (iet !== 'i64' && iet !== 'i32') { c.unsupportedAttr('index_element_type', iet, 'supported: i64, i32'); return; }
      const attrs: Record<string, Attr> = {};
      const axis = c.attr.int('axis') ?? -1n;
      if (axis !== -1n) attrs['axis'] = A.int(axis);
      if (mode === 'min') attrs['largest'] = A.int(0);
      if (sort === 'none') attrs['sorted'] = A.int(0);
      const outs = c.emit('TopK', [c.input(0), kScalar(c, 1, [1])], attrs, 2);
      c.output(0, outs[0]!);
      // ONNX TopK indices are int64: i32 ones are a Cast of them (exact: an index fits an i32 axis)
      c.output(1, iet === 'i64' ? outs[1]! : c.emit('Cast', [outs[1]!], { to: A.int(6) })[0]!);
    },
  },
];

