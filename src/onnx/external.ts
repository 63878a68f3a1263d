import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep, win32 } from 'node:path';
import type { Diagnostics } from '../diag/diagnostic.js';
import { regularFileSize } from '../fs/regular-file.js';
import { fileBytes, MAX_BUFFER_BYTES, type FileBytes } from '../fs/sparse-file.js';
import type { StringStringEntryProto } from './proto-types.js';

/**
 * External tensor data (TensorProto.data_location = EXTERNAL): `location` is a path relative to the
 * model's folder, `offset`/`length` select bytes of that file. Locations are confined to the folder:
 * absolute paths, `..` segments, and symlinks resolving outside are refused. Each file is read once
 * and tensors are views into it (a big file's bytes are read on demand: src/fs/sparse-file.ts).
 */
export class ExternalData {
  private readonly files = new Map<string, FileBytes | null>();
  private readonly realBase: string | null;

  constructor(private readonly baseDir: string | undefined, private readonly diags: Diagnostics) {
    let real: string | null = null;
    if (baseDir !== undefined) {
      try { real = realpathSync(baseDir); } catch { real = null; }
    }
    this.realBase = real;
  }

  /** The bytes of one external tensor, or null (with a diagnostic) when they cannot be had. */
  read(entries: readonly StringStringEntryProto[], name: string, expectedBytes: number | null, where: string): Uint8Array | null {
    const kv = new Map(entries.map((e) => [e.key ?? '', e.value ?? '']));
    const location = kv.get('location') ?? '';
    const pathErr = (detail: string) => {
      this.diags.add('ONNX_EXTERNAL_PATH', where, { name, location, detail });
      return null;
    };
    if (location === '') return pathErr('is empty (external_data needs a location)');
    if (isAbsolute(location) || win32.isAbsolute(location) || location.startsWith('/') || location.startsWith('\\')) {
      return pathErr('is absolute; only paths relative to the model folder are allowed');
    }
    if (location.split(/[\\/]/).some((s) => s === '..')) return pathErr("contains '..'; only paths inside the model folder are allowed");
    if (this.baseDir === undefined || this.realBase === null) {
      return pathErr('cannot be resolved: the model was not read from a folder (no baseDir)');
    }
    let data = this.files.get(location);
    if (data === undefined) {
      data = this.load(location, name, where);
      this.files.set(location, data);
    }
    if (data === null) return null;
    const num = (key: string): number | null | undefined => {
      const s = kv.get(key);
      if (s === undefined) return undefined;
      return /^\d+$/.test(s.trim()) && Number.isSafeInteger(Number(s)) ? Number(s) : null;
    };
    const offset = num('offset');
    const length = num('length');
    const range = (detail: string) => {
      this.diags.add('ONNX_EXTERNAL_RANGE', where, { name, location, detail });
      return null;
    };
    if (offset === null) return range(`has a bad offset '${kv.get('offset')}'`);
    if (length === null) return range(`has a bad length '${kv.get('length')}'`);
    const off = offset ?? 0;
    if (off > data.byteLength) return range(`offset ${off} is past the end of the file (${data.byteLength} bytes)`);
    const len = length ?? (expectedBytes ?? data.byteLength - off);
    if (off + len > data.byteLength) return range(`offset ${off} + length ${len} is past the end of the file (${data.byteLength} bytes)`);
    if (expectedBytes !== null && len !== expectedBytes) return range(`length ${len} does not match the ${expectedBytes} bytes the tensor's type and dims need`);
    if (len > MAX_BUFFER_BYTES) return range(`holds ${len} bytes for one tensor: more than the ${MAX_BUFFER_BYTES} bytes of Node's largest buffer, which ovir holds one tensor in`);
    return data.subarray(off, off + len);
  }

  private load(location: string, name: string, where: string): FileBytes | null {
    const full = join(this.baseDir!, location);
    let real: string;
    let size: number;
    try {
      real = realpathSync(full);
      size = regularFileSize(real);
    } catch (e) {
      this.diags.add('ONNX_EXTERNAL_READ', where, { name, location, reason: reason(e) });
      return null;
    }
    const rel = relative(this.realBase!, real);
    if (rel === '' || rel.startsWith('..' + sep) || rel === '..' || isAbsolute(rel)) {
      this.diags.add('ONNX_EXTERNAL_PATH', where, { name, location, detail: `resolves (through a symlink) to '${real}', outside the model folder` });
      return null;
    }
    try {
      return fileBytes(real, size);
    } catch (e) {
      this.diags.add('ONNX_EXTERNAL_READ', where, { name, location, reason: reason(e) });
      return null;
    }
  }
}

function reason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ENOENT') return 'no such file';
  if (err?.code === 'EACCES') return 'permission denied';
  return err?.message ?? String(e);
}
