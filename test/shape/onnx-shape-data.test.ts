import { describe, expect, it } from 'vitest';
import { A } from '../../src/graph/attr.js';
import type { Shape } from '../../src/graph/shape.js';
import type { Value } from '../../src/graph/value.js';
import { B, errors, s, shapeOf } from './build.js';

/**
 * Shape data through ONNX's Mod, Max, Min, comparisons, logical ops and Where, so that an Expand
 * whose shape the ONNX Attention function body computes this way (the *_expanded backend models)
 * gets the shape the same IR gets on the OpenVINO side. Every expected shape is the output shape
 * onnxruntime 1.31 computes running the same graph.
 */

class G extends B {
  constructor() { super('onnx', '17'); }
  op(op: string, inputs: Value[], attrs: Parameters<B['node']>[2] = {}): Value {
    return this.node(op, inputs, attrs).outputs[0]!;
  }
  shapeOfInput(shape: Shape): Value { return this.op('Shape', [this.input(`x${this.g.inputs.length}`, 'f32', shape)]); }
  at(v: Value, i: number): Value { return this.op('Gather', [v, this.i64([i])]); }
  expandTo(target: Value): Value { return this.op('Expand', [this.f32([1], []), target]); }
  shape(v: Value): Shape | undefined {
    const r = this.infer();
    expect(errors(r)).toEqual([]);
    return shapeOf(r, v);
  }
}

/** The K expansion of the Attention function body: group = Where(Not(q == kv) And q % kv == 0, q / kv, 1). */
function kvExpansion(q: Shape, k: Shape): { g: G; out: Value } {
  const g = new G();
  const sq = g.shapeOfInput(q);
  const kIn = g.input('k', 'f32', k);
  const sk = g.op('Shape', [kIn]);
  const qh = g.at(sq, 1);
  const kh = g.at(sk, 1);
  const cond = g.op('And', [g.op('Not', [g.op('Equal', [qh, kh])]), g.op('Equal', [g.op('Mod', [qh, kh]), g.i64([0])])]);
  const group = g.op('Where', [cond, g.op('Div', [qh, kh]), g.i64([1])]);
  const target = g.op('Concat', [g.at(sq, 0), kh, group, g.at(sk, 2), g.at(sq, 3)], { axis: A.int(0) });
  return { g, out: g.op('Expand', [g.op('Unsqueeze', [kIn, g.i64([2])]), target]) };
}

describe('Attention K/V expansion: Shape → Mod/Equal/Not/And/Where → Concat → Expand', () => {
  it.each<[string, Shape, Shape, Shape]>([
    ['same heads: group 1', [2, 3, 4, 8], [2, 3, 6, 8], [2, 3, 1, 6, 8]],
    ['6 query heads over 3 kv heads: group 2', [2, 6, 4, 8], [2, 3, 6, 8], [2, 3, 2, 6, 8]],
    ['batch N: the symbol is kept, the heads known', [s('N'), 3, 4, 8], [s('N'), 3, 6, 8], [s('N'), 3, 1, 6, 8]],
  ])('%s', (_, q, k, want) => {
    const { g, out } = kvExpansion(q, k);
    expect(g.shape(out)).toEqual(want);
  });

  it('query heads unknown: the group is not known (the other dims are)', () => {
    const { g, out } = kvExpansion([2, null, 4, 8], [2, 3, 6, 8]);
    expect(g.shape(out)).toEqual([2, 3, null, 6, 8]);
  });
});

describe('integer semantics', () => {
  it('Mod fmod=0 takes the divisor\'s sign, fmod=1 the dividend\'s: -7 mod 3 + 5 is 7 or 4', () => {
    for (const [fmod, want] of [[0, 7], [1, 4]] as const) {
      const g = new G();
      const m = g.op('Mod', [g.i64([-7]), g.i64([3])], { fmod: A.int(fmod) });
      expect(g.shape(g.expandTo(g.op('Add', [m, g.i64([5])])))).toEqual([want]);
    }
  });

  it('Max and Min of Shape (4,6) with 5: (5,6) and (4,5)', () => {
    const g = new G();
    const sx = g.shapeOfInput([4, 6]);
    const target = g.op('Concat', [g.op('Max', [sx, g.i64([5])]), g.op('Min', [sx, g.i64([5])])], { axis: A.int(0) });
    expect(g.shape(g.expandTo(target))).toEqual([5, 6, 4, 5]);
  });

  it('Where picks by a known condition: Shape (4,3) > (2,3) gives (4,7), its Not (7,3)', () => {
    for (const [negate, want] of [[false, [4, 7]], [true, [7, 3]]] as const) {
      const g = new G();
      const sx = g.shapeOfInput([4, 3]);
      const gt = g.op('Greater', [sx, g.i64([2, 3])]);
      const target = g.op('Where', [negate ? g.op('Not', [gt]) : gt, sx, g.i64([7, 7])]);
      expect(g.shape(g.expandTo(target))).toEqual(want);
    }
  });
});
