import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromFloat32, tensorFromInt32, tensorFromInt64, type Model } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';
import { expectClose, f32, floats } from '../helpers/tensors.js';

/**
 * The IR ops IR → ONNX read last (session 19): GroupedMatMul-17, Xor-1, … — the ONNX written,
 * onnxruntime's numbers against each op's definition computed here, and the coded refusals. The
 * engines judge the same ops on IRs OpenVINO writes in test/conformance/native-ir-ops.test.ts.
 */
const ops = (m: Model): Set<string> => new Set([...allNodes(m.graph)].map((n) => n.op));
const seq = (n: number, f: (i: number) => number): number[] => Array.from({ length: n }, (_, i) => f(i));

function refusal(m: Model): string {
  try { convertModel(m); } catch (e) { if (e instanceof OvirError) return e.message; throw e; }
  return '';
}

describe('GroupedMatMul-17 (mat_b [G, N, K] holds each group\'s weights transposed)', () => {
  /** out rows start … end − 1 of group g = a[rows] · b[g]ᵀ; rows after the last offset 0. */
  function definition(a: number[], b: number[], T: number, K: number, N: number, offsets: number[]): number[] {
    const y = new Array<number>(T * N).fill(0);
    let start = 0;
    offsets.forEach((end, g) => {
      for (let t = start; t < end; t++) for (let n = 0; n < N; n++) {
        let s = 0;
        for (let k = 0; k < K; k++) s += a[t * K + k]! * b[(g * N + n) * K + k]!;
        y[t * N + n] = s;
      }
      start = end;
    });
    return y;
  }
  const a = (n: number): number[] => seq(n, (i) => ((i * 7) % 11) / 4 - 1.2);
  const w = (n: number): number[] => seq(n, (i) => ((i * 5) % 13) / 6 - 1);

  function grouped(aShape: number[], bShape: number[], offsets: number[] | null, as: 'i32' | 'i64' = 'i64'): Model {
    const b = new Builder('ov');
    const ins = [b.input('a', 'f32', aShape), b.input('b', 'f32', bShape)];
    if (offsets) ins.push(b.init('offsets', as === 'i32' ? tensorFromInt32(offsets, [offsets.length]) : tensorFromInt64(offsets, [offsets.length])));
    b.output(b.node(b.graph, 'GroupedMatMul', ins, ['y'], {}, { name: 'gmm', version: 'opset17' }).outputs[0]!);
    return b.model;
  }

  it('3-D × 3-D: out[g] = a[g] · b[g]ᵀ, one MatMul of a Transpose', async () => {
    const onnx = convertModel(grouped([2, 3, 4], [2, 5, 4], null));
    expect(ops(onnx)).toEqual(new Set(['Transpose', 'MatMul']));
    const y = (await runOrt(encodeOnnx(onnx).bytes, { a: f32([2, 3, 4], a(24)), b: f32([2, 5, 4], w(40)) }))['y']!;
    expect(y.shape).toEqual([2, 3, 5]);
    const want = [0, 1].flatMap((g) => definition(a(24).slice(g * 12, g * 12 + 12), w(40).slice(g * 20, g * 20 + 20), 3, 4, 5, [3]));
    expectClose(floats(y), want);
  });

  it('2-D × 3-D: each group\'s rows by its offsets (an empty group, i32 offsets), rows after the last offset 0', async () => {
    const offsets = [2, 2, 6];
    const onnx = convertModel(grouped([8, 3], [3, 4, 3], offsets, 'i32'));
    expect(ops(onnx)).toContain('Loop');
    const y = (await runOrt(encodeOnnx(onnx).bytes, { a: f32([8, 3], a(24)), b: f32([3, 4, 3], w(36)) }))['y']!;
    expect(y.shape).toEqual([8, 4]);
    const want = definition(a(24), w(36), 8, 3, 4, offsets);
    expect(want.slice(24)).toEqual(new Array<number>(8).fill(0));
    expectClose(floats(y), want);
  });

  it('refuses a 2-D mat_a without offsets, naming the layer', () => {
    expect(refusal(grouped([8, 3], [3, 4, 3], null))).toMatch(/main\/gmm.*offsets/s);
  });
});

