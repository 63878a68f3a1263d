import { attrInt } from '../../../graph/attr-read.js';
import { out, type InferFn, type Rule } from '../../rule.js';
import { scalarOf } from '../shared.js';
import { dftDims } from '../signal.js';

/**
 * ONNX DFT (onnx/defs/math): the signal dims (all but the trailing real / complex dim) after the
 * transform along `axis` (17: attribute, default 1; 20: input 2, default -2, where -2 is the last
 * signal dim); the output is complex ([..., 2]) except a one-sided inverse, which is real ([..., 1]).
 */
const dft: InferFn = (c) => {
  const x = c.shape(0);
  if (x === null) return [out(c.elem(0), null)];
  const signal = x.slice(0, -1);
  let axis: number | null;
  if (c.version >= 20) axis = c.has(2) ? scalarOf(c, 2) : -2;
  else axis = Number(attrInt(c.node, 'axis') ?? 1n);
  // ONNX axes count the trailing dim: -2 is the last signal dim
  if (axis !== null && axis < 0) axis += 1;
  const inverse = (attrInt(c.node, 'inverse') ?? 0n) !== 0n;
  const onesided = (attrInt(c.node, 'onesided') ?? 0n) !== 0n;
  const len = c.has(1) ? scalarOf(c, 1) : undefined;
  if (len === null) {
    return [out(c.elem(0), [...signal.map((d, i) => (axis === null || i === (axis < 0 ? axis + signal.length : axis) ? null : d)), onesided && inverse ? 1 : 2])];
  }
  const dims = dftDims(signal, axis === null ? null : [axis], len === undefined ? null : [len], onesided ? (inverse ? 'inverse' : 'forward') : null);
  if (dims === null) { c.error(`axis ${axis} is not a signal dim of a rank-${x.length} input`); return [out(c.elem(0), null)]; }
  return [out(c.elem(0), [...dims, onesided && inverse ? 1 : 2])];
};

export const onnxSignalRules: Rule[] = [
  { dialect: 'onnx', op: 'DFT', since: 17, infer: dft },
];
