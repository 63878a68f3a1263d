import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root. */
export const repo = join(import.meta.dirname, '../..');

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith('.ts')) t = Math.max(t, statSync(join(e.parentPath, e.name)).mtimeMs);
  }
  return t;
}

/**
 * The compiled file `rel` (a path under dist/, e.g. `src/batch/worker.js`), built first when it
 * is missing or any source is newer: for tests that run compiled code as a user does (a real
 * process, real pipes, worker threads). Returns its absolute path.
 */
export function builtDist(rel: string): string {
  const file = join(repo, 'dist', rel);
  if (!existsSync(file) || statSync(file).mtimeMs < Math.max(newest(join(repo, 'src')), newest(join(repo, 'mappings')))) {
    spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', join(repo, 'tsconfig.json')], { stdio: 'ignore' });
  }
  return file;
}

/** bin/ovir.js, with dist/ built when a source is newer. */
export function builtCli(): string {
  builtDist('src/cli/main.js');
  return join(repo, 'bin/ovir.js');
}
