import { A, type Attr } from '../../src/graph/attr.js';
import { tensorFromInt64 } from '../../src/graph/tensor.js';
import { scalarLike } from '../generator/constant-of-shape.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { Value } from '../../src/graph/value.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * Col2Im-18 ⇄ Col2Im-15. ONNX inputs (input, image_shape, block_shape) are IR (data, output_size,
 * kernel_size); ONNX `pads` (all begins, then all ends) is IR pads_begin / pads_end. IR Col2Im
 * folds 2-D images only; another number of spatial dims (test_col2im_5d: 3) is written as
 * Col2Im's definition, a sum of every block element into its image position (`foldNd`, positions
 * computed here when image_shape and block_shape are constants, else by IR ops). IR also takes unbatched data
 * [C·∏k, L], which ONNX lacks: written back as Squeeze(Col2Im(Unsqueeze(data, 0)), 0).
 */
function col2imToIr(c: ConvertContext): void {
  const st = c.type(1);
  const n = st?.kind === 'tensor' && st.shape?.length === 1 ? st.shape[0] : null;
  if (typeof n !== 'number') { c.error('Col2Im needs the length of image_shape'); return; }
  const strides = c.attr.ints('strides') ?? new Array<bigint>(n).fill(1n);
  const dilations = c.attr.ints('dilations') ?? new Array<bigint>(n).fill(1n);
  const pads = c.attr.ints('pads') ?? new Array<bigint>(2 * n).fill(0n);
  if (strides.length !== n || dilations.length !== n || pads.length !== 2 * n) {
    c.error(`strides/dilations/pads do not match ${n} spatial dims`);
    return;
  }
  if (n !== 2) { foldNd(c, n, strides.map(Number), dilations.map(Number), pads.map(Number)); return; }
  c.output(0, c.emitOwn([c.input(0), c.input(1), c.input(2)], {
    strides: strides.join(','), dilations: dilations.join(','),
    pads_begin: pads.slice(0, 2).join(','), pads_end: pads.slice(2).join(','),
  })[0]!);
}

/**
 * Col2Im over n ≠ 2 spatial dims with constant image_shape I and block_shape K: block element
 * (c·∏K + k, l) is added at the padded image position p = b(l)·stride + k·dilation (k, b(l) the
 * multi-indices of k over K and of l over the block grid B, B = ⌊(I + pads − ((K − 1)·dilation + 1))
 * / stride⌋ + 1), then the pads are sliced off. IR: data reshaped to [N, C, ∏K·∏B] scattered with
 * ScatterElementsUpdate-12 (reduction sum) along axis 2 into zeros [N, C, ∏(I + pads)] at the
 * constant flat positions, Reshape to [N, C, I + pads], Slice-8 of the image.
 */
function foldNd(c: ConvertContext, n: number, strides: number[], dil: number[], pads: number[]): void {
  const image = c.constInts(1)?.map(Number);
  const block = c.constInts(2)?.map(Number);
  if (!image || !block || block.length !== n) { foldNdRunTime(c, n, strides, dil, pads); return; }
  const padded = image.map((d, i) => d + pads[i]! + pads[i + n]!);
  const blocks = padded.map((d, i) => Math.floor((d - ((block[i]! - 1) * dil[i]! + 1)) / strides[i]!) + 1);
  if (blocks.some((b) => b < 1)) { c.error(`Col2Im: block_shape ${block.join('x')} does not fit image_shape ${image.join('x')} with these pads/dilations`); return; }
  const prod = (v: number[]): number => v.reduce((a, b) => a * b, 1);
  const [K, L] = [prod(block), prod(blocks)];
  const unravel = (f: number, dims: number[]): number[] => { const out = new Array<number>(dims.length); for (let i = dims.length - 1; i >= 0; i--) { out[i] = f % dims[i]!; f = Math.floor(f / dims[i]!); } return out; };
  const flat: bigint[] = new Array<bigint>(K * L);
  for (let k = 0; k < K; k++) {
    const kk = unravel(k, block);
    for (let l = 0; l < L; l++) {
      const bb = unravel(l, blocks);
      let f = 0;
      for (let i = 0; i < n; i++) f = f * padded[i]! + bb[i]! * strides[i]! + kk[i]! * dil[i]!;
      flat[k * L + l] = BigInt(f);
    }
  }
  const zero = scalarLike(c, 0, 0, 'Col2Im');
  if (!zero) return;
  const data = c.emit('Reshape', [c.input(0), i64Const(c, [0n, -1n, BigInt(K * L)])], { special_zero: 'true' }, 1, 'opset1')[0]!;
  const shape = c.emit('ShapeOf', [data], { output_type: 'i64' }, 1, 'opset3')[0]!;
  const nc = c.emit('Slice', [shape, i64Const(c, [0n]), i64Const(c, [2n]), i64Const(c, [1n]), i64Const(c, [0n])], {}, 1, 'opset8')[0]!;
  const target = c.emit('Concat', [nc, i64Const(c, [BigInt(prod(padded))])], { axis: '0' }, 1, 'opset1')[0]!;
  const zeros = c.emit('Broadcast', [zero, target], { mode: 'numpy' }, 1, 'opset3')[0]!;
  const idx = c.emit('Broadcast', [c.constant(tensorFromInt64(flat, [1, 1, K * L])), shape], { mode: 'numpy' }, 1, 'opset3')[0]!;
  const sum = c.emit('ScatterElementsUpdate', [zeros, idx, data, i64Scalar(c, 2n)], { reduction: 'sum', use_init_val: 'true' }, 1, 'opset12')[0]!;
  const img = c.emit('Reshape', [sum, i64Const(c, [0n, 0n, ...padded.map(BigInt)])], { special_zero: 'true' }, 1, 'opset1')[0]!;
  const axes = Array.from({ length: n }, (_, i) => BigInt(i + 2));
  const begin = pads.slice(0, n).map(BigInt);
  c.output(0, c.emit('Slice', [img, i64Const(c, begin), i64Const(c, begin.map((b, i) => b + BigInt(image[i]!))), i64Const(c, axes.map(() => 1n)), i64Const(c, axes)], {}, 1, 'opset8')[0]!);
}

