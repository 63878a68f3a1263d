import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { dimOf, irOnly, never, on, reduce, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * AdaptiveAvgPool-8 / AdaptiveMaxPool-8 (OpenVINO's PyTorch frontend), which ONNX lacks: output
 * bin o of a spatial axis of input length n and output length m covers [⌊o·n/m⌋, ⌈(o+1)·n/m⌉)
 * (the spec). A bin of several axes is the product of one interval per axis, so the pool is taken
 * one axis at a time: each bin a Slice reduced (ReduceMean / ReduceMax, dims kept), the bins
 * concatenated (a mean of equal-sized row means is the mean of the rectangle). `output_shape` must
 * be a constant (it fixes the number of bins); input lengths may be known only at run time.
 * AdaptiveMaxPool's indices output is not written (refused when something reads it).
 */
function bins(c: ConvertContext, x: Value, axis: number, m: number, op: 'ReduceMean' | 'ReduceMax'): Value {
  if (m === 1) return reduce(c, op, x, [BigInt(axis)], true);
  const t = c.typeOf(x);
  const known = t?.kind === 'tensor' ? t.shape?.[axis] : undefined;
  const n = typeof known === 'number' ? known : null;
  const nRun = n === null ? dimOf(c, x, BigInt(axis)) : null;
  /** ⌊(o·n + add) / m⌋ as a 1-D int64 operand. */
  const bound = (o: number, add: number): Value => {
    if (n !== null) return i64Const(c, [BigInt(Math.floor((o * n + add) / m))]);
    const v = on(c, 'Div', [on(c, 'Add', [on(c, 'Mul', [nRun!, i64Scalar(c, BigInt(o))]), i64Scalar(c, BigInt(add))]), i64Scalar(c, BigInt(m))]);
    return unsqueeze(c, v, [0n]);
  };
  const parts: Value[] = [];
  for (let o = 0; o < m; o++) {
    const part = on(c, 'Slice', [x, bound(o, 0), bound(o + 1, m - 1), i64Const(c, [BigInt(axis)])]);
    parts.push(reduce(c, op, part, [BigInt(axis)], true));
  }
  return on(c, 'Concat', parts, { axis: A.int(axis) });
}

function adaptiveToOnnx(c: ConvertContext, op: 'ReduceMean' | 'ReduceMax'): void {
  const sizes = c.constInts(1);
  if (sizes === null) { c.needsConstant(1, 'output_shape (it fixes the number of ONNX ops)'); return; }
  const r = c.rank(0);
  if (r === null) { c.error(`${c.node.op} needs the rank of data to be known`); return; }
  let y = c.input(0)!;
  sizes.forEach((m, k) => { y = bins(c, y, r - sizes.length + k, Number(m), op); });
  c.output(0, y);
  if (c.node.outputs.length > 1) c.unused(1);
}

export const ADAPTIVE_POOL: readonly OpMapping[] = [
  {
    onnx: { op: 'ReduceMean', since: 1 },
    ir: { op: 'AdaptiveAvgPool', version: 'opset8' },
    when: never,
    note: 'per spatial axis: ReduceMean of each bin\'s Slice, concatenated',
    toIr: irOnly,
    toOnnx: (c) => adaptiveToOnnx(c, 'ReduceMean'),
  },
  {
    onnx: { op: 'ReduceMax', since: 1 },
    ir: { op: 'AdaptiveMaxPool', version: 'opset8' },
    when: never,
    handles: { ir: ['index_element_type'] },
    note: 'per spatial axis: ReduceMax of each bin\'s Slice, concatenated; the indices output is not written',
    toIr: irOnly,
    toOnnx: (c) => adaptiveToOnnx(c, 'ReduceMax'),
  },
];
