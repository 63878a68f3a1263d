import { existsSync } from 'node:fs';
import { totalmem } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { ModelTask, TaskResult } from './types.js';

/**
 * The compiled worker module. From dist it is the sibling worker.js; when this module runs from
 * the TypeScript sources (vitest), worker threads cannot load .ts, so the build in dist/ is used
 * (`npm run build` first; the batch tests do that themselves).
 */
export function workerModule(): string {
  const f = fileURLToPath(new URL('worker.js', workerDir()));
  if (!existsSync(f)) throw new Error(`worker threads run the compiled ${f}, which does not exist: run \`npm run build\` first`);
  return f;
}

/**
 * The file piscina starts each worker thread with: beside an ES-module worker (dist/src) the
 * CommonJS worker-boot.cjs that imports it (see worker-boot.cts: why not require() of it);
 * the CLI bundle's worker.js, CommonJS itself, directly.
 */
export function workerFile(): string {
  const boot = fileURLToPath(new URL('worker-boot.cjs', workerDir()));
  return existsSync(boot) ? boot : workerModule();
}

function workerDir(): URL {
  const here = new URL(import.meta.url);
  return here.pathname.endsWith('.ts') ? new URL('../../dist/src/batch/', here) : new URL('./', here);
}

/** A pool of `threads` workers; a task whose worker dies or is stopped rejects, the pool replaces the worker. */
export interface TaskPool {
  run(task: ModelTask, signal: AbortSignal): Promise<TaskResult>;
  /** Stops every worker (running tasks included) and waits until they have exited. */
  destroy(): Promise<void>;
}

/**
 * Loads the worker module once in this thread, so that a worker that cannot even start (a broken
 * or missing build) is one clear error instead of every model failing the same way.
 */
export async function preflightWorker(): Promise<void> {
  const file = workerModule();
  try {
    await import(pathToFileURL(file).href);
  } catch (e) {
    throw new Error(`cannot load the batch worker ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Each worker's heap limit: 3/4 of the machine's memory shared among the workers (at least 256 MB).
 * Without one a worker has the process's (up to 16 GB once bin/ovir.js re-spawns for a batch), so
 * one runaway model grew its worker until the kernel killed the whole batch, report unwritten
 * (8.6 GB of RSS; found by a hostile-input campaign). With one, V8 stops that worker
 * (ERR_WORKER_OUT_OF_MEMORY) and the model fails like any other whose worker stopped.
 * OVIR_TEST_WORKER_HEAP_MB sets it for tests.
 */
export function workerHeapMb(threads: number, env: NodeJS.ProcessEnv = process.env): number {
  const forced = Number(env['OVIR_TEST_WORKER_HEAP_MB']);
  if (Number.isInteger(forced) && forced > 0) return forced;
  return Math.max(256, Math.floor(((totalmem() / 2 ** 20) * 0.75) / Math.max(1, threads)));
}

export function createPool(threads: number, onWorkerFailure: (e: unknown) => void): TaskPool {
  const pool = new Piscina<ModelTask, TaskResult>({
    filename: workerFile(),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 1000,
    concurrentTasksPerWorker: 1,
    resourceLimits: { maxOldGenerationSizeMb: workerHeapMb(threads) },
  });
  // A worker that fails outside a task (while starting) is reported by piscina as an 'error' event
  // and not replaced: queued tasks would wait forever, so the owner must stop them.
  pool.on('error', (e: unknown) => onWorkerFailure(e));
  return {
    run: (task, signal) => pool.run(task, { signal }),
    destroy: () => pool.destroy(),
  };
}
