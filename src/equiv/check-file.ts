import type { Diagnostic } from '../diag/diagnostic.js';
import type { Model } from '../graph/model.js';
import { convertModel } from '../convert/index.js';
import { loadModel } from '../io/load.js';
import { checkModels, type IfMergePolicy } from './check-models.js';
import type { EquivReport } from './report.js';

/** Conversion warnings that say the other form is not op for op the same model: always reported. */
const CHANGES: ReadonlySet<string> = new Set(['CONVERT_IF_FOLDED', 'SHAPE_BRANCH_RELAXED']);

const otherForm = (m: Model): 'ov' | 'onnx' => (m.dialect === 'onnx' ? 'ov' : 'onnx');

/**
 * One file: converts it to the other form in memory and compares the two. Two files: compares
 * them as given (ours against ovc's, a hand-edited IR against its source). `roundtrip`: also
 * converts the first file to the other form and back, and compares that with the original
 * (`report.roundtrip`; `report.ok` then covers both). Loading and conversion failures throw
 * OvirError with their diagnostics.
 */
export interface CheckFileOptions {
  roundtrip?: boolean;
  ifMerge?: IfMergePolicy;
  /** Wrong declarations of intermediate values are errors that fail the check (default: warnings). */
  strict?: boolean;
  /** Called with the two forms compared (B converted in memory in one-file mode): for `check --run`. */
  onForms?: (a: Model, b: Model) => void;
}

export function checkFile(pathA: string, pathB?: string, opts: CheckFileOptions = {}): EquivReport {
  const a = loadModel(pathA);
  const ifMerge = opts.ifMerge;
  const strict = opts.strict === true;
  let report: EquivReport;
  if (pathB !== undefined) {
    const b = loadModel(pathB);
    report = checkModels(a, b, { ifMerge, strict, labelA: pathA, labelB: pathB, names: 'hint' });
    opts.onForms?.(a, b);
  } else {
    const to = otherForm(a);
    // a new model; `a` stays as the file says. What the conversion changed beyond op for op (an If
    // replaced by its taken branch: CONVERT_IF_FOLDED; a branch fed relaxed captures:
    // SHAPE_BRANCH_RELAXED) is part of the report.
    const changed: Diagnostic[] = [];
    const b = convertModel(a, { to, strict, onWarning: (d) => { if (CHANGES.has(d.code)) changed.push({ ...d, file: d.file ?? pathA }); } });
    report = checkModels(a, b, { ifMerge, strict, labelA: pathA, labelB: `${pathA} (as ${to})` });
    report.diagnostics.push(...changed);
    opts.onForms?.(a, b);
  }
  if (opts.roundtrip) {
    const there = otherForm(a);
    const back = convertModel(convertModel(a, { to: there, strict }), { to: a.dialect, strict });
    const rt = checkModels(a, back, { ifMerge, strict, labelA: pathA, labelB: `${pathA} (to ${there} and back)` });
    report.roundtrip = rt;
    report.ok = report.ok && rt.ok;
  }
  return report;
}
