import { describe, expect, it } from 'vitest';
import { typedScalar } from '../../mappings/typed-consts.js';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, verifyGraph, type Attr, type ElementTypeName, type Model } from '../../src/graph/index.js';
import type { Shape } from '../../src/graph/shape.js';
import { makeTensor, type Tensor } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { inferTypes } from '../../src/shape/infer.js';
import { Builder } from './builder.js';

/**
 * ONNX → IR of onnxruntime's com.microsoft quantization contrib ops (mappings/quantization/ms-*.ts):
 * what the IR holds, the types inference gives the ONNX node, and what is refused (a coded
 * diagnostic naming the node). The numbers are judged by the engines in
 * test/conformance/contrib-ops.test.ts (onnxruntime on the model, OpenVINO on ovir's IR).
 */
const MS = 'com.microsoft';

type In = { name: string; elem: ElementTypeName; shape: Shape } | { name: string; const: number; elem: ElementTypeName } | { name: string; tensor: Tensor } | null;

function model(op: string, ins: In[], attrs: Record<string, Attr> = {}, outputs = 1): Model {
  const b = new Builder('onnx', 17);
  b.model.onnx!.opsetImports.set(MS, 1);
  const n = b.graph.addNode({ dialect: 'onnx', op, domain: MS, version: '1', name: op.toLowerCase() });
  for (const i of ins) {
    let v: Value | null = null;
    if (i && 'const' in i) v = b.init(i.name, typedScalar(i.elem, i.const)!);
    else if (i && 'tensor' in i) v = b.init(i.name, i.tensor);
    else if (i) v = b.input(i.name, i.elem, i.shape);
    n.addInput(v);
  }
  for (const [k, a] of Object.entries(attrs)) n.attrs.set(k, a);
  for (let k = 0; k < outputs; k++) b.output(n.addOutput(null, [k === 0 ? 'Y' : `Y${k}`]));
  return b.model;
}
const x = (name: string, elem: ElementTypeName, shape: Shape): In => ({ name, elem, shape });
const s = (name: string, v = 0.05): In => ({ name, const: v, elem: 'f32' });
const z = (name: string, elem: ElementTypeName, v = 3): In => ({ name, const: v, elem });
const ops = (m: Model) => [...allNodes(m.graph)].map((n) => n.op);
const refusal = (m: Model): string[] => {
  try { convertModel(m); return []; } catch (e) {
    if (!(e instanceof OvirError)) throw e;
    return e.diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`);
  }
};
const converted = (m: Model): Model => {
  const ir = convertModel(m);
  expect(verifyGraph(ir.graph)).toEqual([]);
  return ir;
};
const outType = (m: Model) => m.graph.outputs[0]!.type;

const binaryIns = (elem: ElementTypeName, a: Shape, b: Shape): In[] =>
  [x('A', elem, a), s('as'), z('az', elem), x('B', elem, b), s('bs'), z('bz', elem), s('cs', 0.1), z('cz', elem)];

describe('QLinearAdd / QLinearMul', () => {
  it.each(['QLinearAdd', 'QLinearMul'])('%s: both operands dequantized, the float op, requantized with Round half to even and Clamp', (op) => {
    const ir = converted(model(op, binaryIns('u8', [2, 3], [3])));
    expect(ops(ir)).toEqual(expect.arrayContaining([op === 'QLinearAdd' ? 'Add' : 'Multiply', 'Divide', 'Round', 'Clamp', 'Convert']));
    expect(ops(ir)).not.toContain(op);
    expect(outType(ir)).toMatchObject({ elem: 'u8', shape: [2, 3] });
  });
  it('ONNX-side inference broadcasts A and B and keeps A\'s type', () => {
    const m = model('QLinearAdd', binaryIns('i8', [4, 1], [1, 5]));
    const r = inferTypes(m);
    expect(r.diagnostics).toEqual([]);
    expect(r.types.get(m.graph.outputs[0]!)).toMatchObject({ elem: 'i8', shape: [4, 5] });
  });
  it('absent zero points are 0: no Subtract for A, no Add for C', () => {
    const ir = converted(model('QLinearMul', [x('A', 'i8', [4]), s('as'), null, x('B', 'i8', [4]), s('bs'), null, s('cs')]));
    expect(ops(ir)).not.toContain('Subtract');
    expect(ops(ir).filter((o) => o === 'Add')).toEqual([]);
    expect(outType(ir)).toMatchObject({ elem: 'i8', shape: [4] });
  });
  it('refuses int32 operands, naming the node', () => {
    const r = refusal(model('QLinearAdd', binaryIns('i32', [2], [2])));
    expect(r.join('\n')).toMatch(/^CONVERT_OP main\/qlinearadd: .*uint8 or int8/);
  });
  it('refuses operands of two types', () => {
    const ins = binaryIns('u8', [2], [2]);
    ins[3] = x('B', 'i8', [2]);
    expect(refusal(model('QLinearAdd', ins)).join('\n')).toMatch(/main\/qlinearadd: .*A is u8 and B i8/);
  });
});

describe('QLinearSigmoid / QLinearLeakyRelu', () => {
  const ins = (elem: ElementTypeName): In[] => [x('X', elem, [2, 8]), s('xs'), z('xz', elem), s('ys', 1 / 256), z('yz', elem, 0)];
  it('QLinearSigmoid is Sigmoid between dequantize and requantize', () => {
    const ir = converted(model('QLinearSigmoid', ins('u8')));
    expect(ops(ir)).toEqual(expect.arrayContaining(['Sigmoid', 'Round', 'Clamp']));
    expect(outType(ir)).toMatchObject({ elem: 'u8', shape: [2, 8] });
  });
  it('QLinearLeakyRelu is Select(x ≥ 0, x, alpha·x), alpha read from the node', () => {
    const ir = converted(model('QLinearLeakyRelu', ins('i8'), { alpha: A.float(0.2) }));
    expect(ops(ir)).toEqual(expect.arrayContaining(['GreaterEqual', 'Select']));
    const alphas = [...ir.graph.initializers].map((v) => v.constant).filter((t) => t && t.elem === 'f32' && t.dims.length === 0 && Math.abs(new Float32Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + 4))[0]! - 0.2) < 1e-7);
    expect(alphas.length).toBe(1);
  });
  it('an attribute the op does not have is refused by name', () => {
    expect(refusal(model('QLinearSigmoid', ins('u8'), { beta: A.float(1) })).join('\n')).toMatch(/main\/qlinearsigmoid.*beta/);
  });
});

describe('QLinearConcat', () => {
  it('each X is dequantized with its own scale and zero point, concatenated along axis, requantized', () => {
    const ir = converted(model('QLinearConcat', [s('ys'), z('yz', 'u8'), x('X0', 'u8', [2, 3]), s('s0'), z('z0', 'u8'), x('X1', 'u8', [2, 5]), s('s1', 0.02), z('z1', 'u8', 7)], { axis: A.int(-1) }));
    expect(ops(ir)).toContain('Concat');
    expect(outType(ir)).toMatchObject({ elem: 'u8', shape: [2, 8] });
  });
  it('inputs that are not (X, scale, zero point) triples are refused', () => {
    const r = refusal(model('QLinearConcat', [s('ys'), z('yz', 'u8'), x('X0', 'u8', [2, 3]), s('s0')], { axis: A.int(0) }));
    expect(r.join('\n')).toMatch(/main\/qlinearconcat: .*triples/);
  });
});

describe('QLinearGlobalAveragePool / QLinearAveragePool', () => {
  const ins = (shape: Shape): In[] => [x('X', 'u8', shape), s('xs'), z('xz', 'u8'), s('ys'), z('yz', 'u8')];
  it('QLinearGlobalAveragePool is ReduceMean over the spatial dims (channels_last: between N and C)', () => {
    expect(outType(converted(model('QLinearGlobalAveragePool', ins([2, 3, 5, 5]))))).toMatchObject({ elem: 'u8', shape: [2, 3, 1, 1] });
    const last = converted(model('QLinearGlobalAveragePool', ins([2, 5, 5, 3]), { channels_last: A.int(1) }));
    expect(ops(last)).toContain('ReduceMean');
    expect(outType(last)).toMatchObject({ shape: [2, 1, 1, 3] });
  });
  it('QLinearAveragePool is AvgPool; channels_last puts it between Transposes', () => {
    const attrs = { kernel_shape: A.ints([3, 3]), strides: A.ints([2, 2]), pads: A.ints([1, 1, 1, 1]) };
    const ir = converted(model('QLinearAveragePool', ins([1, 3, 9, 9]), attrs));
    expect(ops(ir)).toContain('AvgPool');
    expect(outType(ir)).toMatchObject({ shape: [1, 3, 5, 5] });
    const last = converted(model('QLinearAveragePool', ins([1, 9, 9, 3]), { ...attrs, channels_last: A.int(1) }));
    expect(ops(last).filter((o) => o === 'Transpose')).toHaveLength(2);
    expect(outType(last)).toMatchObject({ shape: [1, 5, 5, 3] });
  });
  it('ONNX-side inference of QLinearAveragePool with channels_last', () => {
    const m = model('QLinearAveragePool', ins([1, 9, 9, 3]), { kernel_shape: A.ints([3, 3]), strides: A.ints([2, 2]), channels_last: A.int(1) });
    const r = inferTypes(m);
    expect(r.diagnostics).toEqual([]);
    expect(r.types.get(m.graph.outputs[0]!)).toMatchObject({ elem: 'u8', shape: [1, 4, 4, 3] });
  });
  it('a kernel of another rank than X\'s spatial dims is refused', () => {
    expect(refusal(model('QLinearAveragePool', ins([1, 3, 9, 9]), { kernel_shape: A.ints([3]) })).join('\n')).toMatch(/main\/qlinearaveragepool: .*kernel_shape/);
  });
});

describe('QLinearSoftmax', () => {
  const ins: In[] = [x('X', 'u8', [2, 3, 4]), s('xs'), z('xz', 'u8'), s('ys', 1 / 256), z('yz', 'u8', 0)];
  it('opset 13 and later: Softmax over axis', () => {
    const ir = converted(model('QLinearSoftmax', ins, { axis: A.int(1), opset: A.int(13) }));
    expect(ops(ir)).toContain('Softmax');
    expect(ops(ir)).not.toContain('Reshape');
  });
  it('before opset 13 over an inner axis: X coerced to 2-D at axis and reshaped back', () => {
    const ir = converted(model('QLinearSoftmax', ins, { axis: A.int(1), opset: A.int(12) }));
    expect(ops(ir).filter((o) => o === 'Reshape')).toHaveLength(2);
    expect(outType(ir)).toMatchObject({ elem: 'u8', shape: [2, 3, 4] });
  });
  it('without the required opset attribute: refused', () => {
    expect(refusal(model('QLinearSoftmax', ins)).join('\n')).toMatch(/main\/qlinearsoftmax: .*opset/);
  });
});


describe('QLinearReduceMean', () => {
  const ins: In[] = [x('data', 'i8', [2, 3, 4, 5]), s('ds'), z('dz', 'i8'), s('rs', 0.02), z('rz', 'i8', -2)];
  it('Dequantize(data) → ReduceMean over axes → Quantize (round half to even, saturate) as reduced_zero_point\'s type', () => {
    const ir = converted(model('QLinearReduceMean', ins, { axes: A.ints([2n, -1n]), keepdims: A.int(1) }));
    expect(ops(ir)).toEqual(['Convert', 'Convert', 'Subtract', 'Multiply', 'ReduceMean', 'Divide', 'Round', 'Convert', 'Add', 'Clamp', 'Convert']);
    expect(outType(ir)).toMatchObject({ elem: 'i8', shape: [2, 3, 1, 1] });
    const m = model('QLinearReduceMean', ins, { axes: A.ints([1n]), keepdims: A.int(0) });
    expect(inferTypes(m).types.get(m.graph.outputs[0]!)).toMatchObject({ elem: 'i8', shape: [2, 4, 5] });
  });
  it('axes and keepdims are required; an axis out of range is refused, naming the node', () => {
    expect(refusal(model('QLinearReduceMean', ins, { axes: A.ints([1n]) })).join('\n')).toMatch(/main\/qlinearreducemean: .*keepdims is required/);
    expect(refusal(model('QLinearReduceMean', ins, { keepdims: A.int(1) })).join('\n')).toMatch(/main\/qlinearreducemean: .*axes is required/);
    expect(refusal(model('QLinearReduceMean', ins, { axes: A.ints([4n]), keepdims: A.int(1) })).join('\n')).toMatch(/'axes' = 4 is not supported \(out of range for rank 4\)/);
  });
});

describe('QAttention', () => {
  // input u8 [B, S, D], weight i8 [D, 3H], bias f32 [3H], input_scale, weight_scale, mask_index?, input_zero_point?, weight_zero_point?, past?
  const ins = (more: In[] = []): In[] => [x('input', 'u8', [2, 5, 8]), x('weight', 'i8', [8, 24]), x('bias', 'f32', [24]), s('is', 0.02), s('ws', 0.01), ...more];
  it('the projection is an exact int32 MatMul of (input − zp)(weight − zp), times input_scale · weight_scale, plus bias; then Attention', () => {
    const ir = converted(model('QAttention', ins([x('mask', 'i32', [2]), z('izp', 'u8', 128), z('wzp', 'i8', 1)]), { num_heads: A.int(2) }));
    const nodes = [...allNodes(ir.graph)];
    const mm = nodes.find((n) => n.op === 'MatMul')!;
    expect(mm.inputs.map((v) => v?.type)).toMatchObject([{ elem: 'i32' }, { elem: 'i32' }]);
    expect(ops(ir)).toEqual(expect.arrayContaining(['Subtract', 'Softmax']));
    expect(outType(ir)).toMatchObject({ elem: 'f32', shape: [2, 5, 8] });
  });
  it('ONNX-side inference: output [B, S, hidden], present [2, B, N, past + S, head] of the bias\'s type', () => {
    const m = model('QAttention', ins([null, null, null, x('past', 'f32', [2, 2, 2, 3, 4])]), { num_heads: A.int(2) }, 2);
    const r = inferTypes(m);
    expect(r.diagnostics).toEqual([]);
    expect(m.graph.outputs.map((o) => r.types.get(o))).toMatchObject([{ elem: 'f32', shape: [2, 5, 8] }, { elem: 'f32', shape: [2, 2, 2, 8, 4] }]);
  });
  it('refuses a float input, a per-column input_scale and do_rotary, naming the node', () => {
    expect(refusal(model('QAttention', [x('input', 'f32', [2, 5, 8]), ...ins().slice(1)], { num_heads: A.int(2) })).join('\n')).toMatch(/main\/qattention: .*input \(input 0\) is f32/);
    expect(refusal(model('QAttention', [...ins().slice(0, 3), x('is', 'f32', [3]), s('ws')], { num_heads: A.int(2) })).join('\n')).toMatch(/input_scale \(input 3\) must be a scalar/);
    expect(refusal(model('QAttention', ins(), { num_heads: A.int(2), do_rotary: A.int(1) })).join('\n')).toMatch(/'do_rotary' = 1 is not supported/);
  });
});

describe('QEmbedLayerNormalization', () => {
  const ins = (seg = true): In[] => [x('ids', 'i32', [2, 6]), seg ? x('seg', 'i32', [2, 6]) : null, x('word', 'u8', [20, 8]), x('pos', 'u8', [9, 8]), seg ? x('segemb', 'u8', [3, 8]) : null,
    x('gamma', 'u8', [8]), x('beta', 'u8', [8]), x('mask', 'i32', [2, 6]), s('ws'), s('ps'), seg ? s('ss') : null, s('gs'), s('bs'),
    z('wz', 'u8', 128), z('pz', 'u8', 127), seg ? z('sz', 'u8', 120) : null, z('gz', 'u8', 100), z('bz', 'u8', 128)];
  it('the tables dequantized ((q − zp) · scale), gathered and summed, MVN · gamma + beta; mask_index counts the mask\'s 1s', () => {
    const ir = converted(model('QEmbedLayerNormalization', ins(), {}, 2));
    expect(ops(ir)).toEqual(expect.arrayContaining(['Gather', 'MVN', 'Equal', 'ReduceSum', 'Range']));
    expect(ops(ir).filter((o) => o === 'Subtract')).toHaveLength(5);
    expect(ir.graph.outputs.map((o) => o.type)).toMatchObject([{ elem: 'f32', shape: [2, 6, 8] }, { elem: 'i32', shape: [2] }]);
    const gathers = (m: Model) => ops(m).filter((o) => o === 'Gather').length;
    expect(gathers(converted(model('QEmbedLayerNormalization', ins(false), {}, 2)))).toBe(gathers(ir) - 1); // no segment table
  });
  it('refuses tables of two quantized types and a zero point of another type, naming the node', () => {
    const mixed = ins();
    mixed[3] = x('pos', 'i8', [9, 8]);
    expect(refusal(model('QEmbedLayerNormalization', mixed, {}, 2)).join('\n')).toMatch(/main\/qembedlayernormalization: .*input 3 is i8 and word_embedding_quant u8/);
    const zp = ins();
    zp[16] = z('gz', 'i8', 0);
    expect(refusal(model('QEmbedLayerNormalization', zp, {}, 2)).join('\n')).toMatch(/input 16 \(the zero point of input 5\) must be given, of u8/);
  });
});

describe('MatMulIntegerToFloat / DynamicQuantizeMatMul / QGemm', () => {
  it('MatMulIntegerToFloat: an int32 MatMul of the shifted operands, times a_scale·b_scale, plus bias', () => {
    const ir = converted(model('MatMulIntegerToFloat', [x('A', 'u8', [2, 3, 16]), x('B', 'i8', [16, 8]), s('as'), s('bs'), z('az', 'u8'), z('bz', 'i8'), x('bias', 'f32', [8])]));
    expect(ops(ir)).toEqual(expect.arrayContaining(['MatMul', 'Subtract', 'Multiply', 'Add']));
    expect(outType(ir)).toMatchObject({ elem: 'f32', shape: [2, 3, 8] });
  });
  it('MatMulIntegerToFloat refuses a 2-D b_scale', () => {
    const r = refusal(model('MatMulIntegerToFloat', [x('A', 'u8', [2, 16]), x('B', 'u8', [16, 8]), s('as'), x('bs', 'f32', [1, 8])]));
    expect(r.join('\n')).toMatch(/^CONVERT_OP main\/matmulintegertofloat: .*input 3 must be a scalar or 1-D/);
  });
  it('DynamicQuantizeMatMul quantizes A over the whole tensor (ReduceMin/Max, a scale of 1 for an all-zero A) before the int32 MatMul', () => {
    const ir = converted(model('DynamicQuantizeMatMul', [x('A', 'f32', [4, 16]), x('B', 'u8', [16, 8]), s('bs'), z('bz', 'u8')]));
    expect(ops(ir)).toEqual(expect.arrayContaining(['ReduceMin', 'ReduceMax', 'Equal', 'Select', 'Round', 'Clamp', 'MatMul']));
    expect(outType(ir)).toMatchObject({ elem: 'f32', shape: [4, 8] });
  });
  it('DynamicQuantizeMatMul refuses a float16 A', () => {
    expect(refusal(model('DynamicQuantizeMatMul', [x('A', 'f16', [4, 16]), x('B', 'u8', [16, 8]), s('bs')])).join('\n')).toMatch(/main\/dynamicquantizematmul: .*A must be float/);
  });
  it('QGemm with y_zero_point requantizes to its type; without, gives float', () => {
    const base: In[] = [x('A', 'u8', [16, 4]), s('as'), z('az', 'u8'), x('B', 'i8', [8, 16]), s('bs'), z('bz', 'i8'), x('C', 'i32', [8])];
    const q = converted(model('QGemm', [...base, s('ys'), z('yz', 'u8')], { transA: A.int(1), transB: A.int(1), alpha: A.float(0.5) }));
    expect(ops(q)).toEqual(expect.arrayContaining(['MatMul', 'Round', 'Clamp']));
    expect(outType(q)).toMatchObject({ elem: 'u8', shape: [4, 8] });
    const f = converted(model('QGemm', base, { transA: A.int(1), transB: A.int(1) }));
    expect(ops(f)).not.toContain('Round');
    expect(outType(f)).toMatchObject({ elem: 'f32' });
  });
  it('QGemm refuses a float C', () => {
    const r = refusal(model('QGemm', [x('A', 'u8', [4, 16]), s('as'), z('az', 'u8'), x('B', 'u8', [16, 8]), s('bs'), z('bz', 'u8'), x('C', 'f32', [8])]));
    expect(r.join('\n')).toMatch(/main\/qgemm: .*C is f32/);
  });
});

describe('com.microsoft QuantizeLinear / DequantizeLinear', () => {
  it('QuantizeLinear rounds half to even and saturates to the zero point\'s type (16-bit too)', () => {
    const ir = converted(model('QuantizeLinear', [x('X', 'f32', [2, 3]), s('ys'), z('yz', 'i16', 100)]));
    expect(ops(ir)).toEqual(expect.arrayContaining(['Divide', 'Round', 'Clamp', 'Convert']));
    expect(ops(ir)).not.toContain('FakeQuantize');
    expect(outType(ir)).toMatchObject({ elem: 'i16', shape: [2, 3] });
  });
  it('QuantizeLinear without a zero point gives uint8; a per-axis scale is unsqueezed along axis', () => {
    expect(outType(converted(model('QuantizeLinear', [x('X', 'f32', [2, 3]), s('ys')])))).toMatchObject({ elem: 'u8' });
    const ir = converted(model('QuantizeLinear', [x('X', 'f32', [2, 3, 4]), x('ys', 'f32', [3]), x('yz', 'u8', [3])], { axis: A.int(1) }));
    expect(ops(ir)).toContain('Unsqueeze');
  });
  it('QuantizeLinear refuses an int32 zero point', () => {
    expect(refusal(model('QuantizeLinear', [x('X', 'f32', [2]), s('ys'), z('yz', 'i32')])).join('\n')).toMatch(/main\/quantizelinear: .*y_zero_point is i32/);
  });
  it('DequantizeLinear is (x - zp) · scale of the scale\'s type', () => {
    const ir = converted(model('DequantizeLinear', [x('X', 'i16', [2, 3]), s('xs'), z('xz', 'i16')]));
    expect(ops(ir)).toEqual(expect.arrayContaining(['Convert', 'Subtract', 'Multiply']));
    expect(outType(ir)).toMatchObject({ elem: 'f32', shape: [2, 3] });
  });
});

describe('MatMulNBits', () => {
  // K 40 in blocks of 16 (3 blocks, the last padded), N 8, 4 bits: B [8, 3, 8] bytes, zero points [8 · 2] bytes
  const attrs = { K: A.int(40), N: A.int(8), block_size: A.int(16), bits: A.int(4) };
  const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, k) => (k * 37) % 256);
  const ins = (b: In = { name: 'B', tensor: makeTensor('u8', [8, 3, 8], bytes(192)) }): In[] =>
    [x('A', 'f32', [2, 40]), b, x('scales', 'f32', [24]), { name: 'zp', tensor: makeTensor('u8', [16], bytes(16)) }, null, x('bias', 'f32', [8])];
  it('a constant B is the same bytes as a u4 constant, dequantized per block, cut to K, MatMul with transpose_b', () => {
    const ir = converted(model('MatMulNBits', ins(), attrs));
    const u4 = [...ir.graph.initializers].map((v) => v.constant).filter((t) => t?.elem === 'u4');
    expect(u4.map((t) => t!.dims)).toEqual(expect.arrayContaining([[8, 3, 16], [8, 4]]));
    expect(ops(ir)).toEqual(expect.arrayContaining(['Convert', 'Subtract', 'Multiply', 'Slice', 'MatMul', 'Add']));
    expect(ops(ir)).not.toContain('FloorMod');
    expect(outType(ir)).toMatchObject({ elem: 'f32', shape: [2, 8] });
  });
  it('a B computed at run time is unpacked with Divide and FloorMod, low bits first', () => {
    const ir = converted(model('MatMulNBits', ins(x('B', 'u8', [8, 3, 8])), attrs));
    expect(ops(ir)).toContain('FloorMod');
  });
  it('ONNX-side inference: A\'s dims but the last, then N', () => {
    const m = model('MatMulNBits', [x('A', 'f16', [1, 5, 40]), x('B', 'u8', [8, 3, 8]), x('scales', 'f16', [24])], attrs);
    const r = inferTypes(m);
    expect(r.types.get(m.graph.outputs[0]!)).toMatchObject({ elem: 'f16', shape: [1, 5, 8] });
  });
  it('g_idx: each column k takes block g_idx[k]\'s scale and zero point (Gather along the blocks), the values in their order', () => {
    const withGidx = ins();
    withGidx[3] = x('zp', 'f32', [24]);
    withGidx[4] = x('g_idx', 'i32', [40]);
    const ir = converted(model('MatMulNBits', withGidx, attrs));
    expect(ops(ir).filter((o) => o === 'Gather')).toHaveLength(2);
    expect(outType(ir)).toMatchObject({ elem: 'f32', shape: [2, 8] });
    const noZp = [...withGidx];
    noZp[3] = null;
    expect(ops(converted(model('MatMulNBits', noZp, attrs))).filter((o) => o === 'Gather')).toHaveLength(1);
  });
  it('refuses g_idx with packed uint8 zero points (onnxruntime ignores them there) or 2-bit weights (it reads them as 4-bit), 3-bit weights and prepacked weights, naming the node', () => {
    const withGidx = ins();
    withGidx[4] = x('g_idx', 'i32', [40]);
    expect(refusal(model('MatMulNBits', withGidx, attrs)).join('\n')).toMatch(/main\/matmulnbits: .*g_idx with packed uint8 zero_points is not converted/);
    const twoBit = [...withGidx];
    twoBit[3] = null;
    expect(refusal(model('MatMulNBits', twoBit, { ...attrs, bits: A.int(2) })).join('\n')).toMatch(/g_idx with 2-bit weights is not converted: onnxruntime's CPU kernel reads 2-bit B as 4-bit values/);
    expect(refusal(model('MatMulNBits', ins(), { ...attrs, bits: A.int(3) })).join('\n')).toMatch(/CONVERT_UNSUPPORTED_ATTR main\/matmulnbits: .*'bits' = 3/);
    expect(refusal(model('MatMulNBits', ins(), { ...attrs, weight_prepacked: A.int(1) })).join('\n')).toMatch(/main\/matmulnbits: .*weight_prepacked/);
  });
});

describe('QLinearWhere', () => {
  const ins = (elem: ElementTypeName): In[] => [x('cond', 'boolean', [2, 1]), x('X', elem, [2, 4]), s('xs'), z('xz', elem), x('Y', elem, [4]), s('ys', 0.02), z('yz', elem, 5), s('zs', 0.03), z('zz', elem, 1)];
  it('selects between the dequantized X and Y, requantized to z\'s parameters', () => {
    const ir = converted(model('QLinearWhere', ins('i8')));
    expect(ops(ir)).toEqual(expect.arrayContaining(['Select', 'Round', 'Clamp']));
    expect(outType(ir)).toMatchObject({ elem: 'i8', shape: [2, 4] });
  });
  it('refuses fewer than nine inputs', () => {
    expect(refusal(model('QLinearWhere', ins('u8').slice(0, 7))).join('\n')).toMatch(/main\/qlinearwhere: .*takes 9/);
  });
});

describe('com.microsoft QLinearConv', () => {
  const ins: In[] = [x('X', 'u8', [1, 7, 7, 4]), s('xs'), z('xz', 'u8'), { name: 'w', tensor: makeTensor('i8', [6, 4, 3, 3], new Uint8Array(216).fill(3)) }, s('ws'), z('wz', 'i8', 0), s('ys'), z('yz', 'u8')];
  it('channels_last: the ai.onnx QLinearConv between Transposes to channels first and back', () => {
    const ir = converted(model('QLinearConv', ins, { channels_last: A.int(1), pads: A.ints([1, 1, 1, 1]), strides: A.ints([2, 2]) }));
    expect(ops(ir).filter((o) => o === 'Transpose')).toHaveLength(2);
    expect(ops(ir)).toContain('Convolution');
    expect(outType(ir)).toMatchObject({ elem: 'u8', shape: [1, 4, 4, 6] });
  });
  it('ONNX-side inference keeps the channels last', () => {
    const m = model('QLinearConv', ins, { channels_last: A.int(1), pads: A.ints([1, 1, 1, 1]), strides: A.ints([2, 2]) });
    const r = inferTypes(m);
    expect(r.diagnostics).toEqual([]);
    expect(r.types.get(m.graph.outputs[0]!)).toMatchObject({ elem: 'u8', shape: [1, 4, 4, 6] });
  });
  it('refuses channels_last = 2', () => {
    expect(refusal(model('QLinearConv', ins, { channels_last: A.int(2) })).join('\n')).toMatch(/CONVERT_UNSUPPORTED_ATTR main\/qlinearconv: .*channels_last/);
  });
});

describe('DynamicQuantizeLSTM', () => {
  // quantize_dynamic's form: W [dirs, input, 4H], R [dirs, H, 4H] int8, per-direction scales and zero points
  const ins = (dirs: number, extra: In[] = []): In[] => [x('X', 'f32', [5, 1, 3]), { name: 'W', tensor: makeTensor('i8', [dirs, 3, 16], bytes(dirs * 48)) },
    { name: 'R', tensor: makeTensor('i8', [dirs, 4, 16], bytes(dirs * 64)) }, x('B', 'f32', [dirs, 32]), null, null, null, null,
    x('W_scale', 'f32', [dirs]), { name: 'W_zero_point', tensor: makeTensor('i8', [dirs], new Uint8Array(dirs)) },
    x('R_scale', 'f32', [dirs]), { name: 'R_zero_point', tensor: makeTensor('i8', [dirs], new Uint8Array(dirs)) }, ...extra];
  const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, k) => (k * 29) % 256);
  it('one Loop-5 per direction; X quantized once, H at every step, by ReduceMin/Max and Round', () => {
    const ir = converted(model('DynamicQuantizeLSTM', ins(2), { hidden_size: A.int(4), direction: A.string('bidirectional') }, 3));
    const all = ops(ir);
    expect(all.filter((o) => o === 'Loop')).toHaveLength(2);
    expect(all.filter((o) => o === 'ReduceMin').length).toBeGreaterThanOrEqual(3);
    expect(ir.graph.outputs.map((o) => o.type)).toMatchObject([{ elem: 'f32', shape: [5, 2, 1, 4] }, { shape: [2, 1, 4] }, { shape: [2, 1, 4] }]);
  });
  it('ONNX-side inference gives LSTM\'s outputs, H from R when hidden_size is absent', () => {
    const m = model('DynamicQuantizeLSTM', ins(1), {}, 3);
    const r = inferTypes(m);
    expect(m.graph.outputs.map((o) => r.types.get(o))).toMatchObject([{ elem: 'f32', shape: [5, 1, 1, 4] }, { shape: [1, 1, 4] }, { shape: [1, 1, 4] }]);
  });
  it('sequence_lens: X\'s range over its first max(len) steps; steps past a row\'s length leave C, write zeros to Y and H; the reverse direction reversed within each length', () => {
    const withLens = ins(1);
    withLens[4] = x('lens', 'i32', [1]);
    const ir = converted(model('DynamicQuantizeLSTM', withLens, { hidden_size: A.int(4), direction: A.string('reverse') }, 3));
    expect(ops(ir)).toEqual(expect.arrayContaining(['ReduceMax', 'Slice', 'ReverseSequence', 'Less', 'Select']));
    expect(ops(ir).filter((o) => o === 'ReverseSequence')).toHaveLength(2);
    expect(ir.graph.outputs.map((o) => o.type)).toMatchObject([{ elem: 'f32', shape: [5, 1, 1, 4] }, { elem: 'f32', shape: [1, 1, 4] }, { elem: 'f32', shape: [1, 1, 4] }]);
    expect(ops(converted(model('DynamicQuantizeLSTM', ins(1), { hidden_size: A.int(4) }, 3)))).not.toContain('Less');
  });
  it('input_forget couples the gates: the forget gate is 1 − i', () => {
    const coupled = ops(converted(model('DynamicQuantizeLSTM', ins(1), { hidden_size: A.int(4), input_forget: A.int(1) }, 3)));
    const plain = ops(converted(model('DynamicQuantizeLSTM', ins(1), { hidden_size: A.int(4) }, 3)));
    expect(coupled.filter((o) => o === 'Sigmoid').length).toBe(plain.filter((o) => o === 'Sigmoid').length - 1);
  });
  it('refuses activations other than Sigmoid, Tanh and Relu, naming the node', () => {
    expect(refusal(model('DynamicQuantizeLSTM', ins(1), { hidden_size: A.int(4), activations: A.strings(['Sigmoid', 'Elu', 'Tanh']) }, 3)).join('\n'))
      .toMatch(/CONVERT_UNSUPPORTED_ATTR main\/dynamicquantizelstm: .*activations/);
  });
});

describe('GatherBlockQuantized', () => {
  // 10 rows of 32 4-bit values packed in uint8 [10, 16], blocks of 16 along the last dim
  const ins = (zp: boolean): In[] => [{ name: 'data', tensor: makeTensor('u8', [10, 16], Uint8Array.from({ length: 160 }, (_, k) => (k * 13) % 256)) },
    x('indices', 'i64', [2, 3]), x('scales', 'f32', [10, 2]), ...(zp ? [{ name: 'zp', tensor: makeTensor('u8', [10, 1], new Uint8Array(10).fill(0x87)) }] : [])];
  it('dequantizes the table block-wise (the packed data as a u4 constant), then Gathers', () => {
    const ir = converted(model('GatherBlockQuantized', ins(true), { block_size: A.int(16), bits: A.int(4) }));
    expect([...ir.graph.initializers].some((v) => v.constant?.elem === 'u4')).toBe(true);
    expect(ops(ir)).toEqual(expect.arrayContaining(['Broadcast', 'Subtract', 'Multiply', 'Gather']));
    expect(outType(ir)).toMatchObject({ elem: 'f32', shape: [2, 3, 32] });
  });
  it('ONNX-side inference: Gather over the unpacked dims', () => {
    const m = model('GatherBlockQuantized', ins(false), { block_size: A.int(16) });
    const r = inferTypes(m);
    expect(r.types.get(m.graph.outputs[0]!)).toMatchObject({ elem: 'f32', shape: [2, 3, 32] });
  });
  it('refuses packed data quantized along another dim than the last', () => {
    expect(refusal(model('GatherBlockQuantized', ins(false), { block_size: A.int(16), quantize_axis: A.int(0), gather_axis: A.int(1) })).join('\n'))
      .toMatch(/CONVERT_UNSUPPORTED_ATTR main\/gatherblockquantized: .*quantize_axis/);
  });
});
