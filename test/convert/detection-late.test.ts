import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromFloat32, tensorFromInt32, tensorFromInt64, type Model } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';

/**
 * The detection ops IR → ONNX read last (session 19): ROIAlignRotated-15, … — onnxruntime's
 * numbers on ovir's ONNX against each op's definition computed here (after OpenVINO's reference,
 * which its CPU plugin computes), and the coded refusals. The engines judge the same ops on IRs
 * OpenVINO writes in test/conformance/native-ir-ops.test.ts.
 */
const f32 = (shape: number[], v: number[]): OracleTensor => ({ dtype: 'f32', shape, data: new Uint8Array(new Float32Array(v).buffer) });
const floats = (t: OracleTensor): number[] => [...new Float32Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength))];
const close = (got: number[], want: number[]): void => {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => expect(Math.abs(g - want[i]!), `element ${i}: ${g} vs ${want[i]}`).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(want[i]!)));
};
const ops = (m: Model): Set<string> => new Set([...allNodes(m.graph)].map((n) => n.op));
const seq = (n: number, f: (i: number) => number): number[] => Array.from({ length: n }, (_, i) => f(i));
function refusal(m: Model): string {
  try { convertModel(m); } catch (e) { if (e instanceof OvirError) return e.message; throw e; }
  return '';
}

describe('ROIAlignRotated-15 (rois [cx, cy, w, h, angle]; bins of a rotated box, bilinear samples averaged)', () => {
  /** OpenVINO's definition: the box centred at (cx·s − ½, cy·s − ½), turned by the angle (negated when clockwise). */
  function definition(x: number[], [, C, H, W]: number[], rois: number[][], batch: number[], ph: number, pw: number, ratio: number, s: number, clockwise: boolean): number[] {
    const out: number[] = [];
    rois.forEach(([rx, ry, rw, rh, ra], r) => {
      const [cx, cy, w, h] = [rx! * s - 0.5, ry! * s - 0.5, rw! * s, rh! * s];
      const a = clockwise ? -ra! : ra!;
      const [bw, bh] = [w / pw, h / ph];
      const [sx, sy] = [ratio || Math.ceil(bw), ratio || Math.ceil(bh)];
      const value = (c: number, yy: number, xx: number): number => {
        if (xx < -1 || xx > W || yy < -1 || yy > H) return 0;
        let [y, xv] = [Math.max(yy, 0), Math.max(xx, 0)];
        let [y0, x0] = [Math.floor(y), Math.floor(xv)];
        let [y1, x1] = [y0 + 1, x0 + 1];
        if (y0 >= H - 1) { y0 = y1 = H - 1; y = y0; }
        if (x0 >= W - 1) { x0 = x1 = W - 1; xv = x0; }
        const [ly, lx] = [y - y0, xv - x0];
        const v = (i: number, j: number): number => x[((batch[r]! * C + c) * H + i) * W + j]!;
        return (1 - ly) * (1 - lx) * v(y0, x0) + (1 - ly) * lx * v(y0, x1) + ly * (1 - lx) * v(y1, x0) + ly * lx * v(y1, x1);
      };
      for (let c = 0; c < C; c++) for (let i = 0; i < ph; i++) for (let j = 0; j < pw; j++) {
        let sum = 0;
        for (let iy = 0; iy < sy; iy++) for (let ix = 0; ix < sx; ix++) {
          const py = -h / 2 + i * bh + (iy + 0.5) * bh / sy;
          const px = -w / 2 + j * bw + (ix + 0.5) * bw / sx;
          sum += value(c, py * Math.cos(a) - px * Math.sin(a) + cy, py * Math.sin(a) + px * Math.cos(a) + cx);
        }
        out.push(sx * sy === 0 ? 0 : sum / (sx * sy));
      }
    });
    return out;
  }

  function model(shape: number[], rois: number[][], batch: number[], ph: number, pw: number, ratio: number, scale: number, clockwise: boolean): Model {
    const b = new Builder('ov');
    const ins = [b.input('x', 'f32', shape), b.input('rois', 'f32', [rois.length, 5]), b.init('batch', tensorFromInt32(batch, [batch.length]))];
    b.output(b.node(b.graph, 'ROIAlignRotated', ins, ['y'], {
      pooled_h: A.int(BigInt(ph)), pooled_w: A.int(BigInt(pw)), sampling_ratio: A.int(BigInt(ratio)), spatial_scale: A.float(scale), clockwise_mode: A.bool(clockwise),
    }, { name: 'rar', version: 'opset15' }).outputs[0]!);
    return b.model;
  }

  const shape = [2, 2, 6, 7];
  const x = seq(2 * 2 * 6 * 7, (i) => Math.fround(((i * 7) % 13) / 5 - 1.2));
  // inside, crossing the top-left border, past the bottom-right, zero width, a quarter turn
  const rois = [[3, 3, 4, 2, 0.4], [0.5, 0.2, 4, 3, -1], [6.5, 5.5, 6, 2, 2.2], [3, 2, 0, 2, 0.6], [2, 4, 2.5, 5, Math.PI / 2]];
  const batch = [0, 1, 1, 0, 1];
  for (const [ratio, scale, clockwise] of [[0, 1, true], [2, 0.75, false], [0, 1.3, false]] as const) {
    it(`sampling_ratio ${ratio}${ratio === 0 ? ' (⌈bin size⌉ samples per ROI)' : ''}, spatial_scale ${scale}, ${clockwise ? 'clockwise' : 'counterclockwise'}`, async () => {
      const onnx = convertModel(model(shape, rois, batch, 2, 3, ratio, scale, clockwise));
      expect(ops(onnx)).toContain('Gather'); // the four corners of every sample, read as rows of channels
      const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32(shape, x), rois: f32([5, 5], rois.flat()) }))['y']!;
      expect(y.shape).toEqual([5, 2, 2, 3]);
      const want = definition(x, shape, rois.map((r) => r.map(Math.fround)), batch, 2, 3, ratio, scale, clockwise);
      close(floats(y), want);
      expect(floats(y).slice(3 * 12, 4 * 12).every((v) => v === 0 || ratio > 0)).toBe(true); // zero width: no sample when adaptive
    });
  }

  it('refuses a negative sampling_ratio, naming the layer', () => {
    expect(refusal(model(shape, rois, batch, 2, 2, -1, 1, true))).toMatch(/main\/rar.*sampling_ratio/s);
  });
});

