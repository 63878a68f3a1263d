import { Option, type Command } from 'commander';
import { MAX_ONNX_OPSET, MIN_ONNX_OPSET } from '../convert/index.js';
import { OvirError } from '../diag/diagnostic.js';
import { writeFilesAtomic } from '../fs/atomic.js';
import { BatchUsageError, convertBatch } from '../batch/batch.js';
import { parseInputOverrides } from '../batch/input-override.js';
import { parseFreeze } from '../convert/freeze.js';
import { junitXml } from '../batch/junit.js';
import { progressSink } from '../batch/progress.js';
import { parseShard, type Shard } from '../batch/shard.js';
import type { BatchOptions, BatchReport } from '../batch/types.js';
import type { ModelFormat } from '../io/format.js';
import type { RegisterCommand } from './commands.js';

interface BatchCliOptions {
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
  compressToFp16?: boolean;
  input?: string[];
  opset?: string;
  strict?: boolean;
  freeze?: string[];
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** Turns the command line into BatchOptions, or usage problems. */
function toOptions(o: BatchCliOptions): BatchOptions | string[] {
  const problems: string[] = [];
  const opts: BatchOptions = { outDir: o.outDir };
  if (o.to) opts.to = o.to;
  const int = (name: string, v: string, min: number): number | undefined => {
    if (!/^\d+$/.test(v) || Number(v) < min) { problems.push(`${name} expects a whole number >= ${min}, got '${v}'`); return undefined; }
    return Number(v);
  };
  if (o.jobs !== undefined) { const j = int('--jobs', o.jobs, 0); if (j !== undefined) opts.jobs = j; }
  if (o.opset !== undefined) {
    const s = int('--opset', o.opset, MIN_ONNX_OPSET);
    if (s !== undefined && s > MAX_ONNX_OPSET) problems.push(`--opset: ovir emits ONNX opsets ${MIN_ONNX_OPSET} to ${MAX_ONNX_OPSET}, got ${s}`);
    else if (s !== undefined) opts.opset = s;
  }
  if (o.timeout !== undefined) {
    const t = Number(o.timeout);
    if (!(t > 0)) problems.push(`--timeout expects seconds > 0, got '${o.timeout}'`);
    else opts.timeoutMs = Math.round(t * 1000);
  }
  if (o.shard !== undefined) {
    const s: Shard | string = parseShard(o.shard);
    if (typeof s === 'string') problems.push(s);
    else opts.shard = s;
  }
  if (o.input?.length) {
    const parsed = parseInputOverrides(o.input);
    if (typeof parsed === 'string') problems.push(parsed);
    opts.inputs = o.input;
  }
  if (o.compressToFp16) opts.compressToFp16 = true;
  if (o.strict) opts.strict = true;
  if (o.freeze?.length) {
    const parsed = parseFreeze(o.freeze);
    if (typeof parsed === 'string') problems.push(parsed);
    opts.freeze = o.freeze;
  }
  if (o.resume) opts.resume = true;
  if (o.check) opts.check = true;
  if (o.roundtrip) opts.roundtrip = true;
  if (o.run) opts.run = true;
  return problems.length ? problems : opts;
}

function summary(r: BatchReport, seconds: number): string {
  return `${r.total} models: ${r.converted} converted, ${r.failed} failed, ${r.skipped} skipped (${seconds.toFixed(1)} s)\n`;
}

/**
 * `ovir batch <inputs…> --out-dir <dir>`: converts a tree of models, in worker threads. Exit 0 if
 * no model failed, 1 if any did, 2 on usage errors, 130 when interrupted (Ctrl-C / SIGTERM: the
 * running workers are stopped, their temp files removed, the report still written). See
 * docs/batch.md.
 */
export const registerBatch: RegisterCommand = (program: Command, setExit) => {
  program
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
    .option('--resume', 'skip models whose outputs exist and are newer than the input')
    .option('--check', 'check each conversion for equivalence (a contradiction fails the model)')
    .option('--roundtrip', 'convert each output back and check it against the input (a contradiction fails the model)')
    .option('--run', 'with --roundtrip: also run the ONNX input and its round trip in onnxruntime on random inputs and compare')
    .option('--timeout <seconds>', 'per-model time limit: the worker of a slower model is stopped and the model fails')
    .option('--compress-to-fp16', 'store f32 weights as f16 in IR outputs')
    .option('--input <name[shape]>', 'override an input\'s shape, e.g. x[1,3,224,224] or x[N,3,?,?] (repeatable)', collect)
    .option('--opset <n>', 'ONNX opset to write')
    .option('--freeze <name=value>', 'make an input a constant and fold what it decides (If branches included), e.g. sr=16000 or ovc\'s sr{i64}->16000 (repeatable, comma-separated)', collect)
    .option('--strict', 'a wrong declared type of an intermediate value is an error (default: a warning, inference trusted)')
    .action(async (inputs: string[], o: BatchCliOptions) => {
      const opts = toOptions(o);
      const usage = (problems: string[]) => {
        for (const p of problems) process.stderr.write(`ovir batch: ${p}\n`);
        setExit(2);
      };
      if (Array.isArray(opts)) return usage(opts);
      const sink = progressSink(process.stdout, process.stderr, o.quiet === true);
      const abort = new AbortController();
      const onSignal = () => abort.abort();
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      const t0 = performance.now();
      let report: BatchReport;
      try {
        report = await convertBatch(inputs, { ...opts, signal: abort.signal, onEvent: (e) => sink.onEvent(e) });
      } catch (e) {
        if (e instanceof BatchUsageError) return usage(e.problems);
        throw e;
      } finally {
        sink.stop();
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      const files = [];
      if (o.report) files.push({ path: o.report, chunks: JSON.stringify(report, null, 2) + '\n' });
      if (o.junit) files.push({ path: o.junit, chunks: junitXml(report) });
      for (const f of files) {
        try {
          writeFilesAtomic([f]);
        } catch (e) {
          throw OvirError.of('FILE_WRITE_FAILED', '', { path: f.path, reason: e instanceof Error ? e.message : String(e) }, f.path);
        }
      }
      if (!o.quiet) process.stdout.write(summary(report, (performance.now() - t0) / 1000));
      setExit(abort.signal.aborted ? 130 : report.failed > 0 ? 1 : 0);
    });
};
