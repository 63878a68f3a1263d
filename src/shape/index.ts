/**
 * Shape and type inference on both dialects.
 *
 * - dim.ts, broadcast.ts: the dimension algebra (static, symbol, interval a..b, unknown; unknown
 *   rank): merge, ONNX multidirectional and OpenVINO numpy/pdpd broadcasting, interval arithmetic.
 * - rules/: one rule per (dialect, op, version range) — rules/onnx/* after onnx's shape inference,
 *   rules/ov/* after OpenVINO's validate_and_infer_types, rules/shared.ts for what both define
 *   alike, rules/control.ts for If; registered by buildRegistry (registry.ts), a pure function.
 * - if-merge.ts: the three If merge policies (onnx, symbolic, openvino).
 * - infer.ts: the engine (iterative over bodies; bodies typed through their bindings; declared
 *   types checked by check.ts; data propagation through partial values, partial.ts).
 * - report.ts: what `ovir shapes` prints.
 */
export { inferTypes, applyInferred, type InferOptions, type InferenceResult } from './infer.js';
export { IF_MERGE_POLICIES, type IfMergePolicy, type PartialValue, type Rule, type RuleContext } from './rule.js';
export { buildRegistry, nodeVersion, type Registry } from './registry.js';
export { ALL_RULES, defaultRegistry } from './rules/index.js';
export { mergeDim, mergeShape, unionDimInterval } from './dim.js';
export { onnxBroadcast, ovNumpyBroadcast, ovPdpdBroadcast, ovAutoBroadcast } from './broadcast.js';
export { mergeBranchTypes } from './if-merge.js';
export { contradictions } from './check.js';
export { shapesReport, type ShapeEntry, type ShapesReport } from './report.js';
