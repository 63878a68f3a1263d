import { isStatic, type Dim } from '../../graph/shape.js';

/**
 * The signal dims after a discrete Fourier transform (both dialects): each transformed axis takes
 * its signal size when one is given; a one-sided forward transform keeps ⌊n/2⌋ + 1 values of its
 * last axis, a one-sided inverse one gives 2·(n - 1) (or the signal size) there. `axes` null: which
 * dims change is not known.
 */
export function dftDims(signal: readonly Dim[], axes: readonly number[] | null, sizes: readonly number[] | null, onesided: 'forward' | 'inverse' | null): Dim[] | null {
  if (axes === null) return onesided === null && sizes === null ? [...signal] : signal.map(() => null);
  const dims = [...signal];
  const r = signal.length;
  const norm = axes.map((a) => (a < 0 ? a + r : a));
  if (norm.some((a) => a < 0 || a >= r)) return null;
  norm.forEach((a, i) => {
    const size = sizes?.[i];
    const n = size !== undefined && size !== -1 ? size : dims[a]!;
    const last = i === norm.length - 1;
    if (last && onesided === 'forward') dims[a] = isStatic(n) ? Math.floor(n / 2) + 1 : null;
    else if (last && onesided === 'inverse') dims[a] = size !== undefined && size !== -1 ? size : isStatic(n) ? 2 * (n - 1) : null;
    else dims[a] = n;
  });
  return dims;
}
