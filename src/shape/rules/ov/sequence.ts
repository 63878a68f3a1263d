import { attrInt } from '../../../graph/attr-read.js';
import type { Dim } from '../../../graph/shape.js';
import { mergeDim } from '../../dim.js';
import { out, type InferFn, type Rule } from '../../rule.js';
import { strAttr } from '../common.js';

/**
 * OpenVINO RNN sequences (LSTMSequence-5, GRUSequence-5, RNNSequence-5): X [batch, seq, input],
 * H0 [batch, dirs, hidden] → Y [batch, dirs, seq, hidden], Ho (and LSTM's Co) [batch, dirs, hidden].
 */
const sequence: InferFn = (c) => {
  const x = c.shape(0);
  const h0 = c.shape(1);
  const hiddenAttr = attrInt(c.node, 'hidden_size');
  const dirs = strAttr(c, 'direction', 'forward').toLowerCase() === 'bidirectional' ? 2 : 1;
  const pick = (a: Dim, b: Dim): Dim => mergeDim(a, b) ?? a;
  const batch = pick(x?.[0] ?? null, h0?.[0] ?? null);
  const seq = x?.[1] ?? null;
  const hidden = pick(hiddenAttr === undefined ? null : Number(hiddenAttr), h0?.[2] ?? null);
  const elem = c.elem(0);
  const state = out(elem, [batch, dirs, hidden]);
  return [out(elem, [batch, dirs, seq, hidden]), ...c.node.outputs.slice(1).map(() => state)];
};

export const ovSequenceRules: Rule[] = ['LSTMSequence', 'GRUSequence', 'RNNSequence'].map((op) => ({ dialect: 'ov' as const, op, since: 5, infer: sequence }));