describe('NMSRotated-13 (boxes [cx, cy, w, h, angle]; greedy NMS by the IoU of rotated boxes)', () => {
  function model(n: number, classes: number, most: number, iou: number, scoreThreshold: number, descending: boolean, clockwise = true): Model {
    const b = new Builder('ov');
    const ins = [
      b.input('boxes', 'f32', [1, n, 5]), b.input('scores', 'f32', [1, classes, n]),
      b.init('max', tensorFromInt64([most], [])), b.init('iou', tensorFromFloat32([iou], [])), b.init('score', tensorFromFloat32([scoreThreshold], [])),
    ];
    const node = b.node(b.graph, 'NMSRotated', ins, ['indices', 'selected_scores', 'valid'], {
      sort_result_descending: A.bool(descending), output_type: A.string('i64'), clockwise: A.bool(clockwise),
    }, { name: 'nmsr', version: 'opset13' });
    node.outputs.forEach((o) => b.output(o));
    return b.model;
  }
  const rows = (t: OracleTensor): number[][] => {
    const v = [...new BigInt64Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength))].map(Number);
    return Array.from({ length: v.length / 3 }, (_, i) => v.slice(3 * i, 3 * i + 3));
  };
  async function run(m: Model, boxes: number[][], scores: number[]): Promise<Record<string, OracleTensor>> {
    const onnx = convertModel(m);
    expect(ops(onnx)).toContain('Loop'); // the greedy selection over the ranks
    return runOrt(encodeOnnx(onnx).bytes, { boxes: f32([1, boxes.length, 5], boxes.flat()), scores: f32([1, scores.length / boxes.length, boxes.length], scores) });
  }

  // a 2 × 2 square and the same square turned by 45°: their intersection is a regular octagon of
  // area 8(√2 − 1), so IoU = 8(√2 − 1) / (8 − 8(√2 − 1)) = 1/√2 ≈ 0.7071
  const square = [[5, 5, 2, 2, 0], [5, 5, 2, 2, Math.PI / 4]];
  it('the IoU of a square and its 45° turn is 1/√2: suppressed at a threshold of 0.70, kept at 0.71', async () => {
    expect(rows((await run(model(2, 1, 10, 0.70, 0, false), square, [0.9, 0.8]))['indices']!)).toEqual([[0, 0, 0]]);
    expect(rows((await run(model(2, 1, 10, 0.71, 0, false), square, [0.9, 0.8]))['indices']!)).toEqual([[0, 0, 0], [0, 0, 1]]);
  });

  it('identical boxes (every edge shared) have IoU 1; boxes apart 0; a zero area 0', async () => {
    const boxes = [[1, 1, 2, 1, 0.3], [1, 1, 2, 1, 0.3], [8, 8, 1, 1, 0], [8, 8, 0, 1, 0]];
    const r = await run(model(4, 1, 10, 0.99, 0, false), boxes, [0.5, 0.9, 0.7, 0.6]);
    expect(rows(r['indices']!)).toEqual([[0, 0, 1], [0, 0, 2], [0, 0, 3]]);
  });

  it('scores above score_threshold only, ties by the lower index, at most max_output_boxes_per_class per class; sorted: all rows by score, ties by class then index', async () => {
    const boxes = [[0, 0, 1, 1, 0], [3, 0, 1, 1, 0], [6, 0, 1, 1, 0], [9, 0, 1, 1, 0]];
    const scores = [0.5, 0.2, 0.5, 0.7, /* class 1 */ 0.7, 0.1, 0.5, 0.3];
    const byClass = await run(model(4, 2, 3, 0.5, 0.2, false), boxes, scores);
    expect(rows(byClass['indices']!)).toEqual([[0, 0, 3], [0, 0, 0], [0, 0, 2], [0, 1, 0], [0, 1, 2], [0, 1, 3]]);
    expect(floats(byClass['selected_scores']!).filter((_, i) => i % 3 === 2)).toEqual([0.7, 0.5, 0.5, 0.7, 0.5, 0.3].map(Math.fround));
    const sorted = await run(model(4, 2, 3, 0.5, 0.2, true), boxes, scores);
    expect(rows(sorted['indices']!)).toEqual([[0, 0, 3], [0, 1, 0], [0, 0, 0], [0, 0, 2], [0, 1, 2], [0, 1, 3]]);
    expect([...new BigInt64Array(sorted['valid']!.data.slice().buffer)]).toEqual([6n]);
  });

  it('clockwise or not turns the boxes the other way', async () => {
    // a 4 × 1 bar at +0.5 rad and one at +0.5 rad moved along the direction the first turns to
    const along = (sign: number): number[] => [5 + 1.5 * Math.cos(0.5), 5 + sign * 1.5 * Math.sin(0.5), 4, 1, 0.5];
    const keep = async (clockwise: boolean, sign: number): Promise<number> => rows((await run(model(2, 1, 10, 0.3, 0, false, clockwise), [[5, 5, 4, 1, 0.5], along(sign)], [0.9, 0.8]))['indices']!).length;
    expect([await keep(false, 1), await keep(false, -1)]).not.toEqual([await keep(true, 1), await keep(true, -1)]);
  });
});

