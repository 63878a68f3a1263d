import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, allNodes, tensorFromInt64, verifyGraph, type ElementTypeName, type Model } from '../../src/graph/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { expectIrComputesAsOrt } from '../helpers/ir-vs-ort.js';
import { oracleAvailable, type OracleTensor } from '../helpers/oracle.js';
import { Builder } from './builder.js';

/**
 * ONNX CumProd-26 → IR (mappings/math/cumprod.ts): "the cumulative product of the elements of x
 * along axis", as a running product in a Loop-5 (OpenVINO has no CumProd). The backend cases
 * (test_cumprod_*: a run-time axis, 1-D/2-D, exclusive, reverse, int32) are judged in
 * test/conformance/convert-zoo.test.ts; these cases add constant and negative axes, 3-D inputs,
 * reverse with exclusive inside, f16, and check the graph.
 */
const dir = mkdtempSync(join(tmpdir(), 'ovir-cumprod-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Case { elem?: ElementTypeName; shape: number[]; axis: number | 'input'; exclusive?: 0 | 1; reverse?: 0 | 1 }
function model(k: Case): Model {
  const b = new Builder('onnx', 26);
  const x = b.input('x', k.elem ?? 'f32', k.shape);
  const axis = k.axis === 'input' ? b.input('axis', 'i64', []) : b.init('axis', tensorFromInt64([k.axis], []));
  const attrs = { ...(k.exclusive ? { exclusive: A.int(1) } : {}), ...(k.reverse ? { reverse: A.int(1) } : {}) };
  const n = b.node(b.graph, 'CumProd', [x, axis], ['y'], attrs, { name: 'cumprod' });
  b.output(n.outputs[0]!);
  return b.model;
}
const ops = (m: Model) => [...allNodes(m.graph)].map((n) => n.op);

describe('CumProd: a running product along the axis, in a Loop-5', () => {
  it('one Loop over the axis, the product in its body; one Loop for a constant axis', () => {
    const ir = convertModel(model({ shape: [2, 3, 4], axis: -2 }));
    const loop = ir.graph.nodes.find((n) => n.op === 'Loop')!;
    expect(loop.bodies.get('body')!.graph.nodes.map((n) => n.op)).toEqual(['Unsqueeze', 'Gather', 'Multiply']);
    expect(loop.bodies.get('body')!.outputs[0]!.extra).toMatchObject({ axis: '1' });
    expect(ops(ir).filter((o) => o === 'Loop')).toHaveLength(1);
    expect(ir.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [2, 3, 4] });
    expect(verifyGraph(ir.graph)).toEqual([]);
  });
  it('an axis known only at run time: the product along each axis, the asked one selected', () => {
    const ir = convertModel(model({ shape: [2, 3, 4], axis: 'input' }));
    expect(ir.graph.nodes.filter((n) => n.op === 'Loop').map((n) => n.bodies.get('body')!.outputs[0]!.extra!['axis'])).toEqual(['2', '1', '0']);
    expect(ops(ir).filter((o) => o === 'Select')).toHaveLength(2);
  });
  it('a constant axis out of range is refused, naming the node', () => {
    try { convertModel(model({ shape: [2, 3], axis: 2 })); expect.unreachable(); } catch (e) {
      expect((e as OvirError).diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`)).toEqual(['CONVERT_OP main/cumprod: CumProd: axis 2 is out of range [-2, 1]']);
    }
  });
});

const data = (elem: ElementTypeName, shape: number[], seed: number): OracleTensor => {
  const n = shape.reduce((a, b) => a * b, 1);
  const v = Array.from({ length: n }, (_, i) => (elem === 'i32' ? ((i * 7 + seed) % 5) - 2 : 0.6 + 0.9 * Math.abs(Math.sin(seed * 3 + i))));
  const buf = elem === 'i32' ? new Int32Array(v) : elem === 'f16' ? null : new Float32Array(v);
  if (elem === 'f16') return { dtype: 'f16', shape, data: new Uint8Array(new Uint16Array(v.map((x) => f16Bits(x))).buffer) };
  return { dtype: elem, shape, data: new Uint8Array(buf!.buffer) };
};
function f16Bits(x: number): number {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0]!;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  return ((u >>> 16) & 0x8000) | (exp << 10) | ((u >>> 13) & 0x3ff);
}

const ENGINE: Record<string, Case> = {
  '3-D, axis 1': { shape: [2, 5, 3], axis: 1 },
  '3-D, axis -1, reverse and exclusive': { shape: [2, 3, 6], axis: -1, reverse: 1, exclusive: 1 },
  '3-D, axis 0, reverse': { shape: [4, 2, 3], axis: 0, reverse: 1 },
  'int32, axis 1, exclusive': { elem: 'i32', shape: [3, 4], axis: 1, exclusive: 1 },
  'f16, axis 0': { elem: 'f16', shape: [5, 2], axis: 0 },
  'run-time axis on 3-D, reverse': { shape: [2, 3, 4], axis: 'input', reverse: 1 },
};

describe.skipIf(!oracleAvailable())('engines: OpenVINO on ovir\'s IR computes what onnxruntime computes', () => {
  it.each(Object.keys(ENGINE))('%s', async (name) => {
    const k = ENGINE[name]!;
    const base = join(dir, name.replace(/[^a-z0-9]+/gi, '_'));
    const x = data(k.elem ?? 'f32', k.shape, 3);
    const feeds: Record<string, OracleTensor>[] = k.axis === 'input'
      ? [0, 1, 2, -1].map((axis) => ({ x, axis: { dtype: 'i64', shape: [], data: new Uint8Array(new BigInt64Array([BigInt(axis)]).buffer) } }))
      : [{ x }];
    await expectIrComputesAsOrt(base, () => model(k), feeds);
  }, 120_000);
});
