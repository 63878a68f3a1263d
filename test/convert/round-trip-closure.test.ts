import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allGraphs, type Model } from '../../src/graph/index.js';
import { readIrFile, writeIrFile } from '../../src/ir/file.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { compareOutputs } from '../helpers/compare.js';
import { encodeModelProto, graph, ifNode, model, node, valueInfo, type DimSpec } from '../helpers/onnx-builder.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { Builder } from './builder.js';
import { runOrt } from '../helpers/ort.js';

/**
 * Round-trip closure: whatever ovir writes as IR from an ONNX model at opset N, it reads back to
 * ONNX at opset N. The model is OpenVINO's ONNX frontend test `if_inside_if`: an If whose
 * then-branch reduces a comparison with ReduceMax without axes (opset 13: "every axis") and
 * feeds it to a nested If.
 */
function ifInsideIf(shape: readonly DimSpec[] | null): Uint8Array {
  const f32 = (name: string) => valueInfo(name, 'f32', shape);
  const inner = (name: string, op: string, out: string) => graph({ name, nodes: [node(op, ['x', 'y'], [out], {}, { name: op.toLowerCase() })], outputs: [f32(out)] });
  const thenBranch = graph({
    name: 'then_branch',
    nodes: [
      node('Greater', ['x', 'y'], ['greater'], {}, { name: 'greater' }),
      node('Cast', ['greater'], ['cast_to_int'], { to: 6 }, { name: 'cast_to_int' }),
      node('ReduceMax', ['cast_to_int'], ['reduce_max'], { keepdims: 0 }, { name: 'reduce_max' }),
      node('Cast', ['reduce_max'], ['cast_to_bool'], { to: 9 }, { name: 'cast_to_bool' }),
      ifNode('cast_to_bool', ['if_inside'], inner('then_branch_inside', 'Mul', 'mul'), inner('else_branch_inside', 'Add', 'add'), { name: 'if' }),
    ],
    outputs: [f32('if_inside')],
  });
  const elseBranch = graph({ name: 'else_branch', nodes: [node('Sub', ['x', 'y'], ['sub'], {}, { name: 'sub' })], outputs: [f32('sub')] });
  return encodeModelProto(model({
    opset: 13,
    graph: graph({
      name: 'if graph',
      inputs: [valueInfo('condition', 'boolean', [1]), f32('x'), f32('y')],
      outputs: [f32('if')],
      nodes: [ifNode('condition', ['if'], thenBranch, elseBranch, { name: 'if' })],
    }),
  }));
}

