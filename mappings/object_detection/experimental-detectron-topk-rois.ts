import { A } from '../../src/graph/attr.js';
import { i64Const } from '../helpers.js';
import { cast, irOnly, never, on } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { asF32, dim1 } from './nms-rows.js';

/**
 * ExperimentalDetectronTopKROIs-6 (Mask R-CNN IRs): the max_rois rois [R, 4] of the highest
 * probabilities [R], best first, as OpenVINO's CPU plugin (experimental_detectron_topkrois.cpp):
 * ONNX TopK of k = min(max_rois, R) and a Gather. The output is [max_rois, 4]: when R < max_rois
 * the rows after the R are zeros here (the plugin leaves them unwritten).
 */
function topKRoisToOnnx(c: ConvertContext): void {
  const maxRois = c.attr.int('max_rois') ?? 0n;
  if (maxRois < 0n) { c.unsupportedAttr('max_rois', String(maxRois), 'must be ≥ 0'); return; }
  if (c.opset < 11) { c.error(`ExperimentalDetectronTopKROIs is written with ONNX TopK-11 (opset 11 or later; target ${c.opset})`); return; }
  const rois = asF32(c, 0);
  const probs = on(c, 'Reshape', [asF32(c, 1), i64Const(c, [-1n])]);
  const r = dim1(c, probs, 0n);
  const k = on(c, 'Min', [i64Const(c, [maxRois]), r]);
  const order = c.emit('TopK', [probs, k], { axis: A.int(0), largest: A.int(1), sorted: A.int(1) }, 2)[1]!;
  const top = on(c, 'Gather', [rois, order], { axis: A.int(0) });
  const rest = on(c, 'Sub', [i64Const(c, [maxRois]), k]);
  const out = on(c, 'Pad', [top, on(c, 'Concat', [i64Const(c, [0n, 0n]), rest, i64Const(c, [0n])], { axis: A.int(0) })]);
  const elem = c.elem(0) ?? 'f32';
  c.output(0, elem === 'f32' ? out : cast(c, out, elem));
}

export const EXPERIMENTAL_DETECTRON_TOPK_ROIS: readonly OpMapping[] = [
  {
    onnx: { op: 'TopK', since: 11 },
    ir: { op: 'ExperimentalDetectronTopKROIs', version: 'opset6' },
    when: never,
    handles: { ir: ['max_rois'] },
    note: 'ONNX TopK of the probabilities and a Gather of the rois, zero rows to max_rois',
    toIr: irOnly,
    toOnnx: topKRoisToOnnx,
  },
];
