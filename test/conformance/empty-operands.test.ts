/**
 * Empty constant operands: shapes, repeats, axes and tensors with no elements. Each model is
 * converted to IR by ovir and run in OpenVINO; it must compute what onnxruntime computes on the
 * original. Found by a random nested-If campaign: an Expand to shape [] in an If branch made
 * OpenVINO's CPU plugin crash (a Broadcast to an empty target shape crashes it, on an IR built with
 * its own API too), and a Tile of a scalar by empty repeats returns uninitialized memory there (on
 * its own IR too); both are their input, and ovir writes them so. An empty Const is written as
 * OpenVINO's serializer writes it: one zero byte (size="1"), where size="0" left OpenVINO a Const
 * without data ("ptr is Null").
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { saveModel } from '../../src/io/load.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { compareTensors } from '../helpers/compare.js';
import * as ob from '../helpers/onnx-builder.js';
import { useOracle, oracleAvailable, seededF32, type OracleTensor } from '../helpers/oracle.js';

const env = useOracle('ovir-empty-operands-');

const f32 = (name: string, shape: ob.DimSpec[] | null) => ob.valueInfo(name, 'f32', shape);
const EMPTY = ob.int64Tensor('empty', [0], []);

interface Case { nodes: ob.NodeProto[]; inits?: ob.TensorProto[]; inputs: Record<string, number[]>; outputs: Record<string, number[]>; opset?: number }

const CASES: Record<string, Case> = {
  'Expand of a scalar to shape []': { nodes: [ob.node('Expand', ['x', 'empty'], ['y'])], inits: [EMPTY], inputs: { x: [] }, outputs: { y: [] } },
  'Expand of a [2, 3] tensor to shape []': { nodes: [ob.node('Expand', ['x', 'empty'], ['y'])], inits: [EMPTY], inputs: { x: [2, 3] }, outputs: { y: [2, 3] } },
  'Tile of a scalar by repeats []': { nodes: [ob.node('Tile', ['x', 'empty'], ['y'])], inits: [EMPTY], inputs: { x: [] }, outputs: { y: [] } },
  'ConstantOfShape of shape [] plus x': {
    nodes: [ob.node('ConstantOfShape', ['empty'], ['c'], { value: ob.floatTensor('v', [1], [3]) }), ob.node('Add', ['c', 'x'], ['y'])],
    inits: [EMPTY], inputs: { x: [] }, outputs: { y: [] },
  },
  'Reshape of a [1] tensor to shape []': { nodes: [ob.node('Reshape', ['x', 'empty'], ['y'])], inits: [EMPTY], inputs: { x: [1] }, outputs: { y: [] } },
  'Concat with an empty [0, 3] initializer': {
    nodes: [ob.node('Concat', ['x', 'none'], ['y'], { axis: 0 })], inits: [ob.floatTensor('none', [0, 3], [])], inputs: { x: [2, 3] }, outputs: { y: [2, 3] },
  },
  'ReduceSum over axes [] (all axes)': { nodes: [ob.node('ReduceSum', ['x', 'empty'], ['y'])], inits: [EMPTY], inputs: { x: [2, 3] }, outputs: { y: [1, 1] } },
  'ReduceSum over axes [] with noop_with_empty_axes': {
    nodes: [ob.node('ReduceSum', ['x', 'empty'], ['y'], { noop_with_empty_axes: 1 })], inits: [EMPTY], inputs: { x: [2, 3] }, outputs: { y: [2, 3] },
  },
  'Slice with starts and ends []': { nodes: [ob.node('Slice', ['x', 'empty', 'empty'], ['y'])], inits: [EMPTY], inputs: { x: [2, 3] }, outputs: { y: [2, 3] } },
};

function modelOf(c: Case): Uint8Array {
  return ob.encodeModelProto(ob.model({
    opset: c.opset ?? 17,
    graph: ob.graph({
      name: 'main',
      inputs: Object.entries(c.inputs).map(([n, s]) => f32(n, s)),
      outputs: Object.entries(c.outputs).map(([n, s]) => f32(n, s)),
      initializers: c.inits ?? [],
      nodes: c.nodes,
    }),
  }));
}

/** OpenVINO on ovir's IR of `bytes` and onnxruntime on `bytes` itself, on the same inputs: the differences. */
async function judge(name: string, bytes: Uint8Array, inputs: Record<string, OracleTensor>): Promise<string[]> {
  const base = join(env.tmp, name.replace(/\W+/g, '_'));
  writeFileSync(`${base}.onnx`, bytes);
  saveModel(convertModel(decodeOnnx(bytes)), `${base}.xml`);
  const [ours, ref] = [await env.oracle.runIr(`${base}.xml`, inputs), await env.oracle.runOrt(`${base}.onnx`, inputs)];
  return Object.entries(ref).flatMap(([k, t]) => {
    const d = ours[k] ? compareTensors(ours[k]!, t) : 'missing';
    return d ? [`${k}: ${d}`] : [];
  });
}

describe.skipIf(!oracleAvailable())('empty constant operands: OpenVINO on ovir\'s IR computes what onnxruntime computes', () => {
  it.each(Object.keys(CASES))('%s', async (name) => {
    const c = CASES[name]!;
    const inputs = Object.fromEntries(Object.entries(c.inputs).map(([n, s], k) => [n, seededF32(s, k + 1)]));
    expect(await judge(name, modelOf(c), inputs)).toEqual([]);
  });

  it('an If whose else branch Expands an outer value to shape [], then Reshape [-1] and Gather [0] (the campaign\'s case), both branches', async () => {
    const branch = (out: string, nodes: ob.NodeProto[]) => ob.graph({ name: out, outputs: [f32(out, null)], nodes });
    const bytes = ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({
        name: 'main',
        inputs: [ob.valueInfo('c', 'boolean', []), f32('x', [])],
        outputs: [f32('y', [])],
        initializers: [EMPTY, ob.int64Tensor('flat', [1], [-1]), ob.int64Tensor('zero', [], [0])],
        nodes: [
          ob.ifNode('c', ['o'], branch('t', [ob.node('Identity', ['x'], ['t'])]), branch('e', [ob.node('Expand', ['x', 'empty'], ['e'])])),
          ob.node('Reshape', ['o', 'flat'], ['r']),
          ob.node('Gather', ['r', 'zero'], ['y']),
        ],
      }),
    }));
    for (const c of [true, false]) {
      expect(await judge(`if-expand-${c}`, bytes, { c: { dtype: 'boolean', shape: [], data: Uint8Array.of(c ? 1 : 0) }, x: seededF32([], 7) })).toEqual([]);
    }
  });

  it('writes an empty Const as one zero byte, as OpenVINO\'s serializer does (size="1")', () => {
    const path = join(env.tmp, 'empty-const.xml');
    saveModel(convertModel(decodeOnnx(modelOf(CASES['Concat with an empty [0, 3] initializer']!))), path);
    const xml = readFileSync(path, 'latin1');
    expect(xml).toMatch(/element_type="f32" shape="0, 3" offset="\d+" size="1"/);
  });
});
