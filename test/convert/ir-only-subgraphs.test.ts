import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromFloat32, tensorFromInt32, tensorFromInt64, type Attr, type Model, type Value } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';

/**
 * IR-only ops that ovir writes as longer ONNX subgraphs (a summed-area table, Loops, …): the ONNX
 * emitted, onnxruntime's numbers against the op's definition computed here as OpenVINO's CPU
 * plugin computes it, and the coded refusals. The engines judge the same ops on IRs OpenVINO writes
 * in test/conformance/native-ir-ops.test.ts.
 */
const f32 = (shape: number[], v: number[]): OracleTensor => ({ dtype: 'f32', shape, data: new Uint8Array(new Float32Array(v).buffer) });
const floats = (t: OracleTensor): number[] => [...new Float32Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength))];
const ops = (m: Model): Set<string> => new Set([...allNodes(m.graph)].map((n) => n.op));
const close = (got: number[], want: number[]): void => {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => expect(Math.abs(g - want[i]!), `element ${i}: ${g} vs ${want[i]}`).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(want[i]!)));
};

function refusal(m: Model): string {
  try { convertModel(m); } catch (e) { if (e instanceof OvirError) return e.message; throw e; }
  return '';
}

describe('PSROIPooling-1 (average: a summed-area table; bilinear: four corner Gathers per spatial bin)', () => {
  const [N, H, W] = [2, 5, 6];
  const data = (C: number): number[] => Array.from({ length: N * C * H * W }, (_, i) => ((i * 37) % 23) / 7 - 1.5);
  const f = Math.fround;

  function psroi(C: number, rois: number[], attrs: Record<string, Attr>): Model {
    const b = new Builder('ov');
    const r = b.init('rois', tensorFromFloat32(rois, [rois.length / 5, 5]));
    b.output(b.node(b.graph, 'PSROIPooling', [b.input('x', 'f32', [N, C, H, W]), r], ['y'], attrs, { name: 'ps', version: 'opset1' }).outputs[0]!);
    return b.model;
  }

  /** The CPU plugin's average mode (psroi_pooling.cpp executeAverage), in f32. */
  function average(x: number[], C: number, rois: number[], D: number, G: number, scale: number): number[] {
    const out: number[] = [];
    let ended = false;
    for (let r = 0; r < rois.length / 5; r++) {
      const [id, x1, y1, x2, y2] = rois.slice(r * 5, r * 5 + 5) as [number, number, number, number, number];
      if (Math.trunc(id) === -1) ended = true;
      const round = (v: number): number => Math.sign(v) * Math.round(Math.abs(v));
      const sw = f(round(x1) * scale), sh = f(round(y1) * scale);
      const bw = f(Math.max(f(f(round(f(x2 + 1)) * scale) - sw), f(0.1)) / G), bh = f(Math.max(f(f(round(f(y2 + 1)) * scale) - sh), f(0.1)) / G);
      for (let d = 0; d < D; d++) for (let ph = 0; ph < G; ph++) for (let pw = 0; pw < G; pw++) {
        const clamp = (v: number, n: number): number => Math.min(Math.max(v, 0), n);
        const hs = clamp(Math.floor(f(f(ph * bh) + sh)), H), he = clamp(Math.ceil(f(f((ph + 1) * bh) + sh)), H);
        const ws = clamp(Math.floor(f(f(pw * bw) + sw)), W), we = clamp(Math.ceil(f(f((pw + 1) * bw) + sw)), W);
        let sum = 0;
        for (let h = hs; h < he; h++) for (let w = ws; w < we; w++) sum += x[((id * C + (d * G + ph) * G + pw) * H + h) * W + w]!;
        const area = (he - hs) * (we - ws);
        out.push(ended || area === 0 ? 0 : sum / area);
      }
    }
    return out;
  }

  /** The CPU plugin's bilinear mode (executeBilinear). */
  function bilinear(x: number[], C: number, rois: number[], D: number, G: number, bx: number, by: number): number[] {
    const out: number[] = [];
    for (let r = 0; r < rois.length / 5; r++) {
      const [id, x1, y1, x2, y2] = rois.slice(r * 5, r * 5 + 5) as [number, number, number, number, number];
      for (let d = 0; d < D; d++) for (let ph = 0; ph < G; ph++) for (let pw = 0; pw < G; pw++) {
        let acc = 0;
        for (let sy = 0; sy < by; sy++) for (let sx = 0; sx < bx; sx++) {
          const at = (lo: number, hi: number, k: number, n: number, bins: number, p: number): number => {
            const min = lo + (k * (hi - lo)) / bins, max = lo + ((k + 1) * (hi - lo)) / bins;
            return G > 1 ? p * ((max - min) * (n - 1)) / (G - 1) + min * (n - 1) : 0.5 * (min + max) * (n - 1);
          };
          const yy = at(y1, y2, sy, H, by, ph), xx = at(x1, x2, sx, W, bx, pw);
          if (yy < 0 || yy > H - 1 || xx < 0 || xx > W - 1) continue;
          const c = d + (sy * bx + sx) * D;
          const v = (h: number, w: number): number => x[((id * C + c) * H + h) * W + w]!;
          const [t, l] = [Math.floor(yy), Math.floor(xx)];
          const [bo, ri] = [Math.min(Math.ceil(yy), H - 1), Math.min(Math.ceil(xx), W - 1)];
          const top = v(t, l) + (v(t, ri) - v(t, l)) * (xx - l);
          const bottom = v(bo, l) + (v(bo, ri) - v(bo, l)) * (xx - l);
          acc += top + (bottom - top) * (yy - t);
        }
        out.push(acc / (bx * by));
      }
    }
    return out;
  }

  const pixelRois = [0, 0, 0, 11, 9, 1, 2.5, 1.4, 7.6, 6.5, 0, 4, 3, 4, 3, 1, -3, -2, 5, 4, 0, 8, 8, 1, 1, -1, 0, 0, 3, 3, 1, 1, 1, 4, 4];

  it('average: onnxruntime computes the bin means (half-away rounding, clamped bins, empty bins 0, the list ended by batch_id −1)', async () => {
    const [D, G, scale] = [2, 2, 0.5];
    const onnx = convertModel(psroi(D * G * G, pixelRois, { mode: A.raw('average'), output_dim: A.raw(String(D)), group_size: A.raw(String(G)), spatial_scale: A.raw(String(scale)) }));
    expect(ops(onnx)).toContain('CumSum');
    const x = data(D * G * G);
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([N, D * G * G, H, W], x) }))['y']!;
    expect(y.shape).toEqual([7, D, G, G]);
    close(floats(y), average(x, D * G * G, pixelRois, D, G, scale));
  });

  it('bilinear: onnxruntime computes the mean of the spatial bins\' samples (outside the map: 0)', async () => {
    const [D, G, bx, by] = [2, 3, 2, 1];
    const rois = [0, 0, 0, 1, 1, 1, 0.2, 0.1, 0.7, 0.9, 0, 0.6, -0.3, 1.2, 0.5, 1, 0.9, 0.2, 0.3, 0.6];
    const C = D * bx * by;
    const onnx = convertModel(psroi(C, rois, { mode: A.raw('bilinear'), output_dim: A.raw(String(D)), group_size: A.raw(String(G)), spatial_scale: A.raw('1'), spatial_bins_x: A.raw(String(bx)), spatial_bins_y: A.raw(String(by)) }));
    const x = data(C);
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([N, C, H, W], x) }))['y']!;
    expect(y.shape).toEqual([4, D, G, G]);
    close(floats(y), bilinear(x, C, rois, D, G, bx, by));
  });

  it('refuses another mode and a non-positive output_dim, naming the layer and the attribute', () => {
    const attrs = { output_dim: A.raw('1'), group_size: A.raw('2'), spatial_scale: A.raw('1') };
    expect(refusal(psroi(4, pixelRois, { ...attrs, mode: A.raw('bilinear_deformable') }))).toMatch(/main\/ps.*mode.*bilinear_deformable/s);
    expect(refusal(psroi(4, pixelRois, { ...attrs, mode: A.raw('average'), output_dim: A.raw('0') }))).toMatch(/main\/ps.*output_dim/s);
  });
});

