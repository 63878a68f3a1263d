import { diagnosticToJson, OvirError } from '../diag/diagnostic.js';
import { errorText } from '../batch/error-text.js';
import type { Model } from '../graph/model.js';
import { formatOf, loadModel } from '../io/load.js';
import { unknownFormat } from '../io/format.js';
import { outputClosed, stderr, stdout } from './stdio.js';

/**
 * The read loop of the commands that print something per model (info, shapes): each path in
 * input order is loaded and handed to `report`; a file that cannot be read is reported — as
 * `{"path","error","diagnostics"}` with `json`, else as its grouped diagnostics on stderr — and
 * the loop goes on. Stops early once stdout's reader has gone. Returns true when any file could
 * not be read or `report` said it failed.
 */
export function forEachModel(paths: readonly string[], json: boolean, report: (model: Model, path: string) => boolean): boolean {
  let failed = false;
  for (const path of paths) {
    if (outputClosed()) break; // `| head`: nobody reads any more
    let model: Model;
    try {
      if (!formatOf(path)) throw unknownFormat(path);
      model = loadModel(path);
    } catch (e) {
      failed = true;
      const error = errorText(e);
      if (json) stdout().write(JSON.stringify({ path, error, ...(e instanceof OvirError ? { diagnostics: e.diagnostics.map(diagnosticToJson) } : {}) }) + '\n');
      else stderr().write(e instanceof OvirError ? `${error}\n` : `${path}: ${error}\n`); // grouped lines name the file
      continue;
    }
    if (report(model, path)) failed = true;
  }
  return failed;
}
