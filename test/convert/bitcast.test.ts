import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, elementType, type ElementTypeName, type Model } from '../../src/graph/index.js';
import { Builder } from './builder.js';

/**
 * ONNX BitCast-26 → IR (mappings/tensor/bitcast.ts): the same bits read as another type of the same
 * width. A Convert gives them between integer types of one width (it wraps) and from boolean to
 * 8-bit integers; the backend's test_bitcast_* are judged in convert-zoo.test.ts.
 */
function model(from: ElementTypeName, to: ElementTypeName): Model {
  const b = new Builder('onnx', 26);
  const x = b.input('x', from, [2, 3]);
  const n = b.graph.addNode({ dialect: 'onnx', op: 'BitCast', version: '26', name: 'bitcast' });
  n.addInput(x);
  n.attrs.set('to', A.int(elementType(to).onnx!));
  b.output(n.addOutput(null, ['y']));
  return b.model;
}
const refusal = (m: Model): string[] => {
  try { convertModel(m); return []; } catch (e) {
    return (e as OvirError).diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`);
  }
};

describe('BitCast → IR', () => {
  it.each([['i8', 'u8'], ['u16', 'i16'], ['u32', 'i32'], ['i64', 'u64'], ['boolean', 'u8'], ['boolean', 'i8']] as const)('%s → %s is a Convert', (from, to) => {
    const out = convertModel(model(from, to));
    expect([...allNodes(out.graph)].map((n) => n.op)).toEqual(['Convert']);
    expect(out.graph.outputs[0]!.type).toMatchObject({ elem: to, shape: [2, 3] });
  });
  it('to its own type is the input itself', () => {
    expect([...allNodes(convertModel(model('i32', 'i32')).graph)].map((n) => n.op)).toEqual([]);
  });
  it('floats to or from integers, integers to boolean and other widths are refused, saying why', () => {
    expect(refusal(model('f32', 'i32'))).toEqual([
      "CONVERT_UNSUPPORTED_ATTR main/bitcast: BitCast: attribute 'to' = i32 is not supported (reading the bits of f32 as i32 needs an op that reinterprets bits, which OpenVINO has not; it converts integers of one width, and booleans to 8-bit integers)",
    ]);
    expect(refusal(model('u8', 'boolean'))[0]).toMatch(/attribute 'to' = boolean is not supported/);
    expect(refusal(model('i32', 'i16'))).toEqual(['CONVERT_OP main/bitcast: BitCast: i32 is 32 bits and i16 16: BitCast keeps the width']);
  });
});
