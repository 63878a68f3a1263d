import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_MAPPINGS } from '../../mappings/index.js';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import type { Model } from '../../src/graph/index.js';
import { readIrFile } from '../../src/ir/file.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { REPO_ROOT, VENV_PYTHON } from '../helpers/oracle.js';
import { SAMPLES, sampleKey } from './op-samples.js';
import { buildSampleModel as build, sampleDefaultOpset as defaultOpset } from './sample-model.js';

/**
 * Every ONNX file ovir writes is valid at its opset: onnx's own checker (full_check: schemas and
 * shape inference) accepts it and onnxruntime loads it. Written here: every mapping sample through
 * ONNX → IR → ONNX at its opsets, and the IR samples (samples/*) at opsets 11 to 25. A conversion
 * ovir refuses (a coded error) writes nothing and is not a file to check. Needs the oracle venv.
 */
const CHECK = `
import json, sys, warnings
warnings.simplefilter("ignore")
import onnx, onnxruntime as ort
so = ort.SessionOptions(); so.log_severity_level = 4
bad = {}
for p in sys.argv[1:]:
    try:
        onnx.checker.check_model(onnx.load(p), full_check=True)
        ort.InferenceSession(p, so, providers=["CPUExecutionProvider"])
    except Exception as e:
        bad[p.rsplit("/", 1)[-1]] = str(e).splitlines()[0][:300]
print(json.dumps(bad))
`;

const key = sampleKey;


const dir = mkdtempSync(join(tmpdir(), 'ovir-checker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Converts to ONNX and writes the file; a refusal (OvirError) writes nothing. */
function write(name: string, make: () => Model): 'written' | 'refused' {
  let m: Model;
  try { m = make(); } catch (e) {
    if (e instanceof OvirError) return 'refused';
    throw e;
  }
  writeFileSync(join(dir, `${name.replace(/[^\w.-]+/g, '_')}.onnx`), encodeOnnx(m).bytes);
  return 'written';
}

describe.runIf(existsSync(VENV_PYTHON))('every ONNX file ovir writes passes onnx.checker (full_check) and loads in onnxruntime', () => {
  it('mapping samples (ONNX → IR → ONNX) and IR samples at opsets 11..25', () => {
    let written = 0;
    for (const e of ALL_MAPPINGS) {
      (SAMPLES[key(e)] ?? []).forEach((s, i) => {
        for (const opset of s.opsets ?? [defaultOpset(e)]) {
          if (write(`${key(e)}#${i}@${opset}`, () => convertModel(convertModel(build(e, s, opset)), { opset })) === 'written') written++;
        }
      });
    }
    const samples = join(REPO_ROOT, 'samples');
    for (const d of readdirSync(samples).filter((x) => existsSync(join(samples, x, 'model.xml')))) {
      for (const opset of [11, 13, 14, 17, 18, 21, 25]) {
        if (write(`sample-${d}@${opset}`, () => convertModel(readIrFile(join(samples, d, 'model.xml')), { opset })) === 'written') written++;
      }
    }
    expect(written).toBeGreaterThan(100);
    const files = readdirSync(dir).map((f) => join(dir, f));
    const bad = JSON.parse(execFileSync(VENV_PYTHON, ['-c', CHECK, ...files], { encoding: 'utf8', maxBuffer: 1 << 24 })) as Record<string, string>;
    expect(bad).toEqual({});
  }, 120_000);
});
