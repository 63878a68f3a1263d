import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { checkFile, checkModels } from '../../src/equiv/index.js';
import type { Model } from '../../src/graph/index.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { applyInferred, inferTypes } from '../../src/shape/index.js';
import { Builder } from './builder.js';
import { randomIfs } from './random-ifs.js';

/**
 * Random nested Ifs (random-ifs.ts) without engines: each model, written to a file and read back,
 * converts to the other format, `ovir check` proves the two forms equivalent — in memory, and as
 * two files (the converted form written out: the same computation op for op, src/equiv/computation.ts,
 * checked in both orders) — and the round trip back to the source format is equivalent to the source too. (The engines judge the numbers of a
 * subset: test/conformance/if.test.ts.)
 */
const tmp = mkdtempSync(join(tmpdir(), 'ovir-random-ifs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function problems(what: string, a: Model, b: Model): string[] {
  const r = checkModels(a, b);
  if (r.ok) return [];
  return [`${what}: ${[...r.entries.filter((e) => e.status === 'contradiction').map((e) => `'${e.name}' ${e.detail ?? ''}`), ...r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)].slice(0, 2).join('; ')}`];
}

describe('random nested Ifs: converted, proved equivalent, round-tripped', () => {
  for (const [dialect, loops] of [['onnx', false], ['onnx', true], ['ov', false]] as const) {
    it(`${dialect === 'onnx' ? 'ONNX → IR → ONNX' : 'IR → ONNX → IR'}${loops ? ', Loops in and around the Ifs' : ''}, 100 seeds, nesting 1 to 5`, () => {
      const bad: string[] = [];
      for (let seed = 1; seed <= 100; seed++) {
        const where = `seed ${seed}`;
        try {
          const b = new Builder(dialect, 17);
          randomIfs(b, seed, { maxDepth: 1 + (seed % 5), loops });
          if (dialect === 'ov') applyInferred(inferTypes(b.model));
          const file = join(tmp, `m.${dialect === 'onnx' ? 'onnx' : 'xml'}`);
          saveModel(b.model, file);
          const source = loadModel(file);
          const other = convertModel(source, dialect === 'ov' ? { opset: 17 } : {});
          bad.push(...problems(`${where}, conversion`, source, other));
          const otherFile = join(tmp, `m.${dialect === 'onnx' ? 'xml' : 'onnx'}`);
          saveModel(other, otherFile);
          for (const [x, y] of [[file, otherFile], [otherFile, file]] as const) {
            const r = checkFile(x, y);
            if (!r.ok) bad.push(`${where}, two files ${x.slice(-4)} against ${y.slice(-4)}: ${r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message).slice(0, 2).join('; ')}`);
          }
          const back = convertModel(other, dialect === 'onnx' ? { opset: 17 } : {});
          bad.push(...problems(`${where}, round trip`, source, back));
        } catch (e) {
          bad.push(`${where}: ${e instanceof OvirError ? e.diagnostics.map((d) => d.message).join('; ') : String(e)}`);
        }
      }
      expect(bad).toEqual([]);
    }, 120_000);
  }
});
