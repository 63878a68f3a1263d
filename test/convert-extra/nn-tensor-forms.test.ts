import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, readIntegers, tensorFromInt64, verifyGraph, type Attr, type ElementTypeName, type Model } from '../../src/graph/index.js';
import { Builder } from '../convert/builder.js';
import { ops, only, diags } from './graph-probes.js';

/**
 * Forms of existing ops that ONNX → IR used to refuse, written as OpenVINO's frontend writes them:
 * MaxPool storage_order=1, SpaceToDepth-28 mode, BatchNormalization training_mode=1, Split-18
 * into uneven parts, Pad-18 and ReduceSum with axes computed at run time (ReduceMean also over data
 * of a dynamic rank: real-ir-tf's cond_rank). The graphs are checked
 * here; the numbers by the engines (test/conformance/convert-zoo.test.ts: the backend cases
 * test_maxpool_with_argmax_2d_precomputed_strides, test_spacetodepth_dcr_mode_example,
 * test_batchnorm_*_training_mode, test_split_*_uneven_split_opset18, test_constant_pad_*axes,
 * test_reduce_sum_empty_axes_input_noop*, test_wrap_pad).
 */


type In = { elem?: ElementTypeName; shape: (number | null)[] | null } | { ints: number[] };
function model(opset: number, op: string, inputs: In[], attrs: Record<string, Attr> = {}, outputs = 1): Model {
  const b = new Builder('onnx', opset);
  const ins = inputs.map((s, i) => ('ints' in s ? b.init(`c${i}`, tensorFromInt64(s.ints)) : b.input(`x${i}`, s.elem ?? 'f32', s.shape)));
  const n = b.node(b.graph, op, ins, Array.from({ length: outputs }, (_, k) => `y${k}`), attrs, { name: 'n' });
  n.outputs.forEach((o) => b.output(o));
  return b.model;
}

describe('MaxPool storage_order=1: column-major indices', () => {
  it('2-D: the row-major IR index re-spelled as base + h + w·H', () => {
    const m = convertModel(model(12, 'MaxPool', [{ shape: [1, 1, 4, 4] }], { kernel_shape: A.ints([2, 2]), strides: A.ints([2, 2]), storage_order: A.int(1) }, 2));
    expect(ops(m)).toEqual(expect.arrayContaining(['MaxPool', 'ShapeOf', 'FloorMod', 'Divide']));
    expect(m.graph.outputs[1]!.type).toMatchObject({ elem: 'i64', shape: [1, 1, 2, 2] });
    expect(verifyGraph(m.graph)).toEqual([]);
  });

  it('without the Indices output storage_order changes nothing: one MaxPool', () => {
    expect(ops(convertModel(model(12, 'MaxPool', [{ shape: [1, 1, 4, 4] }], { kernel_shape: A.ints([2, 2]), storage_order: A.int(1) })))).toEqual(['MaxPool']);
  });

  it('3-D column-major indices are a coded refusal', () => {
    expect(diags(() => convertModel(model(12, 'MaxPool', [{ shape: [1, 1, 4, 4, 4] }], { kernel_shape: A.ints([2, 2, 2]), storage_order: A.int(1) }, 2))))
      .toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', path: 'main/n', message: expect.stringMatching(/storage_order/) }]);
  });
});

describe('SpaceToDepth-28 mode', () => {
  it.each([['DCR', 'blocks_first'], ['CRD', 'depth_first']])('%s is IR mode %s', (mode, ir) => {
    const m = convertModel(model(28, 'SpaceToDepth', [{ shape: [1, 2, 4, 6] }], { blocksize: A.int(2), mode: A.string(mode) }));
    expect(only(m, 'SpaceToDepth').attrs.get('mode')).toEqual(A.raw(ir));
  });
});

describe('BatchNormalization-15 training_mode=1', () => {
  it('Y from the batch statistics (BatchNormInference), running mean/var updated with momentum', () => {
    const m = convertModel(model(15, 'BatchNormalization', [{ shape: [2, 3, 4, 5] }, { shape: [3] }, { shape: [3] }, { shape: [3] }, { shape: [3] }],
      { training_mode: A.int(1), momentum: A.float(0.8) }, 3));
    expect(ops(m).filter((o) => o === 'ReduceMean')).toHaveLength(2);
    expect(readIntegers(only(m, 'BatchNormInference').inputs[3]!.producer!.inputs[1]!.constant!)).toEqual([-1n]);
    expect(m.graph.outputs.map((o) => o.type)).toMatchObject([{ shape: [2, 3, 4, 5] }, { shape: [3] }, { shape: [3] }]);
    expect(verifyGraph(m.graph)).toEqual([]);
  });
});

