import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, readIntegers, tensorFromFloat32, tensorFromInt64, verifyGraph, type Attr, type Model, type Node } from '../../src/graph/index.js';
import { Builder } from '../convert/builder.js';
import { ops, only, diags } from './graph-probes.js';

/**
 * The nn/vision relations of mappings/{pool,resize,conv-transpose,old-opsets}.ts, checked on the
 * graphs they build. (That the numbers agree is judged by the engines in
 * test/conformance/convert-zoo.test.ts: the backend cases of each op and the PaddleOCR models.)
 */

const constOf = (n: Node, i: number): bigint[] => readIntegers(n.inputs[i]!.constant!);

type In = { shape: (number | string)[]; elem?: 'i64' | 'boolean' } | { ints: number[] } | { floats: number[]; dims: number[] } | null;

function model(opset: number, op: string, inputs: In[], attrs: Record<string, Attr> = {}): Model {
  const b = new Builder('onnx', opset);
  const ins = inputs.map((s, i) => {
    if (s === null) return null;
    if ('shape' in s) return b.input(`x${i}`, s.elem ?? 'f32', s.shape.map((d) => (typeof d === 'number' ? d : null)));
    if ('ints' in s) return b.init(`c${i}`, tensorFromInt64(s.ints));
    return b.init(`c${i}`, tensorFromFloat32(s.floats, s.dims));
  });
  const n = b.node(b.graph, op, ins, ['y'], attrs, { name: 'n' });
  n.outputs.forEach((o) => b.output(o));
  return b.model;
}

describe('global pools are reductions over the spatial axes, dims kept', () => {
  it.each([
    ['GlobalAveragePool', 'ReduceMean'], ['GlobalMaxPool', 'ReduceMax'],
  ])('%s → %s over axes [2, rank)', (op, ir) => {
    const m = convertModel(model(11, op, [{ shape: [1, 3, 5, 4, 2] }]));
    const r = only(m, ir);
    expect(constOf(r, 1)).toEqual([2n, 3n, 4n]);
    expect(r.attrs.get('keep_dims')).toEqual(A.raw('true'));
    expect(m.graph.outputs[0]!.type).toMatchObject({ shape: [1, 3, 1, 1, 1] });
    // back: the ONNX reduction, not a global pool (which IR does not have)
    expect(ops(convertModel(m, { opset: 13 }))).toEqual([ir]);
  });

  it('unknown rank: the axes are computed (Range from 2 to the rank)', () => {
    const b = new Builder('onnx', 11);
    const x = b.input('x', 'f32', null);
    b.output(b.op(b.graph, 'GlobalAveragePool', [x], 'y'));
    const m = convertModel(b.model);
    expect(ops(m)).toEqual(['ShapeOf', 'ShapeOf', 'Squeeze', 'Range', 'ReduceMean']);
    expect(verifyGraph(m.graph)).toEqual([]);
  });

  it.each([[1, ['ReduceL1']], [2, ['ReduceL2']], [3, ['Abs', 'Power', 'ReduceSum', 'Power']]] as const)(
    'GlobalLpPool p=%i → %j', (p, want) => {
      expect(ops(convertModel(model(11, 'GlobalLpPool', [{ shape: [1, 3, 4, 4] }], { p: A.int(p) })))).toEqual(want);
    },
  );

  it('rank below 3 is a coded refusal naming the node', () => {
    expect(diags(() => convertModel(model(11, 'GlobalAveragePool', [{ shape: [3, 4] }])))).toMatchObject([{ code: 'CONVERT_OP', path: 'main/n' }]);
  });
});

