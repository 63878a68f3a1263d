import { attrInt } from '../../../graph/attr-read.js';
import { fromOnnxDataType } from '../../../graph/element-type.js';
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

/**
 * ONNX STFT-17: [batch, frames, bins, 2] with frames = ⌊(length - frame_length) / frame_step⌋ + 1
 * and bins = frame_length / 2 + 1 (onesided, the default) or frame_length; frame_length is the
 * input when given, else the window's length.
 */
const stft: InferFn = (c) => {
  const x = c.shape(0);
  const step = scalarOf(c, 1);
  const fromWindow = c.has(2) ? c.shape(2)?.[0] ?? null : null;
  const len = c.has(3) ? scalarOf(c, 3) : typeof fromWindow === 'number' ? fromWindow : null;
  const onesided = (attrInt(c.node, 'onesided') ?? 1n) !== 0n;
  const length = x?.[1];
  const frames = typeof length === 'number' && step !== null && len !== null && step > 0 ? Math.floor((length - len) / step) + 1 : null;
  const bins = len === null ? null : onesided ? Math.floor(len / 2) + 1 : len;
  return [out(c.elem(0), [x?.[0] ?? null, frames, bins, 2])];
};

/**
 * ONNX MelWeightMatrix-17: [⌊dft_length / 2⌋ + 1, num_mel_bins] of output_datatype (default
 * float); a dim is unknown while its scalar input's data is.
 */
const melWeightMatrix: InferFn = (c) => {
  const code = Number(attrInt(c.node, 'output_datatype') ?? 1n);
  const elem = fromOnnxDataType(code)?.name;
  if (elem === undefined) c.error(`output_datatype ${code} is not an ONNX element type`);
  const bins = scalarOf(c, 0);
  const dft = scalarOf(c, 1);
  return [out(elem ?? 'dynamic', [dft === null ? null : Math.floor(dft / 2) + 1, bins])];
};

export const onnxSignalRules: Rule[] = [
  { dialect: 'onnx', op: 'MelWeightMatrix', since: 17, infer: melWeightMatrix },
  { dialect: 'onnx', op: 'DFT', since: 17, infer: dft },
  { dialect: 'onnx', op: 'STFT', since: 17, infer: stft },
];
