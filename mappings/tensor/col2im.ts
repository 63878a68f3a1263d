import { A, type Attr } from '../../src/graph/attr.js';
import { i64Const } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * Col2Im-18 ⇄ Col2Im-15. ONNX inputs (input, image_shape, block_shape) are IR (data, output_size,
 * kernel_size); ONNX `pads` (all begins, then all ends) is IR pads_begin / pads_end. IR Col2Im
 * folds 2-D images only: an ONNX image_shape of another length (test_col2im_5d: 3 spatial dims) is
 * refused. IR also takes unbatched data [C·∏k, L], which ONNX lacks: written back as
 * Squeeze(Col2Im(Unsqueeze(data, 0)), 0).
 */
function col2imToIr(c: ConvertContext): void {
  const st = c.type(1);
  const n = st?.kind === 'tensor' && st.shape?.length === 1 ? st.shape[0] : null;
  if (n !== 2) {
    c.error(`image_shape of ${typeof n === 'number' ? `${n} spatial dims` : 'unknown length'}: OpenVINO Col2Im-15 folds 2-D images only (image_shape of length 2)`);
    return;
  }
  const strides = c.attr.ints('strides') ?? [1n, 1n];
  const dilations = c.attr.ints('dilations') ?? [1n, 1n];
  const pads = c.attr.ints('pads') ?? [0n, 0n, 0n, 0n];
  if (strides.length !== 2 || dilations.length !== 2 || pads.length !== 4) {
    c.error('strides/dilations/pads do not match 2 spatial dims');
    return;
  }
  c.output(0, c.emitOwn([c.input(0), c.input(1), c.input(2)], {
    strides: strides.join(','), dilations: dilations.join(','),
    pads_begin: pads.slice(0, 2).join(','), pads_end: pads.slice(2).join(','),
  })[0]!);
}

function col2imToOnnx(c: ConvertContext): void {
  const r = c.rank(0);
  if (r !== 3 && r !== 2) { c.error(`Col2Im data of rank ${r ?? 'unknown'}: ONNX Col2Im takes [N, C·∏kernel, L] data (IR also [C·∏kernel, L])`); return; }
  const strides = c.attr.ints('strides') ?? [1n, 1n];
  const dilations = c.attr.ints('dilations') ?? [1n, 1n];
  const pb = c.attr.ints('pads_begin') ?? [0n, 0n];
  const pe = c.attr.ints('pads_end') ?? [0n, 0n];
  const attrs: Record<string, Attr> = {};
  if (strides.some((v) => v !== 1n)) attrs['strides'] = A.ints(strides);
  if (dilations.some((v) => v !== 1n)) attrs['dilations'] = A.ints(dilations);
  if ([...pb, ...pe].some((v) => v !== 0n)) attrs['pads'] = A.ints([...pb, ...pe]);
  if (r === 3) { c.output(0, c.emitOwn([c.input(0), c.input(1), c.input(2)], attrs)[0]!); return; }
  const zero = i64Const(c, [0n]);
  const batched = c.emit('Unsqueeze', [c.input(0), zero])[0]!;
  c.output(0, c.emit('Squeeze', [c.emitOwn([batched, c.input(1), c.input(2)], attrs)[0]!, zero])[0]!);
}

export const COL2IM: readonly OpMapping[] = [
  {
    onnx: { op: 'Col2Im', since: 18 },
    ir: { op: 'Col2Im', version: 'opset15' },
    handles: { onnx: ['strides', 'dilations', 'pads'], ir: ['strides', 'dilations', 'pads_begin', 'pads_end'] },
    note: 'ONNX pads = IR pads_begin ++ pads_end; 2-D images only (IR)',
    toIr: col2imToIr,
    toOnnx: col2imToOnnx,
  },
];
