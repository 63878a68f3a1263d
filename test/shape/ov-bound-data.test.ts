import { describe, expect, it } from 'vitest';
import type { Attr } from '../../src/graph/attr.js';
import type { Dim, Shape } from '../../src/graph/shape.js';
import { tensorFromBool } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { A, B, errors, iv, shapeOf } from './build.js';

/**
 * Shape data through OpenVINO ops as OpenVINO's bound evaluation carries it during shape
 * inference (evaluate_lower / evaluate_upper): a Broadcast whose target shape is computed from
 * ShapeOf data with FloorMod, comparisons, Select, Divide… gets a static shape when OpenVINO
 * does, and never a more precise one. Every expected shape below is what openvino 2026.4 infers
 * for the same graph built with its Python API (openvino.opset13).
 */

const raw = (v: string): Attr => A.raw(v);

class G extends B {
  constructor() { super('ov', 'opset1'); }
  op(op: string, inputs: Value[], attrs: Record<string, Attr> = {}, version?: string): Value {
    return this.node(op, inputs, attrs, version ? { version } : {}).outputs[0]!;
  }
  shapeOfInput(shape: Shape): Value { return this.op('ShapeOf', [this.input(`x${this.g.inputs.length}`, 'f32', shape)], {}, 'opset3'); }
  /** Gather of one element of 1-D data. */
  at(v: Value, i: number): Value { return this.op('Gather', [v, this.i64([i]), this.i64([0], [])], {}, 'opset8'); }
  boolConst(values: boolean[]): Value { return this.g.addInitializer(tensorFromBool(values, [values.length]), [`b${this.g.initializers.length}`]); }
  /** A scalar f32 broadcast (numpy) to `target`: its shape shows the target's data as OpenVINO knows it. */
  broadcastTo(target: Value): Value { return this.op('Broadcast', [this.f32([1], []), target], {}, 'opset3'); }
  shape(v: Value): Shape | undefined {
    const r = this.infer();
    expect(errors(r)).toEqual([]);
    return shapeOf(r, v);
  }
}

/**
 * The key/value expansion of ONNX Attention's function body (ovc's IR of the *_expanded backend
 * models): heads of Q and K/V from ShapeOf, the group size Select(q != kv && q % kv == 0, q / kv, 1),
 * the 5-D target Concat(batch, kv heads, group, kv length, head size), Broadcast of K unsqueezed at 2.
 */
function kvExpansion(q: Shape, k: Shape): { g: G; out: Value } {
  const g = new G();
  const sq = g.shapeOfInput(q);
  const kIn = g.input('k', 'f32', k);
  const sk = g.op('ShapeOf', [kIn], {}, 'opset3');
  const qh = g.at(sq, 1);
  const kh = g.at(sk, 1);
  const notSame = g.op('LogicalNot', [g.op('Equal', [qh, kh])]);
  const divides = g.op('Equal', [g.op('FloorMod', [qh, kh]), g.i64([0])]);
  const group = g.op('Select', [g.op('LogicalAnd', [notSame, divides]), g.op('Divide', [qh, kh], { m_pythondiv: raw('true') }), g.i64([1])]);
  const target = g.op('Concat', [g.at(sq, 0), kh, group, g.at(sk, 2), g.at(sq, 3)], { axis: raw('0') });
  const unsqueezed = g.op('Unsqueeze', [kIn, g.i64([2])]);
  return { g, out: g.op('Broadcast', [unsqueezed, target], {}, 'opset3') };
}

describe('Attention K/V expansion: ShapeOf → FloorMod/Equal/LogicalAnd/Select → Concat → Broadcast', () => {
  it.each<[string, Shape, Shape, Shape]>([
    ['same heads: group 1', [2, 3, 4, 8], [2, 3, 6, 8], [2, 3, 1, 6, 8]],
    ['6 query heads over 3 kv heads: group 2', [2, 6, 4, 8], [2, 3, 6, 8], [2, 3, 2, 6, 8]],
    ['dynamic batch: the heads are still known exactly', [null, 3, 4, 8], [null, 3, 6, 8], [null, 3, 1, 6, 8]],
    ['kv length 2..9: its bounds pass through', [2, 3, 4, 8], [2, 3, iv(2, 9), 8], [2, 3, 1, iv(2, 9), 8]],
    ['query heads unknown: the condition is not known, nothing of the target is', [2, null, 4, 8], [2, 3, 6, 8], [null, null, null, null, null]],
  ])('%s', (_, q, k, want) => {
    const { g, out } = kvExpansion(q, k);
    expect(g.shape(out)).toEqual(want);
  });
});

