/**
 * Shapes as both formats know them.
 *
 * A dim is a static size (number), a symbol (ONNX dim_param, or one made by inference), an interval
 * (OpenVINO `a..b`, `max` Infinity when unbounded), or null (unknown). A shape is a list of dims, or
 * null for unknown rank. The algebra on dims (merge, broadcast, intervals) lives in src/shape.
 */
export interface SymbolDim { readonly sym: string }
export interface IntervalDim { readonly min: number; readonly max: number }
export type Dim = number | SymbolDim | IntervalDim | null;
export type Shape = readonly Dim[] | null;

export const isStatic = (d: Dim): d is number => typeof d === 'number';
export const isSymbol = (d: Dim): d is SymbolDim => d !== null && typeof d === 'object' && 'sym' in d;
export const isInterval = (d: Dim): d is IntervalDim => d !== null && typeof d === 'object' && 'min' in d;

export const sym = (name: string): SymbolDim => ({ sym: name });
/** An interval; collapses to a static dim when min == max, and to unknown when it says nothing. */
export function interval(min: number, max: number): Dim {
  if (min === max) return min;
  if (min <= 0 && max === Infinity) return null;
  return { min, max };
}

export function isStaticShape(s: Shape): s is readonly number[] {
  return s !== null && s.every(isStatic);
}

/** Element count of a static shape (1 for a scalar). */
export function elementCount(dims: readonly number[]): number {
  let n = 1;
  for (const d of dims) n *= d;
  return n;
}

/**
 * The JSON form used by `ovir info`/`ovir shapes`: a number, a symbol string, an interval string
 * "a..b" ("a.." unbounded), or null.
 */
export function dimToJson(d: Dim): number | string | null {
  if (d === null || typeof d === 'number') return d;
  if (isSymbol(d)) return d.sym;
  return `${d.min}..${d.max === Infinity ? '' : d.max}`;
}

export function shapeToJson(s: Shape): (number | string | null)[] | null {
  return s === null ? null : s.map(dimToJson);
}

/** Human form: `[2,?,1..8,N]`, `[...]` for unknown rank. */
export function formatShape(s: Shape): string {
  if (s === null) return '[...]';
  return `[${s.map((d) => (d === null ? '?' : String(dimToJson(d)))).join(',')}]`;
}

export function dimsEqual(a: Dim, b: Dim): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a === 'number' || typeof b === 'number') return false;
  if (isSymbol(a) && isSymbol(b)) return a.sym === b.sym;
  if (isInterval(a) && isInterval(b)) return a.min === b.min && a.max === b.max;
  return false;
}

export function shapesEqual(a: Shape, b: Shape): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((d, i) => dimsEqual(d, b[i]!));
}
