import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, normAxis } from '../helpers.js';
import { irOnly, never, on } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * RegionYolo-0 (YOLOv2 / YOLOv3 heads of the Open Model Zoo and Darknet), which ONNX lacks, after
 * OpenVINO's reference (region_yolo.hpp). The [N, C, H, W] data holds, per region, K = coords +
 * 1 + classes planes of H·W: x, y, (w, h, …), objectness, class scores.
 *  - do_softmax = false (YOLOv3): the first |mask| regions (C = |mask|·K channels) are kept; x, y,
 *    objectness and the class scores go through a logistic sigmoid; the output is [N, |mask|·K, H, W].
 *  - do_softmax = true (YOLOv2): `num` regions; x, y and objectness sigmoid, the class scores a
 *    softmax over the classes at each location; the output flattens dims axis … end_axis.
 * Written as Reshape to [N, R, K, H·W], Slice of each group of planes, Sigmoid / Softmax (axis 2),
 * Concat, Reshape back. H and W may vary; the flattened output of do_softmax needs axis 1 … 3 or a
 * static shape.
 */
function regionYoloToOnnx(c: ConvertContext): void {
  const coords = Number(c.attr.int('coords') ?? 4n);
  const classes = Number(c.attr.int('classes') ?? 0n);
  const num = Number(c.attr.int('num') ?? 0n);
  const softmax = c.attr.bool('do_softmax') ?? true;
  const mask = c.attr.ints('mask') ?? [];
  if (coords < 2 || classes < 1) { c.unsupportedAttr(coords < 2 ? 'coords' : 'classes', String(coords < 2 ? coords : classes), 'coords ≥ 2 and classes ≥ 1'); return; }
  const regions = softmax ? num : mask.length;
  if (regions < 1) { c.unsupportedAttr(softmax ? 'num' : 'mask', softmax ? String(num) : mask.join(','), softmax ? 'at least one region' : 'at least one region in mask (do_softmax false)'); return; }
  const t = c.type(0);
  const shape = t?.kind === 'tensor' ? t.shape : null;
  if (shape === null || shape.length !== 4) { c.error('RegionYolo needs data of rank 4'); return; }
  const K = coords + 1 + classes;
  const ch = shape[1];
  if (typeof ch === 'number' && ch < regions * K) { c.error(`RegionYolo: ${ch} channels hold fewer than ${regions} regions of ${K} planes`); return; }
  let data = c.input(0)!;
  if (ch !== regions * K) data = on(c, 'Slice', [data, i64Const(c, [0n]), i64Const(c, [BigInt(regions * K)]), i64Const(c, [1n])]);
  const planes = on(c, 'Reshape', [data, i64Const(c, [0n, BigInt(regions), BigInt(K), -1n])]);
  const part = (from: number, to: number): Value => on(c, 'Slice', [planes, i64Const(c, [BigInt(from)]), i64Const(c, [BigInt(to)]), i64Const(c, [2n])]);
  const pieces = [
    on(c, 'Sigmoid', [part(0, 2)]),
    ...(coords > 2 ? [part(2, coords)] : []),
    on(c, 'Sigmoid', [part(coords, coords + 1)]),
    softmax ? on(c, 'Softmax', [part(coords + 1, K)], { axis: A.int(2) }) : on(c, 'Sigmoid', [part(coords + 1, K)]),
  ];
  const joined = on(c, 'Concat', pieces, { axis: A.int(2) });
  const back = on(c, 'Reshape', [joined, on(c, 'Shape', [data])]);
  if (!softmax) { c.output(0, back); return; }
  const axis = normAxis(c.attr.int('axis') ?? 1n, 4);
  const end = normAxis(c.attr.int('end_axis') ?? 3n, 4);
  if (axis === 1 && end === 3) { c.output(0, on(c, 'Flatten', [back], { axis: A.int(1) })); return; }
  if (axis > end) { c.output(0, back); return; }
  if (!shape.every((d) => typeof d === 'number')) { c.error(`RegionYolo flattening axes ${axis} … ${end} needs a static data shape`); return; }
  const dims = shape as number[];
  const flat = [...dims.slice(0, axis), dims.slice(axis, end + 1).reduce((a, b) => a * b, 1), ...dims.slice(end + 1)];
  c.output(0, on(c, 'Reshape', [back, i64Const(c, flat.map(BigInt))]));
}

export const REGION_YOLO: readonly OpMapping[] = [
  {
    onnx: { op: 'Sigmoid', since: 13 },
    ir: { op: 'RegionYolo', version: 'opset1' },
    when: never,
    handles: { ir: ['coords', 'classes', 'num', 'do_softmax', 'mask', 'axis', 'end_axis', 'anchors'] },
    note: 'per region: Sigmoid of x, y and objectness, Softmax (YOLOv2) or Sigmoid (YOLOv3) of the class scores',
    toIr: irOnly,
    toOnnx: regionYoloToOnnx,
  },
];
