import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromFloat32, tensorFromInt64, type Attr, type Model } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';
import { floats } from '../helpers/tensors.js';

/**
 * IR forms ovc writes that ONNX spells differently, run in onnxruntime against the OpenVINO op
 * spec: Round-5 half_away_from_zero (an exact subgraph), Squeeze-15 allow_axis_skip, LogicalXor
 * as ovc versions it (opset2), and the default opset chosen for forms ONNX has only later
 * (AvgPool dilations: 19; ScatterND / ScatterElements reduction max/min: 18).
 */
const ops = (m: Model): string[] => [...allNodes(m.graph)].map((n) => n.op);
const f32 = (v: number[], shape = [v.length]): OracleTensor => ({ dtype: 'f32', shape, data: new Uint8Array(new Float32Array(v).buffer) });

function unaryIr(op: string, version: string, attrs: Record<string, Attr>, n: number): Model {
  const b = new Builder('ov');
  b.output(b.op(b.graph, op, [b.input('x', 'f32', [n])], 'y', attrs, { version }));
  return b.model;
}

describe('Round-5 mode half_away_from_zero → Sign(x)·(Floor(|x|) + (|x| − Floor(|x|) ≥ 0.5))', () => {
  // the float just below 0.5 is where Floor(|x| + 0.5) would round up wrongly
  const below = Math.fround(0.5 - 2 ** -25);
  const X = [-2.5, -1.5, -0.5, -0.4, 0, 0.5, 1.5, 2.5, 2.4999998, below, -below, 1e7 + 0.5, 3.75, -3.25, Infinity, -Infinity];
  // in doubles, |x| + 0.5 of an f32 |x| is exact: the spec's formula needs no care here
  const away = (x: number): number => (Number.isFinite(x) ? Math.sign(x) * Math.floor(Math.abs(x) + 0.5) : x);

  it.each([11, 17])('at opset %i: halves go away from zero, every other value to the nearest', async (opset) => {
    const onnx = convertModel(unaryIr('Round', 'opset5', { mode: A.raw('half_away_from_zero') }, X.length), { opset });
    expect(ops(onnx)).not.toContain('Round');
    const got = floats((await runOrt(encodeOnnx(onnx).bytes, { x: f32(X) }))['y']!);
    const want = X.map((x) => Math.fround(away(Math.fround(x))));
    expect(got).toEqual(want);
    expect(got.slice(0, 8)).toEqual([-3, -2, -1, -0, 0, 1, 2, 3]);
    expect(got[9]).toBe(0);
  });

  it('NaN stays NaN', async () => {
    const onnx = convertModel(unaryIr('Round', 'opset5', { mode: A.raw('half_away_from_zero') }, 1), { opset: 17 });
    expect(Number.isNaN(floats((await runOrt(encodeOnnx(onnx).bytes, { x: f32([NaN]) }))['y']!)[0])).toBe(true);
  });

  it('half_to_even is ONNX Round itself', () => {
    expect(ops(convertModel(unaryIr('Round', 'opset5', { mode: A.raw('half_to_even') }, 4), { opset: 17 }))).toEqual(['Round']);
  });
});

describe('Squeeze-15 allow_axis_skip', () => {
  function squeeze(shape: (number | null)[], axes: number[], skip: string): Model {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', shape);
    b.output(b.op(b.graph, 'Squeeze', [x, b.init('axes', tensorFromInt64(axes.map(BigInt), [axes.length]))], 'y', { allow_axis_skip: A.raw(skip) }, { version: 'opset15' }));
    return b.model;
  }

  it('false: ONNX Squeeze of the listed axes', async () => {
    const onnx = convertModel(squeeze([1, 3, 1], [0, 2], 'false'), { opset: 17 });
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([1, 2, 3], [1, 3, 1]) }))['y']!;
    expect(y.shape).toEqual([3]);
  });

  it.each([11, 17])('true at opset %i: axes whose static dim is not 1 are left out', async (opset) => {
    const onnx = convertModel(squeeze([1, 3, 1], [0, 1, -1], 'true'), { opset });
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([1, 2, 3], [1, 3, 1]) }))['y']!;
    expect(y.shape).toEqual([3]);
  });

  it('true with no listed axis of size 1: the data unchanged', async () => {
    const onnx = convertModel(squeeze([2, 3], [1], 'true'), { opset: 17 });
    expect(ops(onnx)).toEqual(['Identity']);
  });

  it('true on an axis of unknown size is refused, naming the attribute', () => {
    let err: unknown;
    try { convertModel(squeeze([null, 3], [0], 'true'), { opset: 17 }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(OvirError);
    const d = (err as OvirError).diagnostics[0]!;
    expect([d.code, d.params?.['attr']]).toEqual(['CONVERT_UNSUPPORTED_ATTR', 'allow_axis_skip']);
  });
});

