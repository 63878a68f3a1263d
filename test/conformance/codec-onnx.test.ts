/**
 * ONNX codec against onnxruntime: every ONNX backend test model (test/helpers/testdata.ts) is read
 * with readOnnxFile and written back with encodeOnnx; onnxruntime-node runs both the original and
 * ours on each test_data_set's inputs.
 *  - onnxruntime-node cannot load or run the original: the oracle's python onnxruntime (newer, reads newer
 *    IR versions, every element type) runs both instead. Neither can: skip (the reference engine cannot),
 *    with the reason. The data set is not plain tensors, or no engine bridge can pass a tensor:
 *    unjudged (a harness limit).
 *  - The original runs but ours cannot be read, encoded, loaded or run: FAIL.
 *  - Ours computes other numbers than the original (f32 rtol 1e-4): FAIL — unless the original
 *    disagrees with itself on a second run (random ops: Bernoulli, training Dropout…), then skip.
 * The expected outputs in the data set are compared with the original's too, for the record only
 * (that is ORT's conformance, not ours).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Model } from '../../src/graph/model.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { readOnnxFile } from '../../src/onnx/file.js';
import { compareOutputs } from '../helpers/compare.js';
import { isHarnessLimit, Oracle, oracleAvailable, type OracleTensor } from '../helpers/oracle.js';
import { cleanOrtMessage, runOrt } from '../helpers/ort.js';
import { describeSuite, finishSuite, reasonOf, record, suiteResult, summaryLines, writeScoreboard, type CaseStatus } from '../helpers/scoreboard.js';
import { backendCases, inputRecord, loadDataSet, type BackendCase, type TestDataSet } from '../helpers/testdata.js';
import ortPackage from 'onnxruntime-node/package.json' with { type: 'json' };

const SUITE = 'codec-onnx';

type Verdict = { status: CaseStatus; reason?: string };

const asNamed = (rec: Record<string, OracleTensor>, names: readonly { name: string }[]) =>
  names.map(({ name }, i) => ({ name, tensor: (rec[name] ?? rec[`#${i}`])! })).filter((x) => x.tensor);

async function judge(c: BackendCase): Promise<Verdict> {
  const sets: TestDataSet[] = [];
  for (const dir of c.dataSets) {
    try {
      sets.push(loadDataSet(dir));
    } catch (e) {
      return { status: 'unjudged', reason: `harness: test data is not plain tensors: ${reasonOf(e)}` };
    }
  }
  if (!sets.length) return { status: 'unjudged', reason: 'harness: no test_data_set' };

  // The original in ORT first: what it cannot do is not ours to judge.
  let engine: Engine = nodeEngine;
  let originals: Record<string, OracleTensor>[];
  try {
    originals = await runAll(engine, { path: c.model }, sets);
  } catch (e) {
    const nodeWhy = cleanOrtMessage(reasonOf(e));
    if (!oracle) return { status: isHarnessLimit(e) ? 'unjudged' : 'skip', reason: `ORT cannot run the original: ${nodeWhy}` };
    engine = pythonEngine;
    try {
      originals = await runAll(engine, { path: c.model }, sets);
    } catch (e2) {
      const pyWhy = cleanOrtMessage(reasonOf(e2));
      return { status: isHarnessLimit(e2) ? 'unjudged' : 'skip', reason: `ORT cannot run the original: ${pyWhy}${pyWhy === nodeWhy ? '' : ` (onnxruntime-node: ${nodeWhy})`}` };
    }
  }

  let ours: Encoded;
  try {
    const model: Model = readOnnxFile(c.model);
    const enc = encodeOnnx(model);
    ours = { bytes: enc.bytes, external: enc.external.map((f) => ({ path: f.path, data: concat(f.chunks) })) };
  } catch (e) {
    return { status: 'fail', reason: `decode/encode: ${reasonOf(e)}` };
  }

  for (let k = 0; k < sets.length; k++) {
    const ds = sets[k]!;
    let got: Record<string, OracleTensor>;
    try {
      got = await engine.run({ encoded: ours }, inputRecord(ds));
    } catch (e) {
      if (isHarnessLimit(e)) return { status: 'unjudged', reason: `harness: ${engine.name} cannot be given ours: ${reasonOf(e)}` };
      return { status: 'fail', reason: `${engine.name} cannot run ours: ${cleanOrtMessage(reasonOf(e))}` };
    }
    const reference = asNamed(originals[k]!, ds.outputs.length ? ds.outputs : Object.keys(originals[k]!).filter((n) => !n.startsWith('#')).map((name) => ({ name })));
    const problems = compareOutputs(got, reference);
    if (problems.length) {
      const again = await engine.run({ path: c.model }, inputRecord(ds));
      if (compareOutputs(again, reference).length) {
        return { status: 'skip', reason: `nondeterministic: the original gives different outputs on two runs` };
      }
      return { status: 'fail', reason: `ours differs from the original in ${engine.name}: ${problems.join('; ')}` };
    }
  }
  return { status: 'pass' };
}

interface Encoded { bytes: Uint8Array; external: { path: string; data: Uint8Array }[] }
type ModelRef = { path: string } | { encoded: Encoded };
interface Engine { name: string; run(m: ModelRef, inputs: Record<string, OracleTensor>): Promise<Record<string, OracleTensor>> }

let oracle: Oracle | null = null;
let work = '';

const nodeEngine: Engine = {
  name: 'onnxruntime-node',
  run: (m, inputs) => ('path' in m
    ? runOrt(m.path, inputs)
    : runOrt(m.encoded.bytes, inputs, m.encoded.external.length ? { externalData: m.encoded.external } : {})),
};

let written = 0;
const pythonEngine: Engine = {
  name: 'onnxruntime (python)',
  run: async (m, inputs) => {
    if ('path' in m) return oracle!.runOrt(m.path, inputs);
    const dir = join(work, String(written++));
    const path = join(dir, 'model.onnx');
    mkdirSync(dir, { recursive: true });
    for (const f of m.encoded.external) {
      mkdirSync(dirname(join(dir, f.path)), { recursive: true });
      writeFileSync(join(dir, f.path), f.data);
    }
    writeFileSync(path, m.encoded.bytes);
    try {
      return await oracle!.runOrt(path, inputs);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

async function runAll(engine: Engine, m: ModelRef, sets: readonly TestDataSet[]): Promise<Record<string, OracleTensor>[]> {
  const out: Record<string, OracleTensor>[] = [];
  for (const ds of sets) out.push(await engine.run(m, inputRecord(ds)));
  return out;
}

function concat(chunks: readonly Uint8Array[] | Uint8Array | string): Uint8Array {
  if (typeof chunks === 'string') return new TextEncoder().encode(chunks);
  if (chunks instanceof Uint8Array) return chunks;
  return new Uint8Array(Buffer.concat(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength))));
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovir-codec-onnx-'));
  if (oracleAvailable()) oracle = await Oracle.start();
});

afterAll(async () => {
  await oracle?.close();
  if (work) rmSync(work, { recursive: true, force: true });
  writeScoreboard();
});

describe('ONNX codec: decode → encode, run in onnxruntime-node', () => {
  it('every backend test model computes what the original computes', async () => {
    const cases = backendCases();
    expect(cases.length).toBeGreaterThan(0);
    describeSuite(
      SUITE,
      'Every ONNX backend test model: `readOnnxFile` → `encodeOnnx`, then onnxruntime-node (or, for models it cannot load, '
      + 'the oracle\'s python onnxruntime) runs the original and ours on each test_data_set; ours must compute the same '
      + 'outputs (f32 rtol 1e-4). Skip: ORT cannot run the original, or the original is nondeterministic. '
      + 'Unjudged (harness): the data set holds sequences/optionals.',
      oracle ? { 'onnxruntime-node': ortPackage.version, onnxruntime: oracle.versions.onnxruntime } : { 'onnxruntime-node': ortPackage.version },
    );
    const fails: string[] = [];
    for (const c of cases) {
      let v: Verdict;
      try {
        v = await judge(c);
      } catch (e) {
        v = { status: 'fail', reason: `harness crashed: ${reasonOf(e)}` };
      }
      record(SUITE, c.name, v.status, v.reason);
      if (v.status === 'fail') fails.push(`${c.name}: ${v.reason}`);
    }
    finishSuite(SUITE);
    const { counts } = suiteResult(SUITE);
    process.stdout.write(`${summaryLines().filter((l) => l.startsWith(`${SUITE}:`)).join('\n')}\n`);
    for (const f of fails.slice(0, 100)) process.stdout.write(`  FAIL ${f}\n`);
    expect(counts.pass).toBeGreaterThan(0);
    expect(fails).toEqual([]);
  });
});
