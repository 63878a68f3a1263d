import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromFloat32, tensorFromInt32, tensorFromInt64, type Attr, type Model, type Value } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';
import { expectClose, f32, floats } from '../helpers/tensors.js';

/**
 * IR-only ops that ovir writes as longer ONNX subgraphs (a summed-area table, Loops, …): the ONNX
 * emitted, onnxruntime's numbers against the op's definition computed here as OpenVINO's CPU
 * plugin computes it, and the coded refusals. The engines judge the same ops on IRs OpenVINO writes
 * in test/conformance/native-ir-ops.test.ts.
 */
const ops = (m: Model): Set<string> => new Set([...allNodes(m.graph)].map((n) => n.op));

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
    expectClose(floats(y), average(x, D * G * G, pixelRois, D, G, scale));
  });

  it('bilinear: onnxruntime computes the mean of the spatial bins\' samples (outside the map: 0)', async () => {
    const [D, G, bx, by] = [2, 3, 2, 1];
    const rois = [0, 0, 0, 1, 1, 1, 0.2, 0.1, 0.7, 0.9, 0, 0.6, -0.3, 1.2, 0.5, 1, 0.9, 0.2, 0.3, 0.6];
    const C = D * bx * by;
    const onnx = convertModel(psroi(C, rois, { mode: A.raw('bilinear'), output_dim: A.raw(String(D)), group_size: A.raw(String(G)), spatial_scale: A.raw('1'), spatial_bins_x: A.raw(String(bx)), spatial_bins_y: A.raw(String(by)) }));
    const x = data(C);
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([N, C, H, W], x) }))['y']!;
    expect(y.shape).toEqual([4, D, G, G]);
    expectClose(floats(y), bilinear(x, C, rois, D, G, bx, by));
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

describe('ISTFT-16 (inverse real DFT as a MatMul, window, overlap-add and window-square sum by ScatterElements add)', () => {
  function istft(shape: number[], F: number, step: number, window: number[], center: boolean, normalized: boolean, length?: number): Model {
    const b = new Builder('ov');
    const ins = [b.input('x', 'f32', shape), b.init('window', tensorFromFloat32(window, [window.length])), b.init('frame_size', tensorFromInt32([F], [])), b.init('frame_step', tensorFromInt32([step], []))];
    if (length !== undefined) ins.push(b.init('signal_length', tensorFromInt32([length], [])));
    b.output(b.node(b.graph, 'ISTFT', ins, ['y'], { center: A.raw(String(center)), normalized: A.raw(String(normalized)) }, { name: 'istft', version: 'opset16' }).outputs[0]!);
    return b.model;
  }

  /** OpenVINO's ISTFT (measured on 2026.4): Σ irfft(frame)·w / Σ w², from F/2 if center, √F if normalized. */
  function reference(x: number[], B: number, K: number, N: number, F: number, step: number, window: number[], center: boolean, normalized: boolean, length?: number): number[] {
    const w = new Array<number>(F).fill(0);
    const at = Math.floor((F - window.length) / 2);
    window.forEach((v, i) => { w[at + i] = v; });
    const L = (N - 1) * step + F;
    const out: number[] = [];
    for (let b = 0; b < B; b++) {
      const sum = new Array<number>(L).fill(0);
      const norm = new Array<number>(L).fill(0);
      for (let n = 0; n < N; n++) {
        for (let t = 0; t < F; t++) {
          let v = 0;
          for (let k = 0; k < K; k++) {
            const re = x[((b * K + k) * N + n) * 2]!;
            const im = x[((b * K + k) * N + n) * 2 + 1]!;
            const edge = k === 0 || (F % 2 === 0 && k === F / 2);
            const a = (2 * Math.PI * k * t) / F;
            v += (edge ? 1 : 2) * (re * Math.cos(a) - (edge ? 0 : im * Math.sin(a)));
          }
          sum[n * step + t]! += (v / F) * w[t]!;
          norm[n * step + t]! += w[t]! * w[t]!;
        }
      }
      const y = sum.map((s, i) => (norm[i] === 0 ? 0 : (normalized ? s * Math.sqrt(F) : s) / norm[i]!));
      const margin = center ? Math.floor(F / 2) : 0;
      const size = length !== undefined && length > 0 ? length : center ? L - F : L;
      for (let i = 0; i < size; i++) out.push(y[margin + i] ?? 0);
    }
    return out;
  }

  it.each([
    ['even frames, no center', [2, 5, 4, 2], 8, 3, [0.2, 0.9, 1, 0.7, 0.4, 0.1], false, false, undefined],
    ['odd frames, center, normalized', [2, 4, 5, 2], 7, 2, [0.5, 1, 1, 0.5, 0.3, 0.2, 0.1], true, true, undefined],
    ['signal_length past the frames', [1, 5, 3, 2], 8, 4, [1, 1, 1, 1, 1, 1, 1, 1], true, false, 20],
  ] as const)('%s: onnxruntime computes OpenVINO\'s definition', async (_, shape, F, step, window, center, normalized, length) => {
    const onnx = convertModel(istft([...shape], F, step, [...window], center, normalized, length));
    expect(ops(onnx)).toContain('ScatterElements');
    const x = Array.from({ length: shape.reduce((a: number, d: number) => a * d, 1) }, (_, i) => Math.sin(i * 1.7) * 2);
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([...shape], x) }))['y']!;
    expectClose(floats(y), reference(x, shape[0]!, shape[1]!, shape[2]!, F, step, [...window], center, normalized, length));
  });

  it('refuses a frame_size computed at run time, naming the input', () => {
    const b = new Builder('ov');
    const ins = [b.input('x', 'f32', [1, 5, 3, 2]), b.init('window', tensorFromFloat32([1, 1], [2])), b.input('frame_size', 'i32', []), b.init('frame_step', tensorFromInt32([2], []))];
    b.output(b.node(b.graph, 'ISTFT', ins, ['y'], { center: A.raw('false'), normalized: A.raw('false') }, { name: 'istft', version: 'opset16' }).outputs[0]!);
    expect(refusal(b.model)).toMatch(/main\/istft.*frame_size/s);
  });
});

