import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromInt32, tensorFromInt64, type Model } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';

/**
 * The IR ops IR → ONNX read last (session 19): GroupedMatMul-17, Xor-1, … — the ONNX written,
 * onnxruntime's numbers against each op's definition computed here, and the coded refusals. The
 * engines judge the same ops on IRs OpenVINO writes in test/conformance/native-ir-ops.test.ts.
 */
const f32 = (shape: number[], v: number[]): OracleTensor => ({ dtype: 'f32', shape, data: new Uint8Array(new Float32Array(v).buffer) });
const floats = (t: OracleTensor): number[] => [...new Float32Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength))];
const ops = (m: Model): Set<string> => new Set([...allNodes(m.graph)].map((n) => n.op));
const close = (got: number[], want: number[]): void => {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => expect(Math.abs(g - want[i]!), `element ${i}: ${g} vs ${want[i]}`).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(want[i]!)));
};
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
    close(floats(y), want);
  });

  it('2-D × 3-D: each group\'s rows by its offsets (an empty group, i32 offsets), rows after the last offset 0', async () => {
    const offsets = [2, 2, 6];
    const onnx = convertModel(grouped([8, 3], [3, 4, 3], offsets, 'i32'));
    expect(ops(onnx)).toContain('Loop');
    const y = (await runOrt(encodeOnnx(onnx).bytes, { a: f32([8, 3], a(24)), b: f32([3, 4, 3], w(36)) }))['y']!;
    expect(y.shape).toEqual([8, 4]);
    const want = definition(a(24), w(36), 8, 3, 4, offsets);
    expect(want.slice(24)).toEqual(new Array<number>(8).fill(0));
    close(floats(y), want);
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

