/**
 * Batch conversion (`ovir batch`, convertBatch): discover models in files, directories and globs,
 * convert them in worker threads into a mirrored output tree, report per model. See docs/batch.md.
 */
export { convertBatch, BatchUsageError } from './batch.js';
export { convertFile } from './convert-file.js';
export { discoverModels, type FoundModel, type Discovery } from './discover.js';
export { parseShard, selectShard, type Shard } from './shard.js';
export { planOutputs, outputsFor, upToDate, type PlannedModel } from './plan.js';
export { parseInputOverride, parseInputOverrides, type InputOverride } from './input-override.js';
export { junitXml } from './junit.js';
export type {
  BatchEvent, BatchOptions, BatchReport, CheckRecord, ConvertFileOptions, EquivSummary, ModelResult, ModelStatus, RunRecord,
} from './types.js';
