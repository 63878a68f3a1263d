import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { asI64Vector } from '../helpers.js';
import { flatten1d, irOnly, never, on, positions } from '../ir-only/onnx-build.js';
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
function writeAt(c: ConvertContext, at: Value): void {
  const data = c.input(0)!;
  const written = on(c, 'ScatterElements', [flatten1d(c, data), flatten1d(c, at), flatten1d(c, c.input(c.entry.ir?.op === 'SliceScatter' ? 1 : 2)!)], { axis: A.int(0) });
  c.output(0, on(c, 'Reshape', [written, on(c, 'Shape', [data])]));
}

function scatterUpdateToOnnx(c: ConvertContext): void {
  const axis = c.constInts(3);
  if (axis === null || axis.length !== 1) { c.needsConstant(3, 'axis (ONNX Gather takes it as an attribute)'); return; }
  writeAt(c, on(c, 'Gather', [positions(c, c.input(0)!), c.input(1)], { axis: A.int(axis[0]!) }));
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