describe('LogicalXor as ovc versions it (opset2)', () => {
  it('is ONNX Xor', async () => {
    const b = new Builder('ov');
    b.output(b.op(b.graph, 'LogicalXor', [b.input('a', 'boolean', [4]), b.input('c', 'boolean', [4])], 'y', { auto_broadcast: A.raw('numpy') }, { version: 'opset2' }));
    const onnx = convertModel(b.model);
    expect(ops(onnx)).toEqual(['Xor']);
    const bool = (v: number[]): OracleTensor => ({ dtype: 'boolean', shape: [4], data: new Uint8Array(v) });
    const y = (await runOrt(encodeOnnx(onnx).bytes, { a: bool([0, 0, 1, 1]), c: bool([0, 1, 0, 1]) }))['y']!;
    expect([...y.data]).toEqual([0, 1, 1, 0]);
  });
});

describe('without --opset, forms ONNX has only later pick the lowest opset that has them', () => {
  it('AvgPool with dilations: AveragePool-19', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [1, 1, 6, 6]);
    b.output(b.op(b.graph, 'AvgPool', [x], 'y', {
      strides: A.raw('1,1'), pads_begin: A.raw('0,0'), pads_end: A.raw('0,0'), kernel: A.raw('2,2'), dilations: A.raw('2,2'), 'exclude-pad': A.raw('true'), rounding_type: A.raw('floor'), auto_pad: A.raw('explicit'),
    }, { version: 'opset16' }));
    const onnx = convertModel(b.model);
    expect(onnx.onnx?.opsetImports.get('')).toBe(19);
    expect(() => convertModel(b.model, { opset: 17 })).toThrow(/dilations from opset 19/);
  });

  it('ScatterNDUpdate reduction max: ScatterND-18', () => {
    const b = new Builder('ov');
    const data = b.input('data', 'f32', [4]);
    const idx = b.init('i', tensorFromInt64([1n, 3n], [2, 1]));
    const upd = b.input('u', 'f32', [2]);
    b.output(b.op(b.graph, 'ScatterNDUpdate', [data, idx, upd], 'y', { reduction: A.raw('max') }, { version: 'opset15' }));
    const onnx = convertModel(b.model);
    expect(onnx.onnx?.opsetImports.get('')).toBe(18);
  });
});

describe('PRelu-1 slope broadcasting as OpenVINO computes it', () => {
  // OpenVINO: a 1-D slope as long as data's axis 1 is per channel; otherwise numpy broadcasting.
  async function run(slope: number[]): Promise<number[]> {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [1, 2, 3]);
    const s = b.input('s', 'f32', [slope.length]);
    b.output(b.op(b.graph, 'PRelu', [x, s], 'y'));
    const y = (await runOrt(encodeOnnx(convertModel(b.model)).bytes, { x: f32([-1, -1, -1, -1, -1, -1], [1, 2, 3]), s: f32(slope) }))['y']!;
    return floats(y);
  }

  it('a slope as long as axis 1 scales each channel', async () => {
    expect(await run([2, 3])).toEqual([-2, -2, -2, -3, -3, -3]);
  });

  it('a slope as long as the last axis (not axis 1) broadcasts numpy-style', async () => {
    expect(await run([2, 3, 4])).toEqual([-2, -3, -4, -2, -3, -4]);
  });
});

describe('Interpolate nearest_mode simple (OpenVINO: ceil(x) on a shrinking axis, int(x) otherwise)', () => {
  function interp(scales: number[], n: number): Model {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [1, 1, 1, n]);
    const s = b.init('s', tensorFromFloat32(scales, [4]));
    b.output(b.op(b.graph, 'Interpolate', [x, s], 'y', {
      mode: A.raw('nearest'), shape_calculation_mode: A.raw('scales'), coordinate_transformation_mode: A.raw('asymmetric'),
      nearest_mode: A.raw('simple'), antialias: A.raw('false'), pads_begin: A.raw('0'), pads_end: A.raw('0'), cube_coeff: A.raw('-0.75'),
    }, { version: 'opset11' }));
    return b.model;
  }
  const run = async (m: Model, x: number[]): Promise<number[]> =>
    floats((await runOrt(encodeOnnx(convertModel(m, { opset: 17 })).bytes, { x: f32(x, [1, 1, 1, x.length]) }))['y']!);

  it('shrinking by 0.6: source pixels ceil(i / 0.6) = 0, 2, 4', async () => {
    expect(await run(interp([1, 1, 1, 0.6], 5), [10, 11, 12, 13, 14])).toEqual([10, 12, 14]);
  });

  it('growing by 2.5: source pixels floor(i / 2.5)', async () => {
    expect(await run(interp([1, 1, 1, 2.5], 2), [10, 11])).toEqual([10, 10, 10, 11, 11]);
  });

  it('one axis growing and one shrinking has no single ONNX rounding: refused', () => {
    expect(() => convertModel(interp([1, 1, 2, 0.5], 4), { opset: 17 })).toThrow(/nearest_mode/);
  });
});

