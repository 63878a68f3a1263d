import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromInt64, type Attr, type Model } from '../../src/graph/index.js';
import { Builder } from './builder.js';

/**
 * What the tensor / indexing / quantization / detection / generator mappings do where the two
 * specs differ (the numbers themselves are judged by the engines in the zoo suite): which IR forms
 * have no ONNX counterpart at an opset, and which ONNX semantics need more than one IR op.
 */
const ops = (m: Model) => [...allNodes(m.graph)].map((n) => n.op);
const fails = (f: () => unknown): string => {
  try { f(); } catch (e) { if (e instanceof OvirError) return e.message; throw e; }
  return 'no error';
};

/** An IR model with one layer `op` over f32 [2,3] data and the given extra operands. */
function irModel(op: string, version: string, attrs: Record<string, Attr>, extra: (b: Builder) => ReturnType<Builder['input']>[]): Model {
  const b = new Builder('ov');
  const x = b.input('x', 'f32', [2, 3]);
  b.output(b.op(b.graph, op, [x, ...extra(b)], 'y', attrs, { version }));
  return b.model;
}

describe('scatter / gather by indices', () => {
  const scatterElements = (attrs: Record<string, Attr>) => irModel('ScatterElementsUpdate', 'opset12', attrs, (b) => [
    b.init('i', tensorFromInt64([1, 0], [1, 2])), b.input('u', 'f32', [1, 2]), b.init('axis', tensorFromInt64([1], [])),
  ]);

  it('ScatterElementsUpdate reduction sum is ONNX add from opset 16; before, a refusal naming the opset', () => {
    const m = scatterElements({ reduction: A.raw('sum'), use_init_val: A.raw('true') });
    const n = convertModel(m, { opset: 16 }).graph.nodes.find((x) => x.op === 'ScatterElements')!;
    expect(n.attrs.get('reduction')).toEqual(A.string('add'));
    expect(n.attrs.get('axis')).toEqual(A.int(1));
    expect(fails(() => convertModel(m, { opset: 13 }))).toMatch(/reduction.*from opset 16/);
  });

  it('reduction mean and use_init_val=false have no ONNX form', () => {
    expect(fails(() => convertModel(scatterElements({ reduction: A.raw('mean') }), { opset: 18 }))).toMatch(/'reduction' = mean/);
    expect(fails(() => convertModel(scatterElements({ reduction: A.raw('max'), use_init_val: A.raw('false') }), { opset: 18 }))).toMatch(/use_init_val/);
  });

  it('ONNX Scatter-9 is ScatterElementsUpdate, and comes back as Scatter below opset 11', () => {
    const b = new Builder('onnx', 9);
    const x = b.input('x', 'f32', [2, 3]);
    b.output(b.op(b.graph, 'Scatter', [x, b.init('i', tensorFromInt64([1, 0], [1, 2])), b.input('u', 'f32', [1, 2])], 'y', { axis: A.int(1) }));
    const ir = convertModel(b.model);
    expect(ops(ir)).toEqual(['ScatterElementsUpdate']);
    expect(ops(convertModel(ir, { opset: 10 }))).toEqual(['Scatter']);
    expect(ops(convertModel(ir, { opset: 11 }))).toEqual(['ScatterElements']);
  });

  it('GatherND-5 with batch_dims flattens the batch: refused; i32 indices get a Cast to int64', () => {
    const idx = (b: Builder) => [b.input('i', 'i32', [2, 1])];
    expect(fails(() => convertModel(irModel('GatherND', 'opset5', { batch_dims: A.raw('1') }, idx)))).toMatch(/GatherND-5 flattens/);
    expect(ops(convertModel(irModel('GatherND', 'opset8', { batch_dims: A.raw('1') }, idx)))).toEqual(['Cast', 'GatherND']);
  });
});

