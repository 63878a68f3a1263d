import { allGraphs } from '../graph/graph.js';
import type { Model } from '../graph/model.js';
import { shapeToJson } from '../graph/shape.js';
import { describeType, type ValueType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import { irStateValues, stateNamesOf } from '../graph/state-metadata.js';
import type { ModelFormat } from './format.js';

/**
 * A model as data (what `ovir info --json` prints and the library's describeModel returns): op
 * counts, graph inputs/outputs, nesting depth. A library function: the CLI only prints it.
 */

/** One graph input or output as `ovir info` describes it. */
export interface IoInfo {
  name: string;
  /** OpenVINO element type name (f32, i64, boolean…); `seq(…)`/`optional(…)` for ONNX non-tensors; null if unknown. */
  dtype: string | null;
  /** Dims as JSON (number, symbol, "a..b", null); null = unknown rank. */
  shape: (number | string | null)[] | null;
}

/** What `ovir info --json` prints for one model. */
export interface ModelInfo {
  path: string;
  format: ModelFormat;
  /** Op type → count over every graph: ONNX op_type (Constant included); IR layer `type` as written (Parameter/Const/Result included). */
  ops: Record<string, number>;
  inputs: IoInfo[];
  outputs: IoInfo[];
  /** Deepest body nesting (0: no bodies). */
  maxDepth: number;
  /**
   * State variables: an IR's (its ReadValues, by variable_id), or those an IR → ONNX by ovir made
   * graph inputs and outputs (the ONNX model's metadata `ovir.state_variables`: their names).
   */
  variables: VariableInfo[];
}

/** One state variable as `ovir info` describes it. */
export interface VariableInfo extends IoInfo {
  /** ONNX: the graph input it is read from and the output its new value is written to (null: none). */
  input?: string | null;
  output?: string | null;
}

function dtypeOf(t: ValueType | null): string | null {
  if (t === null || t.kind === 'unknown') return null;
  if (t.kind === 'tensor' || t.kind === 'sparse_tensor') return t.elem;
  return describeType(t);
}

function shapeOf(t: ValueType | null): IoInfo['shape'] {
  return t !== null && (t.kind === 'tensor' || t.kind === 'sparse_tensor') ? shapeToJson(t.shape) : null;
}

function ioInfo(v: Value, fallbackName: string): IoInfo {
  return { name: v.names[0] || fallbackName, dtype: dtypeOf(v.type), shape: shapeOf(v.type) };
}

/** Describes a loaded model (`path` is echoed as given). */
export function describeModel(model: Model, path: string): ModelInfo {
  const ops = new Map<string, number>();
  const count = (t: string, n = 1) => { if (n > 0) ops.set(t, (ops.get(t) ?? 0) + n); };
  const ir = model.dialect === 'ov';
  let maxDepth = 0;
  for (const g of allGraphs(model.graph)) {
    maxDepth = Math.max(maxDepth, g.depth);
    if (ir) {
      // IR Parameter/Const/Result layers are graph inputs/initializers/outputs, not nodes.
      for (const v of g.inputs) count(typeof v.metaView.irType === 'string' ? v.metaView.irType : 'Parameter');
      for (const v of g.initializers) count(typeof v.metaView.irType === 'string' ? v.metaView.irType : 'Const');
      const results = Array.isArray(g.meta.irResults) ? g.meta.irResults : [];
      g.outputs.forEach((_, i) => count(typeof results[i]?.irType === 'string' ? (results[i]!.irType as string) : 'Result'));
    }
    for (const n of g.nodes) count(ir && typeof n.metaView.irType === 'string' ? n.metaView.irType : n.op);
  }
  const resultNames = Array.isArray(model.graph.meta.resultNames) ? model.graph.meta.resultNames : [];
  return {
    path,
    format: ir ? 'ir' : 'onnx',
    ops: Object.fromEntries([...ops].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    inputs: model.graph.inputs.map((v) => ioInfo(v, typeof v.meta.layerName === 'string' ? v.meta.layerName : v.label)),
    outputs: model.graph.outputs.map((v, i) => ioInfo(v, typeof resultNames[i] === 'string' ? (resultNames[i] as string) : v.label)),
    maxDepth,
    variables: ir ? irVariables(model) : onnxVariables(model),
  };
}

function irVariables(model: Model): VariableInfo[] {
  return [...irStateValues(model.graph, 'read')].map(([id, v]) => ({ ...ioInfo(v, id), name: id }));
}

function onnxVariables(model: Model): VariableInfo[] {
  const g = model.graph;
  return [...stateNamesOf(model.onnx?.metadataProps)].map(([id, p]) => {
    const v = g.inputs.find((x) => p.input !== null && x.names.includes(p.input)) ?? g.outputs.find((x) => p.output !== null && x.names.includes(p.output));
    return { name: id, dtype: v ? dtypeOf(v.type) : null, shape: v ? shapeOf(v.type) : null, input: p.input, output: p.output };
  });
}
