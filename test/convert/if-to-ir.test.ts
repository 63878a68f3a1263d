import type { Meta } from '../../src/graph/meta.js';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { allGraphs, verifyGraph, type Model, type Node } from '../../src/graph/index.js';
import { Builder } from './builder.js';
import { differentOuter, directOutputs, nested, seedExample } from './fixtures.js';

const ifOf = (m: Model): Node => m.graph.nodes.find((n) => n.op === 'If')!;
const layer = (v: { meta: Meta }) => v.meta['layerName'];

function errorsOf(f: () => unknown): string[] {
  try { f(); } catch (e) {
    if (e instanceof OvirError) return e.diagnostics.map((d) => `${d.where}: ${d.message}`);
    throw e;
  }
  throw new Error('expected an OvirError');
}

describe('ONNX If → IR If-8', () => {
  it('a value read by both branches uses one If input mapped into both bodies (seed 003)', () => {
    const b = new Builder('onnx');
    const { ifNode } = seedExample(b);
    expect(ifNode.inputs.length).toBe(5); // the builder captures x once per branch
    const ir = convertModel(b.model);
    const n = ifOf(ir);
    expect(n.dialect).toBe('ov');
    expect(n.version).toBe('opset8');
    expect([...n.bodies.keys()]).toEqual(['then_body', 'else_body']);
    expect(n.inputs.map((v) => v!.name)).toEqual(['cond', 'x', 'z', 'w']);
    const t = n.bodies.get('then_body')!;
    const e = n.bodies.get('else_body')!;
    expect(t.inputs.map((x) => [layer(x.param), x.from])).toEqual([['x', 1], ['z', 2]]);
    expect(e.inputs.map((x) => [layer(x.param), x.from])).toEqual([['x', 1], ['w', 3]]);
    expect(t.graph.nodes.map((x) => x.op)).toEqual(['Add']);
    expect(t.graph.nodes[0]!.attrs.get('auto_broadcast')).toEqual({ type: 'raw', value: 'numpy' });
    expect(n.outputs[0]!.names).toEqual(['y']);
    expect(verifyGraph(ir.graph)).toEqual([]);
  });

  it('branches reading different outer values get their own If inputs', () => {
    const b = new Builder('onnx');
    differentOuter(b);
    const n = ifOf(convertModel(b.model));
    expect(n.inputs.map((v) => v!.name)).toEqual(['cond', 'a', 'b']);
    expect(n.bodies.get('then_body')!.inputs.map((x) => x.from)).toEqual([1]);
    expect(n.bodies.get('else_body')!.inputs.map((x) => x.from)).toEqual([2]);
    expect(n.bodies.get('else_body')!.graph.nodes[0]!.op).toBe('Negative');
  });

  it('input order is deterministic (same model twice, same IR)', () => {
    const one = new Builder('onnx'); seedExample(one);
    const two = new Builder('onnx'); seedExample(two);
    const names = (m: Model) => ifOf(m).inputs.map((v) => v!.name).join();
    expect(names(convertModel(one.model))).toBe(names(convertModel(two.model)));
  });

  it('branch outputs that are an outer value, an initializer or the If input need no node', () => {
    const b = new Builder('onnx');
    directOutputs(b);
    const ir = convertModel(b.model);
    const n = ifOf(ir);
    const t = n.bodies.get('then_body')!;
    const e = n.bodies.get('else_body')!;
    expect(t.graph.nodes).toEqual([]);
    expect(t.graph.outputs).toEqual([t.graph.inputs[0], t.graph.inputs[0]]);
    expect(e.graph.outputs[0]).toBe(e.graph.initializers[0]);
    expect(e.graph.outputs[1]).toBe(e.graph.inputs[0]);
    expect(n.inputs.map((v) => v!.name)).toEqual(['cond', 'x']);
    expect(n.outputs.map((v) => v.names)).toEqual([['first'], ['second']]);
    expect(verifyGraph(ir.graph)).toEqual([]);
  });

  it('converts Ifs nested 64 levels deep without recursion', () => {
    const b = new Builder('onnx');
    nested(b, 64);
    const ir = convertModel(b.model);
    const depth = Math.max(...[...allGraphs(ir.graph)].map((g) => g.depth));
    expect(depth).toBe(64);
    expect(verifyGraph(ir.graph)).toEqual([]);
  });

  it('converts Ifs nested 300 levels deep (no JS stack limit)', () => {
    const b = new Builder('onnx');
    nested(b, 300);
    const ir = convertModel(b.model);
    expect(Math.max(...[...allGraphs(ir.graph)].map((g) => g.depth))).toBe(300);
  });

  it('every If opset converts', () => {
    for (const opset of [1, 11, 13, 16, 19, 21, 23, 24, 25]) {
      const b = new Builder('onnx', opset);
      differentOuter(b);
      expect(ifOf(convertModel(b.model)).op).toBe('If');
    }
  });

  it('a cond of one element but rank 2 is reshaped to [1]; a body reading cond gets its own If input', () => {
    const b = new Builder('onnx');
    const cond = b.input('cond', 'boolean', [1, 1]);
    const x = b.input('x', 'f32', [2]);
    const n = b.ifNode(b.graph, cond, ['y']);
    const t = b.body(n, 'then_branch');
    b.results(t, [b.op(t, 'Not', [cond], 'not_cond')]);
    const e = b.body(n, 'else_branch');
    b.results(e, [b.op(e, 'Not', [cond], 'not_cond2')]);
    void x;
    b.output(n.outputs[0]!);
    const ir = convertModel(b.model);
    const f = ifOf(ir);
    expect(f.inputs[0]!.producer?.op).toBe('Reshape');
    expect(f.inputs[1]).toBe(ir.graph.inputs[0]);
    for (const body of f.bodies.values()) expect(body.inputs.map((x) => x.from)).toEqual([1]);
  });

  it('never mutates the input model', () => {
    const b = new Builder('onnx');
    const { ifNode } = seedExample(b);
    const before = ifNode.inputs.length;
    convertModel(b.model);
    expect(ifNode.inputs.length).toBe(before);
    expect(b.model.dialect).toBe('onnx');
    expect(verifyGraph(b.model.graph)).toEqual([]);
  });
});

