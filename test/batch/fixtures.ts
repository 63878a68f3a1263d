import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Model, defaultOnnxInfo, tensorType } from '../../src/graph/index.js';
import { saveModel } from '../../src/io/load.js';
import { RESUME_RECORD } from '../../src/batch/plan.js';
import { nestedIfModel } from '../cli/fixtures.js';

/** ONNX: y = Relu(x), x f32 [2,3]. */
export function reluOnnx(): Model {
  const m = new Model('onnx');
  m.onnx = defaultOnnxInfo(17);
  const t = tensorType('f32', [2, 3]);
  const x = m.graph.addInput(t, ['x']);
  const n = m.graph.addNode({ dialect: 'onnx', op: 'Relu', version: '17', name: 'relu' });
  n.addInput(x);
  m.graph.outputs.push(n.addOutput(t, ['y']));
  return m;
}

/**
 * A model zoo in a temp dir: `kind` per relative path — 'onnx' (Relu), 'ir' (an IR If model),
 * 'corrupt' (bytes no decoder accepts). Returns the root.
 */
export function zoo(files: Record<string, 'onnx' | 'ir' | 'corrupt'>): string {
  const root = mkdtempSync(join(tmpdir(), 'ovir-zoo-'));
  for (const [rel, kind] of Object.entries(files)) {
    const path = join(root, 'in', rel);
    mkdirSync(dirname(path), { recursive: true });
    if (kind === 'onnx') saveModel(reluOnnx(), path);
    else if (kind === 'ir') saveModel(nestedIfModel('ov', 1), path);
    else writeFileSync(path, path.endsWith('.xml') ? '<net name="broken" version="11"><layers><layer id="0"' : Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x12]));
  }
  return root;
}

/**
 * Every file under `dir`, relative, sorted (dot files included, so that a stray temp file shows),
 * except the --resume record a batch keeps in its out-dir (RESUME_RECORD; tested on its own).
 */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (!(d === dir && e.name === RESUME_RECORD)) out.push(relative(dir, p));
    }
  };
  try { walk(dir); } catch { /* missing */ }
  return out.sort();
}

/** Content hashes and mtimes of every file under `dir`: inputs must come out of a batch untouched. */
export function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(listFiles(dir).map((f) => {
    const p = join(dir, f);
    return [f, `${createHash('sha256').update(readFileSync(p)).digest('hex')}@${statSync(p).mtimeMs}`];
  }));
}
