/**
 * The file piscina loads in each worker thread when the worker runs from dist/src (an ES module).
 * piscina loads its worker with require(); in Node 20.19+ that is require() of an ES module, and a
 * second require() of an ES module whose first evaluation threw aborts the whole process (V8:
 * "Module::IsGraphAsync must be used on an instantiated module", seen in the batch tests' worker
 * that fails while starting). This CommonJS file imports the worker once, with import(), and every
 * task awaits that one outcome: a worker that cannot start fails its tasks (or its thread) with the
 * reason, never the process. (The CLI bundle's worker, dist/cli/worker.js, is CommonJS already.)
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ModelTask, TaskResult } from './types.js';

const loaded: Promise<{ default: (task: ModelTask) => Promise<TaskResult> }> = import(pathToFileURL(join(__dirname, 'worker.js')).href);

export = async function work(task: ModelTask): Promise<TaskResult> {
  return (await loaded).default(task);
};
