import { constants } from 'node:buffer';
import { closeSync, fstatSync, openSync, readFileSync, readSync, type Stats } from 'node:fs';
import { OvirError } from '../diag/diagnostic.js';
import type { ElementTypeName } from '../graph/element-type.js';
import { lazyTensor, makeTensor, type Tensor } from '../graph/tensor.js';
import { Pages } from './pages.js';
import { regularFileSize } from './regular-file.js';

/**
 * Bytes held back until needed: a file read on demand (SparseFile), or bytes computed from one
 * (src/fs/derived-bytes.ts). `bytes` is one buffer of their size, trusted only where `fill` has
 * been; views of it are recognized by their buffer (onDemand).
 */
export interface OnDemandBytes {
  readonly bytes: Buffer;
  readonly size: number;
  /** Makes `bytes` hold [start, end). */
  fill(start: number, end: number): void;
  /** Whether [start, end) of `bytes` holds the bytes. */
  isFilled(start: number, end: number): boolean;
  /** Hands [start, start + length) to `out` in pieces of at most COPY_BYTES, valid until `out` returns; `bytes` stays untouched. */
  copy(start: number, length: number, out: (piece: Uint8Array) => void): void;
  /** Puts [start, start + length) at the start of `into` (not into `bytes`). */
  read(into: Uint8Array, start: number, length: number): void;
}

/** What a view's bytes are held back by, if they are (a view of a file read on demand, or of bytes computed from one). */
export function onDemand(view: Uint8Array): OnDemandBytes | undefined {
  return ON_DEMAND.get(view.buffer);
}

/** Makes `b`'s buffer known to onDemand. */
export function registerOnDemand(b: OnDemandBytes): void {
  ON_DEMAND.set(b.bytes.buffer, b);
}

/**
 * A big model file read on demand: one buffer of the file's size whose bytes are read from the
 * file page by page as they are first needed, so that the weights of a model are read when (and if)
 * something reads them — the IR or ONNX writer copies them from the file to the new file through
 * a small buffer instead, as `dd` would. Reading a 400 MB file whole into fresh memory cost 0.22 s
 * here (the kernel faults in and zeroes every page) where reading it through one 4 MB buffer took
 * 0.06 s, and the conversion's peak memory held the whole file.
 *
 * The buffer's memory is not touched until a page is read (a fresh allocation of this size is
 * mapped by the allocator, not written). Bytes are only trusted where `fill` has read them: views
 * into the buffer reach the rest of ovir through `lazyTensor` (src/graph/tensor.ts), whose `data`
 * fills its range first. The file is opened again when bytes are needed (and kept open until the
 * synchronous work that needed them ends) and must still be the file that was opened first
 * (device, inode, size and modification time): a file changed under a conversion is an error
 * naming it, never bytes of two files mixed.
 */
export class SparseFile implements OnDemandBytes {
  /** The file's bytes where filled (see `fill`); never read elsewhere. */
  readonly bytes: Buffer;
  private readonly pages: Pages;
  /** Ranges left unread on purpose (`skip`), by start: their length, and whether a tensor took them. */
  private readonly skipped = new Map<number, { readonly length: number; taken: boolean }>();

  /** Bytes [base, base + size) of `file` (the whole file, or one window of a huge one: see fileBytes). */
  private constructor(private readonly file: OpenedFile, private readonly base: number, size: number) {
    this.bytes = Buffer.allocUnsafeSlow(size);
    this.pages = new Pages(size, PAGE);
    registerOnDemand(this);
  }

  /** Opens `path` for reading on demand (nothing is read yet). Throws what fs throws, and a RangeError past Node's largest Buffer. */
  static open(path: string): SparseFile {
    const file = OpenedFile.open(path);
    return new SparseFile(file, 0, file.size);
  }

  /** @internal Bytes [base, base + size) of an opened file, read on demand (HugeFile's windows). */
  static window(file: OpenedFile, base: number, size: number): SparseFile {
    return new SparseFile(file, base, size);
  }

  get path(): string {
    return this.file.path;
  }

  get size(): number {
    return this.bytes.length;
  }

  /** Reads the pages of [start, end) not read yet (consecutive ones in one read). */
  fill(start: number, end: number): void {
    if (this.pages.has(start, end)) return;
    this.file.use((fd) => this.pages.fetch(start, end, (from, to) => readFully(fd, this.bytes, from, to - from, this.base + from, this.path)));
  }

  /** Notes [start, start + length) as left unread for a tensor to take (see `allSkippedTaken`). */
  skip(start: number, length: number): void {
    this.skipped.set(start, { length, taken: false });
  }

