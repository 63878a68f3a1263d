import { interval, isInterval, isStatic, type Dim, type Shape } from '../graph/shape.js';

/**
 * The shape syntax of Parameter `<data shape>` (and shape-valued attributes): `1,3,?,2..8`, `-1`
 * or `?` for a dynamic dim, `a..b`, `..b`, `a..` intervals, `...` for a dynamic rank, '' for a
 * scalar. Brackets around the list are tolerated. Returns undefined when it does not parse.
 */
export function parseShapeText(text: string): Shape | undefined {
  let s = text.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1).trim();
  if (s === '') return [];
  if (s === '...') return null;
  const dims: Dim[] = [];
  for (const part of s.split(',')) {
    const d = parseDimText(part.trim());
    if (d === undefined) return undefined;
    dims.push(d);
  }
  return dims;
}

const INT = /^\d+$/;

/** One dim of that syntax; undefined when it does not parse, or names a number past 2^53 (not exact as a dim). */
export function parseDimText(p: string): Dim | undefined {
  if (p === '?' || p === '-1') return null;
  if (INT.test(p)) return exact(Number(p));
  const m = /^(\d*)\.\.(\d*)$/.exec(p);
  if (!m) return undefined;
  const min = m[1] === '' ? 0 : exact(Number(m[1]));
  const max = m[2] === '' ? Infinity : exact(Number(m[2]));
  if (min === undefined || max === undefined || min > max) return undefined;
  return interval(min, max);
}

const exact = (n: number): number | undefined => (Number.isSafeInteger(n) ? n : undefined);

/** Whether a shape text names a dim past 2^53 (which parseShapeText refuses): for the message. */
export function hasHugeDim(text: string): boolean {
  return (text.match(/\d+/g) ?? []).some((d) => !Number.isSafeInteger(Number(d)));
}

/** One dim as OpenVINO prints it: `3`, `?`, `2..8`, `..8`, `2..`; symbols print as `?`. */
export function formatDimText(d: Dim): string {
  if (isStatic(d)) return String(d);
  if (isInterval(d)) {
    if (d.min > 0) return `${d.min}..${d.max === Infinity ? '' : d.max}`;
    if (d.max !== Infinity) return `..${d.max}`;
  }
  return '?';
}

/** Parameter shape as the serializer writes it: `1,?,2..8`, `...`, '' for a scalar. */
export function formatShapeText(s: Shape): string {
  return s === null ? '...' : s.map(formatDimText).join(',');
}

/** Const shape: static, joined with ", ". */
export function formatStaticShapeText(dims: readonly number[]): string {
  return dims.join(', ');
}