describe('ceil_mode: from opset 22 a last window starting in the end padding is dropped (IR ceil_torch)', () => {
  const pool = (opset: number, op: string, x: number[], attrs: Record<string, Attr>): Model => model(opset, op, [{ shape: x }], { ceil_mode: A.int(1), ...attrs });
  const reduceByOne = { kernel_shape: A.ints([1, 1]), strides: A.ints([2, 2]) };

  it.each([['MaxPool', 'MaxPool'], ['AveragePool', 'AvgPool']])('%s-22 over x[1,1,2,2], kernel 1, stride 2: one window (the second starts past the input)', (op, irOp) => {
    const ir = convertModel(pool(22, op, [1, 1, 2, 2], reduceByOne));
    const p = only(ir, irOp);
    expect([p.attrs.get('rounding_type'), p.version]).toEqual([A.raw('ceil_torch'), 'opset14']);
    expect(ir.graph.outputs[0]!.type).toMatchObject({ shape: [1, 1, 1, 1] });
    const back = convertModel(ir, { opset: 22 });
    expect(only(back, op).attrs.get('ceil_mode')).toEqual(A.int(1));
  });

  it('before opset 22, and where every last window starts inside, plain ceil', () => {
    expect(only(convertModel(pool(21, 'MaxPool', [1, 1, 2, 2], reduceByOne)), 'MaxPool').attrs.get('rounding_type')).toEqual(A.raw('ceil'));
    const inside = convertModel(pool(22, 'MaxPool', [1, 1, 5, 5], { kernel_shape: A.ints([2, 2]), strides: A.ints([2, 2]) }));
    expect([only(inside, 'MaxPool').attrs.get('rounding_type'), only(inside, 'MaxPool').version]).toEqual([A.raw('ceil'), 'opset8']);
    expect(inside.graph.outputs[0]!.type).toMatchObject({ shape: [1, 1, 3, 3] });
  });
});

describe('Clip-1/6 and Slice-1: attributes that later became inputs', () => {
  it('Clip-6 min/max attributes are Clamp bounds; an absent bound is the float range', () => {
    const c = only(convertModel(model(9, 'Clip', [{ shape: [2, 3] }], { min: A.float(0) })), 'Clamp');
    expect(c.attrs.get('min')).toEqual(A.raw('0'));
    expect(Number((c.attrs.get('max') as { value: string }).value)).toBeCloseTo(3.4028234663852886e38, -30);
  });

  it('Clip-11 with bounds computed at run time is Maximum / Minimum', () => {
    const m = convertModel(model(13, 'Clip', [{ shape: [2, 3] }, { shape: [] }, { shape: [] }]));
    expect(ops(m)).toEqual(['Maximum', 'Minimum']);
  });

  it('Slice-1 starts/ends/axes become constant operands with steps 1, and come back as attributes', () => {
    const s = only(convertModel(model(9, 'Slice', [{ shape: [4, 5] }], { starts: A.ints([1]), ends: A.ints([-1]), axes: A.ints([1]) })), 'Slice');
    expect([1, 2, 3, 4].map((i) => constOf(s, i))).toEqual([[1n], [-1n], [1n], [1n]]);
  });

  it('IR Slice with steps ≠ 1 has no ONNX form before opset 10', () => {
    const ir = convertModel(model(13, 'Slice', [{ shape: [4, 5] }, { ints: [0] }, { ints: [4] }, { ints: [1] }, { ints: [2] }]));
    expect(diags(() => convertModel(ir, { opset: 9 }))).toMatchObject([{ code: 'CONVERT_OP' }]);
    expect(ops(convertModel(ir, { opset: 10 }))).toEqual(['Slice']);
  });
});

