import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromFloat32, tensorFromInt64, type Attr, type Model, type Value } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { promotedType } from '../../src/shape/rules/ov/frontend-ops.js';
import { Builder } from './builder.js';
import { f32, floats } from '../helpers/tensors.js';

/**
 * IR-only ops of OpenVINO's other frontends and of NNCF / the Open Model Zoo that ovir writes as
 * ONNX ops or subgraphs: the ONNX emitted, onnxruntime's numbers against the OpenVINO spec's
 * definition computed here, and the coded refusals. The engines judge the same ops on IRs
 * OpenVINO writes in test/conformance/native-ir-ops.test.ts.
 */
const ops = (m: Model): string[] => [...allNodes(m.graph)].map((n) => n.op);

function refusal(m: Model): string {
  try { convertModel(m); } catch (e) { if (e instanceof OvirError) return e.message; throw e; }
  return '';
}

describe('FakeConvert-13: (Convert(x·scale − shift → f16 → f8) + shift) / scale', () => {
  function fakeConvert(dest: string, shift: boolean, attrs: Record<string, Attr> = {}): { model: Model; x: Value } {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [6]);
    const ins = [x, b.init('scale', tensorFromFloat32([2], []))];
    if (shift) ins.push(b.init('shift', tensorFromFloat32([0.5], [])));
    b.output(b.node(b.graph, 'FakeConvert', ins, ['y'], { destination_type: A.raw(dest), ...attrs }, { name: 'fc', version: 'opset13' }).outputs[0]!);
    return { model: b.model, x };
  }

  it('is Mul, Sub, Casts through f16 and a saturating float8 Cast, Add, Div at ONNX opset 19', () => {
    const onnx = convertModel(fakeConvert('f8e4m3', true).model);
    expect(onnx.onnx?.opsetImports.get('')).toBe(19);
    expect(ops(onnx)).toEqual(['Mul', 'Sub', 'Cast', 'Cast', 'Cast', 'Cast', 'Add', 'Div']);
    const f8 = [...allNodes(onnx.graph)][3]!;
    expect(f8.attrs.get('to')).toEqual(A.int(17)); // FLOAT8E4M3FN
    expect(f8.attrs.get('saturate')).toEqual(A.int(1));
  });

  it.each([
    // x·2 − 0.5 rounded to f8e4m3 (3 mantissa bits, nearest even, largest finite 448), + 0.5, / 2
    ['f8e4m3', true, [0.78125, 1.28125, 300, -1000, 0.25, 0], [0.75, 1.25, 224.25, -223.75, 0.25, 0]],
    // x·2 rounded to f8e5m2 (2 mantissa bits, largest finite 57344), / 2
    ['f8e5m2', false, [0.5625, 0.625, 1.75, 40000, -0.3, 1e-5], [0.5, 0.625, 1.75, 28672, -0.3125, 7.62939453125e-6]],
  ] as const)('%s (shift %s): onnxruntime computes the spec\'s numbers', async (dest, shift, x, want) => {
    const onnx = convertModel(fakeConvert(dest, shift).model);
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([6], [...x]) }))['y']!;
    expect(floats(y)).toEqual(want);
  });

  it('refuses another destination_type, naming the layer and the attribute', () => {
    expect(refusal(fakeConvert('f4e2m1', false).model)).toMatch(/CONVERT_UNSUPPORTED_ATTR.*main\/fc.*destination_type.*f4e2m1|main\/fc.*destination_type.*f4e2m1/s);
  });
});

