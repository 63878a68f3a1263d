import { Option, type Command } from 'commander';
import { formatDiagnostic } from '../diag/diagnostic.js';
import { checkFile, countEntries, type EquivEntry, type EquivReport, type IfMergePolicy, type TypeSummary } from '../equiv/index.js';
import { IF_MERGE_POLICIES } from '../shape/index.js';
import type { RegisterCommand } from './commands.js';

/**
 * `ovir check <a> [<b>] [--roundtrip] [--json]`: are the two forms equivalent? Exit 0 iff no
 * contradiction (roundtrip included); 1 on a contradiction or when a file cannot be loaded or
 * converted. See docs/check.md.
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
    .action((a: string, b: string | undefined, opts: { roundtrip?: boolean; json?: boolean; ifMerge?: string; verbose?: boolean; strict?: boolean }) => {
      const report = checkFile(a, b, { roundtrip: opts.roundtrip === true, ifMerge: opts.ifMerge as IfMergePolicy, strict: opts.strict === true });
      const reports = report.roundtrip ? [report, report.roundtrip] : [report];
      for (const r of reports) {
        process.stdout.write(opts.json ? jsonLine(r) + '\n' : human(r, opts.verbose === true));
      }
      setExit(report.ok ? 0 : 1);
    });
};

function jsonLine(r: EquivReport): string {
  return JSON.stringify({
    a: r.a ?? null, b: r.b ?? null, ok: countEntries(r).contradiction === 0, counts: countEntries(r), entries: r.entries, unmatched: r.unmatched,
    diagnostics: r.diagnostics.map((d) => ({ code: d.code, severity: d.severity, file: d.file ?? null, where: d.where, message: d.message })),
  });
}

export function formatSummary(t: TypeSummary): string {
  if (t.shape === null) return t.dtype === '?' ? '?' : `${t.dtype}[...]`;
  return `${t.dtype}[${t.shape.map((d) => (d === null ? '?' : String(d))).join(',')}]`;
}

function entryLines(e: EquivEntry): string {
  const more = e.moreSpecific ? ` (${e.moreSpecific.toUpperCase()} more precise)` : '';
  const lines = [
    `${e.status}${more}: '${e.name}' in ${e.scope}${e.via === 'name' ? '' : ` (paired by ${e.via})`}`,
    `  A ${e.pathA}  ${formatSummary(e.a)}`,
    `  B ${e.pathB}  ${formatSummary(e.b)}`,
  ];
  if (e.detail) lines.push(`  ${e.detail}`);
  return lines.join('\n') + '\n';
}

/** Contradictions first with both paths, then diagnostics, then the summary line. */
function human(r: EquivReport, verbose: boolean): string {
  let out = `check ${r.a ?? 'A'}  against  ${r.b ?? 'B'}\n`;
  for (const e of r.entries) if (e.status === 'contradiction' && !e.hint) out += entryLines(e);
  if (verbose) {
    for (const e of r.entries) if (e.status === 'compatible') out += entryLines(e);
    for (const u of r.unmatched) out += `unmatched: '${u.name}' only in ${u.side.toUpperCase()} (${u.path})\n`;
  }
  for (const d of r.diagnostics) {
    if (d.code === 'EQUIV_CONTRADICTION') continue; // shown above as an entry
    if (verbose || d.severity === 'error' || d.code.startsWith('EQUIV_')) out += formatDiagnostic(d) + '\n';
  }
  const c = countEntries(r);
  const ok = c.contradiction === 0; // this comparison only (report.ok also covers the roundtrip)
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  out += `${ok ? 'equivalent' : 'NOT equivalent'}: ${c.equal} equal, ${c.compatible} compatible, ${plural(c.contradiction, 'contradiction')}` +
    `${c.hints ? `; ${plural(c.hints, 'same-named value')} differing (hints, not counted)` : ''}` +
    `${r.unmatched.length ? `; ${r.unmatched.length} named in one form only` : ''}\n`;
  return out;
}
