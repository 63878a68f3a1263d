import { CODES, type DiagCode, type DiagParams, type ParamsOf } from './codes.js';

/** The parameters argument of code `C`: optional only when the code takes none that are required. */
export type ParamsArg<C extends DiagCode> = {} extends ParamsOf<C> ? [params?: ParamsOf<C>] : [params: ParamsOf<C>];

/** One problem found in a model: a code from the table, where it is, and what it says. */
export interface Diagnostic {
  readonly code: DiagCode;
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  /** Graph path, e.g. `main/If_3/then/Conv_7`; '' when the problem is about the file as a whole. */
  readonly where: string;
  /** The file it concerns, when known. */
  file?: string;
  /** The parameters the message was made from (op, layer, …): what grouping summarizes by. */
  readonly params?: DiagParams;
  /** IR → ONNX: the lowest ONNX opset at which the problem goes away, when a later opset has the form. */
  readonly needsOpset?: number;
}

export function diag<C extends DiagCode>(code: C, where: string, ...[given]: ParamsArg<C>): Diagnostic {
  const params: DiagParams = given ?? {};
  const def = CODES[code] as { severity: Diagnostic['severity']; message: (p: DiagParams) => string };
  const needsOpset = params['needsOpset'];
  // bigint parameters kept as decimal strings: a Diagnostic stays JSON-serializable
  const safe = Object.values(params).some((v) => typeof v === 'bigint')
    ? Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]))
    : params;
  return { code, severity: def.severity, message: def.message(params), where, params: safe, ...(typeof needsOpset === 'number' ? { needsOpset } : {}) };
}

/**
 * `file: main/If_3/then/Conv_7: message [CODE]`, one line: control characters of names in it
 * (a model's names are the model author's text: a newline would forge a line, an escape sequence
 * would drive the terminal) shown as escapes, `\n`, `\0`, `\x1b`. --json gives them as they are.
 */
export function formatDiagnostic(d: Diagnostic): string {
  const loc = [d.file, d.where].filter((s) => s).join(': ');
  return showControls(`${d.severity}: ${loc ? loc + ': ' : ''}${d.message} [${d.code}]`);
}

const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const CONTROL_NAMES: Readonly<Record<string, string>> = { '\0': '\\0', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** Text with its C0/C1 control characters and DEL as escapes (`\n`, `\x1b`). */
export function showControls(text: string): string {
  return text.replace(CONTROLS, (c) => CONTROL_NAMES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Collects diagnostics so that a pass can report every problem of a model, not only the first. */
export class Diagnostics {
  readonly list: Diagnostic[] = [];

  add<C extends DiagCode>(code: C, where: string, ...params: ParamsArg<C>): Diagnostic {
    const d = diag(code, where, ...params);
    this.list.push(d);
    return d;
  }

  push(...ds: Diagnostic[]): void {
    this.list.push(...ds);
  }

  get errors(): Diagnostic[] {
    return this.list.filter((d) => d.severity === 'error');
  }

  hasErrors(): boolean {
    return this.list.some((d) => d.severity === 'error');
  }

  /** Throws an OvirError carrying every diagnostic if any is an error. */
  throwIfErrors(file?: string): void {
    if (this.hasErrors()) throw new OvirError(this.list, file);
  }
}

/** The one error type ovir throws on bad input: it carries all diagnostics found. */
export class OvirError extends Error {
  readonly diagnostics: Diagnostic[];

  constructor(diagnostics: Diagnostic[], file?: string) {
    if (file) for (const d of diagnostics) d.file ??= file;
    const errs = diagnostics.filter((d) => d.severity === 'error');
    super(errs.map(formatDiagnostic).join('\n') || 'ovir error');
    this.name = 'OvirError';
    this.diagnostics = diagnostics;
  }

  static of(code: DiagCode, where: string, params: DiagParams = {}, file?: string): OvirError {
    return new OvirError([diag(code, where, params)], file);
  }
}

/**
 * Runs `f`; the diagnostics of an OvirError it throws that name no file are about `file` (a
 * converter's or writer's finding on the model read from it; a file it cannot write names itself).
 */
export function aboutFile<T>(file: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof OvirError) for (const d of e.diagnostics) d.file ??= file;
    throw e;
  }
}

/** A diagnostic as plain JSON, for --json outputs and reports. */
export function diagnosticToJson(d: Diagnostic): Record<string, unknown> {
  const params = d.params;
  return { code: d.code, severity: d.severity, message: d.message, where: d.where, ...(d.file !== undefined ? { file: d.file } : {}), ...(params ? { params } : {}) };
}

/** Whether an error is only about how ovir was called (every diagnostic a usage error): exit code 2. */
export function isUsageError(e: unknown): boolean {
  return e instanceof OvirError && e.diagnostics.length > 0 && e.diagnostics.every((d) => d.code === 'CLI_USAGE');
}

/** An OvirError for a bad command line (exit code 2). */
export function usageError(detail: string): OvirError {
  return OvirError.of('CLI_USAGE', '', { detail });
}