describe('Select on element types onnxruntime\'s Where lacks goes through an exact round trip of Casts', () => {
  it.each([
    ['u64', new BigUint64Array([2n ** 64n - 1n, 5n]), new BigUint64Array([7n, 2n ** 63n])],
    ['boolean', new Uint8Array([1, 0]), new Uint8Array([0, 1])],
  ] as const)('%s', async (elem, a, c) => {
    const b = new Builder('ov');
    const sel = b.op(b.graph, 'Select', [b.input('m', 'boolean', [2]), b.input('a', elem, [2]), b.input('c', elem, [2])], 'y', { auto_broadcast: A.raw('numpy') });
    b.output(sel);
    const onnx = convertModel(b.model);
    expect(ops(onnx)).toContain('Cast');
    const t = (v: BigUint64Array | Uint8Array): OracleTensor => ({ dtype: elem, shape: [2], data: new Uint8Array(v.buffer) });
    const y = (await runOrt(encodeOnnx(onnx).bytes, { m: { dtype: 'boolean', shape: [2], data: new Uint8Array([1, 0]) }, a: t(a), c: t(c) }))['y']!;
    const want = elem === 'u64' ? new Uint8Array(new BigUint64Array([a[0] as bigint, c[1] as bigint]).buffer) : new Uint8Array([a[0] as number, c[1] as number]);
    expect([...y.data]).toEqual([...want]);
  });
});

