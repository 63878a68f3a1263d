import type { Command } from 'commander';
import { registerInfo } from './info.js';
import { registerBatch } from './batch.js';
import { registerShapes } from './shapes.js';
import { registerConvert } from './convert.js';
import { registerCheck } from './check.js';

/**
 * Each CLI command lives in its own file and registers itself here. `setExit` records the exit
 * code the command wants (see EXIT in main.ts); usage errors are left to commander (exit 2).
 */
export type RegisterCommand = (program: Command, setExit: (code: number) => void) => void;

export const COMMANDS: RegisterCommand[] = [
  registerInfo,
  registerBatch,
  registerShapes,
  registerConvert,
  registerCheck,
];
