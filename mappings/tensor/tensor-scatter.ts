import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar, normAxis } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ONNX TensorScatter-24 (a KV-cache write; OpenVINO has no op), as its pseudocode defines it: for
 * every prefix index (batch b first) and every position s < sequence_length of `update` along
 * `axis`, present[…, w[b] + s, …] = update[…, s, …], the position taken modulo max_sequence_length
 * in mode circular (w = write_indices, zeros when absent).
 * IR: ScatterElementsUpdate-12 along `axis` with indices of update's shape,
 *   Broadcast(Range(0, seq) shaped [1, …, seq, …, 1] + Reshape(w, [B, 1, …, 1]), ShapeOf(update))
 * (FloorMod by the cache's dim for circular).
 */
function tensorScatterToIr(c: ConvertContext): void {
  const r = c.rank(0);
  if (r === null) { c.error('TensorScatter needs the rank of past_cache'); return; }
  const axisAttr = c.attr.int('axis', -2n);
  const axis = normAxis(axisAttr, r);
  if (axis < 1 || axis >= r) { c.unsupportedAttr('axis', String(axisAttr), `axis must name a dim after the batch of a rank-${r} cache`); return; }
  const mode = c.attr.string('mode', 'linear');
  if (mode !== 'linear' && mode !== 'circular') { c.unsupportedAttr('mode', mode, 'supported: linear, circular'); return; }
  const bin = (op: string, a: Value, b: Value): Value => c.emit(op, [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const along = (v: Value): Value =>
    c.emit('Gather', [c.emit('ShapeOf', [v], { output_type: 'i64' }, 1, 'opset3')[0]!, i64Scalar(c, BigInt(axis)), i64Scalar(c, 0n)], { batch_dims: '0' }, 1, 'opset8')[0]!;
  const update = c.input(1)!;
  const seq = c.emit('Range', [i64Scalar(c, 0n), along(update), i64Scalar(c, 1n)], { output_type: 'i64' }, 1, 'opset4')[0]!;
  const ones = (at: number, v: bigint): bigint[] => Array.from({ length: r }, (_, i) => (i === at ? v : 1n));
  let idx = c.emit('Reshape', [seq, i64Const(c, ones(axis, -1n))], { special_zero: 'false' }, 1, 'opset1')[0]!;
  const w = c.numInputs > 2 ? c.input(2) : null;
  if (w) {
    const w64 = c.elem(2) === 'i64' ? w : c.emit('Convert', [w], { destination_type: 'i64' }, 1, 'opset1')[0]!;
    idx = bin('Add', idx, c.emit('Reshape', [w64, i64Const(c, ones(0, -1n))], { special_zero: 'false' }, 1, 'opset1')[0]!);
  }
  if (mode === 'circular') idx = bin('FloorMod', idx, along(c.input(0)!));
  const target = c.emit('ShapeOf', [update], { output_type: 'i64' }, 1, 'opset3')[0]!;
  idx = c.emit('Broadcast', [idx, target], { mode: 'numpy' }, 1, 'opset3')[0]!;
  c.output(0, c.emit('ScatterElementsUpdate', [c.input(0), idx, update, i64Scalar(c, BigInt(axis))],
    { reduction: 'none', use_init_val: 'true' }, 1, 'opset12')[0]!);
}

export const TENSOR_SCATTER: readonly OpMapping[] = [
  {
    onnx: { op: 'TensorScatter', since: 24 },
    ir: null,
    decomposes: ['Range', 'Reshape', 'Add', 'FloorMod', 'Broadcast', 'ScatterElementsUpdate'],
    handles: { onnx: ['axis', 'mode'] },
    note: 'IR: ScatterElementsUpdate-12 along axis at write_indices[b] + s (mod the cache length in mode circular)',
    toIr: tensorScatterToIr,
  },
];