describe('Xor-1 (v0::Xor of old IRs: LogicalXor before its rename)', () => {
  it('is ONNX Xor, broadcasting numpy-style', async () => {
    const b = new Builder('ov');
    const [x, y] = [b.input('x', 'boolean', [2, 3]), b.input('y', 'boolean', [3])];
    b.output(b.node(b.graph, 'Xor', [x, y], ['z'], { auto_broadcast: A.string('numpy') }, { name: 'xor', version: 'opset1' }).outputs[0]!);
    const onnx = convertModel(b.model);
    expect([...allNodes(onnx.graph)].map((n) => n.op)).toEqual(['Xor']);
    const bools = (shape: number[], v: number[]): OracleTensor => ({ dtype: 'boolean', shape, data: new Uint8Array(v) });
    const z = (await runOrt(encodeOnnx(onnx).bytes, { x: bools([2, 3], [0, 1, 1, 0, 0, 1]), y: bools([3], [1, 1, 0]) }))['z']!;
    expect([...z.data]).toEqual([1, 0, 1, 1, 1, 1]);
  });
});


describe('DeformableConvolution-1 (-8 without mask, bilinear_interpolation_pad = false)', () => {
  /**
   * OpenVINO's reference (and CPU plugin, measured): a point (y, x) counts only inside [0, H) × [0, W),
   * interpolated between rows ⌊y⌋ and min(⌈y⌉, H − 1) and columns ⌊x⌋ and min(⌈x⌉, W − 1).
   */
  function definition(x: number[], off: number[], w: number[], [C, H, W]: number[], [CO, kh, kw]: number[], [oh, ow]: number[], pad: number): number[] {
    const y: number[] = [];
    for (let co = 0; co < CO; co++) for (let i = 0; i < oh; i++) for (let j = 0; j < ow; j++) {
      let s = 0;
      for (let c = 0; c < C; c++) for (let a = 0; a < kh; a++) for (let b = 0; b < kw; b++) {
        const k = a * kw + b;
        const py = Math.fround(i - pad + a + off[((2 * k) * oh + i) * ow + j]!);
        const px = Math.fround(j - pad + b + off[((2 * k + 1) * oh + i) * ow + j]!);
        if (!(py >= 0 && py < H && px >= 0 && px < W)) continue;
        const [y1, x1] = [Math.floor(py), Math.floor(px)];
        const [y2, x2] = [Math.min(Math.ceil(py), H - 1), Math.min(Math.ceil(px), W - 1)];
        const [dy, dx] = [py - y1, px - x1];
        const v = (r: number, q: number): number => x[(c * H + r) * W + q]!;
        s += ((1 - dx) * (1 - dy) * v(y1, x1) + (1 - dx) * dy * v(y2, x1) + dx * (1 - dy) * v(y1, x2) + dx * dy * v(y2, x2)) * w[((co * C + c) * kh + a) * kw + b]!;
      }
      y.push(s);
    }
    return y;
  }

  /** ONNX DeformConv (onnx's reference): bilinear sampling with zeros beyond the border, times the mask. */
  function onnxDeformConv(x: number[], off: number[], mask: number[], w: number[], [C, H, W]: number[], [CO, kh, kw]: number[], [oh, ow]: number[], pad: number): number[] {
    const y: number[] = [];
    const v = (c: number, r: number, q: number): number => (r >= 0 && r < H && q >= 0 && q < W ? x[(c * H + r) * W + q]! : 0);
    for (let co = 0; co < CO; co++) for (let i = 0; i < oh; i++) for (let j = 0; j < ow; j++) {
      let s = 0;
      for (let c = 0; c < C; c++) for (let a = 0; a < kh; a++) for (let b = 0; b < kw; b++) {
        const k = a * kw + b;
        const py = i - pad + a + off[((2 * k) * oh + i) * ow + j]!;
        const px = j - pad + b + off[((2 * k + 1) * oh + i) * ow + j]!;
        const [y0, x0] = [Math.floor(py), Math.floor(px)];
        const [dy, dx] = [py - y0, px - x0];
        const sample = (1 - dy) * (1 - dx) * v(c, y0, x0) + (1 - dy) * dx * v(c, y0, x0 + 1) + dy * (1 - dx) * v(c, y0 + 1, x0) + dy * dx * v(c, y0 + 1, x0 + 1);
        s += sample * mask[(k * oh + i) * ow + j]! * w[((co * C + c) * kh + a) * kw + b]!;
      }
      y.push(s);
    }
    return y;
  }

  it('clamps points past the last row / column to it and drops points outside the image (a mask)', async () => {
    const [C, H, W, CO, kh, kw, pad] = [2, 4, 5, 2, 2, 2, 1];
    const [oh, ow] = [H + 2 * pad - kh + 1, W + 2 * pad - kw + 1];
    const b = new Builder('ov');
    const weights = seq(CO * C * kh * kw, (i) => Math.fround(((i * 3) % 7) / 3 - 1));
    const ins = [b.input('x', 'f32', [1, C, H, W]), b.input('offset', 'f32', [1, 2 * kh * kw, oh, ow]), b.init('w', tensorFromFloat32(weights, [CO, C, kh, kw]))];
    const ints = (v: number[]) => A.ints(v.map(BigInt));
    b.output(b.node(b.graph, 'DeformableConvolution', ins, ['y'], {
      strides: ints([1, 1]), dilations: ints([1, 1]), pads_begin: ints([pad, pad]), pads_end: ints([pad, pad]), auto_pad: A.string('explicit'),
      group: A.int(1n), deformable_group: A.int(1n),
    }, { name: 'dc', version: 'opset1' }).outputs[0]!);
    const onnx = convertModel(b.model);
    const deform = [...allNodes(onnx.graph)].find((n) => n.op === 'DeformConv')!;
    expect(deform.inputs.length).toBe(5);
    const x = seq(C * H * W, (i) => Math.fround(((i * 7) % 9) / 4 - 1));
    // offsets of up to ±2.6: points before the first row, past the last, and between H − 1 and H
    const off = seq(2 * kh * kw * oh * ow, (i) => Math.fround(((i * 11) % 27) / 5 - 2.6));
    // onnxruntime-node has no DeformConv kernel (the engines judge it in native-ir-ops): the moved
    // offsets and the mask come from onnxruntime, ONNX DeformConv's zero-padded bilinear sampling from here
    onnx.graph.outputs.splice(0, onnx.graph.outputs.length, deform.inputs[2]!, deform.inputs[4]!);
    onnx.graph.nodes = onnx.graph.nodes.filter((n) => n !== deform);
    const r = await runOrt(encodeOnnx(onnx).bytes, { x: f32([1, C, H, W], x), offset: f32([1, 2 * kh * kw, oh, ow], off) });
    const [moved, mask] = [r['#0'], r['#1']];
    const y = onnxDeformConv(x, floats(moved!), floats(mask!), weights, [C, H, W], [CO, kh, kw], [oh, ow], pad);
    expectClose(y, definition(x, off, weights, [C, H, W], [CO, kh, kw], [oh, ow], pad));
  });
});

