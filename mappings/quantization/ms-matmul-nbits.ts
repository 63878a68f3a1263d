import type { ElementTypeName } from '../../src/graph/element-type.js';
import { makeTensor } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { floatScalar, MS, opt } from './ms-requantize.js';

/**
 * com.microsoft MatMulNBits(A, B, scales, zero_points?, g_idx?, bias?; K, N, bits = 4, block_size,
 * accuracy_level, weight_prepacked = 0), the weight-only quantized MatMul of LLM exports
 * (onnxruntime's quantizer, Olive, optimum): Y = A · Wᵀ (+ bias), W [N, K] dequantized block-wise
 * along K:
 *  - B is uint8 [N, ⌈K / block_size⌉, block_size · bits / 8], `bits`-wide values packed low bits
 *    first (ovir's u4 / u2 packing: a constant B is that same data as a u4 or u2 constant; another
 *    B is unpacked with integer Divide and FloorMod);
 *  - scales [N · blocks] (or [N, blocks]), of A's type;
 *  - zero_points: packed uint8 [N, ⌈blocks · bits / 8⌉] (unpacked alike), or of A's type as
 *    scales (not packed); absent: 2^(bits - 1);
 *  - W = (q - zero_point) · scale per block, cut to K columns;
 *  - g_idx (act-order, int32 [K]): column k takes the scale and zero point of block g_idx[k]
 *    instead of ⌊k / block_size⌋ (the values stay in their order): scales and zero points are
 *    gathered per column. Converted at 4 bits, the one width where onnxruntime 1.31's CPU kernel
 *    computes that (measured: at 2 bits it reads B as 4-bit values, at 8 it refuses g_idx), with
 *    zero points of A's type or none (it ignores packed uint8 zero_points there, subtracting
 *    2^(bits − 1): refused).
 * Refused: weight_prepacked ≠ 0, bits other than 2, 4 and 8 (onnxruntime's CPU kernel refuses 3,
 * 5, 6 and 7 too: "Only 2b, 4b and 8b quantization is supported", 1.31), g_idx at 2 or 8 bits
 * or with packed zero points. accuracy_level
 * is the precision onnxruntime may compute A in (4: int8); ovir computes in A's float type and
 * warns that onnxruntime's numbers then differ by its quantization of A.
 */
const bin = (c: ConvertContext, op: string, a: Value, b: Value, extra: Record<string, string> = {}): Value =>
  c.emit(op, [a, b], { auto_broadcast: 'numpy', ...extra }, 1, 'opset1')[0]!;
const reshape = (c: ConvertContext, x: Value, dims: readonly number[]): Value =>
  c.emit('Reshape', [x, i64Const(c, dims.map(BigInt))], { special_zero: 'false' }, 1, 'opset1')[0]!;
const sliceTo = (c: ConvertContext, x: Value, n: number, axis: number): Value =>
  c.emit('Slice', [x, i64Const(c, [0n]), i64Const(c, [BigInt(n)]), i64Const(c, [1n]), i64Const(c, [BigInt(axis)])], {}, 1, 'opset8')[0]!;

/**
 * Source input i, uint8 bytes read as [rows, bytes], unpacked to values (low bits first) of shape
 * `dims` (rows · bytes · 8 / bits values) converted to float type fe: a constant as a u{bits}
 * constant of the same bytes (converted before any other op: ONNX has no Reshape or Slice of
 * 4-bit types before opset 21, onnxruntime none at all), else by integer arithmetic.
 */
export function unpacked(c: ConvertContext, i: number, rows: number, bytes: number, bits: number, dims: readonly number[], fe: ElementTypeName): Value | null {
  const per = 8 / bits;
  const toFloat = (v: Value): Value => c.emit('Convert', [v], { destination_type: fe }, 1, 'opset1')[0]!;
  const t = c.folded(i);
  if (t && t.elem === 'u8') {
    if (t.data.length !== rows * bytes) { c.error(`input ${i} holds ${t.data.length} bytes, ${rows * bytes} expected (${rows} × ${bytes})`); return null; }
    const elem = (bits === 8 ? 'u8' : `u${bits}`) as ElementTypeName;
    return toFloat(c.constant(makeTensor(elem, dims, t.data)));
  }
  const x = reshape(c, c.emit('Convert', [c.input(i)], { destination_type: 'i32' }, 1, 'opset1')[0]!, [rows, bytes]);
  if (per === 1) return toFloat(reshape(c, x, dims));
  const parts: Value[] = [];
  for (let j = 0; j < per; j++) {
    const shifted = j === 0 ? x : bin(c, 'Divide', x, c.constant(makeTensor('i32', [], new Uint8Array(new Int32Array([2 ** (bits * j)]).buffer))), { m_pythondiv: 'true' });
    const piece = bin(c, 'FloorMod', shifted, c.constant(makeTensor('i32', [], new Uint8Array(new Int32Array([2 ** bits]).buffer))));
    parts.push(c.emit('Unsqueeze', [piece, i64Const(c, [2n])], {}, 1, 'opset1')[0]!);
  }
  return toFloat(reshape(c, c.emit('Concat', parts, { axis: '2' }, 1, 'opset1')[0]!, dims));
}