describe('BitShift', () => {
  const shift = (elem: 'u8' | 'i32', amount: 'input' | number[], direction = 'RIGHT', opset = 28) => {
    const b = new Builder('onnx', opset);
    const x = b.input('x', elem, [3]);
    const s = amount === 'input' ? b.input('s', elem, [3]) : b.init('s', tensorFromInt64(amount));
    b.output(b.op(b.graph, 'BitShift', [x, s], 'y', { direction: A.string(direction) }));
    return b.model;
  };

  it('a constant amount within the width is one IR shift', () => {
    const b = new Builder('onnx', 28); // BitShift takes i64 from opset 28 (11: unsigned only)
    const x = b.input('x', 'i64', [3]);
    b.output(b.op(b.graph, 'BitShift', [x, b.init('s', tensorFromInt64([1, 2, 3]))], 'y', { direction: A.string('LEFT') }));
    expect(ops(convertModel(b.model))).toEqual(['BitwiseLeftShift']);
  });

  it('a run-time amount selects the ONNX result for amounts outside [0, width): 0, or the sign fill', () => {
    expect(ops(convertModel(shift('u8', 'input', 'LEFT', 11)))).toEqual(['BitwiseLeftShift', 'Greater', 'Select']);
    expect(ops(convertModel(shift('i32', 'input')))).toEqual(['BitwiseRightShift', 'Greater', 'Less', 'LogicalOr', 'BitwiseRightShift', 'Select']);
  });

  it('IR shifts of signed integers are ONNX BitShift from opset 28 only', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'i32', [3]);
    b.output(b.op(b.graph, 'BitwiseLeftShift', [x, x], 'y', { auto_broadcast: A.raw('numpy') }, { version: 'opset15' }));
    expect(fails(() => convertModel(b.model, { opset: 21 }))).toMatch(/signed integers \(i32\) from opset 28/);
  });
});

describe('IR-only slicing forms back to ONNX', () => {
  const strided = (begin: number[], end: number[], masks: Record<string, number[]>, stride?: number[]) => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [2, 3, 4]);
    const ins = [x, b.init('b', tensorFromInt64(begin)), b.init('e', tensorFromInt64(end)), ...(stride ? [b.init('s', tensorFromInt64(stride))] : [])];
    const attrs = Object.fromEntries(Object.entries(masks).map(([k, v]) => [k, A.raw(v.join(','))]));
    b.output(b.op(b.graph, 'StridedSlice', ins, 'y', attrs));
    return convertModel(b.model, { opset: 17 });
  };
  const ints = (m: Model, op: string, input: number) => [...m.graph.nodes.find((n) => n.op === op)!.inputs[input]!.constant!.data].length;

  it('StridedSlice: begin/end masks are the whole axis, only sliced axes are named', () => {
    const m = strided([0, 1], [0, 3], { begin_mask: [1, 0], end_mask: [1, 0] });
    expect(ops(m)).toEqual(['Slice']);
    expect(ints(m, 'Slice', 3)).toBe(8); // one axis (int64)
  });

  it('StridedSlice: shrink_axis is a one-element slice then Squeeze; new_axis an Unsqueeze', () => {
    expect(ops(strided([0, 1], [0, 2], { begin_mask: [1, 0], end_mask: [1, 0], shrink_axis_mask: [0, 1] }))).toEqual(['Slice', 'Squeeze']);
    expect(ops(strided([0, 0], [0, 0], { begin_mask: [1, 1], end_mask: [1, 1], new_axis_mask: [0, 1] }))).toEqual(['Unsqueeze']);
  });

  it('StridedSlice: shrink together with new axes is refused (OpenVINO departs from its spec there)', () => {
    expect(fails(() => strided([0, 1, 0], [0, 2, 0], { new_axis_mask: [0, 0, 1], shrink_axis_mask: [0, 1, 0] }))).toMatch(/new_axis_mask together with shrink_axis_mask/);
  });

  it('StridedSlice with a run-time begin of unknown length needs a constant (of a known length: tf-frontend-forms.test.ts)', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [2, 3]);
    b.output(b.op(b.graph, 'StridedSlice', [x, b.input('b', 'i64', [null]), b.init('e', tensorFromInt64([1, 1]))], 'y', {}));
    expect(fails(() => convertModel(b.model))).toMatch(/CONVERT_NEEDS_CONSTANT/);
  });

  it('Reverse (index or mask mode) is Slice with step -1 on those axes', () => {
    for (const [mode, axes] of [['index', tensorFromInt64([-1])], ['mask', tensorFromInt64([0, 1])]] as const) {
      const m = convertModel(irModel('Reverse', 'opset1', { mode: A.raw(mode) }, (b) => [b.init('a', axes)]));
      expect(ops(m)).toEqual(['Slice']);
      expect(m.graph.nodes[0]!.inputs[3]!.constant!.data).toEqual(tensorFromInt64([1]).data);
    }
  });

  it('VariadicSplit -1 is the rest of the axis: a constant when its length is known, else computed', () => {
    const split = (shape: (number | null)[]) => {
      const b = new Builder('ov');
      const x = b.input('x', 'f32', shape);
      const n = b.node(b.graph, 'VariadicSplit', [x, b.init('a', tensorFromInt64([1], [])), b.init('l', tensorFromInt64([1, -1]))], ['p', 'q']);
      n.outputs.forEach((o) => b.output(o));
      return convertModel(b.model, { opset: 13 });
    };
    const known = split([2, 5]);
    expect(ops(known)).toEqual(['Split']);
    expect(known.graph.nodes[0]!.inputs[1]!.constant!.data).toEqual(tensorFromInt64([1, 4]).data);
    expect(ops(split([2, null]))).toEqual(['Shape', 'Gather', 'Sub', 'Concat', 'Split']);
  });
});

