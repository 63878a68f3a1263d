import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, readIntegers, tensorFromFloat32, tensorFromInt64, verifyGraph, type Attr, type Model, type Node } from '../../src/graph/index.js';
import { Builder } from '../convert/builder.js';
import { ops, only } from './graph-probes.js';

/**
 * The op relations of mappings/{pad,rnn,linear,generate}.ts, checked on the graphs they build.
 * (That the numbers agree is judged by the engines in test/conformance/convert-zoo.test.ts.)
 */

const constOf = (n: Node, i: number): bigint[] => readIntegers(n.inputs[i]!.constant!);
const codes = (f: () => unknown): string[] => {
  try { f(); } catch (e) { if (e instanceof OvirError) return e.diagnostics.map((d) => d.code); throw e; }
  return [];
};

function onnxNode(opset: number, op: string, inputs: ('x' | 'w' | { ints: number[] } | { floats: number[]; dims: number[] } | null)[], attrs: Record<string, Attr> = {}, outputs = 1, xShape = [2, 3]): Model {
  const b = new Builder('onnx', opset);
  const ins = inputs.map((s, i) => {
    if (s === null) return null;
    if (s === 'x') return b.input('x', 'f32', xShape);
    if (s === 'w') return b.input(`w${i}`, 'f32', [3, 4]);
    if ('ints' in s) return b.init(`c${i}`, tensorFromInt64(s.ints));
    return b.init(`c${i}`, tensorFromFloat32(s.floats, s.dims));
  });
  const n = b.node(b.graph, op, ins, Array.from({ length: outputs }, (_, k) => `y${k}`), attrs, { name: 'n' });
  n.outputs.forEach((o) => b.output(o));
  return b.model;
}

describe('Pad ↔ Pad-12', () => {
  it.each([
    ['constant', 'constant'], ['reflect', 'reflect'], ['edge', 'edge'],
  ])('opset 11 mode %s: pads [b.., e..] split into pads_begin / pads_end, pad_mode %s', (mode, irMode) => {
    const ir = convertModel(onnxNode(11, 'Pad', ['x', { ints: [0, 1, 0, 2] }], mode === 'constant' ? {} : { mode: A.string(mode) }));
    const pad = only(ir, 'Pad');
    expect(pad.version).toBe('opset12');
    expect(constOf(pad, 1)).toEqual([0n, 1n]);
    expect(constOf(pad, 2)).toEqual([0n, 2n]);
    expect(pad.attrs.get('pad_mode')).toEqual(A.raw(irMode));
    const back = only(convertModel(ir, { opset: 17 }), 'Pad');
    expect(readIntegers(back.inputs[1]!.constant!)).toEqual([0n, 1n, 0n, 2n]);
    expect(back.attrs.get('mode')).toEqual(mode === 'constant' ? undefined : A.string(mode));
  });

  it('opset 2 attributes pads and value become constant operands, and come back as attributes at opset 10', () => {
    const ir = convertModel(onnxNode(2, 'Pad', ['x'], { pads: A.ints([1, 0, 1, 0]), value: A.float(2.5) }));
    const pad = only(ir, 'Pad');
    expect(constOf(pad, 1)).toEqual([1n, 0n]);
    expect(pad.inputs[3]!.constant!.dims).toEqual([]);
    const back = only(convertModel(ir, { opset: 10 }), 'Pad');
    expect(back.attrs.get('pads')).toEqual(A.ints([1, 0, 1, 0]));
    expect(back.attrs.get('value')).toEqual(A.float(2.5));
  });

  it('non-constant pads are split in the graph (Split into two halves)', () => {
    const b = new Builder('onnx', 13);
    const x = b.input('x', 'f32', [2, 3]);
    const p = b.input('p', 'i64', [4]);
    b.output(b.op(b.graph, 'Pad', [x, p], 'y'));
    const ir = convertModel(b.model);
    expect(ops(ir)).toEqual(['Split', 'Pad']);
    expect(ops(convertModel(ir))).toContain('Concat');
  });

  it('opset 18 axes place the listed pads in their dims, zeros elsewhere', () => {
    const ir = convertModel(onnxNode(18, 'Pad', ['x', { ints: [1, 2] }, null, { ints: [-1] }], {}, 1, [2, 3]));
    const gathers = [...allNodes(ir.graph)].filter((n) => n.op === 'Gather');
    expect(gathers).toHaveLength(2);
    // dim 0 takes the appended zero (index 1), dim 1 the single listed pad (index 0)
    expect(constOf(gathers[0]!, 1)).toEqual([1n, 0n]);
  });

  it('symmetric (IR) has no ONNX counterpart (ONNX wrap is written as Tile and Slice: nn-tensor-forms.test.ts)', () => {
    const ir = convertModel(onnxNode(11, 'Pad', ['x', { ints: [0, 1, 0, 1] }], { mode: A.string('reflect') }));
    only(ir, 'Pad').attrs.set('pad_mode', A.raw('symmetric'));
    expect(codes(() => convertModel(ir))).toContain('CONVERT_UNSUPPORTED_ATTR');
  });
});

