import { InvalidArgumentError, type Command } from 'commander';
import { formatDiagnostic, OvirError } from '../diag/diagnostic.js';
import { parseInputOverrides } from '../batch/input-override.js';
import { parseFreeze } from '../convert/freeze.js';
import { convertModel, DEFAULT_ONNX_OPSET, MAX_ONNX_OPSET, MIN_ONNX_OPSET } from '../convert/index.js';
import { formatOf, loadModel, saveModel } from '../io/load.js';
import type { RegisterCommand } from './commands.js';

interface ConvertCliOptions {
  output: string;
  opset?: number;
  compressToFp16?: boolean;
  input?: string[];
  strict?: boolean;
  freeze?: string[];
}

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

function parseOpset(s: string): number {
  const n = Number(s);
  if (!/^\d+$/.test(s) || n < MIN_ONNX_OPSET || n > MAX_ONNX_OPSET) {
    throw new InvalidArgumentError(`expected an ONNX opset from ${MIN_ONNX_OPSET} to ${MAX_ONNX_OPSET}`);
  }
  return n;
}

/**
 * `ovir convert <input> -o <output> [--opset N] [--compress-to-fp16] [--input name[shape]…]`:
 * converts one model between ONNX (.onnx) and OpenVINO IR (.xml + .bin); each format is told by
 * its extension. The output is written atomically. Exit 0 on success, 1 with every problem of the
 * model listed (unsupported ops, attributes, types, malformed If…), 2 on a usage error.
 */
export const registerConvert: RegisterCommand = (program: Command, setExit) => {
  program
    .command('convert')
    .description('convert a model: ONNX → OpenVINO IR (.xml + .bin) or IR → ONNX, by the extensions')
    .argument('<input>', 'model to read (.onnx, or .xml with its .bin beside it)')
    .requiredOption('-o, --output <path>', 'model to write (.xml writes the .bin beside it; .onnx)')
    .option('--opset <N>', `ONNX opset to emit when writing ONNX (default ${DEFAULT_ONNX_OPSET})`, parseOpset)
    .option('--compress-to-fp16', 'store f32 constants as f16 (IR output), as ovc does')
    .option('--input <name[shape]>', 'override an input\'s shape, e.g. x[1,3,224,224] or x[N,?] (repeatable)', collect)
    .option('--freeze <name=value>', 'make an input a constant and fold what it decides (If branches included), e.g. sr=16000 or ovc\'s sr{i64}->16000 (repeatable, comma-separated)', collect)
    .option('--strict', 'a wrong declared type of an intermediate value is an error (default: a warning, inference trusted)')
    .action((input: string, o: ConvertCliOptions) => {
      for (const p of [input, o.output]) {
        if (!formatOf(p)) throw OvirError.of('FILE_UNKNOWN_FORMAT', '', { path: p }, p);
      }
      const to = formatOf(o.output) === 'onnx' ? 'onnx' : 'ov';
      const shapes = parseInputOverrides(o.input ?? []);
      if (typeof shapes === 'string') throw OvirError.of('CLI_USAGE', '', { detail: shapes });
      const freeze = parseFreeze(o.freeze ?? []);
      if (typeof freeze === 'string') throw OvirError.of('CLI_USAGE', '', { detail: freeze });
      const model = loadModel(input);
      let out;
      try {
        out = convertModel(model, {
          to,
          ...(o.opset !== undefined ? { opset: o.opset } : {}),
          ...(o.compressToFp16 ? { compressToFp16: true } : {}),
          ...(shapes.size ? { inputShapes: Object.fromEntries(shapes) } : {}),
          ...(o.strict ? { strict: true } : {}),
          ...(freeze.size ? { freeze: Object.fromEntries(freeze) } : {}),
          onWarning: (d) => { process.stderr.write(formatDiagnostic({ ...d, file: d.file ?? input }) + '\n'); },
        });
      } catch (e) {
        if (e instanceof OvirError) for (const d of e.diagnostics) d.file ??= input;
        throw e;
      }
      saveModel(out, o.output);
      setExit(0);
    });
};