describe('malformed ONNX If is rejected with the node path', () => {
  it('missing else_branch', () => {
    const b = new Builder('onnx');
    const { ifNode } = differentOuter(b);
    ifNode.bodies.delete('else_branch');
    expect(errorsOf(() => convertModel(b.model))).toEqual([expect.stringMatching(/^main\/If_diff: .*If: missing else_branch/)]);
  });

  it('missing then_branch', () => {
    const b = new Builder('onnx');
    const { ifNode } = differentOuter(b);
    ifNode.bodies.delete('then_branch');
    expect(errorsOf(() => convertModel(b.model)).join()).toMatch(/If: missing then_branch/);
  });

  it('branch output counts that differ', () => {
    const b = new Builder('onnx');
    const { ifNode } = differentOuter(b);
    const e = ifNode.bodies.get('else_branch')!;
    e.graph.outputs.push(e.graph.outputs[0]!);
    expect(errorsOf(() => convertModel(b.model)).join()).toMatch(/main\/If_diff: If: branch output counts differ: then_branch has 1, else_branch has 2, the node has 1/);
  });

  it('branches with declared inputs', () => {
    const b = new Builder('onnx');
    const { ifNode } = differentOuter(b);
    const t = ifNode.bodies.get('then_branch')!;
    t.graph.addInput(null, ['declared_in']);
    expect(errorsOf(() => convertModel(b.model)).join()).toMatch(/If: then_branch declares inputs \(declared_in\)/);
  });

  it('sequence- and optional-typed outputs name the node and the type', () => {
    const b = new Builder('onnx', 16);
    const { ifNode } = differentOuter(b);
    ifNode.outputs[0]!.type = { kind: 'sequence', elem: { kind: 'tensor', elem: 'f32', shape: null } };
    expect(errorsOf(() => convertModel(b.model)).join()).toMatch(/main\/If_diff: If: output 0 \('out'\) has type seq\(tensor\(f32\)\)/);
    ifNode.outputs[0]!.type = { kind: 'optional', elem: { kind: 'tensor', elem: 'f32', shape: null } };
    expect(errorsOf(() => convertModel(b.model)).join()).toMatch(/optional\(tensor\(f32\)\)/);
  });

  it('element types IR lacks are refused with the value named', () => {
    const b = new Builder('onnx', 21);
    b.input('cond', 'boolean', []);
    const x = b.input('x', 'f8e4m3fnuz', [2]);
    b.output(b.op(b.graph, 'Identity', [x], 'y'));
    expect(errorsOf(() => convertModel(b.model)).join()).toMatch(/'x' has type tensor\(f8e4m3fnuz\)/);
  });

  it('every problem of a model is reported at once', () => {
    const b = new Builder('onnx');
    const x = b.input('x', 'f32', [2]);
    b.output(b.op(b.graph, 'Frobnicate', [x], 'a'));
    b.output(b.op(b.graph, 'Unknown2', [x], 'b'));
    b.output(b.op(b.graph, 'Relu', [x], 'c', { alpha: { type: 'float', value: 1 } }));
    const errs = errorsOf(() => convertModel(b.model));
    expect(errs).toHaveLength(3);
    expect(errs.join('\n')).toMatch(/Frobnicate[\s\S]*Unknown2[\s\S]*attribute 'alpha'/);
  });
});
