import { describe, expect, it } from 'vitest';
import type { Graph } from '../../src/graph/graph.js';
import { verifyGraph } from '../../src/graph/verify.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { GraphProto, ModelProto } from '../../src/onnx/proto-types.js';
import { T } from '../../src/onnx/schema.js';
import { decodeMessage } from '../../src/onnx/wire.js';
import * as ob from '../helpers/onnx-builder.js';
import { structure } from './structure.js';

const DEPTH = 200;

/** If inside If inside If… DEPTH levels; the innermost then-branch reads the main graph's x. */
function deepModel(): Uint8Array {
  let inner: GraphProto = ob.graph({ name: `t${DEPTH}`, nodes: [ob.node('Neg', ['x'], [`o${DEPTH}`])], outputs: [ob.valueInfo(`o${DEPTH}`, 'f32')] });
  for (let k = DEPTH - 1; k >= 1; k--) {
    inner = ob.graph({
      name: `t${k}`,
      nodes: [ob.ifNode('c', [`o${k}`], inner, ob.graph({ name: `e${k}`, nodes: [ob.node('Identity', ['x'], [`e${k}`])], outputs: [ob.valueInfo(`e${k}`, 'f32')] }), { name: `If_${k + 1}` })],
      outputs: [ob.valueInfo(`o${k}`, 'f32')],
    });
  }
  return ob.encodeModelProto(ob.model({
    graph: ob.graph({
      inputs: [ob.valueInfo('c', 'boolean', []), ob.valueInfo('x', 'f32', [3])],
      outputs: [ob.valueInfo('y', 'f32')],
      nodes: [ob.ifNode('c', ['y'], inner, ob.graph({ name: 'e0', nodes: [ob.node('Identity', ['x'], ['e0'])], outputs: [ob.valueInfo('e0', 'f32')] }), { name: 'If_1' })],
    }),
  }));
}

describe(`${DEPTH}-deep nested If`, () => {
  it('decodes (captures threaded through every level), verifies, encodes and re-decodes to the same structure', () => {
    const m = decodeOnnx(deepModel());
    let g: Graph = m.graph;
    let depth = 0;
    while (g.nodes[0]?.op === 'If') {
      g = g.nodes[0].bodies.get('then_branch')!.graph;
      depth++;
    }
    expect(depth).toBe(DEPTH);
    expect(g.depth).toBe(DEPTH);
    expect(g.path.split('/')).toHaveLength(1 + 2 * DEPTH);
    const x = g.inputs.find((p) => p.name === 'x')!;
    expect(g.nodes[0]!.inputs[0]).toBe(x);
    expect(g.owner!.node.bodies.get('then_branch')!.inputs.some((b) => b.param === x)).toBe(true);
    expect(verifyGraph(m.graph)).toEqual([]);

    const bytes = encodeOnnx(m).bytes;
    const again = decodeOnnx(bytes);
    expect(structure(again)).toEqual(structure(m));
    let gp: GraphProto = decodeMessage<ModelProto>(T.ModelProto, bytes).graph!;
    for (let k = 0; k < DEPTH; k++) {
      expect(gp.node![0]!.input).toEqual(['c']);
      gp = gp.node![0]!.attribute!.find((a) => a.name === 'then_branch')!.g!;
    }
    expect(gp.node![0]!.input).toEqual(['x']);
  });
});
