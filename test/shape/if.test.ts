import { describe, expect, it } from 'vitest';
import type { Dim, Shape } from '../../src/graph/shape.js';
import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Graph } from '../../src/graph/graph.js';
import type { Node } from '../../src/graph/node.js';
import type { Value } from '../../src/graph/value.js';
import { tensorType } from '../../src/graph/types.js';
import { inferTypes } from '../../src/shape/infer.js';
import type { IfMergePolicy } from '../../src/shape/rule.js';
import { B, codes, elemOf, errors, iv, s, shapeOf } from './build.js';

type Side = { elem: ElementTypeName; shape: Shape };

/**
 * An If whose branches each pass one outer value through (then ← x, else ← y) via bindings, so
 * that the branch types come from body inference, not from declarations.
 */
function ifOf(b: B, cond: Value, x: Value, y: Value): { node: Node; out: Value } {
  const onnx = b.dialect === 'onnx';
  const node = b.g.addNode({ dialect: b.dialect, op: 'If', version: onnx ? '17' : 'opset8', name: 'If_1' });
  node.addInput(cond);
  node.addInput(x);
  node.addInput(y);
  const out = node.addOutput(null, ['y']);
  for (const [key, from] of [[onnx ? 'then_branch' : 'then_body', 1], [onnx ? 'else_branch' : 'else_body', 2]] as const) {
    const body = b.g.addBody(node, key);
    const p = body.graph.addInput(null, [`p_${key}`]);
    body.inputs.push({ param: p, from });
    const id = b.node(onnx ? 'Identity' : 'Relu', [p], {}, { g: body.graph, version: onnx ? '17' : 'opset1', name: 'Pass' });
    body.graph.outputs.push(id.outputs[0]!);
    body.outputs.push({ result: 0, to: 0 });
  }
  return { node, out };
}

function mergeCase(dialect: 'onnx' | 'ov', policy: IfMergePolicy, then: Side, other: Side, constCond?: boolean) {
  const b = new B(dialect);
  const cond = constCond === undefined ? b.input('cond', 'boolean', []) : b.bool(constCond);
  const x = b.input('x', then.elem, then.shape);
  const y = b.input('w', other.elem, other.shape);
  const { out } = ifOf(b, cond, x, y);
  const r = b.infer(policy);
  return { r, elem: elemOf(r, out), shape: shapeOf(r, out) };
}

const f = (shape: Shape): Side => ({ elem: 'f32', shape });

// The table of shared/reference/onnx-if-and-shapes.md, one row per case, one column per policy.
const TABLE: [string, Side, Side, { onnx: Shape | 'error'; symbolic: Shape | 'error'; openvino: Shape | 'error' }][] = [
  ['same static dim: kept', f([2, 3]), f([2, 3]), { onnx: [2, 3], symbolic: [2, 3], openvino: [2, 3] }],
  ['different static dims: anonymous / If_<output>_d<i> / min..max', f([2, 3]), f([4, 3]),
    { onnx: [null, 3], symbolic: [s('If_y_d0'), 3], openvino: [iv(2, 4), 3] }],
  ['same dim_param: kept', f([s('N'), 3]), f([s('N'), 3]), { onnx: [s('N'), 3], symbolic: [s('N'), 3], openvino: [s('N'), 3] }],
  ['either dim unknown: anonymous / symbol / ?', f([null, 3]), f([2, 3]), { onnx: [null, 3], symbolic: [s('If_y_d0'), 3], openvino: [null, 3] }],
  ['rank differs (2 vs 1): dropped / rejected / dynamic rank', f([2, 3]), f([2]), { onnx: null, symbolic: 'error', openvino: null }],
  ['rank differs (1 vs 0): dropped / rejected / [?]', f([2]), f([]), { onnx: null, symbolic: 'error', openvino: [null] }],
];

describe.each(['onnx', 'symbolic', 'openvino'] as const)('If merge policy %s', (policy) => {
  it.each(TABLE)('%s', (_, then, other, want) => {
    for (const dialect of ['onnx', 'ov'] as const) {
      const { r, shape } = mergeCase(dialect, policy, then, other);
      const w = want[policy];
      if (w === 'error') {
        expect(codes(r)).toContain('SHAPE_IF_RANK_MISMATCH');
        expect(shape).toBeNull();
      } else {
        expect(errors(r)).toEqual([]);
        expect(shape).toEqual(w);
      }
    }
  });

  it('element types differ: onnx and openvino report, symbolic makes the dtype undefined', () => {
    const { r, elem } = mergeCase('onnx', policy, f([2]), { elem: 'i64', shape: [2] });
    if (policy === 'symbolic') {
      expect(errors(r)).toEqual([]);
      expect(elem).toBe('dynamic');
    } else {
      expect(codes(r)).toContain('SHAPE_IF_TYPE_MISMATCH');
      expect(r.diagnostics.find((d) => d.code === 'SHAPE_IF_TYPE_MISMATCH')!.where).toBe('main/If_1');
    }
  });

  it('constant cond: only openvino takes the taken branch', () => {
    const t = mergeCase('ov', policy, f([2]), f([3]), true);
    const e = mergeCase('ov', policy, f([2]), f([3]), false);
    const want: Record<IfMergePolicy, [Shape, Shape]> = {
      onnx: [[null], [null]], symbolic: [[s('If_y_d0')], [s('If_y_d0')]], openvino: [[2], [3]],
    };
    expect([t.shape, e.shape]).toEqual(want[policy]);
  });
});

