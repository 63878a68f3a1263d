import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, tensorFromInt64, verifyGraph, type Attr, type ElementTypeName, type Model } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from '../convert/builder.js';
import { diags, only, ops } from './graph-probes.js';
import { floats } from '../helpers/tensors.js';

/**
 * ONNX SwiGLU-28, MaxUnpool-9/11/22 and TensorScatter-24 (OpenVINO has no op) as IR subgraphs
 * (mappings/math/swiglu.ts, nn/max-unpool.ts, tensor/tensor-scatter.ts), and the coded refusals of
 * RoiAlign mode max; IR DeformableConvolution without bilinear_interpolation_pad as DeformConv with a mask; Col2Im of
 * 3-D images as its definition; RoiAlign mode max with a fixed sampling_ratio as IR ops (object_detection/roi-align-max.ts). These tests check the graphs; the numbers are judged by the engines
 * on the ONNX backend cases (test/conformance/convert-zoo.test.ts: test_swiglu*, test_maxunpool_*,
 * test_tensorscatter*, test_roialign_*, test_col2im*, test_*deform_conv*) and, IR → ONNX, by
 * test/conformance/native-ir-ops.test.ts.
 */
const f32 = (v: number[], shape: number[]): OracleTensor => ({ dtype: 'f32', shape, data: new Uint8Array(new Float32Array(v).buffer) });
type In = { elem?: ElementTypeName; shape: number[]; ints?: number[] };
function model(opset: number, op: string, inputs: (In | null)[], attrs: Record<string, Attr> = {}): Model {
  const b = new Builder('onnx', opset);
  const ins = inputs.map((s, i) => (s === null ? null : s.ints ? b.init(`c${i}`, tensorFromInt64(s.ints, s.shape)) : b.input(`x${i}`, s.elem ?? 'f32', s.shape)));
  const n = b.node(b.graph, op, ins, ['y'], attrs, { name: 'n' });
  n.outputs.forEach((o) => b.output(o));
  return b.model;
}
const f = (...shape: number[]): In => ({ shape });

describe('SwiGLU is its function body: Swish(A) with beta = alpha, times B', () => {
  it.each([[undefined, 1], [0.5, 0.5]])('alpha %s → Swish beta %s of A\'s element type', (alpha, beta) => {
    for (const elem of ['f32', 'f16'] as const) {
      const m = convertModel(model(28, 'SwiGLU', [{ elem, shape: [2, 4] }, { elem, shape: [2, 4] }], alpha === undefined ? {} : { alpha: A.float(alpha) }));
      expect(ops(m)).toEqual(['Swish', 'Multiply']);
      const b = only(m, 'Swish').inputs[1]!.constant!;
      expect(b.elem).toBe(elem);
      expect(b.dims).toEqual([]);
      if (elem === 'f32') expect(new Float32Array(b.data.slice().buffer)[0]).toBe(beta);
      expect(only(m, 'Multiply').inputs[1]).toBe(m.graph.inputs[1]);
      expect(m.graph.outputs[0]!.type).toMatchObject({ elem, shape: [2, 4] });
      expect(verifyGraph(m.graph)).toEqual([]);
    }
  });
});

