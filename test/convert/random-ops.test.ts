import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromFloat32, tensorFromInt64, verifyGraph, type Attr, type Model, type Node } from '../../src/graph/index.js';
import { Builder } from './builder.js';

/**
 * The random ops (mappings/generator/random-*.ts, bernoulli.ts, multinomial.ts): what each is
 * written as, its types and its seeds. Their numbers are judged by the engines in
 * test/conformance/random-ops.test.ts (distributions, not values: OpenVINO's generator is not
 * onnxruntime's).
 */
const nodes = (m: Model, op: string): Node[] => [...allNodes(m.graph)].filter((n) => n.op === op);
const codes = (f: () => unknown): string[] => {
  try { f(); } catch (e) { return (e as OvirError).diagnostics.map((d) => `${d.code} ${d.where}`); }
  return [];
};

function onnxModel(op: string, attrs: Record<string, Attr>, input?: { elem: 'f32' | 'f64' | 'f16' | 'i64'; shape: number[] }, opset = 22): Model {
  const b = new Builder('onnx', opset);
  const ins = input ? [b.input('x', input.elem, input.shape)] : [];
  b.output(b.node(b.graph, op, ins, ['y'], attrs, { name: 'r' }).outputs[0]!);
  return b.model;
}

describe('ONNX → IR: the random ops', () => {
  it('RandomUniform is RandomUniform-8 of the constant shape, low/high as constants of dtype, seed as its float bits', () => {
    const ir = convertModel(onnxModel('RandomUniform', { shape: A.ints([3, 4]), low: A.float(-2), high: A.float(5), dtype: A.int(11), seed: A.float(1.5) }));
    const [ru] = nodes(ir, 'RandomUniform');
    expect(ru!.version).toBe('opset8');
    expect(ru!.attrs.get('output_type')).toMatchObject({ value: 'f64' });
    expect(ru!.attrs.get('global_seed')).toMatchObject({ value: '0' });
    expect(ru!.attrs.get('op_seed')).toMatchObject({ value: String(0x3fc00000) }); // 1.5f
    expect(ir.graph.outputs[0]!.type).toMatchObject({ elem: 'f64', shape: [3, 4] });
    expect(verifyGraph(ir.graph)).toEqual([]);
  });

  it('seed 0.0 stays a fixed seed (the bits of -0: OpenVINO reads 0/0 as "no seed"); no seed is 0/0', () => {
    const seeded = nodes(convertModel(onnxModel('RandomUniform', { shape: A.ints([2]), seed: A.float(0) })), 'RandomUniform')[0]!;
    expect(seeded.attrs.get('op_seed')).toMatchObject({ value: String(0x80000000) });
    const free = nodes(convertModel(onnxModel('RandomUniform', { shape: A.ints([2]) })), 'RandomUniform')[0]!;
    expect([free.attrs.get('global_seed'), free.attrs.get('op_seed')]).toMatchObject([{ value: '0' }, { value: '0' }]);
  });

  it('RandomUniformLike / RandomNormalLike take the input\'s ShapeOf and type (or dtype)', () => {
    const u = convertModel(onnxModel('RandomUniformLike', {}, { elem: 'f64', shape: [5, 2] }));
    expect(nodes(u, 'ShapeOf')).toHaveLength(1);
    expect(u.graph.outputs[0]!.type).toMatchObject({ elem: 'f64', shape: [5, 2] });
    const n = convertModel(onnxModel('RandomNormalLike', { dtype: A.int(10) }, { elem: 'i64', shape: [7] }));
    expect(n.graph.outputs[0]!.type).toMatchObject({ elem: 'f16', shape: [7] });
    expect(codes(() => convertModel(onnxModel('RandomUniformLike', {}, { elem: 'i64', shape: [7] })))).toEqual(['CONVERT_OP main/r']);
  });

  it('RandomNormal is Box–Muller over two independent uniform streams (a seed gives them two global seeds)', () => {
    const ir = convertModel(onnxModel('RandomNormal', { shape: A.ints([4]), mean: A.float(3), scale: A.float(2), seed: A.float(7) }));
    const streams = nodes(ir, 'RandomUniform').map((n) => `${(n.attrs.get('global_seed') as { value: string }).value}/${(n.attrs.get('op_seed') as { value: string }).value}`);
    expect(streams.sort()).toEqual([`0/${0x40e00000}`, `1/${0x40e00000}`]);
    expect(nodes(ir, 'Log')).toHaveLength(1);
    expect(nodes(ir, 'Cos')).toHaveLength(1);
    expect(nodes(ir, 'Sqrt')).toHaveLength(1);
    expect(ir.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [4] });
  });

  it('Bernoulli is Less(u, p) converted to dtype; Multinomial is Multinomial-13 with log_probs and replacement', () => {
    const b = convertModel(onnxModel('Bernoulli', { dtype: A.int(9) }, { elem: 'f64', shape: [3] }));
    expect(nodes(b, 'Less')).toHaveLength(1);
    expect(b.graph.outputs[0]!.type).toMatchObject({ elem: 'boolean', shape: [3] });
    const m = convertModel(onnxModel('Multinomial', { sample_size: A.int(6), dtype: A.int(7), seed: A.float(3) }, { elem: 'f32', shape: [2, 5] }));
    const [mn] = nodes(m, 'Multinomial');
    expect(Object.fromEntries([...mn!.attrs].map(([k, a]) => [k, (a as { value: unknown }).value]))).toEqual({
      convert_type: 'i64', with_replacement: 'true', log_probs: 'true', global_seed: '0', op_seed: String(0x40400000),
    });
    expect(m.graph.outputs[0]!.type).toMatchObject({ elem: 'i64', shape: [2, 6] });
    expect(codes(() => convertModel(onnxModel('Multinomial', { dtype: A.int(1) }, { elem: 'f32', shape: [2, 5] })))).toEqual(['CONVERT_UNSUPPORTED_ATTR main/r']);
  });
});

