import { diag, type Diagnostic } from '../diag/diagnostic.js';
import type { Graph } from '../graph/graph.js';
import type { ValueType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import { compareType, typeSummary } from './compare-type.js';
import { correspond } from './correspond.js';
import { Paths } from './paths.js';
import type { EquivEntry, EquivReport } from './report.js';
import { SymbolBindings } from './symbols.js';

/** The inferred types of one form, and what inference said about it. */
export interface InferredSide {
  graph: Graph;
  types: ReadonlyMap<Value, ValueType>;
  diagnostics: readonly Diagnostic[];
  /** Label for messages and `Diagnostic.file` (a file path, `A`). */
  label?: string;
}

/**
 * Compares two forms given their inferred types: pairs tensors (correspond.ts), then compares each
 * pair's types (compare-type.ts) with one symbol binding across the whole model. A value whose
 * producer failed shape inference (an error at its node: the rule rejected its inputs) on one side
 * only is a contradiction: that side's form is not valid there. Errors about a file's declared
 * types (SHAPE_DECLARED_CONTRADICTS) do not count: declarations are not what is compared.
 */
export function compareInferred(a: InferredSide, b: InferredSide): EquivReport {
  const paths = new Paths();
  const corr = correspond(a.graph, b.graph, paths);
  const symbols = new SymbolBindings();
  const failedA = errorsByPath(a.diagnostics);
  const failedB = errorsByPath(b.diagnostics);
  const entries: EquivEntry[] = [];
  const diagnostics: Diagnostic[] = [
    ...a.diagnostics.map((d) => ({ ...d, file: d.file ?? a.label ?? 'A' })),
    ...b.diagnostics.map((d) => ({ ...d, file: d.file ?? b.label ?? 'B' })),
  ];
  const contradictions: Diagnostic[] = [];

  for (const p of corr.pairs) {
    const ta = a.types.get(p.a) ?? null;
    const tb = b.types.get(p.b) ?? null;
    const pathA = paths.value(p.a);
    const pathB = paths.value(p.b);
    const name = p.a.name || p.b.name || paths.valueLabel(p.a);
    const v = compareType(ta, tb, symbols, pathA);
    const entry: EquivEntry = {
      name, scope: p.scope, pathA, pathB, status: v.status, a: typeSummary(ta), b: typeSummary(tb), via: p.via,
    };
    if (v.moreSpecific) entry.moreSpecific = v.moreSpecific;
    const fa = failure(p.a, failedA, paths);
    const fb = failure(p.b, failedB, paths);
    const failA = fa && !fb ? fa : undefined;
    const failB = fb && !fa ? fb : undefined;
    if (failA || failB) {
      entry.status = 'contradiction';
      delete entry.moreSpecific;
      entry.detail = failA ? `shape inference failed in A: ${failA.message}` : `shape inference failed in B: ${failB!.message}`;
    } else if (v.details.length) {
      entry.detail = v.details.join('; ');
    }
    if (entry.status === 'contradiction') {
      const d = diag('EQUIV_CONTRADICTION', pathA, { name, detail: entry.detail ?? '', pathB });
      d.file = a.label ?? 'A';
      contradictions.push(d);
    }
    entries.push(entry);
  }
  const sorted = [...entries.filter((e) => e.status === 'contradiction'), ...entries.filter((e) => e.status !== 'contradiction')];
  const report: EquivReport = {
    ok: contradictions.length === 0,
    entries: sorted,
    unmatched: corr.unmatched,
    diagnostics: [
      ...contradictions,
      ...corr.diagnostics.map((d) => ({ ...d, file: d.file === 'B' ? b.label ?? 'B' : a.label ?? 'A' })),
      ...diagnostics,
    ],
  };
  if (a.label) report.a = a.label;
  if (b.label) report.b = b.label;
  return report;
}

function errorsByPath(ds: readonly Diagnostic[]): Map<string, Diagnostic> {
  const m = new Map<string, Diagnostic>();
  for (const d of ds) {
    if (d.severity === 'error' && d.where && !d.code.includes('DECLARED') && !m.has(d.where)) m.set(d.where, d);
  }
  return m;
}

function failure(v: Value, failed: Map<string, Diagnostic>, paths: Paths): Diagnostic | undefined {
  return v.producer && failed.size ? failed.get(paths.node(v.producer)) : undefined;
}
