import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, normAxis } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { unpacked } from './ms-matmul-nbits.js';
import { floatScalar, MS, opt } from './ms-requantize.js';

/**
 * com.microsoft GatherBlockQuantized(data, indices, scales, zero_points?; gather_axis = 0,
 * quantize_axis = 1, block_size = 128, bits = 4), the quantized embedding table of LLM exports next
 * to MatMulNBits: Gather of data dequantized block-wise along quantize_axis, (q - zero_point) ·
 * scale, one scale (and zero point) per block of block_size elements (the last block cut).
 *  - data int4 / uint4: the values themselves (zero point default 0);
 *  - data uint8: `bits` (2, 4, 8) values per element packed along the last dim, low bits first
 *    (ms-matmul-nbits.ts `unpacked`), zero points packed alike (default 2^(bits - 1)).
 * IR: the whole table dequantized (a constant table folds when OpenVINO compiles), then Gather-8.
 * Static data dims. Refused: float8 / float4 data, packed data quantized along another dim than
 * the last.
 */
const reshape = (c: ConvertContext, x: Value, dims: readonly number[]): Value =>
  c.emit('Reshape', [x, i64Const(c, dims.map(BigInt))], { special_zero: 'false' }, 1, 'opset1')[0]!;
const bin = (c: ConvertContext, op: string, a: Value, b: Value): Value => c.emit(op, [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;

/** A per-block operand [.., blocks, ..] repeated block times along `axis` and cut to `d`. */
function expand(c: ConvertContext, v: Value, dims: readonly number[], axis: number, block: number, d: number): Value {
  const blocks = dims[axis]!;
  const unsq = c.emit('Unsqueeze', [v, i64Const(c, [BigInt(axis + 1)])], {}, 1, 'opset1')[0]!;
  const wide = c.emit('Broadcast', [unsq, i64Const(c, [...dims.slice(0, axis + 1), block, ...dims.slice(axis + 1)].map(BigInt))], { mode: 'numpy' }, 1, 'opset3')[0]!;
  const full = reshape(c, wide, [...dims.slice(0, axis), blocks * block, ...dims.slice(axis + 1)]);
  if (blocks * block === d) return full;
  return c.emit('Slice', [full, i64Const(c, [0n]), i64Const(c, [BigInt(d)]), i64Const(c, [1n]), i64Const(c, [BigInt(axis)])], {}, 1, 'opset8')[0]!;
}

const staticDims = (c: ConvertContext, i: number): number[] | null => {
  const t = c.type(i);
  const s = t?.kind === 'tensor' ? t.shape : null;
  return s && s.every((d) => typeof d === 'number') ? (s as number[]) : null;
};

function gatherBlockQuantized(c: ConvertContext): void {
  const de = c.elem(0);
  const fe = c.elem(2);
  if (fe !== 'f32' && fe !== 'f16') { c.error(`scales are ${fe ?? 'of unknown type'}: float or float16`); return; }
  if (de !== 'u8' && de !== 'i4' && de !== 'u4') { c.error(`data is ${de ?? 'of unknown type'}: int4, uint4 or uint8 (float8 / float4 data are not converted)`); return; }
  const packedDims = staticDims(c, 0);
  if (!packedDims || packedDims.length === 0) { c.error('data needs static dims'); return; }
  const r = packedDims.length;
  const bits = de === 'u8' ? Number(c.attr.int('bits', 4n)) : 4;
  if (de === 'u8' && ![2, 4, 8].includes(bits)) { c.unsupportedAttr('bits', String(bits), 'uint8 data holds 2, 4 or 8 bits per value'); return; }
  const per = de === 'u8' ? 8 / bits : 1;
  const qa = normAxis(c.attr.int('quantize_axis', 1n), r);
  const ga = normAxis(c.attr.int('gather_axis', 0n), r);
  if (qa < 0 || qa >= r || ga < 0 || ga >= r) { c.error(`quantize_axis / gather_axis out of range for data of rank ${r}`); return; }
  if (per > 1 && qa !== r - 1) { c.unsupportedAttr('quantize_axis', String(qa), `packed ${bits}-bit data is converted quantized along its last dim only`); return; }
  const block = Number(c.attr.int('block_size', 128n));
  if (!(block > 0)) { c.unsupportedAttr('block_size', String(block), 'a positive block size'); return; }
  const dims = [...packedDims.slice(0, -1), packedDims[r - 1]! * per];
  const d = dims[qa]!;
  const blocks = Math.ceil(d / block);
  const rows = packedDims.slice(0, -1).reduce((a, b) => a * b, 1);
  const toFloat = (v: Value, to: ElementTypeName): Value => c.emit('Convert', [v], { destination_type: to }, 1, 'opset1')[0]!;
  const q = de === 'u8' ? unpacked(c, 0, rows, packedDims[r - 1]!, bits, dims, fe) : toFloat(c.input(0)!, fe);
  if (!q) return;
  const scaleDims = dims.map((n, k) => (k === qa ? blocks : n));
  const sd = staticDims(c, 2);
  if (!sd || sd.reduce((a, b) => a * b, 1) !== scaleDims.reduce((a, b) => a * b, 1)) { c.error(`scales must hold [${scaleDims.join(', ')}] values (static dims)`); return; }
  const scale = expand(c, reshape(c, c.input(2)!, scaleDims), scaleDims, qa, block, d);
  const zpIn = opt(c, 3);
  let zp: Value;
  if (!zpIn) zp = floatScalar(c, fe, de === 'u8' ? 2 ** (bits - 1) : 0);
  else if (de === 'u8') {
    const zbytes = Math.ceil(blocks / per);
    const zrows = scaleDims.slice(0, -1).reduce((a, b) => a * b, 1);
    const z = unpacked(c, 3, zrows, zbytes, bits, [...scaleDims.slice(0, -1), zbytes * per], fe);
    if (!z) return;
    const cut = zbytes * per === blocks ? z : c.emit('Slice', [z, i64Const(c, [0n]), i64Const(c, [BigInt(blocks)]), i64Const(c, [1n]), i64Const(c, [BigInt(r - 1)])], {}, 1, 'opset8')[0]!;
    zp = expand(c, cut, scaleDims, qa, block, d);
  } else zp = expand(c, reshape(c, toFloat(zpIn, fe), scaleDims), scaleDims, qa, block, d);
  const table = bin(c, 'Multiply', bin(c, 'Subtract', q, zp), scale);
  c.output(0, c.emit('Gather', [table, c.input(1), i64Const(c, [BigInt(ga)])], { batch_dims: '0' }, 1, 'opset8')[0]!);
}

export const MS_GATHER_BLOCK_QUANTIZED: readonly OpMapping[] = [
  {
    onnx: { op: 'GatherBlockQuantized', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Convert', 'Reshape', 'Divide', 'FloorMod', 'Unsqueeze', 'Concat', 'Broadcast', 'Slice', 'Subtract', 'Multiply', 'Gather'],
    handles: { onnx: ['bits', 'block_size', 'gather_axis', 'quantize_axis'] },
    note: 'IR: the table dequantized block-wise along quantize_axis (packed uint8 unpacked), then Gather',
    toIr: gatherBlockQuantized,
  },
];
