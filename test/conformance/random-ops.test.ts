/**
 * The random ops judged by the engines: their numbers cannot be compared one to one (OpenVINO's
 * Philox generator is not onnxruntime's, nor numpy's, which wrote the backend cases' expected
 * outputs), so each model draws a large sample and the distribution is judged — on OpenVINO
 * running ovir's IR and on onnxruntime running the original ONNX (ONNX → IR), and on onnxruntime
 * running ovir's ONNX and OpenVINO running the original IR (IR → ONNX). Each check is the exact
 * law's: same shape and element type, values in range, mean / variance / frequencies within 6
 * standard errors (a false alarm about once in 10⁹ per bound), degenerate cases (Bernoulli
 * p = 0 and 1) exact.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, tensorFromFloat32, tensorFromInt64, type Attr, type ElementTypeName, type Model } from '../../src/graph/index.js';
import { f16BitsToNumber, f32ToF16Bits } from '../../src/graph/f16.js';
import { makeTensor } from '../../src/graph/tensor.js';
import { saveModel } from '../../src/io/load.js';
import { Builder } from '../convert/builder.js';
import { Oracle, type OracleTensor } from '../helpers/oracle.js';

let oracle: Oracle;
let tmp: string;
beforeAll(async () => {
  oracle = await Oracle.start();
  tmp = mkdtempSync(join(tmpdir(), 'ovir-random-'));
});
afterAll(async () => {
  await oracle?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const Z = 6; // standard errors allowed

function numbers(t: OracleTensor): Float64Array {
  const b = t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength);
  switch (t.dtype) {
    case 'f32': return Float64Array.from(new Float32Array(b));
    case 'f64': return new Float64Array(b);
    case 'i32': return Float64Array.from(new Int32Array(b));
    case 'i64': return Float64Array.from(new BigInt64Array(b), Number);
    case 'f16': return Float64Array.from(new Uint16Array(b), f16BitsToNumber);
    case 'boolean': case 'u8': return Float64Array.from(new Uint8Array(b));
    default: throw new Error(`no decoder for ${t.dtype}`);
  }
}

const mean = (x: Float64Array): number => x.reduce((a, v) => a + v, 0) / x.length;
const variance = (x: Float64Array): number => { const m = mean(x); return x.reduce((a, v) => a + (v - m) ** 2, 0) / (x.length - 1); };
const freq = (x: Float64Array, f: (v: number) => boolean): number => x.reduce((a, v) => a + (f(v) ? 1 : 0), 0) / x.length;

/** |got − want| ≤ Z · se, as a readable failure. */
function near(what: string, got: number, want: number, se: number): string[] {
  return Math.abs(got - want) <= Z * se ? [] : [`${what}: ${got} vs ${want} (> ${Z} · ${se.toExponential(2)})`];
}

/**
 * The law of U[a, b): range, mean, variance, ten equal bins. The range is closed: both engines
 * compute a + u · (b − a) in the output type, which can round up to b (measured: [10, 11) in f32).
 */
function uniformLaw(x: Float64Array, a: number, b: number): string[] {
  const n = x.length;
  const w = b - a;
  const s2 = w * w / 12;
  const bad = x.filter((v) => !(v >= a && v <= b));
  const p = 0.1;
  return [
    ...(bad.length ? [`${bad.length} values outside [${a}, ${b}], e.g. ${bad[0]}`] : []),
    ...near('mean', mean(x), (a + b) / 2, Math.sqrt(s2 / n)),
    ...near('variance', variance(x), s2, Math.sqrt((w ** 4 / 80 - s2 * s2) / n)),
    ...Array.from({ length: 10 }, (_, k) => near(`bin ${k}`, freq(x, (v) => v >= a + k * w / 10 && v < a + (k + 1) * w / 10), p, Math.sqrt(p * (1 - p) / n))).flat(),
  ];
}

/** The law of N(μ, σ²): mean, variance, mass within 1, 2, 3 σ. */
function normalLaw(x: Float64Array, mu: number, sigma: number): string[] {
  const n = x.length;
  const bands = [0.682689492137, 0.954499736104, 0.997300203937];
  return [
    ...(x.some((v) => !Number.isFinite(v)) ? ['a value that is not finite'] : []),
    ...near('mean', mean(x), mu, sigma / Math.sqrt(n)),
    ...near('variance', variance(x), sigma * sigma, sigma * sigma * Math.sqrt(2 / n)),
    ...bands.flatMap((p, k) => near(`mass within ${k + 1}σ`, freq(x, (v) => Math.abs(v - mu) < (k + 1) * sigma), p, Math.sqrt(p * (1 - p) / n))),
  ];
}

