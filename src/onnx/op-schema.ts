import type { ElementTypeName } from '../graph/element-type.js';
import type { OnnxFormalParam, OnnxSchemaRow } from './op-schema-types.js';
import { ONNX_SCHEMA_JSON } from './schemas.data.js';

export type { OnnxFormalParam, OnnxSchemaRow } from './op-schema-types.js';

/**
 * The ai.onnx operator schemas (generated data, scripts/gen-onnx-schemas.py): which version of an
 * op an opset holds, its attributes, inputs and the element types each input takes. IR → ONNX
 * uses it to pick forms the target opset has and to insert Casts; `validateOnnxModel` checks every
 * model ovir writes against it.
 */
const byOp = new Map<string, readonly OnnxSchemaRow[]>();
const NO_ROWS: readonly OnnxSchemaRow[] = [];

/**
 * The rows of `op`, by `since`: parsed from the table's JSON text on the op's first lookup (a
 * conversion reads a few ops' rows; building all 605 at load was ~1.5 ms of every run's startup).
 */
function rowsOf(op: string): readonly OnnxSchemaRow[] {
  let rows = byOp.get(op);
  if (rows === undefined) {
    rows = Object.hasOwn(ONNX_SCHEMA_JSON, op) ? (JSON.parse(ONNX_SCHEMA_JSON[op]!) as OnnxSchemaRow[]) : NO_ROWS;
    byOp.set(op, rows);
  }
  return rows;
}

/** The schema of ai.onnx `op` in effect at `opset` (the newest row with since ≤ opset), or null. */
export function onnxSchema(op: string, opset: number): OnnxSchemaRow | null {
  const list = rowsOf(op);
  let found: OnnxSchemaRow | null = null;
  for (const r of list) if (r.since <= opset) found = r;
  return found;
}

/** The first opset in [`from`, `max`] whose version of `op` satisfies `ok`, or null. */
export function firstOpsetWhere(op: string, from: number, ok: (s: OnnxSchemaRow) => boolean, max = 25): number | null {
  const list = rowsOf(op);
  for (let k = 0; k < list.length; k++) {
    const r = list[k]!;
    const until = (list[k + 1]?.since ?? Infinity) - 1;
    const at = Math.max(r.since, from);
    if (at <= until && at <= max && ok(r)) return at;
  }
  return null;
}

/** The formal parameter that input `i` of a node falls on (a variadic last one covers the rest). */
export function formalInput(s: OnnxSchemaRow, i: number): OnnxFormalParam | null {
  if (i < s.inputs.length) return s.inputs[i]!;
  const last = s.inputs[s.inputs.length - 1];
  return last?.option === 'variadic' ? last : null;
}

/** The formal parameter that output `i` falls on. */
export function formalOutput(s: OnnxSchemaRow, i: number): OnnxFormalParam | null {
  if (i < s.outputs.length) return s.outputs[i]!;
  const last = s.outputs[s.outputs.length - 1];
  return last?.option === 'variadic' ? last : null;
}

/** Tensor element types a formal parameter accepts (a fixed type or its constraint's list). */
export function allowedElems(s: OnnxSchemaRow, p: OnnxFormalParam): readonly string[] {
  return s.types[p.type] ?? [p.type];
}

/** Whether input `i` of `op` at `opset` takes tensors of `elem` (true when the schema does not say). */
export function onnxInputTakes(op: string, opset: number, i: number, elem: ElementTypeName): boolean {
  const s = onnxSchema(op, opset);
  const p = s && formalInput(s, i);
  return !p || allowedElems(s, p).includes(elem);
}
