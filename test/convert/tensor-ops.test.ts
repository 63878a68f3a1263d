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
    const b = new Builder('onnx', 11);
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
