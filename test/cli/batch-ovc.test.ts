import { readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchReport } from '../../src/batch/types.js';
import { loadModel } from '../../src/io/load.js';
import { zoo } from '../batch/fixtures.js';
import { runCli } from './run-cli.js';

const batch = (...args: string[]) => runCli('batch', '--jobs', '0', ...args);
const readReport = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as BatchReport;

describe('ovir batch: resume by options, the shared conversion options', () => {
  it('--resume re-converts when the options that shape the output differ (fp16 added, then an --input), skips when they match', async () => {
    const root = zoo({ 'a.onnx': 'onnx', 'b.onnx': 'onnx' });
    const out = join(root, 'out');
    const report = join(root, 'r.json');
    expect((await batch(join(root, 'in'), '-o', out, '--quiet')).code).toBe(0);
    const old = Date.now() / 1000 - 3600;
    for (const f of ['a.onnx', 'b.onnx']) utimesSync(join(root, 'in', f), old, old);
    const statuses = async (...extra: string[]) => {
      expect((await batch(join(root, 'in'), '-o', out, '--resume', '--report', report, '--quiet', ...extra)).code).toBe(0);
      return readReport(report).models.map((m) => m.status);
    };
    expect(await statuses()).toEqual(['skipped', 'skipped']);
    expect(await statuses('--compress-to-fp16')).toEqual(['converted', 'converted']); // f32 outputs are not what was asked
    expect(await statuses('--compress_to_fp16=True')).toEqual(['skipped', 'skipped']); // the same option, ovc's spelling
    expect(await statuses('--compress-to-fp16', '--input', 'x[2,3]')).toEqual(['converted', 'converted']);
    expect(await statuses()).toEqual(['converted', 'converted']); // back to the defaults
  });

  it('takes convert\'s --input list and --output; their usage errors exit 2', async () => {
    const root = zoo({ 'a.onnx': 'onnx' });
    const out = join(root, 'out');
    expect((await batch(join(root, 'in'), '-o', out, '--quiet', '--input', '[?,3]', '--output', 'y')).code).toBe(0);
    const x = loadModel(join(out, 'a.xml')).graph.inputs[0]!;
    expect(x.type).toMatchObject({ kind: 'tensor', shape: [null, 3] });
    expect((await batch(join(root, 'in'), '-o', join(root, 'o2'), '--input', 'x[2,3')).code).toBe(2);
    expect((await batch(join(root, 'in'), '-o', join(root, 'o3'), '--to', 'onnx', '--compress-to-fp16')).code).toBe(2);
    const report = join(root, 'r.json');
    expect((await batch(join(root, 'in'), '-o', join(root, 'o4'), '--output', 'nope', '--report', report, '--quiet')).code).toBe(1);
    const m = readReport(report).models[0]!;
    expect(m.error).toMatch(/--output nope: the model has no tensor named 'nope'.*\[CONVERT_BAD_OPTION\]/);
    expect(m.diagnostics?.map((d) => d.code)).toEqual(['CONVERT_BAD_OPTION']); // every diagnostic in the report
  });
});
