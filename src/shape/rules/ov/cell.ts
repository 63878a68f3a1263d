import { attrBool } from '../../../graph/attr-read.js';
import type { ElementTypeName } from '../../../graph/element-type.js';
import { isStatic, type Dim } from '../../../graph/shape.js';
import { mergeDim } from '../../dim.js';
import { out, type InferFn, type Rule } from '../../rule.js';
import { mergeElem } from './elementwise.js';

/**
 * OpenVINO recurrent cells (rnn::cell_base_shape_infer): LSTMCell-1/4 (X, H, C, W, R, B[, P]),
 * GRUCell-3 and RNNCell-0 (X, H, W, R, B). Every output (Ho, and LSTM's Co) is
 * [batch, hidden] where
 *  - batch merges X[0] with each state's [0];
 *  - hidden merges H[1] with C[1] and R[1] (the hidden_size attribute is not used: OpenVINO keeps
 *    it out for backward compatibility); when that leaves it unknown, W[0] / gates and
 *    R[0] / gates decide it;
 *  - W[0] and R[0] must be compatible with gates · hidden, B[0] with gates · hidden (GRUCell with
 *    linear_before_reset: (gates + 1) · hidden), LSTMCell-1's P[0] with 3 · hidden;
 *  - X, states, W, R, B are rank 2, 2…, 2, 2, 1, and all of one element type.
 */
const cell = (gates: number, states: number): InferFn => (c) => {
  const n = 4 + states;
  const expected = [...Array.from({ length: 1 + states }, () => 2), 2, 2, 1];
  for (let i = 0; i < n; i++) {
    const s = c.shape(i);
    if (c.has(i) && s !== null && s.length !== expected[i]) c.error(`input ${i} has rank ${s.length}, expected ${expected[i]}`);
  }
  const dim = (i: number, k: number): Dim => (c.has(i) && c.shape(i)?.length === expected[i] ? c.shape(i)![k]! : null);
  let batch: Dim = dim(0, 0);
  for (let i = 1; i <= states; i++) {
    const m = mergeDim(batch, dim(i, 0));
    if (m === undefined) c.error('Dimension `batch_size` is not matched between inputs');
    else batch = m;
  }
  let hidden: Dim = dim(1, 1);
  for (const [i, k] of [...Array.from({ length: states - 1 }, (_, j) => [2 + j, 1]), [2 + states, 1]] as [number, number][]) {
    const m = mergeDim(hidden, dim(i, k));
    if (m === undefined) c.error('Dimension `hidden_size` is not matched between inputs');
    else hidden = m;
  }
  const lbr = c.node.op === 'GRUCell' && (attrBool(c.node, 'linear_before_reset') ?? false);
  const multipliers: [number, number, string][] = [[1 + states, gates, 'W'], [2 + states, gates, 'R'], [3 + states, lbr ? gates + 1 : gates, 'B']];
  if (c.node.op === 'LSTMCell' && c.numInputs > 6 && c.has(6)) multipliers.push([6, 3, 'P']);
  if (isStatic(hidden)) {
    for (const [i, m, name] of multipliers) {
      const d = dim(i, 0);
      if (mergeDim(d, hidden * m) === undefined) c.error(`first dimension of ${name} must be compatible with ${hidden * m}, got ${String(d)}`);
    }
  } else {
    for (const i of [1 + states, 2 + states]) {
      const d = dim(i, 0);
      if (!isStatic(d)) continue;
      const m = mergeDim(hidden, Math.floor(d / gates));
      if (m === undefined) c.error('Dimension `hidden_size` is not matched between inputs');
      else hidden = m;
    }
  }
  let elem: ElementTypeName = c.elem(0);
  for (let i = 1; i < c.numInputs; i++) if (c.has(i)) elem = mergeElem(c, elem, c.elem(i));
  return Array.from({ length: states }, () => out(elem, [batch, hidden]));
};

export const ovCellRules: Rule[] = [
  { dialect: 'ov', op: 'LSTMCell', since: 1, infer: cell(4, 2) },
  { dialect: 'ov', op: 'GRUCell', since: 3, infer: cell(3, 1) },
  { dialect: 'ov', op: 'RNNCell', since: 1, infer: cell(1, 1) },
];