describe('Split-18 num_outputs into uneven parts', () => {
  it('parts of ⌈d/n⌉, the last smaller: a VariadicSplit with those lengths', () => {
    const m = convertModel(model(18, 'Split', [{ shape: [7] }], { num_outputs: A.int(4) }, 4));
    expect(readIntegers(only(m, 'VariadicSplit').inputs[2]!.constant!)).toEqual([2n, 2n, 2n, 1n]);
    expect(m.graph.outputs.map((o) => o.type)).toMatchObject([{ shape: [2] }, { shape: [2] }, { shape: [2] }, { shape: [1] }]);
  });

  it('an axis it divides stays an IR Split', () => {
    expect(ops(convertModel(model(18, 'Split', [{ shape: [8] }], { num_outputs: A.int(4) }, 4)))).toEqual(['Split']);
  });
});

describe('Pad-19 mode wrap: crops, then per padded axis a window of x tiled 2k + 1 times', () => {
  it('constant pads: only the padded axes get a Tile and a Slice; no crop when no pad is negative', () => {
    const m = convertModel(model(19, 'Pad', [{ shape: [3, 4] }, { ints: [0, 1, 0, 2] }], { mode: A.string('wrap') }));
    expect(ops(m).filter((o) => o === 'Tile' || o === 'Slice')).toEqual(['Tile', 'Slice']);
    expect(verifyGraph(m.graph)).toEqual([]);
  });

  it('run-time pads: a crop, then every axis; an unknown rank is refused', () => {
    const m = convertModel(model(19, 'Pad', [{ shape: [2, 3] }, { elem: 'i64', shape: [4] }], { mode: A.string('wrap') }));
    expect(ops(m).filter((o) => o === 'Tile')).toHaveLength(2);
    expect(ops(m).filter((o) => o === 'Slice')).toHaveLength(3);
    expect(verifyGraph(m.graph)).toEqual([]);
    const d = diags(() => convertModel(model(19, 'Pad', [{ shape: null }, { ints: [1, 1] }], { mode: A.string('wrap') })));
    expect(d).toMatchObject([{ code: 'CONVERT_UNSUPPORTED_ATTR', message: expect.stringContaining('rank') }]);
  });
});

describe('axes computed at run time', () => {
  it('Pad-18: each half of pads scattered into zeros of the rank at axes mod rank', () => {
    const m = convertModel(model(18, 'Pad', [{ shape: [1, 3, 4, 5] }, { ints: [0, 3, 0, 4] }, { shape: [] }, { elem: 'i64', shape: [2] }]));
    expect(ops(m).filter((o) => o === 'ScatterElementsUpdate')).toHaveLength(2);
    expect(ops(m)).toContain('FloorMod');
    expect(verifyGraph(m.graph)).toEqual([]);
  });

  it('ReduceSum noop_with_empty_axes=1: a leading dim of 1 always reduced, the axes shifted past it (empty axes: x itself)', () => {
    const m = convertModel(model(13, 'ReduceSum', [{ shape: [3, 2, 2] }, { elem: 'i64', shape: [null] }], { noop_with_empty_axes: A.int(1) }));
    expect(ops(m)).toEqual(['FloorMod', 'Add', 'Concat', 'Unsqueeze', 'ReduceSum', 'Squeeze']);
    expect(m.graph.outputs[0]!.type).toMatchObject({ elem: 'f32' });
    // back to ONNX: run-time axes that IR would read as "reduce nothing" when empty keep noop_with_empty_axes=1
    expect(only(convertModel(m, { opset: 13 }), 'ReduceSum').attrs.get('noop_with_empty_axes')).toEqual(A.int(1));
  });

  it('ReduceMean noop_with_empty_axes=1, data of a dynamic rank: the axes taken mod the rank the data has at run time', () => {
    const m = convertModel(model(18, 'ReduceMean', [{ shape: null }, { elem: 'i64', shape: [null] }], { noop_with_empty_axes: A.int(1), keepdims: A.int(0) }));
    expect(ops(m)).toEqual(['ShapeOf', 'ShapeOf', 'Squeeze', 'FloorMod', 'Add', 'Concat', 'Unsqueeze', 'ReduceMean']);
    expect(verifyGraph(m.graph)).toEqual([]);
    expect(only(convertModel(m, { opset: 18 }), 'ReduceMean').attrs.get('noop_with_empty_axes')).toEqual(A.int(1));
  });

  it('ReduceSum noop_with_empty_axes=1 with axes of a known non-zero length: the axes as they are', () => {
    expect(ops(convertModel(model(13, 'ReduceSum', [{ shape: [3, 2, 2] }, { elem: 'i64', shape: [1] }], { noop_with_empty_axes: A.int(1) })))).toEqual(['ReduceSum']);
  });

  it('ReduceSum noop_with_empty_axes=0 with run-time axes keeps the "every axis when empty" form, read back without noop', () => {
    const m = convertModel(model(13, 'ReduceSum', [{ shape: [3, 2, 2] }, { elem: 'i64', shape: [null] }]));
    const back = only(convertModel(m, { opset: 13 }), 'ReduceSum');
    expect(back.attrs.has('noop_with_empty_axes')).toBe(false);
  });
});
