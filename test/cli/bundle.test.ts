import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as zlib from 'node:zlib';
import { bundleEntry, checksum, crc32Js } from '../../src/cli/bundle-loader.cjs';
import { builtDist, repo } from '../helpers/build-dist.js';
import { runCli } from './run-cli.js';

const dist = join(repo, 'dist');
const loaderUrl = pathToFileURL(join(dist, 'src/cli/bundle-loader.cjs')).href;
const work = mkdtempSync(join(tmpdir(), 'ovir-bundle-'));

/**
 * Runs `ovir <args>` from the bundle in `cliDir` (a dist/cli) in a new process, through the loader
 * as bin/ovir.js does; returns what it printed and what became of every chunk's code cache.
 */
function viaBundle(cliDir: string, args: string[]): { code: number | null; stdout: string; stderr: string; caches: Record<string, string> } {
  const script = `
    const l = await import(${JSON.stringify(loaderUrl)});
    const { main } = l.loadChunk(${JSON.stringify(join(cliDir, 'ovir.cjs'))});
    process.exitCode = await main(['node', 'ovir', ...JSON.parse(process.argv[1])]);
    process.stderr.write('\\ncaches ' + JSON.stringify(l.cacheUses()));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(args)], { encoding: 'utf8' });
  const at = r.stderr.lastIndexOf('\ncaches ');
  const caches = at >= 0 ? JSON.parse(r.stderr.slice(at + 8)) as Record<string, string> : {};
  return { code: r.status, stdout: r.stdout, stderr: at >= 0 ? r.stderr.slice(0, at) : r.stderr, caches };
}

/** The name of a chunk file, for messages. */
const names = (caches: Record<string, string>) => Object.fromEntries(Object.entries(caches).map(([f, u]) => [f.split('/').pop(), u]));

beforeAll(() => {
  builtDist('src/cli/main.js');
  // The bundle of this build (the CLI tests of a fresh clone run through it; see bin/ovir.js).
  if (!bundleEntry(dist)) {
    const r = spawnSync(process.execPath, [join(repo, 'scripts/build-cli.mjs')], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`scripts/build-cli.mjs failed: ${r.stderr}`);
  }
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the CLI bundle (dist/cli, scripts/build-cli.mjs)', () => {
  it('runs --version from its code caches: every chunk loaded, none compiled from source', () => {
    const r = viaBundle(join(dist, 'cli'), ['--version']);
    expect(r.stdout.trim()).toBe((JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version);
    expect(Object.keys(r.caches).length).toBeGreaterThan(0);
    expect(names(r.caches)).toEqual(Object.fromEntries(Object.keys(names(r.caches)).map((f) => [f, 'used'])));
  });

  it('writes the same bytes as the compiled sources, both directions', async () => {
    const sample = join(repo, 'samples/if-nested/model.onnx');
    const outs = { bundle: join(work, 'bundle'), src: join(work, 'src') };
    const b1 = viaBundle(join(dist, 'cli'), ['convert', sample, '-o', join(outs.bundle, 'm.xml')]);
    const b2 = viaBundle(join(dist, 'cli'), ['convert', join(outs.bundle, 'm.xml'), '-o', join(outs.bundle, 'm.onnx')]);
    expect([b1.code, b2.code, b1.stderr, b2.stderr]).toEqual([0, 0, '', '']);
    expect(Object.values(b2.caches).every((u) => u === 'used')).toBe(true);
    expect((await runCli('convert', sample, '-o', join(outs.src, 'm.xml'))).code).toBe(0);
    expect((await runCli('convert', join(outs.src, 'm.xml'), '-o', join(outs.src, 'm.onnx'))).code).toBe(0);
    for (const f of ['m.xml', 'm.bin', 'm.onnx']) expect(readFileSync(join(outs.bundle, f)).equals(readFileSync(join(outs.src, f)))).toBe(true);
  });

  describe('a code cache that does not belong to its chunk is not used, and the chunk still runs', () => {
    // A copy of dist/cli at the same depth (the bundle finds ../../package.json from there).
    const copy = (name: string, damage: (dir: string) => void): string => {
      const dir = join(dist, `.cli-test-${process.pid}-${name}`);
      rmSync(dir, { recursive: true, force: true });
      cpSync(join(dist, 'cli'), dir, { recursive: true });
      damage(dir);
      return dir;
    };
    const cases: Array<[string, (dir: string) => void]> = [
      ['a flipped byte in V8\'s data', (dir) => {
        const f = join(dir, 'ovir.cjs.cache');
        const b = readFileSync(f);
        b[b.length - 100] ^= 0x55;
        writeFileSync(f, b);
      }],
      ['a truncated file', (dir) => {
        const f = join(dir, 'ovir.cjs.cache');
        writeFileSync(f, readFileSync(f).subarray(0, 1000));
      }],
      ['a chunk changed after its cache was made (same length)', (dir) => {
        const f = join(dir, 'ovir.cjs');
        const source = readFileSync(f, 'latin1');
        writeFileSync(f, source.replace('Symbol.toStringTag', 'Symbol.toStringTAG'), 'latin1');
        expect(readFileSync(f).length).toBe(Buffer.byteLength(source, 'latin1'));
      }],
      ['another chunk\'s cache', (dir) => {
        const other = readdirSync(dir).find((f) => f.endsWith('.cjs.cache') && f !== 'ovir.cjs.cache')!;
        cpSync(join(dir, other), join(dir, 'ovir.cjs.cache'));
      }],
    ];
    const dirs: string[] = [];
    afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
    it.each(cases)('%s', (name, damage) => {
      const dir = copy(name.replace(/\W+/g, '-'), damage);
      dirs.push(dir);
      const r = viaBundle(dir, ['--version']);
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
      expect(names(r.caches)['ovir.cjs']).toBe('none');
    });
  });

  it('checks a cache by CRC-32, the same from zlib and from the plain JS fallback (Node before 20.15)', () => {
    expect(crc32Js(Buffer.from('123456789'))).toBe(0xcbf43926); // the check value of CRC-32 (zlib, PNG)
    expect(crc32Js(new Uint8Array(0))).toBe(0);
    const bytes = Buffer.from(Array.from({ length: 100_003 }, (_, i) => (i * 2654435761) >>> 24));
    expect(checksum(bytes)).toBe(crc32Js(bytes));
    const native = (zlib as { crc32?: (b: Uint8Array) => number }).crc32;
    if (native) expect(crc32Js(bytes)).toBe(native(bytes));
  });

  it('is used only while it is newer than the compiled sources (a tsc build after it makes it stale)', () => {
    const d = join(work, 'stale');
    mkdirSync(join(d, 'cli'), { recursive: true });
    mkdirSync(join(d, 'src/cli'), { recursive: true });
    writeFileSync(join(d, 'cli/ovir.cjs'), '');
    writeFileSync(join(d, 'src/cli/main.js'), '');
    utimesSync(join(d, 'src/cli/main.js'), 1000, 1000);
    utimesSync(join(d, 'cli/ovir.cjs'), 2000, 2000);
    expect(bundleEntry(d)).toBe(join(d, 'cli/ovir.cjs'));
    utimesSync(join(d, 'src/cli/main.js'), 3000, 3000);
    expect(bundleEntry(d)).toBeNull();
    rmSync(join(d, 'cli'), { recursive: true });
    expect(bundleEntry(d)).toBeNull();
  });
});