describe('Trilu (no OpenVINO op)', () => {
  it('is a band mask from two Ranges selecting x or 0, as OpenVINO builds it (its Subtract form crashes on empty axes)', () => {
    const b = new Builder('onnx', 14);
    const x = b.input('x', 'f32', [3, 0, 5]);
    b.output(b.op(b.graph, 'Trilu', [x, b.init('k', tensorFromInt64([1], []))], 'y', { upper: A.int(0) }));
    const got = ops(convertModel(b.model));
    expect(got.filter((o) => o === 'Range')).toHaveLength(2);
    expect(got).toContain('LessEqual');
    expect(got[got.length - 1]).toBe('Select');
  });
});

describe('OneHot', () => {
  const onnxOneHot = (opset: number) => {
    const b = new Builder('onnx', opset);
    const i = b.input('i', 'i64', [3]);
    const d = b.input('d', 'f32', []);
    const v = b.input('v', 'f32', [2]);
    b.output(b.op(b.graph, 'OneHot', [i, d, v], 'y', { axis: A.int(0) }));
    return b.model;
  };

  it('ONNX-11 counts negative indices from the end (IR normalize), ONNX-9 does not (ignore_negative)', () => {
    for (const [opset, mode] of [[11, 'normalize'], [9, 'ignore_negative']] as const) {
      const ir = convertModel(onnxOneHot(opset));
      const n = ir.graph.nodes.find((x) => x.op === 'OneHot')!;
      expect(n.attrs.get('negative_indices_mode')).toEqual(A.raw(mode));
      expect(ops(ir)).toEqual(['Convert', 'Gather', 'Gather', 'OneHot']); // depth f32 → i64; values → on / off
    }
  });

  it('back to ONNX: values are [off, on]; ignore_negative at opset 11+ moves negative indices out of range; normalize needs 11', () => {
    const ir9 = convertModel(onnxOneHot(9));
    expect(ops(convertModel(ir9, { opset: 11 }))).toEqual(expect.arrayContaining(['Less', 'Where', 'Concat', 'OneHot']));
    expect(fails(() => convertModel(convertModel(onnxOneHot(11)), { opset: 10 }))).toMatch(/negative indices from the end from opset 11/);
  });
});

