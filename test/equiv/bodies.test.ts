import { describe, expect, it } from 'vitest';
import { compareInferred } from '../../src/equiv/compare.js';
import { sym } from '../../src/graph/index.js';
import { ifModel, inferStandIn, type IfSpec } from './fixtures.js';

/**
 * The ONNX form (A) against the IR form (B) of one If model: then reads x, else reads z.
 * B is built by hand; where it is wired wrong, the check must say where.
 */
const spec = (over: Partial<IfSpec> = {}): IfSpec => ({
  dialect: 'onnx', inputs: { x: [2, 4], z: [3, 4] }, then: ['x'], else: ['z'], ...over,
});

function check(a: IfSpec, b: IfSpec, mutateB?: (m: ReturnType<typeof ifModel>) => void) {
  const A = ifModel(a);
  const B = ifModel(b);
  mutateB?.(B);
  return compareInferred(inferStandIn(A.model, 'A'), inferStandIn(B.model, 'B'));
}

const rewire = (key: string, from: number) => (m: ReturnType<typeof ifModel>) => {
  const body = m.ifNode.bodies.get(key)!;
  body.inputs[0] = { param: body.inputs[0]!.param, from };
};

describe('an If in both forms, wired alike', () => {
  const r = check(spec(), spec({ dialect: 'ov' }));

  it('has no contradiction', () => {
    expect(r.ok).toBe(true);
    expect(r.entries.filter((e) => e.status !== 'equal')).toEqual([]);
  });

  it('compares graph inputs, the If output, and the values inside both bodies, with paths', () => {
    const byPath = new Map(r.entries.map((e) => [e.pathA, e]));
    expect([...byPath.keys()].sort()).toEqual([
      'main/If_0/else/Neg_z:0', 'main/If_0/else/z', 'main/If_0/then/Neg_x:0', 'main/If_0/then/x',
      'main/If_0:0', 'main/cond', 'main/x', 'main/z',
    ]);
    expect(byPath.get('main/If_0/then/x')).toMatchObject({ scope: 'main/If_0/then', pathB: 'main/If_0/then/x', via: 'name' });
    expect(byPath.get('main/If_0/then/Neg_x:0')).toMatchObject({ a: { dtype: 'f32', shape: [2, 4] }, b: { dtype: 'f32', shape: [2, 4] } });
  });

  it('reports no binding mismatch and nothing unmatched', () => {
    expect(r.diagnostics).toEqual([]);
    expect(r.unmatched).toEqual([]);
  });
});

