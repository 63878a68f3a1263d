import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Counts the flushes the writer asks for, writing as Node does otherwise.
const flushed = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return { ...real, fsyncSync: (fd: number) => { flushed.count++; real.fsyncSync(fd); } };
});

const { writeFilesAtomic } = await import('../../src/fs/atomic.js');

describe('writeFilesAtomic: temp files renamed into place, flushed to the disk only when asked', () => {
  let dir = '';
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    flushed.count = 0;
  });

  it('without fsync: the files hold their chunks, no temp file is left, nothing is flushed', () => {
    dir = mkdtempSync(join(tmpdir(), 'ovir-atomic-'));
    writeFilesAtomic([{ path: join(dir, 'm.bin'), chunks: [new Uint8Array([1, 2]), new Uint8Array([3])] }, { path: join(dir, 'm.xml'), chunks: '<net/>' }]);
    expect([...readFileSync(join(dir, 'm.bin'))]).toEqual([1, 2, 3]);
    expect(readFileSync(join(dir, 'm.xml'), 'utf8')).toBe('<net/>');
    expect(readdirSync(dir).sort()).toEqual(['m.bin', 'm.xml']);
    expect(flushed.count).toBe(0);
  });

  it('with fsync: every file before its rename, and the folder after the renames', () => {
    dir = mkdtempSync(join(tmpdir(), 'ovir-atomic-'));
    writeFilesAtomic([{ path: join(dir, 'm.bin'), chunks: new Uint8Array([7]) }, { path: join(dir, 'm.xml'), chunks: '<net/>' }], { fsync: true });
    expect(readdirSync(dir).sort()).toEqual(['m.bin', 'm.xml']);
    expect(flushed.count).toBe(3); // two files, one folder
  });

  it('a failed write touches no target and leaves no temp file', () => {
    dir = mkdtempSync(join(tmpdir(), 'ovir-atomic-'));
    fs.writeFileSync(join(dir, 'm.xml'), 'old');
    // The second file cannot be written (its folder would be inside a file) after the first was staged.
    fs.writeFileSync(join(dir, 'plain'), '');
    expect(() => writeFilesAtomic([{ path: join(dir, 'm.xml'), chunks: 'new' }, { path: join(dir, 'plain', 'm.bin'), chunks: 'y' }], { fsync: true })).toThrow();
    expect(readFileSync(join(dir, 'm.xml'), 'utf8')).toBe('old');
    expect(readdirSync(dir).sort()).toEqual(['m.xml', 'plain']);
  });
});

describe('a temp file left by a process a signal ended is removed by the next write of its target', () => {
  it('stale temps of dead processes go; those of live processes and of other targets stay', async () => {
    const { spawnSync } = await import('node:child_process');
    const dir = mkdtempSync(join(tmpdir(), 'ovir-atomic-stale-'));
    try {
      // a pid that surely ended: a child that has exited
      const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
      const stale = [`.m.xml.${dead}.0abc123.tmp`, `.m.bin.${dead}.1def456.tmp`];
      const kept = [`.m.xml.${process.ppid}.2aaaaaa.tmp`, `.other.xml.${dead}.3bbbbbb.tmp`, 'm.xml.tmp'];
      for (const n of [...stale, ...kept]) fs.writeFileSync(join(dir, n), 'partial');
      writeFilesAtomic([{ path: join(dir, 'm.bin'), chunks: [new Uint8Array([1])] }, { path: join(dir, 'm.xml'), chunks: '<net/>' }]);
      expect(readdirSync(dir).sort()).toEqual([...kept, 'm.bin', 'm.xml'].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
