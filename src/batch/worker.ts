/**
 * The worker-thread entry of `ovir batch` (run by piscina from the compiled dist/src/batch/worker.js).
 *
 * Test hooks (environment, read by this file only; never set them in production): a model whose
 * input path contains OVIR_TEST_WORKER_CRASH makes the worker exit abruptly (a killed worker);
 * one containing OVIR_TEST_WORKER_HANG leaves a temp file where its output is staged (as an atomic
 * write that was interrupted) and then never finishes (a hung model, for timeouts and Ctrl-C);
 * OVIR_TEST_WORKER_BOOT_FAIL=1 makes every worker thread fail while starting.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { runModelTask } from './task.js';
import type { ModelTask, TaskResult } from './types.js';

if (!isMainThread && process.env.OVIR_TEST_WORKER_BOOT_FAIL === '1') throw new Error('test hook: the worker fails while starting');

function hook(name: string, input: string): boolean {
  const marker = process.env[name];
  return marker !== undefined && marker !== '' && input.includes(marker);
}

export default async function work(task: ModelTask): Promise<TaskResult> {
  if (hook('OVIR_TEST_WORKER_CRASH', task.input)) process.exit(70);
  if (hook('OVIR_TEST_WORKER_HANG', task.input)) {
    const out = task.outputs[0]!;
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(join(dirname(out), `.${basename(out)}.${process.pid}.deadbeef.tmp`), 'partial');
    await new Promise(() => setInterval(() => {}, 1000));
  }
  return runModelTask(task);
}
