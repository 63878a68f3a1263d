import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { AttrType } from '../../src/onnx/schema.js';
import { diagnosticsOf } from '../helpers/diagnostics.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * An attribute whose value is not where its type says (found by a hostile-input campaign): an INT
 * holding only a string was read as 0, and a Softmax 'axis' of type GRAPH was taken as a body and
 * dropped, the op reading its default axis; onnx.checker and onnxruntime refuse both models
 * ("type field and data field mismatch", "Mismatched attribute type").
 */
function softmaxWith(axis: object): Uint8Array {
  const n = ob.node('Softmax', ['x'], ['y']);
  return ob.encodeModelProto(ob.model({
    opset: 17,
    graph: ob.graph({ name: 'main', inputs: [ob.valueInfo('x', 'f32', [2, 3])], outputs: [ob.valueInfo('y', 'f32', [2, 3])], nodes: [{ ...n, attribute: [{ name: 'axis', ...axis }] }] }),
  }));
}

describe('an attribute whose value field is not its type\'s', () => {
  it('an INT holding a string: ONNX_BAD_ATTR naming node and attribute, never 0', () => {
    expect(diagnosticsOf(() => decodeOnnx(softmaxWith({ type: AttrType.INT, s: new TextEncoder().encode('zz') })))).toEqual([
      "ONNX_BAD_ATTR main/Softmax#0: attribute 'axis': its type is INT but it holds a STRING value (field 's')",
    ]);
  });

  it('two value fields set', () => {
    expect(diagnosticsOf(() => decodeOnnx(softmaxWith({ type: AttrType.INT, i: 0n, f: 1 })))).toEqual([
      "ONNX_BAD_ATTR main/Softmax#0: attribute 'axis': its type is INT but it holds a FLOAT value (field 'f')",
    ]);
    expect(diagnosticsOf(() => decodeOnnx(softmaxWith({ i: 0n, f: 1 })))).toEqual([
      "ONNX_BAD_ATTR main/Softmax#0: attribute 'axis': it holds more than one value field",
    ]);
  });

  it('an INT with no value field is its default 0, as onnx.checker allows', () => {
    expect(diagnosticsOf(() => decodeOnnx(softmaxWith({ type: AttrType.INT })))).toEqual([]);
  });

  it('a graph where the schema has an int: refused by the conversion, not dropped', () => {
    const m = decodeOnnx(softmaxWith({ type: AttrType.GRAPH }));
    expect(diagnosticsOf(() => convertModel(m, { to: 'ov' }))).toEqual([
      "CONVERT_UNSUPPORTED_ATTR main/Softmax#0: Softmax: attribute 'axis' = <graph> is not supported (the Softmax-13 schema says int)",
    ]);
  });
});