describe('ConvertPromoteTypes-14: both inputs Cast to OpenVINO\'s common type', () => {
  const base = { unsafe: false, pytorchScalar: false, u64Target: 'f32' as const };
  it.each([
    ['f32', 'i16', false, false, {}, 'f32'], // float with an integer of at most half its bits
    ['f32', 'i32', false, false, {}, 'integer input i32 cannot be safely promoted'],
    ['i32', 'f16', false, false, { unsafe: true }, 'f16'],
    ['boolean', 'u8', false, false, {}, 'u8'],
    ['u8', 'i32', false, false, {}, 'i32'],
    ['u8', 'i8', false, false, {}, 'unsigned u8 cannot be safely promoted'],
    ['u16', 'i8', false, false, { unsafe: true }, 'i32'], // twice the unsigned bits
    ['u64', 'i32', false, false, { unsafe: true, u64Target: 'i64' }, 'i64'],
    ['i8', 'i64', false, false, {}, 'i64'],
    ['i32', 'i64', false, true, { pytorchScalar: true }, 'scalar input i64 cannot be aligned'],
    ['i32', 'i64', false, true, { pytorchScalar: true, unsafe: true }, 'i32'], // the tensor's type
    ['f16', 'bf16', false, false, { unsafe: true }, 'f32'],
    ['f8e4m3', 'f8e5m2', false, false, { unsafe: true }, 'f16'],
    ['f16', 'bf16', false, false, {}, 'no common type'],
  ] as const)('%s with %s (scalars %s/%s, %o) → %s', (a, b, sa, sb, o, want) => {
    const got = promotedType(a, b, sa, sb, { ...base, ...o });
    if ('elem' in got) expect(got.elem).toBe(want);
    else expect(got.why).toContain(want);
  });

  function promote(a: 'u8' | 'f32', b: 'i32' | 'i16', attrs: Record<string, Attr> = {}): Model {
    const bld = new Builder('ov');
    const n = bld.node(bld.graph, 'ConvertPromoteTypes', [bld.input('a', a, [2]), bld.input('b', b, [2])], ['ya', 'yb'], attrs, { name: 'cpt', version: 'opset14' });
    for (const o of n.outputs) bld.output(o);
    return bld.model;
  }

  it('u8 with i32 is i32: a Cast of the u8 input, the i32 one passed through; onnxruntime computes it', async () => {
    const onnx = convertModel(promote('u8', 'i32'));
    expect(ops(onnx)).toEqual(['Cast', 'Identity']); // the i32 graph input is also a graph output: an Identity between
    const [ya, yb] = onnx.graph.outputs;
    expect([ya!.type, yb!.type].map((t) => (t?.kind === 'tensor' ? t.elem : null))).toEqual(['i32', 'i32']);
    const res = await runOrt(encodeOnnx(onnx).bytes, {
      a: { dtype: 'u8', shape: [2], data: new Uint8Array([200, 7]) },
      b: { dtype: 'i32', shape: [2], data: new Uint8Array(new Int32Array([-5, 9]).buffer) },
    });
    expect([...new Int32Array(res['ya']!.data.slice().buffer)]).toEqual([200, 7]);
  });

  it('refuses a promotion the safe rules forbid, naming the layer', () => {
    expect(refusal(promote('f32', 'i32'))).toMatch(/main\/cpt.*integer input i32 cannot be safely promoted to f32/s);
  });
});

describe('ReorgYolo-2: OpenVINO\'s reorg (the data read as [N, C/s², H·s, W·s])', () => {
  /** reorg_yolo.cpp's loops. */
  function reorg(x: number[], [n, ch, h, w]: number[], s: number): number[] {
    const oc = ch! / (s * s);
    const y = new Array<number>(x.length);
    for (let b = 0; b < n!; b++) for (let c = 0; c < ch!; c++) for (let i = 0; i < h!; i++) for (let j = 0; j < w!; j++) {
      const off = Math.floor(c / oc);
      const src = ((b * oc + (c % oc)) * h! * s + i * s + Math.floor(off / s)) * w! * s + j * s + (off % s);
      y[((b * ch! + c) * h! + i) * w! + j] = x[src]!;
    }
    return y;
  }

  it.each([[[1, 8, 4, 6], 2], [[2, 9, 3, 6], 3]] as const)('%o, stride %i: Reshape, Transpose, Reshape; onnxruntime moves the elements as OpenVINO does', async (shape, s) => {
    const b = new Builder('ov');
    b.output(b.op(b.graph, 'ReorgYolo', [b.input('x', 'f32', [...shape])], 'y', { stride: A.raw(String(s)) }, { version: 'opset2' }));
    const onnx = convertModel(b.model);
    expect(ops(onnx)).toEqual(['Reshape', 'Transpose', 'Reshape']);
    const x = Array.from({ length: shape.reduce((a: number, d: number) => a * d, 1) }, (_, i) => i);
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([...shape], x) }))['y']!;
    expect(y.shape).toEqual([shape[0], shape[1] * s * s, shape[2] / s, shape[3] / s]);
    expect(floats(y)).toEqual(reorg(x, [...shape], s));
  });

  it('refuses data whose C is no multiple of s², naming the layer', () => {
    const b = new Builder('ov');
    b.output(b.node(b.graph, 'ReorgYolo', [b.input('x', 'f32', [1, 6, 4, 4])], ['y'], { stride: A.raw('2') }, { name: 'reorg', version: 'opset2' }).outputs[0]!);
    expect(refusal(b.model)).toMatch(/main\/reorg.*not divisible by stride 2/s);
  });
});

