import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError, type Diagnostic } from '../../src/diag/diagnostic.js';
import { allGraphs, tensorFromBool, tensorFromInt64, verifyGraph, type Model, type Value } from '../../src/graph/index.js';
import { inferTypes } from '../../src/shape/infer.js';
import { Builder } from './builder.js';

/**
 * ONNX lets the branch an If never takes be inconsistent (onnxruntime runs the model; the
 * expanded AffineGrid function gathers a 2-D theta in the branch a 3-D size never takes), while
 * OpenVINO validates every body of an IR. So: with a condition inference knows, the other
 * branch's errors are warnings on the ONNX side, and ONNX → IR replaces the If by its taken branch,
 * reported as CONVERT_IF_FOLDED; a taken branch with errors is still refused.
 */

/** then = MatMul(x, x) on x: f32[2,3] (inner dims 3 vs 2: invalid), else = -x; cond as given. */
function model(cond: (b: Builder, x: Value) => Value, thenValid = false): Model {
  const b = new Builder('onnx');
  const x = b.input('x', 'f32', [2, 3]);
  const ifNode = b.ifNode(b.graph, cond(b, x), ['y'], 'If_dead');
  const t = b.body(ifNode, 'then_branch');
  b.results(t, [thenValid ? b.op(t, 'Abs', [x], 'abs_x') : b.op(t, 'MatMul', [x, x], 'x_x')]);
  const e = b.body(ifNode, 'else_branch');
  b.results(e, [b.op(e, 'Neg', [x], 'neg_x')]);
  b.output(ifNode.outputs[0]!);
  return b.model;
}
const constCond = (value: boolean) => (b: Builder) => b.init('cond', tensorFromBool([value], []));
/** cond = Size(x) == 7: false, known from x's static shape (OpenVINO-side inference: ShapeOf, ReduceProd, Equal). */
const sizeIs7 = (b: Builder, x: Value) => b.op(b.graph, 'Equal', [b.op(b.graph, 'Size', [x], 'n'), b.init('seven', tensorFromInt64([7], []))], 'cond');

function convert(m: Model): { ir: Model; warnings: Diagnostic[] } {
  const warnings: Diagnostic[] = [];
  return { ir: convertModel(m, { onWarning: (d) => warnings.push(d) }), warnings };
}
const ops = (m: Model) => [...allGraphs(m.graph)].flatMap((g) => g.nodes.map((n) => n.op));

describe('an If whose condition inference knows', () => {
  it('ONNX-side inference: the untaken branch\'s errors are SHAPE_UNTAKEN_BRANCH warnings, listed for the If', () => {
    const m = model(constCond(false));
    const r = inferTypes(m);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const w = r.diagnostics.filter((d) => d.code === 'SHAPE_UNTAKEN_BRANCH');
    expect(w.map((d) => d.where)).toEqual(['main/If_dead/then/MatMul#0']);
    expect(w[0]!.message).toMatch(/always false.*MatMul.*\[SHAPE_RULE\]/);
    const u = r.untaken.get(m.graph.nodes.find((n) => n.op === 'If')!)!;
    expect(u.cond).toBe(false);
    expect(u.errors.map((d) => d.code)).toEqual(['SHAPE_RULE']);
  });

  it('ONNX → IR replaces the If by its taken branch and says so', () => {
    for (const cond of [constCond(false), sizeIs7]) {
      const { ir, warnings } = convert(model(cond));
      expect(ops(ir)).not.toContain('If');
      expect(ops(ir)).toContain('Negative');
      expect(ir.graph.outputs[0]!.names).toEqual(['y']);
      expect(verifyGraph(ir.graph)).toEqual([]);
      const folded = warnings.filter((d) => d.code === 'CONVERT_IF_FOLDED');
      expect(folded.map((d) => d.where)).toEqual(['main/If_dead']);
      expect(folded[0]!.message).toMatch(/always false.*else branch.*main\/If_dead\/then\/x_x: MatMul/);
    }
  });

  it('a taken branch with errors is refused, naming the node', () => {
    try {
      convertModel(model(constCond(true)));
      expect.unreachable('converted an If whose taken branch is invalid');
    } catch (e) {
      expect(e).toBeInstanceOf(OvirError);
      const errs = (e as OvirError).diagnostics.filter((d) => d.severity === 'error');
      expect(errs.map((d) => [d.code, d.where])).toContainEqual(['SHAPE_RULE', 'main/If_dead/then/MatMul#0']);
    }
  });

  it('an If whose branches both infer stays an If (nothing to fold)', () => {
    const { ir, warnings } = convert(model(constCond(false), true));
    expect(ops(ir).filter((o) => o === 'If')).toHaveLength(1);
    expect(warnings.filter((d) => d.code === 'CONVERT_IF_FOLDED')).toEqual([]);
  });

  it('OpenVINO-side inference keeps the errors (OpenVINO validates every body of an IR)', () => {
    const m = model(constCond(false));
    const r = inferTypes(m, { ifMerge: 'openvino' });
    expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.where)).toEqual(['main/If_dead/then/MatMul#0']);
    expect(r.untaken.size).toBe(1);
  });
});
