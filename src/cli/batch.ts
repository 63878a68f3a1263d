import { Option, type Command } from 'commander';
import type { ModelFormat } from '../io/format.js';
import type { RegisterCommand } from './commands.js';
import { addConvertOptions } from './convert-options.js';

/** What commander parses for `ovir batch` (besides the shared conversion options). */
export interface BatchCliOptions {
  outDir: string;
  to?: ModelFormat;
  jobs?: string;
  quiet?: boolean;
  report?: string;
  junit?: string;
  shard?: string;
  resume?: boolean;
  check?: boolean;
  roundtrip?: boolean;
  run?: boolean;
  timeout?: string;
}

/**
 * `ovir batch <inputs…> --out-dir <dir>`: converts a tree of models, in worker threads. Exit 0 if
 * no model failed, 1 if any did, 2 on usage errors, 130 when interrupted (Ctrl-C / SIGTERM: the
 * running workers are stopped, their temp files removed, the report still written). See
 * docs/batch.md. What it does is batch-run.ts, loaded when the command runs (startup: see
 * commands.ts).
 */
export const registerBatch: RegisterCommand = (program: Command, setExit) => {
  const cmd = program
    .command('batch')
    .description('convert many models: files, directories (recursive *.onnx, *.xml) and globs, mirrored under --out-dir')
    .argument('<inputs...>', 'model files, directories and globs (quote globs so the shell leaves them alone)')
    .requiredOption('-o, --out-dir <dir>', 'where outputs go, mirroring each input\'s path relative to its input root')
    .addOption(new Option('--to <format>', 'target format (default: the other format of each input)').choices(['ir', 'onnx']))
    .option('-j, --jobs <n>', 'worker threads (default: number of cores; 0: no workers, one model at a time in the main thread)')
    .option('-q, --quiet', 'no progress output (failures are still reported)')
    .option('--report <file.json>', 'write a JSON report: totals and, per model, input, outputs, status, error, ms, check')
    .option('--junit <file.xml>', 'write a JUnit XML report: one testcase per model')
    .option('--shard <i/n>', 'convert only shard i of n (1-based) of the sorted inputs: a deterministic partition for CI matrices')
    .option('--resume', 'skip models whose outputs exist, are newer than the input and were made with the same conversion options')
    .option('--check', 'check each conversion for equivalence (a contradiction fails the model)')
    .option('--roundtrip', 'convert each output back and check it against the input (a contradiction fails the model)')
    .option('--run', 'with --check: also run the input and its conversion in onnxruntime on seeded random inputs and compare (an IR form converted to ONNX by ovir first, as check --run); with --roundtrip alone: the ONNX input and its round trip')
    .option('--timeout <seconds>', 'per-model time limit: the worker of a slower model is stopped and the model fails');
  addConvertOptions(cmd)
    .action(async (inputs: string[], o: BatchCliOptions & Record<string, unknown>) => (await import('./batch-run.js')).runBatch(inputs, o, setExit));
};
