import { attrString } from '../../../graph/attr-read.js';
import { out, type InferFn, type Rule } from '../../rule.js';
import { dftDims } from '../signal.js';

/**
 * OpenVINO DFT-7 / IDFT-7 (complex [..., 2] in and out), RDFT-9 (real in, complex out: the last
 * axis keeps ⌊n/2⌋ + 1 values) and IRDFT-9 (complex in, real out: the last axis has 2·(n - 1)
 * values), each after its spec's shape inference: axes (input 1) and signal_size (input 2, -1 =
 * the input's size) as far as they are known; a negative axis counts from the last signal dim.
 */
const transform = (input: 'real' | 'complex', output: 'real' | 'complex', onesided: 'forward' | 'inverse' | null): InferFn => (c) => {
  const x = c.shape(0);
  if (x === null) return [out(c.elem(0), null)];
  const signal = input === 'complex' ? x.slice(0, -1) : [...x];
  const sizes = c.has(2) ? c.ints(2) : null;
  const dims = c.has(2) && sizes === null ? signal.map(() => null) : dftDims(signal, c.ints(1), sizes, onesided);
  if (dims === null) { c.error('axes out of range of the signal dims'); return [out(c.elem(0), null)]; }
  return [out(c.elem(0), output === 'complex' ? [...dims, 2] : dims)];
};

/**
 * OpenVINO STFT-15(signal [B, L] or [L], window, frame_size, frame_step): [B, frames, bins, 2]
 * (transpose_frames: [B, bins, frames, 2]; no B for a 1-D signal), frames =
 * ⌊(L - frame_size) / frame_step⌋ + 1, bins = frame_size / 2 + 1.
 */
const stft: InferFn = (c) => {
  const x = c.shape(0);
  const size = c.ints(2)?.[0] ?? null;
  const step = c.ints(3)?.[0] ?? null;
  const length = x?.[x.length - 1];
  const frames = typeof length === 'number' && size !== null && step !== null && step > 0 ? Math.floor((length - size) / step) + 1 : null;
  const bins = size === null ? null : Math.floor(size / 2) + 1;
  const transpose = (attrString(c.node, 'transpose_frames') ?? 'false').trim().toLowerCase() === 'true';
  const body = transpose ? [bins, frames, 2] : [frames, bins, 2];
  if (x === null) return [out(c.elem(0), null)];
  return [out(c.elem(0), x.length === 1 ? body : [x[0]!, ...body])];
};

/**
 * OpenVINO ISTFT-16(data [B, bins, frames, 2] or [bins, frames, 2], window, frame_size, frame_step
 * [, signal_length]): [B, L] (or [L]), L = signal_length when given, else
 * (frames − 1)·frame_step + frame_size, less frame_size if center.
 */
const istft: InferFn = (c) => {
  const x = c.shape(0);
  const size = c.ints(2)?.[0] ?? null;
  const step = c.ints(3)?.[0] ?? null;
  const given = c.numInputs > 4 ? c.ints(4)?.[0] ?? null : null;
  const frames = x?.[x.length - 2];
  const center = (attrString(c.node, 'center') ?? 'false').trim().toLowerCase() === 'true';
  const full = typeof frames === 'number' && size !== null && step !== null ? (frames - 1) * step + size - (center ? size : 0) : null;
  const length = c.numInputs > 4 ? (given !== null && given > 0 ? given : given === null ? null : full) : full;
  if (x === null) return [out(c.elem(0), null)];
  return [out(c.elem(0), x.length === 3 ? [length] : [x[0]!, length])];
};

export const ovSignalRules: Rule[] = [
  { dialect: 'ov', op: 'ISTFT', since: 16, infer: istft },
  { dialect: 'ov', op: 'DFT', since: 7, infer: transform('complex', 'complex', null) },
  { dialect: 'ov', op: 'IDFT', since: 7, infer: transform('complex', 'complex', null) },
  { dialect: 'ov', op: 'RDFT', since: 9, infer: transform('real', 'complex', 'forward') },
  { dialect: 'ov', op: 'IRDFT', since: 9, infer: transform('complex', 'real', 'inverse') },
  { dialect: 'ov', op: 'STFT', since: 15, infer: stft },
];
