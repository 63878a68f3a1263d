#!/usr/bin/env node
// The hostile-input fuzz driver (test/hostile/fuzz-run.ts), compiled with tsc into .fuzz-build/
// and run there: `node scripts/fuzz.mjs --seed 7 --rounds 2000 [--jobs 1] [--cli-every 20]
// [--timeout 60] [--groups backend-onnx,ovc-ir] [--only wrapInIfs] [--replay N --keep dir]`.
// Findings: .fuzz-findings.jsonl (one JSON line per finding) and .fuzz-findings.jsonl.summary.json.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'test/hostile/tsconfig.fuzz.json')], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
const run = spawnSync(process.execPath, [join(root, '.fuzz-build/test/hostile/fuzz-run.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
