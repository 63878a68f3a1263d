import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import type { Diagnostic } from '../../src/diag/diagnostic.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { checkModels } from '../../src/equiv/check-models.js';
import { tensorType, type Model, type Value } from '../../src/graph/index.js';
import { Builder } from './builder.js';

/**
 * y = If(c){ Relu(x) } else { Neg(x) }, x: f32[2,3]; the then-branch value `t` is declared
 * f32[4,3] (wrong: it is f32[2,3]), as exported models sometimes carry.
 */
function wrongBranchDeclaration(): { model: Model; t: Value; y: Value } {
  const b = new Builder('onnx');
  const x = b.input('x', 'f32', [2, 3]);
  const c = b.input('c', 'boolean', []);
  const n = b.ifNode(b.graph, c, ['y']);
  const th = b.body(n, 'then_branch');
  const t = b.op(th, 'Relu', [x], 't');
  t.type = tensorType('f32', [4, 3]);
  b.results(th, [t]);
  const el = b.body(n, 'else_branch');
  b.results(el, [b.op(el, 'Neg', [x], 'e')]);
  b.output(n.outputs[0]!);
  return { model: b.model, t, y: n.outputs[0]! };
}

function codesOf(f: () => unknown): string[] {
  try { f(); } catch (e) {
    if (e instanceof OvirError) return e.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.where}`);
    throw e;
  }
  return [];
}

describe('declared types of intermediate values are hints (issue 8 item 7)', () => {
  it('convert: a wrong declaration on a branch value is a warning naming it; the IR carries the inferred shape', () => {
    const { model } = wrongBranchDeclaration();
    const warnings: Diagnostic[] = [];
    const ir = convertModel(model, { onWarning: (d) => warnings.push(d) });
    expect(warnings.map((d) => [d.code, d.where])).toEqual([['SHAPE_DECLARED_HINT', 'main/If/then/Relu#0']]);
    const body = ir.graph.nodes.find((n) => n.op === 'If')!.bodies.get('then_body')!.graph;
    expect(body.nodes.find((n) => n.op === 'Relu')!.outputs[0]!.type).toEqual(tensorType('f32', [2, 3]));
  });

  it('convert --strict: the same declaration is an error, nothing converted', () => {
    const { model } = wrongBranchDeclaration();
    expect(codesOf(() => convertModel(model, { strict: true }))).toEqual(['SHAPE_DECLARED_CONTRADICTS main/If/then/Relu#0']);
  });

  it('a wrong declared shape of an ONNX graph output is a warning, the IR output has the inferred shape (onnxruntime merges it leniently, OpenVINO infers it)', () => {
    const { model, y } = wrongBranchDeclaration();
    y.type = tensorType('f32', [5]);
    const warnings: Diagnostic[] = [];
    const ir = convertModel(model, { onWarning: (d) => warnings.push(d) });
    expect(warnings.map((d) => `${d.code} ${d.where}`)).toEqual(['SHAPE_DECLARED_HINT main/If/then/Relu#0', 'SHAPE_OUTPUT_DECLARED_HINT main/If']);
    expect(ir.graph.outputs[0]!.type).toEqual(tensorType('f32', [2, 3]));
  });

  it('…an error under --strict, and a wrong declared element type of a graph output always is', () => {
    const { model, y } = wrongBranchDeclaration();
    y.type = tensorType('f32', [5]);
    expect(codesOf(() => convertModel(model, { strict: true }))).toContain('SHAPE_DECLARED_CONTRADICTS main/If');
    y.type = tensorType('f64', [2, 3]);
    expect(codesOf(() => convertModel(model))).toContain('SHAPE_DECLARED_CONTRADICTS main/If');
  });

  it('check: passes by default, fails under strict', () => {
    const { model } = wrongBranchDeclaration();
    const ir = convertModel(model);
    expect(checkModels(model, ir).ok).toBe(true);
    expect(checkModels(model, ir, { strict: true }).ok).toBe(false);
  });
});
