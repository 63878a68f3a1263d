import { describe, expect, it } from 'vitest';
import { interval, sym, tensorType, type Dim, type Shape, type ValueType } from '../../src/graph/index.js';
import { compareDim, compareShape, compareType } from '../../src/equiv/compare-type.js';
import { SymbolBindings } from '../../src/equiv/symbols.js';

const N = sym('N');
const M = sym('M');

describe('one dim of A against the same dim of B', () => {
  it.each<[string, Dim, Dim, string, 'a' | 'b' | undefined]>([
    ['equal static sizes', 3, 3, 'equal', undefined],
    ['different static sizes', 2, 3, 'contradiction', undefined],
    ['both unknown', null, null, 'equal', undefined],
    ['static against unknown: the static side is more precise', 4, null, 'compatible', 'a'],
    ['unknown against static', null, 4, 'compatible', 'b'],
    ['static inside the other side\'s interval', 5, interval(1, 8), 'compatible', 'a'],
    ['interval holding the other side\'s static size', interval(1, 8), 1, 'compatible', 'b'],
    ['interval bounds are inclusive', 8, interval(1, 8), 'compatible', 'a'],
    ['static outside the interval', 9, interval(1, 8), 'contradiction', undefined],
    ['static below an unbounded interval', 1, interval(2, Infinity), 'contradiction', undefined],
    ['equal intervals', interval(1, 8), interval(1, 8), 'equal', undefined],
    ['nested intervals: the narrower is more precise', interval(2, 4), interval(1, 8), 'compatible', 'a'],
    ['overlapping intervals: neither is more precise', interval(1, 4), interval(3, 8), 'compatible', undefined],
    ['disjoint intervals', interval(1, 2), interval(3, 8), 'contradiction', undefined],
    ['symbol against static (first binding)', N, 2, 'compatible', 'b'],
    ['symbol against unknown: the symbol is more precise', null, N, 'compatible', 'b'],
    ['same symbol on both sides', N, N, 'equal', undefined],
    ['symbols renamed consistently', N, M, 'equal', undefined],
  ])('%s', (_title, a, b, status, more) => {
    const v = compareDim(a, b, new SymbolBindings(), 'main/x[0]');
    expect(v.status).toBe(status);
    expect(v.moreSpecific).toBe(more);
  });
});

describe('symbols are bound once across the whole model', () => {
  it('a symbol bound to 2 and then to 2 again is consistent', () => {
    const s = new SymbolBindings();
    expect(compareDim(N, 2, s, 'main/x[0]').status).toBe('compatible');
    expect(compareDim(N, 2, s, 'main/y[0]').status).toBe('compatible');
  });

  it('a symbol bound to 2 at one tensor and 3 at another is a contradiction naming both places', () => {
    const s = new SymbolBindings();
    compareDim(N, 2, s, 'main/x[0]');
    const v = compareDim(N, 3, s, 'main/y[0]');
    expect(v.status).toBe('contradiction');
    expect(v.details.join()).toContain("symbol 'N' of A");
    expect(v.details.join()).toContain('main/x[0]');
    expect(v.details.join()).toContain('main/y[0]');
  });

  it('B\'s symbol bound to A\'s static sizes the same way', () => {
    const s = new SymbolBindings();
    compareDim(4, M, s, 'main/x[1]');
    expect(compareDim(5, M, s, 'main/y[1]').status).toBe('contradiction');
  });

  it('a static size must fit every interval its symbol met', () => {
    const s = new SymbolBindings();
    expect(compareDim(N, interval(1, 4), s, 'main/x[0]').status).toBe('compatible');
    expect(compareDim(N, 6, s, 'main/y[0]').status).toBe('contradiction');
  });

  it('bindings flow through symbol pairs: N~M, N=2, M=3 contradicts', () => {
    const s = new SymbolBindings();
    expect(compareDim(N, M, s, 'main/x[0]').status).toBe('equal');
    expect(compareDim(N, 2, s, 'main/y[0]').status).toBe('compatible');
    expect(compareDim(3, M, s, 'main/z[0]').status).toBe('contradiction');
  });

  it('one symbol of A met by two symbols of B: A relates more dims, compatible and A more precise', () => {
    const s = new SymbolBindings();
    compareDim(N, M, s, 'main/x[0]');
    const v = compareDim(N, sym('K'), s, 'main/y[0]');
    expect(v.status).toBe('compatible');
    expect(v.moreSpecific).toBe('a');
  });
});

describe('shapes', () => {
  const s = () => new SymbolBindings();
  it.each<[string, Shape, Shape, string, 'a' | 'b' | undefined]>([
    ['equal', [2, 3], [2, 3], 'equal', undefined],
    ['scalar vs scalar', [], [], 'equal', undefined],
    ['rank mismatch', [2, 3], [2, 3, 1], 'contradiction', undefined],
    ['scalar vs rank 1', [], [1], 'contradiction', undefined],
    ['unknown rank vs known', null, [2, 3], 'compatible', 'b'],
    ['both unknown rank', null, null, 'equal', undefined],
    ['one dim differs', [2, 3], [2, 4], 'contradiction', undefined],
    ['A more precise in every differing dim', [2, 3], [null, interval(1, 4)], 'compatible', 'a'],
    ['each side more precise somewhere', [2, null], [null, 3], 'compatible', undefined],
  ])('%s', (_t, a, b, status, more) => {
    const v = compareShape(a, b, s(), 'main/x');
    expect(v.status).toBe(status);
    expect(v.moreSpecific).toBe(more);
  });

  it('names the dim that contradicts', () => {
    expect(compareShape([2, 3], [2, 4], s(), 'main/x').details).toEqual(['dim 1: 3 vs 4']);
  });
});

describe('value types', () => {
  const s = () => new SymbolBindings();
  const f32 = (shape: Shape) => tensorType('f32', shape);
  it.each<[string, ValueType | null, ValueType | null, string, 'a' | 'b' | undefined]>([
    ['same element type and shape', f32([2]), f32([2]), 'equal', undefined],
    ['element types differ (f32 vs i64)', f32([2]), tensorType('i64', [2]), 'contradiction', undefined],
    ['element types differ (f16 vs f32)', tensorType('f16', [2]), f32([2]), 'contradiction', undefined],
    ['dynamic element type is compatible', tensorType('dynamic', [2]), f32([2]), 'compatible', 'b'],
    ['no type inferred on one side', f32([2]), null, 'compatible', 'a'],
    ['unknown on one side', { kind: 'unknown' }, f32([2]), 'compatible', 'b'],
    ['tensor vs sequence', f32([2]), { kind: 'sequence', elem: f32([2]) }, 'contradiction', undefined],
    ['sequences of different element types', { kind: 'sequence', elem: f32([2]) }, { kind: 'sequence', elem: tensorType('i32', [2]) }, 'contradiction', undefined],
    ['sequences of equal tensors', { kind: 'sequence', elem: f32([2]) }, { kind: 'sequence', elem: f32([2]) }, 'equal', undefined],
  ])('%s', (_t, a, b, status, more) => {
    const v = compareType(a, b, s(), 'main/x');
    expect(v.status).toBe(status);
    expect(v.moreSpecific).toBe(more);
  });

  it('reports element type and shape problems together', () => {
    const v = compareType(f32([2, 3]), tensorType('i64', [2, 4]), s(), 'main/x');
    expect(v.details).toEqual(['element type f32 vs i64', 'dim 1: 3 vs 4']);
  });
});
