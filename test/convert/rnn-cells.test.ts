import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromFloat32, type Attr, type Model, type Value } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { compareTensors } from '../helpers/compare.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';

/**
 * IR recurrent cells → ONNX LSTM / GRU / RNN over a sequence of one step (mappings/rnn/cells.ts),
 * run in onnxruntime against the OpenVINO op specs' formulas (LSTMCell-4, GRUCell-3, RNNCell-0):
 *   LSTM: gates = X·Wᵀ + H·Rᵀ + B split f, i, c, o; C' = f(ft)·C + f(it)·g(ct); H' = f(ot)·h(C')
 *   GRU:  zt = f(Xz + Hz + Bz), rt = f(Xr + Hr + Br),
 *         ht = g(Xh + (rt·H)·Rhᵀ + Bh), or with linear_before_reset g(Xh + rt·(H·Rhᵀ + Rbh) + Wbh);
 *         H' = (1 − zt)·ht + zt·H
 *   RNN:  H' = f(X·Wᵀ + H·Rᵀ + B)
 * with clip applied to every activation's input. (OpenVINO itself judges the same conversions on
 * IRs it writes in test/conformance/rnn-cells.test.ts.)
 */
const BATCH = 2;
const IN = 3;
const HID = 2;

function seq(n: number, seed: number): number[] {
  let s = seed >>> 0;
  return Array.from({ length: n }, () => { s = (s * 1103515245 + 12345) >>> 0; return (s / 2 ** 32) * 2 - 1; });
}
const f32 = (v: number[], shape: number[]): OracleTensor => ({ dtype: 'f32', shape, data: new Uint8Array(new Float32Array(v).buffer) });

const ACT: Record<string, (x: number) => number> = {
  sigmoid: (x) => 1 / (1 + Math.exp(-x)), tanh: Math.tanh, relu: (x) => Math.max(x, 0),
};

/** rows × cols matrix-vector product of row block `blk` (height HID) of M with v. */
const block = (m: number[], cols: number, blk: number, v: number[]): number[] =>
  Array.from({ length: HID }, (_, j) => v.reduce((s, x, k) => s + m[(blk * HID + j) * cols + k]! * x, 0));

interface Weights { w: number[]; r: number[]; b: number[] }
const weights = (gates: number, biasBlocks: number, seed: number): Weights =>
  ({ w: seq(gates * HID * IN, seed), r: seq(gates * HID * HID, seed + 1), b: seq(biasBlocks * HID, seed + 2) });

const x = seq(BATCH * IN, 11);
const h0 = seq(BATCH * HID, 12);
const c0 = seq(BATCH * HID, 13);
const row = (v: number[], b: number, n: number): number[] => v.slice(b * n, b * n + n);

function lstmRef(wt: Weights, acts: string[], clip: number): [number[], number[]] {
  const cl = (v: number): number => (clip > 0 ? Math.min(Math.max(v, -clip), clip) : v);
  const [f, g, hh] = acts.map((a) => (v: number) => ACT[a]!(cl(v)));
  const H: number[] = []; const C: number[] = [];
  for (let n = 0; n < BATCH; n++) {
    const gate = (k: number): number[] => block(wt.w, IN, k, row(x, n, IN)).map((v, j) => v + block(wt.r, HID, k, row(h0, n, HID))[j]! + wt.b[k * HID + j]!);
    const [ft, it, ct, ot] = [0, 1, 2, 3].map(gate);
    for (let j = 0; j < HID; j++) {
      const c = f!(ft![j]!) * c0[n * HID + j]! + f!(it![j]!) * g!(ct![j]!);
      C.push(c);
      H.push(f!(ot![j]!) * hh!(c));
    }
  }
  return [H, C];
}

function gruRef(wt: Weights, acts: string[], clip: number, lbr: boolean): number[] {
  const cl = (v: number): number => (clip > 0 ? Math.min(Math.max(v, -clip), clip) : v);
  const [f, g] = acts.map((a) => (v: number) => ACT[a]!(cl(v)));
  const out: number[] = [];
  for (let n = 0; n < BATCH; n++) {
    const xs = row(x, n, IN); const hs = row(h0, n, HID);
    const xw = (k: number): number[] => block(wt.w, IN, k, xs);
    const hr = (k: number, v: number[]): number[] => block(wt.r, HID, k, v);
    const z = xw(0).map((v, j) => f!(v + hr(0, hs)[j]! + wt.b[j]!));
    const r = xw(1).map((v, j) => f!(v + hr(1, hs)[j]! + wt.b[HID + j]!));
    const ht = lbr
      ? xw(2).map((v, j) => g!(v + wt.b[2 * HID + j]! + r[j]! * (hr(2, hs)[j]! + wt.b[3 * HID + j]!)))
      : xw(2).map((v, j) => g!(v + hr(2, hs.map((hv, k) => hv * r[k]!))[j]! + wt.b[2 * HID + j]!));
    for (let j = 0; j < HID; j++) out.push((1 - z[j]!) * ht[j]! + z[j]! * hs[j]!);
  }
  return out;
}

