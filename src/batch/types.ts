import type { ModelFormat } from '../io/format.js';

/** Convert options shared by `ovir convert`, `ovir batch`, convertFile and convertBatch. */
export interface ConvertFileOptions {
  /** Target format; default: the other format of each input. */
  to?: ModelFormat;
  /** ONNX opset to write when converting to ONNX. */
  opset?: number;
  /** Store f32 weights as f16 (IR output). */
  compressToFp16?: boolean;
  /**
   * Input shapes as ovc's `--input` takes them, each string a comma-separated list
   * (`"x[1,3,224,224],y[?,10]"`, `"[1..8,N]"` by position, `z[...]` unknown rank): see parseInputSpecs.
   */
  inputs?: string[];
  /** ovc's `--output`: keep only these model outputs (tensor names), in this order; what no longer feeds them is removed. */
  keepOutputs?: string[];
  /** Wrong declarations of intermediate values are errors, not warnings (ConvertOptions.strict; also for --check). */
  strict?: boolean;
  /** Inputs to freeze, as on the command line: `name=value` or `name[shape]{type}->value` (see parseFreeze). */
  freeze?: string[];
  /** Write the outputs durably (fsync before the rename; see WriteOptions). Not a conversion option: --resume ignores it. */
  fsync?: boolean;
}

/** What happened to one model of a batch. */
export type ModelStatus = 'converted' | 'failed' | 'skipped' | 'interrupted';

/** Equivalence results recorded with --check / --roundtrip. */
export interface CheckRecord {
  /** Whether every recorded comparison found no contradiction (and --run found equal outputs). */
  ok: boolean;
  /** --check: the input against its conversion. */
  conversion?: EquivSummary;
  /** --roundtrip: the input against its conversion converted back. */
  roundtrip?: EquivSummary;
  /**
   * --check --run: the input and the written output run in onnxruntime on the same seeded random
   * inputs (runForms, as `check --run`); --roundtrip --run alone: the ONNX input and its round trip.
   */
  run?: RunRecord;
}

export interface EquivSummary {
  ok: boolean;
  equal: number;
  compatible: number;
  contradiction: number;
  /** The first few contradictions, one line each. */
  contradictions: string[];
}

export interface RunRecord {
  /** Outputs numerically equal (within rtol 1e-5, atol 1e-6; NaN equal to NaN). */
  ok: boolean;
  /** Why the run was not done (e.g. the input is IR), when it was not. */
  skipped?: string;
  /** Largest absolute difference over all outputs. */
  maxAbsDiff?: number;
  /** What differed (output names, shapes, dtypes), when not ok. */
  detail?: string;
}

/** One model's line in the report. */
export interface ModelResult {
  /** The input file, as found (the argument as given, or joined under a directory/glob root). */
  input: string;
  /** The files written (or that would have been): `.xml` + `.bin`, or `.onnx`. */
  outputs: string[];
  status: ModelStatus;
  /** Why it failed (one line per cause, as the CLI prints it), null otherwise. */
  error: string | null;
  /** Every diagnostic of a failed model (the full list `error` summarizes), when it failed on an OvirError. */
  diagnostics?: Record<string, unknown>[];
  /** Wall time spent on the model in ms (0 when skipped). */
  ms: number;
  /** With --check/--roundtrip, what the checks found; null otherwise. */
  check: CheckRecord | null;
}

/** The --report file and the result of convertBatch. */
export interface BatchReport {
  total: number;
  converted: number;
  failed: number;
  skipped: number;
  /** Models not converted because the batch was stopped (Ctrl-C / SIGTERM / the signal): not failures. */
  interrupted: number;
  models: ModelResult[];
}

/** Progress events of convertBatch, in order: start, (model-start, model-done)*, end. */
export type BatchEvent =
  | { type: 'start'; total: number }
  | { type: 'model-start'; input: string; index: number; total: number }
  | { type: 'model-done'; result: ModelResult; done: number; total: number }
  | { type: 'end'; report: BatchReport };

export interface BatchOptions extends ConvertFileOptions {
  /** Where outputs go, mirroring each input's path relative to its input root. */
  outDir: string;
  /** Worker threads (default: available parallelism). 0 = convert in the calling thread, one at a time. */
  jobs?: number;
  /** `{ index, count }`, 1 ≤ index ≤ count: keep only every count-th model of the sorted inputs, starting at index. */
  shard?: { index: number; count: number };
  /** Skip models whose outputs all exist, are newer than the input and were made with the same conversion options. */
  resume?: boolean;
  /** Run the equivalence check on each conversion. */
  check?: boolean;
  /** Convert each result back and check it against the input. */
  roundtrip?: boolean;
  /** With roundtrip: also run input and round-tripped ONNX in onnxruntime on random inputs. */
  run?: boolean;
  /** Per-model time limit in ms: the worker running a slower model is stopped and the model fails. */
  timeoutMs?: number;
  /** Stops the batch: running workers are stopped, unfinished models are reported `interrupted`, temp files are removed. */
  signal?: AbortSignal;
  /** Progress events. */
  onEvent?: (e: BatchEvent) => void;
}

/** One unit of work for a worker (structured-cloneable). */
export interface ModelTask {
  input: string;
  outputs: string[];
  /** Output format. */
  to: ModelFormat;
  convert: ConvertFileOptions;
  check: boolean;
  roundtrip: boolean;
  run: boolean;
}

/** What a worker returns for a task it finished (a crash is seen by the pool instead). */
export interface TaskResult {
  status: 'converted' | 'failed' | 'interrupted';
  error: string | null;
  diagnostics?: Record<string, unknown>[];
  ms: number;
  check: CheckRecord | null;
}
