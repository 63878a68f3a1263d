import { A } from '../../src/graph/attr.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { float, irOnly } from '../spec.js';

/**
 * MaxRoiPool-1 ⇄ ROIPooling-2 with method max: the same computation in OpenVINO's reference
 * (roi_pooling.hpp) and onnxruntime's kernel — ROI corners rounded after spatial_scale, the ROI at
 * least 1×1, bins ⌊i·size/pooled⌋ … ⌈(i + 1)·size/pooled⌉ offset by the corner and clipped, an
 * empty bin 0 — and the same rois layout [batch_id, x1, y1, x2, y2]. ONNX pooled_shape is the
 * pooled size, which IRs spell pooled_h/pooled_w (older serializers), output_size or output_roi
 * (OpenVINO 2024+ writes all four; all are read and must agree, and all are written). Method
 * bilinear (normalized coordinates, an interpolated sample per bin) has no ONNX op and is refused,
 * naming the attribute.
 */
const SIZE_ATTRS = ['output_roi', 'output_size'] as const;

function pooledSize(c: ConvertContext): readonly [bigint, bigint] | null {
  const seen: { name: string; v: bigint[] }[] = [];
  for (const name of SIZE_ATTRS) { const v = c.attr.ints(name); if (v) seen.push({ name, v }); }
  const h = c.attr.int('pooled_h');
  const w = c.attr.int('pooled_w');
  if (h !== undefined || w !== undefined) seen.push({ name: 'pooled_h/pooled_w', v: [h ?? -1n, w ?? -1n] });
  const first = seen[0];
  if (!first || first.v.length !== 2 || first.v.some((d) => d < 1n)) { c.unsupportedAttr(first?.name ?? 'output_roi', first?.v.join(',') ?? '', 'two positive sizes (pooled_h, pooled_w)'); return null; }
  const other = seen.find((s) => s.v.join(',') !== first.v.join(','));
  if (other) { c.unsupportedAttr(other.name, other.v.join(','), `the pooled size written as ${first.name} is ${first.v.join(',')}`); return null; }
  return [first.v[0]!, first.v[1]!];
}

function roiPoolingToOnnx(c: ConvertContext): void {
  const size = pooledSize(c);
  if (!size) return;
  const attrs = c.attrs();
  attrs.set('pooled_shape', A.ints(size));
  c.output(0, c.emitOwn([c.input(0), c.input(1)], attrs)[0]!);
}

function maxRoiPoolToIr(c: ConvertContext): void {
  const p = c.attr.ints('pooled_shape');
  if (!p || p.length !== 2 || p.some((d) => d < 1n)) { c.unsupportedAttr('pooled_shape', (p ?? []).join(','), 'two positive sizes'); return; }
  const attrs = c.attrs();
  attrs.set('output_roi', A.raw(p.join(',')));
  attrs.set('output_size', A.raw(p.join(',')));
  attrs.set('pooled_h', A.raw(String(p[0])));
  attrs.set('pooled_w', A.raw(String(p[1])));
  c.output(0, c.emitOwn([c.input(0), c.input(1)], attrs)[0]!);
}

export const ROI_POOLING: readonly OpMapping[] = [
  {
    onnx: { op: 'MaxRoiPool', since: 1 },
    ir: { op: 'ROIPooling', version: 'opset2' },
    attrs: [float('spatial_scale').default(1), irOnly('method', 'max')],
    handles: { onnx: ['pooled_shape'], ir: ['output_roi', 'output_size', 'pooled_h', 'pooled_w'] },
    note: 'method max only (bilinear refused); the pooled size is pooled_shape ⇄ output_roi / output_size / pooled_h, pooled_w',
    toIr: maxRoiPoolToIr,
    toOnnx: roiPoolingToOnnx,
  },
];
