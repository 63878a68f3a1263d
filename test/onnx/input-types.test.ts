import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { diagnosticsOf } from '../helpers/diagnostics.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * A node input of an element type its schema's type constraint does not take (found by a
 * hostile-input campaign): Reshape's shape as strings was converted to an IR that OpenVINO 2026.4
 * cannot read ("Element not supported"), a Loop trip count of f32 to one its CPU plugin refuses;
 * onnx.checker (full_check) and onnxruntime refuse both models.
 */
const model = (nodes: ReturnType<typeof ob.node>[], inputs: ReturnType<typeof ob.valueInfo>[], initializers: ReturnType<typeof ob.tensor>[]) =>
  decodeOnnx(ob.encodeModelProto(ob.model({
    opset: 17, graph: ob.graph({ name: 'main', inputs, outputs: [ob.valueInfo('y', 'f32', null)], nodes, initializers }),
  })));

describe('an input of a type the op does not take', () => {
  it('Reshape with a shape of strings: SHAPE_RULE naming node, input and what the schema takes', () => {
    const m = model([ob.node('Reshape', ['x', 's'], ['y'])], [ob.valueInfo('x', 'f32', [2])], [ob.stringTensor('s', [1], ['2'])]);
    expect(diagnosticsOf(() => convertModel(m, { to: 'ov' }))).toEqual([
      'SHAPE_RULE main/Reshape#0: Reshape: input 1 has element type string, which the Reshape-14 schema does not take (it takes i64); onnx.checker and onnxruntime refuse the node',
    ]);
  });

  it('a Loop trip count of f32 (its body\'s captures are not checked as inputs)', () => {
    const body = ob.graph({
      name: 'body', inputs: [ob.valueInfo('i', 'i64', []), ob.valueInfo('c', 'boolean', []), ob.valueInfo('v', 'f32', [2])],
      outputs: [ob.valueInfo('c2', 'boolean', []), ob.valueInfo('v2', 'f32', [2])],
      nodes: [ob.node('Identity', ['c'], ['c2']), ob.node('Add', ['v', 'x'], ['v2'])],
    });
    const m = model([ob.node('Loop', ['M', '', 'x'], ['y'], { body: ob.attr.graph(body) })], [ob.valueInfo('M', 'f32', []), ob.valueInfo('x', 'f32', [2])], []);
    expect(diagnosticsOf(() => convertModel(m, { to: 'ov' }))).toEqual([
      'SHAPE_RULE main/Loop#0: Loop: input 0 has element type f32, which the Loop-16 schema does not take (it takes i64); onnx.checker and onnxruntime refuse the node',
    ]);
  });
});