/** Class frequencies of categorical samples against probabilities `p`. */
function categoricalLaw(x: Float64Array, p: readonly number[]): string[] {
  const n = x.length;
  const bad = x.filter((v) => !(Number.isInteger(v) && v >= 0 && v < p.length));
  return [
    ...(bad.length ? [`${bad.length} indices outside [0, ${p.length}), e.g. ${bad[0]}`] : []),
    ...p.flatMap((pk, k) => (pk === 0
      ? (x.some((v) => v === k) ? [`class ${k} of probability 0 drawn`] : [])
      : near(`class ${k}`, freq(x, (v) => v === k), pk, Math.sqrt(pk * (1 - pk) / n)))),
  ];
}

function f32Tensor(values: readonly number[], shape = [values.length]): OracleTensor {
  return { dtype: 'f32', shape, data: new Uint8Array(new Float32Array(values).buffer) };
}
function f64Tensor(values: readonly number[], shape = [values.length]): OracleTensor {
  return { dtype: 'f64', shape, data: new Uint8Array(new Float64Array(values).buffer) };
}

interface Run { name: string; out: OracleTensor }

/**
 * ONNX → IR: the outputs of onnxruntime (or onnx's reference evaluator) on the ONNX model and of
 * OpenVINO on ovir's IR.
 */
async function bothOnnxToIr(name: string, model: Model, feeds: Record<string, OracleTensor> = {}, judge: 'ort' | 'reference' = 'ort'): Promise<Run[]> {
  const base = join(tmp, name);
  saveModel(model, `${base}.onnx`);
  saveModel(convertModel(model), `${base}.xml`);
  const src = judge === 'ort' ? await oracle.runOrt(`${base}.onnx`, feeds) : await oracle.runOnnxReference(`${base}.onnx`, feeds);
  const ov = await oracle.runIr(`${base}.xml`, feeds);
  return [{ name: `${judge === 'ort' ? 'onnxruntime' : 'onnx\'s reference'} on the ONNX`, out: src['#0']! }, { name: 'OpenVINO on ovir\'s IR', out: ov['#0']! }];
}

/** IR → ONNX: the outputs of OpenVINO on the IR and of onnxruntime on ovir's ONNX. */
async function bothIrToOnnx(name: string, model: Model, feeds: Record<string, OracleTensor> = {}): Promise<Run[]> {
  const base = join(tmp, name);
  saveModel(model, `${base}.xml`);
  saveModel(convertModel(model), `${base}.onnx`);
  const ov = await oracle.runIr(`${base}.xml`, feeds);
  const ort = await oracle.runOrt(`${base}.onnx`, feeds);
  return [{ name: 'OpenVINO on the IR', out: ov['#0']! }, { name: 'onnxruntime on ovir\'s ONNX', out: ort['#0']! }];
}

/** Every run has this type and shape and obeys the law. */
function judge(runs: Run[], dtype: string, shape: number[], law: (x: Float64Array) => string[]): void {
  for (const r of runs) {
    expect([r.out.dtype, r.out.shape], r.name).toEqual([dtype, shape]);
    expect(law(numbers(r.out)), r.name).toEqual([]);
  }
}

function onnxOp(op: string, attrs: Record<string, Attr>, input?: { elem: ElementTypeName; shape: number[] }, opset = 17): Model {
  const b = new Builder('onnx', opset);
  const ins = input ? [b.input('x', input.elem, input.shape)] : [];
  b.output(b.node(b.graph, op, ins, ['y'], attrs, { name: op }).outputs[0]!);
  return b.model;
}

const N = 100_000;

