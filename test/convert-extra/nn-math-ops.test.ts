import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, verifyGraph, type Attr, type ElementTypeName, type Model } from '../../src/graph/index.js';
import { Builder } from '../convert/builder.js';
import { ops, only, diags } from './graph-probes.js';

/**
 * ONNX ops OpenVINO has no op (or no form) for, written as other IR ops the way OpenVINO's ONNX
 * frontend writes them (mappings/math/{variadic,celu,legacy-broadcast,coerce-2d,gemm}.ts,
 * mappings/nn/{shrink,lp-pool,lp-normalization}.ts, mappings/tensor/{affine-grid,center-crop-pad}.ts,
 * Pow in mappings/math/elementwise.ts). These tests check the graphs; that
 * the numbers are right is judged by the engines on the ONNX backend cases
 * (test/conformance/convert-zoo.test.ts: test_sum_*, test_mean_*, test_max_*, test_min_*,
 * test_pow_types_*, test_celu, test_shrink_*, test_log_softmax_*, test_operator_add_size1_broadcast).
 */


type In = { elem?: ElementTypeName; shape: number[] };
function model(opset: number, op: string, inputs: In[], attrs: Record<string, Attr> = {}): Model {
  const b = new Builder('onnx', opset);
  const ins = inputs.map((s, i) => b.input(`x${i}`, s.elem ?? 'f32', s.shape));
  const n = b.node(b.graph, op, ins, ['y'], attrs, { name: 'n' });
  n.outputs.forEach((o) => b.output(o));
  return b.model;
}
const f = (...shape: number[]): In => ({ shape });

describe('variadic Sum / Mean / Max / Min fold the binary IR op over the inputs', () => {
  it.each([
    ['Sum', 'Add'], ['Max', 'Maximum'], ['Min', 'Minimum'],
  ])('%s of three inputs is two %s, left to right, broadcasting numpy-style', (op, ir) => {
    const m = convertModel(model(13, op, [f(2, 3), f(3), f(1, 3)]));
    expect(ops(m)).toEqual([ir, ir]);
    const [first, second] = m.graph.nodes;
    expect(second!.inputs[0]).toBe(first!.outputs[0]);
    expect(m.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [2, 3] });
    expect(verifyGraph(m.graph)).toEqual([]);
  });

  it.each(['Sum', 'Max', 'Min', 'Mean'])('%s of one input is that input', (op) => {
    const m = convertModel(model(13, op, [f(2, 3)]));
    expect(ops(m)).toEqual([]);
    expect(m.graph.outputs[0]).toBe(m.graph.inputs[0]);
  });

  it('Mean divides the sum by the input count, a constant of the inputs\' type', () => {
    const m = convertModel(model(13, 'Mean', [f(2, 3), f(2, 3), f(2, 3)]));
    expect(ops(m)).toEqual(['Add', 'Add', 'Divide']);
    const d = only(m, 'Divide').inputs[1]!.constant!;
    expect(d.elem).toBe('f32');
    expect(new Float32Array(d.data.slice().buffer)[0]).toBe(3);
  });

  it('two-input Max from opset 8 stays one Maximum (its own entry); Max-6 with two inputs folds too', () => {
    expect(ops(convertModel(model(13, 'Max', [f(2, 3), f(2, 3)])))).toEqual(['Maximum']);
    expect(ops(convertModel(model(6, 'Max', [f(2, 3), f(2, 3)])))).toEqual(['Maximum']);
  });

  it('IR → ONNX reads the folded ops back one by one', () => {
    const back = convertModel(convertModel(model(13, 'Sum', [f(2, 3), f(2, 3), f(2, 3)])), { opset: 13 });
    expect(ops(back)).toEqual(['Add', 'Add']);
  });
});

describe('Pow with an exponent of another element type: a Convert, as OpenVINO\'s frontend', () => {
  it.each([
    ['f32', 'i64', ['Convert', 'Power'], 'f32'], // integer exponent → the base's type
    ['f32', 'i32', ['Convert', 'Power'], 'f32'],
    ['i64', 'f32', ['Convert', 'Power', 'Convert'], 'i64'], // integer base, real exponent: computed in f32, back to i64
    ['i32', 'f32', ['Convert', 'Power', 'Convert'], 'i32'],
    ['f32', 'f32', ['Power'], 'f32'],
  ] as const)('base %s, exponent %s → %j of %s', (tb, te, want, out) => {
    const m = convertModel(model(15, 'Pow', [{ elem: tb, shape: [3] }, { elem: te, shape: [3] }]));
    expect(ops(m)).toEqual(want);
    expect(m.graph.outputs[0]!.type).toMatchObject({ elem: out, shape: [3] });
  });
});

