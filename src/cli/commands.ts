import type { Command } from 'commander';
import { registerInfo } from './info.js';
import { registerBatch } from './batch.js';
import { registerShapes } from './shapes.js';
import { registerConvert } from './convert.js';
import { registerCheck } from './check.js';

/**
 * Each CLI command lives in its own file and registers itself here. `setExit` records the exit
 * code the command wants (see EXIT in main.ts); usage errors are left to commander (exit 2).
 *
 * Startup: every run declares every command (commander needs the options to parse and for
 * --help), so `<command>.ts` holds only the declaration and imports nothing heavy; what the
 * command does is `<command>-run.ts`, loaded by the action with `import()`. `ovir --version` then
 * loads commander and these declarations only, and `ovir convert` does not load batch's worker
 * pool, globbing, progress bars or JUnit writer (measured: README.md, "Stack").
 */
export type RegisterCommand = (program: Command, setExit: (code: number) => void) => void;

export const COMMANDS: RegisterCommand[] = [
  registerInfo,
  registerBatch,
  registerShapes,
  registerConvert,
  registerCheck,
];