describe('LSTM ↔ LSTMSequence-5', () => {
  const H = 2;
  const lstm = (attrs: Record<string, Attr> = {}, withB = true, dirs = 1): Model => {
    const b = new Builder('onnx', 14);
    const x = b.input('x', 'f32', [5, 1, 3]);
    const w = b.init('W', tensorFromFloat32(Array.from({ length: dirs * 4 * H * 3 }, (_, i) => i), [dirs, 4 * H, 3]));
    const r = b.init('R', tensorFromFloat32(Array.from({ length: dirs * 4 * H * H }, (_, i) => i), [dirs, 4 * H, H]));
    const bias = withB ? b.init('B', tensorFromFloat32(Array.from({ length: dirs * 8 * H }, (_, i) => i), [dirs, 8 * H])) : null;
    const n = b.node(b.graph, 'LSTM', [x, w, r, bias], ['Y', 'Y_h', 'Y_c'], { hidden_size: A.int(H), ...attrs }, { name: 'lstm' });
    n.outputs.forEach((o) => b.output(o));
    return b.model;
  };

  it('reorders gate rows iofc → fico, sums the two biases, and transposes seq-major X and Y', () => {
    const ir = convertModel(lstm());
    const seq = only(ir, 'LSTMSequence');
    expect(seq.attrs.get('hidden_size')).toEqual(A.raw('2'));
    expect(seq.attrs.get('direction')).toEqual(A.raw('forward'));
    const gathers = [...allNodes(ir.graph)].filter((n) => n.op === 'Gather' && n.inputs[1]!.constant?.dims[0] === 4 * H);
    expect(constOf(gathers[0]!, 1)).toEqual([4n, 5n, 0n, 1n, 6n, 7n, 2n, 3n]);
    expect(ops(ir)).toContain('Add');
    const transposes = [...allNodes(ir.graph)].filter((n) => n.op === 'Transpose').map((n) => constOf(n, 1).join(''));
    expect(transposes).toEqual(expect.arrayContaining(['102', '2103']));
    expect(verifyGraph(ir.graph)).toEqual([]);
  });

  it('absent B, initial_h/c and sequence_lens are made explicit (zeros, full length)', () => {
    const ir = convertModel(lstm({}, false));
    const seq = only(ir, 'LSTMSequence');
    expect(seq.inputs[6]!.constant?.dims).toEqual([1, 4 * H]);
    expect(seq.inputs[1]!.producer?.op).toBe('Broadcast');
    expect(seq.inputs[3]!.producer?.op).toBe('Broadcast');
  });

  it('layout=1 keeps X batch-major and only swaps Y\'s seq and dirs', () => {
    const ir = convertModel(lstm({ layout: A.int(1) }));
    const transposes = [...allNodes(ir.graph)].filter((n) => n.op === 'Transpose').map((n) => constOf(n, 1).join(''));
    expect(transposes).toEqual(['0213']);
  });

  it('back to ONNX: gate rows fico → iofc, B padded with zero recurrence biases to 8H', () => {
    const back = convertModel(convertModel(lstm()), { opset: 17 });
    const l = only(back, 'LSTM');
    expect(l.attrs.get('hidden_size')).toEqual(A.int(H));
    const concat = l.inputs[3]!.producer!;
    expect(concat.op).toBe('Concat');
    expect(verifyGraph(back.graph)).toEqual([]);
  });

  it.each([
    ['input_forget=1', () => lstm({ input_forget: A.int(1) }), 'CONVERT_UNSUPPORTED_ATTR'],
    ['different activations per direction', () => lstm({ direction: A.string('bidirectional'), activations: A.strings(['Sigmoid', 'Tanh', 'Tanh', 'Sigmoid', 'Relu', 'Tanh']) }, true, 2), 'CONVERT_UNSUPPORTED_ATTR'],
  ])('%s has no IR counterpart', (_, make, code) => {
    expect(codes(() => convertModel(make()))).toContain(code);
  });
});