describe('MaxUnpool scatters X at the flat indices into zeros of the inferred shape', () => {
  const attrs = { kernel_shape: A.ints([2, 2]), strides: A.ints([2, 2]) };
  it('without output_shape: ScatterUpdate on axis 0, then Reshape to (in − 1)·stride + kernel − pads', () => {
    const m = convertModel(model(11, 'MaxUnpool', [f(1, 1, 2, 2), { elem: 'i64', shape: [1, 1, 2, 2] }], attrs));
    expect(ops(m)).toContain('ScatterUpdate');
    expect(ops(m)).not.toContain('Pad');
    expect(m.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [1, 1, 4, 4] });
    expect(verifyGraph(m.graph)).toEqual([]);
  });
  it('with output_shape: the inferred tensor zero-padded at the end to output_shape (onnx\'s reference)', () => {
    const m = convertModel(model(22, 'MaxUnpool', [f(1, 1, 2, 2), { elem: 'i64', shape: [1, 1, 2, 2] }, { elem: 'i64', shape: [4], ints: [1, 1, 5, 5] }], attrs));
    expect(ops(m)).toContain('Pad');
    expect(only(m, 'Pad').attrs.get('pad_mode')).toEqual(A.raw('constant'));
    expect(m.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [1, 1, 5, 5] });
  });
  it('a kernel_shape that does not match the spatial dims is a coded refusal', () => {
    expect(diags(() => convertModel(model(11, 'MaxUnpool', [f(1, 1, 2, 2), { elem: 'i64', shape: [1, 1, 2, 2] }], { kernel_shape: A.ints([2]) }))))
      .toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', path: 'main/n' }]);
  });
});

describe('TensorScatter writes update at write_indices[b] + s along axis', () => {
  it('linear with write_indices: ScatterElementsUpdate-12 along the normalized axis, no FloorMod', () => {
    const m = convertModel(model(24, 'TensorScatter', [f(2, 3, 8, 4), f(2, 3, 2, 4), { elem: 'i64', shape: [2] }]));
    const s = only(m, 'ScatterElementsUpdate');
    expect(s.version).toBe('opset12');
    expect(s.inputs[3]!.constant!.data[0]).toBe(2);
    expect(ops(m)).not.toContain('FloorMod');
    expect(ops(m)).toContain('Add');
    expect(m.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [2, 3, 8, 4] });
    expect(verifyGraph(m.graph)).toEqual([]);
  });
  it('circular takes the position modulo the cache length; without write_indices no Add', () => {
    const m = convertModel(model(24, 'TensorScatter', [f(2, 8, 4), f(2, 3, 4)], { mode: A.string('circular'), axis: A.int(1) }));
    expect(ops(m)).toContain('FloorMod');
    expect(ops(m)).not.toContain('Add');
  });
  it('an axis on the batch dim or an unknown mode is a coded refusal naming the node', () => {
    expect(diags(() => convertModel(model(24, 'TensorScatter', [f(2, 8, 4), f(2, 3, 4)], { axis: A.int(0) }))))
      .toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', path: 'main/n' }]);
    expect(diags(() => convertModel(model(24, 'TensorScatter', [f(2, 8, 4), f(2, 3, 4)], { mode: A.string('ring') }))))
      .toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', path: 'main/n' }]);
  });
});

