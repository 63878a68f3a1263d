import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { discoverModels } from './discover.js';
import { optionsStamp, planOutputs, ResumeRecord, upToDate, type PlannedModel } from './plan.js';
import { loadOrt } from './run-ort.js';
import { createPool, preflightWorker, type TaskPool } from './pool.js';
import { selectShard } from './shard.js';
import { runModelTask } from './task.js';
import { sweepTemps } from './temp-sweep.js';
import type { BatchOptions, BatchReport, ModelResult, ModelTask, TaskResult } from './types.js';

/** Usage problems found before any model is touched (bad inputs, options): CLI exit code 2. */
export class BatchUsageError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join('\n'));
    this.name = 'BatchUsageError';
    this.problems = problems;
  }
}

function countReport(models: ModelResult[]): BatchReport {
  const n = (s: ModelResult['status']) => models.filter((m) => m.status === s).length;
  return { total: models.length, converted: n('converted'), failed: n('failed'), skipped: n('skipped'), interrupted: n('interrupted'), models };
}

function why(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Converts every model found in `inputs` (files, directories searched recursively for *.onnx and
 * *.xml, globs) into `opts.outDir`, mirroring each input's path relative to its root. Bad models
 * fail alone (each with its reason), a crashed or timed-out worker fails only its model, outputs
 * are written atomically and inputs are never overwritten. Resolves with the report (models in
 * sorted input order); rejects with BatchUsageError on bad inputs or options.
 */
export async function convertBatch(inputs: readonly string[], opts: BatchOptions): Promise<BatchReport> {
  const problems: string[] = [];
  if (!opts.outDir) problems.push('an output directory is required (--out-dir)');
  // an existing file is no output directory (a model given as --out-dir was also left out of the
  // inputs, as everything under the output directory is: "0 models", exit 0, said nothing)
  else if (existsSync(opts.outDir) && !statSync(opts.outDir).isDirectory()) problems.push(`--out-dir ${opts.outDir} is a file, not a directory`);
  const jobs = opts.jobs ?? availableParallelism();
  if (!Number.isInteger(jobs) || jobs < 0) problems.push(`jobs must be a whole number >= 0, got ${opts.jobs}`);
  if (opts.timeoutMs !== undefined && !(opts.timeoutMs > 0)) problems.push(`the per-model timeout must be > 0 ms, got ${opts.timeoutMs}`);
  if (opts.run && !opts.roundtrip && !opts.check) problems.push('--run needs --check or --roundtrip');
  if (inputs.length === 0) problems.push('no inputs given');
  if (problems.length) throw new BatchUsageError(problems);
  if (opts.run) {
    try {
      await loadOrt();
    } catch (e) {
      throw new BatchUsageError([`--run runs models in onnxruntime, which is not installed here: install it with \`npm install onnxruntime-node\` (${why(e)})`]);
    }
  }
  const found = discoverModels(inputs, opts.outDir);
  if (found.problems.length) throw new BatchUsageError(found.problems);
  const plan = planOutputs(selectShard(found.models, opts.shard), opts.outDir, opts.to);

  const emit = opts.onEvent ?? (() => {});
  const total = plan.length;
  const results: (ModelResult | undefined)[] = new Array(total);
  let done = 0;
  const finish = (i: number, r: ModelResult) => {
    results[i] = r;
    done++;
    emit({ type: 'model-done', result: r, done, total });
  };
  emit({ type: 'start', total });

  const todo: number[] = [];
  const convertOptions: ModelTask['convert'] = {
    ...(opts.opset !== undefined ? { opset: opts.opset } : {}),
    ...(opts.compressToFp16 ? { compressToFp16: true } : {}),
    ...(opts.inputs?.length ? { inputs: [...opts.inputs] } : {}),
    ...(opts.keepOutputs?.length ? { keepOutputs: [...opts.keepOutputs] } : {}),
    ...(opts.strict ? { strict: true } : {}),
    ...(opts.freeze?.length ? { freeze: [...opts.freeze] } : {}),
  };
  const stampOf = (p: PlannedModel) => optionsStamp(p.to, convertOptions);
  const resumeRecord = new ResumeRecord(opts.outDir);
  plan.forEach((p, i) => {
    if (p.conflict) finish(i, { input: p.input, outputs: p.outputs, status: 'failed', error: p.conflict, ms: 0, check: null });
    else if (opts.resume && upToDate(p.input, p.outputs, stampOf(p), resumeRecord)) finish(i, { input: p.input, outputs: p.outputs, status: 'skipped', error: null, ms: 0, check: null });
    else todo.push(i);
  });

  const taskOf = (p: PlannedModel): ModelTask => ({
    input: p.input,
    outputs: p.outputs,
    to: p.to,
    convert: convertOptions,
    check: opts.check === true,
    roundtrip: opts.roundtrip === true,
    run: opts.run === true,
  });
  const record = (i: number, r: TaskResult) => {
    const p = plan[i]!;
    // The options an output was made with, for --resume (outputs kept for inspection count too).
    if (r.status === 'converted' || (r.status === 'failed' && r.check !== null)) resumeRecord.note(p.outputs[0]!, stampOf(p));
    finish(i, { input: p.input, outputs: p.outputs, ...r });
  };
  const interrupted = (i: number, started: boolean) => record(i, {
    status: 'interrupted', error: started ? 'interrupted while converting' : 'not started: the batch was interrupted', ms: 0, check: null,
  });

  if (todo.length && jobs === 0) {
    for (const i of todo) {
      if (opts.signal?.aborted) { interrupted(i, false); continue; }
      emit({ type: 'model-start', input: plan[i]!.input, index: i, total });
      record(i, await runModelTask(taskOf(plan[i]!)));
    }
  } else if (todo.length) {
    await preflightWorker();
    let dead: string | null = null;
    const poolDown = new AbortController(); // stops tasks queued for workers that will never start
    const pool: TaskPool = createPool(Math.min(jobs, todo.length), (e) => {
      dead ??= why(e);
      poolDown.abort();
    });
    try {
      let next = 0;
      const lane = async () => {
        while (next < todo.length) {
          const i = todo[next++]!;
          const p = plan[i]!;
          if (opts.signal?.aborted) { interrupted(i, false); continue; }
          if (dead !== null) { record(i, { status: 'failed', error: `not converted: no worker could be started (${dead})`, ms: 0, check: null }); continue; }
          emit({ type: 'model-start', input: p.input, index: i, total });
          const t0 = performance.now();
          const timeout = opts.timeoutMs !== undefined ? AbortSignal.timeout(opts.timeoutMs) : undefined;
          const signal = AbortSignal.any([poolDown.signal, ...[opts.signal, timeout].filter((s): s is AbortSignal => s !== undefined)]);
          try {
            record(i, await pool.run(taskOf(p), signal));
          } catch (e) {
            sweepTemps(p.outputs);
            const ms = Math.round(performance.now() - t0);
            if (opts.signal?.aborted) interrupted(i, true);
            else if (poolDown.signal.aborted) record(i, { status: 'failed', error: `not converted: no worker could be started (${dead})`, ms: 0, check: null });
            else if (timeout?.aborted) record(i, { status: 'failed', error: `timed out after ${opts.timeoutMs} ms: the worker was stopped`, ms, check: null });
            else record(i, { status: 'failed', error: `the worker converting this model stopped (${why(e)})`, ms, check: null });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(jobs, todo.length) }, lane));
    } finally {
      await pool.destroy();
      // Workers stopped mid-write leave only temp files (renames are the last step): remove them.
      sweepTemps(todo.flatMap((i) => plan[i]!.outputs));
    }
  }
  try {
    resumeRecord.save();
  } catch { /* not fatal: --resume will convert these models again */ }
  const report = countReport(results.map((r, i) => r ?? { input: plan[i]!.input, outputs: plan[i]!.outputs, status: opts.signal?.aborted ? 'interrupted' : 'failed', error: 'not converted', ms: 0, check: null }));
  emit({ type: 'end', report });
  return report;
}

