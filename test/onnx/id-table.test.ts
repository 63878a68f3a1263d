import { describe, expect, it } from 'vitest';
import { Graph } from '../../src/graph/graph.js';
import { defaultOnnxInfo, Model } from '../../src/graph/model.js';
import { tensorType } from '../../src/graph/types.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { IdTable } from '../../src/onnx/id-table.js';

/**
 * IdTable (the encoder's value-name and node-position lookups) keeps an array over a dense id
 * range and a map for every other id; both must behave as one map.
 */
describe('IdTable', () => {
  it('dense ids: in the array; ids outside the range: in the map; both read back', () => {
    const t = IdTable.over<string>(100, 109, 10);
    for (const id of [100, 105, 109, 99, 110, 5000, -3]) t.set(id, `v${id}`);
    for (const id of [100, 105, 109, 99, 110, 5000, -3]) expect(t.get(id)).toBe(`v${id}`);
    expect(t.get(101)).toBeUndefined();
    expect(t.has(101)).toBe(false);
    expect(t.has(5000)).toBe(true);
    t.set(100, '');
    expect(t.has(100)).toBe(true); // '' is a value, not an absence
  });

  it('sparse ids (a range over 4× their count, past a small floor): a map only, same answers', () => {
    const t = IdTable.over<number>(0, 1_000_000, 10);
    t.set(0, 1);
    t.set(1_000_000, 2);
    expect([t.get(0), t.get(1_000_000), t.get(7)]).toEqual([1, 2, undefined]);
    const none = IdTable.forIds<number>([]);
    none.set(3, 4);
    expect(none.get(3)).toBe(4);
  });
});

describe('encoding does not depend on how the value ids are spread', () => {
  /** x → Relu → Neg → y; `gap` values made elsewhere between each node's (their ids are skipped). */
  const build = (gap: number): Model => {
    const m = new Model('onnx');
    m.onnx = defaultOnnxInfo(17);
    const g = m.graph;
    const t = tensorType('f32', [2]);
    const elsewhere = new Graph('scratch');
    let h = g.addInput(t, ['x']);
    for (const op of ['Relu', 'Neg', 'Relu']) {
      for (let i = 0; i < gap; i++) elsewhere.addInput(t, []);
      const n = g.addNode({ dialect: 'onnx', op, version: '17', name: `${op}_${h.name}` });
      n.addInput(h);
      h = n.addOutput(t, [`${op}_out_${h.name}`]);
    }
    g.outputs.push(h);
    return m;
  };

  it('the same bytes with ids dense and with ids far apart (the map path)', () => {
    expect(Buffer.from(encodeOnnx(build(5000)).bytes).equals(Buffer.from(encodeOnnx(build(0)).bytes))).toBe(true);
  });
});
