import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ModelTask, TaskResult } from './types.js';

/**
 * The compiled worker file. From dist it is the sibling worker.js; when this module runs from the
 * TypeScript sources (vitest), worker threads cannot load .ts, so the build in dist/ is used
 * (`npm run build` first; the batch tests do that themselves).
 */
export function workerFile(): string {
  const here = new URL(import.meta.url);
  if (here.pathname.endsWith('.ts')) {
    const f = fileURLToPath(new URL('../../dist/src/batch/worker.js', here));
    if (!existsSync(f)) throw new Error(`worker threads run the compiled ${f}, which does not exist: run \`npm run build\` first`);
    return f;
  }
  return fileURLToPath(new URL('./worker.js', here));
}

/** A pool of `threads` workers; a task whose worker dies or is stopped rejects, the pool replaces the worker. */
export interface TaskPool {
  run(task: ModelTask, signal: AbortSignal): Promise<TaskResult>;
  /** Stops every worker (running tasks included) and waits until they have exited. */
  destroy(): Promise<void>;
}

export function createPool(threads: number): TaskPool {
  const pool = new Piscina<ModelTask, TaskResult>({
    filename: workerFile(),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 1000,
    concurrentTasksPerWorker: 1,
  });
  return {
    run: (task, signal) => pool.run(task, { signal }),
    destroy: () => pool.destroy(),
  };
}
