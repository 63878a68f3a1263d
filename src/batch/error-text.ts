import { formatDiagnostic, OvirError } from '../diag/diagnostic.js';

/** An error as one report string: each error diagnostic of an OvirError on its own line, else the message. */
export function errorText(e: unknown): string {
  if (e instanceof OvirError) {
    const errs = e.diagnostics.filter((d) => d.severity === 'error');
    return errs.map((d) => formatDiagnostic(d)).join('\n') || e.message;
  }
  return e instanceof Error ? e.message : String(e);
}
