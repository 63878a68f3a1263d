import type { Value } from '../../src/graph/value.js';
import { scalarLike } from '../generator/constant-of-shape.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ONNX training losses, which IR has no op for, as IR subgraphs of their definition (as OpenVINO's
 * ONNX frontend writes them): with input x [N, C, d…] (log-probabilities), target t [N, d…] and an
 * optional class weight w [C],
 *   loss[n, d…] = −x[n, t[n, d…], d…] · w[t[n, d…]]   (0 where t = ignore_index)
 * reduced by `reduction`: none, sum, or mean = Σ loss / Σ applied weights.
 * SoftmaxCrossEntropyLoss is that of LogSoftmax(scores, axis 1), which is its second output.
 */
const numpy = { auto_broadcast: 'numpy' };

/** range(0, rank) of a value whose rank is `rank` (known), or computed from its shape. */
function everyAxis(c: ConvertContext, v: Value, rank: number | null): Value {
  if (rank !== null) return i64Const(c, Array.from({ length: rank }, (_, i) => BigInt(i)));
  const shape = c.emit('ShapeOf', [v], { output_type: 'i64' }, 1, 'opset3')[0]!;
  const r = c.emit('ShapeOf', [shape], { output_type: 'i64' }, 1, 'opset3')[0]!;
  const rs = c.emit('Squeeze', [r, i64Const(c, [0n])], {}, 1, 'opset1')[0]!;
  return c.emit('Range', [i64Scalar(c, 0n), rs, i64Scalar(c, 1n)], { output_type: 'i64' }, 1, 'opset4')[0]!;
}

/** The loss of log-probabilities `logp` (source input 0's type), target source input 1, weight source input 2. */
function nll(c: ConvertContext, logp: Value): Value | null {
  const reduction = c.attr.string('reduction') ?? 'mean';
  if (!['none', 'sum', 'mean'].includes(reduction)) { c.unsupportedAttr('reduction', reduction, 'none, sum or mean'); return null; }
  const ignore = c.attr.int('ignore_index');
  const target = c.input(1)!;
  const weight = c.numInputs > 2 ? c.input(2) : null;
  let index = target;
  let keep: Value | null = null; // 1 where the target counts, 0 where it is ignore_index (x's type)
  if (ignore !== undefined) {
    const ii = scalarLike(c, 1, Number(ignore), 'ignore_index');
    const zero = scalarLike(c, 1, 0, 'ignore_index');
    if (!ii || !zero) return null;
    const ignored = c.emit('Equal', [target, ii], numpy, 1, 'opset1')[0]!;
    index = c.emit('Select', [ignored, zero, target], numpy, 1, 'opset1')[0]!;
    const counts = c.emit('LogicalNot', [ignored], {}, 1, 'opset1')[0]!;
    keep = c.emit('Convert', [counts], { destination_type: c.elem(0) ?? 'f32' }, 1, 'opset1')[0]!;
  }
  const idx1 = c.emit('Unsqueeze', [index, i64Const(c, [1n])], {}, 1, 'opset1')[0]!;
  const picked = c.emit('GatherElements', [logp, idx1], { axis: '1' }, 1, 'opset6')[0]!;
  const value = c.emit('Squeeze', [picked, i64Const(c, [1n])], {}, 1, 'opset1')[0]!;
  let w: Value | null = weight ? c.emit('Gather', [weight, index, i64Scalar(c, 0n)], { batch_dims: '0' }, 1, 'opset8')[0]! : null;
  if (keep) w = w ? c.emit('Multiply', [w, keep], numpy, 1, 'opset1')[0]! : keep;
  const neg = c.emit('Negative', [value], {}, 1, 'opset1')[0]!;
  const loss = w ? c.emit('Multiply', [neg, w], numpy, 1, 'opset1')[0]! : neg;
  if (reduction === 'none') return loss;
  const t = c.type(1);
  const rank = t?.kind === 'tensor' && t.shape ? t.shape.length : null;
  const sum = c.emit('ReduceSum', [loss, everyAxis(c, loss, rank)], { keep_dims: 'false' }, 1, 'opset1')[0]!;
  if (reduction === 'sum') return sum;
  if (!w) return c.emit('ReduceMean', [loss, everyAxis(c, loss, rank)], { keep_dims: 'false' }, 1, 'opset1')[0]!;
  const total = c.emit('ReduceSum', [w, everyAxis(c, w, rank)], { keep_dims: 'false' }, 1, 'opset1')[0]!;
  return c.emit('Divide', [sum, total], { ...numpy, m_pythondiv: 'true' }, 1, 'opset1')[0]!;
}

export const LOSS: readonly OpMapping[] = [
  {
    onnx: { op: 'NegativeLogLikelihoodLoss', since: 12 },
    ir: null,
    decomposes: ['Equal', 'Select', 'LogicalNot', 'Convert', 'Unsqueeze', 'GatherElements', 'Squeeze', 'Gather', 'Multiply', 'Negative', 'ReduceSum', 'ReduceMean', 'Divide'],
    handles: { onnx: ['reduction', 'ignore_index'] },
    note: 'IR: GatherElements of the target class, weighted, negated, reduced',
    toIr: (c) => { const l = nll(c, c.input(0)!); if (l) c.output(0, l); },
  },
  {
    onnx: { op: 'SoftmaxCrossEntropyLoss', since: 12 },
    ir: null,
    decomposes: ['LogSoftmax', 'Equal', 'Select', 'LogicalNot', 'Convert', 'Unsqueeze', 'GatherElements', 'Squeeze', 'Gather', 'Multiply', 'Negative', 'ReduceSum', 'ReduceMean', 'Divide'],
    handles: { onnx: ['reduction', 'ignore_index'] },
    note: 'IR: the NegativeLogLikelihoodLoss subgraph of LogSoftmax(scores, axis 1)',
    toIr: (c) => {
      const logp = c.emit('LogSoftmax', [c.input(0)], { axis: '1' }, 1, 'opset5')[0]!;
      const l = nll(c, logp);
      if (!l) return;
      c.output(0, l);
      if (c.node.outputs.length > 1) c.output(1, logp);
    },
  },
];
