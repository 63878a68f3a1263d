import { attrFloat, attrInt } from '../src/graph/attr-read.js';
import type { Value } from '../src/graph/value.js';
import { decomposedOnly } from './generate.js';
import { i64Const, i64Scalar, normAxis } from './helpers.js';
import type { ConvertContext, OpMapping } from './spec.js';

/**
 * Normalizations IR writes as MVN-6 (mean/variance normalization over constant axes, epsilon inside
 * the square root, as ONNX) followed by the scale and bias:
 *   LayerNormalization    = MVN(X, axes [axis, rank)) · Scale + B
 *   InstanceNormalization = MVN(X, axes [2, rank)) · scale[C,1..] + B[C,1..]
 * ArgMax / ArgMin are TopK-11 with k = 1 (stable: the first of equal values, as ONNX) keeping the
 * indices output, squeezed when keepdims = 0.
 */
function mvn(c: ConvertContext, x: Value, from: number, rank: number, eps: number): Value {
  const axes = i64Const(c, Array.from({ length: rank - from }, (_, i) => BigInt(from + i)));
  return c.emit('MVN', [x, axes], { normalize_variance: 'true', eps: String(eps), eps_mode: 'inside_sqrt' }, 1, 'opset6')[0]!;
}

const mul = (c: ConvertContext, a: Value, b: Value): Value => c.emit('Multiply', [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
const add = (c: ConvertContext, a: Value, b: Value): Value => c.emit('Add', [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;

const argToIr = (mode: 'max' | 'min') => (c: ConvertContext): void => {
  if ((attrInt(c.node, 'select_last_index') ?? 0n) !== 0n) { c.unsupportedAttr('select_last_index', '1', 'IR TopK picks the first of equal values'); return; }
  const axis = attrInt(c.node, 'axis') ?? 0n;
  const keep = (attrInt(c.node, 'keepdims') ?? 1n) !== 0n;
  const [, idx] = c.emit('TopK', [c.input(0), i64Scalar(c, 1n)], { axis: String(axis), mode, sort: 'value', index_element_type: 'i64', stable: 'true' }, 2, 'opset11');
  c.output(0, keep ? idx! : c.emit('Squeeze', [idx, i64Const(c, [axis])], {}, 1, 'opset1')[0]!);
};

export const NORM: readonly OpMapping[] = [
  {
    onnx: { op: 'LayerNormalization', since: 17 },
    ir: { op: 'LayerNormalization', version: 'decomposed' },
    handles: { onnx: ['axis', 'epsilon', 'stash_type'] },
    note: 'IR: MVN-6 over [axis, rank) · Scale + B; the Mean / InvStdDev outputs have no counterpart',
    toIr: (c) => {
      const r = c.rank(0);
      if (r === null) { c.error('LayerNormalization needs the rank of X to be known (MVN axes are constant)'); return; }
      const axis = normAxis(attrInt(c.node, 'axis') ?? -1n, r);
      let y = mul(c, mvn(c, c.input(0)!, axis, r, attrFloat(c.node, 'epsilon') ?? 1e-5), c.input(1)!);
      if (c.numInputs > 2 && c.input(2)) y = add(c, y, c.input(2)!);
      c.output(0, y);
      for (let i = 1; i < c.node.outputs.length; i++) c.unused(i);
    },
    toOnnx: decomposedOnly,
  },
  {
    onnx: { op: 'InstanceNormalization', since: 6 },
    ir: { op: 'InstanceNormalization', version: 'decomposed' },
    handles: { onnx: ['epsilon'] },
    note: 'IR: MVN-6 over the spatial axes, then per-channel scale and bias',
    toIr: (c) => {
      const r = c.rank(0);
      if (r === null || r < 3) { c.error('InstanceNormalization needs X of known rank 3 or more'); return; }
      const perChannel = (v: Value): Value => c.emit('Unsqueeze', [v, i64Const(c, Array.from({ length: r - 2 }, (_, i) => BigInt(i + 1)))], {}, 1, 'opset1')[0]!;
      const y = mul(c, mvn(c, c.input(0)!, 2, r, attrFloat(c.node, 'epsilon') ?? 1e-5), perChannel(c.input(1)!));
      c.output(0, add(c, y, perChannel(c.input(2)!)));
    },
    toOnnx: decomposedOnly,
  },
  {
    onnx: { op: 'ArgMax', since: 1 },
    ir: { op: 'ArgMax', version: 'decomposed' },
    handles: { onnx: ['axis', 'keepdims', 'select_last_index'] },
    note: 'IR: TopK-11 k=1 mode max, indices output',
    toIr: argToIr('max'),
    toOnnx: decomposedOnly,
  },
  {
    onnx: { op: 'ArgMin', since: 1 },
    ir: { op: 'ArgMin', version: 'decomposed' },
    handles: { onnx: ['axis', 'keepdims', 'select_last_index'] },
    note: 'IR: TopK-11 k=1 mode min, indices output',
    toIr: argToIr('min'),
    toOnnx: decomposedOnly,
  },
];
