import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { zoo } from '../batch/fixtures.js';
import { builtCli } from '../helpers/build-dist.js';

let cli = '';
beforeAll(() => { cli = builtCli(); }, 180_000);

/**
 * Runs `ovir <args>` with a reader that closes the pipe at once, as `ovir … | head -1` does once
 * it has its line: every write to stdout then fails with EPIPE.
 */
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => { stderr += b.toString(); });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a closed pipe (ovir … | head -1) ends quietly', () => {
  const root = zoo({ 'a.onnx': 'onnx', 'b.onnx': 'onnx', 'c.xml': 'ir', 'd.onnx': 'onnx' });
  const models = ['a.onnx', 'b.onnx', 'c.xml', 'd.onnx'].map((f) => join(root, 'in', f));

  it.each([['info'], ['shapes'], ['info', '--json']])('ovir %s', async (...cmd) => {
    const r = await withClosedStdout([...cmd, ...models, ...models, ...models]);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|Error:/);
    expect(r.code).toBe(0);
  }, 60_000);

  it('ovir batch: converts everything and still writes its report', async () => {
    const report = join(root, 'report.json');
    const r = await withClosedStdout(['batch', join(root, 'in'), '-o', join(root, 'out'), '--jobs', '0', '--report', report]);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|Error:/);
    expect(r.code).toBe(0);
    expect(existsSync(report)).toBe(true);
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ total: 4, converted: 4, failed: 0 });
  }, 60_000);
});
