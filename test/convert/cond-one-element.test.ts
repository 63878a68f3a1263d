import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { diagnosticsOf } from '../helpers/diagnostics.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * An If condition, a Loop trip count or condition whose shape says it holds other than one
 * element (found by a hostile-input campaign) was converted: an If on a constant boolean[2] or
 * boolean[0] to an IR OpenVINO 2026.4 refuses to read (if.cpp: 'val.size() == 1'), a Loop with
 * M of [2] or cond of [3] to one its CPU plugin refuses to compile; onnxruntime 1.31 fails on
 * each. Refused, naming the node.
 */
const branch = (op: string, out: string) => ob.graph({ name: out, outputs: [ob.valueInfo(out, 'f32', [2])], nodes: [ob.node(op, ['x'], [out])] });
const convert = (nodes: ReturnType<typeof ob.node>[], inputs: ReturnType<typeof ob.valueInfo>[], initializers: ReturnType<typeof ob.tensor>[] = []) =>
  diagnosticsOf(() => convertModel(decodeOnnx(ob.encodeModelProto(ob.model({
    opset: 17, graph: ob.graph({ name: 'main', inputs, outputs: [ob.valueInfo('y', 'f32', null)], nodes, initializers }),
  }))), { to: 'ov' }));

describe('a condition or trip count of other than one element', () => {
  it.each([
    ['a constant condition of two elements', [ob.boolTensor('c', [2], [true, false])], []],
    ['a constant condition of none', [ob.boolTensor('c', [0], [])], []],
    ['a condition input of shape [2]', [], [ob.valueInfo('c', 'boolean', [2])]],
  ])('If: %s', (_, inits, ins) => {
    const node = ob.ifNode('c', ['y'], branch('Neg', 'a'), branch('Abs', 'b'));
    const d = convert([node], [...ins, ob.valueInfo('x', 'f32', [2])], inits);
    expect(d).toHaveLength(1);
    expect(d[0]).toMatch(/^CONVERT_OP main\/If#0: .*the condition is boolean\[(2|0)\]; an If condition holds exactly one element/);
  });

  it('Loop: M of [2], cond of [3]', () => {
    const body = ob.graph({
      name: 'body', inputs: [ob.valueInfo('i', 'i64', []), ob.valueInfo('c0', 'boolean', []), ob.valueInfo('v', 'f32', [2])],
      outputs: [ob.valueInfo('c1', 'boolean', []), ob.valueInfo('v2', 'f32', [2])],
      nodes: [ob.node('Identity', ['c0'], ['c1']), ob.node('Add', ['v', 'x'], ['v2'])],
    });
    const d = convert([ob.node('Loop', ['M', 'c', 'x'], ['y'], { body: ob.attr.graph(body) })],
      [ob.valueInfo('M', 'i64', [2]), ob.valueInfo('c', 'boolean', [3]), ob.valueInfo('x', 'f32', [2])]);
    expect(d.join('\n')).toMatch(/the trip count M is i64\[2\]; it holds exactly one element/);
    expect(d.join('\n')).toMatch(/the condition is boolean\[3\]; it holds exactly one element/);
  });
});