describe('Celu and Shrink', () => {
  it('Celu = alpha · Elu(x / alpha, 1)', () => {
    const m = convertModel(model(12, 'Celu', [f(2, 3)], { alpha: A.float(2) }));
    expect(ops(m)).toEqual(['Divide', 'Elu', 'Multiply']);
    expect(only(m, 'Elu').attrs.get('alpha')).toEqual(A.raw('1'));
  });

  it('Shrink selects x + bias below -lambd, x - bias above lambd, else 0', () => {
    const m = convertModel(model(9, 'Shrink', [f(5)], { lambd: A.float(1.5), bias: A.float(1.5) }));
    expect(ops(m).sort()).toEqual(['Add', 'Greater', 'Less', 'Select', 'Select', 'Subtract']);
    expect(m.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [5] });
  });

  it('Shrink of integers with a fractional bias is a coded refusal naming the node and attribute', () => {
    expect(diags(() => convertModel(model(9, 'Shrink', [{ elem: 'i32', shape: [4] }], { bias: A.float(0.5) }))))
      .toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', path: 'main/n', message: expect.stringMatching(/bias/) }]);
  });
});

describe('binary ops before opset 7: broadcast / axis', () => {
  it('broadcast=1 with axis aligns B with A from axis (B gets trailing 1-dims)', () => {
    const m = convertModel(model(6, 'Add', [f(2, 3, 4, 5), f(3, 4)], { broadcast: A.int(1), axis: A.int(1) }));
    expect(ops(m)).toEqual(['Unsqueeze', 'Add']);
    expect(m.graph.outputs[0]!.type).toMatchObject({ shape: [2, 3, 4, 5] });
  });

  it.each([['Sub', 'Subtract'], ['Mul', 'Multiply'], ['Div', 'Divide'], ['Pow', 'Power']])(
    '%s broadcast=1 without axis is numpy broadcasting (trailing dims): one %s', (op, ir) => {
      expect(ops(convertModel(model(6, op, [f(2, 3), f(3)], { broadcast: A.int(1) })))).toEqual([ir]);
    });

  it.each([['And', 'LogicalAnd'], ['Or', 'LogicalOr'], ['Xor', 'LogicalXor']])('%s-1 converts to %s', (op, ir) => {
    expect(ops(convertModel(model(6, op, [{ elem: 'boolean', shape: [2, 3] }, { elem: 'boolean', shape: [3] }], { broadcast: A.int(1) })))).toEqual([ir]);
  });

  it('a B that does not fit into A from axis is a coded refusal', () => {
    expect(diags(() => convertModel(model(6, 'Add', [f(2, 3), f(3, 4)], { broadcast: A.int(1), axis: A.int(1) }))))
      .toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', path: 'main/n', message: expect.stringMatching(/axis/) }]);
  });
});

describe('LogSoftmax before opset 13 coerces to 2-D at axis', () => {
  it('over the last axis: one LogSoftmax', () => {
    expect(ops(convertModel(model(11, 'LogSoftmax', [f(2, 3, 4)], { axis: A.int(2) })))).toEqual(['LogSoftmax']);
  });

  it('elsewhere: Reshape to [-1, prod(dims from axis)], LogSoftmax over axis 1, back to x\'s shape', () => {
    const m = convertModel(model(11, 'LogSoftmax', [f(2, 3, 4)]));
    expect(ops(m)).toEqual(['ShapeOf', 'Slice', 'ReduceProd', 'Concat', 'Reshape', 'LogSoftmax', 'Reshape']);
    expect(only(m, 'LogSoftmax').attrs.get('axis')).toEqual(A.raw('1'));
    expect(m.graph.outputs[0]!.type).toMatchObject({ shape: [2, 3, 4] });
  });

  it('IR → ONNX before opset 13 only over the last axis; otherwise a refusal naming opset 13', () => {
    const ir = convertModel(model(13, 'LogSoftmax', [f(2, 3)], { axis: A.int(0) }));
    expect(diags(() => convertModel(ir, { opset: 11 }))).toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', message: expect.stringMatching(/opset 13/) }]);
  });
});

