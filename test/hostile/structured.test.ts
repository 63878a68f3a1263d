/**
 * The hostile-input campaign's structure-aware mutations (test/hostile/fuzz-mutate.ts), a bounded,
 * seeded share of them, on the samples: each ONNX model decoded with the schema and edited as
 * objects (attribute kinds and values, dims, names, cycles, duplicates, bodies, opset imports,
 * initializers' bytes, external data, functions, nesting), each IR edited as text (ids, edges,
 * ports, port maps, bodies, Const offsets and values, element types, dims, entities, NULs), then
 * read, inferred, converted, saved, read back and checked (fuzz-check.ts). Whatever is thrown must
 * be an OvirError without an internal error; a failed save leaves nothing; what ovir writes it
 * reads. The full campaign, with the backend cases, real models and ovc's IR: `node scripts/fuzz.mjs`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCase, type CaseFiles } from './fuzz-check.js';
import { generator, IR_MUTATIONS, LIMITS, mutateIr, mutateOnnx, ONNX_MUTATIONS } from './fuzz-mutate.js';
import { REPO_ROOT } from '../helpers/oracle.js';

const ROUNDS = 12;
// small sizes: the unit run stays fast (the driver uses the large ones)
LIMITS.ifDepths = [1, 3, 40];
LIMITS.hugeCounts = [300];
LIMITS.xmlDepths = [2000];
LIMITS.hugeValues = [20000];

const samples = readdirSync(join(REPO_ROOT, 'samples'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const dir = mkdtempSync(join(tmpdir(), 'ovir-structured-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every mutation kind once per sample, then random ones: findings as `case: step/kind: message`. */
function campaign(name: string, kind: 'onnx' | 'ir'): string[] {
  const file = (ext: string) => readFileSync(join(REPO_ROOT, 'samples', name, `model.${ext}`));
  const rnd = generator(name.length * 7919 + (kind === 'onnx' ? 17 : 29));
  const found: string[] = [];
  const names = kind === 'onnx' ? ONNX_MUTATIONS : IR_MUTATIONS;
  for (let round = 0; round < names.length + ROUNDS; round++) {
    const only = round < names.length ? names[round] : undefined;
    let c: CaseFiles;
    let what: string[];
    if (kind === 'onnx') {
      const m = mutateOnnx(file('onnx'), rnd, only);
      c = { main: 'model.onnx', files: new Map([['model.onnx', m.bytes], ...m.files]) };
      what = m.what;
    } else {
      const m = mutateIr(file('xml'), file('bin'), rnd, only);
      c = { main: 'model.xml', files: new Map([['model.xml', m.xml], ...(m.bin ? [['model.bin', m.bin] as [string, Uint8Array]] : [])]) };
      what = m.what;
    }
    const r = runCase(join(dir, `${name}-${kind}`), c, { slowMs: 10_000 });
    for (const f of r.findings) found.push(`round ${round} [${what.join(',')}]: ${f.step}/${f.kind}: ${f.message}`);
  }
  return found;
}

describe('hostile inputs: structure-aware mutations of the samples give coded diagnostics only', () => {
  it.each(samples)('%s (ONNX)', (name) => { expect(campaign(name, 'onnx')).toEqual([]); });
  it.each(samples)('%s (IR)', (name) => { expect(campaign(name, 'ir')).toEqual([]); });
});
