import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromFloat32, type Model } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';
import { floats } from '../helpers/tensors.js';

/**
 * OpenVINO's detection post-processing ops written as ONNX subgraphs
 * (mappings/object_detection/multiclass-nms.ts, matrix-nms.ts, nms-rows.ts): onnxruntime's numbers
 * on small cases worked out by hand from OpenVINO's spec and CPU plugin, and the coded refusals.
 * The engines judge the same ops on IRs OpenVINO writes in test/conformance/native-ir-ops.test.ts.
 */
const ints = (t: OracleTensor): number[] => (t.dtype === 'i64'
  ? [...new BigInt64Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength))].map(Number)
  : [...new Int32Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength))]);
const round = (v: number[]): number[] => v.map((x) => Math.round(x * 1e6) / 1e6);

function refusal(m: Model): string {
  try { convertModel(m); } catch (e) { if (e instanceof OvirError) return e.message; throw e; }
  return '';
}

// b1 overlaps b0 (IoU 0.82), b3 overlaps b0 by exactly 0.5, b2 is apart
const BOXES = [0, 0, 1, 1, 0, 0.1, 1, 1.1, 2, 2, 3, 3, 0, 0, 1, 0.5];
// class 0, class 1
const SCORES = [0.9, 0.8, 0.3, 0.7, 0.2, 0.95, 0.6, 0.1];

function multiclass(attrs: Record<string, string>, version = 'opset8'): Model {
  const b = new Builder('ov');
  const boxes = b.init('boxes', tensorFromFloat32(BOXES, [1, 4, 4]));
  const scores = b.input('scores', 'f32', [1, 2, 4]);
  const n = b.node(b.graph, 'MulticlassNms', [boxes, scores], ['selected', 'indices', 'valid'], Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, A.raw(v)])), { name: 'nms', version });
  for (const o of n.outputs) b.output(o);
  return b.model;
}

describe('MulticlassNms-8/9: NonMaxSuppression per batch and class, then OpenVINO\'s order', () => {
  const base = { iou_threshold: '0.5', score_threshold: '0.25', nms_top_k: '-1', keep_top_k: '3', background_class: '-1', normalized: 'true', nms_eta: '1', sort_result_across_batch: 'false' };

  async function run(attrs: Record<string, string>): Promise<Record<string, OracleTensor>> {
    const onnx = convertModel(multiclass({ ...base, ...attrs }));
    expect([...allNodes(onnx.graph)].map((x) => x.op)).toContain('NonMaxSuppression');
    return runOrt(encodeOnnx(onnx).bytes, { scores: { dtype: 'f32', shape: [1, 2, 4], data: new Uint8Array(new Float32Array(SCORES).buffer) } });
  }

  it('drops a box whose IoU with a kept one is ≥ iou_threshold (0.5 exactly), keeps keep_top_k by score, orders by class', async () => {
    // class 0: b0 0.9 kept, b1 (IoU 0.82) and b3 (IoU 0.5) dropped, b2 0.3 kept; class 1: b1 0.95, b2 0.6 (0.2, 0.1 < 0.25)
    // by score: (1, b1), (0, b0), (1, b2), (0, b2); keep_top_k 3; classid: (0, b0), (1, b1), (1, b2)
    const r = await run({ sort_result_type: 'classid', output_type: 'i32' });
    expect(round(floats(r['selected']!))).toEqual([0, 0.9, 0, 0, 1, 1, 1, 0.95, 0, 0.1, 1, 1.1, 1, 0.6, 2, 2, 3, 3]);
    expect(r['indices']!.dtype).toBe('i32');
    expect(ints(r['indices']!)).toEqual([0, 1, 2]);
    expect(ints(r['valid']!)).toEqual([3]);
  });

  it('sort_result_type score keeps the score order; nms_top_k 2 leaves class 0 b0 and b1 only (b1 then dropped); background_class 1 is skipped', async () => {
    const r = await run({ sort_result_type: 'score', nms_top_k: '2', background_class: '1', keep_top_k: '-1' });
    expect(round(floats(r['selected']!))).toEqual([0, 0.9, 0, 0, 1, 1]);
    expect(ints(r['indices']!)).toEqual([0]);
    expect(ints(r['valid']!)).toEqual([1]);
  });

  it('refuses nms_eta < 1 with iou_threshold > 0.5 (a shrinking threshold), naming the layer and the attribute', () => {
    const msg = refusal(multiclass({ ...base, iou_threshold: '0.7', nms_eta: '0.9', sort_result_type: 'none' }));
    expect(msg).toMatch(/CONVERT_UNSUPPORTED_ATTR/);
    expect(msg).toMatch(/main\/nms/);
    expect(msg).toMatch(/nms_eta/);
  });

  it('refuses iou_threshold 0 (OpenVINO then suppresses disjoint boxes too) and an unknown sort_result_type', () => {
    expect(refusal(multiclass({ ...base, iou_threshold: '0', sort_result_type: 'none' }))).toMatch(/main\/nms.*iou_threshold|iou_threshold.*main\/nms/s);
    expect(refusal(multiclass({ ...base, sort_result_type: 'area' }))).toMatch(/sort_result_type/);
  });

  it('refuses scores of rank 2 without roisnum', () => {
    const b = new Builder('ov');
    const n = b.node(b.graph, 'MulticlassNms', [b.input('boxes', 'f32', [2, 4, 4]), b.input('scores', 'f32', [2, 4])], 3, { iou_threshold: A.raw('0.5') }, { name: 'nms', version: 'opset9' });
    for (const o of n.outputs) b.output(o);
    expect(refusal(b.model)).toMatch(/roisnum/);
  });
});



