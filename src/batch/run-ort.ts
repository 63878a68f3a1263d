import type { ElementTypeName } from '../graph/element-type.js';
import type { Model } from '../graph/model.js';
import type * as ChildProcess from 'node:child_process';
import { builtin } from '../fs/builtin.js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RunRecord } from './types.js';

type Ort = typeof import('onnxruntime-node');
type OrtTensor = import('onnxruntime-node').Tensor;

/** Loads onnxruntime-node on demand: it is only needed for --run, so it is not a hard dependency. */
export async function loadOrt(): Promise<Ort> {
  try {
    return await import('onnxruntime-node');
  } catch (e) {
    throw new Error(`--run needs onnxruntime-node, which could not be loaded (npm install onnxruntime-node): ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** ORT tensor type, typed-array maker and random value maker for each element type we feed. */
const FEEDS: Partial<Record<ElementTypeName, { ort: string; make: (n: number, r: () => number) => ArrayLike<unknown> & object }>> = {
  f32: { ort: 'float32', make: (n, r) => Float32Array.from({ length: n }, () => r() * 2 - 1) },
  f16: { ort: 'float16', make: (n, r) => Uint16Array.from({ length: n }, () => f16Bits(r() * 2 - 1)) },
  f64: { ort: 'float64', make: (n, r) => Float64Array.from({ length: n }, () => r() * 2 - 1) },
  i64: { ort: 'int64', make: (n, r) => BigInt64Array.from({ length: n }, () => BigInt(1 + Math.floor(r() * 3))) },
  i32: { ort: 'int32', make: (n, r) => Int32Array.from({ length: n }, () => 1 + Math.floor(r() * 3)) },
  i16: { ort: 'int16', make: (n, r) => Int16Array.from({ length: n }, () => 1 + Math.floor(r() * 3)) },
  i8: { ort: 'int8', make: (n, r) => Int8Array.from({ length: n }, () => 1 + Math.floor(r() * 3)) },
  u8: { ort: 'uint8', make: (n, r) => Uint8Array.from({ length: n }, () => 1 + Math.floor(r() * 3)) },
  u16: { ort: 'uint16', make: (n, r) => Uint16Array.from({ length: n }, () => 1 + Math.floor(r() * 3)) },
  u32: { ort: 'uint32', make: (n, r) => Uint32Array.from({ length: n }, () => 1 + Math.floor(r() * 3)) },
  u64: { ort: 'uint64', make: (n, r) => BigUint64Array.from({ length: n }, () => BigInt(1 + Math.floor(r() * 3))) },
  boolean: { ort: 'bool', make: (n, r) => Uint8Array.from({ length: n }, () => (r() < 0.5 ? 1 : 0)) },
};

/** IEEE half-precision bits of a float in [-1, 1) (rounded to nearest; tiny values flush to zero). */
export function f16Bits(x: number): number {
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a < 6.103515625e-5) return sign; // below the smallest normal half: zero is close enough for random feeds
  const e = Math.floor(Math.log2(a));
  let m = Math.round((a / 2 ** e - 1) * 1024);
  let exp = e + 15;
  if (m === 1024) { m = 0; exp++; }
  return sign | (exp << 10) | m;
}

/** A small deterministic PRNG (mulberry32), seeded from the model path: reruns feed the same inputs. */
function prng(seedText: string): () => number {
  let s = 0x9e3779b9;
  for (let i = 0; i < seedText.length; i++) s = Math.imul(s ^ seedText.charCodeAt(i), 0x85ebca6b);
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Random feeds for the graph inputs of an ONNX model: unknown, symbolic and interval dims are 1
 * (an interval's minimum if it is larger), floats in [-1, 1), integers in [1, 4) (no zero divisors).
 * Returns a reason
 * instead when an input cannot be fed (non-tensor, string, unsupported element type).
 */
export function randomFeeds(ort: Ort, model: Model, seed: string): Record<string, OrtTensor> | string {
  const r = prng(seed);
  const feeds: Record<string, OrtTensor> = {};
  for (const v of model.graph.inputs) {
    if (v.constant) continue; // an input with an initializer default (ONNX IR < 4): keep the default
    const t = v.type;
    if (!t || t.kind !== 'tensor') return `input '${v.label}' is not a tensor`;
    const f = FEEDS[t.elem];
    if (!f) return `input '${v.label}' has element type ${t.elem}, which --run does not feed`;
    if (t.shape === null) return `input '${v.label}' has unknown rank`;
    const dims = t.shape.map((d) => (typeof d === 'number' ? d : d !== null && 'min' in d ? Math.max(1, d.min) : 1));
    const n = dims.reduce((a, b) => a * b, 1);
    feeds[v.name] = new ort.Tensor(f.ort as 'float32', f.make(n, r) as Float32Array, dims);
  }
  return feeds;
}

function toNumbers(data: unknown): number[] {
  const a = data as ArrayLike<number | bigint>;
  const out: number[] = new Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = Number(a[i]);
  return out;
}

/**
 * How two runs are compared and named: `|a - b| <= atol + rtol·|a|` (defaults rtol 1e-5, atol
 * 1e-6, the batch round trip's), and what the second model is called in messages.
 */
export interface RunCompareOptions { rtol?: number; atol?: number; nameB?: string; /** Seed of the random inputs (default: the first file's path). */ seed?: string }

/** Compares two runs' outputs by name: same dtype, dims, and values within the tolerance (NaN equals only NaN). */
export function compareOutputs(a: Record<string, OrtTensor>, b: Record<string, OrtTensor>, opts: RunCompareOptions = {}): RunRecord {
  const rtol = opts.rtol ?? 1e-5;
  const atol = opts.atol ?? 1e-6;
  let maxAbsDiff = 0;
  const problems: string[] = [];
  for (const [name, ta] of Object.entries(a)) {
    const tb = b[name];
    if (!tb) { problems.push(`output '${name}' missing ${opts.nameB ? `in ${opts.nameB}` : 'after the round trip'}`); continue; }
    if (ta.type !== tb.type) { problems.push(`'${name}': dtype ${ta.type} vs ${tb.type}`); continue; }
    if (ta.dims.join(',') !== tb.dims.join(',')) { problems.push(`'${name}': dims [${ta.dims.join(',')}] vs [${tb.dims.join(',')}]`); continue; }
    if (ta.type === 'string') {
      if ((ta.data as string[]).join('\0') !== (tb.data as string[]).join('\0')) problems.push(`'${name}': strings differ`);
      continue;
    }
    const xa = toNumbers(ta.data);
    const xb = toNumbers(tb.data);
    let bad = 0;
    for (let i = 0; i < xa.length; i++) {
      const p = xa[i]!, q = xb[i]!;
      if (Number.isNaN(p) && Number.isNaN(q)) continue;
      if (p === q) continue;
      const d = Math.abs(p - q);
      if (Number.isFinite(d)) maxAbsDiff = Math.max(maxAbsDiff, d);
      if (!(d <= atol + rtol * Math.abs(p))) bad++;
    }
    if (bad) problems.push(`'${name}': ${bad} of ${xa.length} values differ`);
  }
  return problems.length ? { ok: false, maxAbsDiff, detail: problems.join('; ') } : { ok: true, maxAbsDiff };
}

/**
 * How B's names pair with A's, as `ovir check` pairs the interface: by name when every one of A's
 * names is among B's, else by position when the counts agree (two files whose values were renamed);
 * null when neither holds. Returns A's name → B's name.
 */
export function pairNames(a: readonly string[], b: readonly string[]): Map<string, string> | null {
  const inB = new Set(b);
  if (a.every((n) => inB.has(n))) return new Map(a.map((n) => [n, n]));
  if (a.length === b.length) return new Map(a.map((n, i) => [n, b[i]!]));
  return null;
}

/**
 * Runs two ONNX files in onnxruntime on the same random inputs (from `model`, the first one's
 * graph) and compares their outputs; inputs and outputs pair by name, or by position (pairNames).
 */
export async function runAndCompare(fileA: string, fileB: string, model: Model, onInputRan: () => void = () => {}, opts: RunCompareOptions = {}): Promise<RunRecord> {
  const nameB = opts.nameB ?? 'the round-tripped model';
  const ort = await loadOrt();
  const feeds = randomFeeds(ort, model, opts.seed ?? fileA);
  if (typeof feeds === 'string') return { ok: true, skipped: feeds };
  const msg = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
  let sa: import('onnxruntime-node').InferenceSession;
  let oa: Record<string, OrtTensor>;
  try {
    sa = await ort.InferenceSession.create(fileA);
  } catch (e) {
    return { ok: true, skipped: `onnxruntime cannot load the input: ${msg(e)}` };
  }
  try {
    try {
      oa = await sa.run(feeds);
      onInputRan();
    } catch (e) {
      return { ok: true, skipped: `onnxruntime cannot run the input on random data: ${msg(e)}` };
    }
    let sb: import('onnxruntime-node').InferenceSession;
    try {
      sb = await ort.InferenceSession.create(fileB);
    } catch (e) {
      return { ok: false, detail: `onnxruntime cannot load ${nameB}: ${msg(e)}` };
    }
    const ins = pairNames(Object.keys(feeds), sb.inputNames);
    const outs = pairNames(sa.outputNames, sb.outputNames);
    if (!ins || !outs) {
      const [what, na, nb] = !ins ? ['inputs', Object.keys(feeds), sb.inputNames] : ['outputs', sa.outputNames, sb.outputNames];
      return { ok: false, detail: `the ${what} do not pair by name or position: [${na.join(', ')}] vs ${nameB}'s [${nb.join(', ')}]` };
    }
    try {
      const feedsB = Object.fromEntries(Object.entries(feeds).map(([n, t]) => [ins.get(n)!, t]));
      const ob = await sb.run(feedsB);
      // B's outputs under A's names, so that differences are reported in A's terms
      const renamed = Object.fromEntries([...outs].filter(([, nb]) => ob[nb]).map(([na, nb]) => [na, ob[nb]!]));
      return compareOutputs(oa, renamed, opts);
    } catch (e) {
      return { ok: false, detail: `onnxruntime cannot run ${nameB}: ${msg(e)}` };
    } finally {
      await sb.release();
    }
  } finally {
    await sa.release();
  }
}

