import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromInt64, type Attr, type Model, type Value } from '../../src/graph/index.js';
import { inferTypes } from '../../src/shape/infer.js';
import { Builder } from './builder.js';

/**
 * The signal ops (DFT, HannWindow, HammingWindow, BlackmanWindow) and the integer / quantized
 * MatMulInteger, ConvInteger, QLinearConv: which IR ops they become (as OpenVINO's frontend writes
 * them) and the types both dialects infer. The numbers are judged by the engines in the zoo suite
 * (test/conformance/convert-zoo.test.ts: the dft / window / integer / qlinear backend cases).
 */
const ops = (m: Model): string[] => [...allNodes(m.graph)].map((n) => n.op);
const fails = (f: () => unknown): string => {
  try { f(); } catch (e) { if (e instanceof OvirError) return e.message; throw e; }
  return 'no error';
};
const outType = (m: Model): string => {
  const t = inferTypes(m).types.get(m.graph.outputs[0]!);
  return t?.kind === 'tensor' ? `${t.elem}[${t.shape?.map((d) => (typeof d === 'number' ? d : '?')).join(',')}]` : 'unknown';
};

/** An ONNX model with one node `op` over the given inputs. */
function onnxModel(opset: number, op: string, inputs: (b: Builder) => (Value | null)[], attrs: Record<string, Attr> = {}): Model {
  const b = new Builder('onnx', opset);
  b.output(b.op(b.graph, op, inputs(b), 'y', attrs));
  return b.model;
}

describe('DFT ⇄ DFT-7 / IDFT-7 / RDFT-9 / IRDFT-9', () => {
  const dft = (opset: number, shape: number[], attrs: Record<string, Attr>, axis?: number) =>
    onnxModel(opset, 'DFT', (b) => [b.input('x', 'f32', shape), null, ...(axis === undefined ? [] : [b.init('axis', tensorFromInt64([axis], []))])], attrs);

  it('a real forward transform gets zero imaginary parts, then DFT along the axis', () => {
    const ir = convertModel(dft(17, [1, 10, 10, 1], { axis: A.int(2) }));
    expect(ops(ir)).toEqual(['ShapeOf', 'Broadcast', 'Concat', 'DFT']);
    expect(outType(ir)).toBe('f32[1,10,10,2]');
  });

  it('inverse is IDFT; onesided is RDFT of the squeezed real signal, IRDFT unsqueezed back', () => {
    expect(ops(convertModel(dft(17, [1, 10, 10, 2], { inverse: A.int(1), axis: A.int(1) })))).toEqual(['IDFT']);
    const r = convertModel(dft(20, [1, 10, 10, 1], { onesided: A.int(1) }, 1));
    expect(ops(r)).toEqual(['Squeeze', 'RDFT']);
    expect(outType(r)).toBe('f32[1,6,10,2]');
    const ir = convertModel(dft(19, [1, 6, 10, 2], { inverse: A.int(1), onesided: A.int(1), axis: A.int(1) }));
    expect(ops(ir)).toEqual(['IRDFT', 'Unsqueeze']);
    expect(outType(ir)).toBe('f32[1,10,10,1]');
  });

  it('ONNX infers the onesided shapes the backend tests expect', () => {
    expect(outType(dft(20, [1, 10, 10, 1], { onesided: A.int(1) }, 1))).toBe('f32[1,6,10,2]');
    expect(outType(dft(19, [1, 6, 10, 2], { inverse: A.int(1), onesided: A.int(1), axis: A.int(1) }))).toBe('f32[1,10,10,1]');
    expect(outType(dft(20, [1, 10, 10, 2], {}))).toBe('f32[1,10,10,2]');
  });

  it('a run-time axis is normalized in the graph for DFT; a one-sided transform swaps it with the last signal axis (test/convert/dft-runtime-axis.test.ts)', () => {
    const m = (shape: number[], attrs: Record<string, Attr>) => onnxModel(20, 'DFT', (b) => [b.input('x', 'f32', shape), null, b.input('axis', 'i64', [])], attrs);
    expect(ops(convertModel(m([1, 10, 10, 2], {})))).toEqual(['Reshape', 'Add', 'FloorMod', 'Reshape', 'DFT']);
    const r = ops(convertModel(m([1, 10, 10, 1], { onesided: A.int(1) })));
    expect(r.filter((o) => o === 'Transpose')).toHaveLength(2);
    expect(r).toContain('RDFT');
  });

  it('an axis on the trailing real/imaginary dim is refused', () => {
    expect(fails(() => convertModel(dft(17, [1, 10, 2], { axis: A.int(2) })))).toMatch(/axis 2 is not a signal dim/);
  });

  /** An IR model with one transform layer over x and constant axes (and signal sizes). */
  function irModel(op: string, version: string, shape: number[], axes: number[], sizes?: number[]): Model {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', shape);
    const ins = [x, b.init('axes', tensorFromInt64(axes))];
    if (sizes) ins.push(b.init('sizes', tensorFromInt64(sizes)));
    b.output(b.op(b.graph, op, ins, 'y', {}, { version }));
    return b.model;
  }

  it('IR → ONNX: one DFT per axis, in the form of the target opset', () => {
    const back = convertModel(irModel('IDFT', 'opset7', [2, 4, 6, 2], [1, 2]), { opset: 17 });
    const dfts = back.graph.nodes.filter((n) => n.op === 'DFT');
    expect(dfts.map((n) => [n.attrs.get('axis'), n.attrs.get('inverse')])).toEqual([[A.int(1), A.int(1)], [A.int(2), A.int(1)]]);
    const at20 = convertModel(irModel('DFT', 'opset7', [2, 4, 2], [-1]), { opset: 20 });
    expect(at20.graph.nodes.filter((n) => n.op === 'DFT').map((n) => n.inputs.length)).toEqual([3]);
    expect(outType(at20)).toBe('f32[2,4,2]');
  });

  it('IR → ONNX: RDFT is one-sided on its last axis of the unsqueezed signal; IRDFT squeezes the real result', () => {
    const r = convertModel(irModel('RDFT', 'opset9', [4, 8], [0, 1]), { opset: 17 });
    expect(ops(r)).toEqual(['Unsqueeze', 'DFT', 'DFT']);
    expect(r.graph.nodes[1]!.attrs.get('onesided')).toEqual(A.int(1));
    expect(outType(r)).toBe('f32[4,5,2]');
    const ir = convertModel(irModel('IRDFT', 'opset9', [4, 5, 2], [0, 1], [-1, 8]), { opset: 17 });
    expect(ops(ir)).toEqual(['DFT', 'DFT', 'Squeeze']);
    expect(outType(ir)).toBe('f32[4,8]');
  });

  it('OpenVINO infers RDFT / IRDFT shapes with signal sizes', () => {
    expect(outType(irModel('RDFT', 'opset9', [4, 8], [1], [6]))).toBe('f32[4,4,2]');
    expect(outType(irModel('IRDFT', 'opset9', [4, 5, 2], [1]))).toBe('f32[4,8]');
  });
});

