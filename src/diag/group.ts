import type { DiagCode } from './codes.js';
import { formatDiagnostic, showControls, type Diagnostic } from './diagnostic.js';

/**
 * How every command shows a list of diagnostics to a person: one line per cause. The full list
 * stays in `OvirError.diagnostics` and in each command's --json output; this only decides what is
 * printed.
 *
 * - Repeats of a cause (same file, severity, code and op) are one line: the first occurrence,
 *   then `… and 528 more Const layers` / `… and 37 more nodes of op Foo`.
 * - Cascades: once a file has an error in reading it or in the options given for it (a missing
 *   `.bin`, a corrupt tensor, an `--input` that does not fit), errors that inference and
 *   conversion report downstream of it are consequences, summarized in one line.
 * - Info diagnostics are left out of the text.
 */
export function groupDiagnostics(ds: readonly Diagnostic[]): string[] {
  const shown = ds.filter((d) => d.severity !== 'info');
  const rootFiles = new Set(shown.filter((d) => d.severity === 'error' && isRootCause(d.code)).map((d) => d.file ?? ''));
  const groups = new Map<string, { first: Diagnostic; count: number; places: Set<string>; seen: Set<string> }>();
  const cascades = new Map<string, number>();
  for (const d of shown) {
    const file = d.file ?? '';
    if (rootFiles.has(file) && isConsequence(d.code)) {
      cascades.set(file, (cascades.get(file) ?? 0) + 1);
      continue;
    }
    const key = [file, d.severity, d.code, subjectOf(d)].join('\0');
    const g = groups.get(key);
    // the same finding twice (inference of the source and of the converted model) is one
    const same = `${d.where}\0${d.message}`;
    if (g) {
      if (g.seen.has(same)) continue;
      g.seen.add(same);
      g.count++;
      g.places.add(d.where);
    } else groups.set(key, { first: d, count: 1, places: new Set([d.where]), seen: new Set([same]) });
  }
  const lines: string[] = [];
  for (const { first, count, places } of groups.values()) lines.push(formatDiagnostic(first) + showControls(moreText(first, count - 1, places.size - 1)));
  for (const [file, n] of cascades) {
    lines.push(`note: ${file ? file + ': ' : ''}${n} further error${n === 1 ? '' : 's'} from inference and conversion left out: they follow from the error${lines.length > 1 ? 's' : ''} above (--json lists every one)`);
  }
  return lines;
}

/**
 * What a group's line says of its repeats: `more` diagnostics, at `elsewhere` places other than
 * the first's (five unknown attributes of one node are 4 more there, not 4 more nodes).
 */
function moreText(first: Diagnostic, more: number, elsewhere: number): string {
  if (more === 0) return '';
  // places with no op (edges, layers of a graph) are each a place, whatever `where` says
  if (nounOf(first, 2) === 'places' || elsewhere === more) return ` … and ${more} more ${nounOf(first, more)}`;
  return elsewhere === 0 ? ` … and ${more} more at ${first.where}` : ` … and ${more} more at ${elsewhere + 1} ${nounOf(first, elsewhere + 1)}`;
}

/** The grouped lines as one text (each line ending in a newline), '' for none. */
export function groupedText(ds: readonly Diagnostic[]): string {
  return groupDiagnostics(ds).map((l) => l + '\n').join('');
}

/** Problems in reading a file or in the options given for it: whatever is computed from it after is suspect. */
function isRootCause(code: DiagCode): boolean {
  return code.startsWith('FILE_') || code.startsWith('IR_') || code.startsWith('ONNX_') || code === 'CONVERT_BAD_OPTION' || code === 'CLI_USAGE';
}

/** What inference and conversion report about values: downstream of a root cause, not causes themselves. */
function isConsequence(code: DiagCode): boolean {
  return code.startsWith('SHAPE_') || code.startsWith('EQUIV_');
}

/** Repeats of one code differ by op type when the code is about an op (each unsupported op is its own cause). */
function subjectOf(d: Diagnostic): string {
  const op = d.params?.['op'];
  return typeof op === 'string' ? op : '';
}

const LAYER_NOUNS: Partial<Record<DiagCode, string>> = {
  IR_BIN_MISSING: 'Const layer',
  IR_BLOB_BOUNDS: 'Const layer',
  IR_BLOB_TOO_SMALL: 'Const layer',
  IR_BLOB_TOO_BIG: 'Const layer',
  IR_STRING_BLOB: 'Const layer',
};

/** What `n` more places of `d`'s finding are: '2 Const layers', '1 node of op Foo', '3 places'. */
function nounOf(d: Diagnostic, n: number): string {
  const s = n === 1 ? '' : 's';
  const noun = LAYER_NOUNS[d.code];
  if (noun) return `${noun}${s}`;
  const op = subjectOf(d);
  return op ? `node${s} of op ${op}` : `place${s}`;
}
