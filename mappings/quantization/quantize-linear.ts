import { fromOnnxDataType, type ElementTypeName } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, normAxis } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { F8_MAX } from '../tensor/cast.js';
import { typedScalar } from '../typed-consts.js';

/**
 * Linear quantization (onnx/defs/quantization) as OpenVINO's frontend writes it:
 *  - QuantizeLinear(x, scale, zero_point?) = Convert(FakeQuantize(x, (qmin - zp)·scale,
 *    (qmax - zp)·scale, qmin, qmax, levels), T): FakeQuantize's (x - lo) / (hi - lo) · (levels - 1)
 *    is x / scale - qmin + zp, rounded, + qmin: round(x / scale) + zp, saturated.
 *  - DequantizeLinear(x, scale, zero_point?) = (Convert(x) - Convert(zp)) · scale.
 *  - QLinearMatMul = DequantizeLinear of both operands, MatMul, QuantizeLinear of the result.
 * A 1-D scale / zero point along `axis` is unsqueezed to broadcast there. Block quantization
 * (block_size = B ≠ 0, 21+): the scale / zero point has x's rank with ⌈x.shape[axis] / B⌉ along
 * `axis`; each element is repeated B times there (Unsqueeze, Broadcast, Reshape, and a Slice when
 * B does not divide the dim), static shapes only. Integer types of 4 to 16 bits; float8 targets
 * (f8e4m3, f8e5m2) as ONNX defines them: x / scale (+ zero point), saturated to ± the largest finite
 * value unless saturate=0 (NaN kept), then Convert (see tensor/cast.ts).
 * IR FakeQuantize (of any bounds) comes back to ONNX as its elementwise definition.
 */
const RANGES: Partial<Record<ElementTypeName, readonly [number, number]>> = {
  u8: [0, 255], i8: [-128, 127], u16: [0, 65535], i16: [-32768, 32767], u4: [0, 15], i4: [-8, 7],
};

const ov = (c: ConvertContext, op: string, ins: (Value | null)[], attrs: Record<string, string> = {}): Value =>
  c.emit(op, ins, op === 'Convert' ? attrs : { auto_broadcast: 'numpy', ...attrs }, 1, 'opset1')[0]!;

/** A per-axis (1-D, length > 1) or blocked scale / zero point shaped to broadcast along `axis` of x. */
export function alongAxis(c: ConvertContext, v: Value, i: number, xIndex = 0): Value | null {
  const s = c.type(i);
  const shape = s?.kind === 'tensor' ? s.shape : null;
  const block = c.attr.int('block_size') ?? 0n;
  if (block !== 0n) return blocked(c, v, i, xIndex, Number(block));
  if (shape === null || shape.length === 0 || (shape.length === 1 && shape[0] === 1)) return v;
  const r = c.rank(xIndex);
  if (shape.length !== 1 || r === null) { c.error(`a scale / zero point of shape [${shape.join(',')}] (per-tensor, 1-D per-axis, or blocked with block_size)`); return null; }
  const axis = normAxis(c.attr.int('axis') ?? 1n, r);
  const others = Array.from({ length: r }, (_, k) => BigInt(k)).filter((k) => k !== BigInt(axis));
  return others.length === 0 ? v : c.emit('Unsqueeze', [v, i64Const(c, others)], {}, 1, 'opset1')[0]!;
}

const staticShape = (c: ConvertContext, i: number): number[] | null => {
  const t = c.type(i);
  const s = t?.kind === 'tensor' ? t.shape : null;
  return s && s.every((d) => typeof d === 'number') ? (s as number[]) : null;
};

