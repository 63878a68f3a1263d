import { existsSync, statSync } from 'node:fs';
import { basename, extname, join, resolve, sep } from 'node:path';
import { binOf, otherFormat } from '../batch/plan.js';
import { convertTo } from '../batch/task.js';
import { aboutFile, diagnosticToJson, isUsageError, OvirError, usageError, type Diagnostic } from '../diag/diagnostic.js';
import { groupedText } from '../diag/group.js';
import { formatOf, loadModel, saveModel, type ModelFormat } from '../io/load.js';
import { unknownFormat } from '../io/format.js';
import { convertOptionsFrom } from './convert-options.js';
import { ConvertSteps } from './convert-verbose.js';
import { printErr, stdout } from './stdio.js';

const EXT: Record<ModelFormat, string> = { ir: '.xml', onnx: '.onnx' };

/**
 * Where `ovir convert` writes, with ovc's meaning of `--output_model`: nothing → `./<stem>.xml`
 * (or `./<stem>.onnx` from IR); a directory (existing, or ending in a separator) →
 * `<dir>/<stem>.<ext>`; a path ending in .xml or .onnx → that file, in that format; a path with
 * no extension → the default format's extension appended (as ovc appends .xml). Any other
 * extension is a usage error.
 */
export function outputPathFor(input: string, from: ModelFormat, outputModel: string | undefined): { path: string; to: ModelFormat } | string {
  const to = otherFormat(from);
  const stem = basename(input).replace(/\.(onnx|xml)$/i, '') || 'model';
  if (outputModel === undefined || outputModel === '') return { path: resolve(stem + EXT[to]), to };
  const isDir = outputModel.endsWith('/') || outputModel.endsWith(sep) || (existsSync(outputModel) && statSync(outputModel).isDirectory());
  if (isDir) return { path: join(outputModel, stem + EXT[to]), to };
  const given = formatOf(outputModel);
  if (given) return { path: outputModel, to: given };
  const ext = extname(basename(outputModel));
  if (ext === '') return { path: outputModel + EXT[to], to };
  return `--output_model ${outputModel}: unknown extension '${ext}'; write .xml (OpenVINO IR, with its .bin beside it) or .onnx, or a directory`;
}

/** `ovir convert`'s action (declared in convert.ts): converts, prints what was written, sets the exit code. */
export function runConvert(input: string, raw: Record<string, unknown>, setExit: (code: number) => void): void {
  const json = raw.json === true;
  try {
    const written = convertCommand(input, raw);
    if (json) stdout().write(JSON.stringify({ ok: true, outputs: written }) + '\n');
    else for (const f of written) stdout().write(`[ SUCCESS ] ${f.endsWith('.xml') ? 'XML' : f.endsWith('.bin') ? 'BIN' : 'ONNX'} file: ${f}\n`);
    setExit(0);
  } catch (e) {
    if (!json || !(e instanceof OvirError)) throw e;
    stdout().write(JSON.stringify({ ok: false, diagnostics: e.diagnostics.map(diagnosticToJson) }) + '\n');
    setExit(isUsageError(e) ? 2 : 1);
  }
}

function convertCommand(input: string, raw: Record<string, unknown>): string[] {
  const { options, problems } = convertOptionsFrom(raw);
  const from = formatOf(input);
  if (!from) throw unknownFormat(input);
  const a = raw.output_model as string | undefined;
  const b = raw.outputModel as string | undefined;
  if (a !== undefined && b !== undefined && a !== b) problems.push(`--output_model ${a} and --output-model ${b}: give one output`);
  if (raw.extension !== undefined) problems.push(`--extension ${String(raw.extension)}: ovir has no frontend extensions (ovc loads them into its C++ or Python frontends); it converts the ops of its own table (docs/ops.md) and reports every op it cannot`);
  if (raw.dynamo === true) problems.push('--dynamo: ovc\'s option for PyTorch models; ovir reads ONNX and OpenVINO IR only');
  const out = outputPathFor(input, from, a ?? b);
  if (typeof out === 'string') problems.push(out);
  else {
    if (out.to === from) problems.push(`'${input}' is already ${from === 'ir' ? 'OpenVINO IR' : 'ONNX'}: write ${EXT[otherFormat(from)]}`);
    if (options.compressToFp16 && out.to === 'onnx') problems.push('--compress-to-fp16 applies to OpenVINO IR outputs only (the target here is ONNX)');
    if (options.opset !== undefined && out.to === 'ir') problems.push('--opset applies to ONNX outputs only (the target here is OpenVINO IR)');
  }
  if (problems.length || typeof out === 'string') throw new OvirError(problems.map((p) => usageError(p).diagnostics[0]!));
  const warnings: Diagnostic[] = [];
  const steps = raw.verbose === true ? new ConvertSteps() : null;
  const model = aboutFile(input, () => {
    const source = loadModel(input);
    steps?.read(input, source);
    return convertTo(source, out.to, { ...options, to: out.to }, (d) => warnings.push({ ...d, file: d.file ?? input }));
  });
  steps?.converted(model);
  printErr(groupedText(warnings));
  // what the writer finds (a value of no known type) is about the model read from `input`
  aboutFile(input, () => saveModel(model, out.path, { fsync: options.fsync === true }));
  const written = out.to === 'ir' ? [out.path, binOf(out.path)] : [out.path];
  if (steps) {
    steps.wrote(written);
    printErr(steps.text());
  }
  return written;
}
