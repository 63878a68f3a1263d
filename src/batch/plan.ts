import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatOf, type ModelFormat } from '../io/format.js';
import type { FoundModel } from './discover.js';

/** The files of a model on disk: `.onnx`, or `.xml` + `.bin`. */
export function modelFiles(path: string): string[] {
  return formatOf(path) === 'ir' ? [path, binOf(path)] : [path];
}

/** `a/b.xml` → `a/b.bin` */
export function binOf(xmlPath: string): string {
  return xmlPath.replace(/\.xml$/i, '') + '.bin';
}

/** The other format: the default target. */
export const otherFormat = (f: ModelFormat): ModelFormat => (f === 'onnx' ? 'ir' : 'onnx');

/** Output files for `rel` under `outDir` in format `to` (.xml first, then its .bin). */
export function outputsFor(outDir: string, rel: string, to: ModelFormat): string[] {
  const stem = rel.replace(/\.(onnx|xml)$/i, '');
  return to === 'ir' ? [join(outDir, stem + '.xml'), join(outDir, stem + '.bin')] : [join(outDir, stem + '.onnx')];
}

export interface PlannedModel {
  input: string;
  from: ModelFormat;
  to: ModelFormat;
  outputs: string[];
  /** Set when the model must not be converted (it would overwrite an input or another model's output). */
  conflict?: string;
}

/**
 * Target format and output files of each model; a model whose outputs would overwrite any input
 * file (its own or another model's, .bin included) or the outputs of an earlier model gets a
 * `conflict` and is not converted.
 */
export function planOutputs(models: readonly FoundModel[], outDir: string, to: ModelFormat | undefined): PlannedModel[] {
  const inputFiles = new Map<string, string>();
  for (const m of models) for (const f of modelFiles(m.input)) inputFiles.set(resolve(f), m.input);
  const claimed = new Map<string, string>();
  return models.map((m) => {
    const from = formatOf(m.input)!;
    const target = to ?? otherFormat(from);
    const outputs = outputsFor(outDir, m.rel, target);
    const p: PlannedModel = { input: m.input, from, to: target, outputs };
    for (const o of outputs) {
      const key = resolve(o);
      const owner = inputFiles.get(key);
      if (owner !== undefined) { p.conflict = `output '${o}' would overwrite input ${owner === m.input ? 'itself' : `'${owner}'`}; choose another --out-dir`; break; }
      const other = claimed.get(key);
      if (other !== undefined) { p.conflict = `output '${o}' is also the output of '${other}'`; break; }
    }
    if (!p.conflict) for (const o of outputs) claimed.set(resolve(o), m.input);
    return p;
  });
}

/** --resume: every output exists and is newer than every file of the input. */
export function upToDate(input: string, outputs: readonly string[]): boolean {
  let newestInput = 0;
  for (const f of modelFiles(input)) {
    if (!existsSync(f)) return false;
    newestInput = Math.max(newestInput, statSync(f).mtimeMs);
  }
  for (const o of outputs) {
    if (!existsSync(o) || !(statSync(o).mtimeMs > newestInput)) return false;
  }
  return true;
}
