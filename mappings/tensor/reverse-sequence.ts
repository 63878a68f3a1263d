import { A } from '../../src/graph/attr.js';
import { int, type OpMapping } from '../spec.js';

/**
 * ONNX ReverseSequence-10(input, sequence_lens; batch_axis = 1, time_axis = 0) ⇄ IR
 * ReverseSequence-1(data, seq_lengths; batch_axis = 0, seq_axis = 1): the same op, with the
 * other defaults and `time_axis` spelled `seq_axis`. ONNX lengths are int64; IR ones may be any
 * integer type (ovc writes i32), so IR → ONNX casts them. ONNX takes batch and time axes 0 and 1
 * only, IR any two axes (TensorFlow's frontend writes tf.reverse of an NHWC tensor as
 * batch_axis 0, seq_axis 3): IR → ONNX then moves the two axes to the front with a Transpose
 * (batch 0, time 1, the other axes in order), reverses there and moves them back.
 */
export const REVERSE_SEQUENCE: readonly OpMapping[] = [
  {
    onnx: { op: 'ReverseSequence', since: 10 },
    ir: { op: 'ReverseSequence', version: 'opset1' },
    attrs: [int('batch_axis').default(1n).irDefaultTo('0'), int('time_axis').as('seq_axis').default(0n).irDefaultTo('1')],
    toOnnx: (c) => {
      const attrs = c.attrs();
      const lens = c.elem(1) === 'i64' ? c.input(1) : c.emit('Cast', [c.input(1)], { to: A.int(7) })[0]!;
      const batch = c.attr.int('batch_axis', 0n);
      const seq = c.attr.int('seq_axis', 1n);
      if (batch === undefined || seq === undefined) return;
      const r = c.rank(0);
      const axis = (a: bigint): number | null => (r === null ? (a >= 0n ? Number(a) : null) : a < 0n ? Number(a) + r : Number(a));
      const [b, t] = [axis(batch), axis(seq)];
      if (b !== null && t !== null && b <= 1 && t <= 1) {
        c.output(0, c.emit('ReverseSequence', [c.input(0), lens], attrs)[0]!);
        return;
      }
      if (r === null || b === null || t === null) { c.error('ReverseSequence over axes other than 0 and 1 needs the rank of data to be known'); return; }
      const perm = [b, t, ...Array.from({ length: r }, (_, k) => k).filter((k) => k !== b && k !== t)];
      const back = perm.map((_, k) => perm.indexOf(k));
      const front = c.emit('Transpose', [c.input(0)], { perm: A.ints(perm.map(BigInt)) })[0]!;
      const rev = c.emit('ReverseSequence', [front, lens], { batch_axis: A.int(0n), time_axis: A.int(1n) })[0]!;
      c.output(0, c.emit('Transpose', [rev], { perm: A.ints(back.map(BigInt)) })[0]!);
    },
  },
];