describe('RegionYolo-0 (Sigmoid of x, y, objectness; class scores by Softmax for YOLOv2, Sigmoid for YOLOv3)', () => {
  const sig = (v: number): number => 1 / (1 + Math.exp(-v));
  /** region_yolo.hpp for one batch: `regions` groups of K = coords + 1 + classes planes of `area`. */
  function region(x: number[], regions: number, coords: number, classes: number, area: number, softmax: boolean): number[] {
    const K = coords + 1 + classes;
    const y = x.slice(0, regions * K * area);
    for (let r = 0; r < regions; r++) {
      const at = (k: number, p: number): number => (r * K + k) * area + p;
      for (let p = 0; p < area; p++) {
        for (const k of [0, 1, coords]) y[at(k, p)] = sig(x[at(k, p)]!);
        const cls = Array.from({ length: classes }, (_, j) => x[at(coords + 1 + j, p)]!);
        const m = Math.max(...cls);
        const e = cls.map((v) => Math.exp(v - m));
        const sum = e.reduce((a, b) => a + b, 0);
        cls.forEach((v, j) => { y[at(coords + 1 + j, p)] = softmax ? e[j]! / sum : sig(v); });
      }
    }
    return y;
  }

  it.each([
    ['YOLOv2 (do_softmax, flattened)', true, 2, [1, 2 * 7, 2, 3], [1, 84], []],
    ['YOLOv3 (mask of 2, input has 3 regions)', false, 3, [1, 3 * 7, 2, 3], [1, 14, 2, 3], [0, 2]],
  ] as const)('%s: onnxruntime computes the reference', async (_, softmax, num, shape, outShape, mask) => {
    const b = new Builder('ov');
    b.output(b.op(b.graph, 'RegionYolo', [b.input('x', 'f32', [...shape])], 'y', {
      coords: A.raw('4'), classes: A.raw('2'), num: A.raw(String(num)), do_softmax: A.raw(String(softmax)), mask: A.raw(mask.join(',')),
      axis: A.raw('1'), end_axis: A.raw('3'), anchors: A.raw(''),
    }, { version: 'opset1' }));
    const onnx = convertModel(b.model);
    const x = Array.from({ length: shape.reduce((a: number, d: number) => a * d, 1) }, (_, i) => Math.sin(i * 1.7) * 3);
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([...shape], x) }))['y']!;
    expect(y.shape).toEqual([...outShape]);
    const want = region(x, softmax ? num : mask.length, 4, 2, 6, softmax);
    floats(y).forEach((v, i) => expect(Math.abs(v - want[i]!)).toBeLessThanOrEqual(1e-6 + 1e-5 * Math.abs(want[i]!)));
  });

  it('refuses YOLOv3 without a mask, naming the layer and the attribute', () => {
    const b = new Builder('ov');
    b.output(b.node(b.graph, 'RegionYolo', [b.input('x', 'f32', [1, 14, 2, 2])], ['y'], {
      coords: A.raw('4'), classes: A.raw('2'), num: A.raw('2'), do_softmax: A.raw('false'), mask: A.raw(''),
    }, { name: 'yolo', version: 'opset1' }).outputs[0]!);
    expect(refusal(b.model)).toMatch(/main\/yolo.*mask/s);
  });
});

