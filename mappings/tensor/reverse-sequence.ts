import { A } from '../../src/graph/attr.js';
import { int, type OpMapping } from '../spec.js';

/**
 * ONNX ReverseSequence-10(input, sequence_lens; batch_axis = 1, time_axis = 0) ⇄ IR
 * ReverseSequence-1(data, seq_lengths; batch_axis = 0, seq_axis = 1): the same op, with the
 * other defaults and `time_axis` spelled `seq_axis`. ONNX lengths are int64; IR ones may be any
 * integer type (ovc writes i32), so IR → ONNX casts them.
 */
export const REVERSE_SEQUENCE: readonly OpMapping[] = [
  {
    onnx: { op: 'ReverseSequence', since: 10 },
    ir: { op: 'ReverseSequence', version: 'opset1' },
    attrs: [int('batch_axis').default(1n).irDefaultTo('0'), int('time_axis').as('seq_axis').default(0n).irDefaultTo('1')],
    toOnnx: (c) => {
      const attrs = c.attrs();
      const lens = c.elem(1) === 'i64' ? c.input(1) : c.emit('Cast', [c.input(1)], { to: A.int(7) })[0]!;
      c.output(0, c.emit('ReverseSequence', [c.input(0), lens], attrs)[0]!);
    },
  },
];
