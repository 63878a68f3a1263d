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

export const ovSignalRules: Rule[] = [
  { dialect: 'ov', op: 'DFT', since: 7, infer: transform('complex', 'complex', null) },
  { dialect: 'ov', op: 'IDFT', since: 7, infer: transform('complex', 'complex', null) },
  { dialect: 'ov', op: 'RDFT', since: 9, infer: transform('real', 'complex', 'forward') },
  { dialect: 'ov', op: 'IRDFT', since: 9, infer: transform('complex', 'real', 'inverse') },
];
