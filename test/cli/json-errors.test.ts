import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from './run-cli.js';

/**
 * `--json` promises JSON on stdout whatever happens: a command that fails before writing its own
 * JSON (a file check cannot read; a bug of ovir's own) prints {"ok": false, "diagnostics": [...]}
 * there, not text on stderr (a hostile-input campaign found `--json` printing plain text).
 */
const boom = vi.hoisted(() => ({ on: false }));
vi.mock('../../src/equiv/index.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/equiv/index.js')>();
  return { ...real, checkFile: (...args: Parameters<typeof real.checkFile>) => { if (boom.on) throw new TypeError('Cannot read properties of undefined'); return real.checkFile(...args); } };
});

const dir = mkdtempSync(join(tmpdir(), 'ovir-json-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--json: every failure as JSON on stdout', () => {
  it('a file that cannot be read (check)', async () => {
    const bad = join(dir, 'bad.onnx');
    writeFileSync(bad, 'not a protobuf at all');
    const r = await runCli('check', bad, '--json');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout) as { ok: boolean; diagnostics: { code: string; file?: string }[] };
    expect(j.ok).toBe(false);
    expect(j.diagnostics[0]).toMatchObject({ code: 'ONNX_BAD_PROTOBUF', file: bad });
  });

  it('an internal error is an INTERNAL diagnostic', async () => {
    const bad = join(dir, 'any.onnx');
    writeFileSync(bad, '');
    boom.on = true;
    try {
      const r = await runCli('check', bad, '--json');
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toEqual({ ok: false, diagnostics: [{ code: 'INTERNAL', severity: 'error', where: '', message: 'internal error (please report): Cannot read properties of undefined', params: { detail: 'Cannot read properties of undefined' } }] });
      // without --json: one line on stderr, as before
      const t = await runCli('check', bad);
      expect(t.stderr).toBe('ovir: internal error (please report): Cannot read properties of undefined\n');
    } finally {
      boom.on = false;
    }
  });
});