  /**
   * Whether every range left unread by `skip` became the view of a tensor (tensorOver): if one
   * did not, its reader copied or read the bytes some other way, and they cannot be trusted.
   */
  allSkippedTaken(): boolean {
    for (const r of this.skipped.values()) if (!r.taken) return false;
    return true;
  }

  /** @internal tensorOver's note that a tensor reads [start, start + length) on demand. */
  take(start: number, length: number): void {
    const r = this.skipped.get(start);
    if (r && r.length === length) r.taken = true;
  }

  /** Whether every byte of [start, end) was read. */
  isFilled(start: number, end: number): boolean {
    return this.pages.has(start, end);
  }

  /**
   * Hands the file's bytes [start, start + length) to `out` in pieces of at most COPY_BYTES, read
   * straight from the file into one reused buffer (the pages of this buffer stay untouched).
   */
  copy(start: number, length: number, out: (piece: Uint8Array) => void): void {
    this.file.use((fd) => {
      const buf = copyBuffer();
      for (let at = start, end = start + length; at < end;) {
        const n = Math.min(buf.length, end - at);
        readFully(fd, buf, 0, n, this.base + at, this.path);
        out(buf.subarray(0, n));
        at += n;
      }
    });
  }

  /** Reads the file's bytes [start, start + length) into the start of `into` (not into this buffer). */
  read(into: Uint8Array, start: number, length: number): void {
    this.file.use((fd) => readFully(fd, into, 0, length, this.base + start, this.path));
  }
}

/**
 * A file opened for reading on demand: its identity (device, inode, size, mtime) when first opened,
 * and a descriptor while synchronous work needs it. Shared by the windows of a huge file.
 */
class OpenedFile {
  private constructor(readonly path: string, readonly size: number, private readonly identity: string) {}

  static open(path: string): OpenedFile {
    const fd = openSync(path, 'r');
    try {
      const st = fstatSync(fd);
      return new OpenedFile(path, st.size, identityOf(st));
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Runs `f` with the file open, after checking that it is still the file first opened. The
   * descriptor is kept until the current synchronous work ends (closed by a setImmediate): a
   * conversion's many reads (the .onnx walk's pages, each small Const of a .bin, each weight
   * copied) share one open, and no descriptor outlives the work that needed it.
   */
  use(f: (fd: number) => void): void {
    if (this.fd === null) {
      try {
        this.fd = openSync(this.path, 'r');
      } catch (e) {
        throw changed(this.path, (e as Error).message);
      }
      setImmediate(() => this.close());
    }
    // (checked at every use, not only at the open: a file written over in place keeps its inode)
    if (identityOf(fstatSync(this.fd)) !== this.identity) {
      this.close();
      throw changed(this.path, 'it was changed or replaced while ovir was using it');
    }
    f(this.fd);
  }

  private fd: number | null = null;

  private close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      closeSync(fd);
    } catch {
      // already closed: nothing to release
    }
  }
}

/** Files of at least this many bytes are read on demand (a smaller one is read whole: one read costs less). */
export const LAZY_FILE_BYTES = 32 << 20;

/**
 * The bytes of the file at `path`: read whole when it is small, else a SparseFile's buffer read on
 * demand (views of it become tensors through tensorOver), and past the largest Buffer a HugeFile (a
 * window per range). `size`: the file's, when known. Throws what fs throws.
 */
export function fileBytes(path: string, size = regularFileSize(path)): FileBytes {
  if (size < LAZY_FILE_BYTES) return readFileSync(path);
  return size <= MAX_BUFFER_BYTES ? SparseFile.open(path).bytes : new HugeFile(OpenedFile.open(path));
}

/**
 * A file's bytes as their readers use them (an IR .bin, an ONNX external data file): its length,
 * and views of ranges. A Uint8Array is one; so is a HugeFile.
 */
export interface FileBytes {
  readonly byteLength: number;
  subarray(start: number, end: number): Uint8Array;
}

/** The largest Buffer Node makes (4 GiB on 64-bit Node 20): the most one tensor's bytes can be. */
export const MAX_BUFFER_BYTES = constants.MAX_LENGTH;

/**
 * A file larger than any Buffer (a .bin of a model with more than 4 GiB of weights): no buffer of
 * its size; each range asked for is a window of its own, read on demand like a SparseFile (the
 * windows share the file's identity check and descriptor).
 */
class HugeFile implements FileBytes {
  constructor(private readonly file: OpenedFile) {}

  get byteLength(): number {
    return this.file.size;
  }

