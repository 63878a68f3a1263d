import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeModelProto, floatTensor, graph, int64Tensor, model, node, valueInfo } from '../helpers/onnx-builder.js';

describe('ONNX semantics IR has no direct form for', () => {
  it('a graph input with an initializer (old-style default) becomes a Const holding the default, as ovc does', () => {
    const bytes = encodeModelProto(model({
      opset: 9,
      graph: graph({
        name: 'g',
        inputs: [valueInfo('x', 'f32', [2]), valueInfo('w', 'f32', [2])],
        initializers: [floatTensor('w', [2], [1, 2])],
        nodes: [node('Add', ['x', 'w'], ['y'])],
        outputs: [valueInfo('y', 'f32', [2])],
      }),
    }));
    const ir = convertModel(decodeOnnx(bytes), { to: 'ov' });
    expect(ir.graph.inputs.map((v) => v.name)).toEqual(['x']);
    expect(ir.graph.initializers.map((v) => v.name)).toEqual(['w']);
  });

  it('ReduceSum-13 with run-time axes reduces every dim when they are empty (noop_with_empty_axes=0)', () => {
    const bytes = encodeModelProto(model({
      opset: 13,
      graph: graph({
        name: 'g',
        inputs: [valueInfo('x', 'f32', [3, 2]), valueInfo('axes', 'i64', [null])],
        nodes: [node('ReduceSum', ['x', 'axes'], ['y'], { keepdims: 1 })],
        outputs: [valueInfo('y', 'f32', null)],
      }),
    }));
    const ir = convertModel(decodeOnnx(bytes), { to: 'ov' });
    const reduce = ir.graph.nodes.find((n) => n.op === 'ReduceSum')!;
    // the axes operand is `axes ++ range(0, rank * (len(axes) == 0))`, not the raw input
    const axes = reduce.inputs[1]!;
    expect(axes.producer?.op).toBe('Concat');
    expect(axes.producer!.inputs[0]!.name).toBe('axes');
    expect(axes.producer!.inputs[1]!.producer?.op).toBe('Range');
  });
});

describe('boolean ReduceMax/ReduceMin (OpenVINO reduces no booleans with ReduceMax/Min)', () => {
  const boolReduce = (op: string) => decodeOnnx(encodeModelProto(model({
    opset: 20, // ReduceMax/ReduceMin take booleans from opset 20
    graph: graph({
      name: 'g',
      inputs: [valueInfo('x', 'boolean', [2, 3])],
      initializers: [int64Tensor('axes', [1], [1])],
      nodes: [node(op, ['x', 'axes'], ['y'], { keepdims: 0 })],
      outputs: [valueInfo('y', 'boolean', [2])],
    }),
  })));

  it.each(['ReduceMax', 'ReduceMin'])('%s on booleans reduces them as i32 and converts back', (op) => {
    const ir = convertModel(boolReduce(op), { to: 'ov' });
    expect(ir.graph.nodes.map((n) => n.op)).toEqual(['Convert', op, 'Convert']);
    expect(ir.graph.outputs[0]!.type).toMatchObject({ kind: 'tensor', elem: 'boolean' });
  });

  it.each([['ReduceLogicalOr', 'ReduceMax'], ['ReduceLogicalAnd', 'ReduceMin']])('IR %s → ONNX Cast, %s, Cast', (irOp, onnxOp) => {
    const ir = convertModel(boolReduce(onnxOp), { to: 'ov' });
    const r = ir.graph.nodes.find((n) => n.op === onnxOp)!;
    r.op = irOp;
    r.setInput(0, ir.graph.inputs[0]!);
    ir.graph.nodes = ir.graph.nodes.filter((n) => n === r);
    ir.graph.outputs[0] = r.outputs[0]!;
    r.outputs[0]!.type = { kind: 'tensor', elem: 'boolean', shape: [2] };
    const back = convertModel(ir, { to: 'onnx', opset: 13 });
    expect(back.graph.nodes.map((n) => n.op)).toEqual(['Cast', onnxOp, 'Cast']);
  });
});

describe('Einsum equation spelling', () => {
  it('drops the spaces ONNX allows and OpenVINO rejects ("bij, bjk -> bik" → "bij,bjk->bik")', () => {
    const m = decodeOnnx(encodeModelProto(model({
      opset: 12,
      graph: graph({
        name: 'g',
        inputs: [valueInfo('a', 'f32', [2, 3, 4]), valueInfo('b', 'f32', [2, 4, 5])],
        nodes: [node('Einsum', ['a', 'b'], ['y'], { equation: 'bij, bjk -> bik' })],
        outputs: [valueInfo('y', 'f32', [2, 3, 5])],
      }),
    })));
    const ir = convertModel(m, { to: 'ov' });
    expect(ir.graph.nodes[0]!.attrs.get('equation')).toMatchObject({ value: 'bij,bjk->bik' });
  });
});