describe('HannWindow, HammingWindow, BlackmanWindow', () => {
  const win = (op: string, attrs: Record<string, Attr> = {}) => onnxModel(17, op, (b) => [b.init('size', tensorFromInt64([10], []))], attrs);

  it('are Range, Cos and arithmetic in f32, converted to output_datatype', () => {
    expect(ops(convertModel(win('HannWindow')))).toEqual(['Convert', 'Range', 'Divide', 'Multiply', 'Cos', 'Multiply', 'Subtract']);
    expect(ops(convertModel(win('HammingWindow', { periodic: A.int(0) })))).toContain('Subtract');
    const b = convertModel(win('BlackmanWindow', { output_datatype: A.int(11) }));
    expect(ops(b).filter((o) => o === 'Cos')).toHaveLength(2);
    // OpenVINO's side knows the length only at run time (Range over a converted size)
    expect(outType(b)).toBe('f64[?]');
    expect(outType(win('BlackmanWindow', { output_datatype: A.int(11) }))).toBe('f64[10]');
  });

  it('an output_datatype with no whole-byte numeric type is refused', () => {
    expect(fails(() => convertModel(win('HannWindow', { output_datatype: A.int(8) })))).toMatch(/output_datatype/);
  });
});

describe('MatMulInteger, ConvInteger, QLinearConv', () => {
  it('MatMulInteger is an int32 MatMul of the shifted operands; a per-row a_zero_point is unsqueezed', () => {
    const m = onnxModel(10, 'MatMulInteger', (b) => [b.input('a', 'u8', [4, 3]), b.input('b', 'u8', [3, 2]), b.input('az', 'u8', [4]), b.input('bz', 'u8', [2])]);
    const ir = convertModel(m);
    expect(ops(ir)).toEqual(['Convert', 'Convert', 'Unsqueeze', 'Subtract', 'Convert', 'Convert', 'Subtract', 'MatMul']);
    expect(outType(ir)).toBe('i32[4,2]');
  });

  it('ConvInteger is an int32 Convolution (GroupConvolution with group > 1)', () => {
    const m = (group: number) => onnxModel(10, 'ConvInteger', (b) => [b.input('x', 'u8', [1, 2, 5, 5]), b.input('w', 'u8', [2, 2 / group, 3, 3]), b.input('xz', 'u8', [])],
      { group: A.int(group), pads: A.ints([1, 1, 1, 1]) });
    expect(ops(convertModel(m(1)))).toEqual(['Convert', 'Convert', 'Subtract', 'Convert', 'Convolution']);
    expect(outType(m(1))).toBe('i32[1,2,5,5]');
    expect(ops(convertModel(m(2)))).toContain('GroupConvolution');
    expect(outType(convertModel(m(2)))).toBe('i32[1,2,5,5]');
  });

  it('QLinearConv dequantizes, convolves in f32, adds the scaled bias and quantizes to y_zero_point\'s type', () => {
    const m = onnxModel(10, 'QLinearConv', (b) => [
      b.input('x', 'u8', [1, 1, 4, 4]), b.input('xs', 'f32', []), b.input('xz', 'u8', []),
      b.input('w', 'u8', [2, 1, 2, 2]), b.input('ws', 'f32', [2]), b.input('wz', 'u8', [2]),
      b.input('ys', 'f32', []), b.input('yz', 'i8', []), b.input('bias', 'i32', [2]),
    ]);
    expect(outType(m)).toBe('i8[1,2,3,3]');
    const ir = convertModel(m);
    expect(ops(ir)).toEqual(expect.arrayContaining(['Convolution', 'FakeQuantize', 'Add']));
    expect(outType(ir)).toBe('i8[1,2,3,3]');
  });
});

