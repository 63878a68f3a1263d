import { describe, expect, it } from 'vitest';
import { verifyGraph } from '../../src/graph/verify.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { ModelProto } from '../../src/onnx/proto-types.js';
import { T } from '../../src/onnx/schema.js';
import { decodeMessage } from '../../src/onnx/wire.js';
import * as ob from '../helpers/onnx-builder.js';
import { structure } from './structure.js';
import { hugeIdentityModel } from './huge-model.js';

describe('Loop and Scan bodies: formal inputs bound by position, captures after them', () => {
  it('Loop: body (iter, cond, v) ← node (M, cond, v_init); body outputs (cond, v) → node output v; outer reads are captures', () => {
    const body = ob.graph({
      name: 'loop_body',
      inputs: [ob.valueInfo('i', 'i64', []), ob.valueInfo('cond_in', 'boolean', []), ob.valueInfo('acc', 'f32', [2])],
      outputs: [ob.valueInfo('cond_out', 'boolean', []), ob.valueInfo('acc_out', 'f32', [2])],
      nodes: [ob.node('Identity', ['cond_in'], ['cond_out']), ob.node('Add', ['acc', 'step'], ['acc_out'])],
    });
    const bytes = ob.encodeModelProto(ob.model({
      graph: ob.graph({
        inputs: [ob.valueInfo('M', 'i64', []), ob.valueInfo('c', 'boolean', []), ob.valueInfo('a0', 'f32', [2]), ob.valueInfo('step', 'f32', [2])],
        outputs: [ob.valueInfo('a', 'f32', [2])],
        nodes: [ob.node('Loop', ['M', 'c', 'a0'], ['a'], { body }, { name: 'L' })],
      }),
    }));
    const m = decodeOnnx(bytes);
    const loop = m.graph.nodes[0]!;
    const b = loop.bodies.get('body')!;
    const [M, c, a0, step] = m.graph.inputs;
    expect(loop.inputs).toEqual([M, c, a0, step]);
    expect(loop.meta['onnxInputCount']).toBe(3);
    const [i, condIn, acc, stepParam] = b.graph.inputs;
    expect(b.inputs).toEqual([{ param: i, from: 0 }, { param: condIn, from: 1 }, { param: acc, from: 2 }, { param: stepParam, from: 3 }]);
    expect(stepParam!.meta['onnxCapture']).toBe(true);
    expect(b.outputs).toEqual([{ result: 1, to: 0 }]);
    expect(verifyGraph(m.graph)).toEqual([]);
    const mp = decodeMessage<ModelProto>(T.ModelProto, encodeOnnx(m).bytes);
    expect(mp.graph!.node![0]!.input).toEqual(['M', 'c', 'a0']);
    expect(mp.graph!.node![0]!.attribute![0]!.g!.input!.map((v) => v.name)).toEqual(['i', 'cond_in', 'acc']);
    expect(structure(decodeOnnx(encodeOnnx(m).bytes))).toEqual(structure(m));
  });

  it('Loop with an empty trip count leaves iteration_num unbound (nothing feeds it)', () => {
    const body = ob.graph({
      inputs: [ob.valueInfo('i', 'i64', []), ob.valueInfo('cond_in', 'boolean', [])],
      outputs: [ob.valueInfo('cond_out', 'boolean', [])],
      nodes: [ob.node('Not', ['cond_in'], ['cond_out'])],
    });
    const m = decodeOnnx(ob.encodeModelProto(ob.model({
      graph: ob.graph({ inputs: [ob.valueInfo('c', 'boolean', [])], nodes: [ob.node('Loop', ['', 'c'], [], { body })] }),
    })));
    const b = m.graph.nodes[0]!.bodies.get('body')!;
    expect(b.inputs).toEqual([{ param: b.graph.inputs[1], from: 1 }]);
    expect(b.outputs).toEqual([]);
  });

  it('Scan (opset 9+): body (state, scan_in) ← node (state, scan_in); outputs by position', () => {
    const body = ob.graph({
      inputs: [ob.valueInfo('s', 'f32', [2]), ob.valueInfo('x', 'f32', [2])],
      outputs: [ob.valueInfo('s2', 'f32', [2]), ob.valueInfo('y', 'f32', [2])],
      nodes: [ob.node('Add', ['s', 'x'], ['s2']), ob.node('Identity', ['s2'], ['y'])],
    });
    const m = decodeOnnx(ob.encodeModelProto(ob.model({
      graph: ob.graph({
        inputs: [ob.valueInfo('s0', 'f32', [2]), ob.valueInfo('xs', 'f32', [3, 2])],
        outputs: [ob.valueInfo('sN', 'f32', [2]), ob.valueInfo('ys', 'f32', [3, 2])],
        nodes: [ob.node('Scan', ['s0', 'xs'], ['sN', 'ys'], { body, num_scan_inputs: 1 })],
      }),
    })));
    const b = m.graph.nodes[0]!.bodies.get('body')!;
    expect(b.inputs.map((x) => x.from)).toEqual([0, 1]);
    expect(b.outputs).toEqual([{ result: 0, to: 0 }, { result: 1, to: 1 }]);
  });
});

describe('the 2 GB protobuf limit', () => {
  it('a model whose tensors exceed 2 GB gets them written as external data without being asked', () => {
    const { model: m, huge } = hugeIdentityModel();
    const { bytes, external } = encodeOnnx(m, { defaultLocation: 'big.onnx.data' });
    expect(external).toEqual([{ path: 'big.onnx.data', chunks: [huge] }]);
    const t = decodeMessage<ModelProto>(T.ModelProto, bytes).graph!.initializer![0]!;
    expect(t.data_location).toBe(1);
    expect(Object.fromEntries(t.external_data!.map((e) => [e.key, e.value]))).toEqual({ location: 'big.onnx.data', offset: '0', length: String(2 ** 31) });
  });
});

describe('an unknown op with two bodies', () => {
  it('binds each body\'s formal inputs to the node\'s own inputs only, never to captures a sibling body added', () => {
    const b1 = ob.graph({ name: 'b1', nodes: [ob.node('Neg', ['outer'], ['o1'])], outputs: [ob.valueInfo('o1', 'f32')] });
    const b2 = ob.graph({ name: 'b2', inputs: [ob.valueInfo('p0', 'f32'), ob.valueInfo('p1', 'f32')], nodes: [ob.node('Add', ['p0', 'p1'], ['o2'])], outputs: [ob.valueInfo('o2', 'f32')] });
    const m = decodeOnnx(ob.encodeModelProto(ob.model({
      opsets: { 'com.x': 1 },
      graph: ob.graph({
        inputs: [ob.valueInfo('a', 'f32', [1]), ob.valueInfo('outer', 'f32', [1])],
        outputs: [ob.valueInfo('r', 'f32')],
        nodes: [ob.node('Both', ['a'], ['r'], { first: b1, second: b2 }, { domain: 'com.x' })],
      }),
    })));
    const n = m.graph.nodes[0]!;
    expect(n.inputs.map((v) => v?.name)).toEqual(['a', 'outer']);
    const second = n.bodies.get('second')!;
    expect(second.inputs).toEqual([{ param: second.graph.inputs[0], from: 0 }]);
    expect(structure(decodeOnnx(encodeOnnx(m).bytes))).toEqual(structure(m));
  });
});
