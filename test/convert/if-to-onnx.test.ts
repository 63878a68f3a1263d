import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { allGraphs, verifyGraph, type Graph, type Model, type Node } from '../../src/graph/index.js';
import { Builder } from './builder.js';
import { differentOuter, directOutputs, nested, seedExample } from './fixtures.js';

const ifOf = (g: Graph): Node => g.nodes.find((n) => n.op === 'If')!;

function errorsOf(f: () => unknown): string {
  try { f(); } catch (e) {
    if (e instanceof OvirError) return e.diagnostics.map((d) => `${d.where}: ${d.message}`).join('\n');
    throw e;
  }
  throw new Error('expected an OvirError');
}

/** Every name defined anywhere in the model (graph inputs, initializers, node outputs), with repeats. */
function definedNames(m: Model): string[] {
  const out: string[] = [];
  for (const g of allGraphs(m.graph)) {
    if (!g.owner) out.push(...g.inputs.map((v) => v.name));
    out.push(...g.initializers.map((v) => v.name));
    for (const n of g.nodes) out.push(...n.outputs.map((v) => v.name));
  }
  return out;
}

describe('IR If-8 → ONNX If', () => {
  it('the seed 003 example: parameters become references to the outer values that feed them', () => {
    const b = new Builder('ov');
    seedExample(b);
    const onnx = convertModel(b.model);
    expect(onnx.dialect).toBe('onnx');
    expect(onnx.onnx!.opsetImports.get('')).toBe(17);
    const n = ifOf(onnx.graph);
    expect(n.version).toBe('17');
    expect([...n.bodies.keys()]).toEqual(['then_branch', 'else_branch']);
    const t = n.bodies.get('then_branch')!;
    const e = n.bodies.get('else_branch')!;
    expect(t.graph.inputs.map((p) => p.name)).toEqual(['x', 'z']);
    expect(e.graph.inputs.map((p) => p.name)).toEqual(['x', 'w']);
    expect(t.inputs.map((x) => n.inputs[x.from]!.name)).toEqual(['x', 'z']);
    expect(t.graph.nodes[0]!.op).toBe('Add');
    expect(t.graph.nodes[0]!.attrs.size).toBe(0);
    expect(onnx.graph.outputs[0]!.name).toBe('y');
    expect(verifyGraph(onnx.graph)).toEqual([]);
  });

  it('a body Result its port map does not name is not an output (OpenVINO writes and reads such bodies)', () => {
    const b = new Builder('ov');
    const { ifNode } = differentOuter(b);
    // then_body gets a second Result (ovc's IR of nested ONNX Ifs has these): the port map names only the first
    const t = ifNode.bodies.get('then_body')!;
    t.graph.outputs.push(t.graph.inputs[0]!);
    const onnx = convertModel(b.model);
    const n = ifOf(onnx.graph);
    expect(n.bodies.get('then_branch')!.graph.outputs).toHaveLength(1);
    expect(n.bodies.get('then_branch')!.graph.outputs[0]!.producer?.op).toBe('Neg');
    expect(verifyGraph(onnx.graph)).toEqual([]);
  });

  it('a port map naming a Result that does not exist is refused', () => {
    const b = new Builder('ov');
    const { ifNode } = differentOuter(b);
    ifNode.bodies.get('else_body')!.outputs[0] = { result: 3, to: 0 };
    expect(errorsOf(() => convertModel(b.model))).toMatch(/else_port_map names a Result that does not exist in else_body/);
  });

  it('names are unique across the model (no shadowing, SSA)', () => {
    const b = new Builder('ov');
    seedExample(b);
    // both bodies name their Add output alike, and like a main input
    for (const n of [...allGraphs(b.graph)].flatMap((g) => g.nodes)) if (n.op === 'Add') n.outputs[0]!.names = ['x'];
    const onnx = convertModel(b.model);
    const names = definedNames(onnx);
    expect(new Set(names).size).toBe(names.length);
    expect(onnx.graph.inputs.map((v) => v.name)).toEqual(['cond', 'x', 'z', 'w']);
  });

  it('body Consts become branch initializers; an outer value output gets an Identity (onnx checker)', () => {
    const b = new Builder('ov');
    directOutputs(b);
    const onnx = convertModel(b.model);
    const n = ifOf(onnx.graph);
    const e = n.bodies.get('else_branch')!.graph;
    expect(e.initializers).toHaveLength(1);
    expect(e.outputs[0]).toBe(e.initializers[0]);
    expect(e.outputs[1]!.producer?.op).toBe('Identity');
    expect(e.outputs[1]!.producer?.inputs[0]!.name).toBe('x');
    const t = n.bodies.get('then_branch')!.graph;
    expect(t.outputs.map((v) => v.producer?.op)).toEqual(['Identity', 'Identity']);
    expect(new Set(t.outputs).size).toBe(2);
    expect(verifyGraph(onnx.graph)).toEqual([]);
  });

  it('output bindings are put in node output order (both external_port_id conventions)', () => {
    const b = new Builder('ov');
    const { ifNode } = directOutputs(b);
    const e = ifNode.bodies.get('else_body')!;
    // results listed in the other order, mapped crosswise
    e.graph.outputs.reverse();
    e.outputs.splice(0, 2, { result: 0, to: 1 }, { result: 1, to: 0 });
    const onnx = convertModel(b.model);
    const eg = ifOf(onnx.graph).bodies.get('else_branch')!.graph;
    expect(eg.outputs[0]).toBe(eg.initializers[0]);
    expect(eg.outputs[1]!.producer?.inputs[0]!.name).toBe('x');
  });

  it('converts 64 nested levels', () => {
    const b = new Builder('ov');
    nested(b, 64);
    const onnx = convertModel(b.model);
    expect(Math.max(...[...allGraphs(onnx.graph)].map((g) => g.depth))).toBe(64);
    expect(verifyGraph(onnx.graph)).toEqual([]);
    const names = definedNames(onnx);
    expect(new Set(names).size).toBe(names.length);
  });

  it('If inputs no body reads are dropped', () => {
    const b = new Builder('ov');
    const { ifNode } = differentOuter(b);
    ifNode.addInput(b.graph.inputs[1]!);
    const n = ifOf(convertModel(b.model).graph);
    expect(n.inputs.map((v) => v!.name)).toEqual(['cond', 'a', 'b']);
  });
});

