// `npm run build` (after tsc): the CLI as one bundle with V8 code caches, for startup.
//
// 1. rolldown bundles the compiled CLI (dist/src/cli/main.js, as tsc wrote it) and its
//    dependencies into dist/cli/ovir.cjs; each command's action, loaded with import() (see
//    src/cli/commands.ts), becomes a chunk of its own beside it. CommonJS, because V8's code cache
//    is for scripts (src/cli/bundle-loader.cts); ASCII, so the loader reads it as latin1; dynamic
//    imports as `require`, which the loader answers (a vm script's own `import()` needs Node's
//    experimental vm loader and prints a warning).
// 2. The batch worker is a second entry, dist/cli/worker.js, found beside the bundle by
//    src/batch/pool.ts (dist/cli/package.json makes .js CommonJS there); the onnxruntime child,
//    found the same way by src/batch/run-ort.ts, is a small file importing the compiled one.
//    piscina stays in node_modules: it starts its threads from a worker.js beside its own code.
// 3. Code caches: the bundle is loaded through the loader, converts a sample both ways in a
//    temporary folder (so that the functions a conversion compiles are in the caches; without
//    samples/ only the chunks' top levels are), the other chunks are loaded too, and the cache of
//    every chunk is written beside it (`<chunk>.cache`).
// 4. The new dist/cli replaces the old one by renames, so a running `ovir` sees either whole.
// The library (dist/src/index.js) is not bundled: library users import dist/src as before.
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'rolldown';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(repo, 'dist');
const final = join(dist, 'cli');
// Built beside dist/cli, at the same depth: the bundle finds ../../package.json from there too.
const out = join(dist, `.cli-build-${process.pid}`);

rmSync(out, { recursive: true, force: true });
await build({
  input: { ovir: join(dist, 'src/cli/main.js'), worker: join(dist, 'src/batch/worker.js') },
  platform: 'node',
  // onnxruntime-node: optional, native, only for --run. piscina: see 2.
  external: [/^onnxruntime-node(\/|$)/, /^piscina(\/|$)/],
  logLevel: 'warn',
  plugins: [lazyChildProcess()],
  output: {
    dir: out,
    format: 'cjs',
    entryFileNames: (chunk) => (chunk.name === 'worker' ? 'worker.js' : '[name].cjs'),
    chunkFileNames: '[name]-[hash].cjs',
    charset: 'ascii',
    dynamicImportInCjs: false,
  },
});
/**
 * commander requires child_process when it loads, for subcommands that are executables of their
 * own (ovir has none): with it come streams, net and dgram, 2–3 ms of every run. Its import is
 * answered by an object that loads child_process on first use (the same module then).
 */
function lazyChildProcess() {
  const id = '\0ovir-lazy-child-process';
  return {
    name: 'ovir-lazy-child-process',
    resolveId(source, importer) {
      if ((source === 'node:child_process' || source === 'child_process') && importer && /[\\/]commander[\\/]/.test(importer)) return id;
      return null;
    },
    load(loading) {
      if (loading !== id) return null;
      // (the name built at run time, so that the bundler does not hoist the require)
      return "const name = 'node:' + 'child_process';\n"
        + 'const get = () => (process.getBuiltinModule ? process.getBuiltinModule(name) : require(name));\n'
        + 'module.exports = new Proxy({}, { get: (_, key) => get()[key] });\n';
    },
  };
}

writeFileSync(join(out, 'package.json'), '{ "type": "commonjs" }\n');
writeFileSync(join(out, 'ort-child.js'), "// The onnxruntime child process, found beside the bundle by src/batch/run-ort.ts.\nimport('../src/batch/ort-child.js');\n");

const { loadChunk, writeCodeCaches } = await import(pathToFileURL(join(dist, 'src/cli/bundle-loader.cjs')).href);
const { main } = loadChunk(join(out, 'ovir.cjs'));
const tmp = mkdtempSync(join(tmpdir(), 'ovir-build-cli-'));
const quiet = { write: process.stdout.write };
try {
  process.stdout.write = () => true; // the sample conversions print what they wrote
  const sample = join(repo, 'samples/if-nested/model.onnx');
  const runs = existsSync(sample) ? [['convert', sample, '-o', join(tmp, 'm.xml')], ['convert', join(tmp, 'm.xml'), '-o', join(tmp, 'm.onnx')]] : [];
  for (const argv of runs) {
    const code = await main(['node', 'ovir', ...argv]);
    if (code !== 0) throw new Error(`build-cli: the bundle failed to run \`ovir ${argv.join(' ')}\` (exit ${code})`);
  }
} finally {
  process.stdout.write = quiet.write;
  rmSync(tmp, { recursive: true, force: true });
}
const files = readdirSync(out).filter((f) => f.endsWith('.cjs') || f === 'worker.js');
for (const f of files) loadChunk(join(out, f));
const caches = writeCodeCaches();
const old = join(dist, `.cli-old-${process.pid}`);
if (existsSync(final)) renameSync(final, old);
renameSync(out, final);
rmSync(old, { recursive: true, force: true });
process.stderr.write(`build-cli: ${files.length} chunks in dist/cli, ${caches.length} code caches\n`);
