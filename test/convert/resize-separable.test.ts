import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromFloat32, tensorFromInt64, type Attr, type Model, type Value } from '../../src/graph/index.js';
import { writeIr } from '../../src/ir/write.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { sym } from '../../src/graph/shape.js';
import { Builder } from './builder.js';
import { expectClose, floats } from '../helpers/tensors.js';

/**
 * ONNX Resize → IR: Interpolate-11 where it computes what ONNX does, else the separable resize by
 * gathers (mappings/tensor/resize-separable.ts). The numbers of the backend cases are judged by
 * OpenVINO in the zoo suite; here the choice, the emitted IR, and — through IR → ONNX on
 * onnxruntime — the arithmetic against the values onnx's reference (op_resize.py) computes.
 */
const ops = (m: Model) => [...allNodes(m.graph)].map((n) => n.op);
const fails = (f: () => unknown): string => {
  try { f(); } catch (e) { if (e instanceof OvirError) return e.message; throw e; }
  return 'no error';
};
const f32 = (v: number[], shape = [v.length]): OracleTensor => ({ dtype: 'f32', shape, data: new Uint8Array(new Float32Array(v).buffer) });
const i64 = (v: number[]): OracleTensor => ({ dtype: 'i64', shape: [v.length], data: new Uint8Array(new BigInt64Array(v.map(BigInt)).buffer) });
const X16 = Array.from({ length: 16 }, (_, i) => i + 1);

interface Operands { roi?: 'input' | number[]; scales?: 'input' | number[]; sizes?: 'input' | number[]; rank?: number | null; elem?: 'f32' | 'f16' | 'i32' }

/** ONNX Resize-19 of x [1,1,4,4] (or of unknown rank); each operand a constant, a graph input, or absent. */
function resize(attrs: Record<string, Attr>, o: Operands): Model {
  const b = new Builder('onnx', 19);
  const x = b.input('x', o.elem ?? 'f32', o.rank === null ? null : [1, 1, 4, 4]);
  const operand = (name: string, v: 'input' | number[] | undefined, elem: 'f32' | 'i64'): Value | null => {
    if (v === undefined) return null;
    if (v === 'input') return b.input(name, elem, [sym(`${name}_len`)]);
    return b.init(name, elem === 'f32' ? tensorFromFloat32(v) : tensorFromInt64(v.map(BigInt)));
  };
  const ins = [x, operand('roi', o.roi, 'f32'), operand('scales', o.scales, 'f32'), operand('sizes', o.sizes, 'i64')];
  b.output(b.op(b.graph, 'Resize', ins, 'y', attrs));
  return b.model;
}

async function roundTrip(m: Model, feeds: Record<string, OracleTensor>): Promise<number[]> {
  const ir = convertModel(m);
  expect(ops(ir)).not.toContain('Interpolate');
  return floats((await runOrt(encodeOnnx(convertModel(ir, { opset: 17 })).bytes, feeds))['y']!);
}


describe('the choice: Interpolate where it is exact, the separable resize otherwise', () => {
  it.each([
    ['linear half_pixel by scales', { mode: A.string('linear') }, { scales: [1, 1, 2, 2] }, true],
    ['cubic exclude_outside', { mode: A.string('cubic'), exclude_outside: A.int(1) }, { scales: [1, 1, 2, 2] }, false],
    ['tf_crop_and_resize', { mode: A.string('linear'), coordinate_transformation_mode: A.string('tf_crop_and_resize') }, { roi: [0, 0, 0, 0, 1, 1, 1, 1], sizes: [1, 1, 3, 3] }, false],
    ['half_pixel_symmetric', { mode: A.string('linear'), coordinate_transformation_mode: A.string('half_pixel_symmetric') }, { scales: [1, 1, 0.6, 0.6] }, false],
    ['antialias shrinking', { mode: A.string('linear'), antialias: A.int(1) }, { scales: [1, 1, 0.6, 0.6] }, false],
    ['antialias growing (a no-op in ONNX)', { mode: A.string('linear'), antialias: A.int(1) }, { scales: [1, 1, 2, 2] }, true],
    ['antialias with run-time scales', { mode: A.string('linear'), antialias: A.int(1) }, { scales: 'input' }, false],
    ['align_corners by scales with whole scale · in', { mode: A.string('linear'), coordinate_transformation_mode: A.string('align_corners') }, { scales: [1, 1, 1.5, 2] }, true],
    ['align_corners by scales 0.6 · 4 = 2.4', { mode: A.string('linear'), coordinate_transformation_mode: A.string('align_corners') }, { scales: [1, 1, 0.6, 0.6] }, false],
    ['align_corners by run-time scales', { mode: A.string('linear'), coordinate_transformation_mode: A.string('align_corners') }, { scales: 'input' }, false],
    ['keep_aspect_ratio_policy with constant sizes Interpolate rounds alike', { keep_aspect_ratio_policy: A.string('not_larger'), axes: A.ints([2, 3]) }, { sizes: [8, 10] }, true],
    ['keep_aspect_ratio_policy with run-time sizes', { keep_aspect_ratio_policy: A.string('not_larger'), axes: A.ints([2, 3]) }, { sizes: 'input' }, false],
  ] as const)('%s', (_, attrs, o, interpolate) => {
    const m = resize(attrs as Record<string, Attr>, o as Operands);
    expect(ops(convertModel(m)).includes('Interpolate')).toBe(interpolate);
  });
});

