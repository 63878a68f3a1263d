import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import type { Node } from '../../src/graph/node.js';
import type { Value } from '../../src/graph/value.js';
import { tensorFromInt64 } from '../../src/graph/tensor.js';
import { Builder } from '../convert/builder.js';
import { A, B, errors, shapeOf } from './build.js';

const raw = (v: string) => A.raw(v);

/**
 * Silero VAD's LSTM wrapper in IR: `if x.rank != 2: x = Unsqueeze(x, 0)` computed from shapes
 * (ShapeOf → ShapeOf → ReduceProd → Equal → LogicalNot → Convert to boolean), then the LSTM's
 * Transpose with order [1,0,2]. OpenVINO folds the condition while validating, infers only the
 * taken body, and rejects the Transpose when x has rank 3 (the Unsqueeze makes it rank 4).
 */
function rankSwitch(xShape: number[], order: number[]) {
  const b = new B('ov');
  const x = b.input('x', 'f32', xShape);
  const shape = b.node('ShapeOf', [x], {}, { version: 'opset3' }).outputs[0]!;
  const rank = b.node('ShapeOf', [shape], {}, { version: 'opset3' }).outputs[0]!;
  const size = b.node('ReduceProd', [rank, b.i64([0])], { keep_dims: raw('false') }).outputs[0]!;
  const isTwo = b.node('Equal', [size, b.i64([2], [])]).outputs[0]!;
  const not = b.node('LogicalNot', [isTwo]).outputs[0]!;
  const cond = b.node('Convert', [not], { destination_type: raw('boolean') }).outputs[0]!;
  const n = b.node('If', [cond, x], {}, { version: 'opset8', name: 'If' });
  const bodyOf = (key: string, make: (p: Value, g: B) => Value) => {
    const body = b.g.addBody(n, key);
    const p = body.graph.addInput(null, ['p']);
    body.inputs.push({ param: p, from: 1 });
    const inner = new B('ov', 'opset1', body.graph);
    body.graph.outputs.push(make(p, inner));
    body.outputs.push({ result: 0, to: 0 });
  };
  bodyOf('then_body', (p, g) => g.node('Unsqueeze', [p, g.i64([0])]).outputs[0]!);
  bodyOf('else_body', (p, g) => g.node('Relu', [p]).outputs[0]!);
  const t: Node = b.node('Transpose', [n.outputs[0]!, b.i64(order)], {}, { name: 'LSTM/Transpose' });
  b.g.outputs.push(t.outputs[0]!);
  return { b, ifOut: n.outputs[0]!, cond };
}

describe('OpenVINO-side inference folds shape-computed If conditions as OpenVINO does (issue 8 item 5)', () => {
  it('the condition is known data, the If takes one body: rank 4, not a dynamic rank', () => {
    const { b, ifOut } = rankSwitch([1, 128, 2], [1, 0, 2, 3]);
    const r = b.infer();
    expect(shapeOf(r, ifOut)).toEqual([1, 1, 128, 2]);
    expect(errors(r)).toEqual([]);
  });

  it('a Transpose whose order does not fit the taken body\'s rank is an error, as OpenVINO\'s read_model fails', () => {
    const { b } = rankSwitch([1, 128, 2], [1, 0, 2]);
    expect(errors(b.infer()).map((d) => [d.code, d.where, d.message])).toEqual([
      ['SHAPE_RULE', 'main/LSTM/Transpose', 'Transpose: order 1,0,2 does not permute rank 4'],
    ]);
  });

  it('ONNX → IR refuses to write an IR OpenVINO would reject (the ONNX is fine: onnx\'s If merge drops the rank)', () => {
    const o = new Builder('onnx');
    const x = o.input('x', 'f32', [1, 128, 2]);
    const size = o.op(o.graph, 'Size', [o.op(o.graph, 'Shape', [x], 'shape')], 'size');
    const cond = o.op(o.graph, 'Not', [o.op(o.graph, 'Equal', [size, o.init('two', tensorFromInt64([2], []))], 'is2')], 'cond');
    const n = o.ifNode(o.graph, cond, ['y']);
    const t = o.body(n, 'then_branch');
    o.results(t, [o.op(t, 'Unsqueeze', [x, o.init('ax', tensorFromInt64([0]), t)], 'x4')]);
    const e = o.body(n, 'else_branch');
    o.results(e, [o.op(e, 'Identity', [x], 'x3')]);
    o.output(o.op(o.graph, 'Transpose', [n.outputs[0]!], 'z', { perm: A.ints([1, 0, 2]) }));
    let err: unknown;
    try { convertModel(o.model); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(OvirError);
    expect((err as OvirError).diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.message]))
      .toEqual([['SHAPE_RULE', 'Transpose: order 1,0,2 does not permute rank 4']]);
  });

  it('known data flows through Broadcast, multi-dim Slice and Transpose (the STFT padding chain)', () => {
    const b = new B('ov');
    const zeros = b.node('Broadcast', [b.i64([0], []), b.i64([2])], {}, { version: 'opset3' }).outputs[0]!;
    const cat = b.node('Concat', [b.i64([0, 32]), zeros], { axis: A.int(0) }).outputs[0]!;
    const m = b.node('Reshape', [cat, b.i64([-1, 2])], { special_zero: raw('false') }).outputs[0]!;
    const rev = b.node('Slice', [m, b.i64([-1]), b.i64([-1000]), b.i64([-1]), b.i64([0])], {}, { version: 'opset8' }).outputs[0]!;
    const tr = b.node('Transpose', [rev, b.i64([1, 0])]).outputs[0]!;
    const t2 = b.node('Transpose', [b.i64([1, 2, 3, 4, 5, 6], [2, 3]), b.i64([1, 0])]).outputs[0]!;
    const r = b.infer();
    expect(r.values.get(t2)).toEqual([1, 4, 2, 5, 3, 6]);
    expect(r.values.get(zeros)).toEqual([0, 0]);
    expect(r.values.get(rev)).toEqual([0, 0, 0, 32]);
    expect(r.values.get(tr)).toEqual([0, 0, 0, 32]);
  });
});