function matrix(attrs: Record<string, string>): Model {
  const b = new Builder('ov');
  const boxes = b.init('boxes', tensorFromFloat32(BOXES, [1, 4, 4]));
  const scores = b.input('scores', 'f32', [1, 2, 4]);
  const n = b.node(b.graph, 'MatrixNms', [boxes, scores], ['selected', 'indices', 'valid'], Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, A.raw(v)])), { name: 'matrix', version: 'opset8' });
  for (const o of n.outputs) b.output(o);
  return b.model;
}

describe('MatrixNms-8 (the TopK candidates of each class): each score decays by its overlap with the better boxes of its class', () => {
  it('linear decay (1 − iou) / (1 − max_iou of the better box), post_threshold, keep_top_k; classid leaves the score order (as the CPU kernel does)', async () => {
    const onnx = convertModel(matrix({ sort_result_type: 'classid', score_threshold: '0.25', post_threshold: '0.2', keep_top_k: '4', decay_function: 'linear', normalized: 'true' }));
    const r = await runOrt(encodeOnnx(onnx).bytes, { scores: { dtype: 'f32', shape: [1, 2, 4], data: new Uint8Array(new Float32Array(SCORES).buffer) } });
    // class 0 by score b0, b1, b3, b2: b1 decays by (1 − 0.818) → 0.145 (< 0.2, dropped); b3 by min(1 − 0.5,
    // (1 − 0.364) / (1 − 0.818)) → 0.35; b2 apart → 0.3. Class 1: b1 0.95, b2 0.6. By score, four kept.
    expect(round(floats(r['selected']!))).toEqual([1, 0.95, 0, 0.1, 1, 1.1, 0, 0.9, 0, 0, 1, 1, 1, 0.6, 2, 2, 3, 3, 0, 0.35, 0, 0, 1, 0.5]);
    expect(ints(r['indices']!)).toEqual([1, 0, 2, 3]);
    expect(ints(r['valid']!)).toEqual([4]);
  });

  it('refuses a decay_function other than linear and gaussian, naming the layer', () => {
    const msg = refusal(matrix({ decay_function: 'cubic' }));
    expect(msg).toMatch(/CONVERT_UNSUPPORTED_ATTR/);
    expect(msg).toMatch(/main\/matrix/);
    expect(msg).toMatch(/decay_function/);
  });
});