describe('ExtractImagePatches-3 (Pad, Gather of rows and columns, Transpose, Reshape)', () => {
  it.each([
    ['valid', [1, 2, 5, 4], [2, 2], [2, 1], [1, 1], [1, 8, 2, 3]],
    ['same_upper', [1, 1, 5, 5], [2, 3], [2, 2], [1, 1], [1, 6, 3, 3]],
    ['same_lower', [1, 1, 5, 5], [2, 3], [2, 2], [1, 1], [1, 6, 3, 3]],
    ['same_upper', [2, 1, 7, 6], [2, 2], [3, 2], [2, 3], [2, 4, 3, 3]],
  ] as const)('%s, data %o, sizes %o, strides %o, rates %o: onnxruntime computes the reference', async (pad, shape, sizes, strides, rates, outShape) => {
    const b = new Builder('ov');
    b.output(b.op(b.graph, 'ExtractImagePatches', [b.input('x', 'f32', [...shape])], 'y', {
      sizes: A.raw(sizes.join(',')), strides: A.raw(strides.join(',')), rates: A.raw(rates.join(',')), auto_pad: A.raw(pad),
    }, { version: 'opset3' }));
    const onnx = convertModel(b.model);
    expect(ops(onnx).filter((o) => o !== 'Pad')).toEqual(['Gather', 'Gather', 'Transpose', 'Reshape']);
    const [N, C, H, W] = shape;
    const x = Array.from({ length: N * C * H * W }, (_, i) => i + 1);
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([...shape], x) }))['y']!;
    expect(y.shape).toEqual([...outShape]);
    // extract_image_patches.hpp, with its pads
    const [OH, OW] = [outShape[2], outShape[3]];
    const span = (i: 0 | 1): number => sizes[i] + (rates[i] - 1) * (sizes[i] - 1);
    const begin = (i: 0 | 1, size: number): number => {
      if (pad === 'valid') return 0;
      const p = (Math.ceil(size / strides[i]) - 1) * strides[i] + span(i) - size;
      if (!(p > 0 && p < span(i))) return 0;
      return p % 2 === 0 ? p / 2 : pad === 'same_lower' ? (p + 1) / 2 : (p - 1) / 2;
    };
    const [PT, PL] = [begin(0, H), begin(1, W)];
    const want: number[] = new Array<number>(N * C * sizes[0] * sizes[1] * OH * OW);
    for (let n = 0; n < N; n++) for (let oh = 0; oh < OH; oh++) for (let ow = 0; ow < OW; ow++) {
      let oc = 0;
      for (let kh = 0; kh < sizes[0]; kh++) for (let kw = 0; kw < sizes[1]; kw++) for (let c = 0; c < C; c++, oc++) {
        const ih = oh * strides[0] - PT + kh * rates[0];
        const iw = ow * strides[1] - PL + kw * rates[1];
        want[((n * C * sizes[0] * sizes[1] + oc) * OH + oh) * OW + ow] = ih < 0 || ih >= H || iw < 0 || iw >= W ? 0 : x[((n * C + c) * H + ih) * W + iw]!;
      }
    }
    expect(floats(y)).toEqual(want);
  });

  it('refuses an auto_pad it does not know, naming the layer', () => {
    const b = new Builder('ov');
    b.output(b.node(b.graph, 'ExtractImagePatches', [b.input('x', 'f32', [1, 1, 4, 4])], ['y'], {
      sizes: A.raw('2,2'), strides: A.raw('1,1'), rates: A.raw('1,1'), auto_pad: A.raw('explicit'),
    }, { name: 'patches', version: 'opset3' }).outputs[0]!);
    expect(refusal(b.model)).toMatch(/main\/patches.*auto_pad.*explicit/s);
  });
});

describe('CTCGreedyDecoderSeqLen-6 / CTCGreedyDecoder-1 (ArgMax, kept steps packed left by ScatterElements)', () => {
  // classes per step by one-hot data: batch 0 = 1 1 0 2 2 3 1 (blank 3), length 6; batch 1 = 2 3 2 2 0 0 0, length 7
  const steps = [[1, 1, 0, 2, 2, 3, 1], [2, 3, 2, 2, 0, 0, 0]];
  const data = steps.flatMap((row) => row.flatMap((k) => [0, 1, 2, 3].map((j) => (j === k ? 1 : 0))));

  it.each([
    [true, [[1, 0, 2, -1, -1, -1, -1], [2, 2, 0, -1, -1, -1, -1]], [3, 3]],
    [false, [[1, 1, 0, 2, 2, -1, -1], [2, 2, 2, 0, 0, 0, -1]], [5, 6]],
  ] as const)('merge_repeated %s: the classes and lengths of OpenVINO\'s reference', async (merge, classes, lengths) => {
    const b = new Builder('ov');
    const n = b.node(b.graph, 'CTCGreedyDecoderSeqLen', [b.input('x', 'f32', [2, 7, 4]), b.input('len', 'i32', [2])], ['y', 'n'], {
      merge_repeated: A.raw(String(merge)), classes_index_type: A.raw('i32'), sequence_length_type: A.raw('i32'),
    }, { version: 'opset6' });
    for (const o of n.outputs) b.output(o);
    const onnx = convertModel(b.model);
    const res = await runOrt(encodeOnnx(onnx).bytes, { x: f32([2, 7, 4], data), len: { dtype: 'i32', shape: [2], data: new Uint8Array(new Int32Array([6, 7]).buffer) } });
    const i32 = (t: OracleTensor): number[] => [...new Int32Array(t.data.slice().buffer)];
    expect(i32(res['y']!)).toEqual(classes.flat());
    expect(i32(res['n']!)).toEqual([...lengths]);
  });

  it('CTCGreedyDecoder-1: a sequence ends at its first zero mask; output [N, T, 1, 1] of the data\'s type', async () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [7, 2, 4]);
    const mask = b.init('mask', tensorFromFloat32([1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1], [7, 2]));
    b.output(b.op(b.graph, 'CTCGreedyDecoder', [x, mask], 'y', { ctc_merge_repeated: A.raw('true') }, { version: 'opset1' }));
    const onnx = convertModel(b.model);
    // data [T, N, C]: step t of batch n at (t·2 + n)
    const tnc = Array.from({ length: 7 }, (_, t) => [0, 1].flatMap((bi) => data.slice((bi * 7 + t) * 4, (bi * 7 + t) * 4 + 4))).flat();
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([7, 2, 4], tnc) }))['y']!;
    expect(y.shape).toEqual([2, 7, 1, 1]);
    // batch 0 ends before step 3 (mask[3][0] = 0): 1 1 0 → 1 0; batch 1: 2 3 2 2 0 0 0 → 2 2 0 (3 is the blank)
    expect(floats(y)).toEqual([1, 0, -1, -1, -1, -1, -1, 2, 2, 0, -1, -1, -1, -1]);
  });
});