/**
 * `foldNd` with image_shape / block_shape known at run time only: the same positions, built by IR
 * ops. Along spatial dim i the position of kernel index k and block index b is k·d_i + b·s_i, which
 * times the padded image's row stride (∏ of the later padded dims) is one term; the terms, each a
 * Range along its own axis of a [K_1…K_n, B_1…B_n] grid, add up to the flat positions.
 */
function foldNdRunTime(c: ConvertContext, n: number, strides: number[], dil: number[], pads: number[]): void {
  const zero = scalarLike(c, 0, 0, 'Col2Im');
  if (!zero) return;
  const bin = (op: string, a: Value, b: Value): Value =>
    c.emit(op, [a, b], op === 'Divide' ? { auto_broadcast: 'numpy', m_pythondiv: 'true' } : { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const i64 = (i: number): Value => (c.elem(i) === 'i64' ? c.input(i)! : c.emit('Convert', [c.input(i)], { destination_type: 'i64' }, 1, 'opset1')[0]!);
  const at = (v: Value, i: number): Value => c.emit('Gather', [v, i64Scalar(c, BigInt(i)), i64Scalar(c, 0n)], { batch_dims: '0' }, 1, 'opset8')[0]!;
  const image = i64(1);
  const block = i64(2);
  const padded = bin('Add', image, i64Const(c, Array.from({ length: n }, (_, i) => BigInt(pads[i]! + pads[i + n]!))));
  const span = bin('Add', bin('Multiply', bin('Subtract', block, i64Const(c, [1n])), i64Const(c, dil.map(BigInt))), i64Const(c, [1n]));
  const blocks = bin('Add', bin('Divide', bin('Subtract', padded, span), i64Const(c, strides.map(BigInt))), i64Const(c, [1n]));
  const P = Array.from({ length: n }, (_, i) => at(padded, i));
  const rowStride: Value[] = new Array<Value>(n);
  let acc: Value = i64Scalar(c, 1n);
  for (let i = n - 1; i >= 0; i--) { rowStride[i] = acc; acc = bin('Multiply', acc, P[i]!); }
  const total = acc;
  const along = (v: Value, axis: number): Value =>
    c.emit('Reshape', [v, i64Const(c, Array.from({ length: 2 * n }, (_, j) => (j === axis ? -1n : 1n)))], { special_zero: 'false' }, 1, 'opset1')[0]!;
  const range = (end: Value): Value => c.emit('Range', [i64Scalar(c, 0n), end, i64Scalar(c, 1n)], { output_type: 'i64' }, 1, 'opset4')[0]!;
  let pos: Value | null = null;
  for (let i = 0; i < n; i++) {
    const k = along(bin('Multiply', range(at(block, i)), bin('Multiply', i64Scalar(c, BigInt(dil[i]!)), rowStride[i]!)), i);
    const b = along(bin('Multiply', range(at(blocks, i)), bin('Multiply', i64Scalar(c, BigInt(strides[i]!)), rowStride[i]!)), n + i);
    const term = bin('Add', k, b);
    pos = pos ? bin('Add', pos, term) : term;
  }
  const flat = c.emit('Reshape', [pos!, i64Const(c, [1n, 1n, -1n])], { special_zero: 'false' }, 1, 'opset1')[0]!;
  const shapeOf = (v: Value): Value => c.emit('ShapeOf', [v], { output_type: 'i64' }, 1, 'opset3')[0]!;
  const one = (v: Value): Value => c.emit('Reshape', [v, i64Const(c, [1n])], { special_zero: 'false' }, 1, 'opset1')[0]!;
  const concat = (vs: Value[]): Value => c.emit('Concat', vs, { axis: '0' }, 1, 'opset1')[0]!;
  const count = one(at(shapeOf(flat), 2));
  const data = c.emit('Reshape', [c.input(0), concat([i64Const(c, [0n, -1n]), count])], { special_zero: 'true' }, 1, 'opset1')[0]!;
  const shape = shapeOf(data);
  const nc = c.emit('Slice', [shape, i64Const(c, [0n]), i64Const(c, [2n]), i64Const(c, [1n]), i64Const(c, [0n])], {}, 1, 'opset8')[0]!;
  const zeros = c.emit('Broadcast', [zero, concat([nc, one(total)])], { mode: 'numpy' }, 1, 'opset3')[0]!;
  const idx = c.emit('Broadcast', [flat, shape], { mode: 'numpy' }, 1, 'opset3')[0]!;
  const sum = c.emit('ScatterElementsUpdate', [zeros, idx, data, i64Scalar(c, 2n)], { reduction: 'sum', use_init_val: 'true' }, 1, 'opset12')[0]!;
  const img = c.emit('Reshape', [sum, concat([nc, padded])], { special_zero: 'false' }, 1, 'opset1')[0]!;
  const begin = i64Const(c, pads.slice(0, n).map(BigInt));
  const axes = Array.from({ length: n }, (_, i) => BigInt(i + 2));
  c.output(0, c.emit('Slice', [img, begin, bin('Add', begin, image), i64Const(c, axes.map(() => 1n)), i64Const(c, axes)], {}, 1, 'opset8')[0]!);
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