describe('Cast / CastLike to float8: saturate', () => {
  const cast = (opset: number, attrs: Record<string, Attr>, from: 'f32' | 'i32' = 'f32') => onnxModel(opset, 'Cast', (b) => [b.input('x', from, [4])], attrs);

  it('saturate=0 is a plain Convert (OpenVINO\'s Convert to f8 does not saturate); the default saturates, keeping NaN', () => {
    expect(ops(convertModel(cast(19, { to: A.int(17), saturate: A.int(0) })))).toEqual(['Convert']);
    expect(ops(convertModel(cast(19, { to: A.int(17) })))).toEqual(['Clamp', 'IsNaN', 'Select', 'Convert']);
    expect(ops(convertModel(cast(19, { to: A.int(19) }, 'i32')))).toEqual(['Clamp', 'Convert']);
    const clamp = convertModel(cast(19, { to: A.int(19) })).graph.nodes[0]!;
    expect([clamp.attrs.get('min'), clamp.attrs.get('max')]).toEqual([A.raw('-57344'), A.raw('57344')]);
    // other targets: saturate does not apply
    expect(ops(convertModel(cast(19, { to: A.int(10) })))).toEqual(['Convert']);
  });

  it('IR → ONNX: a Convert to f8 is a Cast with saturate=0; other Converts keep the default', () => {
    const back = (m: Model) => convertModel(convertModel(m, {}), { opset: 21 }).graph.nodes.filter((n) => n.op === 'Cast').map((n) => n.attrs.get('saturate') ?? null);
    expect(back(cast(19, { to: A.int(17), saturate: A.int(0) }))).toEqual([A.int(0)]);
    expect(back(cast(19, { to: A.int(1) }))).toEqual([null]);
  });

  it('CastLike takes the target type from its second operand', () => {
    const m = (attrs: Record<string, Attr>) => onnxModel(19, 'CastLike', (b) => [b.input('x', 'f32', [4]), b.input('like', 'f8e5m2', [1])], attrs);
    expect(ops(convertModel(m({ saturate: A.int(0) })))).toEqual(['ConvertLike']);
    expect(ops(convertModel(m({})))).toEqual(['Clamp', 'IsNaN', 'Select', 'ConvertLike']);
  });
});

