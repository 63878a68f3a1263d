import { describe, expect, it } from 'vitest';
import { compareInferred } from '../../src/equiv/compare.js';
import { Graph, Model, tensorType, type Dialect, type Value } from '../../src/graph/index.js';
import { inferStandIn } from './fixtures.js';

/**
 * If inside If inside If…, `depth` levels: each then-body passes cond and x on to the next If, the
 * innermost computes Neg(x); each else-body computes Neg(x). Every value is named per level.
 */
function nested(dialect: Dialect, depth: number, xShape: number[]): Model {
  const model = new Model(dialect);
  let g: Graph = model.graph;
  let cond: Value = g.addInput(tensorType('boolean', []), ['cond']);
  let x: Value = g.addInput(tensorType('f32', xShape), ['x']);
  const keys = dialect === 'ov' ? ['then_body', 'else_body'] : ['then_branch', 'else_branch'];
  for (let level = 0; level < depth; level++) {
    const n = g.addNode({ dialect, op: 'If', version: dialect === 'ov' ? 'opset8' : '13', name: `If_${level}` });
    n.addInput(cond);
    n.addInput(x);
    const y = n.addOutput(null, [`y${level}`]);
    g.outputs.push(y);
    const els = g.addBody(n, keys[1]!);
    const ex = els.graph.addInput(null, ['x']);
    els.inputs.push({ param: ex, from: 1 });
    const neg = els.graph.addNode({ dialect, op: 'Neg', version: '13', name: `Neg_else_${level}` });
    neg.addInput(ex);
    els.graph.outputs.push(neg.addOutput(null, [`e${level}`]));
    els.outputs.push({ result: 0, to: 0 });
    const then = g.addBody(n, keys[0]!);
    cond = then.graph.addInput(null, ['cond']);
    x = then.graph.addInput(null, ['x']);
    then.inputs.push({ param: cond, from: 0 }, { param: x, from: 1 });
    then.outputs.push({ result: 0, to: 0 });
    g = then.graph;
  }
  const neg = g.addNode({ dialect, op: 'Neg', version: '13', name: 'Neg_inner' });
  neg.addInput(x);
  g.outputs.push(neg.addOutput(null, ['inner']));
  return model;
}

describe('deep nesting', () => {
  it('compares 200 levels of If bodies without overflowing, pairing every level', () => {
    const r = compareInferred(inferStandIn(nested('onnx', 200, [2, 3])), inferStandIn(nested('ov', 200, [2, 3])));
    expect(r.ok).toBe(true);
    // per level: y, cond, x params of then, x param + e of else; plus main cond/x and inner.
    expect(r.entries.length).toBe(2 + 200 * 5 + 1);
    expect(r.diagnostics).toEqual([]);
  });

  it('finds a contradiction 200 levels down, with its path', () => {
    const a = nested('onnx', 200, [2, 3]);
    const b = nested('ov', 200, [2, 3]);
    // Make B's innermost Neg claim another shape.
    let g = b.graph;
    while (g.nodes[0]?.bodies.size) g = g.nodes[0].bodies.get('then_body')!.graph;
    g.nodes[0]!.outputs[0]!.type = tensorType('f32', [2, 4]);
    const r = compareInferred(inferStandIn(a), inferStandIn(b));
    expect(r.ok).toBe(false);
    const bad = r.entries.filter((e) => e.status === 'contradiction');
    expect(bad[0]!.pathA).toMatch(/^main\/If_0\/then\/If_1\/then\/.*\/If_199\/then\/Neg_inner:0$/);
  });
});
