import { OvirError } from '../diag/diagnostic.js';
import { writeFilesAtomic } from '../fs/atomic.js';
import { BatchUsageError, convertBatch } from '../batch/batch.js';
import { junitXml } from '../batch/junit.js';
import { progressSink } from '../batch/progress.js';
import { parseShard, type Shard } from '../batch/shard.js';
import type { BatchOptions, BatchReport } from '../batch/types.js';
import type { BatchCliOptions } from './batch.js';
import { convertOptionsFrom } from './convert-options.js';
import { stderr, stdout } from './stdio.js';

/** Turns the command line into BatchOptions, or usage problems. */
function toOptions(o: BatchCliOptions & Record<string, unknown>): BatchOptions | string[] {
  const shared = convertOptionsFrom(o);
  const problems: string[] = [...shared.problems];
  const opts: BatchOptions = { ...shared.options, outDir: o.outDir };
  if (o.to) opts.to = o.to;
  const int = (name: string, v: string, min: number): number | undefined => {
    if (!/^\d+$/.test(v) || Number(v) < min) { problems.push(`${name} expects a whole number >= ${min}, got '${v}'`); return undefined; }
    return Number(v);
  };
  if (o.jobs !== undefined) { const j = int('--jobs', o.jobs, 0); if (j !== undefined) opts.jobs = j; }
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
  if (opts.compressToFp16 && o.to === 'onnx') problems.push('--compress-to-fp16 applies to OpenVINO IR outputs only (--to onnx)');
  if (o.resume) opts.resume = true;
  if (o.check) opts.check = true;
  if (o.roundtrip) opts.roundtrip = true;
  if (o.run) opts.run = true;
  return problems.length ? problems : opts;
}

function summary(r: BatchReport, seconds: number): string {
  return `${r.total} models: ${r.converted} converted, ${r.failed} failed, ${r.skipped} skipped${r.interrupted ? `, ${r.interrupted} interrupted` : ''} (${seconds.toFixed(1)} s)\n`;
}

/** `ovir batch`'s action (declared in batch.ts): converts every model, writes the reports, sets the exit code. */
export async function runBatch(inputs: string[], o: BatchCliOptions & Record<string, unknown>, setExit: (code: number) => void): Promise<void> {
  const opts = toOptions(o);
  const usage = (problems: string[]) => {
    for (const p of problems) stderr().write(`ovir batch: ${p}\n`);
    setExit(2);
  };
  if (Array.isArray(opts)) return usage(opts);
  const sink = progressSink(stdout(), stderr(), o.quiet === true);
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
  if (!o.quiet) stdout().write(summary(report, (performance.now() - t0) / 1000));
  if (abort.signal.aborted) {
    stderr().write(`ovir batch: interrupted: ${report.interrupted} of ${report.total} models not converted${files.length ? `; report written to ${files.map((f) => f.path).join(' and ')}` : ''}\n`);
  }
  setExit(abort.signal.aborted ? 130 : report.failed > 0 ? 1 : 0);
}
