import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { f16BitsToNumber, f32ToF16Bits } from '../../src/graph/f16.js';
import { A, allNodes, makeTensor, tensorFromFloat32, tensorFromInt64, type Attr, type Model, type Value } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { compareTensors } from '../helpers/compare.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';

/**
 * IR ops ONNX lacks at the target opset, written as the ONNX subgraph of their definition
 * (mappings/ir-only/decompose.ts), run in onnxruntime against the OpenVINO op spec's formula. Entries
 * named by the ONNX op they stand in for: HardSigmoid (HSigmoid), LpNormalization (NormalizeL2),
 * Softmax (ScaledDotProductAttention).
 */
const X = [-4, -2.5, -1, -0.25, 0, 0.3, 1, 2, 3.5, 5, -0.7, 0.9];
const SHAPE = [3, 4];
const erf = (x: number): number => {
  // Abramowitz–Stegun 7.1.26 is too coarse for rtol 1e-4: integrate the series instead
  let sum = 0; let term = x; let n = 0;
  while (Math.abs(term) > 1e-17 * Math.abs(sum) || n < 5) { sum += term / (2 * n + 1); n++; term *= -x * x / n; if (n > 200) break; }
  return (2 / Math.sqrt(Math.PI)) * sum;
};
const softplus = (x: number) => Math.log1p(Math.exp(x));
const hsig = (x: number) => Math.min(Math.max(x + 3, 0), 6) / 6;

const VERSION: Record<string, string> = { ErfInv: 'opset17', HardSigmoid: 'opset1', Gelu: 'opset7', Swish: 'opset4', HSigmoid: 'opset5', HSwish: 'opset4', Mish: 'opset4', NormalizeL2: 'opset1' };

function irModel(op: string, attrs: Record<string, Attr> = {}, extra: (b: Builder) => (Value | null)[] = () => []): Model {
  const b = new Builder('ov');
  const x = b.input('x', 'f32', SHAPE);
  b.output(b.op(b.graph, op, [x, ...extra(b)], 'y', attrs, { version: VERSION[op]! }));
  return b.model;
}

const f32 = (v: number[]): OracleTensor => ({ dtype: 'f32', shape: SHAPE, data: new Uint8Array(new Float32Array(v).buffer) });

async function check(m: Model, opset: number, want: number[], expectOps?: string[]): Promise<void> {
  const onnx = convertModel(m, { opset });
  if (expectOps) expect([...allNodes(onnx.graph)].map((n) => n.op)).toEqual(expectOps);
  const got = (await runOrt(encodeOnnx(onnx).bytes, { x: f32(X) }))['y']!;
  expect(compareTensors(got, f32(want))).toBeNull();
}

const l2 = (axisRows: boolean, eps: number, mode: 'add' | 'max'): number[] => X.map((v, i) => {
  const r = Math.floor(i / 4);
  const group = axisRows ? X.slice(r * 4, r * 4 + 4) : [v];
  const s = group.reduce((a, g) => a + g * g, 0);
  return v / Math.sqrt(mode === 'add' ? s + eps : Math.max(s, eps));
});