describe('Inverse-14 (Gauss–Jordan with partial pivoting in a Loop of n steps)', () => {
  function inverse(shape: Array<number | null>, adjoint: boolean): Model {
    const b = new Builder('ov');
    b.output(b.node(b.graph, 'Inverse', [b.input('x', 'f32', shape)], ['y'], { adjoint: A.raw(String(adjoint)) }, { name: 'inv', version: 'opset14' }).outputs[0]!);
    return b.model;
  }

  it('computes each matrix\'s inverse (a zero first pivot exchanged), adjoint its transpose', async () => {
    // [[0, 2, 1], [1, 1, 0], [3, 0, 1]] needs a row exchange at the first step; [[2, 0, 0], [0, 4, 0], [0, 0, 0.5]]
    const a = [0, 2, 1, 1, 1, 0, 3, 0, 1, 2, 0, 0, 0, 4, 0, 0, 0, 0.5];
    const inv = [-1 / 5, 2 / 5, 1 / 5, 1 / 5, 3 / 5, -1 / 5, 3 / 5, -6 / 5, 2 / 5, 0.5, 0, 0, 0, 0.25, 0, 0, 0, 2];
    for (const adjoint of [false, true]) {
      const onnx = convertModel(inverse([2, 3, 3], adjoint));
      expect(ops(onnx)).toContain('Loop');
      const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([2, 3, 3], a) }))['y']!;
      const want = adjoint ? inv.map((_, i) => inv[Math.floor(i / 9) * 9 + (i % 3) * 3 + Math.floor((i % 9) / 3)]!) : inv;
      expectClose(floats(y), want);
    }
  });

  it('refuses a matrix size known only at run time, naming the layer', () => {
    expect(refusal(inverse([2, null, null], false))).toMatch(/main\/inv.*matrix size n/s);
  });
});

