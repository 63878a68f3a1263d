import { allGraphs } from '../graph/graph.js';
import type { Model } from '../graph/model.js';
import { shapeToJson } from '../graph/shape.js';
import { describeType, type ValueType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import type { InferenceResult } from './infer.js';

/** One value as `ovir shapes --json` prints it. */
export interface ShapeEntry {
  name: string;
  /** `main`, or the body path (`main/If_3/then`). */
  scope: string;
  /** OpenVINO element type name (f32, i64, boolean, dynamic…); seq(…)/optional(…) for ONNX non-tensors; null if unknown. */
  dtype: string | null;
  /** Dims as JSON (number, symbol, "a..b", null); null = unknown rank. */
  shape: (number | string | null)[] | null;
}

export interface ShapesReport { path: string; values: ShapeEntry[] }

function dtypeOf(t: ValueType | undefined): string | null {
  if (!t || t.kind === 'unknown') return null;
  return t.kind === 'tensor' || t.kind === 'sparse_tensor' ? t.elem : describeType(t);
}

function nameOf(v: Value): string {
  if (v.names[0]) return v.names[0];
  if (typeof v.metaView.layerName === 'string' && v.metaView.layerName) return v.metaView.layerName;
  return v.label;
}

/** Every value of every graph (inputs, initializers, node outputs), graphs before their bodies. */
export function shapesReport(model: Model, result: InferenceResult, path: string): ShapesReport {
  const values: ShapeEntry[] = [];
  for (const g of allGraphs(model.graph)) {
    const scope = g.path;
    const add = (v: Value) => {
      const t = result.types.get(v);
      values.push({ name: nameOf(v), scope, dtype: dtypeOf(t), shape: t && (t.kind === 'tensor' || t.kind === 'sparse_tensor') ? shapeToJson(t.shape) : null });
    };
    g.inputs.forEach(add);
    g.initializers.forEach(add);
    for (const n of g.nodes) n.outputs.forEach(add);
  }
  return { path, values };
}
