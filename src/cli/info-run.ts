import { formatShape } from '../graph/shape.js';
import { describeModel, type IoInfo, type ModelInfo, type VariableInfo } from '../io/describe.js';
import { forEachModel } from './each-model.js';
import { stdout } from './stdio.js';

function human(info: ModelInfo): string {
  const io = (x: IoInfo) => `    ${x.name}: ${x.dtype ?? '?'}${formatShapeJson(x.shape)}\n`;
  const total = Object.values(info.ops).reduce((a, b) => a + b, 0);
  let out = `${info.path}  (${info.format === 'ir' ? 'OpenVINO IR' : 'ONNX'})\n`;
  out += `  inputs (${info.inputs.length}):\n${info.inputs.map(io).join('')}`;
  out += `  outputs (${info.outputs.length}):\n${info.outputs.map(io).join('')}`;
  if (info.variables.length) {
    const where = (v: VariableInfo) => (v.input !== undefined ? `  (graph input ${v.input ?? 'none'}, output ${v.output ?? 'none'})` : '');
    out += `  state variables (${info.variables.length}):\n${info.variables.map((v) => io(v).replace(/\n$/, `${where(v)}\n`)).join('')}`;
  }
  out += `  ${info.format === 'ir' ? 'layers' : 'nodes'}: ${total} of ${Object.keys(info.ops).length} types, body nesting depth ${info.maxDepth}\n`;
  const byCount = Object.entries(info.ops).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  out += byCount.map(([op, n]) => `    ${String(n).padStart(6)}  ${op}\n`).join('');
  return out;
}

function formatShapeJson(s: IoInfo['shape']): string {
  return formatShape(s === null ? null : s.map((d) => (d === null ? null : typeof d === 'number' ? d : { sym: d })));
}

/** `ovir info`'s action (declared in info.ts): describes every model, sets the exit code. */
export function runInfo(paths: string[], opts: { json?: boolean }, setExit: (code: number) => void): void {
  const failed = forEachModel(paths, !!opts.json, (model, path) => {
    const info = describeModel(model, path);
    stdout().write(opts.json ? JSON.stringify(info) + '\n' : human(info));
    return false;
  });
  setExit(failed ? 1 : 0);
}