describe('ONNX ops written as several IR ops', () => {
  it('Gemm: MatMul with transpose_a/b, alpha and beta as Multiply, C added', () => {
    const ir = convertModel(onnxNode(13, 'Gemm', ['x', 'w', { floats: [1, 2, 3], dims: [3] }], { transB: A.int(1), alpha: A.float(0.5), beta: A.float(2) }, 1, [2, 4]));
    const mm = only(ir, 'MatMul');
    expect(mm.attrs.get('transpose_a')).toEqual(A.raw('false'));
    expect(mm.attrs.get('transpose_b')).toEqual(A.raw('true'));
    expect(ops(ir).filter((o) => o === 'Multiply')).toHaveLength(2);
    expect(ops(ir)).toContain('Add');
  });

  it('Gemm with alpha = beta = 1 is MatMul + Add only', () => {
    const ir = convertModel(onnxNode(13, 'Gemm', ['x', 'w', { floats: [1, 2, 3, 4], dims: [4] }], {}, 1, [2, 3]));
    expect(ops(ir).sort()).toEqual(['Add', 'MatMul']);
  });

  it.each([[0n, 'Reshape'], [1n, 'Reshape'], [-1n, 'Reshape']])('Flatten axis %s is a Reshape to a shape computed from ShapeOf', (axis) => {
    const ir = convertModel(onnxNode(13, 'Flatten', ['x'], { axis: A.int(axis) }, 1, [2, 3, 4]));
    expect(ops(ir)).toContain('Reshape');
    expect(ops(ir)).toContain('ShapeOf');
    expect(ir.graph.outputs[0]!.type).toMatchObject({ kind: 'tensor' });
  });

  it('Size is ReduceProd of ShapeOf', () => {
    expect(ops(convertModel(onnxNode(13, 'Size', ['x'])))).toEqual(['ShapeOf', 'ReduceProd']);
  });

  it('ConstantOfShape is a Broadcast (bidirectional, the Expand spelling) of a scalar, and returns as Expand', () => {
    const b = new Builder('onnx', 17);
    const s = b.input('s', 'i64', [2]);
    b.output(b.op(b.graph, 'ConstantOfShape', [s], 'y', { value: A.tensor(tensorFromFloat32([7], [1])) }));
    const ir = convertModel(b.model);
    const bc = only(ir, 'Broadcast');
    expect(bc.attrs.get('mode')).toEqual(A.raw('bidirectional'));
    expect(bc.inputs[0]!.constant!.dims).toEqual([]);
    expect(ops(convertModel(ir))).toContain('Expand');
  });
});

