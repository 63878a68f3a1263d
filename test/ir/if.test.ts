import { describe, expect, it } from 'vitest';
import { readIr } from '../../src/ir/read.js';
import { writeIr } from '../../src/ir/write.js';
import { Model, tensorType, verifyGraph, type Graph, type Node, type Value } from '../../src/graph/index.js';
import { codesOf, diagnosticsOf, layerXml, netXml, param, result, type LayerSpec } from './build.js';

/** The If layer of the If-8 specification's example (seed 003), with its bodies and port maps. */
const SPEC_BODY = (a: string, b: string) => `
  <layers>
    <layer id="0" name="add_x" type="Parameter" version="opset1"><data element_type="f32" shape="2,4"/>
      <output><port id="0" names="add_x:0" precision="FP32"><dim>2</dim><dim>4</dim></port></output></layer>
    <layer id="1" name="${b}" type="Parameter" version="opset1"><data element_type="f32" shape="2,4"/>
      <output><port id="0" names="${b}:0" precision="FP32"><dim>2</dim><dim>4</dim></port></output></layer>
    <layer id="2" name="Add" type="Add" version="opset1"><data auto_broadcast="numpy"/>
      <input><port id="0"><dim>2</dim><dim>4</dim></port><port id="1"><dim>2</dim><dim>4</dim></port></input>
      <output><port id="2" names="Add:0" precision="FP32"><dim>2</dim><dim>4</dim></port></output></layer>
    <layer id="3" name="Identity/sink_port_0" type="Result" version="opset1">
      <input><port id="0"><dim>2</dim><dim>4</dim></port></input></layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
  </edges>${a}`;

function specIf(outExt: number, mapsOverride?: { then?: string; else?: string }): LayerSpec {
  const thenMap = mapsOverride?.then ?? `<input external_port_id="1" internal_layer_id="0"/><input external_port_id="2" internal_layer_id="1"/><output external_port_id="${outExt}" internal_layer_id="3"/>`;
  const elseMap = mapsOverride?.else ?? `<input external_port_id="1" internal_layer_id="0"/><input external_port_id="3" internal_layer_id="1"/><output external_port_id="${outExt}" internal_layer_id="3"/>`;
  return {
    id: 6, name: 'if/cond', type: 'If', version: 'opset8',
    inputs: [{}, { dims: [2, 4] }, { dims: [2, 4] }, { dims: [2, 4] }],
    outputs: [{ names: 'if/cond/Identity:0,if/cond:0', precision: 'FP32', dims: [2, 4] }],
    inner: `<then_port_map>${thenMap}</then_port_map><else_port_map>${elseMap}</else_port_map>`
      + `<then_body>${SPEC_BODY('', 'add_z')}</then_body><else_body>${SPEC_BODY('', 'add_w')}</else_body>`,
  };
}

/** The spec's If layer in a complete net: cond, x, y, z Parameters, one Result. */
function specNet(outExt: number, maps?: { then?: string; else?: string }): string {
  return netXml(
    [param(0, 'cond', 'boolean', '', []), param(1, 'x'), param(2, 'y'), param(3, 'z'), specIf(outExt, maps), result(7, 'out')],
    [[0, 0, 6, 0], [1, 0, 6, 1], [2, 0, 6, 2], [3, 0, 6, 3], [6, 4, 7, 0]],
  );
}

