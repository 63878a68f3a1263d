import { A } from '../../src/graph/attr.js';
import { makeTensor, tensorFromFloat32 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Scalar } from '../helpers.js';
import { cast, irOnly, never, on, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { roiAlignSamples } from './roi-align-samples.js';

/**
 * ExperimentalDetectronROIFeatureExtractor-6 (Mask R-CNN IRs: the FPN's multi-level ROIAlign), as
 * OpenVINO's CPU plugin computes it (experimental_detectron_roifeatureextractor.cpp, Caffe2's
 * ROIAlign). Inputs rois [R, 4] (x0, y0, x1, y1) and L feature maps [1, C, Hl, Wl]; each ROI goes to
 * level ⌊log2(√((x1 − x0)(y1 − y0)) / 224 + 10⁻⁶) + 2⌋ clamped to [0, L − 1] (a ROI whose area is not
 * positive to none: its features are 0) and is pooled there as ROIAlign of output_size × output_size
 * bins: corners x·(1/pyramid_scales[l]) − o (o = ½ when aligned), size at least 1 (aligned too),
 * sampling_ratio or ⌈bin⌉ samples per bin, sample (iy, ix) at start + p·bin + (iy + ½)·bin/n.
 * Outputs the features [R, C, output_size, output_size] and the ROIs as given.
 *
 * ONNX form: every ROI pooled on every level (roi-align-samples.ts), the level's result chosen by Where.
 */
const f32 = (c: ConvertContext, v: number): Value => c.constant(tensorFromFloat32([v], []));
const op = (c: ConvertContext, name: string, a: Value, b: Value): Value => on(c, name, [a, b]);

function roiFeatureExtractorToOnnx(c: ConvertContext): void {
  const size = Number(c.attr.int('output_size') ?? 0n);
  const ratio = Number(c.attr.int('sampling_ratio') ?? 0n);
  const scales = c.attr.ints('pyramid_scales');
  const aligned = c.attr.bool('aligned') ?? false;
  const L = c.numInputs - 1;
  if (!(size >= 1)) { c.unsupportedAttr('output_size', String(size), 'a positive integer'); return; }
  if (ratio < 0) { c.unsupportedAttr('sampling_ratio', String(ratio), '0 (adaptive) or a positive integer'); return; }
  if (!scales || scales.length !== L || scales.some((s) => s <= 0n)) { c.unsupportedAttr('pyramid_scales', scales?.join(',') ?? '', `one positive scale per feature map (${L})`); return; }
  const elem = c.elem(1);
  if (elem !== 'f32' && elem !== 'f16' && elem !== 'bf16') { c.error(`ExperimentalDetectronROIFeatureExtractor needs f32, f16 or bf16 features, not ${elem ?? 'an unknown type'}`); return; }
  const rois = c.elem(0) === 'f32' ? c.input(0)! : cast(c, c.input(0)!, 'f32');
  const col = (k: number): Value => on(c, 'Gather', [rois, i64Scalar(c, BigInt(k))], { axis: A.int(1) }); // [R]
  const [x0, y0, x1, y1] = [0, 1, 2, 3].map(col) as [Value, Value, Value, Value];
  // the level of each ROI, L when its area is not positive
  const area = op(c, 'Mul', op(c, 'Sub', x1, x0), op(c, 'Sub', y1, y0));
  const ratioTo = op(c, 'Add', op(c, 'Div', on(c, 'Sqrt', [area]), f32(c, 224)), f32(c, Math.fround(1e-6)));
  const ln2 = c.constant(makeTensor('f64', [], new Uint8Array(new Float64Array([Math.LN2]).buffer)));
  const log2 = cast(c, op(c, 'Div', on(c, 'Log', [cast(c, ratioTo, 'f64')]), ln2), 'f32');
  const raw = cast(c, on(c, 'Floor', [op(c, 'Add', log2, f32(c, 2))]), 'i64');
  const clamped = op(c, 'Max', op(c, 'Min', raw, i64Scalar(c, BigInt(L - 1))), i64Scalar(c, 0n));
  const level = on(c, 'Where', [op(c, 'Greater', area, f32(c, 0)), clamped, i64Scalar(c, BigInt(L))]); // [R]
  const batch = on(c, 'Mul', [cast(c, level, 'i64'), i64Scalar(c, 0n)]); // the maps hold one image
  const offset = f32(c, aligned ? 0.5 : 0);
  const one = f32(c, 1);
  let out: Value | null = null;
  for (let l = L - 1; l >= 0; l--) {
    const data = c.elem(l + 1) === 'f32' ? c.input(l + 1)! : cast(c, c.input(l + 1)!, 'f32');
    const s = f32(c, Math.fround(1 / Number(scales[l]!)));
    const at = (v: Value): Value => op(c, 'Sub', op(c, 'Mul', v, s), offset);
    const [sx, sy, ex, ey] = [at(x0), at(y0), at(x1), at(y1)];
    const extent = (a: Value, b: Value): Value => op(c, 'Div', op(c, 'Max', op(c, 'Sub', b, a), one), f32(c, size));
    const pooled = roiAlignSamples(c, data, batch, { startX: sx, startY: sy, binW: extent(sx, ex), binH: extent(sy, ey) }, size, size, ratio);
    const here = unsqueeze(c, op(c, 'Equal', level, i64Scalar(c, BigInt(l))), [1n, 2n, 3n]);
    out = on(c, 'Where', [here, pooled, out ?? f32(c, 0)]);
  }
  c.output(0, elem === 'f32' ? out! : cast(c, out!, elem));
  if (c.node.outputs.length > 1) c.output(1, on(c, 'Identity', [c.input(0)!]));
}

export const EXPERIMENTAL_DETECTRON_ROI_FEATURE_EXTRACTOR: readonly OpMapping[] = [
  {
    onnx: { op: 'Gather', since: 13 },
    ir: { op: 'ExperimentalDetectronROIFeatureExtractor', version: 'opset6' },
    when: never,
    handles: { ir: ['output_size', 'sampling_ratio', 'pyramid_scales', 'aligned'] },
    note: 'every ROI pooled on every level as Caffe2\'s ROIAlign (four Gathers of rows of channels per sample), the level by ⌊log2(√area / 224) + 2⌋ chosen by Where; the ROIs passed through',
    toIr: irOnly,
    toOnnx: roiFeatureExtractorToOnnx,
  },
];
