import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { verifyGraph, type Model, type Shape } from '../../src/graph/index.js';
import { expectIrComputesAsOrt } from '../helpers/ir-vs-ort.js';
import { oracleAvailable, type OracleTensor } from '../helpers/oracle.js';
import { Builder } from './builder.js';

/**
 * ONNX Det → IR (mappings/math/det.ts): "the determinant of a square matrix or batches of square
 * matrices", X [*, M, M] → Y [*]. OpenVINO has no determinant: Gaussian elimination with partial
 * pivoting in a Loop-5 of M steps, as LAPACK's getrf (numpy) computes it. The backend cases
 * (test_det_2d, test_det_nd and libonnx's) are judged in test/conformance/convert-zoo.test.ts;
 * these add M from 1 to 5, batch dims, singular matrices and matrices that need row exchanges.
 */
const dir = mkdtempSync(join(tmpdir(), 'ovir-det-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function model(shape: Shape): Model {
  const b = new Builder('onnx', 22);
  const x = b.input('x', 'f32', shape);
  const n = b.node(b.graph, 'Det', [x], ['y'], {}, { name: 'det' });
  b.output(n.outputs[0]!);
  return b.model;
}

function errors(m: Model): string[] {
  try { convertModel(m); } catch (e) {
    if (e instanceof OvirError) return e.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.where}: ${d.message}`);
    throw e;
  }
  return [];
}

describe('Det: elimination with partial pivoting in a Loop-5', () => {
  it('one Loop of M iterations over [B, M, M]: pivot by TopK, rows exchanged, pivots multiplied, rows below eliminated', () => {
    const ir = convertModel(model([2, 3, 4, 4]));
    const loop = ir.graph.nodes.find((n) => n.op === 'Loop')!;
    expect(loop.inputs[0]!.constant).toBeTruthy(); // the trip count: M
    const body = loop.bodies.get('body')!.graph;
    const ops = body.nodes.map((n) => n.op);
    expect(ops).toContain('TopK');
    expect(ops).toContain('GatherElements');
    expect(ops.filter((o) => o === 'Loop')).toEqual([]);
    expect(body.inputs.map((p) => p.type)).toMatchObject([{ elem: 'i64', shape: [] }, { elem: 'f32', shape: [6, 4, 4] }, { elem: 'f32', shape: [6] }]);
    expect(ir.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [2, 3] });
    expect(verifyGraph(ir.graph)).toEqual([]);
  });

  it('a single matrix gives a scalar; a dynamic batch stays dynamic', () => {
    expect(convertModel(model([3, 3])).graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [] });
    expect(convertModel(model([null, 2, 2])).graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [null] });
  });

  it('a matrix size known only at run time, or matrices that are not square, are refused, naming the node', () => {
    expect(errors(model([2, null, null]))).toEqual(['CONVERT_OP main/det: Det: the matrix size M (the last two dims of input 0) must be known at conversion time: the elimination takes M steps']);
    expect(errors(model([2, 3]))).toEqual(['CONVERT_OP main/det: Det: the matrices are 2×3, not square']);
  });
});

/** Matrices of small integers and fractions: some singular (a zero column, two equal rows), most needing row exchanges. */
function matrices(shape: number[], seed: number): Float32Array {
  const m = shape[shape.length - 1]!;
  const count = shape.slice(0, -2).reduce((a, d) => a * d, 1);
  const v = new Float32Array(count * m * m);
  for (let b = 0; b < count; b++) {
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) v[b * m * m + i * m + j] = ((((b + 3) * 31 + i * 17 + j * 7 + seed) * 2654435761) % 1000) / 250 - 2;
    }
    if (b % 4 === 1) for (let i = 0; i < m; i++) v[b * m * m + i * m] = 0; // a zero column
    if (b % 4 === 2 && m > 1) for (let j = 0; j < m; j++) v[b * m * m + m + j] = v[b * m * m + j]!; // rows 0 and 1 equal
  }
  return v;
}

const ENGINE: Record<string, number[]> = {
  '1×1, batch [4]': [4, 1, 1],
  '2×2, one matrix': [2, 2],
  '3×3, batch [2, 4]': [2, 4, 3, 3],
  '4×4, batch [8]': [8, 4, 4],
  '5×5, batch [4]': [4, 5, 5],
};

describe.skipIf(!oracleAvailable())('engines: OpenVINO on ovir\'s IR computes what onnxruntime computes', () => {
  it.each(Object.keys(ENGINE))('%s', async (name) => {
    const shape = ENGINE[name]!;
    const base = join(dir, name.replace(/[^a-z0-9]+/gi, '_'));
    const feeds = [1, 2].map((seed): Record<string, OracleTensor> => ({ x: { dtype: 'f32', shape, data: new Uint8Array(matrices(shape, seed).buffer) } }));
    await expectIrComputesAsOrt(base, () => model(shape), feeds);
  }, 120_000);
});
