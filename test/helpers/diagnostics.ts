import { OvirError } from '../../src/diag/diagnostic.js';

/**
 * The diagnostics `f` throws, as `CODE where: message` lines ([] when it does not throw); errors
 * only unless `all`. Anything other than an OvirError is rethrown: a test expecting diagnostics
 * fails on a crash.
 */
export function diagnosticsOf(f: () => unknown, all = false): string[] {
  try {
    f();
  } catch (e) {
    if (!(e instanceof OvirError)) throw e;
    return e.diagnostics.filter((d) => all || d.severity === 'error').map((d) => `${d.code} ${d.where}: ${d.message}`);
  }
  return [];
}