function proposal(attrs: Record<string, string>, version = 'opset1'): Model {
  const b = new Builder('ov');
  const probs = b.input('probs', 'f32', [1, 2, 1, 2]);
  const deltas = b.init('deltas', tensorFromFloat32(new Array(8).fill(0), [1, 4, 1, 2]));
  const info = b.init('info', tensorFromFloat32([1000, 1000, 1], [3]));
  const all = { base_size: '16', pre_nms_topn: '10', post_nms_topn: '3', nms_thresh: '0.7', feat_stride: '16', min_size: '1', ratio: '0.5', scale: '8', clip_before_nms: 'false', ...attrs };
  const n = b.node(b.graph, 'Proposal', [probs, deltas, info], version === 'opset4' ? ['rois', 'scores'] : ['rois'], Object.fromEntries(Object.entries(all).map(([k, v]) => [k, A.raw(v)])), { name: 'proposal', version });
  for (const o of n.outputs) b.output(o);
  return b.model;
}

describe('Proposal-1/4: anchors, deltas, NonMaxSuppression and OpenVINO\'s padded rows', () => {
  it('a Caffe anchor of ratio 0.5, scale 8 (base 16) is (−84, −40, 99, 55), decoded with +1 sizes as (−84, −40, 100, 56); the better cell suppresses the other (IoU 0.84); then a −1 row and zeros', async () => {
    const onnx = convertModel(proposal({}, 'opset4'));
    const r = await runOrt(encodeOnnx(onnx).bytes, { probs: { dtype: 'f32', shape: [1, 2, 1, 2], data: new Uint8Array(new Float32Array([0.1, 0.1, 0.3, 0.9]).buffer) } });
    expect(round(floats(r['rois']!))).toEqual([0, -68, -40, 116, 56, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(round(floats(r['scores']!))).toEqual([0.9, 0, 0]);
  });

  it('tensorflow anchors are shifted by half the base size and clipped to the image first', async () => {
    const onnx = convertModel(proposal({ framework: 'tensorflow', nms_thresh: '0.99' }));
    const r = await runOrt(encodeOnnx(onnx).bytes, { probs: { dtype: 'f32', shape: [1, 2, 1, 2], data: new Uint8Array(new Float32Array([0.1, 0.1, 0.3, 0.9]).buffer) } });
    // tensorflow: offset 0, no rounding: w = √512 = 22.627, h = 11.314, the anchor ±(90.51, 45.255)
    // around 0 after the shift; x along H (0), y along W (cells 0 and 16); clipped to [0, 1000] at
    // once: (0, 0, 90.51, 45.255) and (0, 0, 90.51, 61.255), IoU 0.74, both kept, the better first
    const rois = floats(r['rois']!).map((v) => Math.round(v * 1000) / 1000);
    expect(rois.slice(0, 10)).toEqual([0, 0, 0, 90.51, 61.255, 0, 0, 0, 90.51, 45.255]);
  });

  it('refuses a framework other than "" and tensorflow, naming the layer', () => {
    const msg = refusal(proposal({ framework: 'mxnet' }));
    expect(msg).toMatch(/CONVERT_UNSUPPORTED_ATTR/);
    expect(msg).toMatch(/main\/proposal/);
    expect(msg).toMatch(/framework/);
  });
});

describe('ExperimentalDetectronTopKROIs-6 (ONNX TopK) and ExperimentalDetectronPriorGridGenerator-6 (ONNX Range)', () => {
  it('TopKROIs: the rois of the max_rois highest probabilities, best first; zero rows past the rois there are', async () => {
    const b = new Builder('ov');
    const rois = b.init('rois', tensorFromFloat32([0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3], [3, 4]));
    const y = b.node(b.graph, 'ExperimentalDetectronTopKROIs', [rois, b.input('probs', 'f32', [3])], ['top'], { max_rois: A.raw('4') }, { name: 'topk', version: 'opset6' });
    b.output(y.outputs[0]!);
    const r = await runOrt(encodeOnnx(convertModel(b.model)).bytes, { probs: { dtype: 'f32', shape: [3], data: new Uint8Array(new Float32Array([0.2, 0.7, 0.5]).buffer) } });
    expect(floats(r['top']!)).toEqual([1, 1, 2, 2, 2, 2, 3, 3, 0, 0, 1, 1, 0, 0, 0, 0]);
  });

  function grid(attrs: Record<string, string>): Model {
    const b = new Builder('ov');
    const priors = b.init('priors', tensorFromFloat32([-1, -2, 1, 2], [1, 4]));
    const y = b.node(b.graph, 'ExperimentalDetectronPriorGridGenerator', [priors, b.input('fmap', 'f32', [1, 1, 2, 3]), b.input('img', 'f32', [1, 3, 8, 12])], ['grid'],
      Object.fromEntries(Object.entries({ flatten: 'true', h: '0', w: '0', stride_x: '0', stride_y: '0', ...attrs }).map(([k, v]) => [k, A.raw(v)])), { name: 'grid', version: 'opset6' });
    b.output(y.outputs[0]!);
    return b.model;
  }

  it('PriorGridGenerator: each prior at each cell centre, steps = image size / grid size (12 / 3 = 4, 8 / 2 = 4)', async () => {
    const zeros = (shape: number[]): OracleTensor => ({ dtype: 'f32', shape, data: new Uint8Array(4 * shape.reduce((a, d) => a * d, 1)) });
    const r = await runOrt(encodeOnnx(convertModel(grid({}))).bytes, { fmap: zeros([1, 1, 2, 3]), img: zeros([1, 3, 8, 12]) });
    // centres x 2, 6, 10; y 2, 6
    expect(floats(r['grid']!)).toEqual([1, 0, 3, 4, 5, 0, 7, 4, 9, 0, 11, 4, 1, 4, 3, 8, 5, 4, 7, 8, 9, 4, 11, 8]);
  });

  it('PriorGridGenerator: an h or w other than the feature map\'s dim is refused, naming the layer', () => {
    const msg = refusal(grid({ h: '3' }));
    expect(msg).toMatch(/CONVERT_UNSUPPORTED_ATTR/);
    expect(msg).toMatch(/main\/grid/);
  });
});

describe('ExperimentalDetectronGenerateProposalsSingleImage-6: anchors moved by the deltas, NonMaxSuppression, zero rows', () => {
  function proposals(attrs: Record<string, string>): Model {
    const b = new Builder('ov');
    const info = b.init('info', tensorFromFloat32([100, 100, 1], [3]));
    const anchors = b.init('anchors', tensorFromFloat32([0, 0, 9, 9, 1, 0, 10, 9], [2, 4])); // H = W = 1, A = 2
    const deltas = b.init('deltas', tensorFromFloat32(new Array(8).fill(0), [8, 1, 1]));
    const n = b.node(b.graph, 'ExperimentalDetectronGenerateProposalsSingleImage', [info, anchors, deltas, b.input('scores', 'f32', [2, 1, 1])], ['rois', 'roi_scores'],
      Object.fromEntries(Object.entries({ min_size: '0', nms_threshold: '0.7', pre_nms_count: '10', post_nms_count: '3', ...attrs }).map(([k, v]) => [k, A.raw(v)])), { name: 'gp', version: 'opset6' });
    for (const o of n.outputs) b.output(o);
    return b.model;
  }

  it('zero deltas keep each anchor (x1 = x0 + w − 1 with w = x1 − x0 + 1); the better of two boxes of IoU 0.8 suppresses the other; zeros after', async () => {
    const r = await runOrt(encodeOnnx(convertModel(proposals({}))).bytes, { scores: { dtype: 'f32', shape: [2, 1, 1], data: new Uint8Array(new Float32Array([0.4, 0.6]).buffer) } });
    expect(round(floats(r['rois']!))).toEqual([1, 0, 10, 9, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(round(floats(r['roi_scores']!))).toEqual([0.6, 0, 0]);
  });

  it('refuses a pre_nms_count of 0, naming the layer', () => {
    expect(refusal(proposals({ pre_nms_count: '0' }))).toMatch(/main\/gp.*pre_nms_count|pre_nms_count.*main\/gp/s);
  });
});