function irModel(op: string, version: string, inputs: (b: Builder) => ReturnType<Builder['input']>[], attrs: Record<string, Attr>): Model {
  const b = new Builder('ov');
  b.output(b.node(b.graph, op, inputs(b), ['y'], attrs, { name: 'r', version }).outputs[0]!);
  return b.model;
}

describe('IR → ONNX: RandomUniform-8 and Multinomial-13', () => {
  const uniform = (out: string, seeds: [string, string], shape?: number[]) => irModel('RandomUniform', 'opset8', (b) => [
    shape ? b.init('shape', tensorFromInt64(shape)) : b.input('shape', 'i64', [2]),
    b.init('lo', out === 'i64' ? tensorFromInt64([3], []) : tensorFromFloat32([-1], [])),
    b.init('hi', out === 'i64' ? tensorFromInt64([9], []) : tensorFromFloat32([4], [])),
  ], { output_type: A.raw(out), global_seed: A.raw(seeds[0]), op_seed: A.raw(seeds[1]) });

  it('constant shape and bounds: ONNX RandomUniform; op_seed of a float\'s bits is that seed again', () => {
    const onnx = convertModel(uniform('f32', ['0', String(0x3fc00000)], [4, 5]));
    const [ru] = nodes(onnx, 'RandomUniform');
    expect(Object.fromEntries([...ru!.attrs].map(([k, a]) => [k, (a as { value: unknown }).value]))).toEqual({
      dtype: 1n, seed: 1.5, low: -1, high: 4, shape: [4n, 5n],
    });
  });

  it('f16 output: drawn in f32 and Cast (onnxruntime has no f16 RandomUniform)', () => {
    const m = irModel('RandomUniform', 'opset8', (b) => [b.init('shape', tensorFromInt64([3])), b.init('lo', tensorFromFloat32([0], [])), b.init('hi', tensorFromFloat32([1], []))],
      { output_type: A.raw('f16'), global_seed: A.raw('0'), op_seed: A.raw('0') });
    const onnx = convertModel(m);
    expect(nodes(onnx, 'RandomUniform')[0]!.attrs.get('dtype')).toMatchObject({ value: 1n });
    expect(nodes(onnx, 'Cast').map((n) => n.attrs.get('to'))).toMatchObject([{ value: 10n }]);
    expect(onnx.graph.outputs[0]!.type).toMatchObject({ elem: 'f16', shape: [3] });
  });

  it('a run-time shape: RandomUniformLike of a ConstantOfShape; no seeds: no seed', () => {
    const onnx = convertModel(uniform('f32', ['0', '0']));
    expect(nodes(onnx, 'ConstantOfShape')).toHaveLength(1);
    expect(nodes(onnx, 'RandomUniformLike')[0]!.attrs.has('seed')).toBe(false);
  });

  it('integer output: ⌊min + u · (max − min)⌋ with u in f64, capped at max − 1; seeds ONNX cannot hold: a derived fixed seed', () => {
    const onnx = convertModel(uniform('i64', ['5', '9'], [100]));
    expect(nodes(onnx, 'Floor')).toHaveLength(1);
    expect(nodes(onnx, 'RandomUniform')[0]!.attrs.get('dtype')).toMatchObject({ value: 11n });
    expect(nodes(onnx, 'RandomUniform')[0]!.attrs.get('seed')).toMatchObject({ value: 5 * 1000003 + 9 });
    expect(onnx.graph.outputs[0]!.type).toMatchObject({ elem: 'i64', shape: [100] });
  });

  const multinomial = (attrs: Record<string, string>, probsShape = [2, 3], samples?: boolean) => irModel('Multinomial', 'opset13', (b) => [
    b.input('p', 'f32', probsShape), samples ? b.input('n', 'i64', []) : b.init('n', tensorFromInt64([10], [])),
  ], Object.fromEntries(Object.entries({ convert_type: 'i32', with_replacement: 'true', log_probs: 'false', global_seed: '0', op_seed: '0', ...attrs }).map(([k, v]) => [k, A.raw(v)])));

  it('Multinomial: the Log of probabilities (log_probs = false); 1-D probs one row; num_samples the sample_size', () => {
    const onnx = convertModel(multinomial({}, [6]));
    expect(nodes(onnx, 'Log')).toHaveLength(1);
    expect(nodes(onnx, 'Multinomial')[0]!.attrs.get('sample_size')).toMatchObject({ value: 10n });
    expect(onnx.graph.outputs[0]!.type).toMatchObject({ elem: 'i32', shape: [10] });
    expect(nodes(convertModel(multinomial({ log_probs: 'true' })), 'Log')).toHaveLength(0);
  });

  it('Multinomial without replacement or with run-time num_samples is refused, naming the layer', () => {
    expect(codes(() => convertModel(multinomial({ with_replacement: 'false' })))).toEqual(['CONVERT_UNSUPPORTED_ATTR main/r']);
    expect(codes(() => convertModel(multinomial({}, [2, 3], true)))).toEqual(['CONVERT_NEEDS_CONSTANT main/r']);
  });

  it('ONNX → IR → ONNX keeps the ops, seeds and types', () => {
    const src = onnxModel('Multinomial', { sample_size: A.int(4), seed: A.float(2.25) }, { elem: 'f32', shape: [3, 5] });
    const back = convertModel(convertModel(src));
    const [mn] = nodes(back, 'Multinomial');
    expect(mn!.attrs.get('seed')).toMatchObject({ value: 2.25 });
    expect(back.graph.outputs[0]!.type).toMatchObject({ elem: 'i32', shape: [3, 4] });
    const u = convertModel(convertModel(onnxModel('RandomUniform', { shape: A.ints([2, 2]), low: A.float(1), high: A.float(2), seed: A.float(9) })));
    expect(nodes(u, 'RandomUniform')[0]!.attrs.get('seed')).toMatchObject({ value: 9 });
  });
});
