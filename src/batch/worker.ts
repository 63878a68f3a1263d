/**
 * The worker-thread entry of `ovir batch` (run by piscina from the compiled dist/src/batch/worker.js).
 *
 * Test hooks (environment, read by this file only; never set them in production): a model whose
 * input path contains OVIR_TEST_WORKER_CRASH makes the worker exit abruptly (a killed worker);
 * one containing OVIR_TEST_WORKER_HANG leaves a temp file where its output is staged (as an atomic
 * write that was interrupted) and then never finishes (a hung model, for timeouts and Ctrl-C).
 */
import { writeFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { runModelTask } from './task.js';
import type { ModelTask, TaskResult } from './types.js';

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
