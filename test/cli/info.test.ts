import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveModel } from '../../src/io/load.js';
import { nestedIfModel } from './fixtures.js';
import { runCli } from './run-cli.js';

let dir: string;
let onnx: string;
let ir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ovir-info-'));
  onnx = join(dir, 'nested.onnx');
  ir = join(dir, 'nested.xml');
  saveModel(nestedIfModel('onnx', 3), onnx);
  saveModel(nestedIfModel('ov', 2), ir);
});

const lines = (s: string) => s.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('ovir info --json', () => {
  it('ONNX: every node counted, bodies included, Constant included; inputs/outputs with OpenVINO dtype names', async () => {
    const r = await runCli('info', '--json', onnx);
    expect(r.code).toBe(0);
    const [info] = lines(r.stdout);
    expect(info).toEqual({
      path: onnx,
      format: 'onnx',
      ops: { Add: 1, Constant: 1, If: 3, Neg: 3, Relu: 1 },
      inputs: [{ name: 'cond', dtype: 'boolean', shape: [] }, { name: 'x', dtype: 'f32', shape: ['N', 3] }],
      outputs: [{ name: 'y', dtype: 'f32', shape: ['N', 3] }],
      maxDepth: 3,
      variables: [],
    });
  });

  it('IR: layer types as written, Parameter/Const/Result counted in every graph', async () => {
    const r = await runCli('info', '--json', ir);
    expect(r.code).toBe(0);
    const [info] = lines(r.stdout);
    // main: 2 Parameters, 1 Const, 1 Result; If_0: 2 bodies; If_1 (in If_0's then): 2 bodies;
    // each of the 4 bodies has 2 Parameters and 1 Result.
    expect(info).toMatchObject({
      path: ir,
      format: 'ir',
      ops: { Add: 1, Const: 1, If: 2, Negative: 2, Parameter: 2 + 4 * 2, ReLU: 1, Result: 1 + 4 },
      inputs: [{ name: 'cond', dtype: 'boolean', shape: [] }, { name: 'x', dtype: 'f32' }],
      maxDepth: 2,
    });
  });

  it('one line per input in input order, path echoed as given; an unreadable file gets an error line and exit 1 after all', async () => {
    const bad = join(dir, 'corrupt.onnx');
    writeFileSync(bad, Buffer.from([0x08, 0xff, 0xff, 0xff, 0x0a, 0x99, 0x01, 0x02]));
    const r = await runCli('info', '--json', bad, onnx, join(dir, 'missing.xml'), join(dir, 'notes.txt'), ir);
    expect(r.code).toBe(1);
    const out = lines(r.stdout);
    expect(out.map((o) => o.path)).toEqual([bad, onnx, join(dir, 'missing.xml'), join(dir, 'notes.txt'), ir]);
    expect(out.map((o) => 'error' in o)).toEqual([true, false, true, true, false]);
    for (const o of [out[0]!, out[2]!, out[3]!]) {
      expect(Object.keys(o).sort()).toEqual(['diagnostics', 'error', 'path']);
      expect(String(o.error)).toMatch(/\[[A-Z_]+\]/); // a coded diagnostic, not a stack trace
      expect((o.diagnostics as { code: string }[]).map((d) => d.code)).toEqual([String(o.error).match(/\[([A-Z_]+)\]/)![1]]);
    }
  });

  it('without --json: a readable summary per model', async () => {
    const r = await runCli('info', onnx, ir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${onnx}  (ONNX)`);
    expect(r.stdout).toContain(`${ir}  (OpenVINO IR)`);
    expect(r.stdout).toMatch(/x: f32\[N,3\]/);
    expect(r.stdout).toMatch(/nodes: 9 of 5 types, body nesting depth 3/);
  });

  it('no paths is a usage error (exit 2)', async () => {
    expect((await runCli('info')).code).toBe(2);
  });
});
