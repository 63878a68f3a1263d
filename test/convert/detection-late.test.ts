import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromInt32, type Model } from '../../src/graph/index.js';
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
