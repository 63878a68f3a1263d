import { describe, expect, it } from 'vitest';
import { checkModels } from '../../src/equiv/check-models.js';
import { Model, sym, tensorType, type Dialect, type Node, type Shape } from '../../src/graph/index.js';
import { ifModel } from './fixtures.js';

/**
 * Through real shape inference (src/shape): the types compared are the inferred ones, so a body
 * parameter's type is the type of the If input its binding names, whatever the file declares.
 */

/** main: x, z, w; If_0 whose then-body computes Add(x, w) and else-body Add(z, z) — or as told. */
function addIf(dialect: Dialect, shapes: Record<string, Shape>, opts: { nameParams?: boolean } = {}): { model: Model; ifNode: Node } {
  const model = new Model(dialect);
  const g = model.graph;
  const cond = g.addInput(tensorType('boolean', []), ['cond']);
  const outer = Object.entries(shapes).map(([n, s]) => g.addInput(tensorType('f32', s), [n]));
  const ifNode = g.addNode({ dialect, op: 'If', version: dialect === 'ov' ? 'opset8' : '13', name: 'If_0' });
  ifNode.addInput(cond);
  outer.forEach((v) => ifNode.addInput(v));
  g.outputs.push(ifNode.addOutput(null, ['y']));
  const bodies: [string, string[]][] = [[dialect === 'ov' ? 'then_body' : 'then_branch', ['x', 'w']], [dialect === 'ov' ? 'else_body' : 'else_branch', ['z', 'z']]];
  for (const [key, reads] of bodies) {
    const body = g.addBody(ifNode, key);
    const params = [...new Set(reads)].map((n) => {
      const p = body.graph.addInput(null, opts.nameParams === false ? [] : [n]);
      body.inputs.push({ param: p, from: Object.keys(shapes).indexOf(n) + 1 });
      return [n, p] as const;
    });
    const byName = new Map(params);
    const add = body.graph.addNode({ dialect, op: 'Add', version: dialect === 'ov' ? 'opset1' : '14', name: 'Add_0' });
    add.addInput(byName.get(reads[0]!)!);
    add.addInput(byName.get(reads[1]!)!);
    body.graph.outputs.push(add.addOutput(null, [`${key.slice(0, 4)}_sum`]));
    body.outputs.push({ result: 0, to: 0 });
  }
  return { model, ifNode };
}

const shapes = { x: [2, 4], z: [3, 4], w: [2, 4] };

describe('checkModels: an If in ONNX form against the same If in IR form', () => {
  it('agrees, with the If output compatible: ONNX merges 2 and 3 to ?, OpenVINO to 2..3', () => {
    const r = checkModels(addIf('onnx', shapes).model, addIf('ov', shapes).model);
    expect(r.ok).toBe(true);
    const y = r.entries.find((e) => e.name === 'y')!;
    expect(y).toMatchObject({ status: 'compatible', moreSpecific: 'b', a: { shape: [null, 4] }, b: { shape: ['2..3', 4] } });
    expect(r.entries.filter((e) => e.status === 'contradiction')).toEqual([]);
  });

  it('with one merge policy for both, the If output is equal', () => {
    const r = checkModels(addIf('onnx', shapes).model, addIf('ov', shapes).model, { ifMerge: 'openvino' });
    expect(r.entries.find((e) => e.name === 'y')!.status).toBe('equal');
  });

  it('uses inferred types, not declared ones: a body parameter declared [2,4] but fed [3,4] is [3,4]', () => {
    const B = addIf('ov', shapes);
    const body = B.ifNode.bodies.get('then_body')!;
    body.graph.inputs[0]!.type = tensorType('f32', [2, 4]); // what a hand-edited IR would still declare
    body.inputs[0] = { param: body.inputs[0]!.param, from: 2 }; // …while its port map now says z
    const r = checkModels(addIf('onnx', shapes).model, B.model);
    expect(r.ok).toBe(false);
    expect(r.entries[0]).toMatchObject({ pathA: 'main/If_0/then/x', pathB: 'main/If_0/then/x', status: 'contradiction', b: { shape: [3, 4] } });
  });

  it('a mis-wiring that breaks a body op is a contradiction at that op, even with unnamed parameters', () => {
    // B's then-body x fed from z: Add([3,4], [2,4]) cannot broadcast; B's inference fails there.
    const B = addIf('ov', shapes, { nameParams: false });
    const body = B.ifNode.bodies.get('then_body')!;
    body.inputs[0] = { param: body.inputs[0]!.param, from: 2 };
    const r = checkModels(addIf('onnx', shapes).model, B.model);
    expect(r.ok).toBe(false);
    const bad = r.entries.filter((e) => e.status === 'contradiction');
    expect(bad.map((e) => e.pathA)).toEqual(['main/If_0/then/x', 'main/If_0/then/Add_0:0']);
    expect(bad[1]!.detail).toMatch(/^shape inference failed in B: Add: /);
  });

  it('a symbol bound inconsistently between inputs and body values is reported', () => {
    const A = addIf('onnx', { x: [sym('N'), 4], z: [3, 4], w: [sym('N'), 4] });
    const B = addIf('ov', { x: [2, 4], z: [3, 4], w: [5, 4] });
    const r = checkModels(A.model, B.model);
    expect(r.ok).toBe(false);
    expect(r.entries[0]!.detail).toContain("symbol 'N' of A is 2 at main/x[0] but 5 at main/w[0]");
  });
});

describe('checkModels with the Neg fixture of the pairing tests', () => {
  it('a mis-wiring between inputs of one type and shape is a contradiction (binding provenance)', () => {
    const same = { x: [2, 4], w: [2, 4] };
    const A = ifModel({ dialect: 'onnx', inputs: same, then: ['x'], else: ['w'] });
    const B = ifModel({ dialect: 'ov', inputs: same, then: ['x'], else: ['w'] });
    const body = B.ifNode.bodies.get('then_body')!;
    body.inputs[0] = { param: body.inputs[0]!.param, from: 2 };
    const r = checkModels(A.model, B.model);
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => d.code)).toContain('EQUIV_BINDING_MISMATCH');
    expect(r.diagnostics.map((d) => d.code)).toContain('EQUIV_PROVENANCE');
  });
});