/** A blocked scale / zero point (x's rank, ⌈D / block⌉ along `axis`) repeated `block` times along `axis`, cut to D. */
function blocked(c: ConvertContext, v: Value, i: number, xIndex: number, block: number): Value | null {
  const xs = staticShape(c, xIndex);
  const vs = staticShape(c, i);
  if (!xs || !vs || vs.length !== xs.length || block < 1) { c.error(`block quantization needs static shapes of x and of input ${i}, of one rank, and block_size ≥ 1`); return null; }
  const axis = normAxis(c.attr.int('axis') ?? 1n, xs.length);
  const blocks = vs[axis]!;
  const d = xs[axis]!;
  if (blocks !== Math.ceil(d / block) || vs.some((n, k) => k !== axis && n !== xs[k])) {
    c.error(`input ${i} of shape [${vs.join(',')}] does not block x [${xs.join(',')}] by ${block} along axis ${axis}`);
    return null;
  }
  const unsq = c.emit('Unsqueeze', [v, i64Const(c, [BigInt(axis + 1)])], {}, 1, 'opset1')[0]!;
  const repeated = [...vs.slice(0, axis + 1), block, ...vs.slice(axis + 1)];
  const wide = c.emit('Broadcast', [unsq, i64Const(c, repeated.map(BigInt))], { mode: 'numpy' }, 1, 'opset3')[0]!;
  const flat = [...vs.slice(0, axis), blocks * block, ...vs.slice(axis + 1)];
  const full = c.emit('Reshape', [wide, i64Const(c, flat.map(BigInt))], { special_zero: 'false' }, 1, 'opset1')[0]!;
  if (blocks * block === d) return full;
  return c.emit('Slice', [full, i64Const(c, [0n]), i64Const(c, [BigInt(d)]), i64Const(c, [1n]), i64Const(c, [BigInt(axis)])], {}, 1, 'opset8')[0]!;
}

/** The quantized type: zero point's, else output_dtype (21+), else u8. */
function quantType(c: ConvertContext, zpIndex: number): ElementTypeName | null {
  if (c.numInputs > zpIndex && c.input(zpIndex)) return c.elem(zpIndex);
  const d = c.attr.int('output_dtype');
  return d === undefined || d === 0n ? 'u8' : fromOnnxDataType(Number(d))?.name ?? null;
}

