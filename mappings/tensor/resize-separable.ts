import { elementType, type ElementTypeName } from '../../src/graph/element-type.js';
import { tensorFromFloat32 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { irBuilder, type IrBuilder } from '../nn/ir-build.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext } from '../spec.js';

/**
 * ONNX Resize as a separable resize by gathers, for the forms OpenVINO's Interpolate does not
 * compute as ONNX does (resize.ts chooses): coordinate_transformation_mode tf_crop_and_resize
 * (roi, extrapolation_value) and half_pixel_symmetric, exclude_outside, antialias,
 * keep_aspect_ratio_policy with run-time sizes, align_corners by scales.
 *
 * onnx's reference resizes one axis at a time (op_resize.py, _interpolate_1d_along_axis); so does
 * this, in the IR graph, so run-time scales, sizes and roi work. For each resized axis:
 *   1. the output length (floor(scale · in) for scales, the size for sizes, round_half_up of the
 *      common scale · in for keep_aspect_ratio_policy) and the source coordinate x of every output
 *      index y, per coordinate_transformation_mode (COORDINATE);
 *   2. the taps: nearest one index rounded per nearest_mode (NEAREST); linear / cubic the n indices
 *      around x, floor(x) - n/2 + 1 …, weighed by the kernel (KERNEL) of their distance to x
 *      (antialias: the distance scaled by min(scale, 1), n = 2·ceil(support / min(scale, 1)), the
 *      weights divided by their sum); exclude_outside zeroes the weights of taps outside the input
 *      and divides by their sum (0 when every tap is outside, as the reference guards);
 *   3. Gather of the clamped taps along the axis, times the weights broadcast along it, summed over
 *      the taps; tf_crop_and_resize samples with x outside [0, in - 1] are extrapolation_value.
 * Scales, output lengths and widths known at conversion time (constant scales or sizes over static
 * dims) are computed here in doubles, as the reference does, and written as constants (which also
 * gives the IR static output dims). Linear and cubic compute in f32 (the reference in f64) and
 * convert back at the end: floats by Convert, integers rounded half to even and clamped to their
 * range first (saturate_cast) — a u8 value within ~2e-5 of a half may round to the other side
 * (measured: about 1% of elements of random u8 linear resizes, as OpenVINO's own Interpolate).
 * Nearest only gathers, in the input's own type.
 */

export interface SeparableResize {
  readonly mode: 'nearest' | 'linear' | 'cubic';
  readonly ctm: string;
  readonly nearest: string;
  readonly cubicA: number;
  readonly excludeOutside: boolean;
  readonly antialias: boolean;
  readonly extrapolation: number;
  readonly rank: number;
  /** The resized axes in order (0 ≤ axis < rank); entry k of scales / sizes / roi belongs to axes[k]. */
  readonly axes: readonly number[];
  /** f32 scales or i64 sizes, one per entry of `axes`; `aspect` with sizes: keep_aspect_ratio_policy. */
  readonly operand: { readonly kind: 'scales'; readonly v: Value } | { readonly kind: 'sizes'; readonly v: Value; readonly aspect?: 'not_larger' | 'not_smaller' };
  /** f32 [2·axes.length] (starts, then ends), tf_crop_and_resize only. */
  readonly roi: Value | null;
  /** Axes known at conversion time to be resized by the identity (skipped, as the reference does). */
  readonly identity: ReadonlySet<number>;
  /** Per axis, what is known at conversion time (constant scales or sizes over a static dim), computed in doubles as the reference does. */
  readonly known: ReadonlyMap<number, KnownAxis>;
}

/** An axis's scale, output length and width (scale · in as a float), known at conversion time. */
export interface KnownAxis { readonly scale: number; readonly out: number; readonly width: number }

type N = Value | number;

/** f32 arithmetic on values and numbers (numbers become f32 scalar constants). */
class F32 {
  constructor(readonly b: IrBuilder, private readonly c: ConvertContext) {}
  v(x: N): Value { return typeof x === 'number' ? this.b.scalar('f32', x) : x; }
  add(x: N, y: N): Value { return this.b.add(this.v(x), this.v(y)); }
  sub(x: N, y: N): Value { return this.b.sub(this.v(x), this.v(y)); }
  mul(x: N, y: N): Value { return this.b.mul(this.v(x), this.v(y)); }
  div(x: N, y: N): Value { return this.b.div(this.v(x), this.v(y)); }
  op(op: string, ...xs: N[]): Value {
    const binary: Record<string, string> = xs.length === 2 ? { auto_broadcast: 'numpy' } : {};
    return this.c.emit(op, xs.map((x) => this.v(x)), binary, 1, 'opset1')[0]!;
  }
  floor(x: N): Value { return this.op('Floor', x); }
  ceil(x: N): Value { return this.op('Ceiling', x); }
  abs(x: N): Value { return this.op('Abs', x); }
  max(x: N, y: N): Value { return this.op('Maximum', x, y); }
  min(x: N, y: N): Value { return this.op('Minimum', x, y); }
  less(x: N, y: N): Value { return this.op('Less', x, y); }
  lessEq(x: N, y: N): Value { return this.op('LessEqual', x, y); }
  eq(x: N, y: N): Value { return this.op('Equal', x, y); }
  or(x: Value, y: Value): Value { return this.op('LogicalOr', x, y); }
  and(x: Value, y: Value): Value { return this.b.and(x, y); }
  select(cond: Value, x: N, y: N): Value { return this.b.select(cond, this.v(x), this.v(y)); }
  sumLast(x: Value): Value { return this.c.emit('ReduceSum', [x, i64Const(this.c, [-1n])], { keep_dims: 'true' }, 1, 'opset1')[0]!; }
}

/** One axis: output indices y [out] (f32), the scale, the input length, the output length and width (scale · in as a float) — f32 scalars. */
interface AxisTerms {
  readonly f: F32;
  readonly y: Value;
  readonly scale: Value;
  readonly inLen: Value;
  readonly outLen: Value;
  readonly width: Value;
  readonly roi: readonly [Value, Value] | null;
}

/** The source coordinate of each output index (onnx's reference, _compute_x_ori). */
const COORDINATE: Readonly<Record<string, (a: AxisTerms) => Value>> = {
  half_pixel: ({ f, y, scale }) => f.sub(f.div(f.add(y, 0.5), scale), 0.5),
  tf_half_pixel_for_nn: ({ f, y, scale }) => f.div(f.add(y, 0.5), scale),
  pytorch_half_pixel: (a) => a.f.select(a.f.eq(a.width, 1), -0.5, COORDINATE['half_pixel']!(a)),
  align_corners: ({ f, y, inLen, width }) => f.select(f.eq(width, 1), 0, f.div(f.mul(y, f.sub(inLen, 1)), f.sub(width, 1))),
  asymmetric: ({ f, y, scale }) => f.div(y, scale),
  // the centre of the input maps to the centre of the output when the output length was rounded
  half_pixel_symmetric: (a) => {
    const { f, inLen, outLen, width } = a;
    const offset = f.mul(f.div(inLen, 2), f.sub(1, f.div(outLen, width)));
    return f.add(offset, COORDINATE['half_pixel']!(a));
  },
  tf_crop_and_resize: ({ f, y, inLen, width, roi }) => {
    const [start, end] = roi!;
    const last = f.sub(inLen, 1);
    const span = f.sub(end, start);
    const x = f.select(f.eq(width, 1), f.div(f.mul(span, last), 2), f.div(f.mul(f.mul(y, span), last), f.sub(width, 1)));
    return f.add(x, f.mul(start, last));
  },
};

/** The coordinate_transformation_mode values the separable resize computes (every one ONNX Resize has). */
export const SEPARABLE_TRANSFORMS: readonly string[] = Object.keys(COORDINATE);

/** Nearest: the index each nearest_mode rounds x to (an integer x is itself). */
const NEAREST: Readonly<Record<string, (f: F32, x: Value) => Value>> = {
  round_prefer_floor: (f, x) => f.ceil(f.sub(x, 0.5)),
  round_prefer_ceil: (f, x) => f.floor(f.add(x, 0.5)),
  floor: (f, x) => f.floor(x),
  ceil: (f, x) => f.ceil(x),
};

/** Linear and cubic: the kernel of a tap at distance |t| (onnx's _linear_coeffs / _cubic_coeffs), its support, and the taps around floor(x). */
interface Kernel { readonly support: number; readonly offsets: readonly number[]; weight(f: F32, t: Value, a: number): Value }
const KERNEL: Readonly<Record<'linear' | 'cubic', Kernel>> = {
  linear: { support: 1, offsets: [0, 1], weight: (f, t) => f.max(f.sub(1, t), 0) },
  cubic: {
    support: 2,
    offsets: [-1, 0, 1, 2],
    weight: (f, t, a) => {
      const near = f.add(f.mul(f.mul(f.sub(f.mul(a + 2, t), a + 3), t), t), 1);
      const far = f.sub(f.mul(f.add(f.mul(f.sub(f.mul(a, t), 5 * a), t), 8 * a), t), 4 * a);
      return f.select(f.lessEq(t, 1), near, f.select(f.less(t, 2), far, 0));
    },
  },
};

const FLOATS: ReadonlySet<ElementTypeName> = new Set(['f32', 'f16', 'bf16', 'f64']);
const SMALL_INTS: ReadonlySet<ElementTypeName> = new Set(['u8', 'i8', 'u16', 'i16']);

/** The element types the separable resize computes for `mode`, for messages and resize.ts's choice. */
export function separableAccepts(mode: SeparableResize['mode'], elem: ElementTypeName): boolean {
  return mode === 'nearest' || FLOATS.has(elem) || SMALL_INTS.has(elem);
}

/** Emits the separable resize of `x` (element type `elem`); returns its output. */
export function separableResize(c: ConvertContext, x: Value, elem: ElementTypeName, s: SeparableResize): Value {
  const b = irBuilder(c);
  const f = new F32(b, c);
  const computeF32 = s.mode !== 'nearest' && elem !== 'f32';
  let cur = computeF32 ? b.convert(x, 'f32') : x;
  const dims = b.shapeOf(x);
  const dim = (a: number): Value => b.convert(b.gather(dims, i64Scalar(c, BigInt(a)), 0n), 'f32');
  const entry = (v: Value, k: number): Value => b.gather(v, i64Scalar(c, BigInt(k)), 0n);
  const sizesF = s.operand.kind === 'sizes' ? b.convert(s.operand.v, 'f32') : null;
  // keep_aspect_ratio_policy: one scale for every resized axis, the least / greatest of size / in
  let common: Value | null = null;
  if (s.operand.kind === 'sizes' && s.operand.aspect && s.axes.some((a) => !s.known.has(a) && !s.identity.has(a))) {
    const ins = b.convert(b.gather(dims, i64Const(c, s.axes.map(BigInt)), 0n), 'f32');
    const ratios = f.div(sizesF!, ins);
    common = c.emit(s.operand.aspect === 'not_larger' ? 'ReduceMin' : 'ReduceMax', [ratios, i64Const(c, [0n])], { keep_dims: 'false' }, 1, 'opset1')[0]!;
  }
  for (const [k, axis] of s.axes.entries()) {
    if (s.identity.has(axis)) continue;
    const inLen = dim(axis);
    let scale: Value, width: Value, outLen: Value, count: Value;
    const known = s.known.get(axis);
    if (known) {
      [scale, width, outLen, count] = [f.v(known.scale), f.v(known.width), f.v(known.out), i64Scalar(c, BigInt(known.out))];
    } else {
      if (common) {
        scale = common;
        width = f.mul(scale, inLen);
        outLen = f.floor(f.add(width, 0.5));
      } else if (sizesF) {
        outLen = entry(sizesF, k);
        width = outLen;
        scale = f.div(outLen, inLen);
      } else {
        scale = entry(s.operand.v, k);
        width = f.mul(scale, inLen);
        outLen = f.floor(width);
      }
      count = b.convert(outLen, 'i64');
    }
    const y = b.convert(b.range(count), 'f32');
    const roi = s.roi ? [entry(s.roi, k), entry(s.roi, k + s.axes.length)] as const : null;
    const terms: AxisTerms = { f, y, scale, inLen, outLen, width, roi };
    const coord = COORDINATE[s.ctm]!(terms);
    cur = s.mode === 'nearest' ? nearestAxis(c, f, s, cur, elem, axis, coord, inLen) : kernelAxis(c, f, s, cur, axis, coord, terms);
    if (s.ctm === 'tf_crop_and_resize') {
      const outside = trailing(c, s, axis, f.or(f.less(coord, 0), f.less(f.sub(inLen, 1), coord)));
      cur = b.select(outside, s.mode === 'nearest' ? b.scalar(elem, s.extrapolation) : f.v(s.extrapolation), cur);
    }
  }
  if (!computeF32) return cur;
  if (FLOATS.has(elem)) return b.convert(cur, elem);
  // integers: saturate_cast rounds half to even and clamps to the type's range
  const info = elementType(elem);
  const hi = info.kind === 'uint' ? 2 ** info.bits - 1 : 2 ** (info.bits - 1) - 1;
  const lo = info.kind === 'uint' ? 0 : -(2 ** (info.bits - 1));
  const rounded = c.emit('Round', [cur], { mode: 'half_to_even' }, 1, 'opset5')[0]!;
  return b.convert(c.emit('Clamp', [rounded], { min: String(lo), max: String(hi) }, 1, 'opset1')[0]!, elem);
}

/** A per-output-index [out] (or [out, n]) tensor unsqueezed to broadcast along `axis` of the data. */
function trailing(c: ConvertContext, s: SeparableResize, axis: number, v: Value, extra = 0): Value {
  const n = s.rank - 1 - axis;
  if (n === 0) return v;
  return irBuilder(c).unsqueeze(v, Array.from({ length: n }, (_, i) => BigInt(1 + extra + i)));
}

/** Taps as i64 indices clamped into [0, in - 1]. */
function clampedIndices(c: ConvertContext, f: F32, taps: Value, inLen: Value): Value {
  return irBuilder(c).convert(f.min(f.max(taps, 0), f.sub(inLen, 1)), 'i64');
}

function nearestAxis(c: ConvertContext, f: F32, s: SeparableResize, data: Value, elem: ElementTypeName, axis: number, x: Value, inLen: Value): Value {
  const b = f.b;
  const tap = NEAREST[s.nearest]!(f, x);
  const out = b.gather(data, clampedIndices(c, f, tap, inLen), BigInt(axis));
  if (!s.excludeOutside) return out;
  // the one tap outside the input has weight 0 and the weights sum to 0: the reference gives 0
  const inside = trailing(c, s, axis, f.and(f.lessEq(0, tap), f.less(tap, inLen)));
  return b.select(inside, out, b.scalar(elem, 0));
}

function kernelAxis(c: ConvertContext, f: F32, s: SeparableResize, data: Value, axis: number, x: Value, a: AxisTerms): Value {
  const b = f.b;
  const kernel = KERNEL[s.mode as 'linear' | 'cubic'];
  const col = b.unsqueeze(x, [1n]); // [out, 1]
  let offsets: Value; // [n]: taps relative to floor(x)
  let stretch: Value | null = null;
  if (s.antialias) {
    // n = 2·ceil(support / min(scale, 1)) taps from floor(x) - n/2 + 1
    stretch = f.min(a.scale, 1);
    const half = f.ceil(f.div(kernel.support, stretch));
    const j = b.convert(b.range(b.convert(f.mul(half, 2), 'i64')), 'f32');
    offsets = f.sub(j, f.sub(half, 1));
  } else {
    offsets = c.constant(tensorFromFloat32(kernel.offsets));
  }
  const taps = f.add(f.floor(col), offsets); // [out, n]
  const dist = f.abs(f.sub(taps, col));
  let w = kernel.weight(f, stretch ? f.mul(dist, stretch) : dist, s.cubicA);
  if (s.antialias) w = f.div(w, f.sumLast(w));
  if (s.excludeOutside) {
    w = f.select(f.and(f.lessEq(0, taps), f.less(taps, a.inLen)), w, 0);
    const sum = f.sumLast(w);
    w = f.div(w, f.select(f.eq(sum, 0), 1, sum));
  }
  const gathered = b.gather(data, clampedIndices(c, f, taps, a.inLen), BigInt(axis)); // [..., out, n, ...]
  const weighted = b.mul(gathered, trailing(c, s, axis, w, 1));
  return c.emit('ReduceSum', [weighted, i64Const(c, [BigInt(axis + 1)])], { keep_dims: 'false' }, 1, 'opset1')[0]!;
}
