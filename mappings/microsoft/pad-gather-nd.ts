import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { OpMapping } from '../spec.js';
import { typedScalar } from '../typed-consts.js';

/**
 * com.microsoft Pad and GatherND, the contrib forms onnxruntime had before ONNX's own:
 *   Pad(data, pads, value?) with mode constant / reflect / edge: pads [2 · rank] or [1, 2 · rank]
 *     (begins, then ends), value a scalar or [1] (default 0) → IR Pad-12
 *   GatherND(data, indices) = ONNX GatherND with batch_dims 0 → IR GatherND-8
 */
const MS = 'com.microsoft';
const MODES: Record<string, string> = { constant: 'constant', reflect: 'reflect', edge: 'edge' };

export const MS_PAD_GATHER_ND: readonly OpMapping[] = [
  {
    onnx: { op: 'Pad', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Reshape', 'Split', 'Pad'],
    handles: { onnx: ['mode'] },
    note: 'IR: Pad-12, pads [2 · rank] or [1, 2 · rank] split in begins and ends',
    toIr: (c) => {
      const mode = c.attr.string('mode', 'constant');
      const irMode = MODES[mode];
      if (irMode === undefined) { c.unsupportedAttr('mode', mode, 'onnxruntime\'s contrib Pad takes constant, reflect or edge'); return; }
      const elem = c.elem(0);
      if (elem === null) { c.error('Pad needs the element type of data'); return; }
      const pr = c.rank(1);
      if (pr !== 1 && pr !== 2) { c.error(`pads must be [2 · rank] or [1, 2 · rank] (rank ${pr ?? 'unknown'})`); return; }
      const one = (op: string, ins: readonly (Value | null)[], attrs: Record<string, string>, version: string): Value => c.emit(op, ins, attrs, 1, version)[0]!;
      let pads = c.input(1)!;
      if (c.elem(1) !== 'i64') pads = one('Convert', [pads], { destination_type: 'i64' }, 'opset1');
      if (pr === 2) pads = one('Reshape', [pads, i64Const(c, [-1n])], { special_zero: 'false' }, 'opset1');
      const [begin, end] = c.emit('Split', [pads, i64Scalar(c, 0n)], { num_splits: '2' }, 2, 'opset1') as [Value, Value];
      const inputs: (Value | null)[] = [c.input(0), begin, end];
      if (irMode === 'constant') {
        const given = c.numInputs > 2 ? c.input(2) : null;
        if (given) inputs.push(c.rank(2) === 0 ? given : one('Reshape', [given, i64Const(c, [])], { special_zero: 'false' }, 'opset1'));
        else {
          const zero = typedScalar(elem, 0);
          if (!zero) { c.error(`Pad of ${elem}: no zero of that type is built`); return; }
          inputs.push(c.constant(zero));
        }
      }
      c.output(0, one('Pad', inputs, { pad_mode: irMode }, 'opset12'));
    },
  },
  {
    onnx: { op: 'GatherND', domain: MS, since: 1 },
    ir: null,
    decomposes: ['GatherND'],
    note: 'IR: GatherND-8, batch_dims 0',
    toIr: (c) => c.output(0, c.emit('GatherND', [c.input(0), c.input(1)], { batch_dims: '0' }, 1, 'opset8')[0]!),
  },
];