describe('a mis-wired port map: then_body parameter x fed from If input 2 (z, [3,4]) instead of 1 (x, [2,4])', () => {
  const r = check(spec(), spec({ dialect: 'ov' }), rewire('then_body', 2));

  it('is a contradiction at the body parameter and everything downstream, with the body paths', () => {
    expect(r.ok).toBe(false);
    const bad = r.entries.filter((e) => e.status === 'contradiction');
    expect(bad.map((e) => [e.pathA, e.pathB, e.detail])).toEqual([
      ['main/If_0/then/x', 'main/If_0/then/x', 'dim 0: 2 vs 3'],
      ['main/If_0/then/Neg_x:0', 'main/If_0/then/Neg_x:0', 'dim 0: 2 vs 3'],
    ]);
    expect(r.entries[0]!.status).toBe('contradiction');
  });

  it('names the wiring difference at the If of B', () => {
    const w = r.diagnostics.filter((d) => d.code === 'EQUIV_BINDING_MISMATCH');
    expect(w).toHaveLength(1);
    expect(w[0]!.where).toBe('main/If_0');
    expect(w[0]!.message).toContain("input 2 ('z')");
    expect(w[0]!.message).toContain("input 1 ('x')");
    expect(r.diagnostics.filter((d) => d.code === 'EQUIV_CONTRADICTION').map((d) => d.where))
      .toEqual(['main/If_0/then/x', 'main/If_0/then/Neg_x:0']);
  });

  it('is caught when B\'s parameters carry no names: the parameter pairs by elimination, the body result through the bindings', () => {
    const r2 = check(spec(), spec({ dialect: 'ov', nameParams: false }), rewire('then_body', 2));
    expect(r2.ok).toBe(false);
    expect(r2.entries.filter((e) => e.status === 'contradiction').map((e) => [e.pathA, e.via])).toEqual([
      ['main/If_0/then/x', 'position'], ['main/If_0/then/Neg_x:0', 'result'],
    ]);
    expect(r2.diagnostics.filter((d) => d.code === 'EQUIV_PROVENANCE')).toHaveLength(1);
    expect(r2.diagnostics.filter((d) => d.code === 'EQUIV_BINDING_MISMATCH')).toHaveLength(1);
  });

  it('unnamed parameters wired alike pair through the bindings', () => {
    const r2 = check(spec(), spec({ dialect: 'ov', nameParams: false }));
    expect(r2.ok).toBe(true);
    expect(r2.entries.find((e) => e.pathA === 'main/If_0/then/x')!.via).toBe('binding');
  });

  it('is caught when A is the mis-wired one, too', () => {
    const r3 = check(spec(), spec({ dialect: 'ov' }), undefined);
    expect(r3.ok).toBe(true);
    const A = ifModel(spec());
    rewire('else_branch', 1)(A);
    const B = ifModel(spec({ dialect: 'ov' }));
    const r4 = compareInferred(inferStandIn(A.model), inferStandIn(B.model));
    expect(r4.entries.filter((e) => e.status === 'contradiction').map((e) => e.pathB)).toEqual([
      'main/If_0/else/z', 'main/If_0/else/Neg_z:0',
    ]);
  });
});

describe('a mis-wiring that changes no type or shape', () => {
  // x and w have the same type: a then_body fed from w instead of x computes other numbers while
  // every tensor keeps its type and shape. Types cannot tell; binding provenance can: the
  // corresponding parameters are fed from outer values that do not correspond.
  const same = { x: [2, 4], w: [2, 4] };
  const r = check(spec({ inputs: same, then: ['x'], else: ['w'] }), spec({ dialect: 'ov', inputs: same, then: ['x'], else: ['w'] }), rewire('then_body', 2));

  it('is a contradiction naming both wirings', () => {
    expect(r.ok).toBe(false);
    expect(r.entries.every((e) => e.status === 'equal')).toBe(true);
    const p = r.diagnostics.find((d) => d.code === 'EQUIV_PROVENANCE');
    expect(p?.where).toBe('main/If_0/then/x');
    expect(p?.message).toContain('main/If_0/then/x ← main/w in B, ← main/x in A');
  });

  it('still warns that the bindings are wired differently', () => {
    expect(r.diagnostics.map((d) => d.code)).toContain('EQUIV_BINDING_MISMATCH');
  });
});

describe('symbols across the whole model', () => {
  it('N bound to 2 at x and to 3 at z is a contradiction', () => {
    const r = check(spec({ inputs: { x: [sym('N'), 4], z: [sym('N'), 4] } }), spec({ dialect: 'ov' }));
    expect(r.ok).toBe(false);
    const bad = r.entries.filter((e) => e.status === 'contradiction');
    expect(bad[0]!.pathA).toBe('main/z');
    expect(bad[0]!.detail).toContain("symbol 'N' of A is 2 at main/x[0] but 3 at main/z[0]");
  });

  it('N against 2 everywhere is compatible, B more precise', () => {
    const r = check(spec({ inputs: { x: [sym('N'), 4], z: [sym('N'), 4] } }), spec({ dialect: 'ov', inputs: { x: [2, 4], z: [2, 4] } }));
    expect(r.ok).toBe(true);
    expect(r.entries.find((e) => e.pathA === 'main/x')).toMatchObject({ status: 'compatible', moreSpecific: 'b' });
  });
});

