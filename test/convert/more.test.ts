import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { allNodes, verifyGraph } from '../../src/graph/index.js';
import { Builder } from './builder.js';
import { opsIf, typedIf } from './fixtures.js';

describe('If branches with ops of every family', () => {
  it('ONNX opset 18 → IR → ONNX opset 13 and 18', () => {
    const b = new Builder('onnx', 18);
    opsIf(b);
    const ir = convertModel(b.model);
    expect([...allNodes(ir.graph)].map((n) => n.op).sort()).toEqual(
      // the Transpose that only the MatMul reads is the MatMul's transpose flag
      ['Gather', 'If', 'MatMul', 'ReduceMax', 'ReduceSum', 'Relu', 'Sigmoid', 'Softmax'].sort());
    for (const opset of [13, 18]) {
      const back = convertModel(ir, { opset });
      expect(verifyGraph(back.graph)).toEqual([]);
      const rmax = [...allNodes(back.graph)].find((n) => n.op === 'ReduceMax')!;
      expect(rmax.attrs.has('axes')).toBe(opset < 18);
      expect(rmax.inputs.length).toBe(opset < 18 ? 1 : 2);
    }
  });

  it.each(['f32', 'i64', 'boolean', 'f16', 'i8', 'u8', 'i32', 'f64'] as const)('element type %s converts both ways', (elem) => {
    const b = new Builder('onnx');
    typedIf(b, elem);
    const ir = convertModel(b.model);
    expect(ir.graph.inputs[1]!.type).toMatchObject({ elem });
    const back = convertModel(ir);
    expect(back.graph.outputs[0]!.type).toMatchObject({ kind: 'tensor', elem });
  });
});
