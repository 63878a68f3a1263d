import { out, type InferFn, type OutputInfo, type Rule } from '../../rule.js';

/**
 * ai.onnx.preview.training (onnx/defs/training/defs.cc). The optimizers take [R, T, then `groups`
 * runs of n tensors each] and return the updated runs that carry state, each tensor with its
 * input's type and shape, exactly as onnx's inference functions propagate them:
 * - Adagrad: [R, T, X…, G…, H…] → [X_new…, H_new…] (runs 0 and 2).
 * - Momentum: [R, T, X…, G…, V…] → [X_new…, V_new…] (runs 0 and 2).
 * - Adam: [R, T, X…, G…, V…, H…] → [X_new…, V_new…, H_new…] (runs 0, 2 and 3).
 * Gradient: inputs are the values of `xs` then `zs`; output i is dY/d(xs[i]), so it has the type
 * and shape of input i (onnx has no inference function for it; this is the definition).
 */
const optimizer = (groups: number, kept: readonly number[]): InferFn => (c) => {
  const rest = c.numInputs - 2;
  if (rest < 0 || rest % groups !== 0) {
    c.error(`${c.numInputs - 2} tensors after R and T are not ${groups} runs of equal length`);
    return [];
  }
  const n = rest / groups;
  const outs: OutputInfo[] = [];
  for (const run of kept) for (let i = 0; i < n; i++) outs.push({ type: c.type(2 + run * n + i) });
  return outs;
};

const gradient: InferFn = (c) => c.node.outputs.map((_, i) => (i < c.numInputs ? out(c.elem(i), c.shape(i)) : null));

const TRAINING = 'ai.onnx.preview.training';
export const onnxTrainingRules: Rule[] = [
  { dialect: 'onnx', domain: TRAINING, op: 'Adagrad', since: 1, infer: optimizer(3, [0, 2]) },
  { dialect: 'onnx', domain: TRAINING, op: 'Momentum', since: 1, infer: optimizer(3, [0, 2]) },
  { dialect: 'onnx', domain: TRAINING, op: 'Adam', since: 1, infer: optimizer(4, [0, 2, 3]) },
  { dialect: 'onnx', domain: TRAINING, op: 'Gradient', since: 1, infer: gradient },
];
