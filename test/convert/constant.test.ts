import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, readFloats, readIntegers, tensorFromFloat32, type Attr } from '../../src/graph/index.js';
import { Builder } from './builder.js';

/**
 * ONNX Constant ⇄ IR Const. IR Const is not a layer of its own in ovir's graph but a constant
 * value (graph.initializers): an ONNX Constant node becomes one, from whichever value attribute
 * it has, and goes back to ONNX as an initializer.
 */
function constantModel(attrs: Record<string, Attr>) {
  const b = new Builder('onnx', 17);
  const n = b.node(b.graph, 'Constant', [], ['k'], attrs, { name: 'k' });
  b.output(b.op(b.graph, 'Identity', [n.outputs[0]!], 'y'));
  return b.model;
}

describe('Constant ⇄ Const', () => {
  it('value (a tensor) becomes an IR Const holding the same data, and an ONNX initializer back', () => {
    const ir = convertModel(constantModel({ value: A.tensor(tensorFromFloat32([1.5, -2], [2])) }));
    expect(ir.graph.nodes.map((n) => n.op)).toEqual(['Identity']);
    const k = ir.graph.nodes[0]!.inputs[0]!;
    expect(k.constant && readFloats(k.constant)).toEqual([1.5, -2]);
    const back = convertModel(ir, { opset: 17 });
    expect(back.graph.initializers.map((v) => readFloats(v.constant!))).toEqual([[1.5, -2]]);
  });

  it('value_ints and value_float give an int64 vector and a float scalar', () => {
    const ints = convertModel(constantModel({ value_ints: A.ints([3, 4]) })).graph.nodes[0]!.inputs[0]!.constant!;
    expect([ints.elem, ints.dims, readIntegers(ints)]).toEqual(['i64', [2], [3n, 4n]]);
    const f = convertModel(constantModel({ value_float: A.float(0.5) })).graph.nodes[0]!.inputs[0]!.constant!;
    expect([f.elem, f.dims, readFloats(f)]).toEqual(['f32', [], [0.5]]);
  });

  it('a Constant with two value attributes is refused, naming the node', () => {
    let msg = '';
    try { convertModel(constantModel({ value_float: A.float(1), value_int: A.int(1) })); } catch (e) { if (e instanceof OvirError) msg = e.message; }
    expect(msg).toMatch(/main\/k.*exactly one value attribute/s);
  });
});
