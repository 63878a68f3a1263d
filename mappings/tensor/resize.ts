import { A, type Attr } from '../../src/graph/attr.js';
import { makeTensor, tensorFromFloat32 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { asI64Vector, i64Const, normAxis } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { separableAccepts, separableResize, SEPARABLE_TRANSFORMS, type KnownAxis } from './resize-separable.js';

/**
 * Resize / Upsample ⇄ Interpolate-11, as OpenVINO's ONNX frontend relates them.
 *
 * Interpolate-11 takes (data, scales_or_sizes, axes?) with shape_calculation_mode naming which of
 * the two input 1 is; ONNX Resize takes (X, roi, scales, sizes) and uses whichever is given.
 *   mode:   nearest = nearest, linear = linear_onnx, cubic = cubic (IR linear / *_pillow: no ONNX form)
 *   coordinate_transformation_mode: the same five names; nearest_mode: the same four names;
 *   cubic_coeff_a = cube_coeff; antialias (18+) = antialias; axes (18+) = the axes input.
 * Upsample-7/9 and Resize-10 are asymmetric: nearest picks floor(x) upsampling and ceil(x)
 * downsampling (IR nearest_mode `simple`), linear is linear_onnx.
 * keep_aspect_ratio_policy not_larger / not_smaller: one common scale computed at conversion (aspectScales).
 * Where Interpolate computes otherwise (interpolateDiffers: tf_crop_and_resize, half_pixel_symmetric,
 * exclude_outside, antialias on an axis that may shrink, align_corners by scales whose scale · in
 * may not be whole, keep_aspect_ratio_policy Interpolate does not round alike) Resize-11+ is the
 * separable resize by gathers of resize-separable.ts. Not expressible, refused: IR pads.
 */

const MODES: ReadonlyArray<readonly [string, string]> = [['nearest', 'nearest'], ['linear', 'linear_onnx'], ['cubic', 'cubic']];
const TRANSFORMS = ['half_pixel', 'pytorch_half_pixel', 'align_corners', 'asymmetric', 'tf_half_pixel_for_nn'];
const NEAREST = ['round_prefer_floor', 'round_prefer_ceil', 'floor', 'ceil'];
const CUBIC_A = -0.75;

const irMode = (onnx: string): string | undefined => MODES.find(([o]) => o === onnx)?.[1];
const onnxMode = (ir: string): string | undefined => MODES.find(([, i]) => i === ir)?.[0];

/** A source input that is absent, or a constant with no elements (ONNX's "not given" before opset 13). */
function absent(c: ConvertContext, i: number): boolean {
  if (i >= c.numInputs || !c.input(i)) return true;
  const t = c.type(i);
  return t?.kind === 'tensor' && t.shape !== null && t.shape.some((d) => d === 0);
}

interface Interp { mode: string; ctm: string; nearest: string; antialias: boolean; cubeCoeff: number }

function interpolate(c: ConvertContext, a: Interp, sizesOrScales: Value, sizes: boolean, axes: Value | null): void {
  const attrs: Record<string, string> = {
    mode: a.mode,
    shape_calculation_mode: sizes ? 'sizes' : 'scales',
    coordinate_transformation_mode: a.ctm,
    nearest_mode: a.nearest,
    antialias: a.antialias ? 'true' : 'false',
    pads_begin: '0',
    pads_end: '0',
    cube_coeff: String(a.cubeCoeff),
  };
  const ins = axes ? [c.input(0), sizesOrScales, axes] : [c.input(0), sizesOrScales];
  c.output(0, c.emit('Interpolate', ins, attrs, 1, 'opset11')[0]!);
}

/** Why Resize-11+ needs the separable path (resize-separable.ts): Interpolate computes otherwise, or null. */
function interpolateDiffers(c: ConvertContext, a: { mode: string; ctm: string; antialias: boolean; excludeOutside: boolean; bySizes: boolean; axes: readonly bigint[] | undefined }): string | null {
  if (!TRANSFORMS.includes(a.ctm)) return `coordinate_transformation_mode ${a.ctm} (OpenVINO Interpolate has ${TRANSFORMS.join(', ')})`;
  if (a.excludeOutside) return 'exclude_outside = 1 (OpenVINO Interpolate always weighs samples outside the tensor)';
  // antialias filters only what shrinks; OpenVINO Interpolate filters otherwise (measured)
  if (a.antialias && !neverShrinks(c, a.bySizes, a.axes)) return 'antialias = 1 on an axis that may shrink (OpenVINO Interpolate filters otherwise, measured)';
  // align_corners divides by scale · in - 1, which OpenVINO rounds to the output length
  if (a.ctm === 'align_corners' && !a.bySizes && !integralWidths(c, a.axes)) return 'align_corners by scales whose scale · in is not known to be whole (OpenVINO Interpolate uses the output length)';
  return null;
}

/** Whether scale · in is a whole number on every resized axis (constant scales, static dims). */
function integralWidths(c: ConvertContext, ax: readonly bigint[] | undefined): boolean {
  const scales = c.constNumbers(2);
  const t = c.type(0);
  const dims = t?.kind === 'tensor' ? t.shape : null;
  if (!scales || !dims) return false;
  const axes = ax ? ax.map((a) => normAxis(a, dims.length)) : dims.map((_, i) => i);
  return axes.every((a, k) => { const d = dims[a]; return typeof d === 'number' && Number.isInteger(Math.fround(scales[k]!) * d); });
}

/** Whether no resized axis shrinks: constant scales ≥ 1, or constant sizes ≥ static dims. */
function neverShrinks(c: ConvertContext, bySizes: boolean, ax: readonly bigint[] | undefined): boolean {
  const t = c.type(0);
  const dims = t?.kind === 'tensor' ? t.shape : null;
  if (!bySizes) return c.constNumbers(2)?.every((v) => v >= 1) ?? false;
  const sizes = c.constInts(3);
  if (!sizes || !dims) return false;
  const axes = ax ? ax.map((a) => normAxis(a, dims.length)) : dims.map((_, i) => i);
  return axes.every((a, k) => { const d = dims[a]; return typeof d === 'number' && sizes[k] !== undefined && Number(sizes[k]) >= d; });
}

/** Resize-11+ → Interpolate-11 where it computes what ONNX does, else the separable resize. */
function resizeToIr(c: ConvertContext): void {
  const m = c.attr.string('mode') ?? 'nearest';
  const mode = irMode(m);
  if (!mode) { c.unsupportedAttr('mode', m); return; }
  const ctm = c.attr.string('coordinate_transformation_mode') ?? 'half_pixel';
  if (!SEPARABLE_TRANSFORMS.includes(ctm)) { c.unsupportedAttr('coordinate_transformation_mode', ctm, `ONNX Resize has ${SEPARABLE_TRANSFORMS.join(', ')}`); return; }
  const nearest = c.attr.string('nearest_mode') ?? 'round_prefer_floor';
  if (!NEAREST.includes(nearest)) { c.unsupportedAttr('nearest_mode', nearest); return; }
  const excludeOutside = (c.attr.int('exclude_outside') ?? 0n) !== 0n;
  const policy = c.attr.string('keep_aspect_ratio_policy') ?? 'stretch';
  const bySizes = !absent(c, 3);
  const keepAspect = policy !== 'stretch' && bySizes;
  if (keepAspect && policy !== 'not_larger' && policy !== 'not_smaller') { c.unsupportedAttr('keep_aspect_ratio_policy', policy); return; }
  const src = bySizes ? 3 : 2;
  if (!bySizes && absent(c, 2)) { c.error('Resize needs scales or sizes'); return; }
  const ax = c.attr.ints('axes');
  const antialias = (c.attr.int('antialias') ?? 0n) !== 0n && mode !== 'nearest';
  const how = { mode, ctm, nearest, antialias, cubeCoeff: c.attr.float('cubic_coeff_a') ?? CUBIC_A };
  const differs = interpolateDiffers(c, { mode, ctm, antialias, excludeOutside, bySizes, axes: ax });
  const scales = keepAspect && !differs ? aspectScales(c, policy === 'not_larger', ax) : null;
  if (differs || (keepAspect && !scales)) {
    separable(c, { ...how, mode: m as 'nearest' | 'linear' | 'cubic', excludeOutside, bySizes, aspect: keepAspect ? policy as 'not_larger' | 'not_smaller' : undefined, ax }, differs ?? `keep_aspect_ratio_policy ${policy} with sizes OpenVINO Interpolate does not round as ONNX`);
    return;
  }
  let axes: Value | null = null;
  if (ax) {
    const r = c.rank(0);
    if (r === null && ax.some((a) => a < 0n)) { c.error('negative axes need the rank of X to be known'); return; }
    axes = i64Const(c, ax.map((a) => BigInt(r === null ? Number(a) : normAxis(a, r))));
  }
  if (scales) { interpolate(c, how, c.constant(tensorFromFloat32(scales)), false, axes); return; }
  interpolate(c, how, c.input(src)!, bySizes, axes);
}

interface SeparableChoice { mode: 'nearest' | 'linear' | 'cubic'; ctm: string; nearest: string; antialias: boolean; cubeCoeff: number; excludeOutside: boolean; bySizes: boolean; aspect: 'not_larger' | 'not_smaller' | undefined; ax: readonly bigint[] | undefined }

/** The separable resize (resize-separable.ts), or a diagnostic naming why neither form converts. */
function separable(c: ConvertContext, a: SeparableChoice, why: string): void {
  const rank = c.rank(0);
  const elem = c.elem(0);
  if (rank === null || elem === null) { c.error(`Resize with ${why} is written as a separable resize by gathers, which needs the rank and element type of X`); return; }
  if (!separableAccepts(a.mode, elem)) { c.error(`Resize with ${why} is written as a separable resize by gathers, which computes ${a.mode} for float and 8/16-bit integer X only (X is ${elem})`); return; }
  const axes = a.ax ? a.ax.map((v) => normAxis(v, rank)) : Array.from({ length: rank }, (_, i) => i);
  if (axes.some((v) => v < 0 || v >= rank) || new Set(axes).size !== axes.length) { c.unsupportedAttr('axes', a.ax!.join(','), `must be distinct axes of X (rank ${rank})`); return; }
  let roi: Value | null = null;
  if (a.ctm === 'tf_crop_and_resize') {
    if (absent(c, 1)) { c.error('coordinate_transformation_mode tf_crop_and_resize needs roi'); return; }
    roi = c.elem(1) === 'f32' ? c.input(1)! : c.emit('Convert', [c.input(1)], { destination_type: 'f32' }, 1, 'opset1')[0]!;
  }
  const operand = a.bySizes
    ? { kind: 'sizes' as const, v: c.input(3)!, ...(a.aspect ? { aspect: a.aspect } : {}) }
    : { kind: 'scales' as const, v: scalesF32(c, 2) };
  c.output(0, separableResize(c, c.input(0)!, elem, {
    mode: a.mode, ctm: a.ctm, nearest: a.nearest, cubicA: a.cubeCoeff, excludeOutside: a.excludeOutside, antialias: a.antialias,
    extrapolation: c.attr.float('extrapolation_value') ?? 0, rank, axes, operand, roi, identity: identityAxes(c, a, axes), known: knownAxes(c, a, axes),
  }));
}

/**
 * Scale, output length and width of the axes whose dim is static and whose scale or size is a
 * constant, in doubles as onnx's reference computes them (keep_aspect_ratio_policy: every resized
 * dim static and the sizes constant).
 */
function knownAxes(c: ConvertContext, a: SeparableChoice, axes: readonly number[]): Map<number, KnownAxis> {
  const out = new Map<number, KnownAxis>();
  const t = c.type(0);
  const dims = t?.kind === 'tensor' ? t.shape : null;
  if (!dims) return out;
  const scales = a.bySizes ? null : c.constNumbers(2);
  const sizes = a.bySizes ? c.constInts(3) : null;
  let common: number | null = null;
  if (a.aspect) {
    const ins = axes.map((v) => dims[v]);
    if (!sizes || sizes.length !== axes.length || !ins.every((d): d is number => typeof d === 'number' && d > 0)) return out;
    const ratios = ins.map((d, k) => Number(sizes[k]!) / d);
    common = a.aspect === 'not_larger' ? Math.min(...ratios) : Math.max(...ratios);
  }
  for (const [k, axis] of axes.entries()) {
    const d = dims[axis];
    if (typeof d !== 'number' || d <= 0) continue;
    if (common !== null) out.set(axis, { scale: common, out: Math.floor(common * d + 0.5), width: common * d });
    else if (scales && scales[k] !== undefined) { const sc = Math.fround(scales[k]!); out.set(axis, { scale: sc, out: Math.floor(sc * d), width: sc * d }); }
    else if (sizes && sizes[k] !== undefined) { const n = Number(sizes[k]); out.set(axis, { scale: n / d, out: n, width: n }); }
  }
  return out;
}

/**
 * Axes the separable resize skips: known at conversion time to map every output index onto itself
 * (scale 1 or a size equal to the static dim, a roi of [0, 1] for tf_crop_and_resize).
 */
function identityAxes(c: ConvertContext, a: SeparableChoice, axes: readonly number[]): Set<number> {
  const out = new Set<number>();
  if (a.aspect) return out;
  const t = c.type(0);
  const dims = t?.kind === 'tensor' ? t.shape : null;
  const scales = a.bySizes ? null : c.constNumbers(2);
  const sizes = a.bySizes ? c.constInts(3) : null;
  const roi = a.ctm === 'tf_crop_and_resize' ? c.constNumbers(1) : null;
  for (const [k, axis] of axes.entries()) {
    const same = scales ? Math.fround(scales[k]!) === 1 : sizes !== null && dims !== null && dims[axis] === Number(sizes[k]);
    const whole = a.ctm !== 'tf_crop_and_resize' || (roi !== null && roi[k] === 0 && roi[k + axes.length] === 1);
    if (same && whole) out.add(axis);
  }
  return out;
}

/**
 * keep_aspect_ratio_policy not_larger / not_smaller (Resize-18): one scale for every resized axis,
 * the least (not_larger) or greatest (not_smaller) of sizes[i] / in[i], and output sizes
 * round_half_up(scale · in[i]); the scale also maps the coordinates. Interpolate in `scales` mode
 * computes the same when its floor(in · scale + 1e-5) gives those sizes, which needs constant sizes
 * and static input dims: the scales (one per resized axis), else null (the separable resize does it).
 */
function aspectScales(c: ConvertContext, notLarger: boolean, ax: readonly bigint[] | undefined): number[] | null {
  const sizes = c.constInts(3);
  const t = c.type(0);
  const dims = t?.kind === 'tensor' ? t.shape : null;
  if (!sizes || !dims) return null;
  const axes = ax ? ax.map((a) => normAxis(a, dims.length)) : dims.map((_, i) => i);
  const ins = axes.map((a) => dims[a]);
  if (sizes.length !== axes.length || !ins.every((d): d is number => typeof d === 'number' && d > 0)) return null;
  const ratios = ins.map((d, k) => Number(sizes[k]!) / d);
  const exactScale = notLarger ? Math.min(...ratios) : Math.max(...ratios);
  const scale = Math.fround(exactScale);
  const wanted = ins.map((d) => Math.floor(d * exactScale + 0.5));
  if (!ins.every((d, k) => Math.floor(d * scale + 1e-5) === wanted[k])) return null;
  return ins.map(() => scale);
}

/** Upsample-7/9, Resize-10 → Interpolate-11 (asymmetric; nearest `simple`). */
function legacyToIr(c: ConvertContext): void {
  const m = c.attr.string('mode') ?? 'nearest';
  const mode = irMode(m === 'bilinear' ? 'linear' : m);
  if (!mode || mode === 'cubic') { c.unsupportedAttr('mode', m, 'nearest or linear'); return; }
  let scales = c.input(1);
  const attr = c.attr.floats('scales');
  if (c.node.op === 'Upsample' && c.opset < 9) {
    if (!attr) { c.error('Upsample before opset 9 needs the scales attribute'); return; }
    scales = c.constant(tensorFromFloat32(attr));
  }
  if (!scales) { c.error(`${c.node.op} needs scales`); return; }
  interpolate(c, { mode, ctm: 'asymmetric', nearest: 'simple', antialias: false, cubeCoeff: CUBIC_A }, scales, false, null);
}

/**
 * The Interpolate attributes every ONNX form needs, or null after a diagnostic. `axes`: the input
 * that holds them (4, 11), or their values (the attribute of Interpolate-1).
 */
interface FromIr { mode: string; ctm: string; nearest: string; antialias: boolean; cubeCoeff: number; sizes: boolean; data: number; axes: number | readonly bigint[] | null }

/** The axes an Interpolate resizes, when known; null (after a diagnostic, with `need`) otherwise. */
function axesOf(c: ConvertContext, r: FromIr, need: boolean): readonly bigint[] | null {
  if (r.axes === null || typeof r.axes !== 'number') return r.axes;
  const axes = c.constInts(r.axes);
  if (axes === null && need) c.needsConstant(r.axes, 'axes');
  return axes;
}

/**
 * Interpolate-1 (target_spatial_shape for the `axes` attribute) as the Interpolate-4 OpenVINO
 * itself runs it (its ConvertInterpolate1ToInterpolate4 transformation): sizes, nearest_mode
 * simple, cube_coeff -0.75; linear as linear_onnx; coordinates align_corners when align_corners
 * (default true), else half_pixel for linear without pads unless a rank-4 input is resized over
 * axes {2, 3} exactly (asymmetric then), else asymmetric. `area` has no ONNX form.
 */
function readInterpolate1(c: ConvertContext): FromIr | null {
  const mIr = (c.attr.string('mode') ?? '').trim().toLowerCase();
  const mode = mIr === 'nearest' ? 'nearest' : mIr === 'linear' || mIr === 'linear_onnx' ? 'linear' : mIr === 'cubic' ? 'cubic' : null;
  if (!mode) { c.unsupportedAttr('mode', mIr, 'ONNX Resize has nearest, linear and cubic'); return null; }
  const axes = c.attr.ints('axes');
  if (!axes) { c.error("attribute 'axes' is required"); return null; }
  const pads = [...(c.attr.ints('pads_begin') ?? []), ...(c.attr.ints('pads_end') ?? [])];
  if (pads.some((p) => p !== 0n)) { c.unsupportedAttr('pads_begin/pads_end', pads.join(','), 'ONNX Resize does not pad'); return null; }
  const rank = c.rank(0);
  if (rank === null) { c.error('Interpolate-1 needs the rank of its data (OpenVINO converts it to Interpolate-4 by it)'); return null; }
  const nchw = rank === 4 && axes.length === 2 && new Set(axes.map(Number)).size === 2 && axes.every((a) => a === 2n || a === 3n);
  const ctm = (c.attr.bool('align_corners') ?? true) ? 'align_corners' : mode === 'linear' && !nchw ? 'half_pixel' : 'asymmetric';
  return { mode, ctm, nearest: 'simple', antialias: c.attr.bool('antialias') ?? false, cubeCoeff: CUBIC_A, sizes: true, data: 1, axes };
}

function readInterpolate(c: ConvertContext): FromIr | null {
  const v = Number(c.node.version.replace(/^opset/, ''));
  if (v === 1) return readInterpolate1(c);
  const mIr = (c.attr.string('mode') ?? '').trim().toLowerCase();
  const mode = onnxMode(mIr);
  if (!mode) { c.unsupportedAttr('mode', mIr, 'ONNX Resize has nearest, linear (= linear_onnx) and cubic'); return null; }
  const ctm = (c.attr.string('coordinate_transformation_mode') ?? 'half_pixel').trim().toLowerCase();
  if (!TRANSFORMS.includes(ctm)) { c.unsupportedAttr('coordinate_transformation_mode', ctm); return null; }
  const nearest = (c.attr.string('nearest_mode') ?? 'round_prefer_floor').trim().toLowerCase();
  if (mode === 'nearest' && !NEAREST.includes(nearest) && nearest !== 'simple') { c.unsupportedAttr('nearest_mode', nearest); return null; }
  const pads = [...(c.attr.ints('pads_begin') ?? []), ...(c.attr.ints('pads_end') ?? [])];
  if (pads.some((p) => p !== 0n)) { c.unsupportedAttr('pads_begin/pads_end', pads.join(','), 'ONNX Resize does not pad'); return null; }
  const sizes = (c.attr.string('shape_calculation_mode') ?? 'sizes').trim().toLowerCase() === 'sizes';
  const data = v >= 11 ? 1 : sizes ? 1 : 2;
  const axesAt = v >= 11 ? 2 : 3;
  const axes = c.numInputs > axesAt && c.input(axesAt) ? axesAt : null;
  return { mode, ctm, nearest, antialias: c.attr.bool('antialias') ?? false, cubeCoeff: c.attr.float('cube_coeff') ?? CUBIC_A, sizes, data, axes };
}

/**
 * Scales or sizes over every dim of X, or `axes` for opset 18's attribute. Scales over some axes
 * become full-rank scales (1 elsewhere); sizes over some axes need static dims elsewhere.
 */
function fullRank(c: ConvertContext, r: FromIr): { operand: Value; axes: bigint[] | null } | null {
  const rank = c.rank(0);
  const operand = (): Value => (r.sizes ? asI64Vector(c, r.data)! : scalesF32(c, r.data));
  if (r.axes === null) return { operand: operand(), axes: null };
  const axes = axesOf(c, r, true);
  if (axes === null) return null;
  if (rank !== null && axes.length === rank && axes.every((a, i) => normAxis(a, rank) === i)) return { operand: operand(), axes: null };
  if (c.opset >= 18) return { operand: operand(), axes: [...axes] };
  const norm = rank === null ? axes : axes.map((a) => BigInt(normAxis(a, rank)));
  if (rank !== null && norm.every((a) => a >= 0n)) {
    // Constant operands widen to constants.
    if (r.sizes) {
      const sz = c.constInts(r.data);
      const t = c.type(0);
      const dims = t?.kind === 'tensor' ? t.shape : null;
      if (sz !== null && dims && dims.every((d, i) => norm.includes(BigInt(i)) || typeof d === 'number')) {
        const full = dims.map((d, i) => { const k = norm.indexOf(BigInt(i)); return k >= 0 ? sz[k]! : BigInt(d as number); });
        return { operand: i64Const(c, full), axes: null };
      }
    } else {
      const sc = c.constNumbers(r.data);
      if (sc !== null) {
        const full = Array.from({ length: rank }, (_, i) => { const k = norm.indexOf(BigInt(i)); return k >= 0 ? Number(sc[k]) : 1; });
        return { operand: c.constant(tensorFromFloat32(full)), axes: null };
      }
    }
  }
  // Otherwise written into the full-rank operand at run time: sizes into Shape(X), scales into ones.
  if (rank === null && axes.some((a) => a < 0n)) { c.error('negative Interpolate axes need the rank of data (or --opset 18, where Resize has axes)'); return null; }
  let base: Value;
  if (r.sizes) base = c.emit('Shape', [c.input(0)])[0]!;
  else if (rank !== null) base = c.constant(tensorFromFloat32(new Array<number>(rank).fill(1)));
  else {
    const shape = c.emit('Shape', [c.input(0)])[0]!;
    base = c.emit('ConstantOfShape', [c.emit('Shape', [shape])[0]!], { value: A.tensor(tensorFromFloat32([1])) })[0]!;
  }
  const full = c.emit('ScatterElements', [base, i64Const(c, norm), operand()], { axis: A.int(0) })[0]!;
  return { operand: full, axes: null };
}

/** ONNX scales are float32. */
function scalesF32(c: ConvertContext, i: number): Value {
  if (c.elem(i) === 'f32') return c.input(i)!;
  const v = c.constNumbers(i);
  if (v !== null) return c.constant(tensorFromFloat32(v.map(Number)));
  return c.emit('Cast', [c.input(i)], { to: A.int(1) })[0]!;
}

const EMPTY_F32 = makeTensor('f32', [0], new Uint8Array(0));

/**
 * Per-axis scales of an Interpolate when they are known: constant scales, or constant sizes over
 * static input dims (axes not listed scale by 1); null otherwise.
 */
function knownScales(c: ConvertContext, r: FromIr): number[] | null {
  const t = c.type(0);
  const dims = t?.kind === 'tensor' ? t.shape : null;
  if (!dims) return null;
  const axes = r.axes === null ? dims.map((_, i) => BigInt(i)) : axesOf(c, r, false);
  if (axes === null) return null;
  const scales: number[] = dims.map(() => 1);
  const sizes = r.sizes ? c.constInts(r.data) : null;
  const given = r.sizes ? null : c.constNumbers(r.data);
  for (const [k, a] of axes.entries()) {
    const i = normAxis(a, dims.length);
    const d = dims[i];
    if (sizes) { if (typeof d !== 'number' || d === 0 || sizes[k] === undefined) return null; scales[i] = Number(sizes[k]) / d; }
    else if (given && given[k] !== undefined) scales[i] = given[k]!;
    else return null;
  }
  return scales;
}

/**
 * IR nearest_mode `simple` (OpenVINO: ceil(x) on an axis that shrinks, the integer part of x
 * otherwise) as an ONNX nearest_mode: `floor` where no axis shrinks (x < 0 differs from floor only
 * before the first pixel, which both clamp to 0), `ceil` where no axis grows (at scale 1 both
 * rounding rules give x itself), else null.
 */
function simpleNearestAs(c: ConvertContext, r: FromIr): 'floor' | 'ceil' | null {
  const scales = knownScales(c, r);
  if (!scales) return null;
  if (scales.every((s) => s >= 1)) return 'floor';
  if (scales.every((s) => s <= 1)) return 'ceil';
  return null;
}

/** Interpolate-4/11 → Resize-11+. */
function interpolateToResize(c: ConvertContext): void {
  const r = readInterpolate(c);
  if (!r) return;
  if (r.mode === 'nearest' && r.nearest === 'simple') {
    const as = simpleNearestAs(c, r);
    if (!as) { c.unsupportedAttr('nearest_mode', 'simple', 'ONNX Resize-11+ has no such rounding where the scales are unknown or some axes grow and others shrink (Resize-10 / Upsample do, with asymmetric coordinates)'); return; }
    r.nearest = as;
  }
  if (r.antialias && r.mode !== 'nearest' && c.opset < 18) { c.unsupportedAttr('antialias', 'true', 'ONNX Resize has antialias from opset 18 (use --opset 18 or later)', 18); return; }
  const f = fullRank(c, r);
  if (!f) return;
  const attrs = new Map<string, Attr>();
  if (r.mode !== 'nearest') attrs.set('mode', A.string(r.mode));
  if (r.ctm !== 'half_pixel') attrs.set('coordinate_transformation_mode', A.string(r.ctm));
  if (r.mode === 'nearest' && r.nearest !== 'round_prefer_floor') attrs.set('nearest_mode', A.string(r.nearest));
  if (r.mode === 'cubic' && Math.fround(r.cubeCoeff) !== Math.fround(CUBIC_A)) attrs.set('cubic_coeff_a', A.float(r.cubeCoeff));
  if (r.antialias && r.mode !== 'nearest') attrs.set('antialias', A.int(1));
  if (f.axes) attrs.set('axes', A.ints(f.axes));
  const none = c.opset >= 13 ? null : c.constant(EMPTY_F32);
  const ins = r.sizes ? [c.input(0), none, none, f.operand] : [c.input(0), none, f.operand];
  c.output(0, c.emit('Resize', ins, attrs)[0]!);
}

/** Interpolate-4/11 → Upsample-7/9 or Resize-10: asymmetric, scales, nearest `simple` or linear. */
function interpolateToLegacy(c: ConvertContext): void {
  const r = readInterpolate(c);
  if (!r) return;
  const op = c.opset >= 10 ? 'Resize' : 'Upsample';
  const legacy = r.ctm === 'asymmetric' && !r.sizes && !r.antialias && (r.mode === 'linear' || (r.mode === 'nearest' && r.nearest === 'simple'));
  if (!legacy) {
    c.error(`ONNX ${op}-${c.opset} computes only asymmetric nearest (simple rounding) or linear interpolation by scales; this Interpolate (${r.mode}, ${r.ctm}, ${r.sizes ? 'sizes' : 'scales'}) needs --opset 11 or later`);
    return;
  }
  const f = fullRank(c, r);
  if (!f) return;
  if (f.axes) { c.error(`ONNX ${op}-${c.opset} has no axes (use --opset 18 or later)`); return; }
  const attrs = new Map<string, Attr>();
  if (r.mode !== 'nearest') attrs.set('mode', A.string(r.mode));
  if (c.opset < 9) {
    const sc = fullScales(f.operand) ?? c.constNumbers(r.data)?.map(Number) ?? null;
    if (sc === null) { c.needsConstant(r.data, 'scales, an Upsample attribute before opset 9'); return; }
    attrs.set('scales', A.floats(sc));
    c.output(0, c.emit(op, [c.input(0)], attrs)[0]!);
    return;
  }
  c.output(0, c.emit(op, [c.input(0), f.operand], attrs)[0]!);
}

function fullScales(v: Value): number[] | null {
  const t = v.constant;
  if (!t || t.elem !== 'f32') return null;
  return Array.from(new Float32Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength)));
}