describe('Hardmax, TopK indices', () => {
  it('Hardmax-13 is a stable TopK k=1 one-hot along the axis; Hardmax-11 flattens to 2-D first', () => {
    const hardmax = (opset: number) => {
      const b = new Builder('onnx', opset);
      b.output(b.op(b.graph, 'Hardmax', [b.input('x', 'f32', [2, 3, 4])], 'y'));
      return ops(convertModel(b.model));
    };
    expect(hardmax(13)).toEqual(['TopK', 'ShapeOf', 'Gather', 'Squeeze', 'OneHot']);
    expect(hardmax(11)).toEqual(expect.arrayContaining(['ReduceProd', 'Reshape', 'TopK', 'OneHot']));
  });

  it('IR TopK with i32 indices is ONNX TopK with a Cast of its int64 indices', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [2, 3]);
    const n = b.node(b.graph, 'TopK', [x, b.init('k', tensorFromInt64([1], []))], ['v', 'i'], { axis: A.raw('1'), mode: A.raw('max'), sort: A.raw('value'), index_element_type: A.raw('i32') }, { version: 'opset11' });
    n.outputs.forEach((o) => b.output(o));
    const onnx = convertModel(b.model);
    expect(ops(onnx)).toEqual(['TopK', 'Cast']);
    expect(onnx.graph.nodes[1]!.attrs.get('to')).toEqual(A.int(6));
  });
});

describe('EyeLike ⇄ Eye-9', () => {
  it('ONNX → IR reads rows and columns off the input shape; IR → ONNX builds the shape with ConstantOfShape', () => {
    const b = new Builder('onnx', 9);
    b.output(b.op(b.graph, 'EyeLike', [b.input('x', 'i32', [3, 4])], 'y', { k: A.int(1), dtype: A.int(1) }));
    const ir = convertModel(b.model);
    expect(ops(ir)).toEqual(['ShapeOf', 'Gather', 'Gather', 'Eye']);
    expect(ir.graph.nodes[3]!.attrs.get('output_type')).toEqual(A.raw('f32'));
    const back = convertModel(ir, { opset: 17 });
    const eye = back.graph.nodes.find((n) => n.op === 'EyeLike')!;
    expect([eye.attrs.get('k'), eye.attrs.get('dtype')]).toEqual([A.int(1), A.int(1)]);
  });

  it('a run-time diagonal has no ONNX form (EyeLike k is an attribute)', () => {
    const b = new Builder('ov');
    const n = b.input('n', 'i64', []);
    b.output(b.op(b.graph, 'Eye', [n, n, b.input('d', 'i64', [])], 'y', { output_type: A.raw('f32') }, { version: 'opset9' }));
    expect(fails(() => convertModel(b.model))).toMatch(/diagonal_index/);
  });
});

describe('NonMaxSuppression', () => {
  it('ONNX thresholds become IR scalars; no score_threshold keeps every score (-inf); results in ONNX order', () => {
    const b = new Builder('onnx', 11);
    const n = b.node(b.graph, 'NonMaxSuppression', [b.input('b', 'f32', [1, 6, 4]), b.input('s', 'f32', [1, 1, 6]), b.init('m', tensorFromInt64([3]))], ['sel'], { center_point_box: A.int(1) });
    b.output(n.outputs[0]!);
    const ir = convertModel(b.model);
    const nms = ir.graph.nodes.find((x) => x.op === 'NonMaxSuppression')!;
    expect(nms.inputs).toHaveLength(5);
    expect(nms.attrs.get('box_encoding')).toEqual(A.raw('center'));
    expect(nms.attrs.get('sort_result_descending')).toEqual(A.raw('false'));
  });

  it('IR sort_result_descending=true has no ONNX form', () => {
    const b = new Builder('ov');
    const n = b.node(b.graph, 'NonMaxSuppression', [b.input('b', 'f32', [1, 6, 4]), b.input('s', 'f32', [1, 1, 6])], ['sel', 'sc', 'v'], { sort_result_descending: A.raw('true') }, { version: 'opset9' });
    b.output(n.outputs[0]!);
    expect(fails(() => convertModel(b.model))).toMatch(/sort_result_descending/);
  });
});

