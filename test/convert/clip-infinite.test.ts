import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, tensorFromFloat32, type Model } from '../../src/graph/index.js';
import { saveModel } from '../../src/io/load.js';
import { expectIrComputesAsOrt } from '../helpers/ir-vs-ort.js';
import { oracleAvailable, seededF32 } from '../helpers/oracle.js';
import { Builder } from './builder.js';

/**
 * A Clip bound that is infinite (openWakeWord's melspectrogram clips with max = inf) is an IR
 * Clamp attribute spelled as OpenVINO spells it (`inf`, `-inf`): OpenVINO's reader cannot parse
 * JavaScript's "Infinity" and refused the whole IR.
 */
const dir = mkdtempSync(join(tmpdir(), 'ovir-clip-inf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function clip11(lo: number, hi: number): Model {
  const b = new Builder('onnx', 13);
  const x = b.input('x', 'f32', [2, 3]);
  const n = b.node(b.graph, 'Clip', [x, b.init('lo', tensorFromFloat32([lo], [])), b.init('hi', tensorFromFloat32([hi], []))], ['y'], {}, { name: 'clip' });
  b.output(n.outputs[0]!);
  return b.model;
}

function clip6(lo: number, hi: number): Model {
  const b = new Builder('onnx', 6);
  const x = b.input('x', 'f32', [2, 3]);
  const n = b.node(b.graph, 'Clip', [x], ['y'], { min: A.float(lo), max: A.float(hi) }, { name: 'clip' });
  b.output(n.outputs[0]!);
  return b.model;
}

describe('Clip with an infinite bound', () => {
  it('writes the Clamp bounds as inf / -inf, which reads back as the same bounds', () => {
    const cases: [Model, string][] = [
      [clip11(-Infinity, 0.5), '<data min="-inf" max="0.5" />'],
      [clip6(-Infinity, 0.5), '<data min="-inf" max="0.5" />'],
      [clip11(0.25, Infinity), '<data min="0.25" max="inf" />'],
    ];
    for (const [m, data] of cases) {
      const xml = join(dir, 'm.xml');
      saveModel(convertModel(m), xml);
      const text = readFileSync(xml, 'utf8');
      expect(text).toContain(data);
      expect(text).not.toMatch(/Infinity/);
    }
  });

  describe.skipIf(!oracleAvailable())('engines: OpenVINO on the IR computes what onnxruntime computes', () => {
    it.each([
      ['Clip-13, max inf', () => clip11(1e-10, Infinity)],
      ['Clip-13, min -inf', () => clip11(-Infinity, 0.5)],
      ['Clip-6 attributes, min -inf', () => clip6(-Infinity, 0.5)],
    ] as const)('%s', async (name, make) => {
      await expectIrComputesAsOrt(join(dir, name.replace(/[^a-z0-9]+/gi, '_')), make, [{ x: seededF32([2, 3], 5) }]);
    }, 120_000);
  });
});
