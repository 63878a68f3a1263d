import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

const MAGIC = 'ovir-code-cache-2\n';
const HEADER = MAGIC.length + 16; // magic, then source length, source checksum, data length, data checksum (u32 LE)
const WRAP = ['(function (exports, require, module, __filename, __dirname) { ', '\n})'] as const;

/** What became of a chunk's code cache: used, rejected by V8, or none (missing, stale or damaged). */
export type CacheUse = 'used' | 'rejected' | 'none';

interface Chunk { script: vm.Script; source: Buffer; exports: Record<string, unknown>; cache: CacheUse }

const chunks = new Map<string, Chunk>();

/**
 * FNV-1a over 32-bit words (the tail byte by byte): a checksum against stale or damaged files, in
 * plain JS because node:crypto and zlib's crc32 load dozens of Node's internal modules (streams
 * among them) that `ovir --version` otherwise never loads (measured: 10-20 ms of startup). About
 * 1 ms for the 2.6 MB a conversion loads.
 */
function checksum(b: Buffer): number {
  const n = b.length >>> 2;
  // A word view needs a 4-byte-aligned offset (files above 4 KB get a buffer of their own, offset 0).
  const words = b.byteOffset % 4 === 0 ? new Uint32Array(b.buffer, b.byteOffset, n) : new Uint32Array(Uint8Array.prototype.slice.call(b, 0, n * 4).buffer);
  let h = 0x811c9dc5;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ words[i]!, 0x01000193);
  for (let i = n * 4; i < b.length; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h >>> 0;
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

/** Loads (once) the bundle chunk `file` and returns its exports. */
export function loadChunk(file: string): Record<string, unknown> {
  const known = chunks.get(file);
  if (known) return known.exports;
  // The bundle is ASCII (rolldown's charset option), so latin1 reads it without UTF-8 decoding.
  const source = readFileSync(file);
  const cachedData = cachedDataFor(file, source);
  const script = new vm.Script(WRAP[0] + source.toString('latin1') + WRAP[1], {
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