describe('quantization', () => {
  const q = (op: string, attrs: Record<string, Attr> = {}, opset = 13) => {
    const b = new Builder('onnx', opset);
    const x = b.input('x', op === 'QuantizeLinear' ? 'f32' : 'u8', [1, 3, 2]);
    const s = b.input('s', 'f32', [3]);
    const z = b.input('z', 'u8', [3]);
    b.output(b.op(b.graph, op, [x, s, z], 'y', attrs));
    return b.model;
  };

  it('QuantizeLinear is FakeQuantize + Convert, a per-axis scale unsqueezed to broadcast along the axis', () => {
    const got = ops(convertModel(q('QuantizeLinear')));
    expect(got).toContain('FakeQuantize');
    expect(got.filter((o) => o === 'Unsqueeze')).toHaveLength(2);
    expect(got[got.length - 1]).toBe('Convert');
  });

  it('DequantizeLinear is (Convert(x) - Convert(zp)) · scale', () => {
    expect(ops(convertModel(q('DequantizeLinear')))).toEqual(['Unsqueeze', 'Unsqueeze', 'Convert', 'Convert', 'Subtract', 'Multiply']);
  });

  it('block quantization with a scale of another rank than x is refused naming the problem', () => {
    expect(fails(() => convertModel(q('QuantizeLinear', { block_size: A.int(2) }, 21)))).toMatch(/block quantization needs static shapes of x and of input 1, of one rank/);
  });

  it('IR FakeQuantize comes back as its elementwise definition', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [2, 3]);
    const lo = b.input('lo', 'f32', []);
    const hi = b.input('hi', 'f32', []);
    b.output(b.op(b.graph, 'FakeQuantize', [x, lo, hi, lo, hi], 'y', { levels: A.raw('256'), auto_broadcast: A.raw('numpy') }));
    expect(ops(convertModel(b.model))).toEqual(expect.arrayContaining(['Round', 'LessOrEqual', 'Greater', 'Where']));
  });
});

describe('QLinearMatMul, DynamicQuantizeLinear', () => {
  it('QLinearMatMul is dequantized operands, MatMul, then quantized', () => {
    const b = new Builder('onnx', 10);
    const s = () => b.input(`s${b.graph.inputs.length}`, 'f32', []);
    const z = () => b.input(`z${b.graph.inputs.length}`, 'u8', []);
    const a = b.input('a', 'u8', [2, 3]);
    const as = s(); const az = z();
    const m = b.input('m', 'u8', [3, 2]);
    const ms = s(); const mz = z(); const ys = s(); const yz = z();
    b.output(b.op(b.graph, 'QLinearMatMul', [a, as, az, m, ms, mz, ys, yz], 'y'));
    const got = ops(convertModel(b.model));
    expect(got.indexOf('MatMul')).toBeGreaterThan(0);
    expect(got.indexOf('FakeQuantize')).toBeGreaterThan(got.indexOf('MatMul'));
  });

  it('DynamicQuantizeLinear is its definition: range over all elements, Round half to even, Clamp, u8', () => {
    const b = new Builder('onnx', 11);
    const n = b.node(b.graph, 'DynamicQuantizeLinear', [b.input('x', 'f32', [2, 3])], ['y', 'scale', 'zp']);
    n.outputs.forEach((o) => b.output(o));
    const got = ops(convertModel(b.model));
    expect(got).toEqual(expect.arrayContaining(['ReduceMin', 'ReduceMax', 'Round', 'Clamp', 'Convert']));
    expect(got).not.toContain('FakeQuantize');
  });
});

describe('Compress (no OpenVINO op)', () => {
  it('gathers the NonZero indices of the condition along the axis, or along the flattened input', () => {
    const compress = (attrs: Record<string, Attr>) => {
      const b = new Builder('onnx', 11);
      b.output(b.op(b.graph, 'Compress', [b.input('x', 'f32', [2, 3]), b.input('c', 'boolean', [3])], 'y', attrs));
      return ops(convertModel(b.model));
    };
    expect(compress({ axis: A.int(1) })).toEqual(['NonZero', 'Squeeze', 'Gather']);
    expect(compress({})).toEqual(['NonZero', 'Squeeze', 'Reshape', 'Gather']);
  });
});