describe('If-8: the specification example in a complete net', () => {
  it.each([
    ['the spec (plain output index)', 0],
    ['the serializer (inputs + output index)', 4],
  ])('loads with the bindings of the port maps under the convention of %s', (_, outExt) => {
    const m = readIr(specNet(outExt), null);
    expect(verifyGraph(m.graph)).toEqual([]);
    const node = m.graph.nodes[0]!;
    expect(node.op).toBe('If');
    expect(node.inputs.map((v) => v!.meta['layerName'])).toEqual(['cond', 'x', 'y', 'z']);
    expect(node.outputs[0]!.names).toEqual(['if/cond/Identity:0', 'if/cond:0']);
    const then = node.bodies.get('then_body')!;
    const els = node.bodies.get('else_body')!;
    expect(then.inputs.map((b) => [b.param.meta['layerName'], b.from])).toEqual([['add_x', 1], ['add_z', 2]]);
    expect(els.inputs.map((b) => [b.param.meta['layerName'], b.from])).toEqual([['add_x', 1], ['add_w', 3]]);
    expect(then.outputs).toEqual([{ result: 0, to: 0 }]);
    expect(els.outputs).toEqual([{ result: 0, to: 0 }]);
    expect(then.graph.path).toBe('main/if/cond/then');
    expect(then.graph.nodes[0]!.path).toBe('main/if/cond/then/Add');
    expect(then.graph.meta['resultNames']).toEqual(['Identity/sink_port_0']);
  });

  it('is written back with the serializer convention, and reads back the same', () => {
    const { xml } = writeIr(readIr(specNet(0), null));
    expect(xml).toContain('<output external_port_id="4" internal_layer_id="3" />');
    const again = writeIr(readIr(xml, null)).xml;
    expect(again).toBe(xml);
  });

  it('orders If children as the serializer does', () => {
    const { xml } = writeIr(readIr(specNet(4), null));
    const layer = xml.slice(xml.indexOf('type="If"'));
    const order = ['<else_port_map>', '<then_port_map>', '<input>', '<output>', '<then_body>', '<else_body>'].map((t) => layer.indexOf(t));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(layer.slice(0, layer.indexOf('<then_body>'))).not.toContain('<data');
  });
});

describe('If-8: port map errors', () => {
  it.each([
    ['a missing layer', { then: '<input external_port_id="1" internal_layer_id="9"/><input external_port_id="2" internal_layer_id="1"/><output external_port_id="0" internal_layer_id="3"/>' }, ['IR_PORTMAP_BAD', 'IR_PORTMAP_UNMAPPED']],
    ['a non-Parameter', { then: '<input external_port_id="1" internal_layer_id="2"/><input external_port_id="2" internal_layer_id="1"/><input external_port_id="2" internal_layer_id="0"/><output external_port_id="0" internal_layer_id="3"/>' }, ['IR_PORTMAP_BAD']],
    ['a non-Result output', { else: '<input external_port_id="1" internal_layer_id="0"/><input external_port_id="3" internal_layer_id="1"/><output external_port_id="0" internal_layer_id="2"/>' }, ['IR_PORTMAP_BAD']],
    ['an If input that does not exist', { then: '<input external_port_id="4" internal_layer_id="0"/><input external_port_id="2" internal_layer_id="1"/><output external_port_id="0" internal_layer_id="3"/>' }, ['IR_PORTMAP_BAD', 'IR_PORTMAP_UNMAPPED']],
    ['an unmapped body Parameter', { else: '<input external_port_id="1" internal_layer_id="0"/><output external_port_id="0" internal_layer_id="3"/>' }, ['IR_PORTMAP_UNMAPPED']],
  ])('names %s', (_, maps, codes) => {
    expect(codesOf(() => readIr(specNet(0, maps), null)).sort()).toEqual(codes.sort());
  });

  it('then/else port maps covering different outputs', () => {
    const spec = specIf(0);
    spec.outputs!.push({ precision: 'FP32', dims: [2, 4] });
    spec.inner = spec.inner!.replace('<then_port_map>', '<then_port_map><output external_port_id="1" internal_layer_id="3"/>');
    const xml = netXml([param(0, 'cond', 'boolean', '', []), param(1, 'x'), param(2, 'y'), param(3, 'z'), spec, result(7, 'out')],
      [[0, 0, 6, 0], [1, 0, 6, 1], [2, 0, 6, 2], [3, 0, 6, 3], [6, 4, 7, 0]]);
    const d = diagnosticsOf(() => readIr(xml, null));
    expect(d.map((x) => [x.code, x.where])).toEqual([['IR_PORTMAP_OUTPUTS_DIFFER', 'main/if/cond']]);
  });

  it('purpose="current_iteration" on an If entry is ignored, as OpenVINO 2026.4 does (measured: the same numbers)', () => {
    const then = '<input external_port_id="1" internal_layer_id="0" purpose="current_iteration"/><input external_port_id="2" internal_layer_id="1"/><output external_port_id="0" internal_layer_id="3"/>';
    expect(() => readIr(specNet(0, { then }), null)).not.toThrow();
  });

  it('back_edges on an If: refused once, naming the layer (OpenVINO 2026.4 refuses them)', () => {
    const xml = specNet(0).replace('<then_port_map>', '<back_edges><edge from-layer="3" to-layer="0"/></back_edges><then_port_map>');
    const d = diagnosticsOf(() => readIr(xml, null));
    expect(d.map((x) => [x.code, x.where])).toEqual([['IR_PORTMAP_BAD', 'main/if/cond']]);
    expect(d[0]!.message).toContain('an If has no back edges');
  });

  it('reports errors inside bodies with their graph path', () => {
    const xml = specNet(0).replaceAll('<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>', '');
    const d = diagnosticsOf(() => readIr(xml, null));
    expect(d.map((x) => [x.code, x.where])).toEqual([['IR_EDGE_MISSING', 'main/if/cond/then/Add'], ['IR_EDGE_MISSING', 'main/if/cond/else/Add']]);
  });
});

