import { readFileSync, statSync } from 'node:fs';
import { OvirError } from '../diag/diagnostic.js';
import type { Model } from '../graph/model.js';
import { commitStaged, StagedFile, type WriteOptions } from '../fs/atomic.js';
import { regularFileSize } from '../fs/regular-file.js';
import { fileBytes, type FileBytes } from '../fs/sparse-file.js';
import { readIr } from './read.js';
import { writeIrChunks } from './write.js';

/** `model.xml` → `model.bin` (the serializer's rule: same basename). */
export function binPathFor(xmlPath: string): string {
  return xmlPath.replace(/\.xml$/i, '') + '.bin';
}

const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Reads `model.xml` and the `.bin` beside it (absent .bin is fine until a Const needs it). Const
 * data are views into the .bin buffer; a big .bin is read on demand (src/fs/sparse-file.ts: the
 * writers copy its weights from the file). Failures throw an OvirError naming the file.
 */
export function readIrFile(xmlPath: string): Model {
  let xml: Uint8Array;
  try {
    regularFileSize(xmlPath);
    xml = readFileSync(xmlPath);
  } catch (e) {
    // Node reads a file whole only up to 2 GiB (the tokenizer's offsets are 32-bit too): an IR of
    // about four million layers (a 1M-layer chain's XML is 0.5 GB). Said as a size limit, not as
    // a file that cannot be read.
    if ((e as NodeJS.ErrnoException).code === 'ERR_FS_FILE_TOO_LARGE') {
      const gb = (statSync(xmlPath).size / 2 ** 30).toFixed(1);
      throw OvirError.of('FILE_TOO_BIG', '', { path: xmlPath, detail: `${gb} GiB of XML; ovir reads an IR .xml of up to 2 GiB` }, xmlPath);
    }
    throw OvirError.of('FILE_NOT_FOUND', '', { reason: reason(e) }, xmlPath);
  }
  const binPath = binPathFor(xmlPath);
  let bin: FileBytes | null = null;
  try {
    bin = fileBytes(binPath);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw OvirError.of('FILE_NOT_FOUND', '', { reason: reason(e) }, binPath);
  }
  return readIr(xml, bin, { file: xmlPath, binPath });
}

/**
 * Writes `model.xml` + `model.bin` atomically (.bin renamed into place first); `opts.fsync`:
 * durably. The XML goes to its temp file while it is written (writeIrChunks' drain), so the text
 * of a large net is never held whole; on any failure the temp files (and folders made for them)
 * are removed and no target is touched.
 */
export function writeIrFile(model: Model, xmlPath: string, opts: WriteOptions = {}): void {
  const staged: StagedFile[] = [];
  const io = <V>(f: () => V): V => {
    try {
      return f();
    } catch (e) {
      throw OvirError.of('FILE_WRITE_FAILED', '', { path: xmlPath, reason: reason(e) }, xmlPath);
    }
  };
  let xml: StagedFile | null = null;
  const stage = (path: string): StagedFile => {
    const f = io(() => new StagedFile(path));
    staged.push(f);
    return f;
  };
  try {
    const { bin } = writeIrChunks(model, (b) => {
      const f = (xml ??= stage(xmlPath));
      io(() => f.write(b));
    });
    const binFile = stage(binPathFor(xmlPath));
    io(() => {
      for (const c of bin) binFile.write(c);
    });
    io(() => commitStaged([binFile, xml ?? stage(xmlPath)], opts));
  } catch (e) {
    for (let i = staged.length - 1; i >= 0; i--) staged[i]!.abort();
    throw e;
  }
}
