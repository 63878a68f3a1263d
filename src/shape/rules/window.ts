import { isStatic, type Dim } from '../../graph/shape.js';
import { dimRange } from '../dim.js';
import { interval } from '../../graph/shape.js';

/**
 * The sliding-window size formula shared by convolutions and pooling in both dialects:
 * effective kernel k' = (k - 1)·d + 1;
 * explicit pads: out = round((in + pb + pe - k') / s) + 1, round = floor (or ceil for ceil_mode);
 * SAME_UPPER / SAME_LOWER: out = ceil(in / s); VALID: out = ceil((in - k' + 1) / s).
 * An interval input gives an interval output (the formula is monotonic in `in`).
 */
export type PadMode = 'explicit' | 'same' | 'valid';

export interface Window {
  kernel: number;
  stride: number;
  dilation: number;
  padBegin: number;
  padEnd: number;
  mode: PadMode;
  ceil: boolean;
  /** ceil_mode drops a last window that would start in the end padding (ONNX pool, OpenVINO ceil_torch). */
  dropPaddedLast?: boolean;
}

function one(n: number, w: Window): number {
  const k = (w.kernel - 1) * w.dilation + 1;
  if (w.mode === 'same') return Math.ceil(n / w.stride);
  if (w.mode === 'valid') return Math.max(0, Math.ceil((n - k + 1) / w.stride));
  const span = n + w.padBegin + w.padEnd - k;
  let out = (w.ceil ? Math.ceil(span / w.stride) : Math.floor(span / w.stride)) + 1;
  if (w.ceil && w.dropPaddedLast && (out - 1) * w.stride >= n + w.padBegin) out--;
  return Math.max(0, out);
}

export function windowDim(d: Dim, w: Window): Dim {
  if (isStatic(d)) return one(d, w);
  if (d === null || !('min' in d)) return null;
  const [lo, hi] = dimRange(d);
  return interval(one(lo, w), hi === Infinity ? Infinity : one(hi, w));
}
