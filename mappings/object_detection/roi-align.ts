import { A } from '../../src/graph/attr.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { float, int, irOnly, string } from '../spec.js';
import { roiAlignMaxToIr } from './roi-align-max.js';

/**
 * RoiAlign-10/16/22 ⇄ ROIAlign-9 (ROIAlign-3, which has no aligned_mode, read as asymmetric).
 * OpenVINO's ONNX frontend relates the coordinate modes so:
 *   ONNX half_pixel (the default from 16)  ⇄ IR half_pixel_for_nn (ROI corners shifted by -0.5)
 *   ONNX output_half_pixel (RoiAlign-10)   ⇄ IR asymmetric (no shift, ROI size at least 1)
 * IR half_pixel (shift, then OpenVINO's own rounding of the ROI size) has no ONNX spelling and is
 * refused. batch_indices is the third input on both sides (IR i32 indices are Cast to ONNX's i64).
 * IR pooled_h / pooled_w / sampling_ratio / spatial_scale are required: always written.
 *
 * Mode max differs: OpenVINO max-pools the bilinearly interpolated sample values, while ONNX
 * (onnx's reference and onnxruntime, which agree on test_roialign_mode_max) max-pools the four
 * weighted corner terms of each sample — measured on test_roialign_mode_max, OpenVINO's ROIAlign
 * differs from the expected numbers in 71 of 75 elements (worst 0.951 vs 0.550). ONNX → IR it is
 * written as IR ops (roi-align-max.ts) for a fixed sampling_ratio; IR → ONNX it is refused.
 */
const MAX_DIFFERS = 'OpenVINO ROIAlign max-pools the interpolated samples; ONNX RoiAlign (onnx reference, onnxruntime) max-pools the weighted corner terms of each sample: different numbers';

function roiAlignToIr(c: ConvertContext): void {
  const mode = c.attr.string('mode', 'avg');
  if (mode === 'max') { roiAlignMaxToIr(c, c.opset >= 16 && c.attr.string('coordinate_transformation_mode', 'half_pixel') === 'half_pixel'); return; }
  c.output(0, c.emitOwn([c.input(0), c.input(1), c.input(2)], c.attrs())[0]!);
}

function roiAlignToOnnx(c: ConvertContext): void {
  const mode = c.attr.string('mode', 'avg').toLowerCase();
  if (mode === 'max') { c.unsupportedAttr('mode', mode, MAX_DIFFERS); return; }
  const idx = c.elem(2) === 'i64' ? c.input(2) : c.emit('Cast', [c.input(2)], { to: A.int(7) })[0]!;
  c.output(0, c.emitOwn([c.input(0), c.input(1), idx], c.attrs())[0]!);
}
const COMMON = [
  int('output_height').as('pooled_h').default(1n),
  int('output_width').as('pooled_w').default(1n),
  int('sampling_ratio').default(0n),
  float('spatial_scale').default(1),
  string('mode').default('avg').irDefaultTo('avg').onlyValues('avg', 'max'),
];

export const ROI_ALIGN: readonly OpMapping[] = [
  {
    onnx: { op: 'RoiAlign', since: 10, until: 15 },
    ir: { op: 'ROIAlign', version: 'opset9', reads: ['opset3'] },
    attrs: [...COMMON, irOnly('aligned_mode', 'asymmetric')],
    note: 'mode max: ONNX → IR as IR ops for a fixed sampling_ratio (roi-align-max.ts), refused otherwise and IR → ONNX',
    toIr: roiAlignToIr,
    toOnnx: roiAlignToOnnx,
  },
  {
    onnx: { op: 'RoiAlign', since: 16 },
    ir: { op: 'ROIAlign', version: 'opset9', reads: ['opset3'] },
    attrs: [
      ...COMMON,
      string('coordinate_transformation_mode').as('aligned_mode').default('half_pixel').irDefaultTo('asymmetric')
        .map([['half_pixel', 'half_pixel_for_nn'], ['output_half_pixel', 'asymmetric']]),
    ],
    note: 'mode max: ONNX → IR as IR ops for a fixed sampling_ratio (roi-align-max.ts), refused otherwise and IR → ONNX',
    toIr: roiAlignToIr,
    toOnnx: roiAlignToOnnx,
  },
];