describe('ROIPooling-2 (method max) ⇄ MaxRoiPool-1', () => {
  function roiPooling(attrs: Record<string, Attr>): Model {
    const b = new Builder('ov');
    const rois = b.init('rois', tensorFromFloat32([0, 0, 0, 3, 3, 0, 1, 2, 2, 3], [2, 5]));
    b.output(b.node(b.graph, 'ROIPooling', [b.input('x', 'f32', [1, 1, 4, 4]), rois], ['y'], { spatial_scale: A.raw('1'), method: A.raw('max'), ...attrs }, { name: 'pool', version: 'opset2' }).outputs[0]!);
    return b.model;
  }

  it('an older IR\'s pooled_h / pooled_w is pooled_shape; onnxruntime computes the bins\' maxima', async () => {
    const onnx = convertModel(roiPooling({ pooled_h: A.raw('2'), pooled_w: A.raw('2') }));
    const [n] = [...allNodes(onnx.graph)];
    expect(n!.op).toBe('MaxRoiPool');
    expect(n!.attrs.get('pooled_shape')).toEqual(A.ints([2, 2]));
    const x = Array.from({ length: 16 }, (_, i) => (i * 7) % 16);
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([1, 1, 4, 4], x) }))['y']!;
    // ROI 0: the whole map in 2×2 bins; ROI 1 (x 1..2, y 2..3): one element per bin
    const at = (h: number, w: number): number => x[h * 4 + w]!;
    const max = (hs: number[], ws: number[]): number => Math.max(...hs.flatMap((h) => ws.map((w) => at(h, w))));
    expect(floats(y)).toEqual([
      max([0, 1], [0, 1]), max([0, 1], [2, 3]), max([2, 3], [0, 1]), max([2, 3], [2, 3]),
      at(2, 1), at(2, 2), at(3, 1), at(3, 2),
    ]);
  });

  it('sizes spelled twice must agree; bilinear is refused, naming the layer and the attribute', () => {
    expect(refusal(roiPooling({ output_roi: A.raw('2,2'), pooled_h: A.raw('3'), pooled_w: A.raw('2') }))).toMatch(/main\/pool.*pooled_h\/pooled_w/s);
    expect(refusal(roiPooling({ output_roi: A.raw('2,2'), method: A.raw('bilinear') }))).toMatch(/main\/pool.*method.*bilinear/s);
  });

  it('ONNX → IR writes every spelling of the pooled size OpenVINO\'s serializer writes', () => {
    const b = new Builder('onnx', 17);
    const n = b.node(b.graph, 'MaxRoiPool', [b.input('x', 'f32', [1, 2, 6, 6]), b.input('rois', 'f32', [3, 5])], ['y'], { pooled_shape: A.ints([3, 2]), spatial_scale: A.float(0.5) });
    b.output(n.outputs[0]!);
    const ir = convertModel(b.model);
    const [p] = [...allNodes(ir.graph)];
    expect(p!.op).toBe('ROIPooling');
    expect(['output_roi', 'output_size', 'pooled_h', 'pooled_w', 'spatial_scale', 'method'].map((k) => p!.attrs.get(k)?.value)).toEqual(['3,2', '3,2', '3', '2', '0.5', 'max']);
  });
});

