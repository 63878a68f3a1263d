import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { globSync, isDynamicPattern } from 'tinyglobby';
import { formatOf } from '../io/format.js';

/** One model file found from the inputs: `input` = `join(root, rel)`, outputs mirror `rel`. */
export interface FoundModel {
  input: string;
  root: string;
  rel: string;
}

export interface Discovery {
  models: FoundModel[];
  /** Usage problems: inputs that do not exist, match nothing, or are not model files. */
  problems: string[];
}

const MODEL_PATTERNS = ['**/*.onnx', '**/*.xml', '**/*.ONNX', '**/*.XML'];

/** The part of a glob before its first segment with magic characters (`models/**\/*.onnx` → `models`). */
export function globBase(pattern: string): string {
  const parts = pattern.split('/');
  const base: string[] = [];
  for (const p of parts) {
    if (isDynamicPattern(p)) break;
    base.push(p);
  }
  if (base.length === parts.length) base.pop(); // no magic at all: the last segment is the file
  const b = base.join('/');
  return b === '' ? (pattern.startsWith('/') ? '/' : '.') : b;
}

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

function inside(file: string, dir: string): boolean {
  const r = relative(dir, file);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/**
 * Expands files, directories (recursively: *.onnx, *.xml) and globs into model files, each with
 * the root its output path mirrors from: a file's own folder, the directory given, or the glob's
 * static base. Files under `exclude` (the output directory) below an input root are left out; dot files too (the temp
 * files of atomic writes). Sorted by input path, duplicates (same resolved file) removed.
 */
export function discoverModels(inputs: readonly string[], exclude?: string): Discovery {
  const problems: string[] = [];
  const found: FoundModel[] = [];
  const excluded = exclude === undefined ? null : resolve(exclude);
  const add = (root: string, rel: string) => {
    const input = root === '.' ? rel : join(root, rel);
    // Outputs of an earlier run inside an input directory are not inputs (unless the output
    // directory is the input root itself or above it: then nothing can be told apart).
    if (excluded && inside(resolve(input), excluded) && !inside(resolve(root), excluded)) return;
    found.push({ input, root, rel });
  };
  for (const arg of inputs) {
    if (existsSync(arg)) {
      const st = statSync(arg);
      if (st.isDirectory()) {
        const files = globSync(MODEL_PATTERNS, { cwd: arg, onlyFiles: true, dot: false, followSymbolicLinks: true });
        if (files.length === 0) problems.push(`no .onnx or .xml files under directory '${arg}'`);
        for (const f of files) add(arg, f);
      } else if (formatOf(arg) === null) {
        problems.push(`'${arg}' is not a model file (expected .onnx or .xml)`);
      } else {
        const i = Math.max(arg.lastIndexOf('/'), arg.lastIndexOf(sep));
        if (i < 0) add('.', arg);
        else add(arg.slice(0, i) || '/', arg.slice(i + 1));
      }
    } else if (isDynamicPattern(toPosix(arg))) {
      const pattern = toPosix(arg);
      const base = globBase(pattern);
      const files = globSync(pattern, { onlyFiles: true, dot: false, expandDirectories: false, absolute: false })
        .filter((f) => formatOf(f) !== null);
      if (files.length === 0) problems.push(`no model files match '${arg}'`);
      for (const f of files) {
        const abs = resolve(f);
        add(base, toPosix(relative(resolve(base), abs)));
      }
    } else {
      problems.push(`no such file or directory: '${arg}'`);
    }
  }
  const seen = new Set<string>();
  const models = found
    .sort((a, b) => (a.input < b.input ? -1 : a.input > b.input ? 1 : 0))
    .filter((m) => {
      const key = resolve(m.input);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  return { models, problems };
}