describe('SparseFillEmptyRows-16 (row counts by ScatterElements add, the empty rows by NonZero, entries sorted by TopK)', () => {
  it('fills each empty row at column 0 with default_value and sorts the entries by (row, col)', async () => {
    const b = new Builder('ov');
    const ins = [b.input('values', 'f32', [4]), b.init('dense_shape', tensorFromInt32([5, 4], [2])),
      b.init('indices', tensorFromInt32([3, 1, 1, 2, 1, 0, 3, 0], [4, 2])), b.init('default_value', tensorFromFloat32([-1], []))];
    const n = b.node(b.graph, 'SparseFillEmptyRows', ins, ['indices_out', 'values_out', 'empty'], {}, { name: 'fill', version: 'opset16' });
    n.outputs.forEach((v) => b.output(v));
    const onnx = convertModel(b.model);
    expect([...ops(onnx)]).toEqual(expect.arrayContaining(['ScatterElements', 'NonZero', 'TopK']));
    const r = await runOrt(encodeOnnx(onnx).bytes, { values: f32([4], [10, 20, 30, 40]) });
    const i32s = (t: OracleTensor): number[] => [...new Int32Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength))];
    // rows 0, 2 and 4 are empty; row 1 holds (1, 2) = 20, (1, 0) = 30; row 3 (3, 1) = 10, (3, 0) = 40
    expect(i32s(r['indices_out']!)).toEqual([0, 0, 1, 0, 1, 2, 2, 0, 3, 0, 3, 1, 4, 0]);
    expect(floats(r['values_out']!)).toEqual([-1, 30, 20, -1, 40, 10, -1]);
    expect([...r['empty']!.data]).toEqual([1, 0, 1, 0, 1]);
  });
});

describe('CTCLoss-4 (labels decoded and interleaved with blanks; the backward variables in a Loop)', () => {
  function ctcLoss(attrs: Record<string, Attr>, labels: number[], labelLength: number[], logitLength: number[]): Model {
    const b = new Builder('ov');
    const ins = [b.input('x', 'f32', [2, 4, 3]), b.init('logit_length', tensorFromInt32(logitLength, [2])),
      b.init('labels', tensorFromInt32(labels, [2, 4])), b.init('label_length', tensorFromInt32(labelLength, [2]))];
    b.output(b.node(b.graph, 'CTCLoss', ins, ['y'], attrs, { name: 'ctc', version: 'opset4' }).outputs[0]!);
    return b.model;
  }

  /** CTC's definition: −log Σ over the alignments that collapse (repeats merged, blanks dropped) to the labels of Π softmax. */
  function bruteForce(x: number[], b: number, T: number, labels: number[]): number {
    const C = 3;
    const blank = C - 1;
    const p = (t: number, k: number): number => {
      const row = x.slice((b * 4 + t) * C, (b * 4 + t) * C + C);
      return Math.exp(row[k]!) / row.reduce((s, v) => s + Math.exp(v), 0);
    };
    let total = 0;
    for (let code = 0; code < C ** T; code++) {
      const path = Array.from({ length: T }, (_, t) => Math.floor(code / C ** t) % C);
      const collapsed = path.filter((k, t) => k !== blank && (t === 0 || path[t - 1] !== k));
      if (collapsed.join(',') === labels.join(',')) total += path.reduce((s, k, t) => s * p(t, k), 1);
    }
    return -Math.log(total);
  }

  it('the default (ctc_merge_repeated) is CTC\'s negative log-likelihood over the alignments, per batch length', async () => {
    const onnx = convertModel(ctcLoss({}, [0, 1, 9, 9, 1, 1, 9, 9], [2, 2], [4, 3]));
    expect(ops(onnx)).toContain('Loop');
    const x = Array.from({ length: 24 }, (_, i) => Math.cos(i * 2.3) * 1.5);
    const y = floats((await runOrt(encodeOnnx(onnx).bytes, { x: f32([2, 4, 3], x) }))['y']!);
    expectClose(y, [bruteForce(x, 0, 4, [0, 1]), bruteForce(x, 1, 3, [1, 1])]);
  });

  it('refuses integer logits, naming the layer', () => {
    const b = new Builder('ov');
    const ins = [b.input('x', 'i32', [1, 2, 3]), b.init('logit_length', tensorFromInt32([2], [1])), b.init('labels', tensorFromInt32([0, 0], [1, 2])), b.init('label_length', tensorFromInt32([1], [1]))];
    b.output(b.node(b.graph, 'CTCLoss', ins, ['y'], {}, { name: 'ctc', version: 'opset4' }).outputs[0]!);
    expect(refusal(b.model)).toMatch(/main\/ctc.*f32/s);
  });
});