function rnnRef(wt: Weights, act: string, clip: number): number[] {
  const cl = (v: number): number => (clip > 0 ? Math.min(Math.max(v, -clip), clip) : v);
  const out: number[] = [];
  for (let n = 0; n < BATCH; n++) {
    const v = block(wt.w, IN, 0, row(x, n, IN)).map((s, j) => s + block(wt.r, HID, 0, row(h0, n, HID))[j]! + wt.b[j]!);
    out.push(...v.map((s) => ACT[act]!(cl(s))));
  }
  return out;
}

interface CellOpts { op: string; version: string; gates: number; biasBlocks: number; attrs: Record<string, Attr>; runtime?: boolean; p?: number[] }

function cellModel(o: CellOpts, wt: Weights): Model {
  const b = new Builder('ov');
  const states = o.op === 'LSTMCell' ? 2 : 1;
  const ins: (Value | null)[] = [b.input('x', 'f32', [BATCH, IN]), b.input('h', 'f32', [BATCH, HID])];
  if (states === 2) ins.push(b.input('c', 'f32', [BATCH, HID]));
  const shapes = { w: [o.gates * HID, IN], r: [o.gates * HID, HID], b: [o.biasBlocks * HID] };
  for (const k of ['w', 'r', 'b'] as const) ins.push(o.runtime ? b.input(k.toUpperCase(), 'f32', shapes[k]) : b.init(k.toUpperCase(), tensorFromFloat32(wt[k], shapes[k])));
  if (o.p) ins.push(b.init('P', tensorFromFloat32(o.p, [3 * HID])));
  const n = b.node(b.graph, o.op, ins, states === 2 ? ['ho', 'co'] : ['ho'], { hidden_size: A.raw(String(HID)), ...o.attrs }, { name: 'cell', version: o.version });
  for (const v of n.outputs) b.output(v);
  return b.model;
}

async function run(m: Model, opset: number, wt: Weights, runtime = false): Promise<Record<string, OracleTensor>> {
  const onnx = convertModel(m, { opset });
  const feeds: Record<string, OracleTensor> = { x: f32(x, [BATCH, IN]), h: f32(h0, [BATCH, HID]), c: f32(c0, [BATCH, HID]) };
  if (!m.graph.inputs.some((v) => v.name === 'c')) delete feeds['c'];
  if (runtime) for (const k of ['w', 'r', 'b'] as const) feeds[k.toUpperCase()] = f32(wt[k], [wt[k].length / (k === 'b' ? 1 : k === 'w' ? IN : HID), ...(k === 'b' ? [] : [k === 'w' ? IN : HID])]);
  return runOrt(encodeOnnx(onnx).bytes, feeds);
}

const expectClose = (got: OracleTensor | undefined, want: number[]): void => {
  expect(got).toBeDefined();
  expect(compareTensors(got!, f32(want, [BATCH, HID]))).toBeNull();
};

