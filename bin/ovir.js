#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json): an ES module entry costs Node's ESM loader, about 5 ms of every
// run (measured: `ovir --version` 81 → 74 ms, a small conversion 128 → 121 ms).
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const dist = join(__dirname, '..', 'dist');

// Node's default heap (about 4 GB on 64-bit) is too small for a 1,000,000-node model. When the
// models on the command line may need more than half of it (src/cli/heap.cts, from their sizes)
// and no heap size is given (a node flag or NODE_OPTIONS), the CLI runs itself once more with a
// heap of 3/4 of the machine's memory (at most 16 GB), passing signals on and exiting as that
// process does. Not always: a second Node costs about 0.1 s of every run.
const FLAG = '--max-old-space-size';
const given = process.execArgv.some((a) => a.startsWith(FLAG)) || (process.env.NODE_OPTIONS ?? '').includes(FLAG);
const heapMb = given ? null : require(join(dist, 'src/cli/heap.cjs')).largerHeapFor(process.argv.slice(2));

if (heapMb !== null) {
  // (child_process only here: it loads streams, net and dgram, 2–3 ms of a run that does not re-spawn)
  const child = require('node:child_process').spawn(process.execPath, [...process.execArgv, `${FLAG}=${heapMb}`, __filename, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
} else {
  // The bundle with its code caches (scripts/build-cli.mjs) when it is current; else dist/src.
  const loader = require(join(dist, 'src/cli/bundle-loader.cjs'));
  const entry = loader.bundleEntry(dist + '/');
  const run = entry ? Promise.resolve(loader.loadChunk(entry)) : import(pathToFileURL(join(dist, 'src/cli/main.js')).href);
  // Exits as soon as the command is done and its output written: Node's own teardown of the heap
  // after that took 2-3 ms of a small conversion and ~10 ms of a 100k-node one (measured).
  run.then((cli) => cli.main(process.argv).then((code) => {
    process.exitCode = code;
    if (cli.outputDrained()) process.exit(code);
  }));
}
