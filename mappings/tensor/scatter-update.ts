import { A } from '../../src/graph/attr.js';
import { elementType } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { asI64Vector, i64Const } from '../helpers.js';
import { flatten1d, irOnly, never, on, positions, reshapeLike } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * IR ops that overwrite the elements of `data` a selection picks with `updates`: ScatterUpdate-3
 * (the selection is a Gather of `indices` along `axis`) and SliceScatter-15 (a Slice). ONNX has
 * neither. Both are written by selecting from the flat positions of `data` the same way —
 * Gather(positions, indices, axis) or Slice(positions, start, stop, axes, step), which has exactly
 * the shape of `updates` — and one ScatterElements of the flattened operands at those positions
 * (exact: a copy of elements; negative indices and out-of-range slice bounds are the ONNX ops' own
 * rules, which are OpenVINO's).
 */
function writeAt(c: ConvertContext, at: Value, spare = false): void {
  const data = c.input(0)!;
  const updates = flatten1d(c, c.input(c.entry.ir?.op === 'SliceScatter' ? 1 : 2)!);
  if (!spare) {
    const written = on(c, 'ScatterElements', [flatten1d(c, data), flatten1d(c, at), updates], { axis: A.int(0) });
    c.output(0, reshapeLike(c, written, data));
    return;
  }
  // one spare element after the flat data (the first update, or nothing when there is none), the
  // position `at` gives to writes into data without elements, cut off again afterwards
  const n = on(c, 'Reshape', [on(c, 'Size', [data]), i64Const(c, [1n])]);
  const padded = on(c, 'Concat', [flatten1d(c, data), on(c, 'Slice', [updates, i64Const(c, [0n]), i64Const(c, [1n])])], { axis: A.int(0) });
  const written = on(c, 'ScatterElements', [padded, flatten1d(c, at), updates], { axis: A.int(0) });
  c.output(0, reshapeLike(c, on(c, 'Slice', [written, i64Const(c, [0n]), n]), data));
}

/**
 * ScatterUpdate-3 into data that may have no elements (a dim unknown or 0): OpenVINO writes nothing
 * there, whatever the indices (OpenVINO's TensorFlow frontend writes a TensorArray of dynamic size,
 * empty until the loop runs, with a ScatterUpdate at the iteration number), where ONNX's Gather
 * rejects every index into an empty axis. The positions get one more row along the axis, all
 * `size(data)`, the spare element writeAt cuts off, and the indices into an empty axis are all made 0,
 * that row. An index into an axis with elements reads a row of its own, as before (an index out of
 * range there is OpenVINO's error and onnxruntime's).
 */
function scatterUpdateToOnnx(c: ConvertContext): void {
  const axis = c.constInts(3);
  if (axis === null || axis.length !== 1) { c.needsConstant(3, 'axis (ONNX Gather takes it as an attribute)'); return; }
  const data = c.input(0)!;
  const t = c.type(0);
  const shape = t?.kind === 'tensor' ? t.shape : null;
  const a = Number(axis[0]!);
  const rank = shape ? shape.length : null;
  const maybeEmpty = !shape || shape.some((d) => typeof d !== 'number' || d === 0);
  if (!maybeEmpty || (a < 0 && rank === null)) {
    writeAt(c, on(c, 'Gather', [positions(c, data), c.input(1)], { axis: A.int(a) }));
    return;
  }
  const ax = a < 0 ? a + rank! : a;
  const dims = on(c, 'Shape', [data]);
  // the shape of one row along the axis: the data's with a 1 at the axis
  const rowShape = on(c, 'Concat', [
    on(c, 'Slice', [dims, i64Const(c, [0n]), i64Const(c, [BigInt(ax)])]), i64Const(c, [1n]),
    on(c, 'Slice', [dims, i64Const(c, [BigInt(ax + 1)]), i64Const(c, [BigInt(Number.MAX_SAFE_INTEGER)])]),
  ], { axis: A.int(0) });
  const row = on(c, 'Expand', [on(c, 'Size', [data]), rowShape]);
  const pos = on(c, 'Concat', [positions(c, data), row], { axis: A.int(ax) });
  // an empty axis: every index 0, the spare row (indices times (dim > 0))
  const dim = on(c, 'Slice', [dims, i64Const(c, [BigInt(ax)]), i64Const(c, [BigInt(ax + 1)])]);
  const some = on(c, 'Cast', [on(c, 'Greater', [dim, i64Const(c, [0n])])], { to: A.int(elementType(c.elem(1) === 'i32' ? 'i32' : 'i64').onnx!) });
  const idx = c.elem(1) === 'i32' || c.elem(1) === 'i64' ? c.input(1)! : on(c, 'Cast', [c.input(1)!], { to: A.int(elementType('i64').onnx!) });
  writeAt(c, on(c, 'Gather', [pos, on(c, 'Mul', [idx, some])], { axis: A.int(ax) }), true);
}

function sliceScatterToOnnx(c: ConvertContext): void {
  const bound = (i: number): Value | null => asI64Vector(c, i);
  const axes = c.numInputs > 5 && c.input(5) ? bound(5) : null;
  writeAt(c, on(c, 'Slice', [positions(c, c.input(0)!), bound(2), bound(3), axes, bound(4)]));
}

export const SCATTER_UPDATE: readonly OpMapping[] = [
  {
    onnx: { op: 'ScatterElements', since: 11 },
    ir: { op: 'ScatterUpdate', version: 'opset3' },
    when: never,
    note: 'ScatterElements of the flattened updates at Gather(positions of data, indices, axis)',
    toIr: irOnly,
    toOnnx: scatterUpdateToOnnx,
  },
  {
    onnx: { op: 'Slice', since: 11 },
    ir: { op: 'SliceScatter', version: 'opset15' },
    when: never,
    note: 'ScatterElements of the flattened updates at Slice(positions of data, start, stop, axes, step)',
    toIr: irOnly,
    toOnnx: sliceScatterToOnnx,
  },
];
