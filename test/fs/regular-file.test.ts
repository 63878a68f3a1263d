import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OvirError } from '../../src/diag/diagnostic.js';
import { loadModel } from '../../src/io/load.js';
import { repo } from '../helpers/build-dist.js';

/**
 * A model path (or an IR's .bin) that is not a regular file is refused before it is read: read
 * from a FIFO without a writer, ovir blocked forever; read from /dev/zero, it never ended (found by
 * a hostile-input campaign). Each is one FILE_NOT_FOUND saying what the path is.
 */
const dir = mkdtempSync(join(tmpdir(), 'ovir-regular-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const failure = (path: string): string[] => {
  try {
    loadModel(path);
  } catch (e) {
    if (e instanceof OvirError) return e.diagnostics.map((d) => `${d.code} ${d.file}: ${d.message}`);
    throw e;
  }
  return ['read'];
};

describe('paths that are not regular files', () => {
  it('a FIFO named .onnx or .xml, and an IR whose .bin is a FIFO: refused at once', () => {
    for (const f of ['fifo.onnx', 'fifo.xml', 'm.bin']) execFileSync('mkfifo', [join(dir, f)]);
    copyFileSync(join(repo, 'samples/loop/model.xml'), join(dir, 'm.xml'));
    expect(failure(join(dir, 'fifo.onnx'))).toEqual([`FILE_NOT_FOUND ${join(dir, 'fifo.onnx')}: cannot read file: is a FIFO (a named pipe), not a regular file`]);
    expect(failure(join(dir, 'fifo.xml'))).toEqual([`FILE_NOT_FOUND ${join(dir, 'fifo.xml')}: cannot read file: is a FIFO (a named pipe), not a regular file`]);
    expect(failure(join(dir, 'm.xml'))).toEqual([`FILE_NOT_FOUND ${join(dir, 'm.bin')}: cannot read file: is a FIFO (a named pipe), not a regular file`]);
  });

  it.skipIf(!existsSync('/dev/zero'))('a symlink to /dev/zero named .onnx: refused at once', () => {
    symlinkSync('/dev/zero', join(dir, 'zero.onnx'));
    expect(failure(join(dir, 'zero.onnx'))).toEqual([`FILE_NOT_FOUND ${join(dir, 'zero.onnx')}: cannot read file: is a character device, not a regular file`]);
  });

  it('a folder named .onnx: is a folder', () => {
    execFileSync('mkdir', [join(dir, 'dir.onnx')]);
    expect(failure(join(dir, 'dir.onnx'))).toEqual([`FILE_NOT_FOUND ${join(dir, 'dir.onnx')}: cannot read file: is a folder`]);
  });
});
