/**
 * IR TensorIterator → ONNX Loop (the port maps ONNX Scan cannot express), judged by the engines on
 * TensorIterators built with OpenVINO's own Python API (scripts/gen-tensor-iterator-cases.py):
 * parts of 2 and 3 (stride = part_size), forward and reverse, along axes 0, 1 and 2; partial ranges
 * (negative end, start -1 with a positive end, a start OpenVINO does not offset by); last values of
 * a Result that is no back-edge source; run-time lengths; no sliced input; an If inside the body
 * and the TensorIterator inside an If. Also Loop-5 forms OpenVINO runs that ONNX spells otherwise:
 * an i32 or [1] current_iteration Parameter, a [1] body condition, trip count 0 (constant or
 * given), an execution condition given false, a body condition constant false.
 * For each: OpenVINO on the IR gives the expected outputs; ovir's IR → ONNX passes onnx's checker,
 * holds a Loop, and runs in onnxruntime with the same outputs; that ONNX → IR runs in OpenVINO with
 * the same outputs again.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { compareTensors } from '../helpers/compare.js';
import { Oracle, REPO_ROOT, VENV_PYTHON, type OracleTensor } from '../helpers/oracle.js';

interface Case { name: string; inputs: Record<string, [number[], 'f32' | 'boolean' | 'i64']> }

let oracle: Oracle;
let tmp: string;
let cases: Case[] = [];

/** The cases are generated before the tests are collected: it.each needs their names. */
const genDir = mkdtempSync(join(tmpdir(), 'ovir-ti-loop-'));
execFileSync(VENV_PYTHON, [join(REPO_ROOT, 'scripts', 'gen-tensor-iterator-cases.py'), genDir], { stdio: 'pipe' });
cases = JSON.parse(readFileSync(join(genDir, 'cases.json'), 'utf8')) as Case[];

beforeAll(async () => {
  oracle = await Oracle.start();
  tmp = mkdtempSync(join(tmpdir(), 'ovir-ti-loop-out-'));
});

afterAll(async () => {
  await oracle?.close();
  for (const d of [tmp, genDir]) if (d) rmSync(d, { recursive: true, force: true });
});

function f32Tensor(shape: number[], seed: number): OracleTensor {
  let s = seed * 2654435761 >>> 0;
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Uint8Array(n * 4);
  const dv = new DataView(data.buffer);
  for (let i = 0; i < n; i++) { s = (s * 1103515245 + 12345) >>> 0; dv.setFloat32(i * 4, (s / 2 ** 32) * 4 - 2, true); }
  return { dtype: 'f32', shape, data };
}

/**
 * Two feeds where the case has control inputs (boolean c: true then false, both If branches and
 * a Loop that runs or not; i64 M: 3 then 0 iterations), one otherwise; random f32 data.
 */
function feeds(c: Case): Record<string, OracleTensor>[] {
  const control = Object.values(c.inputs).some(([, t]) => t !== 'f32');
  return (control ? [true, false] : [true]).map((on) => Object.fromEntries(Object.entries(c.inputs).map(([n, [shape, t]], k): [string, OracleTensor] => {
    if (t === 'boolean') return [n, { dtype: 'boolean', shape, data: Uint8Array.of(on ? 1 : 0) }];
    if (t === 'i64') return [n, { dtype: 'i64', shape, data: new Uint8Array(new BigInt64Array([on ? 3n : 0n]).buffer) }];
    return [n, f32Tensor(shape, k + 1)];
  })));
}

function differences(what: string, want: Record<string, OracleTensor>, got: Record<string, OracleTensor>): string[] {
  return Object.keys(want).flatMap((n) => {
    const d = got[n] ? compareTensors(got[n]!, want[n]!) : 'missing';
    return d ? [`${what} ${n}: ${d}`] : [];
  });
}

/** Every op of a graph and its bodies. */
function ops(g: ReturnType<typeof loadModel>['graph']): string[] {
  return g.nodes.flatMap((n) => [n.op, ...[...n.bodies.values()].flatMap((b) => ops(b.graph))]);
}

describe('IR TensorIterator / Loop-5 → ONNX Loop: onnxruntime computes what OpenVINO computes on the IR', () => {
  it.each(cases.map((c) => ({ ...c, label: c.name })))('$label', async (c) => {
    const xml = join(genDir, `${c.name}.xml`);
    const onnxModel = convertModel(loadModel(xml), { opset: 17 });
    expect(ops(onnxModel.graph)).toContain('Loop');
    expect(ops(onnxModel.graph)).not.toContain('Scan');
    const onnx = join(tmp, `${c.name}.onnx`);
    saveModel(onnxModel, onnx);
    const checked = await oracle.onnxCheck(onnx);
    expect(checked.error ?? null).toBeNull();
    const again = join(tmp, `${c.name}.again.xml`);
    saveModel(convertModel(loadModel(onnx)), again);
    for (const feed of feeds(c)) {
      const want = await oracle.runIr(xml, feed);
      expect(differences('onnxruntime on IR → ONNX', want, await oracle.runOrt(onnx, feed))).toEqual([]);
      const back = differences('OpenVINO on IR → ONNX → IR', want, await oracle.runIr(again, feed));
      // The round trip is judged only where OpenVINO computes ovc's own IR of that ONNX right
      // (measured: with a run-time length and a reverse Slice in the body it computes neither).
      if (back.length && differences('ovc', want, await oracle.runIr(await oracle.ovcCached(onnx), feed)).length) continue;
      expect(back).toEqual([]);
    }
  });
});
