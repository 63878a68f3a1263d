import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';

/** One file to write: its final path and its content, given as chunks so big weights need no join. */
export interface FileToWrite {
  readonly path: string;
  readonly chunks: readonly Uint8Array[] | Uint8Array | string;
}

const temps = new Set<string>();
let cleanupInstalled = false;

/** Removes temp files left by writes interrupted by a signal, so Ctrl-C leaves nothing half-written. */
function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.once('exit', () => {
    for (const t of temps) rmSync(t, { force: true });
  });
}

/** How a write ends. */
export interface WriteOptions {
  /**
   * Durable writes: each file is flushed to the disk (fsync) before its rename, and each folder
   * after the renames, so the outputs survive a crash of the machine too. Off by default, as ovc,
   * onnx.save and compilers write: the temp-file-and-rename already means that no process ever
   * sees a partly written output, and flushing costs a disk round trip (measured: 0.2 s for an
   * 88 MB .bin, half of the whole conversion; docs/batch.md).
   */
  readonly fsync?: boolean;
}

/** Flushes a folder's entries (the renames into it) to the disk. */
function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes every file to a temp name beside its target (same folder, so the rename is atomic),
 * then renames them all into place. If any write fails, every temp file is removed and no target
 * is touched: a failed run never leaves a partly written output. (.bin is renamed before .xml by
 * passing it first, so a reader that sees the new .xml also sees its new .bin.)
 */
export function writeFilesAtomic(files: readonly FileToWrite[], opts: WriteOptions = {}): void {
  installCleanup();
  const staged: { tmp: string; path: string }[] = [];
  try {
    for (const f of files) {
      mkdirSync(dirname(f.path), { recursive: true });
      const tmp = join(dirname(f.path), `.${basename(f.path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
      temps.add(tmp);
      staged.push({ tmp, path: f.path });
      const fd = openSync(tmp, 'w');
      try {
        const chunks = typeof f.chunks === 'string' ? [Buffer.from(f.chunks, 'utf8')]
          : f.chunks instanceof Uint8Array ? [f.chunks] : f.chunks;
        for (const c of chunks) {
          let off = 0;
          while (off < c.byteLength) off += writeSync(fd, c, off, c.byteLength - off);
        }
        if (opts.fsync) fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    for (const s of staged) {
      renameSync(s.tmp, s.path);
      temps.delete(s.tmp);
    }
    if (opts.fsync) for (const dir of new Set(staged.map((s) => dirname(s.path)))) syncFolder(dir);
  } catch (e) {
    for (const s of staged) {
      rmSync(s.tmp, { force: true });
      temps.delete(s.tmp);
    }
    throw e;
  }
}
