import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { inferTypes } from '../../src/shape/infer.js';
import { diagnosticsOf } from '../helpers/diagnostics.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * A node's inputs and outputs are counted against its operator schema as onnx's
 * OpSchema::Verify counts them (onnxruntime runs it on every node): the number written (empty
 * names included) within the schema's range, and no empty name for a single (required) parameter.
 * Before, Softmax with two inputs, Relu with two outputs, Reshape with one input and Neg of an
 * empty name converted with exit 0 to an IR OpenVINO cannot read (a hostile-input campaign).
 */
function modelOf(node: ReturnType<typeof ob.node>, outputs = ['y'], opset = 13): Uint8Array {
  return ob.encodeModelProto(ob.model({
    opset,
    graph: ob.graph({
      name: 'main',
      inputs: [ob.valueInfo('x', 'f32', [2, 3])],
      outputs: outputs.map((o) => ob.valueInfo(o, 'f32', null)),
      nodes: [node],
    }),
  }));
}

const refused = (bytes: Uint8Array) => diagnosticsOf(() => convertModel(decodeOnnx(bytes)));

describe('ONNX node arity against the schema (ONNX → IR)', () => {
  it('too many inputs: Softmax with two', () => {
    expect(refused(modelOf(ob.node('Softmax', ['x', 'x'], ['y'], {}, { name: 's' }))))
      .toEqual(['ONNX_NODE_ARITY main/s: Softmax: 2 inputs where the Softmax-13 schema takes 1 (onnx.checker and onnxruntime refuse the node)']);
  });

  it('too few inputs: Reshape without its shape', () => {
    expect(refused(modelOf(ob.node('Reshape', ['x'], ['y'], {}, { name: 'r' }))))
      .toEqual(["ONNX_NODE_ARITY main/r: Reshape: 1 input where the Reshape-13 schema takes 2 ('shape' missing) (onnx.checker and onnxruntime refuse the node)"]);
  });

  it('too many outputs: Relu with two', () => {
    expect(refused(modelOf(ob.node('Relu', ['x'], ['y', 'z'], {}, { name: 'r' }), ['y', 'z'])))
      .toEqual(['ONNX_NODE_ARITY main/r: Relu: 2 outputs where the Relu-13 schema has 1 (onnx.checker and onnxruntime refuse the node)']);
  });

  it('a required input given as an empty name', () => {
    expect(refused(modelOf(ob.node('Neg', [''], ['y'], {}, { name: 'n' }))))
      .toEqual(["ONNX_NODE_ARITY main/n: Neg: input 0 ('X' in the Neg-13 schema) is required, but its name is empty (onnx.checker and onnxruntime refuse the node)"]);
  });

  it('every problem of the model at once', () => {
    const bytes = ob.encodeModelProto(ob.model({
      opset: 13,
      graph: ob.graph({
        name: 'main',
        inputs: [ob.valueInfo('x', 'f32', [2, 3])],
        outputs: [ob.valueInfo('b', 'f32', null)],
        nodes: [ob.node('Softmax', ['x', 'x'], ['a'], {}, { name: 's' }), ob.node('Relu', ['a'], ['b', 'c'], {}, { name: 'r' })],
      }),
    }));
    expect(refused(bytes).map((d) => d.split(':')[0])).toEqual(['ONNX_NODE_ARITY main/s', 'ONNX_NODE_ARITY main/r']);
  });

  it('still converts: optional inputs and outputs left out or empty (Clip without min, Dropout without mask)', () => {
    expect(refused(modelOf(ob.node('Clip', ['x', '', ''], ['y'], {}, { name: 'c' })))).toEqual([]);
    expect(refused(modelOf(ob.node('Clip', ['x'], ['y'], {}, { name: 'c' })))).toEqual([]);
    expect(refused(modelOf(ob.node('Dropout', ['x'], ['y', ''], {}, { name: 'd' })))).toEqual([]);
  });

  it('shape inference reports it too (ovir shapes / check), and infers nothing for the node', () => {
    const r = inferTypes(decodeOnnx(modelOf(ob.node('Softmax', ['x', 'x'], ['y'], {}, { name: 's' }))));
    expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual(['ONNX_NODE_ARITY']);
  });
});
