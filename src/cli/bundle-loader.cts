import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

/**
 * Loads the CLI bundle (dist/cli/*.cjs, made by scripts/build-cli.mjs from the compiled dist/src)
 * with V8 code caches, the way bin/ovir.js starts ovir in one file instead of ~240 modules.
 *
 * Why not `import()`: Node 20 has no compile cache for modules (module.enableCompileCache is Node
 * 22), and compiling the bundle's source was the largest part of startup (measured: README.md,
 * "Stack"). A `vm.Script` takes V8's cached data, so each chunk is a CommonJS script run in this
 * context through the same wrapper Node's own `require` uses. A chunk's dynamic `import()` of
 * another chunk (rolldown writes `require("./x.cjs")` for it) comes back here, so chunks loaded
 * later get their caches too; every other `require` is Node's (rolldown writes the bundle's other
 * dynamic imports as `require` too: `import()` in a vm script would need Node's experimental vm
 * loader, which prints a warning; it stays allowed as a fallback).
 *
 * The cache file (`<chunk>.cache`) is only used when it belongs to this exact chunk: a header holds
 * the length and a checksum of the chunk's source and of V8's data, checked before V8 sees the
 * data (V8 itself checks only its version, flags and the source's length). A missing, stale or
 * corrupt cache, or one V8 rejects, only costs the compile it would have saved.
 */

const MAGIC = 'ovir-code-cache-3\n';
const HEADER = MAGIC.length + 16; // magic, then source length, source checksum, data length, data checksum (u32 LE)
const WRAP = ['(function (exports, require, module, __filename, __dirname) { ', '\n})'] as const;

/** What became of a chunk's code cache: used, rejected by V8, or none (missing, stale or damaged). */
export type CacheUse = 'used' | 'rejected' | 'none';

interface Chunk { script: vm.Script; source: Buffer; exports: Record<string, unknown>; cache: CacheUse }

const chunks = new Map<string, Chunk>();

/** CRC-32 (zlib's) in plain JS: the fallback where Node's zlib has no crc32 (before Node 20.15). */
let table: Int32Array | undefined;
export function crc32Js(b: Uint8Array): number {
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let c = -1;
  for (let i = 0; i < b.length; i++) c = table[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

let crc32: ((b: Uint8Array) => number) | undefined;

/**
 * The checksum against stale or damaged files: CRC-32, by zlib's crc32 where Node has it (from
 * 20.15; loaded on first use), else crc32Js. Measured on the 3.5 MB of chunks and caches a
 * conversion loads: ~2.4 ms with loading zlib, where FNV-1a in JS took ~5 ms (a loop that runs
 * before V8 optimizes it: this is the first code of every run).
 */
export function checksum(b: Uint8Array): number {
  crc32 ??= (require('node:zlib') as { crc32?: (b: Uint8Array) => number }).crc32 ?? crc32Js;
  return crc32(b);
}

function cachedDataFor(file: string, source: Buffer): Buffer | undefined {
  if (!existsSync(file + '.cache')) return undefined;
  const c = readFileSync(file + '.cache');
  if (c.length < HEADER || c.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
  const data = c.subarray(HEADER);
  const at = MAGIC.length;
  const ok = c.readUInt32LE(at) === source.length && c.readUInt32LE(at + 4) === checksum(source)
    && c.readUInt32LE(at + 8) === data.length && c.readUInt32LE(at + 12) === checksum(data);
  return ok ? data : undefined;
}

/**
 * The chunk's file read between the wrapper's two halves, in one buffer: its text is then one flat
 * string made once (joining the halves to the text as strings made V8 copy the 2 MB a conversion
 * loads once more, ~1.5 ms). Returns the buffer and the file's bytes in it.
 */
function readWrapped(file: string): { text: Buffer; source: Buffer } {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const at = WRAP[0].length;
    const buf = Buffer.allocUnsafeSlow(at + size + WRAP[1].length);
    buf.write(WRAP[0], 0, 'latin1');
    let n = 0;
    for (let got; n < size && (got = readSync(fd, buf, at + n, size - n, n)) > 0;) n += got;
    buf.write(WRAP[1], at + n, 'latin1');
    return { text: buf.subarray(0, at + n + WRAP[1].length), source: buf.subarray(at, at + n) };
  } finally {
    closeSync(fd);
  }
}

/** Loads (once) the bundle chunk `file` and returns its exports. */
export function loadChunk(file: string): Record<string, unknown> {
  const known = chunks.get(file);
  if (known) return known.exports;
  // The bundle is ASCII (rolldown's charset option), so latin1 reads it without UTF-8 decoding.
  const { text, source } = readWrapped(file);
  const cachedData = cachedDataFor(file, source);
  const script = new vm.Script(text.toString('latin1'), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} as Record<string, unknown> };
  const cache: CacheUse = !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  chunks.set(file, { script, source, exports: module.exports, cache });
  const nodeRequire = createRequire(file);
  const here = dirname(file);
  const require = (id: string) => {
    // A chunk (`./x.cjs`) or a file beside the bundle given as a URL (the batch worker, which
    // src/batch/pool.ts loads once in the main thread): through here, sharing the loaded chunks.
    const path = id.startsWith('./') ? join(here, id) : id.startsWith('file:') ? fileURLToPath(id) : null;
    return path !== null && dirname(path) === here && /\.c?js$/.test(path) ? loadChunk(path) : nodeRequire(id);
  };
  (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, require, module, file, here);
  return module.exports;
}

/** The chunks loaded so far and what became of their code caches (for tests and measurements). */
export function cacheUses(): Record<string, CacheUse> {
  return Object.fromEntries([...chunks].map(([file, c]) => [file, c.cache]));
}

/**
 * Writes the code cache of every chunk loaded so far (scripts/build-cli.mjs, after running a
 * conversion so that the functions it compiled are in the caches). Returns the files written.
 */
export function writeCodeCaches(): string[] {
  const written: string[] = [];
  for (const [file, { script, source }] of chunks) {
    const data = script.createCachedData();
    const head = Buffer.alloc(HEADER);
    head.write(MAGIC, 0, 'latin1');
    let at = MAGIC.length;
    for (const v of [source.length, checksum(source), data.length, checksum(data)]) at = head.writeUInt32LE(v, at);
    writeFileSync(file + '.cache', Buffer.concat([head, data]));
    written.push(file + '.cache');
  }
  return written;
}

/**
 * The bundle's entry, when it is there and newer than the compiled dist/src it was made from (a
 * `tsc` build after the bundle makes it stale: then null, and the caller runs dist/src).
 */
export function bundleEntry(distDir: string): string | null {
  const entry = join(distDir, 'cli/ovir.cjs');
  try {
    return statSync(entry).mtimeMs >= statSync(join(distDir, 'src/cli/main.js')).mtimeMs ? entry : null;
  } catch {
    return null;
  }
}
