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
 * IR sort="index" in ONNX, which sorts by value or not at all: the k elements TopK sorted by value
 * picks (ties to the lower index, as OpenVINO picks them), put back in the order of their indices
 * by a second TopK, smallest first, over those indices, whose own indices gather both outputs. One
 * element (a constant k of 1: Paddle's argmax and argmin) is in index order already.
 */
function inIndexOrder(c: ConvertContext, outs: Value[], k: Value, axis: bigint): Value[] {
  const one = c.constInts(1);
  if (one?.length === 1 && one[0] === 1n) return outs;
  const [values, indices] = outs as [Value, Value];
  const order = c.emit('TopK', [indices, k], { axis: A.int(axis), largest: A.int(0) }, 2)[1]!;
  return [values, indices].map((v) => c.emit('GatherElements', [v, order], { axis: A.int(axis) })[0]!);
}

/**
 * ONNX TopK-11 (K a 1-element 1-D input; largest, sorted) ↔ IR TopK-11 (k a scalar; mode max/min,
 * sort value/none/index: index through inIndexOrder). IR i32 indices are a Cast of ONNX's int64 ones.
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
      if (iet !== 'i64' && iet !== 'i32') { c.unsupportedAttr('index_element_type', iet, 'supported: i64, i32'); return; }
      const attrs: Record<string, Attr> = {};
      const axis = c.attr.int('axis') ?? -1n;
      if (axis !== -1n) attrs['axis'] = A.int(axis);
      if (mode === 'min') attrs['largest'] = A.int(0);
      if (sort === 'none') attrs['sorted'] = A.int(0);
      const k = kScalar(c, 1, [1]);
      const picked = c.emit('TopK', [c.input(0), k], attrs, 2);
      const outs = sort === 'index' ? inIndexOrder(c, picked, k, axis) : picked;
      c.output(0, outs[0]!);
      // ONNX TopK indices are int64: i32 ones are a Cast of them (exact: an index fits an i32 axis)
      c.output(1, iet === 'i64' ? outs[1]! : c.emit('Cast', [outs[1]!], { to: A.int(6) })[0]!);
    },
  },
];

