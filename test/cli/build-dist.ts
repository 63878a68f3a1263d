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
 * Builds dist/ when any source is newer than it, for tests that run `bin/ovir.js` as a user does
 * (a real process, real pipes). Returns the path of bin/ovir.js.
 */
export function builtCli(): string {
  const main = join(repo, 'dist/src/cli/main.js');
  if (!existsSync(main) || statSync(main).mtimeMs < Math.max(newest(join(repo, 'src')), newest(join(repo, 'mappings')))) {
    spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', join(repo, 'tsconfig.json')], { stdio: 'ignore' });
  }
  return join(repo, 'bin/ovir.js');
}