describe('GenerateProposals-9 (anchors moved by the deltas, greedy NMS; sizes + 1 unless normalized)', () => {
  function model(normalized: boolean, minSize: number, nms: number): Model {
    const b = new Builder('ov');
    const anchors = [0, 0, 9, 9, 1, 1, 10, 10, 20, 20, 21, 21]; // [H = 1, W = 1, A = 3, 4]
    const ins = [
      b.init('im_info', tensorFromFloat32([30, 30, 1], [1, 3])), b.init('anchors', tensorFromFloat32(anchors, [1, 1, 3, 4])),
      b.input('deltas', 'f32', [1, 12, 1, 1]), b.input('scores', 'f32', [1, 3, 1, 1]),
    ];
    const node = b.node(b.graph, 'GenerateProposals', ins, ['rois', 'roi_scores', 'roi_num'], {
      min_size: A.float(minSize), nms_threshold: A.float(nms), pre_nms_count: A.int(10n), post_nms_count: A.int(5n),
      normalized: A.bool(normalized), nms_eta: A.float(1), roi_num_type: A.string('i64'),
    }, { name: 'gp', version: 'opset9' });
    node.outputs.forEach((o) => b.output(o));
    return b.model;
  }
  async function run(m: Model): Promise<{ rois: number[]; scores: number[]; num: bigint[] }> {
    const onnx = convertModel(m);
    expect(ops(onnx)).toContain('Loop'); // the greedy selection over the ranks
    const r = await runOrt(encodeOnnx(onnx).bytes, { deltas: f32([1, 12, 1, 1], new Array<number>(12).fill(0)), scores: f32([1, 3, 1, 1], [0.9, 0.8, 0.7]) });
    return { rois: floats(r['rois']!), scores: floats(r['roi_scores']!), num: [...new BigInt64Array(r['roi_num']!.data.slice().buffer)] };
  }

  it('zero deltas give the anchors back; sizes count + 1 unless normalized (IoU 81/119 ≈ 0.68 against 64/98 ≈ 0.65)', async () => {
    const pixels = await run(model(false, 0, 0.66));
    expect(pixels.rois).toEqual([0, 0, 9, 9, 20, 20, 21, 21]); // the second anchor suppressed by the first
    expect(pixels.num).toEqual([2n]);
    const normalized = await run(model(true, 0, 0.66));
    expect(normalized.rois).toEqual([0, 0, 9, 9, 1, 1, 10, 10, 20, 20, 21, 21]);
  });

  it('a box narrower than min_size keeps its rank but is never output', async () => {
    const r = await run(model(false, 3, 0.66)); // the third box is 21 − 20 + 1 = 2 wide
    expect(r.rois).toEqual([0, 0, 9, 9]);
    expect(r.scores).toEqual([Math.fround(0.9)]);
  });

  it('refuses nms_eta other than 1, naming the layer', () => {
    const m = model(false, 0, 0.5);
    [...allNodes(m.graph)].find((n) => n.op === 'GenerateProposals')!.attrs.set('nms_eta', A.float(0.5));
    expect(refusal(m)).toMatch(/main\/gp.*nms_eta/s);
  });
});

