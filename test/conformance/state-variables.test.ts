/**
 * IR → ONNX of stateful models (OpenVINO's ReadValue / Assign), judged by the engines:
 * state-variables.py builds stateful IRs with OpenVINO's Python API (a constant init, an f16
 * init behind a Convert, ReadValue-6 without an init, two variables feeding each other,
 * ReadValue-3 / Assign-3); ovir converts each to ONNX (each variable a graph input with the
 * initial value as its default, its new value a `<variable>.next` output); then three inference
 * calls of OpenVINO on the stateful IR and of onnxruntime on the ONNX, the ONNX's `.next` outputs
 * fed back as the next call's inputs, must give the same outputs and the same variable values
 * after every call (f32 rtol 1e-4). The ONNX converted back to IR is stateful again (the metadata
 * `ovir.state_variables` and the `.initial` initializers): OpenVINO on it gives the original's
 * outputs and variable values after every call.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import type { Diagnostic } from '../../src/diag/diagnostic.js';
import { REPO_ROOT, VENV_PYTHON } from '../helpers/oracle.js';

const SCRIPT = join(REPO_ROOT, 'test', 'conformance', 'state-variables.py');
let tmp: string;
let cases: Record<string, { inputs: Record<string, number[]> }>;
const warnings = new Map<string, Diagnostic[]>();

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'ovir-state-'));
  cases = JSON.parse(execFileSync(VENV_PYTHON, [SCRIPT, 'build', tmp], { encoding: 'utf8' })) as typeof cases;
  for (const name of Object.keys(cases)) {
    const got: Diagnostic[] = [];
    saveModel(convertModel(loadModel(join(tmp, `${name}.xml`)), { onWarning: (d) => got.push(d) }), join(tmp, `${name}.onnx`));
    saveModel(convertModel(loadModel(join(tmp, `${name}.onnx`)), { onWarning: (d) => got.push(d) }), join(tmp, `${name}.back.xml`));
    warnings.set(name, got);
  }
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('stateful IR → ONNX (→ IR): onnxruntime fed its own .next outputs, and OpenVINO on the round trip, agree with OpenVINO over three calls', () => {
  it('writes every case', () => {
    expect(Object.keys(cases).length).toBeGreaterThanOrEqual(5);
    expect(readdirSync(tmp).filter((f) => f.endsWith('.onnx')).length).toBe(Object.keys(cases).length);
    expect(readdirSync(tmp).filter((f) => f.endsWith('.back.xml')).length).toBe(Object.keys(cases).length);
  });

  it('reports each variable it made explicit (CONVERT_STATE_VARIABLE), and made a variable again (CONVERT_STATE_RESTORED)', () => {
    for (const [name, ds] of warnings) {
      expect(ds.some((d) => d.code === 'CONVERT_STATE_VARIABLE'), name).toBe(true);
      expect(ds.some((d) => d.code === 'CONVERT_STATE_RESTORED'), name).toBe(true);
    }
  });

  it('every output and every variable agree after each call', () => {
    const verdicts = JSON.parse(execFileSync(VENV_PYTHON, [SCRIPT, 'judge', tmp], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as Record<string, string | null>;
    expect(Object.keys(verdicts).sort()).toEqual(Object.keys(cases).sort());
    expect(Object.entries(verdicts).filter(([, v]) => v !== null)).toEqual([]);
  });
});