/** cond, x → If(If(If(… x …))) nested `depth` levels, each level negating in then and passing through in else. */
function nestedIfModel(depth: number): Model {
  const model = new Model('ov');
  const f32 = tensorType('f32', [2]);
  const cond = model.graph.addInput(tensorType('boolean', []), ['cond']);
  cond.meta['layerName'] = 'cond';
  const x = model.graph.addInput(f32, ['x']);
  x.meta['layerName'] = 'x';
  let g: Graph = model.graph;
  let c: Value = cond;
  let v: Value = x;
  const outer: { g: Graph; node: Node }[] = [];
  for (let level = 0; level < depth; level++) {
    const node = g.addNode({ dialect: 'ov', op: 'If', version: 'opset8', name: `if${level}` });
    node.addInput(c);
    node.addInput(v);
    const out = node.addOutput(f32, [`y${level}`]);
    g.outputs.push(out);
    outer.push({ g, node });
    const thenB = g.addBody(node, 'then_body');
    const elseB = g.addBody(node, 'else_body');
    const ep = elseB.graph.addInput(f32, [`e${level}`]);
    ep.meta['layerName'] = `e${level}`;
    elseB.inputs.push({ param: ep, from: 1 });
    elseB.graph.outputs.push(ep);
    elseB.outputs.push({ result: 0, to: 0 });
    const tc = thenB.graph.addInput(tensorType('boolean', []), [`c${level}`]);
    tc.meta['layerName'] = `c${level}`;
    const tp = thenB.graph.addInput(f32, [`t${level}`]);
    tp.meta['layerName'] = `t${level}`;
    thenB.inputs.push({ param: tc, from: 0 }, { param: tp, from: 1 });
    thenB.outputs.push({ result: 0, to: 0 });
    g = thenB.graph;
    c = tc;
    v = tp;
  }
  const neg = g.addNode({ dialect: 'ov', op: 'Negative', version: 'opset1', name: 'neg' });
  neg.addInput(v);
  g.outputs.push(neg.addOutput(f32, ['deepest']));
  return model;
}

describe('If-8: deep nesting', () => {
  it('writes and reads 70 levels of nested If without recursion limits', () => {
    const model = nestedIfModel(70);
    expect(verifyGraph(model.graph)).toEqual([]);
    const { xml } = writeIr(model);
    const back = readIr(xml, null);
    expect(verifyGraph(back.graph)).toEqual([]);
    let g = back.graph;
    let depth = 0;
    while (g.nodes[0]?.op === 'If') {
      g = g.nodes[0].bodies.get('then_body')!.graph;
      depth++;
    }
    expect(depth).toBe(70);
    expect(g.nodes.map((n) => n.op)).toEqual(['Negative']);
    expect(g.path.split('/')).toHaveLength(1 + 70 * 2);
    expect(writeIr(back).xml).toBe(xml);
  });
});

void layerXml;
