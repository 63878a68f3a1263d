import type { Command } from 'commander';
import { diagnosticToJson, OvirError } from '../diag/diagnostic.js';
import { outputClosed } from './stdio.js';
import { errorText } from '../batch/error-text.js';
import { allGraphs } from '../graph/graph.js';
import type { Model } from '../graph/model.js';
import { formatShape, shapeToJson } from '../graph/shape.js';
import { describeType, type ValueType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import { formatOf, loadModel, type ModelFormat } from '../io/load.js';
import type { RegisterCommand } from './commands.js';

/** One graph input or output as `ovir info` describes it. */
export interface IoInfo {
  name: string;
  /** OpenVINO element type name (f32, i64, boolean…); `seq(…)`/`optional(…)` for ONNX non-tensors; null if unknown. */
  dtype: string | null;
  /** Dims as JSON (number, symbol, "a..b", null); null = unknown rank. */
  shape: (number | string | null)[] | null;
}

/** What `ovir info --json` prints for one model. */
export interface ModelInfo {
  path: string;
  format: ModelFormat;
  /** Op type → count over every graph: ONNX op_type (Constant included); IR layer `type` as written (Parameter/Const/Result included). */
  ops: Record<string, number>;
  inputs: IoInfo[];
  outputs: IoInfo[];
  /** Deepest body nesting (0: no bodies). */
  maxDepth: number;
}

function dtypeOf(t: ValueType | null): string | null {
  if (t === null || t.kind === 'unknown') return null;
  if (t.kind === 'tensor' || t.kind === 'sparse_tensor') return t.elem;
  return describeType(t);
}

function shapeOf(t: ValueType | null): IoInfo['shape'] {
  return t !== null && (t.kind === 'tensor' || t.kind === 'sparse_tensor') ? shapeToJson(t.shape) : null;
}

function ioInfo(v: Value, fallbackName: string): IoInfo {
  return { name: v.names[0] || fallbackName, dtype: dtypeOf(v.type), shape: shapeOf(v.type) };
}

/** Describes a loaded model (`path` is echoed as given). */
export function describeModel(model: Model, path: string): ModelInfo {
  const ops = new Map<string, number>();
  const count = (t: string, n = 1) => { if (n > 0) ops.set(t, (ops.get(t) ?? 0) + n); };
  const ir = model.dialect === 'ov';
  let maxDepth = 0;
  for (const g of allGraphs(model.graph)) {
    maxDepth = Math.max(maxDepth, g.depth);
    if (ir) {
      // IR Parameter/Const/Result layers are graph inputs/initializers/outputs, not nodes.
      for (const v of g.inputs) count(typeof v.meta.irType === 'string' ? v.meta.irType : 'Parameter');
      for (const v of g.initializers) count(typeof v.meta.irType === 'string' ? v.meta.irType : 'Const');
      const results = Array.isArray(g.meta.irResults) ? (g.meta.irResults as { irType?: unknown }[]) : [];
      g.outputs.forEach((_, i) => count(typeof results[i]?.irType === 'string' ? (results[i]!.irType as string) : 'Result'));
    }
    for (const n of g.nodes) count(ir && typeof n.meta.irType === 'string' ? n.meta.irType : n.op);
  }
  const resultNames = Array.isArray(model.graph.meta.resultNames) ? (model.graph.meta.resultNames as unknown[]) : [];
  return {
    path,
    format: ir ? 'ir' : 'onnx',
    ops: Object.fromEntries([...ops].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    inputs: model.graph.inputs.map((v) => ioInfo(v, typeof v.meta.layerName === 'string' ? v.meta.layerName : v.label)),
    outputs: model.graph.outputs.map((v, i) => ioInfo(v, typeof resultNames[i] === 'string' ? (resultNames[i] as string) : v.label)),
    maxDepth,
  };
}

function human(info: ModelInfo): string {
  const io = (x: IoInfo) => `    ${x.name}: ${x.dtype ?? '?'}${formatShapeJson(x.shape)}\n`;
  const total = Object.values(info.ops).reduce((a, b) => a + b, 0);
  let out = `${info.path}  (${info.format === 'ir' ? 'OpenVINO IR' : 'ONNX'})\n`;
  out += `  inputs (${info.inputs.length}):\n${info.inputs.map(io).join('')}`;
  out += `  outputs (${info.outputs.length}):\n${info.outputs.map(io).join('')}`;
  out += `  ${info.format === 'ir' ? 'layers' : 'nodes'}: ${total} of ${Object.keys(info.ops).length} types, body nesting depth ${info.maxDepth}\n`;
  const byCount = Object.entries(info.ops).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  out += byCount.map(([op, n]) => `    ${String(n).padStart(6)}  ${op}\n`).join('');
  return out;
}

function formatShapeJson(s: IoInfo['shape']): string {
  return formatShape(s === null ? null : s.map((d) => (d === null ? null : typeof d === 'number' ? d : { sym: d })));
}

/**
 * `ovir info <paths…> [--json]`: describes each model. With --json, one object per input per line
 * in input order; a file that cannot be read gets `{"path","error"}` and the exit code is 1 after
 * every input has been reported.
 */
export const registerInfo: RegisterCommand = (program: Command, setExit) => {
  program
    .command('info')
    .description('describe models: format, inputs, outputs, op counts (bodies included), body nesting depth')
    .argument('<paths...>', 'models (.onnx, or .xml with its .bin)')
    .option('--json', 'one JSON object per model, one per line, in input order')
    .action((paths: string[], opts: { json?: boolean }) => {
      let failed = false;
      for (const path of paths) {
        if (outputClosed()) break; // `| head`: nobody reads any more
        let info: ModelInfo;
        try {
          if (!formatOf(path)) throw OvirError.of('FILE_UNKNOWN_FORMAT', '', { path }, path);
          info = describeModel(loadModel(path), path);
        } catch (e) {
          failed = true;
          const error = errorText(e);
          if (opts.json) process.stdout.write(JSON.stringify({ path, error, ...(e instanceof OvirError ? { diagnostics: e.diagnostics.map(diagnosticToJson) } : {}) }) + '\n');
          else process.stderr.write(e instanceof OvirError ? `${error}\n` : `${path}: ${error}\n`); // grouped lines name the file
          continue;
        }
        process.stdout.write(opts.json ? JSON.stringify(info) + '\n' : human(info));
      }
      setExit(failed ? 1 : 0);
    });
};
