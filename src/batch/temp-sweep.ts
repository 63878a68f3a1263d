import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Removes the temp files that atomic writes of `outputs` by this process leave when a worker is
 * stopped mid-write (`.<name>.<pid>.<random>.tmp` beside each output, see src/fs/atomic.ts; also
 * `.<name>.data.<pid>…` for an ONNX output's external data file).
 * Worker threads share the process id, so only this run's temp files match.
 */
export function sweepTemps(outputs: readonly string[]): number {
  let removed = 0;
  const byDir = new Map<string, Set<string>>();
  for (const o of outputs) {
    const d = dirname(o);
    if (!byDir.has(d)) byDir.set(d, new Set());
    byDir.get(d)!.add(`.${basename(o)}.`);
  }
  for (const [dir, prefixes] of byDir) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) {
      if (!n.endsWith('.tmp') || !n.includes(`.${process.pid}.`)) continue;
      for (const p of prefixes) {
        if (n.startsWith(p)) {
          rmSync(join(dir, n), { force: true });
          removed++;
          break;
        }
      }
    }
  }
  return removed;
}