describe('LSTMCell → ONNX LSTM (gate blocks f, i, c, o → i, o, f, c; B → [B | 0])', () => {
  const wt = weights(4, 4, 1);
  it.each([
    ['LSTMCell-4 default activations', 'opset4', ['sigmoid', 'tanh', 'tanh'], 0, 17],
    ['LSTMCell-4 tanh, relu, sigmoid with clip 0.5', 'opset4', ['tanh', 'relu', 'sigmoid'], 0.5, 17],
    ['LSTMCell-1 (no peepholes) at opset 11 (Unsqueeze/Squeeze axes as attributes)', 'opset1', ['sigmoid', 'tanh', 'tanh'], 0, 11],
  ] as const)('%s', async (_, version, acts, clip, opset) => {
    const m = cellModel({ op: 'LSTMCell', version, gates: 4, biasBlocks: 4, attrs: { activations: A.raw(acts.join(', ')), clip: A.raw(String(clip)) } }, wt);
    const [H, C] = lstmRef(wt, [...acts], clip);
    const got = await run(m, opset, wt);
    expectClose(got['ho'], H);
    expectClose(got['co'], C);
  });

  it('constant weights stay constants, reordered at conversion time (no Gather); run-time ones are gathered', async () => {
    const m = cellModel({ op: 'LSTMCell', version: 'opset4', gates: 4, biasBlocks: 4, attrs: {} }, wt);
    const ops = [...allNodes(convertModel(m).graph)].map((n) => n.op);
    expect(ops.filter((op) => op === 'Gather' || op === 'Concat')).toEqual([]);
    expect(ops.filter((op) => op === 'LSTM')).toEqual(['LSTM']);
    const rt = cellModel({ op: 'LSTMCell', version: 'opset4', gates: 4, biasBlocks: 4, attrs: {}, runtime: true }, wt);
    expect([...allNodes(convertModel(rt).graph)].map((n) => n.op).filter((op) => op === 'Gather')).toHaveLength(3);
    const [H, C] = lstmRef(wt, ['sigmoid', 'tanh', 'tanh'], 0);
    const got = await run(rt, 17, wt, true);
    expectClose(got['ho'], H);
    expectClose(got['co'], C);
  });

  it('LSTMCell-1 with all-zero peepholes converts; any other P, input_forget, weights_format or hardsigmoid is refused, naming the cell', async () => {
    const zeroP = cellModel({ op: 'LSTMCell', version: 'opset1', gates: 4, biasBlocks: 4, attrs: {}, p: [0, 0, 0, 0, 0, 0] }, wt);
    expectClose((await run(zeroP, 17, wt))['ho'], lstmRef(wt, ['sigmoid', 'tanh', 'tanh'], 0)[0]);
    const refusals: [Partial<CellOpts>, string][] = [
      [{ p: [0, 0.5, 0, 0, 0, 0] }, 'CONVERT_OP'],
      [{ attrs: { input_forget: A.raw('true') } }, 'CONVERT_UNSUPPORTED_ATTR'],
      [{ attrs: { weights_format: A.raw('iofc') } }, 'CONVERT_UNSUPPORTED_ATTR'],
      [{ attrs: { activations: A.raw('hardsigmoid, tanh, tanh'), activations_alpha: A.raw('0.2'), activations_beta: A.raw('0.5') } }, 'CONVERT_UNSUPPORTED_ATTR'],
    ];
    for (const [o, code] of refusals) {
      const m = cellModel({ op: 'LSTMCell', version: 'opset1', gates: 4, biasBlocks: 4, attrs: {}, ...o }, wt);
      let err: unknown = null;
      try { convertModel(m); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(OvirError);
      expect((err as OvirError).diagnostics.map((d) => [d.code, d.where])).toContainEqual([code, 'main/cell']);
    }
  });
});

describe('GRUCell-3 → ONNX GRU (gates z, r, h alike; B → [B | 0], linear_before_reset [z, r, Wb_h, Rb_h] → [z, r, Wb_h | 0, 0, Rb_h])', () => {
  it.each([
    ['default', ['sigmoid', 'tanh'], 0, false],
    ['linear_before_reset', ['sigmoid', 'tanh'], 0, true],
    ['relu, sigmoid with clip 0.4 and linear_before_reset', ['relu', 'sigmoid'], 0.4, true],
  ] as const)('%s', async (_, acts, clip, lbr) => {
    const wt = weights(3, lbr ? 4 : 3, 2);
    const m = cellModel({ op: 'GRUCell', version: 'opset3', gates: 3, biasBlocks: lbr ? 4 : 3, attrs: { activations: A.raw(acts.join(', ')), clip: A.raw(String(clip)), linear_before_reset: A.raw(String(lbr)) } }, wt);
    expectClose((await run(m, 17, wt))['ho'], gruRef(wt, [...acts], clip, lbr));
  });

  it('W and R are the source bytes with a direction axis (views, not copies)', () => {
    const wt = weights(3, 3, 3);
    const m = cellModel({ op: 'GRUCell', version: 'opset3', gates: 3, biasBlocks: 3, attrs: {} }, wt);
    const src = m.graph.initializers.find((v) => v.name === 'W')!.constant!;
    const onnx = convertModel(m);
    const w = [...allNodes(onnx.graph)].find((n) => n.op === 'GRU')!.inputs[1]!.constant!;
    expect(w.dims).toEqual([1, 3 * HID, IN]);
    expect(w.data.buffer).toBe(src.data.buffer);
  });
});

describe('RNNCell-0 → ONNX RNN', () => {
  it.each([['tanh', 0], ['relu', 0], ['sigmoid', 0.3]] as const)('%s, clip %s', async (act, clip) => {
    const wt = weights(1, 1, 4);
    const m = cellModel({ op: 'RNNCell', version: 'opset1', gates: 1, biasBlocks: 1, attrs: { activations: A.raw(act), clip: A.raw(String(clip)) } }, wt);
    expectClose((await run(m, 17, wt))['ho'], rnnRef(wt, act, clip));
  });
});

describe('IR → ONNX → IR gives the cell back: a one-step ONNX LSTM/GRU/RNN is the IR cell', () => {
  it.each([
    ['LSTMCell', 'opset4', 4, 4, {}],
    ['GRUCell', 'opset3', 3, 4, { linear_before_reset: A.raw('true') }],
    ['RNNCell', 'opset1', 1, 1, { activations: A.raw('relu') }],
  ] as const)('%s', (op, version, gates, biasBlocks, attrs) => {
    const wt = weights(gates, biasBlocks, 5);
    const m = cellModel({ op, version, gates, biasBlocks, attrs }, wt);
    const back = convertModel(convertModel(m));
    const ops = [...allNodes(back.graph)].map((n) => n.op);
    expect(ops.filter((o) => /Cell|Sequence/.test(o))).toEqual([op]);
    // the constant B [Wb | 0] is summed back at conversion time: the cell reads the source bias
    const cell = [...allNodes(back.graph)].find((n) => n.op === op)!;
    const b = cell.inputs[cell.inputs.length - 1]!.constant!;
    expect(Array.from(new Float32Array(new Uint8Array(b.data).buffer))).toEqual(Array.from(new Float32Array(wt.b)));
  });
});