/** ONNX → IR QuantizeLinear of source operands (x, scale, zp) into type `q`, as FakeQuantize + Convert. */
export function quantize(c: ConvertContext, x: Value, xElem: ElementTypeName | null, scale: Value, scaleElem: ElementTypeName | null, zp: Value | null, q: ElementTypeName): Value | null {
  const range = RANGES[q];
  const fe = scaleElem;
  const f8 = F8_MAX.get(q);
  if (f8 !== undefined && fe !== null && typedScalar(fe, 0) !== null) return quantizeF8(c, x, xElem, scale, fe, zp, q, f8);
  if (!range || fe === null || typedScalar(fe, 0) === null) { c.error(`quantizing to ${q} with a ${fe ?? 'unknown'} scale (integer targets of 4..16 bits, float scales)`); return null; }
  const xf = xElem === fe ? x : ov(c, 'Convert', [x], { destination_type: fe });
  const zf = zp ? ov(c, 'Convert', [zp], { destination_type: fe }) : c.constant(typedScalar(fe, 0)!);
  const bound = (q0: number): Value => ov(c, 'Multiply', [ov(c, 'Subtract', [c.constant(typedScalar(fe, q0)!), zf]), scale]);
  const fq = c.emit('FakeQuantize', [xf, bound(range[0]), bound(range[1]), c.constant(typedScalar(fe, range[0])!), c.constant(typedScalar(fe, range[1])!)],
    { levels: String(range[1] - range[0] + 1), auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  return ov(c, 'Convert', [fq], { destination_type: q });
}

/** QuantizeLinear to float8: x / scale (+ zp), saturated unless saturate=0, converted. */
function quantizeF8(c: ConvertContext, x: Value, xElem: ElementTypeName | null, scale: Value, fe: ElementTypeName, zp: Value | null, q: ElementTypeName, max: number): Value {
  const xf = xElem === fe ? x : ov(c, 'Convert', [x], { destination_type: fe });
  let y = ov(c, 'Divide', [xf, scale], { m_pythondiv: 'true' });
  if (zp) y = ov(c, 'Add', [y, ov(c, 'Convert', [zp], { destination_type: fe })]);
  if ((c.attr.int('saturate') ?? 1n) !== 0n) {
    const clamped = c.emit('Clamp', [y], { min: String(-max), max: String(max) }, 1, 'opset1')[0]!;
    y = ov(c, 'Select', [c.emit('IsNaN', [y], {}, 1, 'opset10')[0]!, y, clamped]);
  }
  return ov(c, 'Convert', [y], { destination_type: q });
}

/** ONNX → IR DequantizeLinear: (x - zp) · scale in the scale's type. */
export function dequantize(c: ConvertContext, x: Value, scale: Value, scaleElem: ElementTypeName | null, zp: Value | null): Value | null {
  if (scaleElem === null) { c.error('DequantizeLinear needs the element type of the scale to be known'); return null; }
  const xf = ov(c, 'Convert', [x], { destination_type: scaleElem });
  const shifted = zp ? ov(c, 'Subtract', [xf, ov(c, 'Convert', [zp], { destination_type: scaleElem })]) : xf;
  return ov(c, 'Multiply', [shifted, scale]);
}

const opt = (c: ConvertContext, i: number): Value | null => (c.numInputs > i ? c.input(i) : null);

const QUANTIZE: OpMapping = {
  onnx: { op: 'QuantizeLinear', since: 10 },
  ir: null,
  decomposes: ['FakeQuantize', 'Convert', 'Subtract', 'Multiply', 'Unsqueeze', 'Broadcast', 'Reshape', 'Slice', 'Divide', 'Add', 'Clamp', 'IsNaN', 'Select'],
  handles: { onnx: ['axis', 'saturate', 'block_size', 'output_dtype', 'precision'] },
  note: 'IR: FakeQuantize + Convert (as OpenVINO\'s frontend)',
  toIr: (c) => {
    const q = quantType(c, 2);
    if (q === null) { c.error('unknown quantized type'); return; }
    const scale = alongAxis(c, c.input(1)!, 1);
    const zpRaw = opt(c, 2);
    const zp = zpRaw ? alongAxis(c, zpRaw, 2) : null;
    if (!scale || (zpRaw && !zp)) return;
    const y = quantize(c, c.input(0)!, c.elem(0), scale, c.elem(1), zp, q);
    if (y) c.output(0, y);
  },
};

export const DEQUANTIZE: OpMapping = {
  onnx: { op: 'DequantizeLinear', since: 10 },
  ir: null,
  decomposes: ['Convert', 'Subtract', 'Multiply', 'Unsqueeze', 'Broadcast', 'Reshape', 'Slice'],
  handles: { onnx: ['axis', 'block_size', 'output_dtype'] },
  note: 'IR: Convert, Subtract, Multiply (as OpenVINO\'s frontend)',
  toIr: (c) => {
    const out = c.attr.int('output_dtype');
    if (out !== undefined && out !== 0n && fromOnnxDataType(Number(out))?.name !== c.elem(1)) { c.unsupportedAttr('output_dtype', String(out), 'only the scale\'s type'); return; }
    const xe = c.elem(0);
    if (xe === null || xe === 'u2' || xe === 'i2' || xe === 'u1') { c.error(`dequantizing ${xe ?? 'an unknown type'} (OpenVINO runs no 1- or 2-bit inputs)`); return; }
    const scale = alongAxis(c, c.input(1)!, 1);
    const zpRaw = opt(c, 2);
    const zp = zpRaw ? alongAxis(c, zpRaw, 2) : null;
    if (!scale || (zpRaw && !zp)) return;
    const y = dequantize(c, c.input(0)!, scale, c.elem(1), zp);
    if (y) c.output(0, y);
  },
};

/** QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp): per-tensor or per-row/column scales. */
const QLINEAR_MATMUL: OpMapping = {
  onnx: { op: 'QLinearMatMul', since: 10 },
  ir: null,
  decomposes: ['Convert', 'Subtract', 'Multiply', 'MatMul', 'FakeQuantize'],
  note: 'IR: dequantized operands, MatMul, FakeQuantize + Convert',
  toIr: (c) => {
    const a = dequantize(c, c.input(0)!, c.input(1)!, c.elem(1), c.input(2));
    const b = dequantize(c, c.input(3)!, c.input(4)!, c.elem(4), c.input(5));
    if (!a || !b) return;
    const y = c.emit('MatMul', [a, b], { transpose_a: 'false', transpose_b: 'false' }, 1, 'opset1')[0]!;
    const q = c.elem(7);
    if (q === null) { c.error('QLinearMatMul needs the type of y_zero_point to be known'); return; }
    const out = quantize(c, y, c.elem(1), c.input(6)!, c.elem(6), c.input(7), q);
    if (out) c.output(0, out);
  },
};

/**
 * DynamicQuantizeLinear-11 (no OpenVINO op), by its definition: the range [min(x, 0), max(x, 0)]
 * over all elements, scale = range / 255, zero point = saturate(round(-min / scale)), y =
 * saturate(round(x / scale) + zero point), rounding half to even (Round-5), as u8.
 */
const DYNAMIC_QUANTIZE: OpMapping = {
  onnx: { op: 'DynamicQuantizeLinear', since: 11 },
  ir: null,
  decomposes: ['ReduceMin', 'ReduceMax', 'Minimum', 'Maximum', 'Subtract', 'Divide', 'Round', 'Clamp', 'Add', 'Convert'],
  note: 'IR: ReduceMin/Max, Divide, Round, Clamp, Convert',
  toIr: (c) => {
    const r = c.rank(0);
    if (r === null || c.elem(0) !== 'f32') { c.error('DynamicQuantizeLinear needs an f32 x of known rank'); return; }
    const x = c.input(0)!;
    const f = (v: number): Value => c.constant(typedScalar('f32', v)!);
    const all = i64Const(c, Array.from({ length: r }, (_, k) => BigInt(k)));
    const reduce = (op: string): Value => c.emit(op, [x, all], { keep_dims: 'false' }, 1, 'opset1')[0]!;
    const lo = ov(c, 'Minimum', [reduce('ReduceMin'), f(0)]);
    const hi = ov(c, 'Maximum', [reduce('ReduceMax'), f(0)]);
    const scale = ov(c, 'Divide', [ov(c, 'Subtract', [hi, lo]), f(255)], { m_pythondiv: 'true' });
    const round = (v: Value): Value => c.emit('Round', [v], { mode: 'half_to_even' }, 1, 'opset5')[0]!;
    const clamp = (v: Value): Value => c.emit('Clamp', [v], { min: '0', max: '255' }, 1, 'opset1')[0]!;
    const zp = clamp(round(ov(c, 'Divide', [ov(c, 'Subtract', [f(0), lo]), scale], { m_pythondiv: 'true' })));
    const y = clamp(ov(c, 'Add', [round(ov(c, 'Divide', [x, scale], { m_pythondiv: 'true' })), zp]));
    c.output(0, ov(c, 'Convert', [y], { destination_type: 'u8' }));
    c.output(1, scale);
    c.output(2, ov(c, 'Convert', [zp], { destination_type: 'u8' }));
  },
};

/**
 * IR FakeQuantize-1 → ONNX, by its definition: x ≤ min(in_lo, in_hi) → out_lo; x > max(in_lo,
 * in_hi) → out_hi; else round((x - in_lo) / (in_hi - in_lo) · (levels - 1)) / (levels - 1) ·
 * (out_hi - out_lo) + out_lo (ONNX Round: half to even, as OpenVINO's nearbyint).
 */
const FAKE_QUANTIZE: OpMapping = {
  onnx: { op: 'QuantizeLinear', since: 11 },
  ir: { op: 'FakeQuantize', version: 'opset1' },
  when: () => false,
  handles: { ir: ['levels', 'auto_broadcast'] },
  note: 'IR only: ONNX elementwise ops (Where, Round, …)',
  toIr: (c) => { c.error('FakeQuantize is not written from ONNX'); },
  toOnnx: (c) => {
    const levels = c.attr.int('levels');
    const elem = c.elem(0);
    if (levels === undefined || levels < 2n) { c.unsupportedAttr('levels', String(levels ?? ''), 'must be 2 or more'); return; }
    const k = elem === null ? null : typedScalar(elem, Number(levels) - 1);
    if (k === null) { c.error(`FakeQuantize of ${elem ?? 'an unknown type'}`); return; }
    const e = (op: string, ins: Value[]): Value => c.emit(op, ins)[0]!;
    const [x, inLo, inHi, outLo, outHi] = [0, 1, 2, 3, 4].map((i) => c.input(i)!) as [Value, Value, Value, Value, Value];
    const steps = c.constant(k);
    const t = e('Round', [e('Mul', [e('Div', [e('Sub', [x, inLo]), e('Sub', [inHi, inLo])]), steps])]);
    const mid = e('Add', [e('Mul', [e('Div', [t, steps]), e('Sub', [outHi, outLo])]), outLo]);
    const below = e('LessOrEqual', [x, e('Min', [inLo, inHi])]);
    const above = e('Greater', [x, e('Max', [inLo, inHi])]);
    if (c.opset < 12) { c.error(`FakeQuantize needs LessOrEqual (ONNX opset 12+, target ${c.opset})`); return; }
    c.output(0, e('Where', [below, outLo, e('Where', [above, outHi, mid])]));
  },
};

export const QUANTIZATION: readonly OpMapping[] = [QUANTIZE, DEQUANTIZE, QLINEAR_MATMUL, DYNAMIC_QUANTIZE, FAKE_QUANTIZE];
