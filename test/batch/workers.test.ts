import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { convertBatch } from '../../src/batch/batch.js';
import type { BatchEvent } from '../../src/batch/types.js';
import { runInChild } from '../../src/batch/run-ort.js';
import { Model, defaultOnnxInfo, tensorFromInt32, tensorType } from '../../src/graph/index.js';
import { saveModel } from '../../src/io/load.js';
import { builtDist, repo } from '../helpers/build-dist.js';
import { listFiles, zoo } from './fixtures.js';

/**
 * The worker pool runs the compiled worker (dist/src/batch/worker.js): build it when any source
 * is newer. The crash and hang markers are test hooks read by the worker (see src/batch/worker.ts).
 */
beforeAll(() => {
  expect(existsSync(builtDist('src/batch/worker.js'))).toBe(true);
}, 180_000);

afterEach(() => {
  delete process.env.OVIR_TEST_WORKER_CRASH;
  delete process.env.OVIR_TEST_WORKER_HANG;
  delete process.env.OVIR_TEST_WORKER_BOOT_FAIL;
  delete process.env.OVIR_TEST_WORKER_HEAP_MB;
});

const temps = (dir: string) => listFiles(dir).filter((f) => f.split('/').pop()!.startsWith('.'));

describe('batch in worker threads', () => {
  it('converts in parallel and reports models in sorted input order', async () => {
    const root = zoo({ 'c.onnx': 'onnx', 'a.onnx': 'onnx', 'b/x.xml': 'ir', 'd.onnx': 'onnx' });
    const events: BatchEvent[] = [];
    const report = await convertBatch([join(root, 'in')], { outDir: join(root, 'out'), jobs: 2, onEvent: (e) => events.push(e) });
    expect(report).toMatchObject({ total: 4, converted: 4, failed: 0, skipped: 0 });
    expect(report.models.map((m) => m.input)).toEqual(['a.onnx', 'b/x.xml', 'c.onnx', 'd.onnx'].map((f) => join(root, 'in', f)));
    expect(events[0]).toEqual({ type: 'start', total: 4 });
    expect(events.filter((e) => e.type === 'model-start')).toHaveLength(4);
    expect(events.filter((e) => e.type === 'model-done').map((e) => (e as { done: number }).done)).toEqual([1, 2, 3, 4]);
    expect(events.at(-1)).toEqual({ type: 'end', report });
  });

  it('--roundtrip --run: input and round trip run in onnxruntime (in a child process) on the same random inputs', async () => {
    const root = zoo({ 'a.onnx': 'onnx', 'b.xml': 'ir' });
    const report = await convertBatch([join(root, 'in')], { outDir: join(root, 'out'), jobs: 2, roundtrip: true, run: true });
    const [a, b] = report.models;
    expect(a!.check).toMatchObject({ ok: true, roundtrip: { ok: true, contradiction: 0 }, run: { ok: true, maxAbsDiff: 0 } });
    expect(a!.check!.run!.skipped).toBeUndefined();
    expect(b!.check).toMatchObject({ ok: true, roundtrip: { ok: true }, run: { ok: true, skipped: expect.stringMatching(/IR/) } });
  });

  it('--run: onnxruntime crashing natively (SIGFPE on integer division by zero) ends only its child process', async () => {
    const m = new Model('onnx');
    m.onnx = defaultOnnxInfo(17);
    const x = m.graph.addInput(tensorType('i32', [2]), ['x']);
    const div = m.graph.addNode({ dialect: 'onnx', op: 'Div', version: '17', name: 'div' });
    div.addInput(x);
    div.addInput(m.graph.addInitializer(tensorFromInt32([0], [1]), ['zero']));
    m.graph.outputs.push(div.addOutput(tensorType('i32', [2]), ['y']));
    const file = join(zoo({}), 'fpe.onnx');
    saveModel(m, file);
    expect(await runInChild(file, file)).toEqual({ ok: true, skipped: 'onnxruntime was killed by SIGFPE running the input' });
  });

  it('a killed worker fails only its model; the others convert and no temp file is left', async () => {
    process.env.OVIR_TEST_WORKER_CRASH = 'crashme';
    const root = zoo({ 'a.onnx': 'onnx', 'crashme.onnx': 'onnx', 'z.xml': 'ir', 'zz.onnx': 'onnx' });
    const report = await convertBatch([join(root, 'in')], { outDir: join(root, 'out'), jobs: 2 });
    expect(report.models.map((m) => m.status)).toEqual(['converted', 'failed', 'converted', 'converted']);
    expect(report.models[1]!.error).toMatch(/worker .*stopped.*exited with code: 70/);
    expect(listFiles(join(root, 'out'))).toEqual(['a.bin', 'a.xml', 'z.onnx', 'zz.bin', 'zz.xml']);
  });

  it('a model that outgrows its worker\'s heap limit fails alone (V8 stops that worker); the others convert and the report is written', async () => {
    // (a runaway model used to grow its worker to the process's 16 GB limit until the kernel killed the batch)
    process.env.OVIR_TEST_WORKER_HEAP_MB = '32'; // room for a worker's code and a small model (16 MB left none: a small one failed too once), not for 40,000 nodes
    const root = zoo({ 'a.onnx': 'onnx', 'z.xml': 'ir' });
    const m = new Model('onnx');
    m.onnx = defaultOnnxInfo(17);
    let v = m.graph.addInput(tensorType('i32', [2]), ['x']);
    for (let i = 0; i < 40_000; i++) {
      const n = m.graph.addNode({ dialect: 'onnx', op: 'Neg', version: '17', name: `n${i}` });
      n.addInput(v);
      v = n.addOutput(tensorType('i32', [2]), [`v${i}`]);
    }
    m.graph.outputs.push(v);
    saveModel(m, join(root, 'in', 'big.onnx'));
    const report = await convertBatch([join(root, 'in')], { outDir: join(root, 'out'), jobs: 2 });
    expect(report.models.map((r) => [r.input.split('/').pop(), r.status])).toEqual([['a.onnx', 'converted'], ['big.onnx', 'failed'], ['z.xml', 'converted']]);
    expect(report.models[1]!.error).toMatch(/worker converting this model stopped .*memory limit/);
    expect(listFiles(join(root, 'out'))).toEqual(['a.bin', 'a.xml', 'z.onnx']);
  });

  it('workers that cannot start: every model fails with the reason, nothing hangs', async () => {
    process.env.OVIR_TEST_WORKER_BOOT_FAIL = '1';
    const root = zoo({ 'a.onnx': 'onnx', 'b.onnx': 'onnx', 'c.onnx': 'onnx', 'd.onnx': 'onnx', 'e.onnx': 'onnx' });
    const report = await convertBatch([join(root, 'in')], { outDir: join(root, 'out'), jobs: 2 });
    expect(report).toMatchObject({ total: 5, failed: 5 });
    for (const m of report.models) expect(m.error).toMatch(/the worker fails while starting/);
    expect(listFiles(join(root, 'out'))).toEqual([]);
  });

  it('--timeout stops a hung model\'s worker: it fails as timed out, the rest go on, its temp file is removed', async () => {
    process.env.OVIR_TEST_WORKER_HANG = 'hang';
    const root = zoo({ 'a.onnx': 'onnx', 'hang.onnx': 'onnx', 'b.onnx': 'onnx', 'c.onnx': 'onnx' });
    const report = await convertBatch([join(root, 'in')], { outDir: join(root, 'out'), jobs: 2, timeoutMs: 6000 });
    expect(report.models.map((m) => m.status)).toEqual(['converted', 'converted', 'converted', 'failed']);
    expect(report.models[3]!.error).toMatch(/timed out after 6000 ms/);
    expect(temps(join(root, 'out'))).toEqual([]);
    expect(listFiles(join(root, 'out'))).toEqual(['a.bin', 'a.xml', 'b.bin', 'b.xml', 'c.bin', 'c.xml']);
  });

  it('an abort (Ctrl-C) stops the workers: unfinished models are interrupted (not failed), no temp or partial file is left', async () => {
    process.env.OVIR_TEST_WORKER_HANG = 'hang';
    const root = zoo({ 'a.onnx': 'onnx', 'hang1.onnx': 'onnx', 'hang2.onnx': 'onnx', 'z1.onnx': 'onnx', 'z2.onnx': 'onnx' });
    const out = join(root, 'out');
    const ac = new AbortController();
    const report = await convertBatch([join(root, 'in')], {
      outDir: out, jobs: 2, signal: ac.signal,
      onEvent: (e) => {
        // Abort once both hung workers have staged their temp files.
        if (e.type === 'model-start' && e.input.includes('hang2')) {
          const poll = setInterval(() => { if (temps(out).length >= 2) { clearInterval(poll); ac.abort(); } }, 20);
        }
      },
    });
    expect(report.models.map((m) => [m.status, m.error])).toEqual([
      ['converted', null],
      ['interrupted', 'interrupted while converting'],
      ['interrupted', 'interrupted while converting'],
      ['interrupted', 'not started: the batch was interrupted'],
      ['interrupted', 'not started: the batch was interrupted'],
    ]);
    expect(report).toMatchObject({ total: 5, converted: 1, failed: 0, interrupted: 4 });
    expect(listFiles(out)).toEqual(['a.bin', 'a.xml']);
  });

  it('the CLI on SIGINT exits 130, writes the report, and leaves no temp file', async () => {
    const root = zoo({ 'a.onnx': 'onnx', 'hang.onnx': 'onnx' });
    const out = join(root, 'out');
    const child = spawn(process.execPath, [join(repo, 'bin/ovir.js'), 'batch', join(root, 'in'), '-o', out, '--jobs', '2', '--report', join(root, 'r.json')], {
      env: { ...process.env, OVIR_TEST_WORKER_HANG: 'hang' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (b: Buffer) => { stdout += b.toString(); });
    child.stderr!.on('data', (b: Buffer) => { stderr += b.toString(); });
    const code = await new Promise<number | null>((resolve) => {
      // SIGINT once the batch itself has taken a.onnx's result (its "[1/2] converted" line on stdout:
      // a.xml on disk alone may still be on its way from the worker, and a then counts as
      // interrupted) and the hanging model is being written
      const poll = setInterval(() => {
        if (temps(out).length && /converted \S*a\.onnx/.test(stdout)) { clearInterval(poll); child.kill('SIGINT'); }
      }, 20);
      child.on('exit', (c) => { clearInterval(poll); resolve(c); });
    });
    expect(code).toBe(130);
    expect(temps(out)).toEqual([]);
    expect(listFiles(root).filter((f) => f.startsWith('out/'))).toEqual(['out/.ovir-batch.json', 'out/a.bin', 'out/a.xml']);
    expect(existsSync(join(root, 'r.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(root, 'r.json'), 'utf8'))).toMatchObject({ total: 2, converted: 1, failed: 0, interrupted: 1 });
    expect(stderr).toContain(`ovir batch: interrupted: 1 of 2 models not converted; report written to ${join(root, 'r.json')}`);
  }, 30_000);
});
