/**
 * The ovir library API: the same operations as the CLI, from TypeScript.
 *
 * ```ts
 * import { loadModel, convertModel, saveModel, convertFile, convertBatch, checkModels } from 'ovir';
 * convertFile('model.onnx', 'out/model.xml');               // ONNX → IR (.xml + .bin), atomically
 * const report = await convertBatch(['zoo/'], { outDir: 'out', jobs: 4, onEvent: (e) => … });
 * ```
 * Every failure on bad input is an OvirError carrying all its Diagnostics (code, graph path,
 * message); convertBatch reports failures per model instead of throwing.
 */

// Files and the two codecs
export { loadModel, saveModel } from './io/load.js';
export { decodeOnnx, type DecodeOptions as OnnxDecodeOptions } from './onnx/decode.js';
export { encodeOnnx, type EncodeOptions as OnnxEncodeOptions } from './onnx/encode.js';
export { readOnnxFile, writeOnnxFile } from './onnx/file.js';
export { readIr, type ReadIrOptions } from './ir/read.js';
export { writeIr } from './ir/write.js';
export { readIrFile, writeIrFile, binPathFor } from './ir/file.js';
export { formatOf, type ModelFormat } from './io/format.js';
export { writeFilesAtomic, type FileToWrite } from './fs/atomic.js';

// Conversion, one file or a whole tree
export { convertModel, DEFAULT_ONNX_OPSET, MIN_ONNX_OPSET, MAX_ONNX_OPSET, type ConvertOptions } from './convert/index.js';
export { parseFreeze, type FreezeSpec, type FreezeValue } from './convert/freeze.js';
export { convertFile } from './batch/convert-file.js';
export { convertBatch, BatchUsageError } from './batch/batch.js';
export { parseShard, selectShard, type Shard } from './batch/shard.js';
export { parseInputOverride, parseInputOverrides, parseInputSpecs, type InputOverride, type InputSpec } from './batch/input-override.js';
export { junitXml } from './batch/junit.js';
export type {
  BatchEvent, BatchOptions, BatchReport, CheckRecord, ConvertFileOptions, EquivSummary, ModelResult, ModelStatus, RunRecord,
} from './batch/types.js';

// Shape inference and equivalence
export { inferTypes, applyInferred, IF_MERGE_POLICIES, type InferOptions, type InferenceResult, type IfMergePolicy } from './shape/index.js';
export { checkModels, checkFile, countEntries, type CheckOptions, type CheckFileOptions, type EquivReport, type EquivEntry, type EquivCounts, type TypeSummary } from './equiv/index.js';

// `ovir info` as data
export { describeModel, type ModelInfo, type IoInfo } from './io/describe.js';

// Diagnostics
export { OvirError, Diagnostics, diag, formatDiagnostic, diagnosticToJson, type Diagnostic } from './diag/diagnostic.js';
export { groupDiagnostics } from './diag/group.js';
export { CODES, type DiagCode } from './diag/codes.js';

// The graph
export * from './graph/index.js';

export { VERSION } from './version.js';