describe('ExperimentalDetectronROIFeatureExtractor-6 (each ROI pooled by ROIAlign on the level its size picks)', () => {
  it('level ⌊log2(√area / 224) + 2⌋ clamped to the maps; a ROI of zero area has no level: zeros; the ROIs pass through', async () => {
    const b = new Builder('ov');
    const ins = [b.input('rois', 'f32', [3, 4]), b.input('level0', 'f32', [1, 2, 8, 8]), b.input('level1', 'f32', [1, 2, 64, 64])];
    const node = b.node(b.graph, 'ExperimentalDetectronROIFeatureExtractor', ins, ['features', 'rois_out'], {
      output_size: A.int(2n), sampling_ratio: A.int(2n), pyramid_scales: A.ints([1n, 2n]), aligned: A.bool(false),
    }, { name: 'fe', version: 'opset6' });
    node.outputs.forEach((o) => b.output(o));
    const onnx = convertModel(b.model);
    expect(ops(onnx)).toContain('Gather');
    // √16 / 224 → level 0 (clamped up); √14400 / 224 ≈ 0.54 → ⌊−0.9 + 2⌋ = level 1; zero area → none
    const rois = [1, 1, 5, 5, 0, 0, 120, 120, 3, 3, 3, 9];
    const r = await runOrt(encodeOnnx(onnx).bytes, { rois: f32([3, 4], rois), level0: f32([1, 2, 8, 8], new Array<number>(128).fill(1)), level1: f32([1, 2, 64, 64], new Array<number>(8192).fill(2)) });
    expect(r['features']!.shape).toEqual([3, 2, 2, 2]);
    expect(floats(r['features']!)).toEqual([...new Array<number>(8).fill(1), ...new Array<number>(8).fill(2), ...new Array<number>(8).fill(0)]);
    expect(floats(r['rois_out']!)).toEqual(rois);
  });
});