const RESIZE_ONNX = ['mode', 'coordinate_transformation_mode', 'nearest_mode', 'cubic_coeff_a', 'exclude_outside', 'extrapolation_value', 'antialias', 'axes', 'keep_aspect_ratio_policy'];
// axes and align_corners: Interpolate-1's
const INTERPOLATE_IR = ['mode', 'shape_calculation_mode', 'coordinate_transformation_mode', 'nearest_mode', 'antialias', 'pads_begin', 'pads_end', 'cube_coeff', 'axes', 'align_corners'];

export const RESIZE: readonly OpMapping[] = [
  {
    onnx: { op: 'Resize', since: 11 },
    ir: { op: 'Interpolate', version: 'opset11', reads: ['opset4', 'opset1'] },
    handles: { onnx: RESIZE_ONNX, ir: INTERPOLATE_IR },
    note: 'sizes or scales by shape_calculation_mode; what Interpolate computes otherwise (tf_crop_and_resize with roi, half_pixel_symmetric, exclude_outside, antialias shrinking, align_corners by scales, keep_aspect_ratio_policy by run-time sizes) is a separable resize by Gather/ReduceSum per axis',
    toIr: resizeToIr,
    toOnnx: interpolateToResize,
  },
  {
    onnx: { op: 'Resize', since: 10, until: 10 },
    ir: { op: 'Interpolate', version: 'opset11', reads: ['opset4', 'opset1'] },
    handles: { onnx: ['mode'], ir: INTERPOLATE_IR },
    note: 'asymmetric coordinates; nearest rounds as IR nearest_mode simple',
    toIr: legacyToIr,
    toOnnx: interpolateToLegacy,
  },
  {
    onnx: { op: 'Upsample', since: 7, until: 9 },
    ir: { op: 'Interpolate', version: 'opset11', reads: ['opset4', 'opset1'] },
    handles: { onnx: ['mode', 'scales'], ir: INTERPOLATE_IR },
    note: 'scales attribute (7) or input (9); asymmetric coordinates, nearest rounds as IR nearest_mode simple',
    toIr: legacyToIr,
    toOnnx: interpolateToLegacy,
  },
];
