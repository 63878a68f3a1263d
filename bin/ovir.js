#!/usr/bin/env node
import { fileURLToPath } from 'node:url';

// Node's default heap (about 4 GB on 64-bit) is too small for a 1,000,000-node model. When the
// models on the command line may need more than half of it (src/cli/heap.ts, from their sizes)
// and no heap size is given (a node flag or NODE_OPTIONS), the CLI runs itself once more with a
// heap of 3/4 of the machine's memory (at most 16 GB), passing signals on and exiting as that
// process does. Not always: a second Node costs about 0.1 s of every run.
const FLAG = '--max-old-space-size';
const given = process.execArgv.some((a) => a.startsWith(FLAG)) || (process.env.NODE_OPTIONS ?? '').includes(FLAG);
const heapMb = given ? null : (await import('../dist/src/cli/heap.js')).largerHeapFor(process.argv.slice(2));

if (heapMb !== null) {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [...process.execArgv, `${FLAG}=${heapMb}`, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
} else {
  // The bundle with its code caches (scripts/build-cli.mjs) when it is current; else dist/src.
  const loader = await import('../dist/src/cli/bundle-loader.js');
  const entry = loader.bundleEntry(fileURLToPath(new URL('../dist/', import.meta.url)));
  const { main } = entry ? loader.loadChunk(entry) : await import('../dist/src/cli/main.js');
  process.exitCode = await main(process.argv);
}
