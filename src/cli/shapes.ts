import { Option, type Command } from 'commander';
import { IF_MERGE_POLICIES, type IfMergePolicy } from '../shape/rule.js';
import type { RegisterCommand } from './commands.js';

/**
 * `ovir shapes <paths…> [--json] [--if-merge onnx|symbolic|openvino]`: infers and prints the type
 * and shape of every value. Exit 1 when a file cannot be read or inference reports an error,
 * after every input has been reported. What it does is shapes-run.ts, loaded when the command runs
 * (startup: see commands.ts).
 */
export const registerShapes: RegisterCommand = (program: Command, setExit) => {
  program
    .command('shapes')
    .description('infer and print the element type and shape of every value (bodies included)')
    .argument('<paths...>', 'models (.onnx, or .xml with its .bin)')
    .option('--json', 'one JSON object per model, one per line, in input order')
    .addOption(new Option('--if-merge <policy>', 'how If merges its branches (default: onnx for ONNX, openvino for IR)').choices([...IF_MERGE_POLICIES]))
    .action(async (paths: string[], opts: { json?: boolean; ifMerge?: IfMergePolicy }) => (await import('./shapes-run.js')).runShapes(paths, opts, setExit));
};
