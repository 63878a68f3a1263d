import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { builtDist } from '../helpers/build-dist.js';
import { A } from '../../src/graph/index.js';
import { Builder } from '../convert/builder.js';
import { subModel, writeBoth, writeEdited } from './trust-fixtures.js';

/**
 * `ovir check --run`: both forms run in onnxruntime (in a child process: the compiled
 * dist/src/batch/ort-child.js, built here when a source is newer) on seeded random inputs.
 */
beforeAll(() => {
  expect(existsSync(builtDist('src/batch/ort-child.js'))).toBe(true);
}, 180_000);

describe('ovir check --run', () => {
  const f = writeBoth(subModel(), 'run');

  it('our IR runs like its source: exit 0; the report says the IR was converted to ONNX to be run', async () => {
    const r = await runCli('check', f.onnx, f.xml, '--run');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`run: B (${f.xml}) is IR: converted to ONNX by ovir to run in onnxruntime\n`);
    expect(r.stdout).toMatch(/^run: same outputs in onnxruntime on seeded random inputs \(f32 rtol 1e-4, atol 1e-5; largest difference /m);
  });

  it('one file: the form made in memory is run too', async () => {
    const r = await runCli('check', f.onnx, '--run');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`run: B (${f.onnx} (as ov)) is IR: converted to ONNX by ovir to run in onnxruntime\n`);
  });

  it('what the types cannot see, the forms and the engine do: Add where the source has Sub is exit 1, named, and with --run the outputs that differ', async () => {
    // Both branches (the random condition picks either): then's x - z and else's z - x become sums.
    const edited = f.text.replaceAll('type="Subtract"', 'type="Add"');
    const xml = writeEdited(f, 'add', edited);
    // the same types everywhere, but not the same ops: not proven (it was "equivalent", exit 0)
    const formsOnly = await runCli('check', f.onnx, xml);
    expect(formsOnly.code).toBe(1);
    expect(formsOnly.stdout).toContain('Subtract (opset1) in A, Add (opset1) in B');
    expect(formsOnly.stdout).toMatch(/^NOT proven \(the computation is written differently at 2 places/m);
    const r = await runCli('check', f.onnx, xml, '--run', '--json');
    expect(r.code).toBe(1);
    const o = JSON.parse(r.stdout.trim()) as { ok: boolean; run: { ok: boolean; detail: string; converted: string[] } };
    expect(o.ok).toBe(false);
    expect(o.run.ok).toBe(false);
    expect(o.run.detail).toMatch(/'y[01]': \d+ of 8 values differ/);
  }, 60_000);
});

describe('ovir check --run on a model that draws random numbers', () => {
  it('outputs that differ are not judged (two generators, one law): exit 0, saying which ops draw and what differed', async () => {
    const b = new Builder('onnx', 17);
    const x = b.input('x', 'f32', [8]);
    const n = b.op(b.graph, 'RandomNormalLike', [x], 'n', { seed: A.float(2) });
    b.output(b.op(b.graph, 'Add', [x, n], 'y'));
    const f = writeBoth(b.model, 'random');
    const r = await runCli('check', f.onnx, f.xml, '--run');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^run: not judged: the model draws random numbers \(RandomNormalLike, RandomUniform(Like)?\): .*'y': \d+ of 8 values differ/m);
  }, 60_000);
});

describe('ovir batch --check --run: the same path as check --run', () => {
  it('runs each input against its written conversion (an IR output converted to ONNX by ovir first)', async () => {
    const f = writeBoth(subModel(), 'batch-run');
    const out = join(f.dir, 'out');
    const report = join(f.dir, 'r.json');
    const r = await runCli('batch', '--jobs', '0', f.onnx, '-o', out, '--check', '--run', '--report', report, '--quiet');
    expect(r.code).toBe(0);
    const m = (JSON.parse(readFileSync(report, 'utf8')) as { models: { check: { ok: boolean; run: { ok: boolean; converted: string[] } } }[] }).models[0]!;
    expect(m.check.ok).toBe(true);
    expect(m.check.run.ok).toBe(true);
    expect(m.check.run.converted).toEqual([expect.stringMatching(/^B \(.*\.xml\) is IR: converted to ONNX by ovir to run in onnxruntime$/)]);
  }, 60_000);
});
