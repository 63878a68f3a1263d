import { describe, expect, it } from 'vitest';
import { tensorType } from '../../src/graph/types.js';
import { applyInferred, inferTypes, shapesReport } from '../../src/shape/index.js';
import { A, B, iv, s } from './build.js';

describe('ovir shapes report (--json form)', () => {
  it('lists every value with its scope, dtype in OpenVINO names and dims as JSON', () => {
    const b = new B('onnx');
    const x = b.input('x', 'f32', [s('N'), 3]);
    const c = b.input('c', 'boolean', []);
    const shape = b.node('Shape', [x], {}, { name: 'Shape_0' });
    const node = b.g.addNode({ dialect: 'onnx', op: 'If', version: '17', name: 'If_1' });
    node.addInput(c);
    node.addInput(x);
    node.addOutput(null, ['y']);
    for (const key of ['then_branch', 'else_branch']) {
      const body = b.g.addBody(node, key);
      const p = body.graph.addInput(null, ['px']);
      body.inputs.push({ param: p, from: 1 });
      const r = b.node('Relu', [p], {}, { g: body.graph, name: 'Relu_0' });
      body.graph.outputs.push(r.outputs[0]!);
      body.outputs.push({ result: 0, to: 0 });
    }
    void shape;
    const result = inferTypes(b.model);
    const rep = shapesReport(b.model, result, 'm.onnx');
    expect(rep.path).toBe('m.onnx');
    expect(rep.values).toEqual([
      { name: 'x', scope: 'main', dtype: 'f32', shape: ['N', 3] },
      { name: 'c', scope: 'main', dtype: 'boolean', shape: [] },
      { name: 'Shape_0_out0', scope: 'main', dtype: 'i64', shape: [2] },
      { name: 'y', scope: 'main', dtype: 'f32', shape: ['N', 3] },
      { name: 'px', scope: 'main/If_1/then', dtype: 'f32', shape: ['N', 3] },
      { name: 'Relu_0_out0', scope: 'main/If_1/then', dtype: 'f32', shape: ['N', 3] },
      { name: 'px', scope: 'main/If_1/else', dtype: 'f32', shape: ['N', 3] },
      { name: 'Relu_0_out0', scope: 'main/If_1/else', dtype: 'f32', shape: ['N', 3] },
    ]);
  });

  it('intervals print as "a..b", unknown dims as null, unknown rank as null, unknown type as null dtype', () => {
    const b = new B('ov');
    const x = b.input('x', 'f32', [iv(2, 8), null]);
    b.node('Relu', [x], {}, { name: 'r' });
    const u = b.node('Mystery', [x], {}, { name: 'm' });
    b.node('Relu', [b.input('z', 'f32', null)], {}, { name: 'q' });
    const rep = shapesReport(b.model, inferTypes(b.model), 'm.xml');
    expect(rep.values.find((v) => v.name === 'r_out0')!.shape).toEqual(['2..8', null]);
    expect(rep.values.find((v) => v.name === 'q_out0')!.shape).toBeNull();
    expect(rep.values.find((v) => v.name === u.outputs[0]!.name)).toMatchObject({ dtype: null, shape: null });
  });
});

describe('inferTypes / applyInferred', () => {
  it('inferTypes does not change the model; applyInferred writes the types', () => {
    const b = new B('onnx');
    const y = b.node('Relu', [b.input('x', 'f32', [2, 3])]).outputs[0]!;
    const r = inferTypes(b.model);
    expect(y.type).toBeNull();
    applyInferred(r);
    expect(y.type).toEqual(tensorType('f32', [2, 3]));
  });

  it('cost is linear: a chain of 20000 unnamed nodes infers quickly', () => {
    const b = new B('onnx');
    let v = b.input('x', 'f32', [4]);
    for (let i = 0; i < 20000; i++) {
      const n = b.g.addNode({ dialect: 'onnx', op: 'Relu', version: '17' });
      n.addInput(v);
      v = n.addOutput(null);
    }
    const t0 = performance.now();
    const r = inferTypes(b.model);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(r.types.get(v)).toEqual(tensorType('f32', [4]));
  });

  it('ReduceProd of shape data propagates (Flatten-like Reshape)', () => {
    const b = new B('onnx', '18');
    const x = b.input('x', 'f32', [2, 3, 4]);
    const sh = b.node('Shape', [x]).outputs[0]!;
    const tail = b.node('Slice', [sh, b.i64([1]), b.i64([3])]).outputs[0]!;
    const prod = b.node('ReduceProd', [tail], { keepdims: A.int(1) }).outputs[0]!;
    const r = inferTypes(b.model);
    expect(r.values.get(prod)).toEqual([12]);
  });
});

describe('assumed types', () => {
  it('outputs of ops without a rule rest on their declaration, and so does everything computed from them', () => {
    const b = new B('ov');
    const x = b.input('x', 'f32', [2]);
    const m = b.node('Mystery', [x], {}, { declared: [tensorType('f32', [7])] });
    const r1 = b.node('Relu', [m.outputs[0]!]);
    const r2 = b.node('Relu', [x]);
    const r = inferTypes(b.model);
    expect(r.types.get(r1.outputs[0]!)).toEqual(tensorType('f32', [7]));
    expect([...r.assumed]).toEqual([m.outputs[0], r1.outputs[0]]);
    expect(r.assumed.has(r2.outputs[0]!)).toBe(false);
  });
});