describe('i32 Convolution of 8-bit operands converted to i32 (ConvInteger as ovc and ovir write it)', () => {
  it('is ONNX ConvInteger of the 8-bit tensors, zero points included', async () => {
    const b = new Builder('ov');
    const x = b.input('x', 'u8', [1, 1, 3, 3]);
    const w = b.input('w', 'u8', [1, 1, 2, 2]);
    const zp = b.input('zp', 'u8', []);
    const i32 = (v: ReturnType<typeof b.input>): ReturnType<typeof b.input> => b.op(b.graph, 'Convert', [v], '', { destination_type: A.raw('i32') });
    const shifted = b.op(b.graph, 'Subtract', [i32(x), i32(zp)], '', { auto_broadcast: A.raw('numpy') });
    b.output(b.op(b.graph, 'Convolution', [shifted, i32(w)], 'y', {
      strides: A.raw('1,1'), dilations: A.raw('1,1'), pads_begin: A.raw('0,0'), pads_end: A.raw('0,0'), auto_pad: A.raw('explicit'),
    }));
    const onnx = convertModel(b.model);
    expect(ops(onnx)).toEqual(['ConvInteger']);
    const u8 = (v: number[], shape: number[]): OracleTensor => ({ dtype: 'u8', shape, data: new Uint8Array(v) });
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: u8([2, 3, 4, 5, 6, 7, 8, 9, 10], [1, 1, 3, 3]), w: u8([1, 1, 1, 1], [1, 1, 2, 2]), zp: u8([1], []) }))['y']!;
    // (x − 1) summed over each 2×2 window
    expect([...new Int32Array(y.data.slice().buffer)]).toEqual([12, 16, 24, 28]);
  });

  it('weights ovc folded into one i32 constant (w − w_zero_point) are u8 weights with a zero point', async () => {
    // ovc's IR of a quantized ISNet (ConvInteger weights with a constant zero point): Convolution(x − zp, Const i32)
    const model = (weights: number[]): Model => {
      const b = new Builder('ov');
      const x = b.input('x', 'u8', [1, 1, 3, 3]);
      const zp = b.input('zp', 'u8', []);
      const i32 = (v: ReturnType<typeof b.input>): ReturnType<typeof b.input> => b.op(b.graph, 'Convert', [v], '', { destination_type: A.raw('i32') });
      const shifted = b.op(b.graph, 'Subtract', [i32(x), i32(zp)], '', { auto_broadcast: A.raw('numpy') });
      const w = b.init('w', { elem: 'i32', dims: [1, 1, 2, 2], data: new Uint8Array(new Int32Array(weights).buffer) });
      b.output(b.op(b.graph, 'Convolution', [shifted, w], 'y', {
        strides: A.raw('1,1'), dilations: A.raw('1,1'), pads_begin: A.raw('0,0'), pads_end: A.raw('0,0'), auto_pad: A.raw('explicit'),
      }));
      return b.model;
    };
    const run = async (weights: number[]): Promise<{ ops: string[]; zero: number[]; y: number[] }> => {
      const onnx = convertModel(model(weights));
      const conv = onnx.graph.nodes.find((n) => n.op === 'ConvInteger');
      const u8 = (v: number[], shape: number[]): OracleTensor => ({ dtype: 'u8', shape, data: new Uint8Array(v) });
      const y = (await runOrt(encodeOnnx(onnx).bytes, { x: u8([2, 3, 4, 5, 6, 7, 8, 9, 10], [1, 1, 3, 3]), zp: u8([1], []) }))['y']!;
      expect(conv?.inputs[1]?.constant?.elem).toBe('u8');
      return { ops: ops(onnx), zero: [...(conv?.inputs[3]?.constant?.data ?? [])], y: [...new Int32Array(y.data.slice().buffer)] };
    };
    // (x − 1) ⊛ w over each 2×2 window: x − 1 = [[1,2,3],[4,5,6],[7,8,9]]
    expect(await run([1, -1, 2, -128])).toEqual({ ops: ['ConvInteger'], zero: [128], y: [1 - 2 + 8 - 640, 2 - 3 + 10 - 768, 4 - 5 + 14 - 1024, 5 - 6 + 16 - 1152] });
    expect(await run([200, 0, 0, 1])).toEqual({ ops: ['ConvInteger'], zero: [], y: [205, 406, 808, 1009] });
    expect(await run([-200, 55, 0, 1])).toEqual({ ops: ['ConvInteger'], zero: [200], y: [-200 + 110 + 0 + 5, -400 + 165 + 6, -800 + 275 + 8, -1000 + 330 + 9] });
    // values no u8 less a zero point holds (a range wider than 255): no ConvInteger (ONNX Conv takes no i32: refused, never wrong)
    expect(() => convertModel(model([200, -100, 0, 0]))).toThrow(OvirError);
  });

  // depthwise: x [1, 2, 3, 3] u8 less 1, two 2×2 kernels (channel 0 all ones, channel 1 [1, 0, 0, -1])
  const xs: OracleTensor = { dtype: 'u8', shape: [1, 2, 3, 3], data: new Uint8Array([2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 1, 1, 1, 9, 1, 1, 1, 1]) };
  const depthwise = [12, 16, 24, 28, -8, 0, 0, 8];
  const grouped = (weights: (b: Builder) => ReturnType<Builder['input']>): Model => {
    const b = new Builder('ov');
    const x = b.input('x', 'u8', [1, 2, 3, 3]);
    const zp = b.init('zp', { elem: 'u8', dims: [], data: new Uint8Array([1]) });
    const i32 = (v: ReturnType<typeof b.input>): ReturnType<typeof b.input> => b.op(b.graph, 'Convert', [v], '', { destination_type: A.raw('i32') });
    const shifted = b.op(b.graph, 'Subtract', [i32(x), i32(zp)], '', { auto_broadcast: A.raw('numpy') });
    b.output(b.op(b.graph, 'GroupConvolution', [shifted, weights(b)], 'y', {
      strides: A.raw('1,1'), dilations: A.raw('1,1'), pads_begin: A.raw('0,0'), pads_end: A.raw('0,0'), auto_pad: A.raw('explicit'),
    }));
    return b.model;
  };
  const runGrouped = async (m: Model): Promise<{ ops: string[]; y: number[] }> => {
    const onnx = convertModel(m);
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: xs }))['y']!;
    return { ops: ops(onnx), y: [...new Int32Array(y.data.slice().buffer)] };
  };

  it('a GroupConvolution (depthwise, as in quantized MobileNets) is ConvInteger with group: ovc\'s folded i32 weights [G, O/G, I/G, k…]', async () => {
    const m = grouped((b) => b.init('w', { elem: 'i32', dims: [2, 1, 1, 2, 2], data: new Uint8Array(new Int32Array([1, 1, 1, 1, 1, 0, 0, -1]).buffer) }));
    expect(await runGrouped(m)).toEqual({ ops: ['Reshape', 'ConvInteger'], y: depthwise });
  });

  it("…and ovir's own form: the widened [O, I/G, k…] weights less their zero point, Reshaped to [G, O/G, I/G, k…] (no Reshape back)", async () => {
    // u8 weights with a zero point (onnxruntime-node has ConvInteger kernels for u8 weights only)
    const m = grouped((b) => {
      const i32 = (v: ReturnType<typeof b.input>): ReturnType<typeof b.input> => b.op(b.graph, 'Convert', [v], '', { destination_type: A.raw('i32') });
      const w = b.init('w', { elem: 'u8', dims: [2, 1, 2, 2], data: new Uint8Array([2, 2, 2, 2, 2, 1, 1, 0]) });
      const wzp = b.init('wzp', { elem: 'u8', dims: [], data: new Uint8Array([1]) });
      const wi = b.op(b.graph, 'Subtract', [i32(w), i32(wzp)], '', { auto_broadcast: A.raw('numpy') });
      return b.op(b.graph, 'Reshape', [wi, b.init('s', tensorFromInt64([2n, 1n, 1n, 2n, 2n], [5]))], '', { special_zero: A.raw('false') });
    });
    expect(await runGrouped(m)).toEqual({ ops: ['ConvInteger'], y: depthwise });
  });
});

