import { OvirError } from '../diag/diagnostic.js';
import { groupDiagnostics } from '../diag/group.js';

/** An error as one report string: an OvirError's diagnostics grouped one line per cause (src/diag/group.ts), else the message. */
export function errorText(e: unknown): string {
  if (e instanceof OvirError) return groupDiagnostics(e.diagnostics).join('\n') || e.message;
  return e instanceof Error ? e.message : String(e);
}