  /** [start, end) clamped to the file, as Uint8Array.subarray clamps. */
  subarray(start: number, end: number): Uint8Array {
    const a = Math.max(0, Math.min(start, this.file.size));
    const b = Math.max(a, Math.min(end, this.file.size));
    return SparseFile.window(this.file, a, b - a).bytes;
  }
}

/** Tensors of at least this many bytes are read on demand; smaller ones when they are made. */
export const LAZY_TENSOR_BYTES = 1 << 20;

/**
 * A tensor of `elem`, `dims` over `view`: when `view` is a view of a SparseFile and holds
 * LAZY_TENSOR_BYTES or more not read yet, a lazyTensor that reads them on first use; otherwise its
 * bytes are read now (if they were not) and it is a plain tensor.
 */
export function tensorOver(elem: ElementTypeName, dims: readonly number[], view: Uint8Array): Tensor {
  const f = onDemand(view);
  if (f) {
    const start = view.byteOffset;
    const end = start + view.byteLength;
    if (view.byteLength >= LAZY_TENSOR_BYTES && !f.isFilled(start, end)) {
      if (f instanceof SparseFile) f.take(start, view.byteLength);
      return lazyTensor(elem, dims, view, () => f.fill(start, end));
    }
    f.fill(start, end);
  }
  return makeTensor(elem, dims, view);
}

/** Bytes held back, by their buffers (views are recognized by their buffer). */
const ON_DEMAND = new WeakMap<ArrayBufferLike, OnDemandBytes>();

/** Read granularity: small reads of nearby data become one (64 KB, as a typical read-ahead). */
const PAGE = 1 << 16;
/** The piece size of `copy` (what `dd bs=4M` reads at a time). */
export const COPY_BYTES = 1 << 22;
let copyBuf: Buffer | null = null;
const copyBuffer = (): Buffer => (copyBuf ??= Buffer.allocUnsafeSlow(COPY_BYTES));

const identityOf = (st: Stats): string => `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;

const changed = (path: string, reason: string): OvirError => OvirError.of('FILE_CHANGED', '', { path, reason }, path);

function readFully(fd: number, into: Uint8Array, at: number, length: number, position: number, path: string): void {
  for (let done = 0; done < length;) {
    const n = readSync(fd, into, at + done, length - done, position + done);
    if (n === 0) throw changed(path, `it ends before byte ${position + length}`);
    done += n;
  }
}

/**
 * The bytes of `view` as they are in its file: the view itself when it is not a view of a file
 * read on demand or is filled already, else pieces read from the file. What writers of files call
 * for weights (StagedFile.write). A piece read from the file is valid only until `out` returns
 * (its buffer is read into again): copy it, or write it, there.
 */
export function eachPieceOf(view: Uint8Array, out: (piece: Uint8Array) => void): void {
  const f = onDemand(view);
  if (!f || f.isFilled(view.byteOffset, view.byteOffset + view.byteLength)) out(view);
  else f.copy(view.byteOffset, view.byteLength, out);
}

/**
 * Bytes [at, at + n) of `view` (n at most PIECE_BYTES) as they are in its file: a view of `view`
 * itself when those bytes are read (or it is no view of a file read on demand), else read from the
 * file into piece buffer `slot` (0 or 1), valid until that slot is read into again. For comparing
 * two models' weights piece by piece without holding either.
 */
export function readPiece(view: Uint8Array, at: number, n: number, slot: 0 | 1): Buffer {
  const f = onDemand(view);
  const start = view.byteOffset + at;
  if (!f || f.isFilled(start, start + n)) return Buffer.from(view.buffer, start, n);
  const buf = (pieceBuffers ??= [Buffer.allocUnsafeSlow(COPY_BYTES), Buffer.allocUnsafeSlow(COPY_BYTES)])[slot];
  f.read(buf, start, n);
  return buf.subarray(0, n);
}

/** The most readPiece reads at a time. */
export const PIECE_BYTES = COPY_BYTES;

let pieceBuffers: [Buffer, Buffer] | null = null;

/**
 * Whether two views hold the same bytes. Views of files read on demand are compared piece by piece
 * as read from their files (as the writers copy them), not read into their own memory: comparing
 * a model's weights with its conversion's holds two 4 MB buffers, not both models.
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let at = 0; at < a.byteLength; at += PIECE_BYTES) {
    const n = Math.min(PIECE_BYTES, a.byteLength - at);
    if (!readPiece(a, at, n, 0).equals(readPiece(b, at, n, 1))) return false;
  }
  return true;
}

/** `view` with its bytes read (for code that reads them: in-memory encodes, comparisons). */
export function filled<T extends Uint8Array>(view: T): T {
  onDemand(view)?.fill(view.byteOffset, view.byteOffset + view.byteLength);
  return view;
}