describe('results bound to node outputs', () => {
  it('a body result feeding the wrong If output is compared against the one it replaced', () => {
    // Two outputs: then yields (x, z) in A; B's then_body binds result 0 to output 1 and 1 to 0.
    const build = (dialect: 'onnx' | 'ov', swap: boolean) => {
      const m = ifModel({ dialect, inputs: { x: [2, 4], z: [3, 4] }, then: ['x'], else: ['x'] });
      const body = m.ifNode.bodies.get(dialect === 'ov' ? 'then_body' : 'then_branch')!;
      const p = body.graph.addInput(null, ['z']);
      body.inputs.push({ param: p, from: 2 });
      body.graph.outputs.push(p);
      body.outputs.push({ result: 1, to: 1 });
      const eb = m.ifNode.bodies.get(dialect === 'ov' ? 'else_body' : 'else_branch')!;
      const q = eb.graph.addInput(null, ['z']);
      eb.inputs.push({ param: q, from: 2 });
      eb.graph.outputs.push(q);
      eb.outputs.push({ result: 1, to: 1 });
      m.ifNode.addOutput(null, ['y2']);
      m.model.graph.outputs.push(m.ifNode.outputs[1]!);
      if (swap) body.outputs.splice(0, 2, { result: 0, to: 1 }, { result: 1, to: 0 });
      return m.model;
    };
    const r = compareInferred(inferStandIn(build('onnx', false)), inferStandIn(build('ov', true)));
    expect(r.ok).toBe(false);
    const bad = r.entries.filter((e) => e.status === 'contradiction');
    expect(bad.map((e) => `${e.pathA} ~ ${e.pathB} (${e.via})`)).toEqual([
      'main/If_0/then/z ~ main/If_0/then/Neg_x:0 (result)',
      'main/If_0/then/Neg_x:0 ~ main/If_0/then/z (result)',
    ]);
    expect(r.diagnostics.map((d) => d.code)).toContain('EQUIV_RESULT_MISMATCH');
  });
});

describe('correspondence', () => {
  it('lists named tensors that only one form has, without failing', () => {
    const A = ifModel(spec());
    const extra = A.model.graph.addNode({ dialect: 'onnx', op: 'Neg', version: '13', name: 'extra' });
    extra.addInput(A.model.graph.inputs[1]!);
    extra.addOutput(null, ['only_in_a']);
    const r = compareInferred(inferStandIn(A.model), inferStandIn(ifModel(spec({ dialect: 'ov' })).model));
    expect(r.ok).toBe(true);
    expect(r.unmatched).toEqual([{ side: 'a', name: 'only_in_a', path: 'main/extra:0' }]);
  });

  it('matches IR Parameters by layer name and outputs by Result name when tensor names differ', () => {
    const B = ifModel(spec({ dialect: 'ov' }));
    B.model.graph.inputs[1]!.names = [];
    B.model.graph.outputs[0]!.names = ['renamed'];
    B.model.graph.meta['resultNames'] = ['y/sink_port_0'];
    const r = compareInferred(inferStandIn(ifModel(spec()).model), inferStandIn(B.model));
    expect(r.entries.find((e) => e.pathA === 'main/x')!.via).toBe('layer name');
    expect(r.entries.find((e) => e.pathA === 'main/If_0:0')!.via).toBe('result name');
  });

  it('reports an If of one form with no counterpart in the other', () => {
    const B = ifModel(spec({ dialect: 'ov', output: 'other' }));
    B.ifNode.name = 'If_9';
    B.model.graph.outputs.length = 0; // nothing left to pair the If outputs by position
    const r = compareInferred(inferStandIn(ifModel(spec()).model), inferStandIn(B.model));
    expect(r.diagnostics.filter((d) => d.code === 'EQUIV_BODY_UNMATCHED').map((d) => d.where)).toEqual(['main/If_0', 'main/If_9']);
  });
});
