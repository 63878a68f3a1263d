/**
 * scikit-learn models as skl2onnx exports them (test/conformance/sklearn-models.py trains each on
 * seeded random data at test time, with the oracle venv's pinned scikit-learn and skl2onnx):
 * linear models, SVMs, tree ensembles, k-NN, naive Bayes, MLPs, decompositions, discretizers,
 * imputers and column transformers, in the ai.onnx.ml domain and ordinary ops as a real converter
 * writes them (its graphs, its declared shapes). onnxruntime on the exported model gives the
 * expected outputs (test inputs with outliers: every fifth sample scaled by 80); OpenVINO on ovir's
 * IR must give the same (f32 rtol 1e-4, labels exactly), and so must onnxruntime on that IR
 * converted back to ONNX. Where OpenVINO's CPU plugin is known to compute the graph wrongly (the
 * case says why, measured on ovc's IR of the same graph too), only the round trip is judged.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { compareTensors } from '../helpers/compare.js';
import { Oracle, REPO_ROOT, VENV_PYTHON, type OracleTensor } from '../helpers/oracle.js';

interface WireInput { dtype: string; shape: number[]; hex: string }
interface Case { name: string; onnx: string; inputs: Record<string, WireInput>; openvino: string | null }

let oracle: Oracle;
let tmp: string;
const tmpRoot = mkdtempSync(join(tmpdir(), 'ovir-sklearn-'));
const CASES: Case[] = JSON.parse(execFileSync(VENV_PYTHON, [join(REPO_ROOT, 'test/conformance/sklearn-models.py'), tmpRoot], { encoding: 'utf8' })) as Case[];

beforeAll(async () => {
  oracle = await Oracle.start();
  tmp = mkdtempSync(join(tmpdir(), 'ovir-sklearn-out-'));
});

afterAll(async () => {
  await oracle?.close();
  for (const d of [tmp, tmpRoot]) if (d) rmSync(d, { recursive: true, force: true });
});

const tensor = (w: WireInput): OracleTensor => ({ dtype: w.dtype, shape: w.shape, data: new Uint8Array(Buffer.from(w.hex, 'hex')) });

describe("skl2onnx exports → IR: OpenVINO on ovir's IR, and onnxruntime on IR → ONNX, compute what onnxruntime computes on the export", () => {
  it.each(CASES)('$name', async (c) => {
    const inputs = Object.fromEntries(Object.entries(c.inputs).map(([n, w]) => [n, tensor(w)]));
    const want = await oracle.runOrt(c.onnx, inputs);
    const count = Object.keys(want).filter((k) => k.startsWith('#')).length;
    expect(count).toBeGreaterThan(0);
    const xml = join(tmp, `${c.name}.xml`);
    saveModel(convertModel(loadModel(c.onnx)), xml);
    const diffs: string[] = [];
    const judge = (what: string, got: Record<string, OracleTensor>): void => {
      for (let i = 0; i < count; i++) {
        const d = got[`#${i}`] ? compareTensors(got[`#${i}`]!, want[`#${i}`]!) : 'missing';
        if (d) diffs.push(`${what} output ${i}: ${d}`);
      }
    };
    if (c.openvino === null) judge('OpenVINO on the IR', await oracle.runIr(xml, inputs));
    const back = join(tmp, `${c.name}.rt.onnx`);
    saveModel(convertModel(loadModel(xml)), back);
    judge('onnxruntime on IR → ONNX', await oracle.runOrt(back, inputs));
    expect(diffs).toEqual([]);
  });
});
