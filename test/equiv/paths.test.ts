import { describe, expect, it } from 'vitest';
import { Paths } from '../../src/equiv/paths.js';
import { allGraphs, Graph, tensorType } from '../../src/graph/index.js';
import { ifModel } from './fixtures.js';

describe('cached paths spell what src/graph spells', () => {
  it('for every graph, node and node output of a model with bodies and unnamed nodes', () => {
    const { model, ifNode } = ifModel({ dialect: 'onnx', inputs: { x: [2] }, then: ['x'], else: ['x'] });
    ifNode.name = '';
    for (const b of ifNode.bodies.values()) for (const n of b.graph.nodes) n.name = '';
    const paths = new Paths();
    for (const g of allGraphs(model.graph)) {
      expect(paths.graph(g)).toBe(g.path);
      for (const n of g.nodes) {
        expect(paths.node(n)).toBe(n.path);
        for (const o of n.outputs) expect(paths.value(o)).toBe(`${n.path}:${o.outputIndex}`);
      }
    }
    expect(paths.graph(ifNode.bodies.get('then_branch')!.graph)).toBe('main/If#0/then');
  });

  it('labels 20000 unnamed nodes in linear time (no indexOf per node)', () => {
    const g = new Graph('main');
    let v = g.addInput(tensorType('f32', [1]), ['x']);
    for (let i = 0; i < 20000; i++) {
      const n = g.addNode({ dialect: 'onnx', op: 'Neg', version: '13' });
      n.addInput(v);
      v = n.addOutput(null, []);
    }
    const paths = new Paths();
    const t0 = performance.now();
    for (const n of g.nodes) paths.node(n);
    expect(paths.node(g.nodes[19999]!)).toBe('main/Neg#19999');
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});
