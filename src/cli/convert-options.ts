import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseInputSpecs } from '../batch/input-override.js';
import { parseFreeze } from '../convert/freeze.js';
import type { ConvertFileOptions } from '../batch/types.js';
import { MAX_ONNX_OPSET, MIN_ONNX_OPSET } from '../convert/opset-range.js';
import { DEFAULT_ONNX_OPSET } from '../onnx/versions.js';

/**
 * The conversion options `ovir convert` and `ovir batch` share, in one table: each entry is the
 * commander Option(s) and how its value lands in ConvertFileOptions. Add an option here (ConvertFileOptions gets its field, convertTo passes it on) and both commands get it, parsed and validated the same way. Spellings follow ovc
 * where ovc has the option (`--input`, `--output`, `--compress_to_fp16`), ovir's own kebab-case
 * beside them.
 */
export interface ConvertOptionDef {
  /** The commander options (the first is the documented one; others are alternative spellings). */
  readonly options: () => Option[];
  /**
   * Copies the parsed value(s) into `out`; returns usage problems (exit code 2). `raw` is
   * commander's result object for the command.
   */
  readonly apply: (raw: Record<string, unknown>, out: ConvertFileOptions) => string[];
}

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

function parseOpset(s: string): number {
  const n = Number(s);
  if (!/^\d+$/.test(s) || n < MIN_ONNX_OPSET || n > MAX_ONNX_OPSET) {
    throw new InvalidArgumentError(`expected an ONNX opset from ${MIN_ONNX_OPSET} to ${MAX_ONNX_OPSET}`);
  }
  return n;
}

/** ovc's boolean spellings (Python's True/False and friends). */
export function parseBool(s: string): boolean {
  if (/^(true|1|yes|on)$/i.test(s)) return true;
  if (/^(false|0|no|off)$/i.test(s)) return false;
  throw new InvalidArgumentError(`expected True or False, got '${s}' (write --compress_to_fp16=True, or put the model path before the option)`);
}

/** Splits comma-separated lists (ovc's `--output a,b`), accepting the option more than once. */
const collectList = (v: string, prev: string[] = []): string[] => [...prev, ...v.split(',').map((s) => s.trim())];

/** A repeatable option whose texts must parse: kept as given when they do, else the parser's message. */
function keepParsed(texts: string[] | undefined, parse: (t: string[]) => unknown, keep: (t: string[]) => void): string[] {
  if (!texts?.length) return [];
  const parsed = parse(texts);
  if (typeof parsed === 'string') return [parsed];
  keep([...texts]);
  return [];
}

export const CONVERT_OPTIONS: readonly ConvertOptionDef[] = [
  {
    options: () => [new Option('--opset <N>', `ONNX opset to write when the target is ONNX (default ${DEFAULT_ONNX_OPSET})`).argParser(parseOpset)],
    apply: (raw, out) => {
      if (raw.opset !== undefined) out.opset = raw.opset as number;
      return [];
    },
  },
  {
    options: () => [
      new Option('--compress-to-fp16', 'store f32 constants as f16 in IR outputs (ovc does this by default; ovir only when asked)'),
      new Option('--compress_to_fp16 [bool]', 'ovc\'s spelling: --compress_to_fp16=True|False').argParser(parseBool),
    ],
    apply: (raw, out) => {
      const ovc = raw.compress_to_fp16 as boolean | undefined;
      if (raw.compressToFp16 === true || ovc === true) out.compressToFp16 = true;
      if (raw.compressToFp16 === true && ovc === false) return ['--compress-to-fp16 and --compress_to_fp16=False contradict each other'];
      return [];
    },
  },
  {
    options: () => [new Option('--input <list>', 'input shapes, ovc\'s syntax: "input[1,512],state[2,1,128]" (names optional: "[1,512],[2,1,128]" by position; dims: 3, ?, -1, 1..10, N; name[...] unknown rank) (repeatable)').argParser(collect)],
    apply: (raw, out) => keepParsed(raw.input as string[] | undefined, parseInputSpecs, (t) => { out.inputs = t; }),
  },
  {
    options: () => [new Option('--output <names>', 'keep only these model outputs, comma-separated (as ovc\'s --output); what no longer feeds them is removed').argParser(collectList)],
    apply: (raw, out) => {
      const names = raw.output as string[] | undefined;
      if (!names?.length) return [];
      if (names.some((n) => n === '')) return [`--output expects comma-separated output names, got '${names.join(',')}'`];
      out.keepOutputs = [...names];
      return [];
    },
  },
  {
    options: () => [new Option('--freeze <name=value>', 'make an input a constant and fold what it decides (If branches included), e.g. sr=16000 or ovc\'s sr{i64}->16000 (repeatable, comma-separated)').argParser(collect)],
    apply: (raw, out) => keepParsed(raw.freeze as string[] | undefined, parseFreeze, (t) => { out.freeze = t; }),
  },
  {
    options: () => [new Option('--strict', 'a wrong declared type of an intermediate value is an error (default: a warning, inference trusted)')],
    apply: (raw, out) => {
      if (raw.strict === true) out.strict = true;
      return [];
    },
  },
  {
    options: () => [new Option('--fsync', 'write the outputs durably: flushed to the disk before they are renamed into place (slower; ovc does not); without it the write is still atomic')],
    apply: (raw, out) => {
      if (raw.fsync === true) out.fsync = true;
      return [];
    },
  },
];

/** Adds every shared conversion option to a command. */
export function addConvertOptions(cmd: Command): Command {
  for (const def of CONVERT_OPTIONS) for (const o of def.options()) cmd.addOption(o);
  return cmd;
}

/** The shared conversion options from commander's result, or the usage problems found. */
export function convertOptionsFrom(raw: Record<string, unknown>): { options: ConvertFileOptions; problems: string[] } {
  const options: ConvertFileOptions = {};
  const problems = CONVERT_OPTIONS.flatMap((def) => def.apply(raw, options));
  return { options, problems };
}
