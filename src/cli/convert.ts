import { Option, type Command } from 'commander';
import type { RegisterCommand } from './commands.js';
import { addConvertOptions } from './convert-options.js';

/**
 * `ovir convert INPUT_MODEL [--output_model PATH] [--input …] [--output …] [--compress_to_fp16]
 * [--opset N] [--json] [--verbose]` (or `ovir INPUT_MODEL …`, as ovc is called): ovc's command line, both directions (the format of each side is told by
 * its extension). The output is written atomically; on success the written files are printed as
 * ovc prints them. Exit 0 on success; 1 with every problem of the model (grouped, one line per
 * cause; --json lists every diagnostic); 2 on a usage error (ovc's `--extension` and `--dynamo` are
 * accepted only to say why they do not apply). What it does is convert-run.ts,
 * loaded when the command runs (startup: see commands.ts).
 */
export const registerConvert: RegisterCommand = (program: Command, setExit) => {
  const cmd = program
    .command('convert')
    .description('convert a model as ovc does: ONNX → OpenVINO IR (.xml + .bin), or IR → ONNX')
    .argument('<input_model>', 'model to read (.onnx, or .xml with its .bin beside it)')
    .option('-o, --output_model <path>', 'file or directory to write (default ./<name>.xml, or ./<name>.onnx from IR); .xml writes the .bin beside it')
    .option('--output-model <path>', 'the same as --output_model');
  addConvertOptions(cmd)
    .option('--json', 'print the result as JSON on stdout: {"ok", "outputs"} or {"ok": false, "diagnostics": [every one]}')
    .option('--verbose', 'also print what was done, on stderr: each step (read, convert, write) with its time, the nodes before and after, the files\' sizes and the peak memory')
    .addOption(new Option('--extension <path>', 'ovc only: not applicable').hideHelp())
    .addOption(new Option('--dynamo', 'ovc only: not applicable').hideHelp())
    .action(async (input: string, raw: Record<string, unknown>) => (await import('./convert-run.js')).runConvert(input, raw, setExit));
};