function matmulNBits(c: ConvertContext): void {
  const K = Number(c.attr.int('K') ?? -1n);
  const N = Number(c.attr.int('N') ?? -1n);
  const bits = Number(c.attr.int('bits', 4n));
  const bs = Number(c.attr.int('block_size') ?? -1n);
  if (K < 1 || N < 1 || bs < 1) { c.error('attributes K, N and block_size are required and positive'); return; }
  if (![2, 4, 8].includes(bits)) { c.unsupportedAttr('bits', String(bits), 'only 2, 4 and 8 (whole values per byte; onnxruntime\'s CPU kernel runs no other)'); return; }
  if ((bs * bits) % 8 !== 0) { c.unsupportedAttr('block_size', String(bs), `block_size · bits must fill whole bytes`); return; }
  const prepacked = c.attr.int('weight_prepacked', 0n);
  if (prepacked !== 0n) { c.unsupportedAttr('weight_prepacked', String(prepacked), 'a layout onnxruntime prepacks for its own kernels'); return; }
  const gIdx = opt(c, 4);
  if (gIdx && c.elem(4) !== 'i32') { c.error(`g_idx is ${c.elem(4) ?? 'of unknown type'}: int32`); return; }
  // onnxruntime 1.31's CPU kernel (measured): at 2 bits it reads B as 4-bit values when g_idx is
  // given, at 8 bits it refuses g_idx: converted at 4 bits only, where it computes the definition
  if (gIdx && bits !== 4) { c.error(`g_idx with ${bits}-bit weights is not converted: onnxruntime's CPU kernel ${bits === 2 ? 'reads 2-bit B as 4-bit values when g_idx is given (measured, 1.31)' : 'refuses it ("Only 2b and 4b quantization is supported for unpacked compute")'}, so there are no numbers to match`); return; }
  if (gIdx && opt(c, 3) && c.elem(3) === 'u8') { c.error('g_idx with packed uint8 zero_points is not converted: onnxruntime\'s CPU kernel ignores such zero points when g_idx is given (measured, 1.31: it subtracts 2^(bits − 1)), unlike the op\'s definition'); return; }
  const fe = c.elem(0);
  if (fe !== 'f32' && fe !== 'f16') { c.error(`A is ${fe ?? 'of unknown type'}: float or float16`); return; }
  if (c.elem(1) !== 'u8') { c.error(`B is ${c.elem(1) ?? 'of unknown type'}: uint8`); return; }
  const level = c.attr.int('accuracy_level', 0n);
  if (level === 4n) c.warn(`accuracy_level 4: onnxruntime may compute A in int8; ovir computes in ${fe}, so onnxruntime's numbers differ by its quantization of A`);
  const blocks = Math.ceil(K / bs);
  const blob = (bs * bits) / 8;
  const qf = unpacked(c, 1, N * blocks, blob, bits, [N, blocks, bs], fe);
  if (!qf) return;
  const zpIn = opt(c, 3);
  if (gIdx) {
    // per column k: block g_idx[k]'s scale and zero point, over the values in their order
    if (zpIn && c.elem(3) !== fe) { c.error(`zero_points are ${c.elem(3) ?? 'of unknown type'}: with g_idx, A's type ${fe}`); return; }
    const perColumn = (v: Value): Value => c.emit('Gather', [reshape(c, v, [N, blocks]), gIdx, i64Scalar(c, 1n)], { batch_dims: '0' }, 1, 'opset8')[0]!;
    const zp = zpIn ? perColumn(zpIn) : floatScalar(c, fe, 2 ** (bits - 1));
    let q = reshape(c, qf, [N, blocks * bs]);
    if (blocks * bs !== K) q = sliceTo(c, q, K, 1);
    const w = bin(c, 'Multiply', bin(c, 'Subtract', q, zp), perColumn(c.input(2)!));
    finish(c, w);
    return;
  }
  const scales = reshape(c, c.input(2)!, [N, blocks, 1]);
  let zp: Value;
  if (!zpIn) zp = floatScalar(c, fe, 2 ** (bits - 1));
  else if (c.elem(3) === 'u8') {
    const zbytes = Math.ceil((blocks * bits) / 8);
    const z = unpacked(c, 3, N, zbytes, bits, [N, zbytes * (8 / bits)], fe);
    if (!z) return;
    zp = reshape(c, zbytes * (8 / bits) === blocks ? z : sliceTo(c, z, blocks, 1), [N, blocks, 1]);
  } else if (c.elem(3) === fe) zp = reshape(c, zpIn, [N, blocks, 1]);
  else { c.error(`zero_points are ${c.elem(3) ?? 'of unknown type'}: uint8 (packed) or A's type ${fe}`); return; }
  let w = reshape(c, bin(c, 'Multiply', bin(c, 'Subtract', qf, zp), scales), [N, blocks * bs]);
  if (blocks * bs !== K) w = sliceTo(c, w, K, 1);
  finish(c, w);
}

/** Y = A · Wᵀ (+ bias) of the dequantized W [N, K]. */
function finish(c: ConvertContext, w: Value): void {
  let y = c.emit('MatMul', [c.input(0), w], { transpose_a: 'false', transpose_b: 'true' }, 1, 'opset1')[0]!;
  const bias = opt(c, 5);
  if (bias) y = bin(c, 'Add', y, bias);
  c.output(0, y);
}

export const MS_MATMUL_NBITS: readonly OpMapping[] = [
  {
    onnx: { op: 'MatMulNBits', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Convert', 'Reshape', 'Divide', 'FloorMod', 'Unsqueeze', 'Concat', 'Slice', 'Subtract', 'Multiply', 'MatMul', 'Add', 'Gather'],
    handles: { onnx: ['K', 'N', 'bits', 'block_size', 'accuracy_level', 'weight_prepacked'] },
    note: 'IR: B (a u4 / u2 constant, or unpacked) dequantized per block (g_idx: scales and zero points gathered per column), MatMul with transpose_b, plus bias',
    toIr: matmulNBits,
  },
];