describe('IR-only ops as ONNX subgraphs at opsets that lack them', () => {
  it('Gelu ERF before opset 20: 0.5·x·(1 + erf(x/√2)); Gelu-20 from 20', async () => {
    const want = X.map((x) => 0.5 * x * (1 + erf(x / Math.SQRT2)));
    await check(irModel('Gelu', { approximation_mode: A.raw('ERF') }), 13, want, ['Mul', 'Erf', 'Add', 'Mul', 'Mul']);
    expect([...allNodes(convertModel(irModel('Gelu'), { opset: 20 }).graph)].map((n) => n.op)).toEqual(['Gelu']);
  });

  it('Gelu TANH before opset 20: the tanh approximation', async () => {
    const want = X.map((x) => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3))));
    await check(irModel('Gelu', { approximation_mode: A.raw('tanh') }), 17, want);
  });

  it('Swish with and without β: x·sigmoid(β·x); Swish-24 with alpha from 24', async () => {
    await check(irModel('Swish'), 17, X.map((x) => x / (1 + Math.exp(-x))), ['Sigmoid', 'Mul']);
    const withBeta = irModel('Swish', {}, (b) => [b.init('beta', tensorFromFloat32([0.75], []))]);
    await check(withBeta, 17, X.map((x) => x / (1 + Math.exp(-0.75 * x))));
    const at24 = convertModel(withBeta, { opset: 24 });
    expect([...allNodes(at24.graph)].map((n) => [n.op, n.attrs.get('alpha')])).toEqual([['Swish', A.float(0.75)]]);
  });

  it('HSigmoid: HardSigmoid(1/6, 1/2); HSwish before 14: x·HardSigmoid', async () => {
    await check(irModel('HSigmoid'), 17, X.map(hsig), ['HardSigmoid']);
    await check(irModel('HSwish'), 13, X.map((x) => x * hsig(x)), ['HardSigmoid', 'Mul']);
  });

  it('HardSigmoid-1 whose alpha and beta are compressed constants (f16 Const → decompression Convert, as ovc writes every constant) reads them as its attributes', async () => {
    const compressed = (b: Builder, name: string, x: number): Value => {
      const c = b.init(`${name}_compressed`, makeTensor('f16', [], new Uint8Array(new Uint16Array([f32ToF16Bits(x)]).buffer)));
      return b.op(b.graph, 'Convert', [c], name, { destination_type: A.raw('f32') }, { version: 'opset1' });
    };
    const alpha = f16BitsToNumber(f32ToF16Bits(0.2)); // 0.199951171875: what the IR holds
    const m = irModel('HardSigmoid', {}, (b) => [compressed(b, 'alpha', 0.2), compressed(b, 'beta', 0.5)]);
    await check(m, 17, X.map((x) => Math.max(0, Math.min(1, alpha * x + 0.5))), ['HardSigmoid']);
  });

  it('ErfInv-17: the inverse of erf to f32 precision (f16 through f32), ±1 → ±inf, |x| > 1 → NaN', async () => {
    // x (f32) and erfinv(x) from bisection on Python's math.erf (libm), to double precision
    const truth: [number, number][] = [
      [0.5, 0.4769362762044699], [0.9990000128746033, 2.3267563267961435], [0.99853515625, 2.2497023740859907],
      [-0.9998999834060669, -2.751035437903383], [0.9999899864196777, 3.1232057711642227], [0.9999998807907104, 3.7439211627166262],
    ];
    const xs = [...truth.map(([x]) => x), 0, 1, -1, 1.5, -2, 1e-6];
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [xs.length]);
    b.output(b.op(b.graph, 'ErfInv', [x], 'y', {}, { version: 'opset17' }));
    const onnx = convertModel(b.model, { opset: 17 });
    const feed: OracleTensor = { dtype: 'f32', shape: [xs.length], data: new Uint8Array(new Float32Array(xs).buffer) };
    const got = (await runOrt(encodeOnnx(onnx).bytes, { x: feed }))['y']!;
    const y = [...new Float32Array(got.data.buffer, got.data.byteOffset, xs.length)];
    truth.forEach(([, want], i) => expect(Math.abs(y[i]! - want) / Math.abs(want)).toBeLessThan(1e-6));
    expect(y.slice(truth.length)).toEqual([0, Infinity, -Infinity, NaN, NaN, expect.closeTo(8.862269e-7, 12)]);
  });

  it('Mish before 18: x·tanh(softplus(x))', async () => {
    await check(irModel('Mish'), 17, X.map((x) => x * Math.tanh(softplus(x))), ['Softplus', 'Tanh', 'Mul']);
  });

  it.each([
    ['add', 13], ['max', 13], ['add', 18], ['max', 21],
  ] as const)('NormalizeL2 eps_mode %s at opset %i: x / sqrt(ReduceSumSquare ⊕ eps)', async (mode, opset) => {
    const m = irModel('NormalizeL2', { eps: A.raw('0.5'), eps_mode: A.raw(mode) }, (b) => [b.init('axes', tensorFromInt64([1], [1]))]);
    await check(m, opset, l2(true, 0.5, mode), ['ReduceSumSquare', mode === 'add' ? 'Add' : 'Max', 'Sqrt', 'Div']);
  });

  it('NormalizeL2 with empty axes normalizes each element by itself', async () => {
    const m = irModel('NormalizeL2', { eps: A.raw('1e-6'), eps_mode: A.raw('add') }, (b) => [b.init('axes', tensorFromInt64([], [0]))]);
    await check(m, 17, l2(false, 1e-6, 'add'));
  });
});

describe('ScaledDotProductAttention → softmax(Q·Kᵀ·scale + bias)·V', () => {
  const L = 3; const S = 4; const E = 2;
  const q = Array.from({ length: L * E }, (_, i) => Math.cos(i));
  const kk = Array.from({ length: S * E }, (_, i) => Math.sin(i * 0.7));
  const v = Array.from({ length: S * E }, (_, i) => i / 3 - 1);
  const maskBits = [1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1];
  const t = (vals: number[], shape: number[]): OracleTensor => ({ dtype: 'f32', shape, data: new Uint8Array(new Float32Array(vals).buffer) });

  function reference(bias: (l: number, s: number) => number): number[] {
    const out: number[] = [];
    for (let l = 0; l < L; l++) {
      const scores = Array.from({ length: S }, (_, s) => (q[l * E]! * kk[s * E]! + q[l * E + 1]! * kk[s * E + 1]!) / Math.sqrt(E) + bias(l, s));
      const m = Math.max(...scores);
      const e = scores.map((x) => Math.exp(x - m));
      const z = e.reduce((a, b) => a + b, 0);
      for (let j = 0; j < E; j++) out.push(e.reduce((a, w, s) => a + (w / z) * v[s * E + j]!, 0));
    }
    return out;
  }

  async function run(causal: boolean, withMask: boolean): Promise<OracleTensor> {
    const b = new Builder('ov');
    const ins = [b.input('q', 'f32', [1, L, E]), b.input('k', 'f32', [1, S, E]), b.input('v', 'f32', [1, S, E])];
    if (withMask) ins.push(b.input('m', 'boolean', [L, S]));
    b.output(b.op(b.graph, 'ScaledDotProductAttention', ins, 'y', { causal: A.raw(String(causal)) }, { version: 'opset13' }));
    const feeds: Record<string, OracleTensor> = { q: t(q, [1, L, E]), k: t(kk, [1, S, E]), v: t(v, [1, S, E]) };
    if (withMask) feeds['m'] = { dtype: 'boolean', shape: [L, S], data: new Uint8Array(maskBits) };
    return (await runOrt(encodeOnnx(convertModel(b.model)).bytes, feeds))['y']!;
  }

  it('causal: key position s attended from query position l when s ≤ l', async () => {
    expect(compareTensors(await run(true, false), t(reference((l, s) => (s <= l ? 0 : -Infinity)), [1, L, E]))).toBeNull();
  });

  it('a boolean mask: false positions get −∞', async () => {
    expect(compareTensors(await run(false, true), t(reference((l, s) => (maskBits[l * S + s] ? 0 : -Infinity)), [1, L, E]))).toBeNull();
  });
});