describe('GRU ↔ GRUSequence-5', () => {
  const H = 2;
  const gru = (attrs: Record<string, Attr> = {}): Model => {
    const b = new Builder('onnx', 14);
    const x = b.input('x', 'f32', [5, 1, 3]);
    const w = b.init('W', tensorFromFloat32(Array.from({ length: 3 * H * 3 }, (_, i) => i), [1, 3 * H, 3]));
    const r = b.init('R', tensorFromFloat32(Array.from({ length: 3 * H * H }, (_, i) => i), [1, 3 * H, H]));
    const bias = b.init('B', tensorFromFloat32(Array.from({ length: 6 * H }, (_, i) => i), [1, 6 * H]));
    const n = b.node(b.graph, 'GRU', [x, w, r, bias], ['Y', 'Y_h'], { hidden_size: A.int(H), ...attrs }, { name: 'gru' });
    n.outputs.forEach((o) => b.output(o));
    return b.model;
  };

  it.each([[0, 'false', 3], [1, 'true', 4]])('linear_before_reset=%s: IR bias has %s gate blocks', (lbr, irLbr, blocks) => {
    const ir = convertModel(gru({ linear_before_reset: A.int(lbr) }));
    const seq = only(ir, 'GRUSequence');
    expect(seq.attrs.get('linear_before_reset')).toEqual(A.raw(irLbr));
    expect(seq.inputs.length).toBe(6);
    const back = convertModel(ir, { opset: 17 });
    const g = only(back, 'GRU');
    expect(g.attrs.get('linear_before_reset')).toEqual(lbr ? A.int(1) : undefined);
    expect(verifyGraph(back.graph)).toEqual([]);
    expect(blocks).toBeGreaterThan(2);
  });
});

describe('activations', () => {
  it.each([
    ['HardSigmoid', { alpha: A.float(0.25) }, 'HardSigmoid', 3],
    ['Selu', {}, 'Selu', 3],
    ['LeakyRelu', { alpha: A.float(0.1) }, 'PRelu', 2],
    ['Reciprocal', {}, 'Divide', 2],
    ['ThresholdedRelu', {}, 'Select', 3],
  ] as const)('%s becomes IR %s with its parameters as scalar constants', (op, attrs, irOp, nIn) => {
    const ir = convertModel(onnxNode(13, op, ['x'], attrs as Record<string, Attr>));
    const n = only(ir, irOp);
    expect(n.inputs).toHaveLength(nIn);
  });

  it('HardSigmoid and Selu parameters return as attributes (non-defaults only)', () => {
    const back = only(convertModel(convertModel(onnxNode(13, 'HardSigmoid', ['x'], { alpha: A.float(0.25) }))), 'HardSigmoid');
    expect(back.attrs.get('alpha')).toEqual(A.float(0.25));
    expect(back.attrs.has('beta')).toBe(false);
  });

  it('PRelu: a slope of lower rank is unsqueezed to X\'s rank (IR reads 1-D slopes per channel)', () => {
    const b = new Builder('onnx', 13);
    const x = b.input('x', 'f32', [1, 3, 4]);
    const s = b.init('s', tensorFromFloat32([1, 2, 3, 4], [4]));
    b.output(b.op(b.graph, 'PRelu', [x, s], 'y'));
    const ir = convertModel(b.model);
    expect(ops(ir)).toEqual(['Unsqueeze', 'PRelu']);
  });
});

