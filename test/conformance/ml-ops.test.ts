/**
 * ONNX → IR of the classic ai.onnx.ml ops skl2onnx / onnxmltools write (mappings/ml/) and of ONNX's
 * TfIdfVectorizer over integer tokens (mappings/tensor/tfidf-vectorizer.ts), which OpenVINO has no
 * op for, judged by the engines on models test/conformance/ml-ops.py builds with
 * seeded random attributes: onnxruntime on the original model gives the expected outputs, OpenVINO
 * on ovir's IR must give the same (f32 rtol 1e-4, labels exactly), and so must onnxruntime on that
 * IR converted back to ONNX (standard ops only). The `refused` models must be refused with a coded
 * diagnostic naming the node.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { compareTensors } from '../helpers/compare.js';
import { Oracle, REPO_ROOT, VENV_PYTHON, type OracleTensor } from '../helpers/oracle.js';

interface WireInput { dtype: string; shape: number[]; hex: string }
interface Case { name: string; onnx: string; inputs: Record<string, WireInput>; refused: boolean }

let oracle: Oracle;
let tmp: string;
const tmpRoot = mkdtempSync(join(tmpdir(), 'ovir-ml-ops-'));
const CASES: Case[] = JSON.parse(execFileSync(VENV_PYTHON, [join(REPO_ROOT, 'test/conformance/ml-ops.py'), tmpRoot], { encoding: 'utf8' })) as Case[];

beforeAll(async () => {
  oracle = await Oracle.start();
  tmp = mkdtempSync(join(tmpdir(), 'ovir-ml-ops-out-'));
});

afterAll(async () => {
  await oracle?.close();
  for (const d of [tmp, tmpRoot]) if (d) rmSync(d, { recursive: true, force: true });
});

const tensor = (w: WireInput): OracleTensor => ({ dtype: w.dtype, shape: w.shape, data: new Uint8Array(Buffer.from(w.hex, 'hex')) });

describe('classic ai.onnx.ml ops → IR: OpenVINO on ovir\'s IR computes what onnxruntime computes on the model', () => {
  it.each(CASES.filter((c) => !c.refused))('$name', async (c) => {
    const inputs = Object.fromEntries(Object.entries(c.inputs).map(([n, w]) => [n, tensor(w)]));
    const want = await oracle.runOrt(c.onnx, inputs);
    const count = Object.keys(want).filter((k) => k.startsWith('#')).length;
    const xml = join(tmp, `${c.name}.xml`);
    saveModel(convertModel(loadModel(c.onnx)), xml);
    const diffs: string[] = [];
    const judge = (what: string, got: Record<string, OracleTensor>) => {
      for (let i = 0; i < count; i++) {
        const d = got[`#${i}`] ? compareTensors(got[`#${i}`]!, want[`#${i}`]!) : 'missing';
        if (d) diffs.push(`${what} output ${i}: ${d}`);
      }
    };
    judge('OpenVINO on the IR', await oracle.runIr(xml, inputs));
    // and back: the IR → ONNX in standard ops computes the same in onnxruntime
    const back = join(tmp, `${c.name}.rt.onnx`);
    saveModel(convertModel(loadModel(xml)), back);
    judge('onnxruntime on IR → ONNX', await oracle.runOrt(back, inputs));
    expect(diffs).toEqual([]);
  });

  it.each(CASES.filter((c) => c.refused))('$name is refused with a coded diagnostic', (c) => {
    let err: unknown = null;
    try { convertModel(loadModel(c.onnx)); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(OvirError);
    const diags = (err as OvirError).diagnostics;
    expect(diags.map((d) => d.code)).toContain('CONVERT_UNSUPPORTED_ATTR');
    expect(diags.every((d) => d.where.startsWith('main/'))).toBe(true);
  });
});