describe('GatherTree-1 (a Loop over the steps backwards carrying each beam\'s ancestor, then the end_token masks)', () => {
  function gatherTree(elem: 'i32' | 'f32' | 'i64', T: number, B: number, W: number, lens: number[], end: number): Model {
    const b = new Builder('ov');
    const k = (name: string, v: number[], dims: number[]): Value => b.init(name, elem === 'f32' ? tensorFromFloat32(v, dims) : elem === 'i32' ? tensorFromInt32(v, dims) : tensorFromInt64(v, dims));
    const ins = [b.input('step_ids', elem, [T, B, W]), b.input('parent_ids', elem, [T, B, W]), k('max_seq_len', lens, [B]), k('end_token', [end], [])];
    b.output(b.node(b.graph, 'GatherTree', ins, ['y'], {}, { name: 'gt', version: 'opset1' }).outputs[0]!);
    return b.model;
  }
  const i32 = (shape: number[], v: number[]): OracleTensor => ({ dtype: 'i32', shape, data: new Uint8Array(new Int32Array(v).buffer) });
  const ints = (t: OracleTensor): number[] => [...new Int32Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength))];

  it('follows each beam\'s parents back from its last step; end_token past max_seq_len and after the first end_token', async () => {
    // T = 4, B = 2, W = 2; batch 0 runs 3 steps, batch 1 all 4 (max_seq_len 7 is clamped to T); end_token 9
    const step = [
      1, 2, /* b1 */ 3, 4,
      5, 6, /* b1 */ 9, 8,
      7, 9, /* b1 */ 1, 2,
      0, 0, /* b1 */ 3, 5,
    ];
    const parent = [
      0, 0, /* b1 */ 0, 0,
      1, 0, /* b1 */ 1, 0,
      1, 0, /* b1 */ 0, 0,
      0, 0, /* b1 */ 1, 0,
    ];
    const onnx = convertModel(gatherTree('i32', 4, 2, 2, [3, 7], 9));
    expect(ops(onnx)).toContain('Loop');
    const y = (await runOrt(encodeOnnx(onnx).bytes, { step_ids: i32([4, 2, 2], step), parent_ids: i32([4, 2, 2], parent) }))['y']!;
    // batch 0, beam 0: t2 7 (a = 0 → parent 1), t1 6 (a = 1 → 0), t0 1 → [1, 6, 7], t3 end
    // batch 0, beam 1: t2 9 (a = 1 → 0), t1 5 (→ 1), t0 2 → [2, 5, 9], t3 end
    // batch 1, beam 0: t3 3 (a = 0 → 1), t2 2 (→ 0), t1 9 (→ 1), t0 4 → [4, 9, 2, 3] → after the 9: [4, 9, 9, 9]
    // batch 1, beam 1: t3 5 (a = 1 → 0), t2 1 (→ 0), t1 9 (→ 1), t0 4 → [4, 9, 1, 5] → [4, 9, 9, 9]
    expect(ints(y)).toEqual([
      1, 2, /* b1 */ 4, 4,
      6, 5, /* b1 */ 9, 9,
      7, 9, /* b1 */ 9, 9,
      9, 9, /* b1 */ 9, 9,
    ]);
  });

  it('refuses another element type, naming the layer', () => {
    expect(refusal(gatherTree('i64', 2, 1, 1, [2], 0))).toMatch(/main\/gt.*i32 or f32/s);
  });
});
