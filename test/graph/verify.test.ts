import { describe, expect, it } from 'vitest';
import { Graph, tensorFromFloat32, tensorType, verifyGraph, type Node } from '../../src/graph/index.js';

const f32 = (shape: number[]) => tensorType('f32', shape);

/** main: x → Add(x, w) → y, with an If whose then/else bodies read x through a binding. */
function validIf(): { g: Graph; ifNode: Node } {
  const g = new Graph('main');
  const x = g.addInput(f32([2]), ['x']);
  const cond = g.addInput(tensorType('boolean', []), ['cond']);
  const ifNode = g.addNode({ dialect: 'onnx', op: 'If', version: '13', name: 'If_0' });
  ifNode.addInput(cond);
  ifNode.addInput(x);
  ifNode.addOutput(f32([2]), ['y']);
  for (const key of ['then_branch', 'else_branch']) {
    const body = g.addBody(ifNode, key);
    const p = body.graph.addInput(f32([2]), ['x']);
    body.inputs.push({ param: p, from: 1 });
    const neg = body.graph.addNode({ dialect: 'onnx', op: 'Neg', version: '13', name: 'Neg_0' });
    neg.addInput(p);
    body.graph.outputs.push(neg.addOutput(f32([2]), ['n']));
    body.outputs.push({ result: 0, to: 0 });
  }
  g.outputs.push(ifNode.outputs[0]!);
  return { g, ifNode };
}

describe('verifyGraph: a node reads only values of its own graph', () => {
  it('accepts a well-formed If whose bodies receive the outer value through bindings', () => {
    expect(verifyGraph(validIf().g)).toEqual([]);
  });

  it('rejects a body node reading an outer value directly, naming the body path', () => {
    const { g, ifNode } = validIf();
    const body = ifNode.bodies.get('then_branch')!;
    body.graph.nodes[0]!.setInput(0, g.inputs[0]!);
    const ds = verifyGraph(g);
    expect(ds.map((d) => d.code)).toContain('GRAPH_FOREIGN_VALUE');
    expect(ds.find((d) => d.code === 'GRAPH_FOREIGN_VALUE')!.where).toBe('main/If_0/then/Neg_0');
  });

  it('rejects a graph output that belongs to another graph', () => {
    const { g, ifNode } = validIf();
    ifNode.bodies.get('else_branch')!.graph.outputs[0] = g.inputs[0]!;
    expect(verifyGraph(g).map((d) => d.code)).toContain('GRAPH_OUTPUT_FOREIGN');
  });
});

describe('verifyGraph: bindings', () => {
  it('reports an unbound body parameter', () => {
    const { g, ifNode } = validIf();
    ifNode.bodies.get('then_branch')!.inputs.length = 0;
    const ds = verifyGraph(g);
    expect(ds.map((d) => d.code)).toEqual(['GRAPH_BINDING_UNBOUND_PARAM']);
    expect(ds[0]!.message).toContain("'then_branch'");
  });

  it('reports a binding to a node input that does not exist, and a parameter bound twice', () => {
    const { g, ifNode } = validIf();
    const body = ifNode.bodies.get('then_branch')!;
    body.inputs.push({ param: body.graph.inputs[0]!, from: 7 });
    const codes = verifyGraph(g).map((d) => d.code).sort();
    expect(codes).toEqual(['GRAPH_BINDING_BAD_INPUT', 'GRAPH_BINDING_TWICE']);
  });

  it('reports output bindings to missing body outputs, missing node outputs, and the same output twice', () => {
    const { g, ifNode } = validIf();
    const body = ifNode.bodies.get('else_branch')!;
    body.outputs.push({ result: 3, to: 0 }, { result: 0, to: 5 });
    const msgs = verifyGraph(g).map((d) => d.message);
    expect(msgs.some((m) => m.includes('body output 3'))).toBe(true);
    expect(msgs.some((m) => m.includes('node output 5'))).toBe(true);
    expect(msgs.some((m) => m.includes('node output 0 twice'))).toBe(true);
  });
});

