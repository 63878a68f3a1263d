import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepTemps } from '../../src/batch/temp-sweep.js';

describe('removing temp files of interrupted atomic writes', () => {
  it('removes this process\'s temps of the given outputs only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ovir-sweep-'));
    const out = join(dir, 'm.xml');
    const mine = [`.m.xml.${process.pid}.0a1b2c3d.tmp`, `.m.bin.${process.pid}.ffffffff.tmp`, `.m.xml.data.${process.pid}.12345678.tmp`];
    const others = [`.m.xml.${process.pid + 1}.0a1b2c3d.tmp`, `.n.xml.${process.pid}.0a1b2c3d.tmp`, 'm.xml'];
    for (const f of [...mine, ...others]) writeFileSync(join(dir, f), 'x');
    expect(sweepTemps([out, join(dir, 'm.bin'), join(dir, 'missing-dir/x.onnx')])).toBe(3);
    expect(readdirSync(dir).sort()).toEqual([...others].sort());
    expect(existsSync(join(dir, 'm.xml'))).toBe(true);
  });
});
