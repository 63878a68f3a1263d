import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, allNodes, type Attr, type Model } from '../../src/graph/index.js';
import { expectIrComputesAsOrt } from '../helpers/ir-vs-ort.js';
import { oracleAvailable, type OracleTensor } from '../helpers/oracle.js';
import { Builder } from './builder.js';

/**
 * ONNX DFT-20 one-sided (onesided = 1) over an axis known only at run time → IR
 * (mappings/math/dft.ts): OpenVINO's CPU plugin cannot run RDFT / IRDFT over a run-time axis, so
 * the axis is swapped with the last signal axis by a Transpose of run-time order, the transform
 * runs over that constant axis, and the result is swapped back. Judged on every signal axis of a
 * rank-4 input, negative ones included (the backend test_dft_rfft / test_dft_irfft feed one).
 */
const dir = mkdtempSync(join(tmpdir(), 'ovir-dft-axis-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function model(shape: number[], attrs: Record<string, Attr>): Model {
  const b = new Builder('onnx', 20);
  const n = b.node(b.graph, 'DFT', [b.input('x', 'f32', shape), null, b.input('axis', 'i64', [])], ['y'], attrs, { name: 'dft' });
  b.output(n.outputs[0]!);
  return b.model;
}

describe('one-sided DFT over a run-time axis', () => {
  it('RDFT / IRDFT over the last signal axis between two Transposes of run-time order', () => {
    for (const [shape, attrs, op] of [[[2, 6, 8, 1], { onesided: A.int(1) }, 'RDFT'], [[2, 6, 8, 2], { onesided: A.int(1), inverse: A.int(1) }, 'IRDFT']] as const) {
      const ir = convertModel(model([...shape], attrs));
      const nodes = [...allNodes(ir.graph)];
      const t = nodes.find((n) => n.op === op)!;
      expect(t.inputs[1]!.constant).toBeTruthy(); // a constant axis: the last signal one
      const transposes = nodes.filter((n) => n.op === 'Transpose');
      expect(transposes).toHaveLength(2);
      expect(transposes.every((n) => !n.inputs[1]!.constant)).toBe(true);
    }
  });
});

const random = (shape: number[], seed: number): OracleTensor => {
  const n = shape.reduce((a, d) => a * d, 1);
  return { dtype: 'f32', shape, data: new Uint8Array(Float32Array.from({ length: n }, (_, i) => Math.sin(seed + i * 0.731) * 2).buffer) };
};
const axis = (a: number): OracleTensor => ({ dtype: 'i64', shape: [], data: new Uint8Array(new BigInt64Array([BigInt(a)]).buffer) });

describe.skipIf(!oracleAvailable())('engines: OpenVINO on ovir\'s IR computes what onnxruntime computes, on every axis', () => {
  it.each([
    ['rfft of [2, 6, 8, 1]', [2, 6, 8, 1], { onesided: A.int(1) }, [0, 1, 2, -2, -4]],
    // the half spectrum of length 8 along each axis a: n = 2·(len − 1), the axis of length 5
    ['irfft of [5, 5, 5, 2]', [5, 5, 5, 2], { onesided: A.int(1), inverse: A.int(1) }, [0, 1, 2, -3]],
  ] as const)('%s', async (name, shape, attrs, axes) => {
    const base = join(dir, name.replace(/[^a-z0-9]+/gi, '_'));
    const x = random([...shape], 3);
    await expectIrComputesAsOrt(base, () => model([...shape], attrs), axes.map((a) => ({ x, axis: axis(a) })));
  }, 120_000);
});
