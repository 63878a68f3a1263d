import { describe, expect, it } from 'vitest';
import { Graph } from '../../src/graph/graph.js';
import { Value } from '../../src/graph/value.js';
import { IdTable, nodeIds, ValueTable } from '../../src/graph/id-table.js';
import { tensorType } from '../../src/graph/types.js';

/** A chain x → Relu → Relu … of `n` nodes, with a body on the last one holding a value of its own. */
function model(n: number): { g: Graph; values: Value[] } {
  const g = new Graph('main');
  let v = g.addInput(tensorType('f32', [1]), ['x']);
  const values = [v];
  for (let i = 0; i < n; i++) {
    const node = g.addNode({ dialect: 'onnx', op: 'Relu', version: '17' });
    node.addInput(v);
    v = node.addOutput(null);
    values.push(v);
  }
  g.outputs.push(v);
  return { g, values };
}

describe('ValueTable: a map over the values of one model', () => {
  it('gets, sets, overwrites and deletes as a Map does, and counts its entries', () => {
    const { g, values } = model(10);
    const t = new ValueTable<number>(g);
    values.forEach((v, i) => t.set(v, i));
    t.set(values[3]!, 33);
    expect(t.size).toBe(11);
    expect(t.get(values[3]!)).toBe(33);
    expect(t.has(values[10]!)).toBe(true);
    expect(t.delete(values[10]!)).toBe(true);
    expect(t.delete(values[10]!)).toBe(false);
    expect(t.has(values[10]!)).toBe(false);
    expect(t.get(values[10]!)).toBeUndefined();
    expect(t.size).toBe(10);
  });

  it('holds values made after it and values of other models (outside its id range) too', () => {
    const { g, values } = model(3);
    const other = model(2);
    const t = new ValueTable<string>(g);
    const later = new Value(g, null);
    t.set(values[0]!, 'in range');
    t.set(later, 'made later');
    t.set(other.values[1]!, 'another model');
    expect([t.get(values[0]!), t.get(later), t.get(other.values[1]!)]).toEqual(['in range', 'made later', 'another model']);
    expect(t.size).toBe(3);
    expect(t.get(values[1]!)).toBeUndefined();
    expect([...t.keys()]).toEqual([values[0], later, other.values[1]]);
    const seen: string[] = [];
    t.forEach((s) => seen.push(s));
    expect(seen).toEqual(['in range', 'made later', 'another model']);
    expect([...t]).toEqual([[values[0], 'in range'], [later, 'made later'], [other.values[1], 'another model']]);
  });

  it('without a model, or for a model whose ids are spread far apart, is a Map alone and still right', () => {
    const empty = new ValueTable<number>(null);
    const { g, values } = model(2);
    empty.set(values[1]!, 1);
    expect(empty.get(values[1]!)).toBe(1);
    // a model whose last value is made after a million others: ids spread out
    for (let i = 0; i < 20_000; i++) new Value(g, null);
    const node = g.addNode({ dialect: 'onnx', op: 'Relu', version: '17' });
    node.addInput(values[2]!);
    const far = node.addOutput(null);
    const t = new ValueTable<number>(g);
    t.set(values[0]!, 0);
    t.set(far, 9);
    expect([t.get(values[0]!), t.get(far), t.size]).toEqual([0, 9, 2]);
  });

  it('keyed by nodes (IdTable over a graph\'s nodes, as the IR writer numbers layers)', () => {
    const { g } = model(5);
    const t = new IdTable<(typeof g.nodes)[number], number>(nodeIds(g.nodes));
    g.nodes.forEach((n, i) => t.set(n, i * 10));
    expect(g.nodes.map((n) => t.get(n))).toEqual([0, 10, 20, 30, 40]);
    expect(t.size).toBe(5);
  });
});
