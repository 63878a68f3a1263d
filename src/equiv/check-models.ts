import { applyIrV10Interface } from '../convert/ir-v10-interface.js';
import { diag, Diagnostics } from '../diag/diagnostic.js';
import type { Model } from '../graph/model.js';
import { inferTypes } from '../shape/index.js';
import { compareInferred, type NamePolicy } from './compare.js';
import { stateNamesOf } from '../graph/state-metadata.js';
import { inferenceErrors, type EquivReport } from './report.js';
import { sameComputation } from './same-computation.js';

/** The If-merge policies shape inference knows (onnx, symbolic, openvino). */
type InferOptions = NonNullable<Parameters<typeof inferTypes>[1]>;
export type IfMergePolicy = InferOptions['ifMerge'];

export interface CheckOptions {
  /** If-merge rule for shape inference of both forms (default: each dialect's own rule). */
  ifMerge?: IfMergePolicy;
  /** Labels for messages and `Diagnostic.file` (file paths). */
  labelA?: string;
  labelB?: string;
  /**
   * `decide` (default): both models come from one conversion by ovir, whose names are kept, so
   * same-named values decide. `hint`: independently produced files (compare.ts).
   */
  names?: NamePolicy;
  /**
   * Declarations of intermediate values that inference contradicts are errors that fail the
   * check, as those of graph inputs/outputs do (default: warnings). See InferOptions.strict.
   */
  strict?: boolean;
}

function infer(model: Model, ifMerge: IfMergePolicy | undefined, strict: boolean) {
  return inferTypes(model, { ...(ifMerge === undefined ? {} : { ifMerge }), strict } as InferOptions);
}

/**
 * Infers both models (each with `ifMerge`, or its own dialect's rule) and compares every tensor
 * they both name. Inference problems are kept in the report's diagnostics.
 */
export function checkModels(a: Model, b: Model, opts: CheckOptions = {}): EquivReport {
  // an IR v10 file is compared as OpenVINO runs it: with its old API's interface types
  // (ir-v10-interface.ts), applied for the comparison and undone after it (the models are the caller's)
  const legacy = new Diagnostics();
  const undo: (() => void)[] = [];
  for (const m of [a, b]) if (m.dialect === 'ov' && m.ir?.version === 10) undo.push(applyIrV10Interface(m, 0, legacy));
  try {
    return compare(a, b, opts, legacy);
  } finally {
    for (const u of undo.reverse()) u();
  }
}

function compare(a: Model, b: Model, opts: CheckOptions, legacy: Diagnostics): EquivReport {
  const ia = infer(a, opts.ifMerge, opts.strict === true);
  const ib = infer(b, opts.ifMerge, opts.strict === true);
  const report = compareInferred(
    { graph: a.graph, types: ia.types, values: ia.values, diagnostics: ia.diagnostics, label: opts.labelA ?? 'A', states: stateNamesOf(a.onnx?.metadataProps) },
    { graph: b.graph, types: ib.types, values: ib.values, diagnostics: ib.diagnostics, label: opts.labelB ?? 'B', states: stateNamesOf(b.onnx?.metadataProps) },
    opts.names === undefined ? {} : { names: opts.names },
  );
  report.diagnostics.push(...legacy.list);
  if (opts.strict && report.diagnostics.some((d) => d.code === 'SHAPE_DECLARED_CONTRADICTS')) report.ok = false;
  // a form that does not infer is no valid model: the check proves nothing (a Softmax axis 5 on
  // rank 1 in both files was "equivalent", exit 0)
  if (inferenceErrors(report) > 0) report.ok = false;
  // Two files produced apart: the types agreeing says nothing of what is computed (a Relu and a
  // Sigmoid have one type), so the computations are compared too — when nothing else has
  // decided the verdict already (a contradiction, an inference error).
  if ((opts.names ?? 'decide') === 'hint' && report.ok) {
    const c = sameComputation(a, b);
    report.computation = { proven: c.proven, compared: c.compared, differences: c.count };
    if (!c.proven) {
      report.ok = false;
      for (const f of c.differences) {
        const d = diag('EQUIV_FORM_DIFFERS', f.pathA, { detail: f.detail, pathB: f.pathB, compared: c.compared });
        d.file = opts.labelA ?? 'A';
        report.diagnostics.push(d);
      }
      if (!c.differences.length) {
        const d = diag('EQUIV_FORM_UNCOMPARED', '', { detail: c.notes.join('; ') || 'no comparison could be made' });
        d.file = opts.labelA ?? 'A';
        report.diagnostics.push(d);
      }
    }
  }
  return report;
}