describe('verifyGraph: SSA and acyclicity', () => {
  it('reports a read of a value produced later (or by a cycle)', () => {
    const g = new Graph('main');
    const x = g.addInput(f32([1]), ['x']);
    const a = g.addNode({ dialect: 'onnx', op: 'Relu', version: '13', name: 'A' });
    const b = g.addNode({ dialect: 'onnx', op: 'Relu', version: '13', name: 'B' });
    b.addInput(x);
    const bOut = b.addOutput(f32([1]), ['b']);
    a.addInput(bOut); // A reads B's output, but A comes first
    g.outputs.push(a.addOutput(f32([1]), ['a']));
    const ds = verifyGraph(g);
    expect(ds.map((d) => [d.code, d.where])).toEqual([['GRAPH_USE_BEFORE_DEF', 'main/A']]);
  });

  it('reports a value listed twice (produced more than once)', () => {
    const g = new Graph('main');
    const w = g.addInitializer(tensorFromFloat32([1, 2]), ['w']);
    g.inputs.push(w);
    g.outputs.push(w);
    expect(verifyGraph(g).map((d) => d.code)).toEqual(['GRAPH_DUPLICATE_PRODUCER']);
  });

  it('names unnamed nodes by op and position in paths', () => {
    const g = new Graph('main');
    const x = g.addInput(f32([1]), ['x']);
    const n = g.addNode({ dialect: 'ov', op: 'Relu', version: 'opset1' });
    n.addInput(x);
    expect(n.path).toBe('main/Relu#0');
  });
});

describe('verifyGraph: deep nesting', () => {
  it('verifies 500 nested bodies without overflowing the stack', () => {
    const g = new Graph('main');
    const x = g.addInput(f32([1]), ['x']);
    const cond = g.addInput(tensorType('boolean', []), ['c']);
    let graph = g;
    let outer = x;
    let outerCond = cond;
    for (let depth = 0; depth < 500; depth++) {
      const n = graph.addNode({ dialect: 'ov', op: 'If', version: 'opset8', name: `If_${depth}` });
      n.addInput(outerCond);
      n.addInput(outer);
      const out = n.addOutput(f32([1]));
      graph.outputs.push(out);
      const body = graph.addBody(n, 'then_body');
      const pc = body.graph.addInput(tensorType('boolean', []));
      const px = body.graph.addInput(f32([1]));
      body.inputs.push({ param: pc, from: 0 }, { param: px, from: 1 });
      body.outputs.push({ result: 0, to: 0 });
      graph = body.graph;
      outer = px;
      outerCond = pc;
    }
    graph.outputs.push(outer);
    expect(verifyGraph(g)).toEqual([]);
  });
});

describe('verifyGraph: Loop-5 special ports', () => {
  it('accepts the current_iteration parameter and execution_condition result (external_port_id -1)', () => {
    const g = new Graph('main');
    const trip = g.addInput(tensorType('i64', []), ['trip']);
    const loop = g.addNode({ dialect: 'ov', op: 'Loop', version: 'opset5', name: 'Loop_0' });
    loop.addInput(trip);
    loop.addOutput(tensorType('i64', []));
    const body = g.addBody(loop, 'body');
    const iter = body.graph.addInput(tensorType('i64', []), ['i']);
    const cond = body.graph.addInitializer({ elem: 'boolean', dims: [], data: new Uint8Array([1]) }, ['c']);
    body.graph.outputs.push(iter, cond);
    body.inputs.push({ param: iter, from: -1, extra: { purpose: 'current_iteration' } });
    body.outputs.push({ result: 0, to: 0 }, { result: 1, to: -1, extra: { purpose: 'execution_condition' } });
    g.outputs.push(loop.outputs[0]!);
    expect(verifyGraph(g)).toEqual([]);
  });

  it('still rejects -1 bindings without the Loop purpose', () => {
    const { g, ifNode } = validIf();
    const body = ifNode.bodies.get('then_branch')!;
    body.inputs[0] = { param: body.graph.inputs[0]!, from: -1 };
    expect(verifyGraph(g).map((d) => d.code)).toEqual(['GRAPH_BINDING_BAD_INPUT']);
  });
});