describe('integer semantics of the evaluated ops', () => {
  it('Divide floors when m_pythondiv (the default) and truncates otherwise: -7 / 2 + 10 is 6 or 7', () => {
    for (const [python, want] of [['true', 6], ['false', 7]] as const) {
      const g = new G();
      const q = g.op('Divide', [g.i64([-7]), g.i64([2])], { m_pythondiv: raw(python) });
      expect(g.shape(g.broadcastTo(g.op('Add', [q, g.i64([10])])))).toEqual([want]);
    }
  });

  it('FloorMod takes the divisor\'s sign, Mod the dividend\'s: -7 mod 3 + 5 is 7 or 4', () => {
    for (const [op, want] of [['FloorMod', 7], ['Mod', 4]] as const) {
      const g = new G();
      expect(g.shape(g.broadcastTo(g.op('Add', [g.op(op, [g.i64([-7]), g.i64([3])]), g.i64([5])])))).toEqual([want]);
    }
  });

  it('Maximum and Minimum of ShapeOf (4,6) with 5: (5,6) and (4,5)', () => {
    const g = new G();
    const s = g.shapeOfInput([4, 6]);
    const target = g.op('Concat', [g.op('Maximum', [s, g.i64([5])]), g.op('Minimum', [s, g.i64([5])])], { axis: raw('0') });
    expect(g.shape(g.broadcastTo(target))).toEqual([5, 6, 4, 5]);
  });

  it('Power of ShapeOf (6,5) by 2: (36,25)', () => {
    const g = new G();
    expect(g.shape(g.broadcastTo(g.op('Power', [g.shapeOfInput([6, 5]), g.i64([2])])))).toEqual([36, 25]);
  });

  it('element by element: ShapeOf (?,5) FloorMod 4 is (?,1), Maximum 4 is (?,5)', () => {
    const g = new G();
    const s = g.shapeOfInput([null, 5]);
    const fm = g.broadcastTo(g.op('FloorMod', [s, g.i64([4])]));
    const mx = g.broadcastTo(g.op('Maximum', [s, g.i64([4])]));
    expect([g.shape(fm), g.shape(mx)]).toEqual([[null, 1], [null, 5]]);
  });

  it('ops OpenVINO does not evaluate during shape inference give no data: SquaredDifference, BitwiseAnd', () => {
    const g = new G();
    const s = g.shapeOfInput([6, 5]);
    const sq = g.broadcastTo(g.op('SquaredDifference', [s, g.i64([4])]));
    const and = g.broadcastTo(g.op('BitwiseAnd', [s, g.i64([3])], {}, 'opset13'));
    expect([g.shape(sq), g.shape(and)]).toEqual([[null, null], [null, null]]);
  });
});

describe('Select-1: data only with a condition known exactly', () => {
  it('a known condition picks then/else elements, bounds included: (2..5,7)', () => {
    const g = new G();
    const sel = g.op('Select', [g.boolConst([true, false]), g.shapeOfInput([iv(2, 5), 3]), g.i64([7, 7])]);
    expect(g.shape(g.broadcastTo(sel))).toEqual([iv(2, 5), 7]);
  });

  it('a condition computed from a 2..5 dim is not known: (?,?)', () => {
    const g = new G();
    const s = g.shapeOfInput([iv(2, 5), 3]);
    const sel = g.op('Select', [g.op('Equal', [s, g.i64([2, 3])]), s, g.i64([7, 7])]);
    expect(g.shape(g.broadcastTo(sel))).toEqual([null, null]);
  });
});

describe('ScatterElementsUpdate-3 → Pad-1 (how ovc writes ONNX Pad with pads computed in the graph)', () => {
  it('pads_begin (0,3) and pads_end (2,0) scattered from known data: (2,2) → (4,5)', () => {
    const g = new G();
    const x = g.input('x', 'f32', [2, 2]);
    const begin = g.op('ScatterElementsUpdate', [g.i64([0, 0]), g.i64([-1]), g.i64([3]), g.i64([0], [])], {}, 'opset3');
    const width = g.at(g.op('ShapeOf', [x], {}, 'opset3'), 1);
    const end = g.op('ScatterElementsUpdate', [g.i64([0, 0]), g.i64([0]), width, g.i64([0], [])], {}, 'opset3');
    const padded = g.op('Pad', [x, begin, end, g.f32([0], [])], { pad_mode: raw('constant') });
    expect(g.shape(padded)).toEqual([4, 5]);
  });
});

describe('Broadcast numpy: the output is the target shape as known', () => {
  it('data (2,3,1) to ShapeOf of (?,3,1) is (?,3,1): the data dim does not refine the target', () => {
    const g = new G();
    const out = g.op('Broadcast', [g.input('d', 'f32', [2, 3, 1]), g.shapeOfInput([null, 3, 1])], {}, 'opset3');
    expect(g.shape(out)).toEqual([null, 3, 1]);
  });
});

