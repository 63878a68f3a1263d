import { describe, expect, it } from 'vitest';
import { A } from '../../src/graph/attr.js';
import { Graph } from '../../src/graph/graph.js';

describe('per-node storage is created only when used', () => {
  it('a node without bodies reads an empty map and cannot be given a body except by Graph.addBody', () => {
    const g = new Graph();
    const n = g.addNode({ dialect: 'onnx', op: 'Relu', version: '17' });
    expect(n.bodies.size).toBe(0);
    expect(() => n.bodies.set('then_branch', g.addBody(g.addNode({ dialect: 'onnx', op: 'If', version: '17' }), 'then_branch'))).toThrow(/Graph.addBody/);
    const iff = g.addNode({ dialect: 'onnx', op: 'If', version: '17' });
    const body = g.addBody(iff, 'then_branch');
    expect(iff.bodies.get('then_branch')).toBe(body);
    expect(n.bodies.size).toBe(0);
  });

  it('attributes: attr() and attrsView read without creating the map; attrs creates it and writes through', () => {
    const g = new Graph();
    const n = g.addNode({ dialect: 'onnx', op: 'Softmax', version: '13' });
    expect(n.attr('axis')).toBeUndefined();
    expect([...n.attrsView.keys()]).toEqual([]);
    n.attrs.set('axis', A.int(1));
    expect(n.attr('axis')).toEqual(A.int(1));
    expect([...n.attrsView.keys()]).toEqual(['axis']);
  });

  it('meta: metaView reads a shared frozen empty object until meta is first used; meta then holds what is written', () => {
    const g = new Graph();
    const n = g.addNode({ dialect: 'onnx', op: 'Relu', version: '17' });
    const v = n.addOutput(null, ['y']);
    for (const x of [n, v]) {
      expect(x.metaView['docString']).toBeUndefined();
      expect(Object.isFrozen(x.metaView)).toBe(true);
      x.meta['docString'] = 'doc';
      expect(x.metaView['docString']).toBe('doc');
      expect(x.meta).toBe(x.metaView);
      x.meta = { overload: 'o' };
      expect(x.metaView).toEqual({ overload: 'o' });
    }
    // the shared empty one was not written through
    expect(g.addNode({ dialect: 'onnx', op: 'Abs', version: '17' }).metaView).toEqual({});
  });

  it('inputs, outputs and uses stay right past the short exact-size lists', () => {
    const g = new Graph();
    const x = g.addInput(null, ['x']);
    const n = g.addNode({ dialect: 'onnx', op: 'Concat', version: '13' });
    for (let i = 0; i < 10; i++) expect(n.addInput(x)).toBe(i);
    for (let i = 0; i < 6; i++) expect(n.addOutput(null).outputIndex).toBe(i);
    expect(n.inputs).toHaveLength(10);
    expect(n.outputs.map((v) => v.producer)).toEqual(Array(6).fill(n));
    expect(x.uses.map((u) => u.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    n.setInput(3, null);
    expect(x.uses.map((u) => u.index)).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9]);
  });
});
