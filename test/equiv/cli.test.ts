import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { saveModel } from '../../src/io/load.js';
import { defaultOnnxInfo } from '../../src/graph/index.js';
import { runCli } from '../cli/run-cli.js';
import { ifModel } from './fixtures.js';

/**
 * `ovir check` on real files: an ONNX model written by our encoder, the IR our converter makes of
 * it, and that IR with its then_port_map edited by hand to feed the body from the wrong If input.
 */
function files() {
  const dir = mkdtempSync(join(tmpdir(), 'ovir-check-'));
  const { model } = ifModel({ dialect: 'onnx', inputs: { x: [2, 4], z: [3, 4] }, then: ['x'], else: ['z'] });
  model.onnx = defaultOnnxInfo(13);
  const onnx = join(dir, 'if.onnx');
  saveModel(model, onnx);
  const xml = join(dir, 'if.xml');
  saveModel(convertModel(model, { to: 'ov' }), xml);
  // The hand edit: <then_port_map>'s input entry names the other data input of the If (x ↔ z;
  // inputs 1 and 2, in whichever order the converter put them).
  const text = readFileSync(xml, 'utf8');
  const edited = text.replace(/(<then_port_map>\s*<input external_port_id=")([12])(")/, (_m, pre: string, id: string, post: string) => `${pre}${id === '1' ? '2' : '1'}${post}`);
  expect(edited).not.toBe(text);
  const bad = join(dir, 'edited.xml');
  writeFileSync(bad, edited);
  writeFileSync(join(dir, 'edited.bin'), readFileSync(join(dir, 'if.bin')));
  return { dir, onnx, xml, bad };
}

describe('ovir check', () => {
  const f = files();

  it('one file: converts it in memory, exit 0, a summary line', async () => {
    const r = await runCli('check', f.onnx);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`check ${f.onnx}  against  ${f.onnx} (as ov)`);
    expect(r.stdout).toMatch(/^equivalent: 7 equal, 1 compatible, 0 contradictions$/m);
  });

  it('--verbose also lists compatible entries, saying which side is more precise', async () => {
    const r = await runCli('check', f.onnx, '-v');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("compatible (B more precise): 'y' in main\n  A main/If_0:0  f32[?,4]\n  B main/If_0:0  f32[2..3,4]\n");
  });

  it('two files as given: the source against our IR, exit 0', async () => {
    const r = await runCli('check', f.onnx, f.xml);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^equivalent: /m);
  });

  it('--if-merge openvino for both forms: the If output becomes equal too', async () => {
    const r = await runCli('check', f.onnx, f.xml, '--if-merge', 'openvino');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^equivalent: 8 equal, 0 compatible, 0 contradictions$/m);
  });

  it('a hand-edited IR against its source: exit 1, contradictions first, with both body paths', async () => {
    const r = await runCli('check', f.onnx, f.bad);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toBe("contradiction: 'x' in main/If_0/then");
    expect(lines[2]).toMatch(/^ {2}A main\/If_0\/then\/x {2}f32\[2,4\]$/);
    expect(lines[3]).toMatch(/^ {2}B main\/If_0\/then\/\S+ {2}f32\[3,4\]$/);
    expect(lines[4]).toBe('  dim 0: 2 vs 3');
    expect(r.stdout).toContain(`warning: ${f.bad}: main/If_0: then body: parameter 'x' is fed from node input`);
    expect(r.stdout).toContain('main/If_0/then/x ← main/z in B, ← main/x in A');
    expect(r.stdout).toMatch(/^NOT equivalent: \d+ equal, \d+ compatible, 3 contradictions$/m);
  });

  it('--json: one object per comparison per line; --roundtrip adds the there-and-back comparison', async () => {
    const r = await runCli('check', f.onnx, '--roundtrip', '--json');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { a: string; b: string; ok: boolean; entries: { status: string }[] });
    expect(lines.map((l) => [l.a, l.b, l.ok])).toEqual([
      [f.onnx, `${f.onnx} (as ov)`, true],
      [f.onnx, `${f.onnx} (to ov and back)`, true],
    ]);
    expect(lines[1]!.entries.every((e) => e.status === 'equal')).toBe(true);
  });

  it('--json on a contradiction: ok false, exit 1', async () => {
    const r = await runCli('check', f.onnx, f.bad, '--json');
    expect(r.code).toBe(1);
    const o = JSON.parse(r.stdout.trim()) as { ok: boolean; entries: { status: string; pathA: string }[] };
    expect(o.ok).toBe(false);
    expect(o.entries[0]).toMatchObject({ status: 'contradiction', pathA: 'main/If_0/then/x' });
  });

  it('a file that cannot be read: exit 1 with its diagnostic; no arguments: usage error, exit 2', async () => {
    const r = await runCli('check', join(f.dir, 'missing.onnx'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('missing.onnx');
    expect((await runCli('check')).code).toBe(2);
    expect((await runCli('check', f.onnx, '--if-merge', 'bogus')).code).toBe(2);
  });
});
