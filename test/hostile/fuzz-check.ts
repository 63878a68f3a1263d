/**
 * One hostile case through the library, in process: load (from files in a folder of its own, so
 * external data and the .bin resolve as in real use) → info → shapes → convert → save → reload of
 * what was written, and the one-file check. Whatever is thrown must be an OvirError without an
 * INTERNAL diagnostic; a failed save must leave nothing in the output folder; a written model must
 * read back. Returns the findings (empty: the case behaved). No vitest import.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { checkFile } from '../../src/equiv/check-file.js';
import { describeModel } from '../../src/io/describe.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { inferTypes } from '../../src/shape/index.js';

export interface Finding {
  /** Which step: load, info, shapes, convert, save, reload, check. */
  step: string;
  /** What went wrong: 'exception' (not an OvirError), 'internal' (INTERNAL diagnostic), 'partial-output', 'reload', 'slow'. */
  kind: string;
  message: string;
}

export interface CaseFiles {
  /** The model's file name in the folder: model.onnx or model.xml. */
  main: string;
  files: Map<string, Uint8Array>;
}

export interface CaseResult {
  findings: Finding[];
  /** The codes of the OvirError that ended the case (none: it converted). */
  codes: string[];
  ms: Record<string, number>;
  converted: boolean;
}

/** ovir's own faults ("please report"): a crash inside the converter or a shape rule. */
const INTERNAL_CODES: ReadonlySet<string> = new Set(['INTERNAL', 'SHAPE_RULE_FAILED']);

const describe = (e: unknown): string => (e instanceof Error ? `${e.constructor.name}: ${e.message}\n${(e.stack ?? '').split('\n').slice(1, 8).join('\n')}` : String(e));

/** Writes the case into `dir` (emptied first) and runs it. `steps`: which to run (default all). */
export function runCase(dir: string, c: CaseFiles, opts: { slowMs?: number; check?: boolean; pairWith?: string } = {}): CaseResult {
  rmSync(dir, { recursive: true, force: true });
  const inDir = join(dir, 'in');
  const outDir = join(dir, 'out');
  mkdirSync(inDir, { recursive: true });
  mkdirSync(outDir, { recursive: true });
  for (const [name, bytes] of c.files) {
    if (name.includes('/')) mkdirSync(join(inDir, name, '..'), { recursive: true });
    writeFileSync(join(inDir, name), bytes);
  }
  const findings: Finding[] = [];
  const ms: Record<string, number> = {};
  const codes: string[] = [];
  const slow = opts.slowMs ?? 5000;
  /** Runs a step; returns its value, or undefined when it threw (recorded). */
  const step = <V>(name: string, f: () => V): V | undefined => {
    const t0 = performance.now();
    try {
      return f();
    } catch (e) {
      if (!(e instanceof OvirError)) findings.push({ step: name, kind: 'exception', message: describe(e) });
      else {
        const internal = e.diagnostics.filter((d) => INTERNAL_CODES.has(d.code));
        if (internal.length) findings.push({ step: name, kind: 'internal', message: internal.map((d) => `${d.where}: ${d.message}`).join('\n') });
        codes.push(...new Set(e.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)));
        const unnamed = e.diagnostics.filter((d) => d.severity === 'error' && !d.file);
        if (unnamed.length && name === 'load') findings.push({ step: name, kind: 'no-file', message: unnamed.map((d) => `${d.code} ${d.where}: ${d.message}`).slice(0, 3).join('\n') });
      }
      return undefined;
    } finally {
      const t = performance.now() - t0;
      ms[name] = t;
      if (t > slow) findings.push({ step: name, kind: 'slow', message: `${(t / 1000).toFixed(1)} s` });
    }
  };
  const inPath = join(inDir, c.main);
  const model = step('load', () => loadModel(inPath));
  let converted = false;
  if (model) {
    step('info', () => describeModel(model, inPath));
    const inferred = step('shapes', () => inferTypes(model));
    if (inferred) {
      const internal = inferred.diagnostics.filter((d) => INTERNAL_CODES.has(d.code));
      if (internal.length) findings.push({ step: 'shapes', kind: 'internal', message: internal.map((d) => `${d.where}: ${d.message}`).join('\n') });
    }
    const to = model.dialect === 'onnx' ? 'ov' : 'onnx';
    const outPath = join(outDir, to === 'ov' ? 'out.xml' : 'out.onnx');
    const out = step('convert', () => convertModel(model, { to }));
    if (out) {
      const saved = step('save', () => { saveModel(out, outPath); return true; });
      const left = readdirSync(outDir);
      if (!saved && left.length) findings.push({ step: 'save', kind: 'partial-output', message: `left behind: ${left.join(', ')}` });
      if (saved) {
        converted = true;
        const before = codes.length;
        step('reload', () => loadModel(outPath));
        // what ovir writes it must read: any error there is a finding
        if (codes.length > before) findings.push({ step: 'reload', kind: 'reload', message: `ovir cannot read what it wrote: ${codes.slice(before).join(', ')}` });
      }
    }
    if (opts.check !== false) step('check', () => checkFile(inPath));
    // two files: the unmutated source against the mutated model (ours against a hand-edited one)
    if (opts.pairWith) step('check2', () => checkFile(opts.pairWith!, inPath));
  }
  return { findings, codes: [...new Set(codes)], ms, converted };
}
