import type { Diagnostic } from '../diag/diagnostic.js';
import type { Status } from './compare-type.js';
import type { Unmatched, Via } from './correspond.js';
import type { Side } from './symbols.js';

/** A type as an entry shows it: element type (or `seq(…)`, `?`) and JSON dims (null shape = unknown rank). */
export interface TypeSummary {
  dtype: string;
  shape: (number | string | null)[] | null;
}

/** One tensor both forms name, compared. */
export interface EquivEntry {
  /** Tensor name (A's, or B's when A's value has none). */
  name: string;
  /** A's graph holding it: `main`, `main/If_0/then`. */
  scope: string;
  pathA: string;
  pathB: string;
  status: Status;
  /** For `compatible`: the side whose type says more; absent when each side is more precise somewhere. */
  moreSpecific?: Side;
  a: TypeSummary;
  b: TypeSummary;
  /** What differs, `; `-separated (`dim 1: 3 vs 4`). */
  detail?: string;
  /** How the two tensors were found to correspond. */
  via: Via;
  /**
   * Paired by a name only, in two-file mode: a hint that does not decide the verdict (its
   * contradiction is an EQUIV_NAME_HINT warning, not counted).
   */
  hint?: boolean;
}

export interface EquivReport {
  /** No contradiction (and the roundtrip comparison, if any, has none either). */
  ok: boolean;
  /** Contradictions first, then the rest in model order. */
  entries: EquivEntry[];
  /** Named tensors of one form with no counterpart in the other (not a failure). */
  unmatched: Unmatched[];
  /** Inference diagnostics of both sides (file set), binding mismatches, contradictions as EQUIV_CONTRADICTION. */
  diagnostics: Diagnostic[];
  /** What was compared: file paths, or `<file> (as ov)` for a form made in memory. */
  a?: string;
  b?: string;
  /** With `roundtrip`: the original against the form converted there and back. */
  roundtrip?: EquivReport;
  /**
   * Two independently produced files: whether they compute the same, op for op, once brought to
   * one dialect by ovir's conversion (same-computation.ts). Absent when one form is ovir's
   * conversion of the other made in this check (one-file mode, roundtrip, batch --check).
   */
  computation?: { proven: boolean; compared: string; differences: number };
}

export interface EquivCounts { equal: number; compatible: number; contradiction: number; hints: number }

/**
 * Counts entries that decide, by status; `contradiction` also counts the problems that are not
 * about one tensor's type (interface, wiring, payload: error diagnostics of the check itself
 * other than EQUIV_CONTRADICTION, which repeats an entry). `hints`: same-named pairs that do not
 * decide and contradict.
 */
export function countEntries(r: EquivReport): EquivCounts {
  const c: EquivCounts = { equal: 0, compatible: 0, contradiction: 0, hints: 0 };
  for (const e of r.entries) {
    if (e.hint && e.status === 'contradiction') c.hints++;
    else c[e.status]++;
  }
  for (const d of r.diagnostics) {
    if (d.severity === 'error' && d.code.startsWith('EQUIV_') && d.code !== 'EQUIV_CONTRADICTION' && d.code !== 'EQUIV_CONST_PAYLOAD' && !FORM_CODES.has(d.code)) c.contradiction++;
  }
  return c;
}

/** What says the computation is not proven the same: neither a contradiction nor an inference error. */
const FORM_CODES: ReadonlySet<string> = new Set(['EQUIV_FORM_DIFFERS', 'EQUIV_FORM_UNCOMPARED']);

/** Whether the computation of two files was compared and not proven the same (see EquivReport.computation). */
export function computationUnproven(r: EquivReport): boolean {
  return r.computation !== undefined && !r.computation.proven;
}

/**
 * The inference errors of either form (a rule refusing an op's operands or attributes, a node the
 * schema does not count as written): a form that does not infer is no valid model, so the check
 * proves nothing about it, even where every pair agrees.
 */
export function inferenceErrors(r: EquivReport): number {
  let n = 0;
  for (const d of r.diagnostics) if (d.severity === 'error' && !d.code.startsWith('EQUIV_')) n++;
  return n;
}

/** This comparison's verdict (not its roundtrip's): no contradiction, no inference error, and a computation not found to differ. */
export function proven(r: EquivReport): boolean {
  return countEntries(r).contradiction === 0 && inferenceErrors(r) === 0 && !computationUnproven(r);
}
