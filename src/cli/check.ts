import { Option, type Command } from 'commander';
import { IF_MERGE_POLICIES } from '../shape/rule.js';
import type { RegisterCommand } from './commands.js';

/** What commander parses for `ovir check`. */
export interface CheckCliOptions { roundtrip?: boolean; json?: boolean; ifMerge?: string; verbose?: boolean; strict?: boolean; run?: boolean }

/**
 * `ovir check <a> [<b>] [--roundtrip] [--json] [--run]`: are the two forms equivalent? Exit 0 iff
 * no contradiction and no inference error in either form (roundtrip included) and, with --run, the
 * same outputs in onnxruntime; 1 on a contradiction, an inference error, different outputs, or when
 * a file cannot be loaded or converted; 2 on a usage
 * error (--run without onnxruntime-node among them). See docs/check.md. What it does is
 * check-run.ts, loaded when the command runs (startup: see commands.ts).
 */
export const registerCheck: RegisterCommand = (program: Command, setExit) => {
  program
    .command('check')
    .description('prove the ONNX and IR forms equivalent: infer types and shapes of both and compare every tensor they both name')
    .argument('<a>', 'a model (.onnx, or .xml with its .bin); alone, it is converted to the other form in memory')
    .argument('[b]', 'the other form to compare it with, as given')
    .option('--roundtrip', 'also convert <a> to the other form and back, and compare the result with <a>')
    .option('--json', 'one JSON object per comparison, one per line')
    .addOption(new Option('--if-merge <policy>', 'If-merge rule of shape inference, for both forms (default: each form\'s own)').choices(IF_MERGE_POLICIES))
    .option('--strict', 'a wrong declared type of an intermediate value is an error that fails the check (default: a warning)')
    .option('-v, --verbose', 'also list compatible entries, unmatched tensors and every inference diagnostic')
    .option('--run', 'also run both forms in onnxruntime on seeded random inputs and compare the outputs (an IR form is converted to ONNX by ovir first); needs onnxruntime-node')
    .action(async (a: string, b: string | undefined, opts: CheckCliOptions) => (await import('./check-run.js')).runCheck(a, b, opts, setExit));
};