describe('LpPool: the p-th root of window sums of |x|^p (an average pool that counts padding, times the kernel size)', () => {
  it('p=3, pads: Abs · Power · AvgPool-1 (exclude-pad=false) · Multiply · Power', () => {
    const m = convertModel(model(18, 'LpPool', [f(1, 2, 5, 5)], { kernel_shape: A.ints([2, 3]), p: A.int(3), pads: A.ints([1, 0, 1, 0]) }));
    expect(ops(m)).toEqual(['Abs', 'Power', 'AvgPool', 'Multiply', 'Power']);
    const pool = only(m, 'AvgPool');
    expect(pool.version).toBe('opset1');
    expect(pool.attrs.get('exclude-pad')).toEqual(A.raw('false'));
    expect(pool.attrs.get('pads_begin')).toEqual(A.raw('1,0'));
    expect(new Float32Array(only(m, 'Multiply').inputs[1]!.constant!.data.slice().buffer)[0]).toBe(6);
    expect(m.graph.outputs[0]!.type).toMatchObject({ shape: [1, 2, 6, 3] });
  });

  it('dilated windows use AvgPool-16; p=1 needs no Power', () => {
    const m = convertModel(model(18, 'LpPool', [f(1, 1, 4, 4)], { kernel_shape: A.ints([2, 2]), p: A.int(1), dilations: A.ints([2, 2]) }));
    expect(ops(m)).toEqual(['Abs', 'AvgPool', 'Multiply']);
    expect(only(m, 'AvgPool').version).toBe('opset16');
  });

  it('ceil_mode=1 is a coded refusal (a last window past the padding sums fewer values)', () => {
    expect(diags(() => convertModel(model(18, 'LpPool', [f(1, 1, 5, 5)], { kernel_shape: A.ints([2, 2]), strides: A.ints([2, 2]), ceil_mode: A.int(1) }))))
      .toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', path: 'main/n', message: expect.stringMatching(/ceil_mode/) }]);
  });
});

describe('LpNormalization: x over its L1/L2 norm along axis, 0 where the norm is 0', () => {
  it.each([[1, 'ReduceL1'], [2, 'ReduceL2']] as const)('p=%i → %s', (p, reduce) => {
    const m = convertModel(model(22, 'LpNormalization', [f(2, 3)], { p: A.int(p), axis: A.int(0) }));
    expect(ops(m)).toEqual([reduce, 'Divide', 'Equal', 'Select']);
    expect(only(m, reduce).attrs.get('keep_dims')).toEqual(A.raw('true'));
  });

  it('another p is a coded refusal', () => {
    expect(diags(() => convertModel(model(22, 'LpNormalization', [f(2, 3)], { p: A.int(3) }))))
      .toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', path: 'main/n' }]);
  });
});

describe('CenterCropPad and AffineGrid: built from shape arithmetic', () => {
  it('CenterCropPad: ScatterElementsUpdate of the target dims, Slice around the centre, zero Pad', () => {
    const b = new Builder('onnx', 18);
    const x = b.input('x', 'f32', [3, 8, 2]);
    const s = b.input('s', 'i64', [2]);
    b.output(b.node(b.graph, 'CenterCropPad', [x, s], ['y'], { axes: A.ints([0, -2]) }, { name: 'n' }).outputs[0]!);
    const m = convertModel(b.model);
    expect(ops(m)).toEqual(expect.arrayContaining(['ScatterElementsUpdate', 'Minimum', 'Slice', 'Pad']));
    expect([...only(m, 'ScatterElementsUpdate').inputs[1]!.constant!.data]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    expect(verifyGraph(m.graph)).toEqual([]);
  });

  it('AffineGrid: needs a size of known length 4 or 5 (else a coded refusal)', () => {
    const b = new Builder('onnx', 20);
    const theta = b.input('theta', 'f32', [2, 2, 3]);
    const size = b.input('size', 'i64', [null]);
    b.output(b.node(b.graph, 'AffineGrid', [theta, size], ['grid'], {}, { name: 'n' }).outputs[0]!);
    expect(diags(() => convertModel(b.model))).toMatchObject([{ code: 'CONVERT_OP', path: 'main/n', message: expect.stringMatching(/4 or 5/) }]);
  });

  it('AffineGrid 2-D: grid points (x, y, 1) times thetaᵀ, one MatMul', () => {
    const b = new Builder('onnx', 20);
    const theta = b.input('theta', 'f32', [2, 2, 3]);
    const size = b.input('size', 'i64', [4]);
    b.output(b.node(b.graph, 'AffineGrid', [theta, size], ['grid'], { align_corners: A.int(1) }, { name: 'n' }).outputs[0]!);
    const m = convertModel(b.model);
    expect(only(m, 'MatMul').attrs.get('transpose_b')).toEqual(A.raw('true'));
    expect(ops(m).filter((o) => o === 'Range')).toHaveLength(2);
    expect(verifyGraph(m.graph)).toEqual([]);
  });
});