describe('ONNX → IR: OpenVINO on ovir\'s IR draws what onnxruntime draws, in law', () => {
  it('RandomUniform f32 and f64, seeded and not', async () => {
    judge(await bothOnnxToIr('ru32', onnxOp('RandomUniform', { shape: A.ints([200, 500]), low: A.float(-2), high: A.float(5), seed: A.float(3) })),
      'f32', [200, 500], (x) => uniformLaw(x, -2, 5));
    judge(await bothOnnxToIr('ru64', onnxOp('RandomUniform', { shape: A.ints([N]), dtype: A.int(11) })), 'f64', [N], (x) => uniformLaw(x, 0, 1));
  });

  it('RandomUniformLike: the input\'s shape; its type or dtype', async () => {
    const x = f32Tensor(new Array<number>(N).fill(0), [N / 4, 4]);
    judge(await bothOnnxToIr('rul', onnxOp('RandomUniformLike', { low: A.float(10), high: A.float(11) }, { elem: 'f32', shape: [N / 4, 4] }), { x }),
      'f32', [N / 4, 4], (v) => uniformLaw(v, 10, 11));
    judge(await bothOnnxToIr('rul64', onnxOp('RandomUniformLike', { dtype: A.int(11), seed: A.float(0) }, { elem: 'f32', shape: [N / 4, 4] }), { x }),
      'f64', [N / 4, 4], (v) => uniformLaw(v, 0, 1));
  });

  it('RandomNormal / RandomNormalLike: mean, scale, f32 and f64 (Box–Muller in OpenVINO)', async () => {
    judge(await bothOnnxToIr('rn', onnxOp('RandomNormal', { shape: A.ints([N]), mean: A.float(3), scale: A.float(2), seed: A.float(11) })),
      'f32', [N], (x) => normalLaw(x, 3, 2));
    judge(await bothOnnxToIr('rn0', onnxOp('RandomNormal', { shape: A.ints([N]) })), 'f32', [N], (x) => normalLaw(x, 0, 1));
    const x = f64Tensor(new Array<number>(N).fill(0), [N]);
    judge(await bothOnnxToIr('rnl', onnxOp('RandomNormalLike', { mean: A.float(-1), scale: A.float(0.5) }, { elem: 'f64', shape: [N] }), { x }),
      'f64', [N], (v) => normalLaw(v, -1, 0.5));
  });

  // onnxruntime 1.31's Bernoulli draws 1 with probability 1 − p (measured: p = 0 gives all ones,
  // p = 0.3 about 0.70), against the spec and onnx's reference: the ONNX side is onnx's reference.
  it('Bernoulli: p = 0 and p = 1 exactly, other p in frequency; dtype honoured', async () => {
    const ps = [0, 1, 0.3, 0.75];
    const p = Array.from({ length: N }, (_, i) => ps[i % 4]!);
    const law = (x: Float64Array): string[] => ps.flatMap((pk, k) => {
      const part = x.filter((_, i) => i % 4 === k);
      const bad = part.filter((v) => v !== 0 && v !== 1);
      if (bad.length) return [`p = ${pk}: values other than 0 and 1`];
      if (pk === 0 || pk === 1) return part.every((v) => v === pk) ? [] : [`p = ${pk} not exact`];
      return near(`p = ${pk}`, mean(part), pk, Math.sqrt(pk * (1 - pk) / part.length));
    });
    judge(await bothOnnxToIr('be', onnxOp('Bernoulli', {}, { elem: 'f32', shape: [N] }, 15), { x: f32Tensor(p) }, 'reference'), 'f32', [N], law);
    judge(await bothOnnxToIr('be64', onnxOp('Bernoulli', { dtype: A.int(7), seed: A.float(5) }, { elem: 'f64', shape: [N] }, 15), { x: f64Tensor(p) }, 'reference'), 'i64', [N], law);
  });

  it('Multinomial: class frequencies of softmax(input) per batch row; int32 and int64', async () => {
    const rows = [[0.1, 0.2, 0.3, 0.4], [0.7, 0.1, 0.2, 0]];
    // unnormalized log-probabilities: log(3 · p), a 0 as −inf
    const x = f32Tensor(rows.flat().map((v) => Math.log(3 * v)), [2, 4]);
    const law = (v: Float64Array): string[] => rows.flatMap((p, r) => categoricalLaw(v.slice(r * N / 2, (r + 1) * N / 2), p).map((s) => `row ${r}: ${s}`));
    judge(await bothOnnxToIr('mn', onnxOp('Multinomial', { sample_size: A.int(N / 2) }, { elem: 'f32', shape: [2, 4] }), { x }), 'i32', [2, N / 2], law);
    judge(await bothOnnxToIr('mn64', onnxOp('Multinomial', { sample_size: A.int(N / 2), dtype: A.int(7), seed: A.float(1) }, { elem: 'f32', shape: [2, 4] }), { x }), 'i64', [2, N / 2], law);
  });
});

