import type { Diagnostic } from '../diag/diagnostic.js';
import { groupedText } from '../diag/group.js';
import { formatShape } from '../graph/shape.js';
import { inferTypes } from '../shape/infer.js';
import { shapesReport, type ShapesReport } from '../shape/report.js';
import type { IfMergePolicy } from '../shape/rule.js';
import { forEachModel } from './each-model.js';
import { printErr, stdout } from './stdio.js';

function human(r: ShapesReport): string {
  let out = `${r.path}\n`;
  let scope = '';
  for (const v of r.values) {
    if (v.scope !== scope) { scope = v.scope; out += `  ${scope}\n`; }
    const shape = v.shape === null ? '[...]' : formatShape(v.shape.map((d) => (typeof d === 'string' ? parseDim(d) : d)));
    out += `    ${v.name}: ${v.dtype ?? '?'}${shape}\n`;
  }
  return out;
}

function parseDim(d: string) {
  const m = /^(\d+)\.\.(\d*)$/.exec(d);
  return m ? { min: Number(m[1]), max: m[2] === '' ? Infinity : Number(m[2]) } : { sym: d };
}

/** Diagnostics for stderr: errors and warnings grouped one line per cause (src/diag/group.ts); rule-less ops summarised. */
function diagnosticsText(ds: Diagnostic[], file: string): string {
  let out = groupedText(ds.map((d) => ({ ...d, file })));
  const unknown = new Map<string, number>();
  for (const d of ds) {
    if (d.code === 'SHAPE_UNKNOWN_OP') {
      const op = /no shape rule for (\S+)/.exec(d.message)?.[1] ?? '?';
      unknown.set(op, (unknown.get(op) ?? 0) + 1);
    }
  }
  if (unknown.size) out += `info: ${file}: no shape rule for ${[...unknown].map(([op, n]) => `${op} (${n})`).join(', ')}: outputs left as declared or unknown [SHAPE_UNKNOWN_OP]\n`;
  return out;
}

/** `ovir shapes`'s action (declared in shapes.ts): infers and prints every model, sets the exit code. */
export function runShapes(paths: string[], opts: { json?: boolean; ifMerge?: IfMergePolicy }, setExit: (code: number) => void): void {
  const failed = forEachModel(paths, !!opts.json, (model, path) => {
    const result = inferTypes(model, opts.ifMerge ? { ifMerge: opts.ifMerge } : {});
    const report = shapesReport(model, result, path);
    stdout().write(opts.json ? JSON.stringify(report) + '\n' : human(report));
    printErr(diagnosticsText(result.diagnostics, path));
    return result.diagnostics.some((d) => d.severity === 'error');
  });
  setExit(failed ? 1 : 0);
}
