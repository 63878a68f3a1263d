/**
 * Conversion judged by the engines, over every ONNX backend test model and the real models of
 * scripts/fetch-npm-models.sh:
 *  - convert-onnx-ir: model.onnx → convertModel → IR; OpenVINO (CPU, f32) runs it on each
 *    test_data_set and must give the expected outputs. ovir refusing with a clean diagnostic is a
 *    skip (the diagnostic is the reason); an INTERNAL diagnostic, a crash, IR OpenVINO cannot load,
 *    or wrong numbers are FAILs, unless OpenVINO on ovc's own IR cannot do it either (skip
 *    "reference engine cannot").
 *  - convert-ir-onnx: ovc's IR of the same models (the codec-ir cache) → convertModel (ONNX opset
 *    17) → onnxruntime-node must give the expected outputs; same skip/fail rules.
 *  - real-models: Silero VAD and openWakeWord (npm packages, pinned): ONNX → IR in OpenVINO ==
 *    onnxruntime on the original with seeded random inputs (both If branches of Silero: sr 16000
 *    and 8000), and ONNX → IR → ONNX in onnxruntime == the original. Absent models skip (locally)
 *    or fail (CI=true).
 */
import { KNOWN_IR_TO_ONNX_FAILURES } from './known-failures.js';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import type { Model } from '../../src/graph/model.js';
import { readIrFile, writeIrFile } from '../../src/ir/file.js';
import { readOnnxFile, writeOnnxFile } from '../../src/onnx/file.js';
import { compareOutputs } from '../helpers/compare.js';
import { Oracle, REPO_ROOT, type OracleTensor } from '../helpers/oracle.js';
import { cleanOrtMessage, runOrt } from '../helpers/ort.js';
import { mapPool } from '../helpers/pool.js';
import { describeSuite, reasonOf, record, suiteResult, summaryLines, writeScoreboard } from '../helpers/scoreboard.js';
import { backendCases, inputRecord, loadDataSet, type BackendCase, type TestDataSet } from '../helpers/testdata.js';

const WORKERS = Number(process.env.OVIR_ORACLE_WORKERS ?? 2);
const NPM_MODELS = join(REPO_ROOT, '.oracle', 'npm-models');
/** OVIR_ZOO_FILTER=<regexp> (case-insensitive): only the backend cases whose name matches, for working on a few ops; the scoreboard is then not written. */
const FILTER = process.env.OVIR_ZOO_FILTER ? new RegExp(process.env.OVIR_ZOO_FILTER, 'i') : undefined;

type Verdict = { status: 'pass' | 'fail' | 'skip'; reason?: string };

const oracles: Oracle[] = [];
let work = '';

/** An engine error as a reason: the lines that say what went wrong, without C++ source locations. */
function engineReason(e: unknown): string {
  const text = (e instanceof Error ? e.message : String(e)).trim();
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !/^(RuntimeError: )?Exception from |^\[ GENERAL_ERROR \]$/.test(l));
  const picked = lines.filter((l) => !/^Check '.*' failed at /.test(l)).slice(0, 3);
  return (picked.length ? picked : lines.slice(0, 2)).join(' | ').slice(0, 600) || reasonOf(e);
}

/** A conversion verdict from a thrown error: clean diagnostics skip, anything else fails. */
function refusal(e: unknown, what: string): Verdict {
  if (e instanceof OvirError) {
    const errs = e.diagnostics.filter((d) => d.severity === 'error');
    const first = errs[0];
    const text = first ? `${first.code} ${first.where}: ${first.message}` : e.message;
    if (errs.some((d) => d.code === 'INTERNAL')) return { status: 'fail', reason: `${what}: internal error: ${text}` };
    return { status: 'skip', reason: `${what} refused: ${text}${errs.length > 1 ? ` (+${errs.length - 1} more)` : ''}` };
  }
  return { status: 'fail', reason: `${what} crashed: ${reasonOf(e)}` };
}

