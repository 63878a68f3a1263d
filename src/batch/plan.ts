import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { writeFilesAtomic } from '../fs/atomic.js';
import type { ConvertFileOptions } from './types.js';
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

/**
 * The options that shape a model's output (target format and every conversion option), as a
 * canonical string: --resume re-converts when they differ from those the output was made with.
 * New conversion options count automatically (`fsync`, how the files were written, does not).
 */
export function optionsStamp(to: ModelFormat, convert: ConvertFileOptions): string {
  const entries = Object.entries(convert).filter(([k, v]) => k !== 'fsync' && v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0));
  return JSON.stringify({ to, ...Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) });
}

/** The file in --out-dir that records which options each output was made with (for --resume). */
export const RESUME_RECORD = '.ovir-batch.json';

interface RecordEntry { stamp: string; mtimeMs: number; size: number }

/**
 * What options each output under an out-dir was made with: one JSON file in the out-dir, keyed by
 * the first output's path relative to it, with the output's mtime and size when recorded (an output
 * changed since, by anything, no longer matches its entry and is redone). Read once at the start of
 * a batch, written atomically at its end (Ctrl-C included), merged with what is on disk then: a
 * concurrent batch into the same out-dir can at worst lose entries, which only makes --resume
 * convert those models again.
 */
export class ResumeRecord {
  private readonly file: string;
  private readonly entries: Map<string, RecordEntry>;
  private readonly updates = new Map<string, RecordEntry>();

  constructor(private readonly outDir: string) {
    this.file = join(outDir, RESUME_RECORD);
    this.entries = ResumeRecord.read(this.file);
  }

  private static read(file: string): Map<string, RecordEntry> {
    try {
      const doc = JSON.parse(readFileSync(file, 'utf8')) as { outputs?: Record<string, RecordEntry> };
      return new Map(Object.entries(doc.outputs ?? {}));
    } catch {
      return new Map();
    }
  }

  private key(output: string): string {
    return relative(resolve(this.outDir), resolve(output));
  }

  /** Whether `output` is the file recorded as made with `stamp`. */
  matches(output: string, stamp: string): boolean {
    const e = this.entries.get(this.key(output));
    if (!e || e.stamp !== stamp) return false;
    try {
      const st = statSync(output);
      return st.mtimeMs === e.mtimeMs && st.size === e.size;
    } catch {
      return false;
    }
  }

  /** Records that `output` (just written) was made with `stamp`. */
  note(output: string, stamp: string): void {
    try {
      const st = statSync(output);
      this.updates.set(this.key(output), { stamp, mtimeMs: st.mtimeMs, size: st.size });
    } catch { /* not written: nothing to record */ }
  }

  /** Writes the record (merged with the one on disk now), if anything was noted. */
  save(): void {
    if (this.updates.size === 0) return;
    const merged = ResumeRecord.read(this.file);
    for (const [k, v] of this.updates) merged.set(k, v);
    const outputs = Object.fromEntries([...merged].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    writeFilesAtomic([{ path: this.file, chunks: JSON.stringify({ version: 1, outputs }, null, 1) + '\n' }]);
  }
}

/**
 * --resume: every output exists, is newer than every file of the input, and the record says it
 * was made with the same options (`stamp`; an output without an entry was made by something else:
 * redone).
 */
export function upToDate(input: string, outputs: readonly string[], stamp: string, record: ResumeRecord): boolean {
  let newestInput = 0;
  for (const f of modelFiles(input)) {
    if (!existsSync(f)) return false;
    newestInput = Math.max(newestInput, statSync(f).mtimeMs);
  }
  for (const o of outputs) {
    if (!existsSync(o) || !(statSync(o).mtimeMs > newestInput)) return false;
  }
  return record.matches(outputs[0]!, stamp);
}