describe('ExperimentalDetectronDetectionOutput-6 (per-class decoding and NMS, the best rows of the image)', () => {
  function model(maxDet: number, agnostic = false): Model {
    const b = new Builder('ov');
    const rois = [0, 0, 9, 9, 1, 1, 10, 10, 20, 20, 29, 29, 5, 5, 3, 9]; // the last inverted: no boxes
    const ins = [b.init('rois', tensorFromFloat32(rois, [4, 4])), b.input('deltas', 'f32', [4, 8]), b.input('scores', 'f32', [4, 2]), b.init('im_info', tensorFromFloat32([40, 40, 1], [1, 3]))];
    const node = b.node(b.graph, 'ExperimentalDetectronDetectionOutput', ins, ['boxes', 'classes', 'scores_out'], {
      score_threshold: A.float(0.05), nms_threshold: A.float(0.6), max_delta_log_wh: A.float(4), num_classes: A.int(2n), post_nms_count: A.int(10n),
      max_detections_per_image: A.int(BigInt(maxDet)), class_agnostic_box_regression: A.bool(agnostic), deltas_weights: A.floats([1, 1, 1, 1]),
    }, { name: 'do', version: 'opset6' });
    node.outputs.forEach((o) => b.output(o));
    return b.model;
  }
  async function run(maxDet: number): Promise<Record<string, OracleTensor>> {
    const onnx = convertModel(model(maxDet));
    expect(ops(onnx)).toContain('Loop'); // the greedy selection over the ranks
    // class 0 is the background (never output); class 1 scores the inverted ROI best
    return runOrt(encodeOnnx(onnx).bytes, { deltas: f32([4, 8], new Array<number>(32).fill(0)), scores: f32([4, 2], [0.99, 0.9, 0.99, 0.8, 0.99, 0.7, 0.99, 0.95]) });
  }
  const ints = (t: OracleTensor): number[] => [...new Int32Array(t.data.slice().buffer)];

  it('zero deltas give the ROIs back (+1 sizes); IoU 81/119 ≈ 0.68 suppresses; an inverted ROI scores 0; zero rows after the kept', async () => {
    const r = await run(4);
    expect(floats(r['boxes']!)).toEqual([0, 0, 9, 9, 20, 20, 29, 29, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ints(r['classes']!)).toEqual([1, 1, 0, 0]);
    expect(floats(r['scores_out']!)).toEqual([0.9, 0.7, 0, 0].map(Math.fround));
  });

  it('more rows than max_detections_per_image: the best by score', async () => {
    const r = await run(1);
    expect(floats(r['boxes']!)).toEqual([0, 0, 9, 9]);
  });

  it('refuses class_agnostic_box_regression (the plugin ignores it), naming the layer', () => {
    expect(refusal(model(4, true))).toMatch(/main\/do.*class_agnostic_box_regression/s);
  });
});

describe('DeformablePSROIPooling-1 (bilinear_deformable: position-sensitive bins moved by per-part offsets)', () => {
  it('bin (h, w) of output channel d reads channel (d·G + h)·G + w; offsets move the samples (off the map: 0); a batch of −1 ends the ROIs', async () => {
    const b = new Builder('ov');
    const ins = [b.input('x', 'f32', [1, 4, 6, 6]), b.input('rois', 'f32', [4, 5]), b.input('trans', 'f32', [4, 2, 1, 1])];
    b.output(b.node(b.graph, 'DeformablePSROIPooling', ins, ['y'], {
      mode: A.string('bilinear_deformable'), output_dim: A.int(1n), group_size: A.int(2n), spatial_scale: A.float(1), spatial_bins_x: A.int(2n), spatial_bins_y: A.int(2n),
      trans_std: A.float(1), part_size: A.int(1n),
    }, { name: 'dps', version: 'opset1' }).outputs[0]!);
    const onnx = convertModel(b.model);
    expect(ops(onnx)).toContain('Gather');
    const x = seq(4 * 36, (i) => Math.floor(i / 36) + 1); // channel k holds k + 1 everywhere
    const rois = [0, 0, 0, 3, 3, 0, 1, 1, 4, 4, -1, 0, 0, 2, 2, 0, 0, 0, 2, 2];
    const trans = [0, 0, 10, 10, 0, 0, 0, 0]; // the second ROI moved by 10 widths: off the map
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([1, 4, 6, 6], x), rois: f32([4, 5], rois), trans: f32([4, 2, 1, 1], trans) }))['y']!;
    expect(y.shape).toEqual([4, 1, 2, 2]);
    close(floats(y), [1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });
});
