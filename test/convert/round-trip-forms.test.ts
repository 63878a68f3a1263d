import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, allNodes, tensorFromFloat32, tensorFromInt64, type Model } from '../../src/graph/index.js';
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