describe('QuantizeLinear / DequantizeLinear: float8 targets and block quantization', () => {
  it('QuantizeLinear to f8 divides by the scale, saturates (unless saturate=0) and converts', () => {
    const q = (attrs: Record<string, Attr>) => onnxModel(21, 'QuantizeLinear', (b) => [b.input('x', 'f32', [5]), b.input('s', 'f32', []), b.input('z', 'f8e4m3', [1])], attrs);
    const ir = convertModel(q({}));
    expect(ops(ir)).toEqual(['Divide', 'Convert', 'Add', 'Clamp', 'IsNaN', 'Select', 'Convert']);
    expect(outType(ir)).toBe('f8e4m3[5]');
    expect(ops(convertModel(q({ saturate: A.int(0) })))).toEqual(['Divide', 'Convert', 'Add', 'Convert']);
  });

  it('a blocked scale is repeated block_size times along the axis (and cut where the block does not divide the dim)', () => {
    const dq = (xDims: number[], sDims: number[]) => onnxModel(21, 'DequantizeLinear', (b) => [b.input('x', 'i8', xDims), b.input('s', 'f32', sDims)], { axis: A.int(1), block_size: A.int(2) });
    const ir = convertModel(dq([3, 4], [3, 2]));
    expect(ops(ir)).toEqual(['Unsqueeze', 'Broadcast', 'Reshape', 'Convert', 'Multiply']);
    expect(outType(ir)).toBe('f32[3,4]');
    expect(ops(convertModel(dq([3, 5], [3, 3])))).toContain('Slice');
    expect(outType(convertModel(dq([3, 5], [3, 3])))).toBe('f32[3,5]');
    expect(fails(() => convertModel(dq([3, 4], [3, 3])))).toMatch(/does not block x \[3,4\] by 2 along axis 1/);
  });
});

describe('STFT ⇄ STFT-15', () => {
  const stft = (withWindow: boolean, attrs: Record<string, Attr> = {}) => onnxModel(17, 'STFT', (b) => [
    b.input('signal', 'f32', [1, 128, 1]), b.init('step', tensorFromInt64([8], [])),
    withWindow ? b.input('window', 'f32', [16]) : null, ...(withWindow ? [] : [b.init('len', tensorFromInt64([16], []))]),
  ], attrs);

  it('the real signal loses its trailing dim; an absent window is ones of frame_length', () => {
    const ir = convertModel(stft(false));
    expect(ops(ir)).toEqual(['Squeeze', 'Reshape', 'Reshape', 'Broadcast', 'Reshape', 'STFT']);
    expect(outType(stft(false))).toBe('f32[1,15,9,2]');
    expect(outType(ir)).toBe('f32[1,15,9,2]');
    expect(ops(convertModel(stft(true)))).toEqual(['Squeeze', 'ShapeOf', 'Reshape', 'Reshape', 'STFT']);
  });

  it('onesided = 0 is refused (OpenVINO\'s STFT is one-sided)', () => {
    expect(fails(() => convertModel(stft(true, { onesided: A.int(0) })))).toMatch(/'onesided' = 0/);
  });

  it('IR → ONNX: the signal gains its trailing dim, transpose_frames is a Transpose; a window shorter than frame_size is refused', () => {
    const ir = (window: number, transpose: string) => {
      const b = new Builder('ov');
      const ins = [b.input('signal', 'f32', [2, 64]), b.input('window', 'f32', [window]), b.init('size', tensorFromInt64([16], [])), b.init('step', tensorFromInt64([4], []))];
      b.output(b.op(b.graph, 'STFT', ins, 'y', { transpose_frames: A.raw(transpose) }, { version: 'opset15' }));
      return b.model;
    };
    expect(outType(ir(16, 'true'))).toBe('f32[2,9,13,2]');
    const back = convertModel(ir(16, 'true'), { opset: 17 });
    expect(ops(back)).toEqual(['Unsqueeze', 'STFT', 'Transpose']);
    expect(outType(back)).toBe('f32[2,9,13,2]');
    expect(fails(() => convertModel(ir(12, 'false'), { opset: 17 }))).toMatch(/window length and frame_size must be known equal/);
  });
});
