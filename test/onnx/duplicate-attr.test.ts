import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { diagnosticsOf } from '../helpers/diagnostics.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * An attribute given twice on one node is an error (ONNX_BAD_ATTR): the last one silently won (an
 * If with two then_branch attributes returning 1 and 2 was converted with the second), where
 * onnx.checker and onnxruntime refuse the model (found by a hostile-input campaign).
 */
describe('an attribute given twice', () => {
  it('an If with two then_branch attributes: one error naming the attribute and the node', () => {
    const branch = (out: string, v: number) => ob.graph({ name: out, outputs: [ob.valueInfo(out, 'f32', [])], nodes: [ob.node('Constant', [], [out], { value: ob.floatTensor(`${out}_v`, [], [v]) })] });
    const node = ob.ifNode('c', ['y'], branch('a', 1), branch('e', 3));
    const second = ob.node('If', [], [], { then_branch: ob.attr.graph(branch('b', 2)) }).attribute![0]!;
    const bytes = ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({ name: 'main', inputs: [ob.valueInfo('c', 'boolean', [])], outputs: [ob.valueInfo('y', 'f32', [])], nodes: [{ ...node, attribute: [...node.attribute!, second] }] }),
    }));
    const got = diagnosticsOf(() => decodeOnnx(bytes));
    expect(got).toEqual(["ONNX_BAD_ATTR main/If#0: attribute 'then_branch': given more than once on this node (onnx.checker and onnxruntime refuse the model)"]);
  });
});