describe('Resize / Upsample ⇄ Interpolate-11', () => {
  const x: In = { shape: [1, 1, 4, 4] };
  const scales: In = { floats: [1, 1, 2, 2], dims: [4] };

  it('keep_aspect_ratio_policy (18+): one common scale, computed at conversion from constant sizes; output sizes round half up', () => {
    const resize = (policy: string, xs: number[], sizes: number[]): Model =>
      model(18, 'Resize', [{ shape: xs }, null, null, { ints: sizes }], { axes: A.ints([2, 3]), keep_aspect_ratio_policy: A.string(policy) });
    // not_larger: min(1/2, 3/4) = 0.5 → [1, 2]; not_smaller: max(7/2, 8/2) = 4 → [8, 8]
    for (const [policy, xs, sizes, scale, want] of [['not_larger', [1, 1, 2, 4], [1, 3], 0.5, [1, 1, 1, 2]], ['not_smaller', [1, 1, 2, 2], [7, 8], 4, [1, 1, 8, 8]]] as const) {
      const ir = convertModel(resize(policy, [...xs], [...sizes]));
      const i = only(ir, 'Interpolate');
      expect(i.attrs.get('shape_calculation_mode')).toEqual(A.raw('scales'));
      expect([...new Float32Array(i.inputs[1]!.constant!.data.slice().buffer)]).toEqual([scale, scale]);
      expect(ir.graph.outputs[0]!.type).toMatchObject({ shape: want });
    }
    // 3·(5/3) = 5 and 4·(5/3) = 6.67: ONNX rounds to 7, Interpolate at this scale gives 6: the separable resize (resize-separable.test.ts)
    expect(ops(convertModel(resize('not_smaller', [1, 1, 3, 4], [5, 5])))).not.toContain('Interpolate');
  });

  it('Resize-11 nearest asymmetric floor (paddle exports): scales mode, the same names', () => {
    const i = only(convertModel(model(11, 'Resize', [x, { floats: [], dims: [0] }, scales], {
      mode: A.string('nearest'), coordinate_transformation_mode: A.string('asymmetric'), nearest_mode: A.string('floor'),
    })), 'Interpolate');
    expect(i.version).toBe('opset11');
    expect(Object.fromEntries([...i.attrs].map(([k, v]) => [k, (v as { value: unknown }).value]))).toMatchObject({
      mode: 'nearest', shape_calculation_mode: 'scales', coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor', antialias: 'false',
    });
    expect(i.inputs).toHaveLength(2);
  });

  it('sizes win over (empty) scales; linear is linear_onnx', () => {
    const i = only(convertModel(model(11, 'Resize', [x, { floats: [], dims: [0] }, { floats: [], dims: [0] }, { ints: [1, 1, 8, 8] }], { mode: A.string('linear') })), 'Interpolate');
    expect(i.attrs.get('shape_calculation_mode')).toEqual(A.raw('sizes'));
    expect(i.attrs.get('mode')).toEqual(A.raw('linear_onnx'));
    expect(constOf(i, 1)).toEqual([1n, 1n, 8n, 8n]);
  });

  it('Resize-10 and Upsample round nearest as `simple` with asymmetric coordinates', () => {
    for (const m of [model(10, 'Resize', [x, scales]), model(9, 'Upsample', [x, scales]), model(7, 'Upsample', [x], { scales: A.floats([1, 1, 2, 2]) })]) {
      const i = only(convertModel(m), 'Interpolate');
      expect(i.attrs.get('nearest_mode')).toEqual(A.raw('simple'));
      expect(i.attrs.get('coordinate_transformation_mode')).toEqual(A.raw('asymmetric'));
    }
  });

  it('axes (opset 18) are the axes input; before opset 18 the scales are widened to every dim', () => {
    const ir = convertModel(model(18, 'Resize', [x, null, { floats: [2, 3], dims: [2] }], { axes: A.ints([-2, -1]) }));
    expect(constOf(only(ir, 'Interpolate'), 2)).toEqual([2n, 3n]);
    const back13 = only(convertModel(ir, { opset: 13 }), 'Resize');
    expect(back13.attrs.has('axes')).toBe(false);
    expect([...new Float32Array(back13.inputs[2]!.constant!.data.slice().buffer)]).toEqual([1, 1, 2, 3]);
    expect(only(convertModel(ir, { opset: 18 }), 'Resize').attrs.get('axes')).toEqual(A.ints([2, 3]));
  });

  it.each([
    ['exclude_outside', { mode: A.string('cubic'), exclude_outside: A.int(1) }],
    ['coordinate_transformation_mode half_pixel_symmetric', { coordinate_transformation_mode: A.string('half_pixel_symmetric') }],
  ])('what Interpolate cannot express is the separable resize by gathers (resize-separable.test.ts): %s', (_, attrs) => {
    expect(ops(convertModel(model(19, 'Resize', [x, null, scales], attrs)))).not.toContain('Interpolate');
  });

  it('tf_crop_and_resize without roi is refused', () => {
    const d = diags(() => convertModel(model(19, 'Resize', [x, null, scales], { coordinate_transformation_mode: A.string('tf_crop_and_resize') })));
    expect(d).toMatchObject([{ code: 'CONVERT_OP', path: 'main/n', message: expect.stringContaining('tf_crop_and_resize needs roi') }]);
  });

  it('keep_aspect_ratio_policy with run-time sizes: the common scale computed in the graph (separable resize)', () => {
    expect(ops(convertModel(model(18, 'Resize', [x, null, null, { shape: [4], elem: 'i64' }], { keep_aspect_ratio_policy: A.string('not_larger') })))).not.toContain('Interpolate');
  });

  it('IR nearest_mode simple converts to Resize-10 and Upsample; to Resize-11+ as floor where every scale grows', () => {
    const ir = convertModel(model(10, 'Resize', [x, scales]));
    expect(ops(convertModel(ir, { opset: 10 }))).toEqual(['Resize']);
    expect(ops(convertModel(ir, { opset: 9 }))).toEqual(['Upsample']);
    expect(only(convertModel(ir, { opset: 8 }), 'Upsample').attrs.get('scales')).toEqual(A.floats([1, 1, 2, 2]));
    expect(only(convertModel(ir, { opset: 13 }), 'Resize').attrs.get('nearest_mode')).toEqual(A.string('floor'));
  });
});