/** The compiled child entry (dist/src/batch/ort-child.js), found as the worker file is. */
function childFile(): string {
  const here = new URL(import.meta.url);
  const f = here.pathname.endsWith('.ts')
    ? fileURLToPath(new URL('../../dist/src/batch/ort-child.js', here))
    : fileURLToPath(new URL('./ort-child.js', here));
  if (!existsSync(f)) throw new Error(`--run uses the compiled ${f}, which does not exist: run \`npm run build\` first`);
  return f;
}

/** The line the child prints once the input has run, so that a crash can be told apart. */
export const INPUT_RAN = 'ovir-ort-child: input ran';

/**
 * runAndCompare in a child process: onnxruntime is native code, and some models crash it
 * (SIGFPE on an integer division by zero, aborts in kernels), which would take a worker thread's
 * whole process down. A crash running the input makes the run `skipped`; running the round trip,
 * a failure. The child is killed after `timeoutMs`.
 */
export function runInChild(fileA: string, fileB: string, timeoutMs = 120_000, opts: RunCompareOptions = {}): Promise<RunRecord> {
  const file = childFile();
  const nameB = opts.nameB ?? 'the round-tripped model';
  return new Promise((resolve) => {
    const { spawn } = builtin<typeof ChildProcess>('node:child_process');
    const child = spawn(process.execPath, [file, fileA, fileB, JSON.stringify(opts)], { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { err += d; });
    child.on('error', (e) => resolve({ ok: false, detail: `cannot start the onnxruntime child process: ${e.message}` }));
    child.on('close', (code, signal) => {
      const lines = out.trim().split('\n');
      const ranInput = lines.includes(INPUT_RAN);
      if (code === 0) {
        try {
          resolve(JSON.parse(lines[lines.length - 1]!) as RunRecord);
          return;
        } catch { /* fall through: report the output */ }
      }
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const said = err.trim().split('\n').slice(-1)[0] ?? '';
      resolve(ranInput
        ? { ok: false, detail: `onnxruntime ${how} running ${nameB}${said ? `: ${said}` : ''}` }
        : { ok: true, skipped: `onnxruntime ${how} running the input${said ? `: ${said}` : ''}` });
    });
  });
}
