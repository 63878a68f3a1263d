import { interval, sym, type Dim, type Shape } from '../graph/shape.js';

/** `--input name[shape]`: a graph input and the shape to give it. */
export interface InputOverride {
  name: string;
  shape: Shape;
}

/**
 * Parses `name[d0,d1,…]`: a dim is a number, `?` or `-1` (unknown), `a..b` / `a..` / `..b` (an
 * interval), or a symbol (`N`, `batch`); `name[...]` is unknown rank and `name[]` a scalar.
 * Returns an error message for anything else.
 */
export function parseInputOverride(text: string): InputOverride | string {
  const m = /^(.+)\[(.*)\]$/s.exec(text.trim());
  if (!m || !m[1]) return `--input expects name[shape], e.g. x[1,3,224,224], got '${text}'`;
  const name = m[1];
  const body = m[2]!.trim();
  if (body === '...') return { name, shape: null };
  if (body === '') return { name, shape: [] };
  const dims: Dim[] = [];
  for (const raw of body.split(',')) {
    const d = raw.trim();
    if (/^\d+$/.test(d)) dims.push(Number(d));
    else if (d === '?' || d === '-1') dims.push(null);
    else if (/^\d*\.\.\d*$/.test(d)) {
      const [lo, hi] = d.split('..');
      const min = lo ? Number(lo) : 0;
      const max = hi ? Number(hi) : Infinity;
      if (min > max) return `--input ${text}: empty interval ${d}`;
      dims.push(interval(min, max));
    } else if (/^[A-Za-z_][\w.]*$/.test(d)) dims.push(sym(d));
    else return `--input ${text}: cannot read dim '${d}'`;
  }
  return { name, shape: dims };
}

/** Parses every override; the first error message, if any, instead. */
export function parseInputOverrides(texts: readonly string[]): Map<string, Shape> | string {
  const out = new Map<string, Shape>();
  for (const t of texts) {
    const r = parseInputOverride(t);
    if (typeof r === 'string') return r;
    out.set(r.name, r.shape);
  }
  return out;
}
