import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertModel } from '../convert/index.js';
import { checkModels } from '../equiv/check-models.js';
import { countEntries, type EquivReport } from '../equiv/report.js';
import type { Model } from '../graph/model.js';
import { loadModel, saveModel, type ModelFormat } from '../io/load.js';
import { errorText } from './error-text.js';
import { parseInputSpecs, resolveInputSpecs, type InputSpec } from './input-override.js';
import { Diagnostics, diagnosticToJson, OvirError, usageError, type Diagnostic } from '../diag/diagnostic.js';
import { keepOnlyOutputs } from '../convert/prune.js';
import { parseFreeze } from '../convert/freeze.js';
import { runForms } from './run-forms.js';
import { runInChild } from './run-ort.js';
import type { CheckRecord, ConvertFileOptions, EquivSummary, ModelTask, TaskResult } from './types.js';

const dialectOf = (f: ModelFormat) => (f === 'ir' ? 'ov' as const : 'onnx' as const);

/**
 * Converts a loaded model to format `to` with the shared convert options (convertModel returns a
 * new model). `keepOutputs` (ovc's --output) cuts the given model in place first, so that what no
 * longer feeds the kept outputs is neither converted nor checked. A model already in format `to`
 * is passed through to be written again by our encoder, unless convert options were given
 * (convertModel then reports why they cannot apply). Throws OvirError with every problem of the
 * options against this model (an input it lacks, an override of another rank…). Warnings of a
 * successful conversion go to `onWarning`.
 */
export function convertTo(model: Model, to: ModelFormat, opts: ConvertFileOptions, onWarning?: (d: Diagnostic) => void): Model {
  const specs = parseInputSpecs(opts.inputs ?? []);
  if (typeof specs === 'string') throw usageError(specs);
  const freeze = parseFreeze(opts.freeze ?? []);
  if (typeof freeze === 'string') throw usageError(freeze);
  const hasOptions = opts.opset !== undefined || opts.compressToFp16 === true || specs.length > 0 || (opts.keepOutputs?.length ?? 0) > 0 || opts.strict === true || freeze.size > 0;
  if (model.dialect === dialectOf(to) && !hasOptions) return model;
  const diags = new Diagnostics();
  const shapes = resolveInputSpecs(model, specs, diags);
  diags.throwIfErrors();
  if (opts.keepOutputs?.length) keepOnlyOutputs(model, opts.keepOutputs, diags);
  diags.throwIfErrors();
  const out = convertModel(model, {
    to: dialectOf(to),
    ...(opts.opset !== undefined ? { opset: opts.opset } : {}),
    ...(opts.compressToFp16 ? { compressToFp16: true } : {}),
    ...(Object.keys(shapes).length ? { inputShapes: shapes } : {}),
    ...(opts.strict ? { strict: true } : {}),
    ...(onWarning ? { onWarning } : {}),
    ...(freeze.size ? { freeze: Object.fromEntries(freeze) } : {}),
  });
  orderInputs(out, specs);
  return out;
}

/** ovc: "the order of inputs in the converted model will match the order of specified inputs" (named ones first, the rest as they were). */
function orderInputs(model: Model, specs: readonly InputSpec[]): void {
  const names = specs.map((s) => s.name).filter((n): n is string => n !== null);
  if (!names.length) return;
  const inputs = model.graph.inputs;
  const first = names.map((n) => inputs.find((v) => v.names.includes(n) || v.metaView.layerName === n)).filter((v): v is NonNullable<typeof v> => v !== undefined);
  const rest = inputs.filter((v) => !first.includes(v));
  inputs.splice(0, inputs.length, ...first, ...rest);
}

function summarize(r: EquivReport): EquivSummary {
  const c = countEntries(r);
  const contradictions = [
    ...r.entries.filter((e) => e.status === 'contradiction' && !e.hint).map((e) => `'${e.name}' in ${e.scope}: ${e.detail ?? 'contradiction'}`),
    ...r.diagnostics.filter((d) => d.severity === 'error' && d.code.startsWith('EQUIV_') && d.code !== 'EQUIV_CONTRADICTION' && d.code !== 'EQUIV_CONST_PAYLOAD').map((d) => `${d.where}: ${d.message}`),
  ].slice(0, 5);
  return { ok: r.ok, ...c, contradictions };
}

/**
 * One model of a batch: load, convert, write atomically; then, if asked, check the written
 * output against the input (reloaded from disk, so the codecs are checked too), convert it back
 * and check that, and run input and round trip in onnxruntime. A model whose checks find a
 * contradiction (or different outputs) fails, with its outputs kept for inspection.
 */
export async function runModelTask(task: ModelTask): Promise<TaskResult> {
  const t0 = performance.now();
  const ms = () => Math.round(performance.now() - t0);
  let check: CheckRecord | null = null;
  try {
    const original = loadModel(task.input);
    saveModel(convertTo(original, task.to, task.convert), task.outputs[0]!, { fsync: task.convert.fsync === true });
    if (task.check || task.roundtrip) {
      check = { ok: true };
      const written = loadModel(task.outputs[0]!);
      if (task.check) {
        check.conversion = summarize(checkModels(original, written, { strict: task.convert.strict === true, labelA: task.input, labelB: task.outputs[0]! }));
        check.ok &&= check.conversion.ok;
        if (task.run) {
          check.run = await runForms(task.input, task.outputs[0]!);
          check.ok &&= check.run.ok;
        }
      }
      if (task.roundtrip) {
        const from: ModelFormat = original.dialect === 'ov' ? 'ir' : 'onnx';
        const back = convertTo(written, from, task.convert.strict ? { strict: true } : {});
        check.roundtrip = summarize(checkModels(original, back, { strict: task.convert.strict === true, labelA: task.input, labelB: `${task.outputs[0]!} (back to ${from})` }));
        check.ok &&= check.roundtrip.ok;
        if (task.run && !check.run) {
          if (from !== 'onnx') check.run = { ok: true, skipped: 'the input is IR: onnxruntime runs ONNX only' };
          else {
            const dir = mkdtempSync(join(tmpdir(), 'ovir-rt-'));
            try {
              const file = join(dir, 'roundtrip.onnx');
              saveModel(back, file);
              check.run = await runInChild(task.input, file);
            } finally {
              rmSync(dir, { recursive: true, force: true });
            }
          }
          check.ok &&= check.run.ok;
        }
      }
    }
  } catch (e) {
    return { status: 'failed', error: errorText(e), ms: ms(), check, ...(e instanceof OvirError ? { diagnostics: e.diagnostics.map(diagnosticToJson) } : {}) };
  }
  if (check && !check.ok) {
    const parts: string[] = [];
    if (check.conversion && !check.conversion.ok) parts.push(`conversion not equivalent (${check.conversion.contradiction} contradictions): ${check.conversion.contradictions.join('; ')}`);
    if (check.roundtrip && !check.roundtrip.ok) parts.push(`round trip not equivalent (${check.roundtrip.contradiction} contradictions): ${check.roundtrip.contradictions.join('; ')}`);
    if (check.run && !check.run.ok) parts.push(`${task.check ? 'the conversion' : 'round trip'} runs differently in onnxruntime: ${check.run.detail ?? ''}`);
    return { status: 'failed', error: parts.join('\n'), ms: ms(), check };
  }
  return { status: 'converted', error: null, ms: ms(), check };
}