describe('ONNX → IR: training Dropout (run-time training_mode and ratio) in OpenVINO and onnxruntime', () => {
  /** Dropout-13(x, ratio, training_mode) → (y, mask), all graph inputs. */
  function dropout(): Model {
    const b = new Builder('onnx', 13);
    const n = b.node(b.graph, 'Dropout', [b.input('x', 'f32', [N]), b.input('ratio', 'f32', []), b.input('t', 'boolean', [])], ['y', 'mask'], {}, { name: 'Dropout' });
    n.outputs.forEach((o) => b.output(o));
    return b.model;
  }
  const x = Array.from({ length: N }, (_, i) => Math.fround((i % 1000) / 7 - 60));
  const boolTensor = (v: boolean): OracleTensor => ({ dtype: 'boolean', shape: [], data: new Uint8Array([v ? 1 : 0]) });

  /** y and mask of both engines for one ratio and training_mode. */
  async function runs(ratio: number, training: boolean): Promise<{ name: string; y: Float64Array; mask: Float64Array; types: unknown[] }[]> {
    const base = join(tmp, `dropout-${ratio}-${training}`);
    saveModel(dropout(), `${base}.onnx`);
    saveModel(convertModel(dropout()), `${base}.xml`);
    const feeds = { x: f32Tensor(x), ratio: f32Tensor([ratio], []), t: boolTensor(training) };
    const out: { name: string; y: Float64Array; mask: Float64Array; types: unknown[] }[] = [];
    for (const [name, r] of [['onnxruntime on the ONNX', await oracle.runOrt(`${base}.onnx`, feeds)], ['OpenVINO on ovir\'s IR', await oracle.runIr(`${base}.xml`, feeds)]] as const) {
      out.push({ name, y: numbers(r['#0']!), mask: numbers(r['#1']!), types: [r['#0']!.dtype, r['#0']!.shape, r['#1']!.dtype, r['#1']!.shape] });
    }
    return out;
  }

  // onnxruntime divides x by 1 − ratio, ovir's IR multiplies by 1 / (1 − ratio) (the spec's
  // formula): in f32 the two differ by one ulp on some elements, so each kept value must be within
  // one ulp of x / (1 − ratio); dropped values are 0 exactly.
  it('training: the kept fraction is 1 − ratio, kept values x / (1 − ratio) within one f32 ulp, the others 0', async () => {
    for (const ratio of [0.3, 0.75]) {
      const k = Math.fround(1 - Math.fround(ratio));
      const ulp = (v: number): number => 2 ** (Math.floor(Math.log2(Math.abs(v))) - 23);
      for (const r of await runs(ratio, true)) {
        expect(r.types, r.name).toEqual(['f32', [N], 'boolean', [N]]);
        const wrong = x.flatMap((v, i) => (r.mask[i] ? v === 0 ? r.y[i] === 0 : Math.abs(r.y[i]! - v / k) <= ulp(v / k) : r.y[i] === 0) ? [] : [i]);
        expect(wrong.slice(0, 5).map((i) => `[${i}] ${r.y[i]} (x ${x[i]}, mask ${r.mask[i]})`), r.name).toEqual([]);
        const keep = 1 - ratio;
        expect(near('kept fraction', mean(r.mask), keep, Math.sqrt(keep * (1 - keep) / N)), r.name).toEqual([]);
      }
    }
  });

  it('inference (training_mode false) and ratio 0: y is x exactly, the mask all true', async () => {
    for (const [ratio, training] of [[0.5, false], [0, true]] as const) {
      for (const r of await runs(ratio, training)) {
        expect(x.filter((v, i) => r.y[i] !== v).length, `${r.name} ratio ${ratio} training ${training}`).toBe(0);
        expect(r.mask.every((m) => m === 1), r.name).toBe(true);
      }
    }
  });
});

function irOp(op: string, version: string, inputs: (b: Builder) => ReturnType<Builder['input']>[], attrs: Record<string, string>): Model {
  const b = new Builder('ov');
  b.output(b.node(b.graph, op, inputs(b), ['y'], Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, A.raw(v)])), { name: op, version }).outputs[0]!);
  return b.model;
}

