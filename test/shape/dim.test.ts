import { describe, expect, it } from 'vitest';
import type { Dim, Shape } from '../../src/graph/shape.js';
import { onnxBroadcast, ovNumpyBroadcast, ovPdpdBroadcast } from '../../src/shape/broadcast.js';
import { divDims, mergeDim, sliceDim, unionDimInterval } from '../../src/shape/dim.js';
import { iv, s } from './build.js';

describe('Dimension::merge', () => {
  it.each<[string, Dim, Dim, Dim | undefined]>([
    ['equal static', 3, 3, 3],
    ['different static: no size fits', 3, 4, undefined],
    ['unknown takes the other', null, 5, 5],
    ['static inside an interval', 4, iv(1, 8), 4],
    ['static outside an interval', 9, iv(1, 8), undefined],
    ['intervals intersect', iv(1, 8), iv(4, 16), iv(4, 8)],
    ['disjoint intervals', iv(1, 2), iv(3, 4), undefined],
    ['symbol yields to a static', s('N'), 7, 7],
    ['same symbol', s('N'), s('N'), s('N')],
  ])('%s', (_, a, b, want) => expect(mergeDim(a, b)).toEqual(want));
});

describe('ONNX multidirectional broadcasting (docs/Broadcasting.md)', () => {
  it.each<[string, Shape[], Shape]>([
    ['shape(A) = (2, 3, 4, 5), shape(B) = (,), i.e. B is a scalar ==> shape(result) = (2, 3, 4, 5)', [[2, 3, 4, 5], []], [2, 3, 4, 5]],
    ['shape(A) = (2, 3, 4, 5), shape(B) = (5,) ==> (2, 3, 4, 5)', [[2, 3, 4, 5], [5]], [2, 3, 4, 5]],
    ['shape(A) = (4, 5), shape(B) = (2, 3, 4, 5) ==> (2, 3, 4, 5)', [[4, 5], [2, 3, 4, 5]], [2, 3, 4, 5]],
    ['shape(A) = (1, 4, 5), shape(B) = (2, 3, 1, 1) ==> (2, 3, 4, 5)', [[1, 4, 5], [2, 3, 1, 1]], [2, 3, 4, 5]],
    ['shape(A) = (3, 4, 5), shape(B) = (2, 1, 1, 1) ==> (2, 3, 4, 5)', [[3, 4, 5], [2, 1, 1, 1]], [2, 3, 4, 5]],
    ['one symbol with 1 keeps the symbol', [[s('N'), 3], [1, 3]], [s('N'), 3]],
    ['same symbol twice is kept', [[s('N')], [s('N')]], [s('N')]],
    ['two different symbols give unknown', [[s('N')], [s('M')]], [null]],
    ['a static size > 1 wins over a symbol', [[s('N')], [4]], [4]],
    ['unknown rank gives unknown rank', [null, [2]], null],
  ])('%s', (_, shapes, want) => expect(onnxBroadcast(shapes)).toEqual({ ok: true, shape: want }));

  it('shape(A) = (2, 3), shape(B) = (4,): incompatible', () => {
    expect(onnxBroadcast([[2, 3], [4]]).ok).toBe(false);
  });
});

describe('OpenVINO numpy auto-broadcast (broadcast_rules.md)', () => {
  it.each<[string, Shape, Shape, Shape]>([
    ['A: Shape(2, 3), B: Shape(2, 3) → Result: Shape(2, 3)', [2, 3], [2, 3], [2, 3]],
    ['A: Shape(2, 3, 4, 5), B: Shape(4, 5) → (2, 3, 4, 5)', [2, 3, 4, 5], [4, 5], [2, 3, 4, 5]],
    ['A: Shape(8, 1, 6, 1), B: Shape(7, 1, 5) → (8, 7, 6, 5)', [8, 1, 6, 1], [7, 1, 5], [8, 7, 6, 5]],
    ['dynamic with static: the static (a dynamic side may be 1)', [null], [3], [3]],
    ['dynamic with 1: dynamic', [null], [1], [null]],
    ['interval holding 1 with static 4: 4', [iv(1, 8)], [4], [4]],
    ['intervals both holding 1: hull', [iv(1, 4)], [iv(0, 8)], [iv(0, 8)]],
    ['interval without 1 merges with a static', [iv(2, 8)], [4], [4]],
  ])('%s', (_, a, b, want) => expect(ovNumpyBroadcast(a, b)).toEqual({ ok: true, shape: want }));

  it('A: Shape(2, 3), B: Shape(3, 4): inconsistent', () => expect(ovNumpyBroadcast([2, 3], [3, 4]).ok).toBe(false));
  it('interval without 1 against a static outside it: inconsistent', () => expect(ovNumpyBroadcast([iv(2, 3)], [5]).ok).toBe(false));

  it.each<[string, Shape, Shape, number, Shape]>([
    ['pdpd A: Shape(2, 3, 4, 5), B: Shape(3, 4), axis=1 → (2, 3, 4, 5)', [2, 3, 4, 5], [3, 4], 1, [2, 3, 4, 5]],
    ['pdpd A: Shape(2, 3, 4, 5), B: Shape(5,), axis=-1 → (2, 3, 4, 5)', [2, 3, 4, 5], [5], -1, [2, 3, 4, 5]],
    ['pdpd A: Shape(2, 3, 4, 5), B: Shape(1, 3), axis=0 → (2, 3, 4, 5)', [2, 3, 4, 5], [1, 3], 0, [2, 3, 4, 5]],
  ])('%s', (_, a, b, axis, want) => expect(ovPdpdBroadcast(a, b, axis)).toEqual({ ok: true, shape: want }));
  it('pdpd A: Shape(2, 3, 4, 5), B: Shape(4, 3), axis=1: inconsistent', () => expect(ovPdpdBroadcast([2, 3, 4, 5], [4, 3], 1).ok).toBe(false));
});

describe('interval arithmetic', () => {
  it('union of 2 and 4 is 2..4 (If-8)', () => expect(unionDimInterval(2, 4)).toEqual(iv(2, 4)));
  it('union with unknown is unknown', () => expect(unionDimInterval(2, null)).toBeNull());
  it('12 / 3 = 4; 2..12 / 2 = 1..6', () => {
    expect(divDims(12, 3, true)).toBe(4);
    expect(divDims(iv(2, 12), 2, true)).toEqual(iv(1, 6));
  });
  it('slice [1:3] of 1..8 is 0..2; of 5 is 2', () => {
    expect(sliceDim(1, 3, 1, iv(1, 8), true)).toEqual(iv(0, 2));
    expect(sliceDim(1, 3, 1, 5, false)).toBe(2);
    expect(sliceDim(0, -1, 1, 10, false)).toBe(9);
    expect(sliceDim(-1, -Infinity, -1, 4, false)).toBe(4);
  });
});