describe('ConvTranspose ⇄ (Group)ConvolutionBackpropData', () => {
  const w = (...dims: number[]): In => ({ floats: Array.from({ length: dims.reduce((a, b) => a * b, 1) }, (_, i) => i), dims });

  it('explicit pads, output_padding, strides, dilations carry over; bias is an Add of [1, M, 1, 1]', () => {
    const m = convertModel(model(11, 'ConvTranspose', [{ shape: [1, 2, 3, 3] }, w(2, 4, 3, 3), { floats: [1, 2, 3, 4], dims: [4] }], {
      strides: A.ints([2, 2]), pads: A.ints([1, 0, 1, 0]), output_padding: A.ints([1, 1]), dilations: A.ints([1, 2]),
    }));
    const d = only(m, 'ConvolutionBackpropData');
    expect(d.attrs.get('pads_begin')).toEqual(A.raw('1,0'));
    expect(d.attrs.get('pads_end')).toEqual(A.raw('1,0'));
    expect(d.attrs.get('output_padding')).toEqual(A.raw('1,1'));
    expect(d.attrs.get('dilations')).toEqual(A.raw('1,2'));
    // a constant bias is a Const [1, M, 1, 1], as ovc writes it
    expect(ops(m)).toEqual(['ConvolutionBackpropData', 'Add']);
    expect(only(m, 'Add').inputs[1]!.constant?.dims).toEqual([1, 4, 1, 1]);
    // 2·(3-1) + (3-1)·1 + 1 - 2 + 1 = 6 ; 2·2 + 2·2 + 1 - 0 + 1 = 10
    expect(m.graph.outputs[0]!.type).toMatchObject({ shape: [1, 4, 6, 10] });
  });

  it('auto_pad SAME_UPPER: output in·s, pads from the total padding (begin ⌊total/2⌋)', () => {
    const d = only(convertModel(model(11, 'ConvTranspose', [{ shape: [1, 1, 3, 3] }, w(1, 2, 3, 3)], { strides: A.ints([2, 2]), auto_pad: A.string('SAME_UPPER') })), 'ConvolutionBackpropData');
    // total = 2·2 + 3 - 6 = 1 → begin 0, end 1
    expect(d.attrs.get('pads_begin')).toEqual(A.raw('0,0'));
    expect(d.attrs.get('pads_end')).toEqual(A.raw('1,1'));
  });

  it('output_shape with default pads is reached by output_padding', () => {
    const d = only(convertModel(model(11, 'ConvTranspose', [{ shape: [1, 1, 3, 3] }, w(1, 2, 3, 3)], { strides: A.ints([3, 2]), output_shape: A.ints([10, 8]) })), 'ConvolutionBackpropData');
    expect(d.attrs.get('output_padding')).toEqual(A.raw('1,1'));
  });

  it('group 2: weights [C, M/G, k…] → [G, C/G, M/G, k…] and back', () => {
    const m = convertModel(model(11, 'ConvTranspose', [{ shape: [1, 4, 3, 3] }, w(4, 3, 3, 3)], { group: A.int(2) }));
    const g = only(m, 'GroupConvolutionBackpropData');
    expect(g.inputs[1]!.constant!.dims).toEqual([2, 2, 3, 3, 3]);
    expect(m.graph.outputs[0]!.type).toMatchObject({ shape: [1, 6, 5, 5] });
    const back = only(convertModel(m, { opset: 17 }), 'ConvTranspose');
    expect(back.attrs.get('group')).toEqual(A.int(2));
    expect(back.inputs[1]!.constant!.dims).toEqual([4, 3, 3, 3]);
  });

  it('output_shape with dynamic spatial dims is a coded refusal', () => {
    const d = diags(() => convertModel(model(11, 'ConvTranspose', [{ shape: [1, 1, 'h', 'w'] }, w(1, 2, 3, 3)], { output_shape: A.ints([8, 8]) })));
    expect(d).toMatchObject([{ code: 'CONVERT_OP', path: 'main/n' }]);
  });
});

