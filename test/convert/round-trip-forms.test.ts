import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, allNodes, tensorFromFloat32, tensorFromInt64, type Model, type Value } from '../../src/graph/index.js';
import { readIr } from '../../src/ir/read.js';
import { writeIr } from '../../src/ir/write.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';

/**
 * Round trips that give the source's forms back: IR MatMul transpose_a/b goes to ONNX as a
 * Transpose of the last two dims and comes back as the flag (IR → ONNX → IR keeps the layer
 * histogram); ONNX Split-18 num_outputs on an axis it does not divide is IR VariadicSplit.
 */
const ops = (m: Model): string[] => [...allNodes(m.graph)].map((n) => n.op).sort();
const throughBytes = (m: Model): Model => decodeOnnx(encodeOnnx(m).bytes);
const irThroughBytes = (m: Model): Model => {
  const { xml, bin } = writeIr(m);
  const all = new Uint8Array(bin.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of bin) { all.set(p, o); o += p.length; }
  return readIr(xml, all);
};

describe('IR MatMul transpose_a / transpose_b', () => {
  it.each([
    [false, true, [2, 3, 4], [5, 4]], [true, false, [2, 4, 3], [4, 5]], [true, true, [2, 4, 3], [5, 4]],
  ])('transpose_a=%s transpose_b=%s: IR → ONNX → IR is the same MatMul', (ta, tb, xs, ws) => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', xs);
    const w = b.init('w', tensorFromFloat32(Array.from({ length: 20 }, (_, i) => i / 20), ws));
    b.output(b.op(b.graph, 'MatMul', [x, w], 'y', { transpose_a: A.raw(String(ta)), transpose_b: A.raw(String(tb)) }));
    const onnx = throughBytes(convertModel(b.model));
    expect(ops(onnx).filter((o) => o === 'Transpose')).toHaveLength(Number(ta) + Number(tb));
    const back = convertModel(onnx);
    expect(ops(back)).toEqual(['MatMul']);
    const mm = [...allNodes(back.graph)][0]!;
    expect([mm.attrs.get('transpose_a'), mm.attrs.get('transpose_b')]).toEqual([A.raw(String(ta)), A.raw(String(tb))]);
  });

  it('a Transpose that something else also reads stays a Transpose', () => {
    const b = new Builder('onnx', 17);
    const x = b.input('x', 'f32', [3, 4]);
    const t = b.op(b.graph, 'Transpose', [x], 't', { perm: A.ints([1n, 0n]) });
    b.output(b.op(b.graph, 'MatMul', [x, t], 'y'));
    b.output(b.op(b.graph, 'Relu', [t], 'z'));
    const ir = convertModel(b.model);
    expect(ops(ir)).toEqual(['MatMul', 'Relu', 'Transpose']);
  });
});

describe('ONNX Split-18 num_outputs on an axis it does not divide', () => {
  it('7 into 4: chunks of 2, 2, 2, 1 (VariadicSplit), and back to ONNX computing the same', async () => {
    const b = new Builder('onnx', 18);
    const x = b.input('x', 'f32', [7]);
    const n = b.node(b.graph, 'Split', [x], ['a', 'b', 'c', 'd'], { axis: A.int(0), num_outputs: A.int(4) });
    for (const v of n.outputs) b.output(v);
    const ir = irThroughBytes(convertModel(b.model));
    expect(ops(ir)).toEqual(['VariadicSplit']);
    const back = convertModel(ir);
    const xs: OracleTensor = { dtype: 'f32', shape: [7], data: new Uint8Array(new Float32Array([0, 1, 2, 3, 4, 5, 6]).buffer) };
    const out = await runOrt(encodeOnnx(back).bytes, { x: xs });
    expect(['a', 'b', 'c', 'd'].map((k) => [...new Float32Array(out[k]!.data.slice().buffer)])).toEqual([[0, 1], [2, 3], [4, 5], [6]]);
  });
});