describe('NV12toRGB / NV12toBGR / I420toRGB / I420toBGR-8 (OpenVINO\'s formulas per channel, Concat; clamped, integers rounded half away from zero)', () => {
  /** convert_color_nv12.hpp's pixel: R, G, B of one Y, U, V. */
  function pixel(y: number, u: number, v: number): number[] {
    const [c, d, e] = [Math.fround(y - 16), Math.fround(u - 128), Math.fround(v - 128)];
    const f = Math.fround;
    const round = (a: number): number => Math.min(Math.max(Math.sign(a) * Math.round(Math.abs(a)), 0), 255);
    return [
      round(f(f(f(1.164) * c) + f(f(1.596) * e))),
      round(f(f(f(f(1.164) * c) - f(f(0.391) * d)) - f(f(0.813) * e))),
      round(f(f(f(1.164) * c) + f(f(2.018) * d))),
    ];
  }

  it.each([['I420toRGB', false], ['I420toBGR', true]] as const)('%s from one u8 plane: onnxruntime computes every pixel as the reference', async (op, bgr) => {
    const [H, W] = [4, 6];
    const plane = Array.from({ length: (H * W * 3) / 2 }, (_, i) => (i * 37 + 11) % 256);
    const b = new Builder('ov');
    b.output(b.op(b.graph, op, [b.input('x', 'u8', [1, (H * 3) / 2, W, 1])], 'y', {}, { version: 'opset8' }));
    const onnx = convertModel(b.model);
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: { dtype: 'u8', shape: [1, (H * 3) / 2, W, 1], data: new Uint8Array(plane) } }))['y']!;
    expect(y.shape).toEqual([1, H, W, 3]);
    const want: number[] = [];
    for (let h = 0; h < H; h++) for (let w = 0; w < W; w++) {
      const k = Math.floor(h / 2) * (W / 2) + Math.floor(w / 2);
      const rgb = pixel(plane[h * W + w]!, plane[H * W + k]!, plane[(H * W * 5) / 4 + k]!);
      want.push(...(bgr ? rgb.reverse() : rgb));
    }
    expect([...y.data]).toEqual(want);
  });

  it('refuses an odd image, naming the layer', () => {
    const b = new Builder('ov');
    b.output(b.node(b.graph, 'NV12toRGB', [b.input('y', 'u8', [1, 3, 4, 1]), b.input('uv', 'u8', [1, 1, 2, 2])], ['rgb'], {}, { name: 'nv12', version: 'opset8' }).outputs[0]!);
    expect(refusal(b.model)).toMatch(/main\/nv12.*must be even/s);
  });
});

describe('PriorBoxClustered-1: computed at conversion (a Constant) when both sizes are known', () => {
  function priors(runTime: boolean): Model {
    const b = new Builder('ov');
    const hw = runTime ? b.input('hw', 'i64', [2]) : b.init('hw', tensorFromInt64([1, 2], [2]));
    const n = b.node(b.graph, 'PriorBoxClustered', [hw, b.init('img', tensorFromInt64([10, 20], [2]))], ['y'], {
      width: A.raw('4'), height: A.raw('2'), clip: A.raw('false'), step_w: A.raw('0'), step_h: A.raw('0'), step: A.raw('0'), offset: A.raw('0.5'), variance: A.raw('0.1'),
    }, { name: 'priors', version: 'opset1' });
    b.output(n.outputs[0]!);
    return b.model;
  }

  it('the boxes around each cell centre over the image size, then the variances', async () => {
    const onnx = convertModel(priors(false));
    expect(ops(onnx).filter((o) => o !== 'Identity')).toEqual([]);
    const y = (await runOrt(encodeOnnx(onnx).bytes, {}))['y']!;
    // 1×2 cells over a 10×20 image: steps 10 (w: 20/2) and 10 (h: 10/1); centres (5, 5) and (15, 5); box 4×2
    expect(floats(y).map((v) => Math.round(v * 1e6) / 1e6)).toEqual([
      0.15, 0.4, 0.35, 0.6, 0.65, 0.4, 0.85, 0.6,
      0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1,
    ]);
  });

  it('a feature map size known only at run time is refused (CONVERT_NEEDS_CONSTANT), naming the layer', () => {
    expect(refusal(priors(true))).toMatch(/main\/priors.*CONVERT_NEEDS_CONSTANT|CONVERT_NEEDS_CONSTANT.*main\/priors/s);
  });
});
