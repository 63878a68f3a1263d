import type { Value } from '../../src/graph/value.js';
import { scalarLike } from '../generator/constant-of-shape.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * Global pools: a reduction over every spatial dim (2 … rank-1), dims kept. OpenVINO has no
 * global pool op; its ONNX frontend writes them as ReduceMean / ReduceMax / ReduceL1 / ReduceL2,
 * and so does ovir (those convert back one by one as ONNX Reduce*).
 *   GlobalAveragePool = ReduceMean, GlobalMaxPool = ReduceMax,
 *   GlobalLpPool(p)   = ReduceL1 (p=1), ReduceL2 (p=2), else (ReduceSum |x|^p)^(1/p).
 */

/** The spatial axes [2, rank) of input 0: constant when the rank is known, else computed. */
function spatialAxes(c: ConvertContext): Value | null {
  const r = c.rank(0);
  if (r !== null) {
    if (r < 3) { c.error(`${c.node.op} needs an input of rank 3 or more (N, C, spatial…), got rank ${r}`); return null; }
    return i64Const(c, Array.from({ length: r - 2 }, (_, i) => BigInt(i + 2)));
  }
  const shape = c.emit('ShapeOf', [c.input(0)], { output_type: 'i64' }, 1, 'opset3')[0]!;
  const rank = c.emit('ShapeOf', [shape], { output_type: 'i64' }, 1, 'opset3')[0]!;
  const stop = c.emit('Squeeze', [rank, i64Const(c, [0n])], {}, 1, 'opset1')[0]!;
  return c.emit('Range', [i64Scalar(c, 2n), stop, i64Scalar(c, 1n)], { output_type: 'i64' }, 1, 'opset4')[0]!;
}

const reduce = (c: ConvertContext, op: string, x: Value, axes: Value, version = 'opset1'): Value =>
  c.emit(op, [x, axes], { keep_dims: 'true' }, 1, version)[0]!;

const globalPool = (op: 'ReduceMean' | 'ReduceMax') => (c: ConvertContext): void => {
  const axes = spatialAxes(c);
  if (axes) c.output(0, reduce(c, op, c.input(0)!, axes));
};

function globalLpPool(c: ConvertContext): void {
  const p = c.attr.int('p') ?? 2n;
  const axes = spatialAxes(c);
  if (!axes) return;
  const x = c.input(0)!;
  if (p === 1n || p === 2n) { c.output(0, reduce(c, p === 1n ? 'ReduceL1' : 'ReduceL2', x, axes, 'opset4')); return; }
  if (p <= 0n) { c.unsupportedAttr('p', String(p), 'the norm order must be positive'); return; }
  const pv = scalarLike(c, 0, Number(p), 'GlobalLpPool p');
  const inv = scalarLike(c, 0, 1 / Number(p), 'GlobalLpPool 1/p');
  if (!pv || !inv) return;
  const abs = c.emit('Abs', [x], {}, 1, 'opset1')[0]!;
  const pow = c.emit('Power', [abs, pv], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  c.output(0, c.emit('Power', [reduce(c, 'ReduceSum', pow, axes), inv], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!);
}

export const POOL: readonly OpMapping[] = [
  {
    onnx: { op: 'GlobalAveragePool', since: 1 },
    ir: null,
    decomposes: ['ReduceMean'],
    note: 'IR: ReduceMean over the spatial axes, keep_dims',
    toIr: globalPool('ReduceMean'),
  },
  {
    onnx: { op: 'GlobalMaxPool', since: 1 },
    ir: null,
    decomposes: ['ReduceMax'],
    note: 'IR: ReduceMax over the spatial axes, keep_dims',
    toIr: globalPool('ReduceMax'),
  },
  {
    onnx: { op: 'GlobalLpPool', since: 2 },
    ir: null,
    decomposes: ['ReduceL1', 'ReduceL2'],
    handles: { onnx: ['p'] },
    note: 'IR: ReduceL1 / ReduceL2 over the spatial axes (p = 1, 2), else Power(ReduceSum(|x|^p), 1/p)',
    toIr: globalLpPool,
  },
];
