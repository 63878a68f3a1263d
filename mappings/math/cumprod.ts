import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Shape } from '../../src/graph/shape.js';
import { tensorType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { INT64_MAX, i64Const, i64Scalar, normAxis } from '../helpers.js';
import { bodyOps } from '../body-ops.js';
import { irLoop } from '../ir-loop.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ONNX CumProd-26(x, axis; exclusive = 0, reverse = 0): "the cumulative product of the elements
 * of x along axis"; exclusive leaves out the element itself (the first is 1), reverse runs from the
 * end. OpenVINO has CumSum but no CumProd (neither has its ONNX frontend), and no closed form is
 * exact (a sum of logarithms is not), so it becomes what the definition says, a running product:
 * an IR Loop-5 over the axis, one slice per iteration (Gather at iteration_num, counted from the
 * end with reverse), carrying p ← p · slice from p = 1, each iteration's p (exclusive: before the
 * product) concatenated along the axis, read back in order after the loop with reverse. The
 * products are taken in the order onnxruntime takes them (out[k] = out[k-1] · x[k]), so floats
 * round alike. For an axis known only at run time (the Loop concatenates along a constant one),
 * the product is taken along every axis and the one asked for selected.
 */
function cumprodToIr(c: ConvertContext): void {
  const x = c.input(0)!;
  const elem = c.elem(0);
  const t = c.type(0);
  const dims = t && t.kind === 'tensor' ? t.shape : null;
  const r = dims ? dims.length : null;
  if (!elem || elem === 'dynamic') { c.error('the element type of input 0 must be known'); return; }
  const given = c.constInts(1);
  const flags = { exclusive: c.attr.int('exclusive', 0n) !== 0n, reverse: c.attr.int('reverse', 0n) !== 0n };
  if (given) {
    if (given.length !== 1) { c.error(`axis has ${given.length} values; it is one integer`); return; }
    if (r === null && given[0]! < 0n) { c.error(`axis ${given[0]} counts from the back of an input of unknown rank`); return; }
    const axis = r === null ? Number(given[0]) : normAxis(given[0]!, r);
    if (r !== null && (axis < 0 || axis >= r)) { c.error(`axis ${given[0]} is out of range [${-r}, ${r - 1}]`); return; }
    c.output(0, runningProduct(c, x, axis, elem, dims, flags));
    return;
  }
  // An axis known only at run time: the product along every axis (the output has x's shape for
  // each), the one asked for picked by Select. r Loops run; only constant-axis ops are written, so
  // the IR converts back to ONNX (whose Gather and Transpose take their axis as an attribute).
  if (r === null) { c.error('input 1 (axis) is known only at run time and input 0 has an unknown rank'); return; }
  const b = irBuilder(c);
  const raw = c.emit('Reshape', [b.convert(c.input(1)!, 'i64'), i64Const(c, [])], { special_zero: 'false' }, 1, 'opset1')[0]!;
  const a = c.emit('FloorMod', [raw, i64Scalar(c, BigInt(r))], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!; // [-r, r-1] → [0, r-1]
  let y = runningProduct(c, x, r - 1, elem, dims, flags);
  for (let k = r - 2; k >= 0; k--) y = b.select(b.compare('Equal', a, i64Scalar(c, BigInt(k))), runningProduct(c, x, k, elem, dims, flags), y);
  c.output(0, y);
}

/** The cumulative product of `x` along constant `axis` (normalized): the Loop described above. */
function runningProduct(c: ConvertContext, x: Value, axis: number, elem: ElementTypeName, dims: Shape, f: { exclusive: boolean; reverse: boolean }): Value {
  const b = irBuilder(c);
  const shape = b.shapeOf(x);
  const n = b.gather(shape, i64Scalar(c, BigInt(axis)), 0n);
  // p starts as ones of one slice's shape: x's with 1 along the axis.
  const sliceShape = b.concat([b.slice(shape, 0n, BigInt(axis), 0n), i64Const(c, [1n]), b.slice(shape, BigInt(axis + 1), INT64_MAX, 0n)], 0);
  const ones = c.emit('Broadcast', [b.scalar(elem, 1), sliceShape], { mode: 'numpy' }, 1, 'opset3')[0]!;
  const [stacked] = irLoop(c, {
    trips: n, iteration: 'iteration',
    carried: [{ value: ones, name: 'running_product', type: tensorType(elem, dims && dims.map((d, k) => (k === axis ? 1 : d))) }],
    invariant: [{ value: x, name: 'x', type: tensorType(elem, dims) }, ...(f.reverse ? [{ value: n, name: 'length', type: tensorType('i64', []) }] : [])],
    outputs: [{ scan: 0, axis }],
  }, ({ graph: g, iteration: it, carried: [p], invariant: [whole, count] }) => {
    const { op: one, i64 } = bodyOps(g, c.node.name || 'CumProd');
    const nb = { auto_broadcast: 'numpy' };
    // reverse: slice n - 1 - iteration
    const at = count ? one('Subtract', [one('Subtract', [count, i64(1n)], 'opset1', nb), it], 'opset1', nb) : it;
    const slice = one('Gather', [whole, one('Unsqueeze', [at, i64(0n)]), i64(BigInt(axis))], 'opset8', { batch_dims: '0' });
    const next = one('Multiply', [p, slice], 'opset1', nb);
    return { carried: [next], scans: [f.exclusive ? p : next] };
  });
  if (!f.reverse) return stacked;
  // reverse: the iterations ran from the end; read their parts back in order
  const back = c.emit('Range', [b.sub(n, i64Scalar(c, 1n)), i64Scalar(c, -1n), i64Scalar(c, -1n)], { output_type: 'i64' }, 1, 'opset4')[0]!;
  return b.gather(stacked, back, BigInt(axis));
}

export const CUMPROD: readonly OpMapping[] = [
  {
    onnx: { op: 'CumProd', since: 26 }, ir: null, decomposes: ['Loop', 'Gather', 'Multiply', 'ShapeOf', 'Slice', 'Concat', 'Broadcast', 'Range', 'FloorMod', 'Select'],
    handles: { onnx: ['exclusive', 'reverse'] },
    toIr: cumprodToIr,
    note: 'a running product: Loop-5 over the axis (Gather of one slice per iteration, p ← p · slice), parts concatenated along the axis; reverse reads the slices from the end and the parts back; a run-time axis: the product along every axis, the asked one selected',
  },
];
