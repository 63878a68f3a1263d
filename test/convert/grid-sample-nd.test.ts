import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, verifyGraph, type Model } from '../../src/graph/index.js';
import { saveModel } from '../../src/io/load.js';
import { compareOutputs } from '../helpers/compare.js';
import { Oracle, oracleAvailable, seededF32 } from '../helpers/oracle.js';
import { Builder } from './builder.js';

/**
 * ONNX GridSample-20 of data other than 4-D → IR ops (mappings/tensor/grid-sample-nd.ts): the
 * backend's volumetric cases (zeros padding, grids inside [-1, 1]) are judged by convert-zoo;
 * these add every padding mode and align_corners for linear and nearest, grids reaching past the
 * borders (values in [-2, 2): several reflections on short axes), 3-D and 1-D data, judged by
 * OpenVINO on ovir's IR against onnx's reference evaluator and onnxruntime on the source.
 */
const dir = mkdtempSync(join(tmpdir(), 'ovir-gridsample-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function model(x: number[], grid: number[], attrs: Record<string, string | number>): Model {
  const b = new Builder('onnx', 22);
  const a = Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, typeof v === 'number' ? A.int(v) : A.string(v)]));
  const n = b.node(b.graph, 'GridSample', [b.input('X', 'f32', x), b.input('grid', 'f32', grid)], ['Y'], a, { name: 'gs' });
  b.output(n.outputs[0]!);
  return b.model;
}

describe('GridSample of 3-D and 1-D data as IR ops', () => {
  it('no GridSample in the IR: one Gather per corner (8 for volumetric linear, 1 for nearest), the output [N, C, O…]', () => {
    const lin = convertModel(model([1, 2, 3, 4, 5], [1, 6, 7, 8, 3], { mode: 'linear' }));
    const gathers = (m: Model): number => [...allNodes(m.graph)].filter((n) => n.op === 'Gather' && n.inputs[0]!.producer?.op === 'Reshape').length;
    expect([...allNodes(lin.graph)].map((n) => n.op)).not.toContain('GridSample');
    expect(gathers(lin)).toBe(8);
    expect(lin.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [1, 2, 6, 7, 8] });
    expect(verifyGraph(lin.graph)).toEqual([]);
    expect(gathers(convertModel(model([1, 2, 3, 4, 5], [1, 6, 7, 8, 3], { mode: 'nearest' })))).toBe(1);
  });

  it('cubic of other than 4-D data is refused, naming the node', () => {
    try { convertModel(model([1, 2, 3, 4, 5], [1, 6, 7, 8, 3], { mode: 'cubic' })); expect.unreachable(); } catch (e) {
      expect((e as OvirError).diagnostics.map((d) => `${d.code} ${d.where}`)).toEqual(['CONVERT_UNSUPPORTED_ATTR main/gs']);
    }
  });
});

const CASES: [string, number[], number[]][] = [
  ['volumetric', [2, 3, 2, 3, 4], [2, 3, 4, 5, 3]],
  ['1-D', [2, 3, 5], [2, 7, 1]],
];

describe.skipIf(!oracleAvailable())('engines: OpenVINO on ovir\'s IR computes what onnx\'s reference (and onnxruntime) compute', () => {
  it('linear and nearest × zeros, border, reflection × align_corners 0 and 1', async () => {
    const oracle = await Oracle.start();
    const problems: string[] = [];
    try {
      let k = 0;
      for (const [what, x, grid] of CASES) {
        for (const mode of ['linear', 'nearest']) {
          for (const padding of ['zeros', 'border', 'reflection']) {
            for (const align of [0, 1]) {
              const base = join(dir, `gs${k++}`);
              const m = model(x, grid, { mode, padding_mode: padding, align_corners: align });
              saveModel(m, `${base}.onnx`);
              saveModel(convertModel(m), `${base}.xml`);
              const feeds = { X: seededF32(x, k), grid: seededF32(grid, 100 + k) };
              const want = await oracle.runOnnxReference(`${base}.onnx`, feeds);
              const got = await oracle.runIr(`${base}.xml`, feeds);
              const tag = `${what} ${mode} ${padding} align_corners=${align}`;
              problems.push(...compareOutputs(got, [{ name: 'Y', tensor: want['Y']! }]).map((p) => `${tag}: ${p}`));
              let ort: Awaited<ReturnType<Oracle['runOrt']>> | null = null;
              try { ort = await oracle.runOrt(`${base}.onnx`, feeds); } catch { /* onnxruntime lacks the rank: the reference judges alone */ }
              if (ort) problems.push(...compareOutputs(got, [{ name: 'Y', tensor: ort['Y']! }]).map((p) => `${tag} (onnxruntime): ${p}`));
            }
          }
        }
      }
    } finally {
      await oracle.close();
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
