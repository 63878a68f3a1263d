import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertModel } from '../convert/index.js';
import { allNodes } from '../graph/graph.js';
import type { Model } from '../graph/model.js';
import { loadModel, saveModel } from '../io/load.js';
import { loadOrt, runInChild } from './run-ort.js';
import type { RunRecord } from './types.js';

/**
 * Running two forms of one model in onnxruntime on the same seeded random inputs and comparing
 * their outputs: `ovir check --run` and `ovir batch --check --run`. onnxruntime runs ONNX only, so
 * a form that is IR is first converted to ONNX by ovir (in a temporary folder, removed afterwards)
 * and `converted` says so: the run then also trusts ovir's IR → ONNX conversion. Outputs are
 * paired by name, or by position when the names differ (as check pairs the interface); floats must agree within rtol 1e-4 / atol 1e-5 (f32), NaN only equals NaN.
 * Inputs are seeded from A's path (reruns feed the same numbers); a model with a boolean input
 * runs with up to 4 seeds (stopping at the first difference), so that an If condition taken from
 * an input is very likely to take both values.
 * Runs in a child process (runInChild), so that a native crash of onnxruntime ends only that.
 * Outputs that differ where either form draws random numbers (RandomUniform(Like),
 * RandomNormal(Like), Bernoulli, Multinomial, Dropout with a training_mode) are not judged: the
 * forms draw other numbers of the same law (test/conformance/random-ops.test.ts judges the laws).
 */
export interface FormsRun extends RunRecord {
  /** One line per form converted to ONNX by ovir to be run. */
  converted: string[];
}

/** A form: a file path, or a model in memory (with the label messages use). */
export type Form = string | { model: Model; label: string };

export const RUN_TOLERANCE = { rtol: 1e-4, atol: 1e-5 } as const;
/** Runs (seeds) when the model has a boolean input. */
export const RUNS_WITH_BOOLEANS = 4;

/**
 * Checks that onnxruntime-node can be loaded; returns a message naming what to install when not.
 */
export async function ortMissing(): Promise<string | undefined> {
  try {
    await loadOrt();
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** ONNX ops whose outputs are random draws (Dropout only with a training_mode input). */
const RANDOM_OPS = new Set(['RandomUniform', 'RandomUniformLike', 'RandomNormal', 'RandomNormalLike', 'Bernoulli', 'Multinomial']);

/** The random ops of an ONNX model, bodies included, by name. */
function randomOps(m: Model): string[] {
  const out = new Set<string>();
  for (const n of allNodes(m.graph)) {
    if (n.domain !== '' && n.domain !== 'ai.onnx') continue;
    if (RANDOM_OPS.has(n.op) || (n.op === 'Dropout' && n.inputs[2])) out.add(n.op);
  }
  return [...out];
}

export async function runForms(a: Form, b: Form, timeoutMs = 120_000): Promise<FormsRun> {
  const dir = mkdtempSync(join(tmpdir(), 'ovir-run-'));
  const converted: string[] = [];
  const asOnnx = (f: Form, side: 'A' | 'B'): string => {
    if (typeof f === 'string' && f.toLowerCase().endsWith('.onnx')) return f;
    const model = typeof f === 'string' ? loadModel(f) : f.model;
    const label = typeof f === 'string' ? f : f.label;
    if (model.dialect === 'onnx') {
      const out = join(dir, `${side}.onnx`);
      saveModel(model, out);
      return out;
    }
    const out = join(dir, `${side}.onnx`);
    saveModel(convertModel(model, { to: 'onnx' }), out);
    converted.push(`${side} (${label}) is IR: converted to ONNX by ovir to run in onnxruntime`);
    return out;
  };
  try {
    const fa = asOnnx(a, 'A');
    const fb = asOnnx(b, 'B');
    // A boolean input (an If condition) picks one branch per run: run as many seeds as it takes
    // to see both values, at most RUNS_WITH_BOOLEANS.
    const modelA = loadModel(fa);
    const booleans = modelA.graph.inputs.some((v) => v.type?.kind === 'tensor' && v.type.elem === 'boolean');
    const seedOf = typeof a === 'string' ? a : a.label;
    let r: RunRecord = { ok: true };
    for (let k = 0; k < (booleans ? RUNS_WITH_BOOLEANS : 1); k++) {
      r = await runInChild(fa, fb, timeoutMs, { ...RUN_TOLERANCE, nameB: 'B', seed: k === 0 ? seedOf : `${seedOf}#${k}` });
      if (!r.ok || r.skipped) break;
    }
    if (!r.ok && !r.skipped) {
      const drawn = [...new Set([...randomOps(modelA), ...randomOps(loadModel(fb))])];
      if (drawn.length) {
        return {
          ok: true, converted,
          skipped: `the model draws random numbers (${drawn.join(', ')}): two forms, like two generators, give other numbers of the same law, so values are not compared (${r.detail ?? 'outputs differ'})`,
        };
      }
    }
    return { ...r, converted };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
