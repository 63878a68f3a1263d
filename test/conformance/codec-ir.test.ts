/**
 * IR codec against OpenVINO: for every ONNX backend test model (test/helpers/testdata.ts), ovc makes
 * reference IR (cached in .oracle/cache by model hash + OpenVINO version); we read it with
 * readIrFile and write it back with writeIrFile; OpenVINO (CPU, f32) runs ours on each
 * test_data_set and must produce the expected outputs (f32 rtol 1e-4).
 *  - ovc cannot convert the model, OpenVINO cannot run ovc's own IR, or OpenVINO on ovc's IR does
 *    not give the expected outputs ("ovc/OV mismatch"): skip (the reference engine cannot).
 *  - The data set is not plain tensors, or the bridge cannot pass a tensor: unjudged (harness).
 *  - Otherwise ours cannot be read, written, loaded or run, or differs from the expected: FAIL.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIrFile, writeIrFile } from '../../src/ir/file.js';
import { compareOutputs } from '../helpers/compare.js';
import { isHarnessLimit, Oracle, type OracleTensor } from '../helpers/oracle.js';
import { mapPool } from '../helpers/pool.js';
import { describeSuite, finishSuite, reasonOf, record, suiteResult, summaryLines, writeScoreboard, type CaseStatus } from '../helpers/scoreboard.js';
import { backendCases, inputRecord, loadDataSet, type BackendCase, type TestDataSet } from '../helpers/testdata.js';

const SUITE = 'codec-ir';
/** Bridges in parallel: modest, the machine has 2 cores. */
const WORKERS = Number(process.env.OVIR_ORACLE_WORKERS ?? 2);

type Verdict = { status: CaseStatus; reason?: string };

const oracles: Oracle[] = [];
let work = '';

async function judge(c: BackendCase, oracle: Oracle, slot: string): Promise<Verdict> {
  const sets: TestDataSet[] = [];
  for (const dir of c.dataSets) {
    try {
      sets.push(loadDataSet(dir));
    } catch (e) {
      return { status: 'unjudged', reason: `harness: test data is not plain tensors: ${reasonOf(e)}` };
    }
  }
  if (!sets.length) return { status: 'unjudged', reason: 'harness: no test_data_set' };

  let reference: string;
  try {
    reference = await oracle.ovcCached(c.model);
  } catch (e) {
    if (isHarnessLimit(e)) return { status: 'unjudged', reason: `harness: ${reasonOf(e)}` };
    return { status: 'skip', reason: `ovc cannot convert: ${reasonOf(e)}` };
  }
  // OpenVINO on ovc's own IR must give the expected outputs, else there is nothing to hold ours to.
  for (const ds of sets) {
    let theirs: Record<string, OracleTensor>;
    try {
      theirs = await oracle.runIr(reference, inputRecord(ds));
    } catch (e) {
      if (isHarnessLimit(e)) return { status: 'unjudged', reason: `harness: ${reasonOf(e)}` };
      return { status: 'skip', reason: `OpenVINO cannot run ovc's IR: ${reasonOf(e)}` };
    }
    const problems = compareOutputs(theirs, ds.outputs);
    if (problems.length) return { status: 'skip', reason: `ovc/OV mismatch: ${problems.join('; ')}` };
  }

  const dir = join(work, slot);
  mkdirSync(dir, { recursive: true });
  const ours = join(dir, 'model.xml');
  try {
    writeIrFile(readIrFile(reference), ours);
  } catch (e) {
    return { status: 'fail', reason: `read/write: ${reasonOf(e)}` };
  }
  try {
    for (const ds of sets) {
      let got: Record<string, OracleTensor>;
      try {
        got = await oracle.runIr(ours, inputRecord(ds));
      } catch (e) {
        if (isHarnessLimit(e)) return { status: 'unjudged', reason: `harness: ${reasonOf(e)}` };
        return { status: 'fail', reason: `OpenVINO cannot run ours: ${reasonOf(e)}` };
      }
      const problems = compareOutputs(got, ds.outputs);
      if (problems.length) return { status: 'fail', reason: `ours differs from the expected: ${problems.join('; ')}` };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { status: 'pass' };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovir-codec-ir-'));
  for (let i = 0; i < WORKERS; i++) oracles.push(await Oracle.start());
});

afterAll(async () => {
  await Promise.all(oracles.map((o) => o.close()));
  if (work) rmSync(work, { recursive: true, force: true });
  writeScoreboard();
});

describe('IR codec: ovc → readIrFile → writeIrFile, run in OpenVINO', () => {
  it('every IR ovc makes from a backend test model computes the expected outputs after our round trip', async () => {
    const cases = backendCases();
    expect(cases.length).toBeGreaterThan(0);
    describeSuite(
      SUITE,
      'Every ONNX backend test model: ovc makes IR (`convert_model` + `save_model`, compress_to_fp16=False); '
      + '`readIrFile` → `writeIrFile`; OpenVINO CPU (f32) runs ours on each test_data_set and must give the expected '
      + 'outputs (f32 rtol 1e-4). Skip: ovc cannot convert, or OpenVINO on ovc\'s own IR does not give the expected outputs. '
      + 'Unjudged (harness): the data set holds sequences/optionals.',
      { openvino: oracles[0]!.versions.openvino.split('-')[0]! },
    );
    let done = 0;
    const verdicts = await mapPool(cases, WORKERS, async (c, w) => {
      let v: Verdict;
      try {
        v = await judge(c, oracles[w]!, `w${w}`);
      } catch (e) {
        v = { status: 'fail', reason: `harness crashed: ${reasonOf(e)}` };
      }
      if (++done % 250 === 0) process.stdout.write(`${SUITE}: ${done}/${cases.length}\n`);
      return v;
    });
    const fails: string[] = [];
    cases.forEach((c, i) => {
      const v = verdicts[i]!;
      record(SUITE, c.name, v.status, v.reason);
      if (v.status === 'fail') fails.push(`${c.name}: ${v.reason}`);
    });
    finishSuite(SUITE);
    const { counts } = suiteResult(SUITE);
    process.stdout.write(`${summaryLines().filter((l) => l.startsWith(`${SUITE}:`)).join('\n')}\n`);
    for (const f of fails.slice(0, 100)) process.stdout.write(`  FAIL ${f}\n`);
    expect(counts.pass).toBeGreaterThan(0);
    expect(fails).toEqual([]);
  });
});
