import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, verifyGraph, type Attr, type Model } from '../../src/graph/index.js';
import { saveModel } from '../../src/io/load.js';
import { compareOutputs } from '../helpers/compare.js';
import { Oracle, oracleAvailable, type OracleTensor } from '../helpers/oracle.js';
import { Builder } from './builder.js';

/**
 * ONNX LSTM with peephole weights P → IR (mappings/rnn/lstm-peephole.ts): LSTMSequence has no
 * peepholes, so the recurrence is written out as ONNX defines it (i, f from Pi ⊙ Ct-1, Pf ⊙ Ct-1;
 * o from Po ⊙ Ct), one Loop-5 per direction over the steps. The backend case
 * (test_lstm_with_peepholes, onnx's and libonnx's) is judged in test/conformance/convert-zoo.test.ts;
 * these add both other directions, layout 1, sequence_lens and other activations, against
 * onnxruntime (layout 1, which onnxruntime does not run, against its layout-0 twin).
 */
const dir = mkdtempSync(join(tmpdir(), 'ovir-lstm-p-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const S = 4, B = 3, I = 2, H = 3;
interface Case { direction?: 'forward' | 'reverse' | 'bidirectional'; layout?: 0 | 1; lens?: boolean; activations?: string[]; clip?: number }
const dirsOf = (k: Case) => (k.direction === 'bidirectional' ? 2 : 1);

function model(k: Case): Model {
  const d = dirsOf(k);
  const b = new Builder('onnx', 14);
  const state = k.layout === 1 ? [B, d, H] : [d, B, H];
  const x = b.input('X', 'f32', k.layout === 1 ? [B, S, I] : [S, B, I]);
  const w = b.input('W', 'f32', [d, 4 * H, I]);
  const r = b.input('R', 'f32', [d, 4 * H, H]);
  const bias = b.input('B', 'f32', [d, 8 * H]);
  const lens = k.lens ? b.input('L', 'i32', [B]) : null;
  const h0 = b.input('h0', 'f32', state);
  const c0 = b.input('c0', 'f32', state);
  const p = b.input('P', 'f32', [d, 3 * H]);
  const attrs: Record<string, Attr> = { hidden_size: A.int(H) };
  if (k.direction) attrs['direction'] = A.string(k.direction);
  if (k.layout) attrs['layout'] = A.int(1);
  if (k.activations) attrs['activations'] = A.strings(k.activations);
  if (k.clip !== undefined) attrs['clip'] = A.float(k.clip);
  const n = b.node(b.graph, 'LSTM', [x, w, r, bias, lens, h0, c0, p], ['Y', 'Y_h', 'Y_c'], attrs, { name: 'lstm' });
  n.outputs.forEach((o) => b.output(o));
  return b.model;
}

function errors(m: Model): string[] {
  try { convertModel(m); } catch (e) {
    if (e instanceof OvirError) return e.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.where}`);
    throw e;
  }
  return [];
}

describe('LSTM with peepholes: the recurrence in a Loop-5 per direction', () => {
  it('one Loop per direction, no LSTMSequence; outputs typed as ONNX says', () => {
    const ir = convertModel(model({ direction: 'bidirectional' }));
    const ops = [...allNodes(ir.graph)].map((n) => n.op);
    expect(ops).not.toContain('LSTMSequence');
    expect(ir.graph.nodes.filter((n) => n.op === 'Loop')).toHaveLength(2);
    expect(ir.graph.nodes.filter((n) => n.op === 'ReverseSequence')).toHaveLength(2); // the backward direction, in and out
    expect(ir.graph.outputs.map((v) => v.type)).toMatchObject([
      { elem: 'f32', shape: [S, 2, B, H] }, { elem: 'f32', shape: [2, B, H] }, { elem: 'f32', shape: [2, B, H] },
    ]);
    expect(verifyGraph(ir.graph)).toEqual([]);
  });

  it('layout 1: batch-major in and out', () => {
    const ir = convertModel(model({ layout: 1 }));
    expect(ir.graph.outputs.map((v) => v.type)).toMatchObject([
      { elem: 'f32', shape: [B, S, 1, H] }, { elem: 'f32', shape: [B, 1, H] }, { elem: 'f32', shape: [B, 1, H] },
    ]);
  });

  it('clip: a Clamp before each gate activation, none before h(Ct)', () => {
    const ir = convertModel(model({ clip: 3 }));
    const body = ir.graph.nodes.find((n) => n.op === 'Loop')!.bodies.get('body')!.graph;
    const clamped = body.nodes.filter((n) => n.op === 'Clamp').map((n) => n.outputs[0]!.uses[0]!.node.op);
    expect(clamped.sort()).toEqual(['Sigmoid', 'Sigmoid', 'Sigmoid', 'Tanh']);
    expect(body.nodes.filter((n) => n.op === 'Tanh')).toHaveLength(2);
  });

  it('clip ≤ 0, and activations other than Sigmoid/Tanh/Relu, are refused with peepholes, naming the node', () => {
    expect(errors(model({ clip: 0 }))).toEqual(['CONVERT_UNSUPPORTED_ATTR main/lstm']);
    expect(errors(model({ activations: ['HardSigmoid', 'Tanh', 'Tanh'] }))).toEqual(['CONVERT_UNSUPPORTED_ATTR main/lstm']);
  });
});

function random(shape: number[], seed: number): Float32Array {
  const n = shape.reduce((a, d) => a * d, 1);
  return Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233) * 1.5);
}
const t = (shape: number[], seed: number): OracleTensor => ({ dtype: 'f32', shape, data: new Uint8Array(random(shape, seed).buffer) });
const tr3 = (x: OracleTensor): OracleTensor => { // [a, b, c] → [b, a, c]
  const [a, b, c] = x.shape as [number, number, number];
  const src = new Float32Array(x.data.buffer, x.data.byteOffset, a * b * c);
  const out = new Float32Array(a * b * c);
  for (let i = 0; i < a; i++) for (let j = 0; j < b; j++) for (let k = 0; k < c; k++) out[(j * a + i) * c + k] = src[(i * b + j) * c + k]!;
  return { dtype: 'f32', shape: [b, a, c], data: new Uint8Array(out.buffer) };
};
const tr4 = (y: OracleTensor): OracleTensor => { // [S, D, B, H] → [B, S, D, H]
  const [s, d, bb, h] = y.shape as [number, number, number, number];
  const src = new Float32Array(y.data.buffer, y.data.byteOffset, s * d * bb * h);
  const out = new Float32Array(s * d * bb * h);
  for (let i = 0; i < s; i++) for (let j = 0; j < d; j++) for (let k = 0; k < bb; k++) for (let l = 0; l < h; l++) out[((k * s + i) * d + j) * h + l] = src[((i * d + j) * bb + k) * h + l]!;
  return { dtype: 'f32', shape: [bb, s, d, h], data: new Uint8Array(out.buffer) };
};

const ENGINE: Record<string, Case> = {
  'forward': {},
  'reverse, sequence_lens [4, 1, 3]': { direction: 'reverse', lens: true },
  'bidirectional, sequence_lens, Sigmoid/Relu/Tanh': { direction: 'bidirectional', lens: true, activations: ['Sigmoid', 'Relu', 'Tanh', 'Sigmoid', 'Tanh', 'Relu'] },
  'bidirectional, layout 1': { direction: 'bidirectional', layout: 1 },
  'bidirectional, clip 0.5, sequence_lens': { direction: 'bidirectional', clip: 0.5, lens: true },
};

describe.skipIf(!oracleAvailable())('engines: OpenVINO on ovir\'s IR computes what onnxruntime computes', () => {
  it.each(Object.keys(ENGINE))('%s', async (name) => {
    const k = ENGINE[name]!;
    const d = dirsOf(k);
    const base = join(dir, name.replace(/[^a-z0-9]+/gi, '_'));
    saveModel(convertModel(model(k)), `${base}.xml`);
    const state = [d, B, H];
    const feeds: Record<string, OracleTensor> = {
      X: t([S, B, I], 1), W: t([d, 4 * H, I], 2), R: t([d, 4 * H, H], 3), B: t([d, 8 * H], 4),
      h0: t(state, 5), c0: t(state, 6), P: t([d, 3 * H], 7),
    };
    if (k.lens) feeds['L'] = { dtype: 'i32', shape: [B], data: new Uint8Array(new Int32Array([4, 1, 3]).buffer) };
    // onnxruntime runs layout 0 only: the reference is the layout-0 twin, its inputs and outputs transposed
    saveModel(model({ ...k, layout: 0 }), `${base}.onnx`);
    const oracle = await Oracle.start();
    try {
      const want = await oracle.runOrt(`${base}.onnx`, feeds);
      const irFeeds = k.layout === 1 ? { ...feeds, X: tr3(feeds['X']!), h0: tr3(feeds['h0']!), c0: tr3(feeds['c0']!) } : feeds;
      const got = await oracle.runIr(`${base}.xml`, irFeeds);
      const expected = k.layout === 1
        ? { Y: tr4(want['Y']!), Y_h: tr3(want['Y_h']!), Y_c: tr3(want['Y_c']!) }
        : { Y: want['Y']!, Y_h: want['Y_h']!, Y_c: want['Y_c']! };
      expect(compareOutputs(got, Object.entries(expected).map(([name, tensor]) => ({ name, tensor })))).toEqual([]);
    } finally {
      await oracle.close();
    }
  }, 120_000);
});
