import type { Command } from 'commander';
import type { RegisterCommand } from './commands.js';

/**
 * `ovir info <paths…> [--json]`: describes each model. With --json, one object per input per line
 * in input order; a file that cannot be read gets `{"path","error"}` and the exit code is 1 after
 * every input has been reported. What it does is info-run.ts, loaded when the command runs (startup:
 * see commands.ts).
 */
export const registerInfo: RegisterCommand = (program: Command, setExit) => {
  program
    .command('info')
    .description('describe models: format, inputs, outputs, op counts (bodies included), body nesting depth')
    .argument('<paths...>', 'models (.onnx, or .xml with its .bin)')
    .option('--json', 'one JSON object per model, one per line, in input order')
    .action(async (paths: string[], opts: { json?: boolean }) => (await import('./info-run.js')).runInfo(paths, opts, setExit));
};