describe('malformed IR If is rejected', () => {
  it('an unmapped body Parameter', () => {
    const b = new Builder('ov');
    const { ifNode } = differentOuter(b);
    const t = ifNode.bodies.get('then_body')!;
    const p = t.graph.addInput(null, ['stray']);
    p.meta['layerName'] = 'stray';
    expect(errorsOf(() => convertModel(b.model))).toMatch(/main\/If_diff: .*then_body Parameter 'stray' is not mapped in then_port_map/);
  });

  it('a port map naming an input that does not exist', () => {
    const b = new Builder('ov');
    const { ifNode } = differentOuter(b);
    const t = ifNode.bodies.get('then_body')!;
    t.inputs[0] = { param: t.inputs[0]!.param, from: 9 };
    expect(errorsOf(() => convertModel(b.model))).toMatch(/then_port_map maps a Parameter to If input 9/);
  });

  it('port maps that cover different outputs', () => {
    const b = new Builder('ov');
    const { ifNode } = directOutputs(b);
    ifNode.bodies.get('else_body')!.outputs.pop();
    expect(errorsOf(() => convertModel(b.model))).toMatch(/else_port_map covers If outputs \[0\] but the node has 2 outputs/);
  });

  it('a missing body', () => {
    const b = new Builder('ov');
    const { ifNode } = differentOuter(b);
    ifNode.bodies.delete('then_body');
    expect(errorsOf(() => convertModel(b.model))).toMatch(/If: missing then_body/);
  });
});

describe('round trips', () => {
  const shape = (m: Model): string => [...allGraphs(m.graph)].map((g) =>
    `${g.path}[${g.inputs.length} in, ${g.initializers.length} const]:` + g.nodes.map((n) => `${n.op}(${n.inputs.length})`).join(',')).join(' | ');

  for (const [name, make] of [
    ['seed', seedExample], ['different outer', differentOuter], ['direct outputs', directOutputs], ['nested', (b: Builder) => nested(b, 3)],
  ] as const) {
    it(`ONNX → IR → ONNX keeps the structure: ${name}`, () => {
      const b = new Builder('onnx');
      make(b);
      const back = convertModel(convertModel(b.model), { opset: 17 });
      const again = convertModel(convertModel(back), { opset: 17 });
      expect(shape(again)).toBe(shape(back));
      expect(back.graph.inputs.map((v) => v.name)).toEqual(b.graph.inputs.map((v) => v.name));
      expect(back.graph.outputs.map((v) => v.name)).toEqual(b.graph.outputs.map((v) => v.name));
    });

    it(`IR → ONNX → IR keeps the structure: ${name}`, () => {
      const b = new Builder('ov');
      make(b);
      // The builder gives each body its own If input; the first trip shares them, then it is stable.
      const ir = convertModel(convertModel(b.model));
      const again = convertModel(convertModel(ir));
      expect(shape(again)).toBe(shape(ir));
      expect(ir.graph.nodes.map((n) => n.op)).toEqual(b.graph.nodes.map((n) => n.op));
      expect(ifOf(ir.graph).inputs.length).toBeLessThanOrEqual(ifOf(b.graph).inputs.length);
    });
  }
});
