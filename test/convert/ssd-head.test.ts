import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromFloat32, tensorFromInt64, type Attr, type Model } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';
import { B, shapeOf } from '../shape/build.js';
import { f32, floats } from '../helpers/tensors.js';

/**
 * The SSD head of the Open Model Zoo IR → ONNX: PriorBox-1/8 computed at conversion, as
 * OpenVINO's reference (prior_box.hpp) defines it, DetectionOutput-1/8 as an ONNX subgraph
 * (onnxruntime's rows on hand-made cases), and the coded refusals. The engines judge both
 * ops on IRs OpenVINO writes in test/conformance/native-ir-ops.test.ts (SSD head).
 */
const ops = (m: Model): string[] => [...allNodes(m.graph)].map((n) => n.op);
const round = (v: number[]): number[] => v.map((x) => Math.round(x * 1e6) / 1e6);

function refusal(m: Model): string {
  try { convertModel(m); } catch (e) { if (e instanceof OvirError) return e.message; throw e; }
  return '';
}

describe('PriorBox-1/8: computed at conversion (a Constant) when both sizes are known', () => {
  function priors(attrs: Record<string, Attr>, opts: { runTime?: boolean; version?: string } = {}): Model {
    const b = new Builder('ov');
    const hw = opts.runTime ? b.input('hw', 'i64', [2]) : b.init('hw', tensorFromInt64([1, 2], [2]));
    const n = b.node(b.graph, 'PriorBox', [hw, b.init('img', tensorFromInt64([10, 20], [2]))], ['y'], {
      min_size: A.raw('4'), max_size: A.raw('16'), aspect_ratio: A.raw('4'), flip: A.raw('false'), clip: A.raw('false'), step: A.raw('0'), offset: A.raw('0.5'), variance: A.raw(''), ...attrs,
    }, { name: 'priors', version: opts.version ?? 'opset8' });
    b.output(n.outputs[0]!);
    return b.model;
  }
  // 1×2 cells over a 10×20 image: steps 10 and 10, centres (5, 5) and (15, 5); per cell the min box
  // 4×4, the box √(4·16) = 8 and the ratio-4 box 8×2 (min·√4 by min/√4), each over (20, 10)
  const square = [[0.15, 0.3, 0.35, 0.7], [0.65, 0.3, 0.85, 0.7]];
  const max = [[0.05, 0.1, 0.45, 0.9], [0.55, 0.1, 0.95, 0.9]];
  const ratio = [[0.05, 0.4, 0.45, 0.6], [0.55, 0.4, 0.95, 0.6]];

  it('min, max, then aspect-ratio boxes per cell (min_max_aspect_ratios_order, PriorBox-1 always), then the variances (0.1 when none)', async () => {
    for (const model of [priors({}), priors({}, { version: 'opset1' }), priors({ min_max_aspect_ratios_order: A.raw('true') })]) {
      const onnx = convertModel(model);
      expect(ops(onnx).filter((o) => o !== 'Identity')).toEqual([]);
      const y = (await runOrt(encodeOnnx(onnx).bytes, {}))['y']!;
      expect(y.shape).toEqual([2, 24]);
      expect(round(floats(y))).toEqual([...square[0]!, ...max[0]!, ...ratio[0]!, ...square[1]!, ...max[1]!, ...ratio[1]!, ...Array<number>(24).fill(0.1)]);
    }
  });

  it('aspect-ratio boxes before the max box when min_max_aspect_ratios_order is false (PriorBox-8)', async () => {
    const onnx = convertModel(priors({ min_max_aspect_ratios_order: A.raw('false'), variance: A.raw('0.1,0.2,0.3,0.4') }));
    const y = floats((await runOrt(encodeOnnx(onnx).bytes, {}))['y']!);
    expect(round(y.slice(0, 24))).toEqual([...square[0]!, ...ratio[0]!, ...max[0]!, ...square[1]!, ...ratio[1]!, ...max[1]!]);
    expect(round(y.slice(24, 28))).toEqual([0.1, 0.2, 0.3, 0.4]);
  });

  it('a feature map size known only at run time is refused (CONVERT_NEEDS_CONSTANT), naming the layer', () => {
    expect(refusal(priors({}, { runTime: true }))).toMatch(/main\/priors.*CONVERT_NEEDS_CONSTANT|CONVERT_NEEDS_CONSTANT.*main\/priors/s);
  });

  it('attributes whose boxes OpenVINO\'s output cannot hold are refused (CONVERT_UNSUPPORTED_ATTR), naming layer and attribute', () => {
    // fixed_ratio without as many aspect ratios: the reference writes 8 boxes per cell into room for 7
    expect(refusal(priors({ min_size: A.raw(''), max_size: A.raw(''), aspect_ratio: A.raw(''), fixed_size: A.raw('12'), fixed_ratio: A.raw('0.5,2'), density: A.raw('2') })))
      .toMatch(/main\/priors.*'density'.*8 priors per cell.*7.*CONVERT_UNSUPPORTED_ATTR/s);
    expect(refusal(priors({ variance: A.raw('0.1,0.2') }))).toMatch(/main\/priors.*'variance'.*CONVERT_UNSUPPORTED_ATTR/s);
  });
});

