import { i64Scalar } from '../helpers.js';
import type { OpMapping } from '../spec.js';
import { position } from './position.js';

/**
 * The ONNX ops that read one tensor or the length of a sequence resolved at conversion time:
 *  - SequenceAt(S, position): S[position], position in [-n, n-1] (negative + n), a constant: the
 *    tensor itself (no IR node).
 *  - SequenceLength(S): n, an int64 scalar constant.
 */
export const SEQUENCE_READ: readonly OpMapping[] = [
  {
    onnx: { op: 'SequenceAt', since: 11 }, ir: null, decomposes: [], sequences: true,
    toIr: (c) => {
      const seq = c.sequence(0);
      if (!seq) return;
      const at = position(c, 1, seq.length, 'element');
      if (at === null) return;
      c.output(0, seq[at]!.value);
    },
    note: 'resolved at conversion time: the tensor at a constant position',
  },
  {
    onnx: { op: 'SequenceLength', since: 11 }, ir: null, decomposes: [], sequences: true,
    toIr: (c) => {
      const seq = c.sequence(0);
      if (seq) c.output(0, i64Scalar(c, BigInt(seq.length)));
    },
    note: 'resolved at conversion time: an int64 constant',
  },
];
