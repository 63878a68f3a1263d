import {
  dimToJson, isInterval, isStatic, isSymbol, type Dim, type Shape,
} from '../graph/shape.js';
import { describeType, type ValueType } from '../graph/types.js';
import type { Side, SymbolBindings } from './symbols.js';

/**
 * Comparing the type one form gives a tensor with the type the other form gives it.
 *
 * - equal: the same facts (symbols consistently renamed count as the same).
 * - compatible: no runtime tensor is ruled out by both; `moreSpecific` says which side knows more
 *   (a static dim against `?` or an interval holding it, a known rank against an unknown one…),
 *   absent when each side is more precise somewhere, or neither is.
 * - contradiction: no runtime tensor satisfies both (f32 vs i64, rank 2 vs 3, 2 vs 3, 5 outside
 *   1..4, a symbol bound to 3 here and 4 elsewhere).
 */
export type Status = 'equal' | 'compatible' | 'contradiction';

export interface Verdict {
  status: Status;
  moreSpecific?: Side;
  /** What differs, one clause per difference (`dim 1: 3 vs 4`). */
  details: string[];
}

/** Accumulates per-part verdicts into one. */
class VerdictBuilder {
  private contradiction = false;
  private compatible = false;
  private readonly sides = new Set<Side | 'none'>();
  readonly details: string[] = [];

  equal(): void { /* nothing to record */ }

  compat(side: Side | undefined, detail: string): void {
    this.compatible = true;
    this.sides.add(side ?? 'none');
    this.details.push(detail);
  }

  contra(detail: string): void {
    this.contradiction = true;
    this.details.push(detail);
  }

  merge(v: Verdict, prefix = ''): void {
    if (v.status === 'contradiction') this.contradiction = true;
    else if (v.status === 'compatible') { this.compatible = true; this.sides.add(v.moreSpecific ?? 'none'); }
    for (const d of v.details) this.details.push(prefix + d);
  }

  build(): Verdict {
    if (this.contradiction) return { status: 'contradiction', details: this.details };
    if (!this.compatible) return { status: 'equal', details: this.details };
    const only = this.sides.size === 1 ? [...this.sides][0] : undefined;
    return only === 'a' || only === 'b'
      ? { status: 'compatible', moreSpecific: only, details: this.details }
      : { status: 'compatible', details: this.details };
  }
}

const other = (s: Side): Side => (s === 'a' ? 'b' : 'a');
const show = (d: Dim): string => (d === null ? '?' : String(dimToJson(d)));

/**
 * One dim of A against the same dim of B. `at` names the place (`main/x[1]`) for symbol-binding
 * messages. Binds symbols in `symbols` as a side effect.
 */
export function compareDim(a: Dim, b: Dim, symbols: SymbolBindings, at: string): Verdict {
  const v = new VerdictBuilder();
  const label = `${show(a)} vs ${show(b)}`;
  if (a === null && b === null) v.equal();
  else if (a === null || b === null) {
    const known: Side = a === null ? 'b' : 'a';
    v.compat(known, `${label} (${known.toUpperCase()} is more precise)`);
  } else if (isSymbol(a) || isSymbol(b)) {
    compareWithSymbol(a, b, symbols, at, v, label);
  } else if (isStatic(a) && isStatic(b)) {
    if (a === b) v.equal(); else v.contra(label);
  } else if (isStatic(a) || isStatic(b)) {
    const [n, iv, side]: [number, Dim, Side] = isStatic(a) ? [a, b, 'a'] : [b as number, a, 'b'];
    const { min, max } = iv as { min: number; max: number };
    if (n >= min && n <= max) v.compat(side, `${label} (${side.toUpperCase()}'s size lies in the other's interval)`);
    else v.contra(`${label} (${n} lies outside ${show(iv)})`);
  } else if (isInterval(a) && isInterval(b)) {
    if (a.min === b.min && a.max === b.max) v.equal();
    else if (a.max < b.min || b.max < a.min) v.contra(`${label} (disjoint intervals)`);
    else if (a.min >= b.min && a.max <= b.max) v.compat('a', `${label} (A's interval is narrower)`);
    else if (b.min >= a.min && b.max <= a.max) v.compat('b', `${label} (B's interval is narrower)`);
    else v.compat(undefined, `${label} (overlapping intervals)`);
  }
  return v.build();
}

