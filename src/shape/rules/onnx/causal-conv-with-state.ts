import type { Dim, Shape } from '../../../graph/shape.js';
import { isStatic } from '../../../graph/shape.js';
import { mergeDim } from '../../dim.js';
import { out, type InferFn, type Rule } from '../../rule.js';
import { strAttr } from '../common.js';

const ACTIVATIONS = ['none', 'silu', 'swish'];

/**
 * ONNX CausalConvWithState-27 (onnx/defs/nn): input [B, C, L], weight [C, 1, k], bias [C],
 * past_state [B, C, k − 1]. output: input's shape; present_state: [B, C, k − 1] (the last k − 1
 * positions of past_state ++ input), both of input's element type.
 */
const causalConvWithState: InferFn = (c) => {
  const x = c.shape(0);
  const w = c.shape(1);
  const past = c.has(3) ? c.shape(3) : null;
  const at = (s: Shape, i: number): Dim => s?.[i] ?? null;
  const activation = strAttr(c, 'activation', 'none');
  if (!ACTIVATIONS.includes(activation)) c.error(`activation '${activation}' is none of ${ACTIVATIONS.join(', ')}`);
  for (const [i, name, rank] of [[0, 'input', 3], [1, 'weight', 3], [2, 'bias', 1], [3, 'past_state', 3]] as const) {
    const s = c.has(i) ? c.shape(i) : null;
    if (s && s.length !== rank) c.error(`${name} must be rank ${rank} (got rank ${s.length})`);
  }
  const k = at(w, 2);
  const fromWeight: Dim = isStatic(k) ? k - 1 : null;
  const stateLen = mergeDim(fromWeight, at(past, 2));
  if (stateLen === undefined) c.error(`past_state holds ${String(at(past, 2))} positions, the kernel of ${String(k)} needs ${String(fromWeight)}`);
  const batch = mergeDim(at(x, 0), at(past, 0)) ?? at(x, 0);
  const channels = mergeDim(at(x, 1), at(past, 1)) ?? at(x, 1);
  const elem = c.elem(0);
  return [
    out(elem, x && x.length === 3 ? [batch, channels, x[2]!] : x),
    out(elem, [batch, channels, stateLen ?? fromWeight]),
  ].slice(0, c.node.outputs.length);
};

export const onnxCausalConvWithStateRules: Rule[] = [
  { dialect: 'onnx', op: 'CausalConvWithState', since: 27, infer: causalConvWithState },
];
