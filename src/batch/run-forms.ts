import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertModel } from '../convert/index.js';
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
    const booleans = loadModel(fa).graph.inputs.some((v) => v.type?.kind === 'tensor' && v.type.elem === 'boolean');
    const seedOf = typeof a === 'string' ? a : a.label;
    let r: RunRecord = { ok: true };
    for (let k = 0; k < (booleans ? RUNS_WITH_BOOLEANS : 1); k++) {
      r = await runInChild(fa, fb, timeoutMs, { ...RUN_TOLERANCE, nameB: 'B', seed: k === 0 ? seedOf : `${seedOf}#${k}` });
      if (!r.ok || r.skipped) break;
    }
    return { ...r, converted };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