describe('IR → ONNX: onnxruntime on ovir\'s ONNX draws what OpenVINO draws, in law', () => {
  it('RandomUniform-8: f32 constant shape; a run-time shape; f64 bounds; whole numbers in [min, max)', async () => {
    judge(await bothIrToOnnx('iru', irOp('RandomUniform', 'opset8', (b) => [
      b.init('s', tensorFromInt64([N])), b.init('lo', tensorFromFloat32([-3], [])), b.init('hi', tensorFromFloat32([-1], [])),
    ], { output_type: 'f32', global_seed: '0', op_seed: '0' })), 'f32', [N], (x) => uniformLaw(x, -3, -1));
    const shape: OracleTensor = { dtype: 'i64', shape: [2], data: new Uint8Array(new BigInt64Array([250n, 400n]).buffer) };
    judge(await bothIrToOnnx('iru-rt', irOp('RandomUniform', 'opset8', (b) => [
      b.input('s', 'i64', [2]), b.init('lo', tensorFromFloat32([0], [])), b.init('hi', tensorFromFloat32([1], [])),
    ], { output_type: 'f32', global_seed: '7', op_seed: '9' }), { s: shape }), 'f32', [250, 400], (x) => uniformLaw(x, 0, 1));
    // f16: onnxruntime has no f16 RandomUniform kernel; ovir's ONNX draws in f32 and Casts
    judge(await bothIrToOnnx('iru-f16', irOp('RandomUniform', 'opset8', (b) => [
      b.init('s', tensorFromInt64([N])), b.init('lo', makeTensor('f16', [], new Uint8Array(new Uint16Array([f32ToF16Bits(2)]).buffer))),
      b.init('hi', makeTensor('f16', [], new Uint8Array(new Uint16Array([f32ToF16Bits(6)]).buffer))),
    ], { output_type: 'f16', global_seed: '0', op_seed: '3' })), 'f16', [N], (x) => uniformLaw(x, 2, 6));
    judge(await bothIrToOnnx('iru-int', irOp('RandomUniform', 'opset8', (b) => [
      b.init('s', tensorFromInt64([N])), b.init('lo', tensorFromInt64([-2], [])), b.init('hi', tensorFromInt64([5], [])),
    ], { output_type: 'i64', global_seed: '0', op_seed: '0' })), 'i64', [N], (x) => categoricalLaw(Float64Array.from(x, (v) => v + 2), [1, 1, 1, 1, 1, 1, 1].map((v) => v / 7)));
  });

  // OpenVINO 2026.4 refuses 1-D probabilities (its shape inference wants 2-D, against its spec):
  // ovir's 1-D form (one row) is checked in test/convert/random-ops.test.ts.
  it('Multinomial-13: probabilities (log_probs false), log-probabilities, i64 and i32', async () => {
    const p = [0.05, 0.5, 0.15, 0.3];
    judge(await bothIrToOnnx('imn1', irOp('Multinomial', 'opset13', (b) => [b.input('p', 'f32', [1, 4]), b.init('n', tensorFromInt64([N], []))],
      { convert_type: 'i64', with_replacement: 'true', log_probs: 'false', global_seed: '0', op_seed: '0' }), { p: f32Tensor(p.map((v) => v * 2), [1, 4]) }),
    'i64', [1, N], (x) => categoricalLaw(x, p));
    // f64 probabilities: onnxruntime's Multinomial takes f32 only; ovir's ONNX Casts them
    judge(await bothIrToOnnx('imn64', irOp('Multinomial', 'opset13', (b) => [b.input('p', 'f64', [1, 4]), b.init('n', tensorFromInt64([N], []))],
      { convert_type: 'i64', with_replacement: 'true', log_probs: 'false', global_seed: '0', op_seed: '0' }), { p: f64Tensor(p, [1, 4]) }),
    'i64', [1, N], (x) => categoricalLaw(x, p));
    const rows = [p, [0.25, 0.25, 0.25, 0.25]];
    judge(await bothIrToOnnx('imn2', irOp('Multinomial', 'opset13', (b) => [b.input('p', 'f32', [2, 4]), b.init('n', tensorFromInt64([N / 2]))],
      { convert_type: 'i32', with_replacement: 'true', log_probs: 'true', global_seed: '0', op_seed: '4' }), { p: f32Tensor(rows.flat().map(Math.log), [2, 4]) }),
    'i32', [2, N / 2], (x) => rows.flatMap((pr, r) => categoricalLaw(x.slice(r * N / 2, (r + 1) * N / 2), pr)));
  });
});