describe('inference forms and decompositions', () => {
  it('Dropout at inference is the input itself; a read mask is all true of X\'s shape', () => {
    expect(ops(convertModel(model(13, 'Dropout', [{ shape: [2, 3] }])))).toEqual([]);
    const b = new Builder('onnx', 13);
    const x = b.input('x', 'f32', [2, 3]);
    const n = b.node(b.graph, 'Dropout', [x], ['y', 'mask'], {}, { name: 'd' });
    n.outputs.forEach((o) => b.output(o));
    const m = convertModel(b.model);
    expect(ops(m)).toEqual(['ShapeOf', 'Broadcast']);
    expect(m.graph.outputs[1]!.type).toMatchObject({ elem: 'boolean', shape: [2, 3] });
  });

  it('training Dropout (is_test = 0 before opset 7, training_mode true or computed) draws its mask: u ≥ ratio, kept values · 1 / (1 − ratio)', () => {
    const trained = ops(convertModel(model(6, 'Dropout', [{ shape: [2, 3] }], { ratio: A.float(0.25) })));
    expect(trained).toEqual(expect.arrayContaining(['RandomUniform', 'GreaterEqual', 'Divide', 'Multiply', 'Select']));
    expect(trained).not.toContain('LogicalOr');
    expect(ops(convertModel(model(6, 'Dropout', [{ shape: [2, 3] }], { is_test: A.int(1) })))).toEqual([]);
    // a run-time training_mode selects: mask = ¬t ∨ keep, scale = t ? 1 / (1 − ratio) : 1
    const b = new Builder('onnx', 13);
    const n = b.node(b.graph, 'Dropout', [b.input('x', 'f16', [4]), b.input('r', 'f64', []), b.input('t', 'boolean', [])], ['y', 'mask'], { seed: A.int(3) }, { name: 'd' });
    n.outputs.forEach((o) => b.output(o));
    const m = convertModel(b.model);
    expect(ops(m)).toEqual(expect.arrayContaining(['RandomUniform', 'LogicalNot', 'LogicalOr', 'Select']));
    expect(m.graph.outputs.map((o) => o.type)).toMatchObject([{ elem: 'f16', shape: [4] }, { elem: 'boolean', shape: [4] }]);
    expect(diags(() => convertModel(model(13, 'Dropout', [{ shape: [2, 3] }, null, { shape: [2], elem: 'boolean' }])))).toMatchObject([{ code: 'CONVERT_OP' }]);
  });

  it('Dropout before opset 10: the mask is of X\'s type', () => {
    const b = new Builder('onnx', 9);
    const n = b.node(b.graph, 'Dropout', [b.input('x', 'f32', [2])], ['y', 'mask'], {}, { name: 'd' });
    n.outputs.forEach((o) => b.output(o));
    expect(convertModel(b.model).graph.outputs[1]!.type).toMatchObject({ elem: 'f32', shape: [2] });
  });

  it('RMSNormalization: X / Sqrt(ReduceMean(X·X over [axis, rank)) + eps) · scale', () => {
    const m = convertModel(model(23, 'RMSNormalization', [{ shape: [2, 3, 4] }, { floats: [1, 2, 3, 4], dims: [4] }], { axis: A.int(-1) }));
    expect(ops(m)).toEqual(['Multiply', 'ReduceMean', 'Add', 'Sqrt', 'Divide', 'Multiply']);
    expect(constOf(only(m, 'ReduceMean'), 1)).toEqual([2n]);
  });

  it('GridSample of 5-D data is written as IR ops (OpenVINO samples 4-D only; test/convert/grid-sample-nd.test.ts); cubic is refused', () => {
    expect(ops(convertModel(model(20, 'GridSample', [{ shape: [1, 1, 2, 2, 2] }, { shape: [1, 2, 2, 2, 3] }])))).not.toContain('GridSample');
    expect(diags(() => convertModel(model(20, 'GridSample', [{ shape: [1, 1, 2, 2, 2] }, { shape: [1, 2, 2, 2, 3] }], { mode: A.string('cubic') })))).toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR' }]);
  });

  it('AveragePool-19 dilations are IR AvgPool-16 dilations; back to ONNX only from opset 19', () => {
    const ir = convertModel(model(19, 'AveragePool', [{ shape: [1, 1, 5, 5] }], { kernel_shape: A.ints([2, 2]), dilations: A.ints([2, 2]) }));
    const p = only(ir, 'AvgPool');
    expect(p.version).toBe('opset16');
    expect(p.attrs.get('dilations')).toEqual(A.raw('2,2'));
    expect(ir.graph.outputs[0]!.type).toMatchObject({ shape: [1, 1, 3, 3] });
    expect(only(convertModel(ir, { opset: 19 }), 'AveragePool').attrs.get('dilations')).toEqual(A.ints([2, 2]));
    expect(diags(() => convertModel(ir, { opset: 18 }))).toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR' }]);
    expect(only(convertModel(model(19, 'AveragePool', [{ shape: [1, 1, 5, 5] }], { kernel_shape: A.ints([2, 2]), dilations: A.ints([1, 1]) })), 'AvgPool').version).toBe('opset1');
  });

  it('MaxPool Indices are IR MaxPool-8 indices over axis 0 (N, C, spatial flattened row-major), both ways', () => {
    const b = new Builder('onnx', 12);
    const x = b.input('x', 'f32', [1, 2, 4, 4]);
    const n = b.node(b.graph, 'MaxPool', [x], ['y', 'i'], { kernel_shape: A.ints([2, 2]), strides: A.ints([2, 2]) }, { name: 'p' });
    n.outputs.forEach((o) => b.output(o));
    const ir = convertModel(b.model);
    const p = only(ir, 'MaxPool');
    expect(p.attrs.get('axis')).toEqual(A.raw('0'));
    expect(ir.graph.outputs[1]!.producer).toBe(p);
    const back = convertModel(ir, { opset: 12 });
    expect(only(back, 'MaxPool').outputs).toHaveLength(2);
    expect(back.graph.outputs).toHaveLength(2);
  });

  it('PRelu-6: a 1-D slope is per channel (IR PRelu as is); from opset 7 it broadcasts numpy-style', () => {
    const six = convertModel(model(6, 'PRelu', [{ shape: [1, 3, 4] }, { floats: [1, 2, 3], dims: [3] }]));
    expect(ops(six)).toEqual(['PRelu']);
    expect(six.graph.outputs[0]!.type).toMatchObject({ shape: [1, 3, 4] });
    expect(ops(convertModel(model(7, 'PRelu', [{ shape: [1, 3, 3] }, { floats: [1, 2, 3], dims: [3] }])))).toEqual(['Unsqueeze', 'PRelu']);
  });

  it('BatchNormalization-7 spatial = 0 is refused', () => {
    const w: In = { floats: [1, 2], dims: [2] };
    expect(diags(() => convertModel(model(7, 'BatchNormalization', [{ shape: [1, 2, 3, 3] }, w, w, w, w], { spatial: A.int(0) })))).toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR' }]);
  });
});

