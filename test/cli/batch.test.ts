import { readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { BatchReport } from '../../src/batch/types.js';
import { loadModel } from '../../src/io/load.js';
import { listFiles, snapshot, zoo } from '../batch/fixtures.js';
import { runCli } from './run-cli.js';

// These run in the main thread (--jobs 0: no dist/ build needed); the worker pool has its own
// tests in test/batch/workers.test.ts.
const batch = (...args: string[]) => runCli('batch', '--jobs', '0', ...args);
const readReport = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as BatchReport;

describe('ovir batch', () => {
  it('mirrors a directory tree under --out-dir, each model into the other format; inputs untouched', async () => {
    const root = zoo({ 'a/m1.onnx': 'onnx', 'b/c/m2.xml': 'ir', 'm3.onnx': 'onnx' });
    const before = snapshot(join(root, 'in'));
    const r = await batch(join(root, 'in'), '--out-dir', join(root, 'out'), '--quiet');
    expect(r.code).toBe(0);
    expect(listFiles(join(root, 'out'))).toEqual(['a/m1.bin', 'a/m1.xml', 'b/c/m2.onnx', 'm3.bin', 'm3.xml']);
    expect(snapshot(join(root, 'in'))).toEqual(before);
    expect(loadModel(join(root, 'out/a/m1.xml')).dialect).toBe('ov');
    expect(loadModel(join(root, 'out/b/c/m2.onnx')).dialect).toBe('onnx');
  });

  it('an existing file as --out-dir is a usage error naming it, not "0 models" (the model given as --out-dir was left out of the inputs)', async () => {
    const root = zoo({ 'm.onnx': 'onnx' });
    const model = join(root, 'in', 'm.onnx');
    const r = await batch(model, '--out-dir', model);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--out-dir ${model} is a file, not a directory`);
  });

  it('globs mirror from their static base; --to picks one target format for all', async () => {
    const root = zoo({ 'x/a.onnx': 'onnx', 'y/b.xml': 'ir', 'y/c.onnx': 'onnx' });
    const r = await batch(`${root}/in/**/*.onnx`, '--out-dir', join(root, 'out'), '--to', 'onnx', '--quiet');
    expect(r.code).toBe(0);
    expect(listFiles(join(root, 'out'))).toEqual(['x/a.onnx', 'y/c.onnx']);
    const r2 = await batch(join(root, 'in'), '--out-dir', join(root, 'out2'), '--to', 'ir', '--quiet');
    expect(r2.code).toBe(0);
    expect(listFiles(join(root, 'out2'))).toEqual(['x/a.bin', 'x/a.xml', 'y/b.bin', 'y/b.xml', 'y/c.bin', 'y/c.xml']);
  });

  it('keeps going past a corrupt model: it fails with its reason, the rest convert, exit 1; --report and --junit say so', async () => {
    const root = zoo({ 'a.onnx': 'onnx', 'bad.onnx': 'corrupt', 'bad2.xml': 'corrupt', 'z.xml': 'ir' });
    const report = join(root, 'report.json');
    const junit = join(root, 'junit.xml');
    const r = await batch(join(root, 'in'), '-o', join(root, 'out'), '--report', report, '--junit', junit);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`failed: ${join(root, 'in', 'bad.onnx')}`);
    const rep = readReport(report);
    expect(rep).toMatchObject({ total: 4, converted: 2, failed: 2, skipped: 0 });
    expect(rep.models.map((m) => [m.input, m.status])).toEqual([
      [join(root, 'in/a.onnx'), 'converted'], [join(root, 'in/bad.onnx'), 'failed'],
      [join(root, 'in/bad2.xml'), 'failed'], [join(root, 'in/z.xml'), 'converted'],
    ]);
    expect(rep.models[0]).toMatchObject({ outputs: [join(root, 'out/a.xml'), join(root, 'out/a.bin')], error: null, check: null });
    expect(rep.models[0]!.ms).toBeGreaterThanOrEqual(0);
    for (const m of rep.models.filter((x) => x.status === 'failed')) expect(m.error).toMatch(/\[[A-Z_]+\]/);
    expect(listFiles(join(root, 'out'))).toEqual(['a.bin', 'a.xml', 'z.onnx']); // nothing for the bad ones
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(junit, 'utf8'));
    const cases = doc.testsuites.testsuite.testcase as { name: string; failure?: unknown }[];
    expect(cases.map((c) => [c.name, c.failure !== undefined])).toEqual(rep.models.map((m) => [m.input, m.status === 'failed']));
    expect(r.stdout).toMatch(/4 models: 2 converted, 2 failed, 0 skipped/);
  });

  it('--shard i/n: a deterministic partition: shards are disjoint and together convert everything', async () => {
    const files = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`d${i % 3}/m${i}.onnx`, 'onnx' as const]));
    const root = zoo(files);
    const inputsOf = async (shard: string, out: string) => {
      const report = join(root, `${out}.json`);
      const r = await batch(join(root, 'in'), '-o', join(root, out), '--shard', shard, '--report', report, '--quiet');
      expect(r.code).toBe(0);
      return readReport(report).models.map((m) => m.input);
    };
    const s1 = await inputsOf('1/3', 'o1');
    const s2 = await inputsOf('2/3', 'o2');
    const s3 = await inputsOf('3/3', 'o3');
    expect([...s1, ...s2, ...s3].sort()).toEqual(Object.keys(files).map((f) => join(root, 'in', f)).sort());
    expect(new Set([...s1, ...s2, ...s3]).size).toBe(7);
    expect(await inputsOf('2/3', 'o2again')).toEqual(s2);
    expect((await batch(join(root, 'in'), '-o', join(root, 'x'), '--shard', '4/3')).code).toBe(2);
  });

  it('--resume skips models whose outputs are newer than the input, and converts the changed ones', async () => {
    const root = zoo({ 'a.onnx': 'onnx', 'b.xml': 'ir' });
    const out = join(root, 'out');
    expect((await batch(join(root, 'in'), '-o', out, '--quiet')).code).toBe(0);
    const old = Date.now() / 1000 - 3600;
    for (const f of ['a.onnx', 'b.xml', 'b.bin']) utimesSync(join(root, 'in', f), old, old);
    const report = join(root, 'r.json');
    expect((await batch(join(root, 'in'), '-o', out, '--resume', '--report', report, '--quiet')).code).toBe(0);
    expect(readReport(report)).toMatchObject({ total: 2, converted: 0, skipped: 2 });
    const future = Date.now() / 1000 + 3600;
    utimesSync(join(root, 'in', 'b.bin'), future, future); // the weights changed
    expect((await batch(join(root, 'in'), '-o', out, '--resume', '--report', report, '--quiet')).code).toBe(0);
    expect(readReport(report).models.map((m) => m.status)).toEqual(['skipped', 'converted']);
  });

  it('never overwrites an input: an output that would land on an input fails that model', async () => {
    const root = zoo({ 'm.onnx': 'onnx', 'k.xml': 'ir' });
    const before = snapshot(join(root, 'in'));
    const report = join(root, 'r.json');
    const r = await batch(join(root, 'in'), '-o', join(root, 'in'), '--to', 'onnx', '--report', report, '--quiet');
    expect(r.code).toBe(1);
    const rep = readReport(report);
    expect(rep.models.map((m) => m.status)).toEqual(['converted', 'failed']);
    expect(rep.models[1]!.error).toMatch(/would overwrite input itself/);
    const after = snapshot(join(root, 'in'));
    for (const f of Object.keys(before)) expect(after[f]).toBe(before[f]);
  });

  it('--check records the equivalence check of each conversion', async () => {
    const root = zoo({ 'a.onnx': 'onnx' });
    const report = join(root, 'r.json');
    const r = await batch(join(root, 'in'), '-o', join(root, 'out'), '--check', '--report', report, '--quiet');
    expect(r.code).toBe(0);
    const m = readReport(report).models[0]!;
    expect(m.check).toMatchObject({ ok: true, conversion: { ok: true, contradiction: 0 } });
    expect(m.check!.conversion!.equal + m.check!.conversion!.compatible).toBeGreaterThan(0);
  });

  it('--roundtrip converts back and checks the result against the input', async () => {
    const root = zoo({ 'a.onnx': 'onnx', 'b.xml': 'ir' });
    const report = join(root, 'r.json');
    const r = await batch(join(root, 'in'), '-o', join(root, 'out'), '--roundtrip', '--report', report, '--quiet');
    expect(r.code).toBe(0);
    for (const m of readReport(report).models) {
      expect(m.check).toMatchObject({ ok: true, roundtrip: { ok: true, contradiction: 0 } });
      expect(m.check!.run).toBeUndefined();
    }
  });

  it.each([
    ['no --out-dir', ['batch', 'in']],
    ['an unknown --to', ['batch', 'in', '-o', 'out', '--to', 'tflite']],
    ['a path that does not exist', ['batch', '/nonexistent/zoo', '-o', 'out']],
    ['a bad --jobs', ['batch', 'in', '-o', 'out', '--jobs', 'many']],
    ['a bad --input', ['batch', 'in', '-o', 'out', '--input', 'x']],
    ['--run without --roundtrip', ['batch', '/tmp', '-o', 'out', '--run']],
  ])('usage error (exit 2): %s', async (_, args) => {
    expect((await runCli(...args)).code).toBe(2);
  });
});
