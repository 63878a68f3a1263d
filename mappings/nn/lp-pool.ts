import { scalarLike } from '../generator/constant-of-shape.js';
import { spatialToIr } from './conv.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ONNX LpPool (OpenVINO has no Lp pooling op): the p-th root of each window's sum of |x|^p.
 * A window sum is an average pool that counts the zero padding (AvgPool exclude-pad=false) times
 * the kernel size, so the IR is
 *   Power(Multiply(AvgPool(Power(Abs(x), p)), prod(kernel)), 1/p)
 * with AvgPool-16 where the windows are dilated (LpPool-18's dilations), AvgPool-1 otherwise.
 * ceil_mode=1 is refused: a last window that runs past the padded input is summed over fewer
 * values, which the average-times-size form does not know.
 */
function lpPoolToIr(c: ConvertContext): void {
  const kernel = c.attr.ints('kernel_shape');
  if (!kernel?.length) { c.error('kernel_shape is required'); return; }
  const p = c.attr.int('p', 2n);
  if (p < 1n) { c.unsupportedAttr('p', String(p), 'the norm needs p ≥ 1'); return; }
  const ceil = c.attr.int('ceil_mode', 0n);
  if (ceil !== 0n) { c.unsupportedAttr('ceil_mode', String(ceil), 'a last window past the padded input sums fewer values; only floor rounding is exact'); return; }
  const attrs = spatialToIr(c, kernel.length, true);
  if (!attrs) return;
  const dilated = attrs['dilations']!.split(',').some((d) => d !== '1');
  if (!dilated) delete attrs['dilations'];
  attrs['kernel'] = kernel.join(',');
  attrs['rounding_type'] = 'floor';
  attrs['exclude-pad'] = 'false';
  const size = kernel.reduce((a, k) => a * Number(k), 1);
  const pk = scalarLike(c, 0, Number(p), 'LpPool p');
  const n = scalarLike(c, 0, size, 'LpPool kernel size');
  const root = scalarLike(c, 0, 1 / Number(p), 'LpPool 1/p');
  if (!pk || !n || !root) return;
  const bin = (op: string, a: typeof pk, b: typeof pk) => c.emit(op, [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  let y = c.emit('Abs', [c.input(0)], {}, 1, 'opset1')[0]!;
  if (p !== 1n) y = bin('Power', y, pk);
  y = c.emit('AvgPool', [y], attrs, 1, dilated ? 'opset16' : 'opset1')[0]!;
  y = bin('Multiply', y, n);
  if (p !== 1n) y = bin('Power', y, root);
  c.output(0, y);
}

export const LP_POOL: readonly OpMapping[] = [
  {
    // LpPool-1's p is a float; from opset 2 an int.
    onnx: { op: 'LpPool', since: 2 },
    ir: null,
    decomposes: ['Abs', 'Power', 'AvgPool', 'Multiply'],
    handles: { onnx: ['kernel_shape', 'p', 'strides', 'pads', 'auto_pad', 'dilations', 'ceil_mode'] },
    note: 'IR: (AvgPool(|x|^p, pads counted) · prod(kernel))^(1/p)',
    toIr: lpPoolToIr,
  },
];