describe('IR ConvolutionBackpropData with an output_shape input → ONNX explicit pads (OpenVINO 2026.4, measured)', () => {
  // 1-D, data length 5, kernel 3, stride 2: the uncropped output is 2·4 + 3 = 11 long.
  const ir = (autoPad: string, out: number, pb = 0, op = 0): Model => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [1, 1, 5]);
    const w = b.init('w', tensorFromFloat32([1, 2, 3], [1, 1, 3]));
    const os = b.init('os', tensorFromInt64([out]));
    const n = b.node(b.graph, 'ConvolutionBackpropData', [x, w, os], ['y'], {
      strides: A.raw('2'), dilations: A.raw('1'), pads_begin: A.raw(String(pb)), pads_end: A.raw('0'), output_padding: A.raw(String(op)), auto_pad: A.raw(autoPad),
    }, { name: 'd', version: 'opset1' });
    b.output(n.outputs[0]!);
    return b.model;
  };
  const attrsOf = (m: Model): Record<string, unknown> => Object.fromEntries([...only(m, 'ConvTranspose').attrs].map(([k, v]) => [k, (v as { value: unknown }).value]));

  it.each([
    // auto_pad, output_shape, pads_begin, output_padding → ONNX pads [begin, end], output_padding
    ['explicit', 8, 0, 0, [0, 3], undefined],
    ['explicit', 8, 1, 1, [1, 2], undefined], // output_padding ignored with output_shape
    ['explicit', 12, 0, 0, undefined, [1]], // past the uncropped end: zeros
    ['same_upper', 8, 0, 0, [2, 1], undefined], // total 3: begin ⌈3/2⌉
    ['same_lower', 8, 0, 0, [1, 2], undefined], // total 3: begin ⌊3/2⌋
    ['same_upper', 9, 0, 1, [2, 0], undefined], // output_padding counts into the total: 3
  ] as const)('%s out %i (pads_begin %i, output_padding %i) → pads %j, output_padding %j', (ap, out, pb, op, pads, opad) => {
    const a = attrsOf(convertModel(ir(ap, out, pb, op), { opset: 17 }));
    expect(a['pads']).toEqual(pads?.map(BigInt));
    expect(a['output_padding']).toEqual(opad?.map(BigInt));
  });
});
