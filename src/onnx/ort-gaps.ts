import { ORT_GAPS } from './ort-gaps.data.js';

/**
 * Where onnxruntime's CPU kernels are narrower than the ONNX schema (measured data,
 * scripts/probe-ort-kernels.mjs): an op at an opset whose schema takes an element type that
 * onnxruntime has no kernel for (Max on int16, TopK on uint64…). A valid ONNX file, but one
 * onnxruntime cannot run, so IR → ONNX widens such operands where that is exact
 * (src/convert/onnx-types.ts). The nearest probed opset at or below the target answers.
 */
const byOp = new Map<string, { opset: number; lacks: ReadonlySet<string> }[]>();
for (const g of ORT_GAPS) {
  const list = byOp.get(g.op) ?? [];
  list.push({ opset: g.opset, lacks: new Set(g.lacks) });
  list.sort((a, b) => a.opset - b.opset);
  byOp.set(g.op, list);
}

/** Whether onnxruntime lacks a kernel for `op` on `elem` at `opset`. */
export function ortLacks(op: string, opset: number, elem: string): boolean {
  const list = byOp.get(op);
  if (!list) return false;
  let row = list[0]!;
  for (const r of list) if (r.opset <= opset) row = r;
  return row.lacks.has(elem);
}