describe('the separable resize in IR: one gather-and-sum step per resized axis', () => {
  it('axes known to be the identity are skipped; each other axis is a Gather and a ReduceSum over its taps', () => {
    const ir = convertModel(resize({ mode: A.string('cubic'), exclude_outside: A.int(1) }, { scales: [1, 1, 2, 0.5] }));
    const sums = [...allNodes(ir.graph)].filter((n) => n.op === 'ReduceSum' && n.inputs[0]!.producer?.op === 'Multiply');
    // Gather along axis 2 gives [1, 1, 8, 4 taps, 4]: its taps are summed over axis 3; then axis 3 over axis 4
    expect(sums.map((n) => Number(new BigInt64Array(Uint8Array.from(n.inputs[1]!.constant!.data).buffer)[0]))).toEqual([3, 4]);
  });

  it('constant scales or sizes over static dims: the lengths are constants, computed in doubles, and the IR output dims static', () => {
    const m = resize({ mode: A.string('cubic'), exclude_outside: A.int(1) }, { scales: [1, 1, 2, 0.6] });
    const ranges = [...allNodes(convertModel(m).graph)].filter((n) => n.op === 'Range');
    expect(ranges.map((n) => Number(new BigInt64Array(Uint8Array.from(n.inputs[1]!.constant!.data).buffer)[0]))).toEqual([8, 2]);
    const xml = writeIr(convertModel(m)).xml;
    expect(xml).toMatch(/type="Result"[\s\S]*?<dim>1<\/dim>\s*<dim>1<\/dim>\s*<dim>8<\/dim>\s*<dim>2<\/dim>/);
  });

  it('nearest only gathers, in the input type (no Convert to f32, no weights)', () => {
    const ir = convertModel(resize({ coordinate_transformation_mode: A.string('half_pixel_symmetric') }, { scales: [1, 1, 2, 2], elem: 'i32' }));
    const nodes = [...allNodes(ir.graph)];
    expect(nodes.filter((n) => n.op === 'ReduceSum')).toHaveLength(0);
    expect(nodes.filter((n) => n.op === 'Convert' && n.attrs.get('destination_type')?.toString() === 'f32' && n.inputs[0] === ir.graph.inputs[0])).toHaveLength(0);
    // axis 2, then axis 3 (N and C scale by the constant 1): y = Gather(Gather(x))
    const last = ir.graph.outputs[0]!.producer!;
    expect([last.op, last.inputs[0]!.producer?.op]).toEqual(['Gather', 'Gather']);
    expect(last.inputs[0]!.producer!.inputs[0]).toBe(ir.graph.inputs[0]);
  });

  it('f16 X computes in f32 and converts back', () => {
    const ir = convertModel(resize({ mode: A.string('linear'), coordinate_transformation_mode: A.string('half_pixel_symmetric') }, { scales: [1, 1, 2, 2], elem: 'f16' }));
    const converts = [...allNodes(ir.graph)].filter((n) => n.op === 'Convert').map((n) => n.attrs.get('destination_type'));
    expect(converts).toContainEqual(A.raw('f32'));
    expect(converts).toContainEqual(A.raw('f16'));
  });

  it('what neither form computes is refused, coded and named', () => {
    const tf = { mode: A.string('linear'), coordinate_transformation_mode: A.string('tf_crop_and_resize') };
    expect(fails(() => convertModel(resize(tf, { sizes: [1, 1, 3, 3] })))).toMatch(/tf_crop_and_resize needs roi/);
    expect(fails(() => convertModel(resize(tf, { roi: [0, 0, 0, 0, 1, 1, 1, 1], sizes: [1, 1, 3, 3], rank: null })))).toMatch(/needs the rank and element type of X/);
    expect(fails(() => convertModel(resize(tf, { roi: [0, 0, 0, 0, 1, 1, 1, 1], sizes: [1, 1, 3, 3], elem: 'i32' })))).toMatch(/linear for float and 8\/16-bit integer X only \(X is i32\)/);
    expect(fails(() => convertModel(resize({ coordinate_transformation_mode: A.string('tf_crop') }, { scales: [1, 1, 2, 2] })))).toMatch(/coordinate_transformation_mode' = tf_crop/);
  });
});

describe('the arithmetic, against onnx\'s reference (IR → ONNX on onnxruntime)', () => {
  it('tf_crop_and_resize with a run-time roi (the spec\'s example)', async () => {
    const m = resize({ mode: A.string('linear'), coordinate_transformation_mode: A.string('tf_crop_and_resize') }, { roi: 'input', sizes: [1, 1, 3, 3] });
    expectClose(await roundTrip(m, { x: f32(X16, [1, 1, 4, 4]), roi: f32([0, 0, 0.4, 0.6, 1, 1, 0.6, 0.8]) }), [7.6000004, 7.9, 8.2, 8.8, 9.1, 9.400001, 10, 10.3, 10.6]);
  });

  it('tf_crop_and_resize: samples outside the input are extrapolation_value', async () => {
    const m = resize({ mode: A.string('linear'), coordinate_transformation_mode: A.string('tf_crop_and_resize'), extrapolation_value: A.float(10) }, { roi: [0, 0, 0.4, 0.6, 1, 1, 1.2, 1.7], sizes: 'input' });
    expectClose(await roundTrip(m, { x: f32(X16, [1, 1, 4, 4]), sizes: i64([1, 1, 3, 3]) }), [7.6000004, 10, 10, 12.400001, 10, 10, 10, 10, 10]);
  });

  it('cubic exclude_outside renormalises the weights of taps inside the input', async () => {
    const m = resize({ mode: A.string('cubic'), cubic_coeff_a: A.float(-0.5), exclude_outside: A.int(1) }, { scales: 'input' });
    expectClose(await roundTrip(m, { x: f32(X16, [1, 1, 4, 4]), scales: f32([1, 1, 0.8, 0.8]) }),
      [1.3681267499923706, 2.669501304626465, 4.013336658477783, 6.573625564575195, 7.875, 9.21883487701416, 11.948966026306152, 13.250341415405273, 14.594176292419434]);
  });

  it('half_pixel_symmetric by run-time scales', async () => {
    const m = resize({ mode: A.string('linear'), coordinate_transformation_mode: A.string('half_pixel_symmetric') }, { scales: 'input' });
    expectClose(await roundTrip(m, { x: f32(X16, [1, 1, 4, 4]), scales: f32([1, 1, 0.6, 0.6]) }), [4.333333492279053, 6, 11, 12.666666030883789]);
  });

  it('linear antialias by run-time scales: the filter widens with 1 / scale', async () => {
    const m = resize({ mode: A.string('linear'), antialias: A.int(1) }, { scales: 'input' });
    expectClose(await roundTrip(m, { x: f32(X16, [1, 1, 4, 4]), scales: f32([1, 1, 0.6, 0.6]) }), [2.875, 4.5, 9.375, 11]);
  });

  it('keep_aspect_ratio_policy not_smaller with run-time sizes: one scale, output round_half_up(scale · in)', async () => {
    const m = resize({ keep_aspect_ratio_policy: A.string('not_smaller'), axes: A.ints([2, 3]) }, { sizes: 'input' });
    // x [1,1,4,4], sizes [6, 2]: scale max(1.5, 0.5) = 1.5, output [6, 6]; nearest round_prefer_floor of (y + 0.5) / 1.5 - 0.5
    const src = [0, 0, 1, 2, 2, 3];
    const want = src.flatMap((r) => src.map((c) => X16[r * 4 + c]!));
    expectClose(await roundTrip(m, { x: f32(X16, [1, 1, 4, 4]), sizes: i64([6, 2]) }), want);
  });
});
