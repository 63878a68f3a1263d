export { inferTypes, applyInferred, type InferOptions, type InferenceResult } from './infer.js';
export { IF_MERGE_POLICIES, type IfMergePolicy, type PartialValue, type Rule, type RuleContext } from './rule.js';
export { buildRegistry, nodeVersion, type Registry } from './registry.js';
export { ALL_RULES, defaultRegistry } from './rules/index.js';
export { mergeDim, mergeShape, unionDimInterval } from './dim.js';
export { onnxBroadcast, ovNumpyBroadcast, ovPdpdBroadcast, ovAutoBroadcast } from './broadcast.js';
export { mergeBranchTypes } from './if-merge.js';
export { contradictions } from './check.js';
export { shapesReport, type ShapeEntry, type ShapesReport } from './report.js';