describe('ONNX Range on one-element 1-D operands (onnxruntime runs them; OpenVINO Range-4 takes scalars)', () => {
  it('each such operand is squeezed to a scalar', () => {
    const b = new Builder('onnx', 17);
    const stop = b.input('n', 'i64', [1]);
    const zero = b.init('zero', tensorFromInt64([0n], []));
    const one = b.init('one', tensorFromInt64([1n], []));
    b.output(b.op(b.graph, 'Range', [zero, stop, one], 'r'));
    const ir = convertModel(b.model);
    const range = [...allNodes(ir.graph)].find((n) => n.op === 'Range')!;
    expect(range.inputs[1]!.producer?.op).toBe('Squeeze');
    expect(range.inputs[1]!.type).toMatchObject({ kind: 'tensor', shape: [] });
  });
});

describe('IR Convolution + Add of a per-channel constant: ONNX Conv with its bias B', () => {
  const f32 = (n: number, seed: number): number[] => Array.from({ length: n }, (_, i) => Math.sin(seed + i * 0.7));
  /** ONNX Conv(x[1,4,5,5], w[6,4/group,3,3], B[6]) (ConvTranspose: w[4,6,3,3]) → IR → ONNX, both run in onnxruntime. */
  async function roundTrip(op: string, group: number): Promise<{ ops: string[]; same: boolean }> {
    const b = new Builder('onnx', 17);
    const x = b.input('x', 'f32', [1, 4, 5, 5]);
    const w = b.init('w', tensorFromFloat32(f32(6 * (4 / group) * 9, 1), op === 'Conv' ? [6, 4 / group, 3, 3] : [4, 6, 3, 3]));
    const bias = b.init('B', tensorFromFloat32(f32(6, 2), [6]));
    b.output(b.op(b.graph, op, [x, w, bias], 'y', { group: A.int(group), pads: A.ints([1n, 1n, 1n, 1n]) }));
    const ir = irThroughBytes(convertModel(b.model));
    expect(ops(ir)).toContain('Add');
    const back = convertModel(ir);
    const xs: OracleTensor = { dtype: 'f32', shape: [1, 4, 5, 5], data: new Uint8Array(new Float32Array(f32(100, 3)).buffer) };
    const [want, got] = [await runOrt(encodeOnnx(b.model).bytes, { x: xs }), await runOrt(encodeOnnx(back).bytes, { x: xs })];
    const conv = [...allNodes(back.graph)].find((n) => n.op === op);
    expect(conv?.inputs).toHaveLength(3);
    return { ops: ops(back), same: Buffer.from(want['y']!.data).equals(Buffer.from(got['y']!.data)) };
  }

  it.each([['Conv', 1], ['Conv', 2], ['ConvTranspose', 1]] as const)('%s group %i: IR → ONNX writes it with B again, computing exactly what the original computes', async (op, group) => {
    const r = await roundTrip(op, group);
    expect(r.ops).toEqual([op]);
    expect(r.same).toBe(true);
  });

  it('an Add that is not a per-channel bias, or a convolution output read twice, stays an Add', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [1, 2, 4, 4]);
    const w = b.init('w', tensorFromFloat32(f32(2 * 2 * 9, 1), [2, 2, 3, 3]));
    const conv = (name: string): Value => b.op(b.graph, 'Convolution', [x, w], name, {
      strides: A.raw('1,1'), dilations: A.raw('1,1'), pads_begin: A.raw('1,1'), pads_end: A.raw('1,1'), auto_pad: A.raw('explicit'),
    });
    const add = (v: Value, c: Value, name: string): Value => b.op(b.graph, 'Add', [v, c], name, { auto_broadcast: A.raw('numpy') });
    const perChannel = b.init('pc', tensorFromFloat32([1, 2], [1, 2, 1, 1]));
    b.output(add(conv('c1'), b.init('full', tensorFromFloat32(f32(32, 4), [1, 2, 4, 4])), 'a1')); // not per channel
    const c2 = conv('c2');
    b.output(add(c2, perChannel, 'a2'));
    b.output(b.op(b.graph, 'Relu', [c2], 'r2')); // c2 is read twice
    b.output(add(conv('c3'), perChannel, 'a3')); // folds
    const onnx = convertModel(b.model);
    expect(ops(onnx).filter((o) => o === 'Add')).toHaveLength(2);
    expect([...allNodes(onnx.graph)].filter((n) => n.op === 'Conv').map((n) => n.inputs.length).sort()).toEqual([2, 2, 3]);
  });
});
