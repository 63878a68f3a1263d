import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import type { OpMapping } from '../spec.js';

/**
 * ONNX ConcatFromSequence(S; axis, new_axis = 0) over a sequence resolved at conversion time:
 * IR Concat of its tensors along `axis` ([-r, r-1]); with new_axis = 1 each tensor is first
 * Unsqueezed at `axis` ([-r-1, r]), so the tensors are stacked. IR Concat and Unsqueeze count a
 * negative axis from the back exactly as ONNX does (of the output rank), so `axis` is kept as
 * written. One tensor is itself (Unsqueezed with new_axis); an empty sequence has nothing to
 * concatenate (onnxruntime fails on it too). A sequence a Loop appended to in every iteration is
 * the Loop's concatenated output (mappings/controlflow/loop-append.ts).
 */
export const CONCAT_FROM_SEQUENCE: readonly OpMapping[] = [
  {
    onnx: { op: 'ConcatFromSequence', since: 11 }, ir: null, decomposes: ['Concat', 'Unsqueeze'], sequences: true,
    handles: { onnx: ['axis', 'new_axis'] },
    toIr: (c) => {
      const axis = c.attr.int('axis');
      const newAxis = c.attr.int('new_axis', 0n);
      if (axis === undefined) { c.error("attribute 'axis' is required"); return; }
      if (newAxis !== 0n && newAxis !== 1n) { c.unsupportedAttr('new_axis', String(newAxis), 'must be 0 or 1'); return; }
      const seq = c.sequence(0, 'stacked');
      if (!seq) return;
      // a Loop's appended tensors, already concatenated by the Loop as this node does (loop-append.ts)
      const stacked = seq.length === 1 ? seq[0]!.stacked : undefined;
      if (stacked && stacked.axis === axis && stacked.newAxis === (newAxis === 1n)) { c.output(0, seq[0]!.value); return; }
      if (stacked) { c.error(`the sequence a Loop appended to is concatenated with axis ${stacked.axis}, new_axis ${stacked.newAxis ? 1 : 0} by its other readers`); return; }
      if (!seq.length) { c.error('the sequence is empty: there is nothing to concatenate'); return; }
      const parts: Value[] = seq.map((e) => (newAxis === 1n ? c.emit('Unsqueeze', [e.value, i64Const(c, [axis])])[0]! : e.value));
      c.output(0, parts.length === 1 ? parts[0]! : c.emit('Concat', parts, { axis: String(axis) })[0]!);
    },
    note: 'resolved at conversion time: Concat of the tensors (Unsqueezed first with new_axis)',
  },
];
