import { runForms, ortMissing, RUN_TOLERANCE, type FormsRun } from '../batch/run-forms.js';
import { diag, formatDiagnostic } from '../diag/diagnostic.js';
import type { Model } from '../graph/model.js';
import { checkFile, computationUnproven, countEntries, inferenceErrors, proven, type EquivEntry, type EquivReport, type IfMergePolicy, type TypeSummary } from '../equiv/index.js';
import type { CheckCliOptions } from './check.js';
import { stderr, stdout } from './stdio.js';

/** `ovir check`'s action (declared in check.ts): compares the forms, prints the report, sets the exit code. */
export async function runCheck(a: string, b: string | undefined, opts: CheckCliOptions, setExit: (code: number) => void): Promise<void> {
  if (opts.run) {
    const missing = await ortMissing();
    if (missing) {
      stderr().write(formatDiagnostic(diag('CLI_USAGE', '', { detail: `check --run: ${missing}` })) + '\n');
      setExit(2);
      return;
    }
  }
  let forms: [Model, Model] | undefined;
  const report = checkFile(a, b, {
    roundtrip: opts.roundtrip === true, ifMerge: opts.ifMerge as IfMergePolicy, strict: opts.strict === true,
    onForms: (ma, mb) => { forms = [ma, mb]; },
  });
  const run = opts.run && forms ? await runForms(a, b ?? { model: forms[1], label: report.b ?? `${a} (converted)` }) : undefined;
  const reports = report.roundtrip ? [report, report.roundtrip] : [report];
  reports.forEach((r, i) => {
    const withRun = i === 0 ? run : undefined;
    stdout().write(opts.json ? jsonLine(r, withRun) + '\n' : human(r, opts.verbose === true, withRun) + (withRun ? runLines(withRun) : ''));
  });
  // report.ok covers the roundtrip too; two files whose computations are not written alike (and
  // nothing else wrong) hold when onnxruntime computes the same with --run: the user asked the
  // engine to judge what the forms cannot prove
  const holds = report.ok || (byNumbers(report, run) && (!report.roundtrip || report.roundtrip.ok));
  setExit(holds && (run?.ok ?? true) ? 0 : 1);
}

/** Not proven only because the computations are written differently, and `--run` found the same numbers. */
function byNumbers(r: EquivReport, run: FormsRun | undefined): boolean {
  return computationUnproven(r) && countEntries(r).contradiction === 0 && inferenceErrors(r) === 0 && run !== undefined && run.ok && !run.skipped;
}

function jsonLine(r: EquivReport, run?: FormsRun): string {
  return JSON.stringify({
    a: r.a ?? null, b: r.b ?? null, ok: proven(r), counts: countEntries(r), ...(r.computation ? { computation: r.computation } : {}), entries: r.entries, unmatched: r.unmatched,
    diagnostics: r.diagnostics.map((d) => ({ code: d.code, severity: d.severity, file: d.file ?? null, where: d.where, message: d.message })),
    ...(run ? { run } : {}),
  });
}

/** `--run`: what was converted to be run, then the verdict of the engine. */
function runLines(run: FormsRun): string {
  let out = '';
  for (const c of run.converted) out += `run: ${c}\n`;
  if (run.skipped) out += `run: not judged: ${run.skipped}\n`;
  else if (run.ok) out += `run: same outputs in onnxruntime on seeded random inputs (f32 rtol ${RUN_TOLERANCE.rtol.toExponential()}, atol ${RUN_TOLERANCE.atol.toExponential()}; largest difference ${run.maxAbsDiff ? run.maxAbsDiff.toPrecision(3) : '0'})\n`;
  else out += `run: DIFFERENT outputs in onnxruntime: ${run.detail ?? ''}\n`;
  return out;
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
function human(r: EquivReport, verbose: boolean, run?: FormsRun): string {
  let out = `check ${r.a ?? 'A'}  against  ${r.b ?? 'B'}\n`;
  for (const e of r.entries) if (e.status === 'contradiction' && !e.hint) out += entryLines(e);
  if (verbose) {
    for (const e of r.entries) if (e.status === 'compatible') out += entryLines(e);
    for (const u of r.unmatched) out += `unmatched: '${u.name}' only in ${u.side.toUpperCase()} (${u.path})\n`;
  }
  for (const d of r.diagnostics) {
    if (d.code === 'EQUIV_CONTRADICTION') continue; // shown above as an entry
    if (verbose || d.severity === 'error' || d.code.startsWith('EQUIV_') || d.code === 'CONVERT_IF_FOLDED' || d.code === 'SHAPE_BRANCH_RELAXED') out += formatDiagnostic(d) + '\n';
  }
  const c = countEntries(r);
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  // this comparison only (report.ok also covers the roundtrip)
  const errors = inferenceErrors(r);
  const differs = r.computation?.differences ?? 0;
  const verdict = c.contradiction > 0 ? 'NOT equivalent'
    : errors > 0 ? `NOT proven (${plural(errors, 'inference error')} above: a form that does not infer is no valid model)`
    : byNumbers(r, run) ? `equivalent by the numbers (${differs ? `the computation is written differently at ${plural(differs, 'place')}` : 'the computations could not be compared'}, EQUIV_FORM_* above; onnxruntime computes the same on seeded random inputs, below)`
    : computationUnproven(r) ? `NOT proven (${differs ? `the computation is written differently at ${plural(differs, 'place')}` : 'the computations could not be compared'}, EQUIV_FORM_* above: the types agree, the numbers are not proven the same; --run compares them)`
    : 'equivalent';
  const relaxed = new Set(r.diagnostics.filter((d) => d.code === 'SHAPE_BRANCH_RELAXED').map((d) => d.where)).size;
  out += `${verdict}: ${c.equal} equal, ${c.compatible} compatible, ${plural(c.contradiction, 'contradiction')}` +
    `${c.hints ? `; ${plural(c.hints, 'same-named value')} differing (hints, not counted)` : ''}` +
    `${r.unmatched.length ? `; ${r.unmatched.length} named in one form only` : ''}` +
    `${relaxed ? `; ${plural(relaxed, 'If branch')} typed with relaxed captures (SHAPE_BRANCH_RELAXED above)` : ''}\n`;
  return out;
}