describe('If bodies', () => {
  it('default policy: onnx for onnx models, openvino for IR', () => {
    for (const [dialect, want] of [['onnx', [null]], ['ov', [iv(2, 3)]]] as const) {
      const b = new B(dialect);
      const { out } = ifOf(b, b.input('c', 'boolean', []), b.input('x', 'f32', [2]), b.input('z', 'f32', [3]));
      expect(shapeOf(b.infer(), out)).toEqual(want);
    }
  });

  it('body parameters take the types bound in, not their declared ones', () => {
    const b = new B('onnx');
    const { node } = ifOf(b, b.input('c', 'boolean', []), b.input('x', 'f32', [7, 2]), b.input('z', 'f32', [7, 2]));
    const body = node.bodies.get('then_branch')!;
    const r = b.infer();
    expect(shapeOf(r, body.graph.inputs[0]!)).toEqual([7, 2]);
    expect(shapeOf(r, body.graph.nodes[0]!.outputs[0]!)).toEqual([7, 2]);
  });

  it('a wrong declaration of an intermediate value is a hint: a warning with the value and its path, inference trusted', () => {
    const b = new B('onnx');
    const { node } = ifOf(b, b.input('c', 'boolean', []), b.input('x', 'f32', [2, 3]), b.input('z', 'f32', [2, 3]));
    const inner = node.bodies.get('else_branch')!.graph.nodes[0]!.outputs[0]!;
    inner.type = tensorType('f32', [4, 3]);
    node.outputs[0]!.type = tensorType('f32', [2, 3]);
    const r = b.infer();
    expect(r.diagnostics.filter((x) => x.code === 'SHAPE_DECLARED_CONTRADICTS')).toEqual([]);
    const d = r.diagnostics.filter((x) => x.code === 'SHAPE_DECLARED_HINT');
    expect(d).toHaveLength(1);
    expect(d[0]!.severity).toBe('warning');
    expect(d[0]!.where).toBe('main/If_1/else/Pass');
    expect(d[0]!.message).toContain('dim 0: [4] vs [2]');
    // inference trusts its own result, not the declaration
    expect(shapeOf(r, inner)).toEqual([2, 3]);
  });

  it('under strict, the same declaration is an error (SHAPE_DECLARED_CONTRADICTS)', () => {
    const b = new B('onnx');
    const { node } = ifOf(b, b.input('c', 'boolean', []), b.input('x', 'f32', [2, 3]), b.input('z', 'f32', [2, 3]));
    node.bodies.get('else_branch')!.graph.nodes[0]!.outputs[0]!.type = tensorType('f32', [4, 3]);
    const d = inferTypes(b.model, { strict: true }).diagnostics.filter((x) => x.code === 'SHAPE_DECLARED_CONTRADICTS');
    expect(d.map((x) => [x.severity, x.where])).toEqual([['error', 'main/If_1/else/Pass']]);
  });

  it("a wrong declared shape of an ONNX main-graph output is a warning without strict; a wrong element type stays an error", () => {
    const b = new B('onnx');
    const { out } = ifOf(b, b.input('c', 'boolean', []), b.input('x', 'f32', [2, 3]), b.input('z', 'f32', [2, 3]));
    b.g.outputs.push(out);
    out.type = tensorType('f32', [5]);
    const d = b.infer().diagnostics.filter((x) => x.code.startsWith('SHAPE_'));
    expect(d.map((x) => [x.code, x.severity, x.where])).toEqual([['SHAPE_OUTPUT_DECLARED_HINT', 'warning', 'main/If_1']]);
    out.type = tensorType('f64', [2, 3]);
    const e = b.infer().diagnostics.filter((x) => x.code === 'SHAPE_DECLARED_CONTRADICTS');
    expect(e.map((x) => [x.severity, x.where])).toEqual([['error', 'main/If_1']]);
  });

  it('ONNX keeps no declared If output shape that the branches contradict ([2,3] declared, [2,3] | [4,3] inferred)', () => {
    const b = new B('onnx');
    const { node, out } = ifOf(b, b.input('c', 'boolean', []), b.input('x', 'f32', [2, 3]), b.input('z', 'f32', [4, 3]));
    node.outputs[0]!.type = tensorType('f32', [2, 3]);
    const r = b.infer();
    expect(shapeOf(r, out)).toEqual([null, 3]);
    expect(errors(r)).toEqual([]); // [2,3] is compatible with [?,3]: not a contradiction
  });

  it('nested Ifs, 80 levels deep: inferred without recursion, types flow down through every binding', () => {
    const b = new B('onnx');
    const x = b.input('x', 'f32', [5, s('N')]);
    const cond = b.input('c', 'boolean', []);
    let g: Graph = b.g;
    let vx: Value = x;
    let vc: Value = cond;
    const outs: Value[] = [];
    for (let level = 0; level < 80; level++) {
      const node = g.addNode({ dialect: 'onnx', op: 'If', version: '17', name: `If_${level}` });
      node.addInput(vc);
      node.addInput(vx);
      const o = node.addOutput(null, [`o${level}`]);
      outs.push(o);
      if (level > 0) g.outputs.push(o);
      const make = (key: string) => {
        const body = g.addBody(node, key);
        const pc = body.graph.addInput(null, ['pc']);
        const px = body.graph.addInput(null, ['px']);
        body.inputs.push({ param: pc, from: 0 }, { param: px, from: 1 });
        body.outputs.push({ result: 0, to: 0 });
        return { body, pc, px };
      };
      const t = make('then_branch');
      const e = make('else_branch');
      const r = e.body.graph.addNode({ dialect: 'onnx', op: 'Relu', version: '17' });
      r.addInput(e.px);
      e.body.graph.outputs.push(r.addOutput(null));
      g = t.body.graph; vx = t.px; vc = t.pc;
    }
    g.outputs.push(vx);
    const r = b.infer();
    expect(errors(r)).toEqual([]);
    expect(outs.map((o) => shapeOf(r, o))).toEqual(outs.map(() => [5, s('N')] as Dim[]));
  });
});
