import { i64Const, i64Scalar, normAxis } from '../helpers.js';
import type { OpMapping } from '../spec.js';
import { typedScalar } from '../typed-consts.js';

/**
 * ONNX CenterCropPad → IR, as OpenVINO's frontend writes it. Along each of `axes` (default all)
 * the dim becomes shape[i]: a larger dim is cropped around its centre, a smaller one padded with
 * zeros around it (the odd element goes to the end in both cases):
 *   target  = ScatterElementsUpdate(ShapeOf(x), axes, shape)   (x's dims elsewhere)
 *   kept    = Minimum(ShapeOf(x), target)
 *   cropped = Slice(x, (dims - kept) / 2, that + kept)
 *   y       = Pad(cropped, (target - kept) / 2, the rest, 0)
 */
export const CENTER_CROP_PAD: readonly OpMapping[] = [
  {
    onnx: { op: 'CenterCropPad', since: 18 },
    ir: null,
    decomposes: ['ShapeOf', 'Convert', 'ScatterElementsUpdate', 'Minimum', 'Subtract', 'Divide', 'Add', 'Slice', 'Pad'],
    handles: { onnx: ['axes'] },
    note: 'IR: Slice around the centre where the dim shrinks, zero Pad around it where it grows',
    toIr: (c) => {
      const r = c.rank(0);
      const elem = c.elem(0);
      if (r === null || elem === null) { c.error('CenterCropPad needs the rank and element type of its input, which are not known'); return; }
      const given = c.attr.ints('axes');
      const axes = given ? given.map((a) => normAxis(a, r)) : Array.from({ length: r }, (_, i) => i);
      if (axes.some((a) => a < 0 || a >= r) || new Set(axes).size !== axes.length) { c.unsupportedAttr('axes', (given ?? []).join(','), `axes must be distinct and within rank ${r}`); return; }
      const zero = typedScalar(elem, 0);
      if (!zero) { c.error(`CenterCropPad of ${elem} values: no zero of that type is built`); return; }
      const bin = (op: string, a: ReturnType<typeof i64Scalar>, b: ReturnType<typeof i64Scalar>, extra: Record<string, string> = {}) =>
        c.emit(op, [a, b], { auto_broadcast: 'numpy', ...extra }, 1, 'opset1')[0]!;
      const x = c.input(0)!;
      const dims = c.emit('ShapeOf', [x], { output_type: 'i64' }, 1, 'opset3')[0]!;
      const shape = c.elem(1) === 'i64' ? c.input(1)! : c.emit('Convert', [c.input(1)], { destination_type: 'i64' }, 1, 'opset1')[0]!;
      const target = c.emit('ScatterElementsUpdate', [dims, i64Const(c, axes.map(BigInt)), shape, i64Scalar(c, 0n)], {}, 1, 'opset3')[0]!;
      const kept = bin('Minimum', dims, target);
      const two = i64Const(c, [2n]);
      const begin = bin('Divide', bin('Subtract', dims, kept), two, { m_pythondiv: 'true' });
      const end = bin('Add', begin, kept);
      const all = Array.from({ length: r }, (_, i) => BigInt(i));
      const cropped = c.emit('Slice', [x, begin, end, i64Const(c, all.map(() => 1n)), i64Const(c, all)], {}, 1, 'opset8')[0]!;
      const grow = bin('Subtract', target, kept);
      const padBegin = bin('Divide', grow, two, { m_pythondiv: 'true' });
      const padEnd = bin('Subtract', grow, padBegin);
      c.output(0, c.emit('Pad', [cropped, padBegin, padEnd, c.constant(zero)], { pad_mode: 'constant' }, 1, 'opset12')[0]!);
    },
  },
];