describe('native ops: what OpenVINO computes differently is refused, not approximated', () => {
  const rois = { elem: 'f32' as const, shape: [1, 4] };
  it('RoiAlign mode max with an adaptive grid (sampling_ratio 0; OpenVINO max-pools interpolated samples, ONNX the weighted corners)', () => {
    const d = diags(() => convertModel(model(16, 'RoiAlign', [f(1, 1, 4, 4), rois, { elem: 'i64', shape: [1], ints: [0] }], { mode: A.string('max') })));
    expect(d).toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', path: 'main/n' }]);
    expect(d[0]!.message).toMatch(/corner/);
  });
  it('RoiAlign mode max with a fixed sampling_ratio: IR ops, the four weighted corner terms max-pooled over each bin\'s samples', async () => {
    const m = model(16, 'RoiAlign', [f(2, 3, 9, 11), { elem: 'f32', shape: [5, 4] }, { elem: 'i64', shape: [5] }], { mode: A.string('max'), output_height: A.int(3), output_width: A.int(4), sampling_ratio: A.int(2), spatial_scale: A.float(0.9) });
    const ir = convertModel(m);
    expect(ops(ir)).not.toContain('ROIAlign');
    expect(ops(ir).filter((o) => o === 'Maximum').length).toBeGreaterThanOrEqual(3);
    // judged against onnxruntime's RoiAlign (which agrees with onnx's reference on test_roialign_mode_max), through IR → ONNX
    const x = Array.from({ length: 2 * 3 * 9 * 11 }, (_, i) => Math.sin(i * 1.7) * 3);
    const feeds = {
      x0: f32(x, [2, 3, 9, 11]),
      x1: f32([0, 0, 5, 5, 1.3, 2.2, 9.7, 8.1, -3, -2, 4, 14, 7, 6, 12.5, 10, 2, 2, 2.2, 2.1], [5, 4]),
      x2: { dtype: 'i64', shape: [5], data: new Uint8Array(new BigInt64Array([0n, 1n, 1n, 0n, 1n]).buffer) } as OracleTensor,
    };
    const want = floats((await runOrt(encodeOnnx(m).bytes, feeds))['y']!);
    const got = floats((await runOrt(encodeOnnx(convertModel(ir, { opset: 17 })).bytes, feeds))['y']!);
    expect(got.length).toBe(5 * 3 * 3 * 4);
    got.forEach((g, i) => expect(Math.abs(g - want[i]!)).toBeLessThanOrEqual(1e-4 * Math.abs(want[i]!) + 1e-5));
  });
  it('RoiAlign half_pixel ⇄ half_pixel_for_nn, output_half_pixel ⇄ asymmetric, RoiAlign-10 asymmetric', () => {
    const mode = (opset: number, attrs: Record<string, Attr>): unknown =>
      only(convertModel(model(opset, 'RoiAlign', [f(1, 1, 4, 4), rois, { elem: 'i64', shape: [1], ints: [0] }], attrs)), 'ROIAlign').attrs.get('aligned_mode');
    expect(mode(16, {})).toEqual(A.raw('half_pixel_for_nn'));
    expect(mode(22, { coordinate_transformation_mode: A.string('output_half_pixel') })).toEqual(A.raw('asymmetric'));
    expect(mode(10, {})).toEqual(A.raw('asymmetric'));
  });
  it('Col2Im of a 3-D image: its definition, a scatter-sum at positions computed here (constant shapes) or by Range ops (run-time shapes)', () => {
    const m = convertModel(model(18, 'Col2Im', [f(1, 8, 8), { elem: 'i64', shape: [3], ints: [3, 3, 3] }, { elem: 'i64', shape: [3], ints: [2, 2, 2] }]));
    expect(only(m, 'ScatterElementsUpdate').attrs.get('reduction')).toEqual(A.raw('sum'));
    expect(ops(m)).not.toContain('Col2Im');
    expect(m.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [1, 1, 3, 3, 3] });
    const rt = convertModel(model(18, 'Col2Im', [f(1, 8, 8), { elem: 'i64', shape: [3] }, { elem: 'i64', shape: [3] }]));
    expect(ops(rt).filter((o) => o === 'Range')).toHaveLength(6);
    expect(only(rt, 'ScatterElementsUpdate').attrs.get('reduction')).toEqual(A.raw('sum'));
    expect(verifyGraph(rt.graph)).toEqual([]);
  });
  it('IR DeformableConvolution with bilinear_interpolation_pad false: offsets clamped at the border, a mask of the points inside', () => {
    const ir = convertModel(model(19, 'DeformConv', [f(1, 2, 4, 4), f(3, 2, 2, 2), f(1, 8, 3, 3)]));
    const dc = only(ir, 'DeformableConvolution');
    expect(dc.attrs.get('bilinear_interpolation_pad')).toEqual(A.raw('true'));
    expect(dc.inputs[1]).toBe(ir.graph.inputs[2]);
    dc.attrs.set('bilinear_interpolation_pad', A.raw('false'));
    const back = convertModel(ir);
    const deform = only(back, 'DeformConv');
    expect(deform.inputs).toHaveLength(5);
    expect(deform.inputs[3]).toBeNull();
    expect(deform.inputs[4]?.producer?.op).toBe('Reshape');
    expect(ops(back)).toContain('Where');
  });
});