const dir = mkdtempSync(join(tmpdir(), 'ovir-closure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** ONNX → IR (through real .xml/.bin files) → ONNX at the default opset. */
function roundTrip(onnx: Uint8Array, name: string): { ir: Model; back: Model } {
  const xml = join(dir, `${name}.xml`);
  writeIrFile(convertModel(decodeOnnx(onnx)), xml);
  const ir = readIrFile(xml);
  return { ir, back: convertModel(ir) };
}

const reduceMaxes = (m: Model) => [...allGraphs(m.graph)].flatMap((g) => g.nodes).filter((n) => n.op === 'ReduceMax');

function f32(values: number[], shape: number[]): OracleTensor {
  return { dtype: 'f32', shape, data: new Uint8Array(new Float32Array(values).buffer) };
}

describe("round-trip closure: OpenVINO's if_inside_if (If + ReduceMax without axes + nested If, opset 13)", () => {
  // x > y somewhere (then → inner If: Mul) for one pair, nowhere (then → inner If: Add) for the other.
  const x = Array.from({ length: 40 }, (_, i) => i / 4 - 3);
  const yHigh = x.map((v) => v + 1);
  const yOne = x.map((v, i) => (i === 7 ? v - 1 : v + 1));
  const cases: [string, boolean, number[]][] = [['else', false, yOne], ['then/Mul', true, yOne], ['then/Add', true, yHigh]];

  for (const [label, shape] of [['static shapes', [10, 4]], ['unknown rank', null]] as const) {
    it(`${label}: converts to IR and back at the default opset, ReduceMax reducing every axis`, async () => {
      const src = ifInsideIf(shape);
      const { back } = roundTrip(src, label.replace(' ', '-'));
      const rm = reduceMaxes(back);
      expect(rm).toHaveLength(1);
      const axes = rm[0]!.attrs.get('axes');
      // every axis: the attribute absent, or all of them listed
      if (axes) expect(axes).toEqual({ type: 'ints', value: [0n, 1n] });
      expect(rm[0]!.inputs.filter((v) => v !== null)).toHaveLength(1);
      expect(back.onnx!.opsetImports.get('')).toBe(17);

      // onnxruntime computes the same outputs from the source and from the round trip
      const bytes = encodeOnnx(back).bytes;
      for (const [, cond, y] of cases) {
        const feeds = { condition: { dtype: 'boolean', shape: [1], data: new Uint8Array([cond ? 1 : 0]) }, x: f32(x, [10, 4]), y: f32(y, [10, 4]) };
        const want = await runOrt(src, feeds);
        const got = await runOrt(bytes, feeds);
        expect(compareOutputs(got, [{ name: 'if', tensor: want['if']! }])).toEqual([]);
      }
    });
  }

  it('at opset 13 itself, too', () => {
    const ir = convertModel(decodeOnnx(ifInsideIf(null)));
    const back = convertModel(ir, { opset: 13 });
    expect(reduceMaxes(back)[0]!.attrs.has('axes')).toBe(false);
  });
});

describe('IR → ONNX without a named opset: the default, or the lowest later opset that has the form', () => {
  const reduceWithRuntimeAxes = (): Model => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [2, 3]);
    const axes = b.input('axes', 'i64', [1]);
    b.output(b.op(b.graph, 'ReduceMax', [x, axes], 'y', { keep_dims: A.raw('false') }));
    return b.model;
  };

  it('ReduceMax with run-time axes: opset 18 (axes an input) when none is named', () => {
    const onnx = convertModel(reduceWithRuntimeAxes());
    expect(onnx.onnx!.opsetImports.get('')).toBe(18);
    expect(onnx.graph.nodes.map((n) => n.op)).toEqual(['ReduceMax']);
    expect(onnx.graph.nodes[0]!.inputs).toHaveLength(2);
  });

  it('…and a coded refusal naming opset 18 when opset 17 is asked for', () => {
    let message = '';
    try { convertModel(reduceWithRuntimeAxes(), { opset: 17 }); } catch (e) { if (e instanceof OvirError) message = e.message; else throw e; }
    expect(message).toMatch(/ReduceMax: input 1 \(axes \(an ONNX attribute before opset 18: convert with --opset 18 or later\)\).*CONVERT_NEEDS_CONSTANT/s);
  });

  it('a model the default opset expresses stays at the default', () => {
    expect(convertModel(convertModel(decodeOnnx(ifInsideIf([10, 4])))).onnx!.opsetImports.get('')).toBe(17);
  });
});

describe('IR → ONNX → IR keeps the IR', () => {
  it('a flooring integer Divide (m_pythondiv) comes back as one Divide, not Div(a - Mod(a, b), b)', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'i32', [4]);
    const y = b.input('y', 'i32', [4]);
    b.output(b.op(b.graph, 'Divide', [x, y], 'z', { auto_broadcast: A.raw('numpy'), m_pythondiv: A.raw('true') }));
    const onnx = convertModel(b.model);
    expect(onnx.graph.nodes.map((n) => n.op)).toEqual(['Mod', 'Sub', 'Div']);
    const back = convertModel(decodeOnnx(encodeOnnx(onnx).bytes));
    expect(back.graph.nodes.map((n) => [n.op, n.attrs.get('m_pythondiv')])).toEqual([['Divide', A.raw('true')]]);
  });
});
