import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { eachPieceOf } from './sparse-file.js';

/** One file to write: its final path and its content, given as chunks so big weights need no join. */
export interface FileToWrite {
  readonly path: string;
  readonly chunks: readonly Uint8Array[] | Uint8Array | string;
}

const temps = new Set<string>();
let stageCount = 0;
let cleanupInstalled = false;

/** Removes temp files left by writes interrupted by a signal, so Ctrl-C leaves nothing half-written. */
function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.once('exit', () => {
    for (const t of temps) rmSync(t, { force: true });
  });
}

/**
 * A signal (Ctrl-C, SIGTERM, a timeout's kill) ends Node without its 'exit' event while a write
 * runs synchronously, and the temp file stays (measured: 160 MB left beside an output by a kill
 * mid-write). The next write of the same target removes such files: `.<name>.<pid>.<random>.tmp`
 * whose process no longer exists. Each folder is listed once per process (the candidates kept).
 */
const staleCandidates = new Map<string, string[]>();
const TEMP_NAME = /^\.(.+)\.(\d+)\.[0-9a-z]+\.tmp$/;

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, another user's
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function sweepStale(dir: string, base: string): void {
  let names = staleCandidates.get(dir);
  if (names === undefined) {
    try {
      names = readdirSync(dir).filter((n) => TEMP_NAME.test(n));
    } catch {
      names = [];
    }
    staleCandidates.set(dir, names);
  }
  if (!names.length) return;
  const kept: string[] = [];
  for (const n of names) {
    const m = TEMP_NAME.exec(n)!;
    if (m[1] === base && !alive(Number(m[2]))) rmSync(join(dir, n), { force: true });
    else kept.push(n);
  }
  staleCandidates.set(dir, kept);
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

/** Chunks smaller than this are gathered into GATHER_BYTES before they are written. */
const GATHER_BELOW = 1 << 16;
const GATHER_BYTES = 1 << 18;

/**
 * A file being written under a temp name beside its target (same folder, so the rename is
 * atomic): content may be written as it is produced (a 50 MB IR's text need not be held whole),
 * then the staged files are committed together (renamed into place) or aborted (removed).
 */
export class StagedFile {
  private fd: number | null;
  private readonly tmp: string;
  /** The first folder the stage created (mkdir -p), removed again on abort when still empty. */
  private readonly made: string | undefined;

  constructor(readonly path: string) {
    installCleanup();
    const dir = dirname(path);
    this.made = mkdirSync(dir, { recursive: true });
    sweepStale(dir, basename(path));
    // unique beside the target: the process, a count and a random part; opened exclusively ('wx'), so never another writer's file
    this.tmp = join(dir, `.${basename(path)}.${process.pid}.${(stageCount++).toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`);
    try {
      this.fd = openSync(this.tmp, 'wx');
      temps.add(this.tmp);
    } catch (e) {
      this.fd = null;
      this.abort();
      throw e;
    }
  }

  /** Small chunks gathered here and written together (a writer's many small views: one system call per 256 KB). */
  private pending: Buffer | null = null;
  private pendingLength = 0;

  /**
   * Appends bytes (or text as UTF-8). Weights of a file read on demand (src/fs/sparse-file.ts) are
   * copied from that file through a small buffer, not read into their own memory first.
   */
  write(c: Uint8Array | string): void {
    if (typeof c === 'string') this.append(Buffer.from(c, 'utf8'));
    else eachPieceOf(c, (piece) => this.append(piece));
  }

  private append(b: Uint8Array): void {
    if (b.byteLength < GATHER_BELOW) {
      const p = (this.pending ??= Buffer.allocUnsafe(GATHER_BYTES));
      if (p.length - this.pendingLength < b.byteLength) this.flushPending();
      p.set(b, this.pendingLength);
      this.pendingLength += b.byteLength;
      return;
    }
    this.flushPending();
    this.writeAll(b);
  }

  private flushPending(): void {
    if (this.pendingLength === 0) return;
    const n = this.pendingLength;
    this.pendingLength = 0;
    this.writeAll(this.pending!.subarray(0, n));
  }

  private writeAll(b: Uint8Array): void {
    let off = 0;
    while (off < b.byteLength) off += writeSync(this.fd!, b, off, b.byteLength - off);
  }

  /** Flushes (when asked) and closes the temp file; the rename is commitStaged's. */
  private close(fsync: boolean): void {
    if (this.fd === null) return;
    const fd = this.fd;
    try {
      this.flushPending();
      if (fsync) fsyncSync(fd);
    } finally {
      this.fd = null;
      closeSync(fd);
    }
  }

  /** @internal Renames the temp file into place (after close). */
  rename(fsync: boolean): void {
    this.close(fsync);
    renameSync(this.tmp, this.path);
    temps.delete(this.tmp);
  }

  /** Removes the temp file (and the folders this stage created, if they are empty); the target is untouched. */
  abort(): void {
    this.pendingLength = 0;
    try {
      this.close(false);
    } catch {
      // closing failed: the file is removed all the same
    }
    // (a temp file this stage never opened is not its own: left alone)
    if (temps.delete(this.tmp)) rmSync(this.tmp, { force: true });
    if (this.made === undefined) return;
    // only empty folders, innermost first, up to the first one made: another writer's files stay
    for (let d = dirname(this.path); ; d = dirname(d)) {
      try {
        rmdirSync(d);
      } catch {
        return;
      }
      if (d === this.made || dirname(d) === d) return;
    }
  }
}

/**
 * Commits staged files: each is closed (flushed to the disk first with `opts.fsync`) and renamed
 * into place in the order given, then (with fsync) their folders are flushed. On failure every
 * file not yet renamed is aborted and the error rethrown.
 */
export function commitStaged(files: readonly StagedFile[], opts: WriteOptions = {}): void {
  let k = 0;
  try {
    for (; k < files.length; k++) files[k]!.rename(opts.fsync === true);
    if (opts.fsync) for (const dir of new Set(files.map((f) => dirname(f.path)))) syncFolder(dir);
  } catch (e) {
    for (let i = k; i < files.length; i++) files[i]!.abort();
    throw e;
  }
}

/**
 * Writes every file to a temp name beside its target (same folder, so the rename is atomic),
 * then renames them all into place. If any write fails, every temp file is removed and no target
 * is touched: a failed run never leaves a partly written output. (.bin is renamed before .xml by
 * passing it first, so a reader that sees the new .xml also sees its new .bin.)
 */
export function writeFilesAtomic(files: readonly FileToWrite[], opts: WriteOptions = {}): void {
  const staged: StagedFile[] = [];
  try {
    for (const f of files) {
      const s = new StagedFile(f.path);
      staged.push(s);
      const chunks = typeof f.chunks === 'string' || f.chunks instanceof Uint8Array ? [f.chunks] : f.chunks;
      for (const c of chunks) s.write(c);
    }
  } catch (e) {
    for (const s of staged) s.abort();
    throw e;
  }
  commitStaged(staged, opts);
}
