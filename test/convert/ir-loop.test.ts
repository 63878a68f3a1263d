import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, tensorFromInt64, verifyGraph, type Model, type Node } from '../../src/graph/index.js';
import { Builder } from './builder.js';

/**
 * mappings/ir-loop.ts: the IR Loop-5 that decompositions lay out themselves (Det, CumProd, LSTM
 * with peepholes, LinearAttention). OpenVINO's Loop-5 spec: input 0 the trip count, input 1 the
 * execution condition, the rest bound to body Parameters through the port map; the Parameter
 * marked `purpose="current_iteration"` receives the iteration number; the Result marked
 * `purpose="execution_condition"` decides whether the next iteration runs; a back edge carries a
 * Result into a Parameter for the next iteration; an output with `axis` concatenates the
 * iterations' values of its Result, one without it is the last iteration's.
 */
function cumprod(exclusive: boolean): Model {
  const b = new Builder('onnx', 26);
  const x = b.input('x', 'f32', [2, 3]);
  const n = b.node(b.graph, 'CumProd', [x, b.init('axis', tensorFromInt64([1], []))], ['y'], exclusive ? { exclusive: A.int(1) } : {}, { name: 'cp' });
  b.output(n.outputs[0]!);
  return b.model;
}
function det(): Model {
  const b = new Builder('onnx', 22);
  const n = b.node(b.graph, 'Det', [b.input('x', 'f32', [4, 3, 3])], ['y'], {}, { name: 'det' });
  b.output(n.outputs[0]!);
  return b.model;
}
const loopOf = (m: Model): Node => m.graph.nodes.find((n) => n.op === 'Loop')!;

describe('irLoop: an IR Loop-5 laid out by a decomposition', () => {
  it('inputs: trip count, a true condition, the carried values, then what every iteration reads', () => {
    const loop = loopOf(convertModel(cumprod(false)));
    expect(loop.version).toBe('opset5');
    expect(loop.inputs[1]!.constant).toMatchObject({ elem: 'boolean' });
    const body = loop.bodies.get('body')!;
    // Parameters: the iteration number (no node input: -1), the running product (input 2), x (input 3)
    expect(body.inputs.map((b) => [b.param.name, b.from, b.extra?.['purpose'] ?? null])).toEqual([
      ['iteration', -1, 'current_iteration'], ['running_product', 2, null], ['x', 3, null],
    ]);
  });

  it('Results: the condition, the next carried states, the per-iteration values; outputs by the port map, the condition last', () => {
    const body = loopOf(convertModel(cumprod(true))).bodies.get('body')!;
    const g = body.graph;
    expect(g.outputs).toHaveLength(3);
    expect(g.outputs[0]!.constant).toMatchObject({ elem: 'boolean' });
    // exclusive: each iteration gives the product before its own element (the carried Parameter)
    expect(g.outputs[2]).toBe(g.inputs[1]);
    expect(body.outputs).toEqual([
      { result: 2, to: 0, extra: { axis: '1', start: '0', end: '-1', stride: '1', part_size: '1' } },
      { result: 0, to: -1, extra: { purpose: 'execution_condition' } },
    ]);
    // the next state goes back into the carried Parameter
    expect(body.backEdges).toEqual([{ fromLayer: 'r1', fromPort: '0', toLayer: 'p1', toPort: '0' }]);
  });

  it('an output that is a carried value\'s last state (Det: the determinants), two back edges', () => {
    const ir = convertModel(det());
    const body = loopOf(ir).bodies.get('body')!;
    expect(body.inputs.map((b) => b.param.name)).toEqual(['k', 'matrices', 'determinants']);
    expect(body.outputs).toEqual([{ result: 2, to: 0 }, { result: 0, to: -1, extra: { purpose: 'execution_condition' } }]);
    expect(body.backEdges!.map((e) => `${e.fromLayer}→${e.toLayer}`)).toEqual(['r1→p1', 'r2→p2']);
    expect(verifyGraph(ir.graph)).toEqual([]);
  });
});