function compareWithSymbol(a: Dim, b: Dim, symbols: SymbolBindings, at: string, v: VerdictBuilder, label: string): void {
  if (isSymbol(a) && isSymbol(b)) {
    const r = symbols.unite(a.sym, b.sym);
    if (r.conflict) v.contra(`${label}: ${r.conflict}`);
    else if (r.bijective) v.equal();
    else {
      const merger = r.mergedBy;
      v.compat(merger, merger
        ? `${label} (${merger.toUpperCase()} uses one symbol where ${other(merger).toUpperCase()} has several: ${merger.toUpperCase()} is more precise)`
        : `${label} (symbols are paired inconsistently but no size is ruled out)`);
    }
    return;
  }
  const [s, d, side]: [{ sym: string }, Dim, Side] = isSymbol(a) ? [a, b, 'a'] : [b as { sym: string }, a, 'b'];
  if (isStatic(d)) {
    const conflict = symbols.constrain(side, s.sym, d, d, at);
    if (conflict) v.contra(`${label}: ${conflict}`);
    else v.compat(other(side), `${label} (${other(side).toUpperCase()} is more precise)`);
  } else if (isInterval(d)) {
    const conflict = symbols.constrain(side, s.sym, d.min, d.max, at);
    if (conflict) v.contra(`${label}: ${conflict}`);
    else v.compat(undefined, `${label} (symbol against an interval)`);
  }
}

/** Shapes: unknown rank is compatible with anything; ranks must agree; then dim by dim. */
export function compareShape(a: Shape, b: Shape, symbols: SymbolBindings, at: string): Verdict {
  const v = new VerdictBuilder();
  if (a === null && b === null) return v.build();
  if (a === null || b === null) {
    const known: Side = a === null ? 'b' : 'a';
    v.compat(known, `rank unknown in ${other(known).toUpperCase()} (${known.toUpperCase()} is more precise)`);
    return v.build();
  }
  if (a.length !== b.length) {
    v.contra(`rank ${a.length} vs ${b.length}`);
    return v.build();
  }
  a.forEach((da, i) => v.merge(compareDim(da, b[i]!, symbols, `${at}[${i}]`), `dim ${i}: `));
  return v.build();
}

/**
 * Whole value types. Element types must be the same (names are one table for both formats, so
 * "maps 1:1" is equality); `dynamic` (inference could not tell) is compatible with anything.
 * null / `unknown` (no type inferred) is compatible with anything, the other side more precise.
 * Sequences, optionals and maps (ONNX only) compare kind by kind. Iterative over nesting.
 */
export function compareType(a: ValueType | null, b: ValueType | null, symbols: SymbolBindings, at: string): Verdict {
  const v = new VerdictBuilder();
  const work: [ValueType | null, ValueType | null, string][] = [[a, b, '']];
  while (work.length) {
    const [x, y, prefix] = work.pop()!;
    const ux = x === null || x.kind === 'unknown';
    const uy = y === null || y.kind === 'unknown';
    if (ux && uy) continue;
    if (ux || uy) {
      const known: Side = ux ? 'b' : 'a';
      v.compat(known, `${prefix}no type inferred in ${other(known).toUpperCase()}`);
      continue;
    }
    if (x!.kind !== y!.kind) { v.contra(`${prefix}${describeType(x)} vs ${describeType(y)}`); continue; }
    if ((x!.kind === 'tensor' || x!.kind === 'sparse_tensor') && (y!.kind === 'tensor' || y!.kind === 'sparse_tensor')) {
      if (x!.elem !== y!.elem) {
        if (x!.elem === 'dynamic' || y!.elem === 'dynamic') {
          const known: Side = x!.elem === 'dynamic' ? 'b' : 'a';
          v.compat(known, `${prefix}element type ${x!.elem} vs ${y!.elem}`);
        } else v.contra(`${prefix}element type ${x!.elem} vs ${y!.elem}`);
      }
      v.merge(compareShape(x!.shape, y!.shape, symbols, at), prefix);
    } else if ((x!.kind === 'sequence' || x!.kind === 'optional') && x!.kind === y!.kind) {
      work.push([x!.elem, (y as typeof x).elem, `${prefix}${x!.kind} element: `]);
    } else if (x!.kind === 'map' && y!.kind === 'map') {
      if (x!.key !== y!.key) v.contra(`${prefix}map key ${x!.key} vs ${y!.key}`);
      work.push([x!.value, y!.value, `${prefix}map value: `]);
    }
  }
  return v.build();
}

/** `{dtype, shape}` as reported in entries. */
export function typeSummary(t: ValueType | null): { dtype: string; shape: (number | string | null)[] | null } {
  if (t === null || t.kind === 'unknown') return { dtype: '?', shape: null };
  if (t.kind === 'tensor' || t.kind === 'sparse_tensor') {
    return { dtype: t.kind === 'tensor' ? t.elem : `sparse(${t.elem})`, shape: t.shape === null ? null : t.shape.map(dimToJson) };
  }
  return { dtype: describeType(t), shape: null };
}
