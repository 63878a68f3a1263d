import { describe, expect, it } from 'vitest';
import { Graph } from '../../src/graph/graph.js';
import { defaultOnnxInfo, Model } from '../../src/graph/model.js';
import { tensorType } from '../../src/graph/types.js';
import { encodeOnnx } from '../../src/onnx/encode.js';

/**
 * The encoder keeps its value names and node positions in IdTables (src/graph/id-table.ts): arrays
 * over the model's id range, a Map for ids outside it. What it writes must not depend on which.
 */
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
