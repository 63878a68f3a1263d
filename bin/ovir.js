#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

// Node's default heap (about 4 GB on 64-bit) is too small for a 1,000,000-node model: the source
// graph and the converted graph are alive together (then about 1.5 KB per node each; a decoded
// ONNX graph is now about 710 B per node, the converted IR graph about 1 KB). Measured: `ovir
// convert` of the 1M-node Add/Relu/Mul chain (bench/models.py) ONNX → IR stopped with "Reached
// heap limit" at 4.1 GB after 103 s of CPU (before the per-node savings). So unless a heap size
// is given (a node flag or NODE_OPTIONS), the CLI runs itself once more with a heap of 3/4 of the
// machine's memory (at most 16 GB), passing signals on and exiting as that process does.
const FLAG = '--max-old-space-size';
const given = process.execArgv.some((a) => a.startsWith(FLAG)) || (process.env.NODE_OPTIONS ?? '').includes(FLAG);
const heapMb = Math.min(16384, Math.floor((totalmem() / 2 ** 20) * 0.75));

if (!given && heapMb > 4608) {
  const child = spawn(process.execPath, [...process.execArgv, `${FLAG}=${heapMb}`, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
} else {
  const { main } = await import('../dist/src/cli/main.js');
  process.exitCode = await main(process.argv);
}