describe('RGBtoNV12-17 / BGRtoNV12-17 (OpenVINO\'s reference formulas in f32; 2×2 chroma means)', () => {
  it('one u8 2×2 block: Y per pixel, U and V the rounded mean of the four clamped values', async () => {
    const rgb = [255, 0, 0, 0, 255, 0, 0, 0, 255, 200, 100, 50];
    const b = new Builder('ov');
    const x = b.input('x', 'u8', [1, 2, 2, 3]);
    const n = b.node(b.graph, 'RGBtoNV12', [x], ['y', 'uv'], { single_plane: A.bool(false) }, { name: 'nv12', version: 'opset17' });
    n.outputs.forEach((o) => b.output(o));
    const onnx = convertModel(b.model);
    expect(ops(onnx)).toContain('Concat'); // U and V interleaved
    const r = await runOrt(encodeOnnx(onnx).bytes, { x: { dtype: 'u8', shape: [1, 2, 2, 3], data: new Uint8Array(rgb) } });
    const f = Math.fround;
    const clip = (v: number): number => Math.min(Math.max(Math.sign(v) * Math.round(Math.abs(v)), 0), 255);
    const px = [0, 1, 2, 3].map((i) => rgb.slice(i * 3, i * 3 + 3) as [number, number, number]);
    const y = px.map(([R, G, B]) => clip(f(f(f(f(0.257) * R + f(f(0.504) * G)) + f(f(0.098) * B)) + 16)));
    const u = px.map(([R, G, B]) => clip(f(f(f(f(-0.148) * R) - f(f(0.291) * G)) + f(f(0.439) * B)) + 128));
    const v = px.map(([R, G, B]) => clip(f(f(f(f(0.439) * R) - f(f(0.368) * G)) - f(f(0.071) * B)) + 128));
    const mean = (a: number[]): number => Math.round(a.reduce((s, t) => s + t, 0) / 4);
    expect([...r['#0']!.data]).toEqual(y);
    expect(r['#1']!.shape).toEqual([1, 1, 1, 2]);
    expect([...r['#1']!.data]).toEqual([mean(u), mean(v)]);
  });
});