function loadSets(c: BackendCase): TestDataSet[] | Verdict {
  const sets: TestDataSet[] = [];
  for (const dir of c.dataSets) {
    try { sets.push(loadDataSet(dir)); } catch (e) { return { status: 'skip', reason: `test data is not plain tensors: ${reasonOf(e)}` }; }
  }
  return sets.length ? sets : { status: 'skip', reason: 'no test_data_set' };
}

/** Whether OpenVINO on ovc's IR gives the expected outputs (null) or why not. */
async function referenceProblem(c: BackendCase, sets: TestDataSet[], oracle: Oracle): Promise<{ xml: string } | { why: string }> {
  let xml: string;
  try { xml = await oracle.ovcCached(c.model); } catch (e) { return { why: `reference engine cannot: ovc cannot convert: ${reasonOf(e)}` }; }
  for (const ds of sets) {
    try {
      const p = compareOutputs(await oracle.runIr(xml, inputRecord(ds)), ds.outputs);
      if (p.length) return { why: `reference engine cannot: OpenVINO on ovc's IR differs: ${p[0]}` };
    } catch (e) {
      return { why: `reference engine cannot: OpenVINO cannot run ovc's IR: ${engineReason(e)}` };
    }
  }
  return { xml };
}

async function judgeOnnxToIr(c: BackendCase, oracle: Oracle, slot: string): Promise<Verdict> {
  const sets = loadSets(c);
  if (!Array.isArray(sets)) return sets;
  let ir: Model;
  try { ir = convertModel(readOnnxFile(c.model)); } catch (e) { return refusal(e, 'ONNX → IR'); }
  const dir = join(work, slot);
  mkdirSync(dir, { recursive: true });
  const xml = join(dir, 'model.xml');
  try {
    try { writeIrFile(ir, xml); } catch (e) { return refusal(e, 'writing IR'); }
    let problem: string | null = null;
    for (const ds of sets) {
      try {
        const p = compareOutputs(await oracle.runIr(xml, inputRecord(ds)), ds.outputs);
        if (p.length) { problem = `ours differs from the expected: ${p.join('; ')}`; break; }
      } catch (e) {
        problem = `OpenVINO cannot run ours: ${engineReason(e)}`;
        break;
      }
    }
    if (problem === null) return { status: 'pass' };
    const ref = await referenceProblem(c, sets, oracle);
    return 'why' in ref ? { status: 'skip', reason: ref.why } : { status: 'fail', reason: problem };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function judgeIrToOnnx(c: BackendCase, oracle: Oracle, slot: string): Promise<Verdict> {
  const sets = loadSets(c);
  if (!Array.isArray(sets)) return sets;
  const ref = await referenceProblem(c, sets, oracle);
  if ('why' in ref) return { status: 'skip', reason: ref.why };
  let onnx: Model;
  try { onnx = convertModel(readIrFile(ref.xml), { to: 'onnx' }); } catch (e) { return refusal(e, 'IR → ONNX'); }
  const dir = join(work, slot);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'model.onnx');
  try {
    try { writeOnnxFile(onnx, path); } catch (e) { return refusal(e, 'writing ONNX'); }
    for (const ds of sets) {
      let got: Record<string, OracleTensor>;
      try { got = await runOrt(path, inputRecord(ds)); } catch (e) { return { status: 'fail', reason: `onnxruntime cannot run ours: ${cleanOrtMessage(reasonOf(e))}` }; }
      const p = compareOutputs(got, ds.outputs);
      if (p.length) return { status: 'fail', reason: `ours differs from the expected: ${p.join('; ')}` };
    }
    return { status: 'pass' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ── real models ───────────────────────────────────────────────────────────────────────────────

/** Every .onnx under .oracle/npm-models, one per distinct content (packages ship copies). */
function realModels(): { name: string; path: string }[] {
  if (!existsSync(NPM_MODELS)) return [];
  const out: { name: string; path: string }[] = [];
  const seen = new Set<string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) { if (e !== 'node_modules') walk(p); continue; }
      if (!e.endsWith('.onnx')) continue;
      const h = createHash('sha256').update(readFileSync(p)).digest('hex');
      if (seen.has(h)) continue;
      seen.add(h);
      out.push({ name: p.slice(NPM_MODELS.length + 1), path: p });
    }
  };
  walk(NPM_MODELS);
  return out;
}

/** A small seeded generator (mulberry32), so the inputs are the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Inputs of sensible shapes for a real model: Silero audio windows of 512 samples at 16 kHz and
 * 256 at 8 kHz (amplitude 0.1), recurrent state zero, sr as given; other inputs their declared
 * shape (unknown dims 1) with values in [-1, 1). Returns the inputs and their static shapes.
 */
function realInputs(m: Model, sr: number | null, seed: number): Record<string, OracleTensor> {
  const next = rng(seed);
  const out: Record<string, OracleTensor> = {};
  for (const v of m.graph.inputs) {
    const t = v.type;
    if (!t || t.kind !== 'tensor') throw new Error(`input ${v.name} has no tensor type`);
    let shape = (t.shape ?? []).map((d) => (typeof d === 'number' ? d : 1));
    const name = v.name;
    if (name === 'sr') { out[name] = { dtype: 'i64', shape: [], data: new Uint8Array(new BigInt64Array([BigInt(sr ?? 16000)]).buffer) }; continue; }
    const isState = name === 'state' || name === 'h' || name === 'c';
    if (!isState && shape.length === 2 && shape[1] === 1 && t.shape?.[1] !== 1) shape = [1, sr === 8000 ? 256 : 512];
    const n = shape.reduce((a, b) => a * b, 1);
    const vals = Array.from({ length: n }, () => (isState ? 0 : (next() * 2 - 1) * (shape.length === 2 ? 0.1 : 1)));
    if (t.elem === 'f32') out[name] = { dtype: 'f32', shape, data: new Uint8Array(new Float32Array(vals).buffer) };
    else if (t.elem === 'f16') {
      const f = new Float32Array(vals);
      const h = new Uint16Array(n);
      // round through f32 → f16 bits (values are small and normal)
      const dv = new DataView(f.buffer);
      for (let i = 0; i < n; i++) {
        const x = dv.getUint32(i * 4, true);
        const sign = (x >>> 16) & 0x8000;
        const exp = ((x >>> 23) & 0xff) - 127 + 15;
        h[i] = exp <= 0 ? sign : sign | (exp << 10) | ((x >>> 13) & 0x3ff);
      }
      out[name] = { dtype: 'f16', shape, data: new Uint8Array(h.buffer) };
    } else throw new Error(`input ${name}: element type ${t.elem} not generated`);
  }
  return out;
}

/** The model with its inputs fixed to the shapes of `inputs` (what ovc's --input does). */
function withStaticInputs(m: Model, inputs: Record<string, OracleTensor>): Model {
  for (const v of m.graph.inputs) {
    const t = v.type;
    const x = inputs[v.name];
    if (t?.kind === 'tensor' && x) v.type = { kind: 'tensor', elem: t.elem, shape: [...x.shape] };
  }
  return m;
}

async function judgeReal(path: string, oracle: Oracle, slot: string): Promise<Verdict[]> {
  const probe = readOnnxFile(path);
  const hasSr = probe.graph.inputs.some((v) => v.name === 'sr');
  const verdicts: Verdict[] = [];
  const dir = join(work, slot);
  mkdirSync(dir, { recursive: true });
  try {
    for (const sr of hasSr ? [16000, 8000] : [null]) {
      const inputs = realInputs(probe, sr, 1234);
      const expected = await runOrt(path, inputs);
      const want = Object.entries(expected).filter(([k]) => !k.startsWith('#')).map(([name, tensor]) => ({ name, tensor }));
      let ir: Model;
      try { ir = convertModel(withStaticInputs(readOnnxFile(path), inputs)); } catch (e) {
        const v = refusal(e, 'ONNX → IR');
        verdicts.push({ status: 'fail', reason: `sr=${sr}: ${v.reason}` }, { status: 'fail', reason: `sr=${sr}: no IR to round-trip` });
        continue;
      }
      const xml = join(dir, 'model.xml');
      writeIrFile(ir, xml);
      try {
        const p = compareOutputs(await oracle.runIr(xml, inputs), want);
        verdicts.push(p.length ? { status: 'fail', reason: `sr=${sr}: OpenVINO on ours differs from onnxruntime: ${p.join('; ')}` } : { status: 'pass' });
      } catch (e) {
        // The reference: can ovc convert it and OpenVINO run that?
        let refOk = false;
        try { await oracle.runIr(await oracle.ovcCached(path), inputs); refOk = true; } catch { /* reference cannot either */ }
        verdicts.push(refOk
          ? { status: 'fail', reason: `sr=${sr}: OpenVINO cannot run ours: ${engineReason(e)}` }
          : { status: 'skip', reason: `sr=${sr}: reference engine cannot (ovc/OpenVINO fail on it too); ours: ${engineReason(e)}` });
      }
      // The round trip starts from the model as published (dynamic shapes), not the fixed-shape one.
      let back: Model;
      try {
        const xml2 = join(dir, 'dynamic.xml');
        writeIrFile(convertModel(readOnnxFile(path)), xml2);
        back = convertModel(readIrFile(xml2), { to: 'onnx' });
      } catch (e) {
        verdicts.push({ status: 'fail', reason: `sr=${sr}: round trip: ${refusal(e, 'ONNX → IR → ONNX').reason}` });
        continue;
      }
      const onnxPath = join(dir, 'back.onnx');
      writeOnnxFile(back, onnxPath);
      try {
        const p = compareOutputs(await runOrt(onnxPath, inputs), want);
        verdicts.push(p.length ? { status: 'fail', reason: `sr=${sr}: round trip differs from the original: ${p.join('; ')}` } : { status: 'pass' });
      } catch (e) {
        verdicts.push({ status: 'fail', reason: `sr=${sr}: onnxruntime cannot run the round trip: ${cleanOrtMessage(reasonOf(e))}` });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return verdicts;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovir-convert-zoo-'));
  for (let i = 0; i < WORKERS; i++) oracles.push(await Oracle.start());
});

afterAll(async () => {
  await Promise.all(oracles.map((o) => o.close()));
  if (work) rmSync(work, { recursive: true, force: true });
  if (!FILTER) writeScoreboard();
});

async function runSuite(
  suite: string, cases: BackendCase[], judge: (c: BackendCase, o: Oracle, slot: string) => Promise<Verdict>,
  known: ReadonlyMap<string, string> = new Map(),
): Promise<string[]> {
  let done = 0;
  const verdicts = await mapPool(cases, WORKERS, async (c, w) => {
    let v: Verdict;
    try { v = await judge(c, oracles[w]!, `w${w}`); } catch (e) { v = { status: 'fail', reason: `harness: ${reasonOf(e)}` }; }
    if (++done % 250 === 0) process.stdout.write(`${suite}: ${done}/${cases.length}\n`);
    return v;
  });
  const fails: string[] = [];
  cases.forEach((c, i) => {
    const v = verdicts[i]!;
    const knownCause = v.status === 'fail' ? known.get(c.name) : undefined;
    record(suite, c.name, v.status, knownCause ? `known failure (${knownCause}): ${v.reason}` : v.reason);
    if (v.status === 'fail' && !knownCause) fails.push(`${c.name}: ${v.reason}`);
    if (FILTER && v.status === 'skip') process.stdout.write(`  SKIP ${c.name}: ${v.reason}\n`);
  });
  process.stdout.write(`${summaryLines().filter((l) => l.startsWith(`${suite}:`)).join('\n')}\n`);
  for (const f of fails.slice(0, 100)) process.stdout.write(`  FAIL ${f}\n`);
  return fails;
}

const versions = (): Record<string, string> => ({ openvino: oracles[0]!.versions.openvino.split('-')[0]! });

describe('conversion judged by the engines', () => {
  it('convert-onnx-ir: every backend model ovir converts to IR computes the expected outputs in OpenVINO', async () => {
    const cases = backendCases(FILTER ? { filter: FILTER } : {});
    expect(cases.length).toBeGreaterThan(0);
    describeSuite('convert-onnx-ir', 'Every ONNX backend test model → `convertModel` → IR; OpenVINO CPU (f32) runs it on each test_data_set '
      + 'and must give the expected outputs (f32 rtol 1e-4). Skip: ovir refuses with a clean diagnostic (the reason), or OpenVINO on '
      + "ovc's own IR cannot do it either.", versions());
    const fails = await runSuite('convert-onnx-ir', cases, judgeOnnxToIr);
    expect(suiteResult('convert-onnx-ir').counts.pass).toBeGreaterThan(0);
    expect(fails).toEqual([]);
  });

  it('convert-ir-onnx: ovc\'s IR of every backend model, converted to ONNX, computes the expected outputs in onnxruntime', async () => {
    const cases = backendCases(FILTER ? { filter: FILTER } : {});
    describeSuite('convert-ir-onnx', "ovc's IR of every ONNX backend test model (cached) → `convertModel` to ONNX (opset 17) → onnxruntime-node "
      + 'must give the expected outputs. Skip: ovc cannot convert or OpenVINO on its IR is wrong (reference engine cannot), or ovir '
      + 'refuses with a clean diagnostic.', versions());
    const fails = await runSuite('convert-ir-onnx', cases, judgeIrToOnnx, KNOWN_IR_TO_ONNX_FAILURES);
    expect(suiteResult('convert-ir-onnx').counts.pass).toBeGreaterThan(0);
    expect(fails).toEqual([]);
    if (!FILTER) {
      const failed = new Set(suiteResult('convert-ir-onnx').cases.filter((c) => c.status === 'fail').map((c) => c.name));
      const stale = [...KNOWN_IR_TO_ONNX_FAILURES.keys()].filter((k) => !failed.has(k));
      expect(stale, 'known failures that no longer fail: remove them from test/conformance/known-failures.ts').toEqual([]);
    }
  });

  it('real-models: Silero VAD and openWakeWord convert both ways and compute what onnxruntime computes', async () => {
    const models = realModels();
    describeSuite('real-models', 'npm models (scripts/fetch-npm-models.sh): ONNX → IR in OpenVINO == onnxruntime on the original '
      + '(seeded random inputs, inputs fixed to static shapes; Silero at sr 16000 and 8000), and ONNX → IR → ONNX in onnxruntime '
      + '== the original.', versions());
    if (!models.length) {
      if (process.env.CI === 'true') throw new Error(`no models under ${NPM_MODELS}: run scripts/fetch-npm-models.sh`);
      record('real-models', '(all)', 'skip', `no models under ${NPM_MODELS}: run scripts/fetch-npm-models.sh`);
      return;
    }
    const results = await mapPool(models, WORKERS, async (m, w) => {
      try { return await judgeReal(m.path, oracles[w]!, `r${w}`); } catch (e) { return [{ status: 'fail', reason: `harness: ${reasonOf(e)}` } as Verdict]; }
    });
    const fails: string[] = [];
    models.forEach((m, i) => {
      results[i]!.forEach((v, k) => {
        const name = `${m.name} #${k}`;
        record('real-models', name, v.status, v.reason);
        if (v.status === 'fail') fails.push(`${name}: ${v.reason}`);
      });
    });
    process.stdout.write(`${summaryLines().filter((l) => l.startsWith('real-models:')).join('\n')}\n`);
    for (const f of fails) process.stdout.write(`  FAIL ${f}\n`);
    expect(suiteResult('real-models').counts.pass).toBeGreaterThan(0);
    expect(fails).toEqual([]);
  });
});