describe('Power of a constant 2 on u64 (ovc\'s form of ONNX BitShift) → BitShift(1, y, LEFT)', () => {
  it('x · 2^y and x / 2^y compute the shifts in onnxruntime; no Pow (which takes no unsigned type)', async () => {
    const u64 = (v: bigint[]): OracleTensor => ({ dtype: 'u64', shape: [v.length], data: new Uint8Array(new BigUint64Array(v).buffer) });
    const b = new Builder('ov');
    const x = b.input('x', 'u64', [3]);
    const y = b.input('y', 'u64', [3]);
    const two = b.init('two', { elem: 'u64', dims: [1], data: new Uint8Array(new BigUint64Array([2n]).buffer) });
    const p = b.op(b.graph, 'Power', [two, y], 'p', { auto_broadcast: A.raw('numpy') });
    b.output(b.op(b.graph, 'Multiply', [x, p], 'left', { auto_broadcast: A.raw('numpy') }));
    b.output(b.op(b.graph, 'Divide', [x, p], 'right', { auto_broadcast: A.raw('numpy'), m_pythondiv: A.raw('true') }));
    const onnx = convertModel(b.model);
    expect(ops(onnx)).toContain('BitShift');
    expect(ops(onnx)).not.toContain('Pow');
    const out = await runOrt(encodeOnnx(onnx).bytes, { x: u64([16n, 4n, 1n << 62n]), y: u64([1n, 2n, 1n]) });
    expect([...new BigUint64Array(out['left']!.data.slice().buffer)]).toEqual([32n, 16n, 1n << 63n]);
    expect([...new BigUint64Array(out['right']!.data.slice().buffer)]).toEqual([8n, 1n, 1n << 61n]);
  });
});

describe('Broadcast-3 and Tile-1 with an i32 target_shape / repeats (ovc writes i32 shapes)', () => {
  // ONNX Expand's shape and Tile's repeats are int64 only: a run-time i32 operand gets a Cast.
  function shaped(op: 'Broadcast' | 'Tile'): Model {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [1, 2]);
    const s = b.input('s', 'i32', [2]);
    const attrs: Record<string, Attr> = op === 'Broadcast' ? { mode: A.raw('numpy') } : {};
    b.output(b.op(b.graph, op, [x, s], 'y', attrs, { version: op === 'Broadcast' ? 'opset3' : 'opset1' }));
    return b.model;
  }
  const i32 = (v: number[]): OracleTensor => ({ dtype: 'i32', shape: [v.length], data: new Uint8Array(new Int32Array(v).buffer) });

  it.each([['Broadcast', 'Expand', [3, 2], [1, 2, 1, 2, 1, 2]], ['Tile', 'Tile', [2, 2], [1, 2, 1, 2, 1, 2, 1, 2]]] as const)(
    '%s → %s of the int64 Cast of the i32 operand; onnxruntime runs it', async (op, onnxOp, s, want) => {
      const onnx = convertModel(shaped(op), { opset: 17 });
      expect(ops(onnx)).toEqual(['Cast', onnxOp]);
      const got = (await runOrt(encodeOnnx(onnx).bytes, { x: f32([1, 2], [1, 2]), s: i32([...s]) }))['y']!;
      expect(floats(got)).toEqual(want);
    });
});