describe('bounds: a binary op over intervals is its range over the corners of the bounds', () => {
  /** ShapeOf of (a, b) → op(element 0, element 1) → Broadcast target. */
  function pair(op: string, a: Dim, b: Dim): Shape | undefined {
    const g = new G();
    const sx = g.shapeOfInput([a, b]);
    return g.shape(g.broadcastTo(g.op(op, [g.at(sx, 0), g.at(sx, 1)])));
  }
  it.each<[string, string, Dim, Dim, Shape]>([
    ['2..5 + 1..3 = 3..8', 'Add', iv(2, 5), iv(1, 3), [iv(3, 8)]],
    ['10..20 - 2..3 = 7..18', 'Subtract', iv(10, 20), iv(2, 3), [iv(7, 18)]],
    ['0..4 * 2 = 0..8', 'Multiply', iv(0, 4), 2, [iv(0, 8)]],
    ['2..5 / 1..3 = 0..5 (2/3 floors to 0)', 'Divide', iv(2, 5), iv(1, 3), [iv(0, 5)]],
    ['10..20 / 2..3 = 3..10', 'Divide', iv(10, 20), iv(2, 3), [iv(3, 10)]],
    ['2..5 FloorMod 3 = 2 (2 mod 3 and 5 mod 3: OpenVINO looks at the bounds only)', 'FloorMod', iv(2, 5), 3, [2]],
    ['3 FloorMod 2..5 = 1..3', 'FloorMod', 3, iv(2, 5), [iv(1, 3)]],
    ['Maximum(2..5, 3) = 3..5', 'Maximum', iv(2, 5), 3, [iv(3, 5)]],
    ['Minimum(2..5, 3) = 2..3', 'Minimum', iv(2, 5), 3, [iv(2, 3)]],
    ['Power(2..5, 1..3) = 2..125', 'Power', iv(2, 5), iv(1, 3), [iv(2, 125)]],
    ['a dim unbounded above gives unknown: ? + 2', 'Add', null, 2, [null]],
    ['a dim unbounded above gives unknown: 2.. * 2', 'Multiply', iv(2, Infinity), 2, [null]],
    ['Mod has bounds of its own in OpenVINO: not guessed from the corners', 'Mod', iv(2, 5), 3, [null]],
  ])('%s', (_, op, a, b, want) => expect(pair(op, a, b)).toEqual(want));
});

describe('bounds through reductions of 1-D shape data (keep_dims)', () => {
  function reduce(op: string, shape: Shape): Shape | undefined {
    const g = new G();
    return g.shape(g.broadcastTo(g.op(op, [g.shapeOfInput(shape), g.i64([0])], { keep_dims: raw('true') })));
  }
  it.each<[string, string, Shape, Shape]>([
    ['ReduceProd of (2..5,3,4) = 24..60', 'ReduceProd', [iv(2, 5), 3, 4], [iv(24, 60)]],
    ['ReduceProd of (2..,3,4) = 24..', 'ReduceProd', [iv(2, Infinity), 3, 4], [iv(24, Infinity)]],
    ['ReduceMax of (2..5,3) = 3..5', 'ReduceMax', [iv(2, 5), 3], [iv(3, 5)]],
    ['ReduceMax of (?,3,4) = 4..', 'ReduceMax', [null, 3, 4], [iv(4, Infinity)]],
    ['ReduceMin of (2..,3) = 2..3', 'ReduceMin', [iv(2, Infinity), 3], [iv(2, 3)]],
    ['ReduceMin of (?,3,4) = 0..3', 'ReduceMin', [null, 3, 4], [iv(0, 3)]],
    ['ReduceSum of (2,3) = 5', 'ReduceSum', [2, 3], [5]],
    ['ReduceSum of (2..5,3): no bounds in OpenVINO', 'ReduceSum', [iv(2, 5), 3], [null]],
  ])('%s', (_, op, shape, want) => expect(reduce(op, shape)).toEqual(want));
});

describe('bounds move with the data: Abs, Clamp, ScatterUpdate, ScatterElementsUpdate, Tile', () => {
  const x: Shape = [iv(2, 5), null, 4];
  it('Abs keeps (2..5,?,4); Negative of data not known exactly gives nothing', () => {
    const g = new G();
    const abs = g.broadcastTo(g.op('Abs', [g.shapeOfInput(x)]));
    const neg = g.broadcastTo(g.op('Negative', [g.op('Negative', [g.shapeOfInput(x)])]));
    expect([g.shape(abs), g.shape(neg)]).toEqual([[iv(2, 5), null, 4], [null, null, null]]);
  });
  it('Clamp [1, 3] of (2..5,?,4) is (2..3,1..3,3)', () => {
    const g = new G();
    expect(g.shape(g.broadcastTo(g.op('Clamp', [g.shapeOfInput(x)], { min: raw('1'), max: raw('3') })))).toEqual([iv(2, 3), iv(1, 3), 3]);
  });
  it('element 1 set to 9 by ScatterUpdate-3 or ScatterElementsUpdate-3: (2..5,9,4)', () => {
    for (const op of ['ScatterUpdate', 'ScatterElementsUpdate']) {
      const g = new G();
      const sc = g.op(op, [g.shapeOfInput(x), g.i64([1]), g.i64([9]), g.i64([0], [])], {}, 'opset3');
      expect(g.shape(g.broadcastTo(sc))).toEqual([iv(2, 5), 9, 4]);
    }
  });
  it('Tile by 2: (2..5,?,4,2..5,?,4)', () => {
    const g = new G();
    expect(g.shape(g.broadcastTo(g.op('Tile', [g.shapeOfInput(x), g.i64([2])])))).toEqual([iv(2, 5), null, 4, iv(2, 5), null, 4]);
  });
});
