import { normAxis } from '../dim.js';
import type { InferFn, Rule } from '../rule.js';
import { intAttr } from './common.js';

/**
 * Softmax, LogSoftmax (and ONNX Hardmax) keep their input's type; their `axis` must name a dim
 * of the input, as each engine validates it when it reads the model:
 * - OpenVINO Softmax-1 (`r == 0 ? axis == 0 : axis < r`), Softmax-8 and LogSoftmax-5
 *   (`is_axis_valid`: −r ≤ axis < r) — a scalar counts as rank 1 there (axis 0 or −1 is accepted,
 *   measured on OpenVINO 2026.4); the default axis is 1;
 * - ONNX from opset 11 (onnx's SoftmaxFamily inference: "Input rank must be >= 1", "'axis' must be
 *   in [-r, r-1]"; onnxruntime loads nothing else). Before opset 11 onnx does not check, so
 *   neither does ovir. The default axis is 1 before opset 13, −1 from it.
 * Unknown rank: nothing to check.
 */

const ovSoftmax: InferFn = (c) => {
  const x = c.shape(0);
  const axis = intAttr(c, 'axis', 1);
  // a scalar as rank 1 (OpenVINO accepts axis 0 or -1 there)
  if (x !== null && normAxis(axis, Math.max(x.length, 1)) === undefined) c.error(axisMessage(axis, x.length, Math.max(x.length, 1)));
  return [{ type: c.type(0) }];
};

const onnxSoftmax: InferFn = (c) => {
  const x = c.shape(0);
  if (x !== null && c.version >= 11) {
    const axis = intAttr(c, 'axis', c.version >= 13 ? -1 : 1);
    if (x.length === 0) c.error('input rank must be ≥ 1');
    else if (normAxis(axis, x.length) === undefined) c.error(axisMessage(axis, x.length, x.length));
  }
  return [{ type: c.type(0) }];
};

function axisMessage(axis: number, rank: number, r: number): string {
  return `axis ${axis} is out of range for an input of rank ${rank} (must be in [${-r}, ${r - 1}])`;
}

export const softmaxRules: Rule[] = [
  { dialect: 'ov', op: 'Softmax', since: 1, infer: ovSoftmax },
  { dialect: 'ov', op: 'LogSoftmax', since: 5, infer: ovSoftmax },
  { dialect: 'onnx', op: 'Softmax', since: 1, infer: onnxSoftmax },
  { dialect: 'onnx', op: 'LogSoftmax', since: 1, infer: onnxSoftmax },
  { dialect: 'onnx', op: 'Hardmax', since: 1, infer: onnxSoftmax },
];