describe('normalizations and arg-reductions', () => {
  it('LayerNormalization: MVN over [axis, rank) inside the square root, then Scale and B', () => {
    const b = new Builder('onnx', 17);
    const x = b.input('x', 'f32', [2, 3, 4]);
    const s = b.init('s', tensorFromFloat32([1, 2, 3, 4], [4]));
    const bias = b.init('b', tensorFromFloat32([0, 0, 0, 1], [4]));
    b.output(b.op(b.graph, 'LayerNormalization', [x, s, bias], 'y', { epsilon: A.float(0.001) }));
    const ir = convertModel(b.model);
    const m = only(ir, 'MVN');
    expect(constOf(m, 1)).toEqual([2n]);
    expect(m.attrs.get('eps_mode')).toEqual(A.raw('inside_sqrt'));
    expect(m.attrs.get('eps')).toEqual(A.raw('0.001'));
    expect(ops(ir)).toEqual(['MVN', 'Multiply', 'Add']);
  });

  it('InstanceNormalization: MVN over the spatial axes, scale and bias per channel', () => {
    const b = new Builder('onnx', 13);
    const x = b.input('x', 'f32', [1, 3, 4, 5]);
    const s = b.init('s', tensorFromFloat32([1, 2, 3], [3]));
    const bias = b.init('b', tensorFromFloat32([0, 0, 1], [3]));
    b.output(b.op(b.graph, 'InstanceNormalization', [x, s, bias], 'y'));
    const ir = convertModel(b.model);
    expect(constOf(only(ir, 'MVN'), 1)).toEqual([2n, 3n]);
    const unsq = [...allNodes(ir.graph)].filter((n) => n.op === 'Unsqueeze');
    expect(unsq.map((n) => constOf(n, 1))).toEqual([[1n, 2n], [1n, 2n]]);
  });

  it.each([[1n, ['TopK']], [0n, ['TopK', 'Squeeze']]] as const)('ArgMax keepdims=%s is TopK k=1 (stable) %s', (keep, want) => {
    const ir = convertModel(onnxNode(13, 'ArgMax', ['x'], { axis: A.int(1), keepdims: A.int(keep) }));
    expect(ops(ir)).toEqual(want);
    const t = only(ir, 'TopK');
    expect(t.attrs.get('stable')).toEqual(A.raw('true'));
    expect(t.attrs.get('mode')).toEqual(A.raw('max'));
  });

  it('select_last_index=1 is the first extreme of the reversed axis, counted back from the end', () => {
    expect(ops(convertModel(onnxNode(13, 'ArgMin', ['x'], { select_last_index: A.int(1) })))).toEqual(['Reverse', 'TopK', 'ShapeOf', 'Gather', 'Subtract', 'Subtract']);
  });

  it('RNN ↔ RNNSequence-5 with one gate block and a summed bias', () => {
    const b = new Builder('onnx', 14);
    const x = b.input('x', 'f32', [5, 1, 3]);
    const w = b.init('W', tensorFromFloat32(Array.from({ length: 6 }, (_, i) => i), [1, 2, 3]));
    const r = b.init('R', tensorFromFloat32(Array.from({ length: 4 }, (_, i) => i), [1, 2, 2]));
    const bias = b.init('B', tensorFromFloat32([1, 2, 3, 4], [1, 4]));
    const n = b.node(b.graph, 'RNN', [x, w, r, bias], ['Y', 'Y_h'], { hidden_size: A.int(2) }, { name: 'rnn' });
    n.outputs.forEach((o) => b.output(o));
    const ir = convertModel(b.model);
    expect(only(ir, 'RNNSequence').attrs.get('activations')).toEqual(A.raw('tanh'));
    expect(verifyGraph(convertModel(ir).graph)).toEqual([]);
  });
});

describe('MeanVarianceNormalization ↔ MVN-6', () => {
  it('ONNX MVN is MVN-6 with epsilon 1e-9 outside the square root, and comes back as itself', () => {
    const ir = convertModel(onnxNode(13, 'MeanVarianceNormalization', ['x'], {}, 1, [1, 2, 3, 4]));
    const m = only(ir, 'MVN');
    expect(constOf(m, 1)).toEqual([0n, 2n, 3n]);
    expect(m.attrs.get('eps_mode')).toEqual(A.raw('outside_sqrt'));
    expect(ops(convertModel(ir))).toEqual(['MeanVarianceNormalization']);
  });

  it('an MVN-6 with epsilon inside the square root (LayerNormalization from ovc) decomposes', () => {
    const b = new Builder('onnx', 17);
    const x = b.input('x', 'f32', [2, 3]);
    const s = b.init('s', tensorFromFloat32([1, 2, 3], [3]));
    b.output(b.op(b.graph, 'LayerNormalization', [x, s], 'y'));
    for (const opset of [13, 18]) {
      const back = convertModel(convertModel(b.model), { opset });
      expect(ops(back)).toEqual(expect.arrayContaining(['ReduceMean', 'Sub', 'Sqrt', 'Div', 'Mul']));
      const rm = [...allNodes(back.graph)].find((n) => n.op === 'ReduceMean')!;
      expect(rm.attrs.has('axes')).toBe(opset < 18);
    }
  });
});
