/**
 * `ovir check`: are two forms of a model equivalent? Types and shapes come from shape inference
 * run on each form (never from what the files declare), tensors are paired by name and through
 * body bindings, and each pair is equal, compatible (one side more precise) or a contradiction.
 * See docs/check.md.
 */
export type { EquivEntry, EquivReport, TypeSummary, EquivCounts } from './report.js';
export { computationUnproven, countEntries, inferenceErrors, proven } from './report.js';
export { sameComputation, type ComputationCheck } from './same-computation.js';
export { compareComputation, type FormDifference, type ComputationResult } from './computation.js';
export type { Status, Verdict } from './compare-type.js';
export { compareDim, compareShape, compareType, typeSummary } from './compare-type.js';
export type { Unmatched, ValuePair, Via, Correspondence } from './correspond.js';
export { correspond } from './correspond.js';
export { Paths } from './paths.js';
export { compareInferred, type InferredSide } from './compare.js';
export { SymbolBindings, type Side } from './symbols.js';
export { checkModels, type CheckOptions, type IfMergePolicy } from './check-models.js';
export { checkFile, type CheckFileOptions } from './check-file.js';