describe('DetectionOutput-1/8: an ONNX subgraph of decoding, NonMaxSuppression per image and class, keep_top_k and padded rows', () => {
  function detection(attrs: Record<string, Attr>, opts: { dynamic?: boolean; version?: string } = {}): Model {
    const b = new Builder('ov');
    const loc = b.input('loc', 'f32', [1, opts.dynamic ? null : 8]);
    const conf = b.input('conf', 'f32', [1, 4]);
    // two priors [xmin, ymin, xmax, ymax] (IoU 0.16 / 0.34 ≈ 0.47), variance encoded in the target
    const priors = b.init('priors', tensorFromFloat32([0, 0, 0.5, 0.5, 0.1, 0.1, 0.6, 0.6], [1, 1, 8]));
    const n = b.node(b.graph, 'DetectionOutput', [loc, conf, priors], ['y'], {
      background_label_id: A.raw('0'), top_k: A.raw('-1'), variance_encoded_in_target: A.raw('true'), keep_top_k: A.raw('3'), code_type: A.raw('caffe.PriorBoxParameter.CORNER'),
      share_location: A.raw('true'), nms_threshold: A.raw('0.45'), confidence_threshold: A.raw('0.1'), clip_after_nms: A.raw('false'), clip_before_nms: A.raw('false'),
      decrease_label_id: A.raw('false'), normalized: A.raw('true'), input_height: A.raw('1'), input_width: A.raw('1'), objectness_score: A.raw('0'), ...attrs,
    }, { name: 'det', version: opts.version ?? 'opset8' });
    b.output(n.outputs[0]!);
    return b.model;
  }
  const run = async (m: Model, conf: number[]): Promise<number[]> => {
    const onnx = convertModel(m);
    const y = (await runOrt(encodeOnnx(onnx).bytes, { loc: { dtype: 'f32', shape: [1, 8], data: new Uint8Array(32) }, conf: f32([1, 4], conf) }))['y']!;
    expect(y.shape).toEqual([1, 1, 3, 7]);
    return round(floats(y));
  };

  it('writes ONNX ops only (NonMaxSuppression, TopK, …), opset 11 or later', () => {
    const onnx = convertModel(detection({}));
    const emitted = ops(onnx);
    expect(emitted).toContain('NonMaxSuppression');
    expect(emitted).toContain('TopK');
    expect(emitted).not.toContain('DetectionOutput');
    expect(onnx.onnx!.opsetImports.get('')! >= 11).toBe(true);
  });

  it('the weaker overlapping box is suppressed; after the last detection a row [−1, 0, …] and zeros', async () => {
    // classes [background, 1] per prior: prior 0 scores 0.9, prior 1 0.8 for class 1
    expect(await run(detection({}), [0.1, 0.9, 0.2, 0.8])).toEqual([0, 1, 0.9, 0, 0, 0.5, 0.5, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    // above nms_threshold 0.5 both stay, by descending score; the better one is listed first
    expect(await run(detection({ nms_threshold: A.raw('0.5') }), [0.1, 0.8, 0.2, 0.9])).toEqual([0, 1, 0.9, 0.1, 0.1, 0.6, 0.6, 0, 1, 0.8, 0, 0, 0.5, 0.5, -1, 0, 0, 0, 0, 0, 0]);
    // background -1: class 0 is a class too, listed first
    expect(await run(detection({ background_label_id: A.raw('-1'), nms_threshold: A.raw('0.5') }), [0.7, 0.05, 0.05, 0.9]))
      .toEqual([0, 0, 0.7, 0, 0, 0.5, 0.5, 0, 1, 0.9, 0.1, 0.1, 0.6, 0.6, -1, 0, 0, 0, 0, 0, 0]);
  });

  it('code_type CORNER_SIZE (which OpenVINO\'s CPU plugin does not decode) is refused, naming layer, attribute and value', () => {
    expect(refusal(detection({ code_type: A.raw('caffe.PriorBoxParameter.CORNER_SIZE') }))).toMatch(/main\/det.*'code_type' = caffe\.PriorBoxParameter\.CORNER_SIZE.*CONVERT_UNSUPPORTED_ATTR/s);
  });

  it('decrease_label_id with a background other than 0 is refused (the CPU plugin refuses it)', () => {
    expect(refusal(detection({ decrease_label_id: A.raw('true'), background_label_id: A.raw('1') }))).toMatch(/main\/det.*'background_label_id' = 1.*CONVERT_UNSUPPORTED_ATTR/s);
  });

  it('inputs of dynamic shape (but for the images) are refused, naming the layer', () => {
    expect(refusal(detection({}, { dynamic: true }))).toMatch(/main\/det.*input 0 needs a static shape \(but for the images\)/s);
  });
});

describe('shape rules (as openvino 2026.4\'s validate_and_infer_types gives them)', () => {
  it('PriorBox-8: [2, 4·H·W·priors] of f32, priors from the distinct aspect ratios, min and max sizes', () => {
    const b = new B('ov', 'opset8');
    const n = b.node('PriorBox', [b.i64([19, 19]), b.i64([300, 300])], { min_size: A.raw('60'), max_size: A.raw('111'), aspect_ratio: A.raw('2'), flip: A.raw('true'), offset: A.raw('0.5') });
    expect(shapeOf(b.infer(), n.outputs[0]!)).toEqual([2, 5776]);
  });

  it('DetectionOutput-1/8: [1, 1, images × keep_top_k | images × top_k × classes | images × classes × priors, 7]', () => {
    const rows = (images: number | null, attrs: Record<string, Attr>, version = 'opset8') => {
      const b = new B('ov', version);
      const n = b.node('DetectionOutput', [b.input('loc', 'f32', [images, 160]), b.input('conf', 'f32', [images, 160]), b.input('priors', 'f32', [1, 2, 160])],
        { nms_threshold: A.raw('0.45'), normalized: A.raw('true'), top_k: A.raw('20'), keep_top_k: A.raw('15'), ...attrs });
      return shapeOf(b.infer(), n.outputs[0]!);
    };
    expect(rows(2, {})).toEqual([1, 1, 30, 7]);
    expect(rows(2, { keep_top_k: A.raw('-1') })).toEqual([1, 1, 160, 7]);
    expect(rows(2, { keep_top_k: A.raw('-1'), top_k: A.raw('-1') })).toEqual([1, 1, 320, 7]);
    expect(rows(null, {})).toEqual([1, 1, null, 7]);
    expect(rows(2, { keep_top_k: A.raw('-1'), num_classes: A.raw('4') }, 'opset1')).toEqual([1, 1, 160, 7]);
  });
});
