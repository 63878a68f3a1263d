import { attrBool } from '../../../graph/attr-read.js';
import { fromIrElementType } from '../../../graph/element-type.js';
import { isStatic, type Dim } from '../../../graph/shape.js';
import { normalizeAxes, ovNumpyBroadcast } from '../../broadcast.js';
import { dimRange, divDims, mergeDim, shapeProduct, sliceDim, solveMinusOne } from '../../dim.js';
import { out, type InferFn, type PartialValue, type Rule, type RuleContext } from '../../rule.js';
import { upTo } from './nn.js';
import { evaluateTile } from './evaluate.js';
import { concatShapes, concatValues, gatherShape, gatherValue, rangeLength, scalarOf, splitValue } from '../shared.js';
import { axisOr, broadcastOr, countText, intAttr, MAX_MATERIALIZED_RANK, intsAttr, shapeAsValue, shapeFromInput, strAttr } from '../common.js';

/**
 * OpenVINO data-movement and shape ops, after each op's validate_and_infer_types (shape_infer)
 * for its versions. Shape data flows as bounds (intervals), as OpenVINO's evaluate_lower/upper do.
 */

const mayBe1 = (d: Dim): boolean => { const [lo, hi] = dimRange(d); return lo <= 1 && hi >= 1; };

/** Squeeze-1 / Squeeze-15 (allow_axis_skip). */
const squeeze: InferFn = (c) => {
  const s = c.shape(0);
  if (s === null) return [out(c.elem(0), null)];
  if (!c.has(1)) {
    if (s.some((d) => !isStatic(d) && mayBe1(d))) return [out(c.elem(0), null)];
    return [out(c.elem(0), s.filter((d) => d !== 1), c.value(0))];
  }
  const axes = c.ints(1);
  if (axes === null) {
    // one axis unknown: the rank drops by one (OpenVINO gives every dim ?); several may repeat
    const n = c.shape(1);
    const count = n === null ? null : n.length === 0 ? 1 : n[0];
    return [out(c.elem(0), count === 1 && s.length > 0 ? Array.from({ length: s.length - 1 }, () => null) : null)];
  }
  const norm = normalizeAxes([...new Set(axes)], s.length);
  if (typeof norm === 'string') { c.error(norm); return [out(c.elem(0), null)]; }
  const skip = c.version >= 15 && attrBool(c.node, 'allow_axis_skip') === true;
  const dims: Dim[] = [];
  for (let i = 0; i < s.length; i++) {
    const d = s[i]!;
    if (!norm.includes(i)) { dims.push(d); continue; }
    if (d === 1) continue;
    if (isStatic(d) || !mayBe1(d)) {
      if (skip) { dims.push(d); continue; }
      c.error(`cannot squeeze axis ${i} of size ${JSON.stringify(d)}`);
      continue;
    }
    if (skip) return [out(c.elem(0), null)];
    // a dynamic dim on a squeezed axis must be 1 at run time
  }
  return [out(c.elem(0), dims, c.value(0))];
};

const unsqueeze: InferFn = (c) => {
  const s = c.shape(0);
  const axes = c.ints(1);
  if (s === null || axes === null) return [out(c.elem(0), null)];
  const uniq = [...new Set(axes)];
  const rank = s.length + uniq.length;
  const norm = normalizeAxes(uniq, rank);
  if (typeof norm === 'string') { c.error(norm); return [out(c.elem(0), null)]; }
  const dims: Dim[] = [];
  let k = 0;
  for (let i = 0; i < rank; i++) dims.push(norm.includes(i) ? 1 : s[k++]!);
  return [out(c.elem(0), dims, c.value(0))];
};

/**
 * Reshape-1: special_zero copies input dims for 0; one -1 solved from bounds. A dim copied by
 * special_zero is the input's own, so it cancels that input dim when -1 is solved (OpenVINO's
 * inference: [?, 3, 8, 24] by [0, -1] is [?, 576], as TensorFlow's frontend writes a flatten).
 */
const reshape: InferFn = (c) => {
  const target = shapeFromInput(c, 1);
  if (!target) return [out(c.elem(0), null)];
  const special = attrBool(c.node, 'special_zero') ?? false;
  const input = c.shape(0);
  const dims: Dim[] = [];
  const copied = new Set<number>();
  let minus = -1;
  target.dims.forEach((d, i) => {
    if (isStatic(d) && d === 0 && special) {
      if (input !== null && i < input.length) copied.add(i);
      dims.push(input === null || i >= input.length ? null : input[i]!);
    }
    else if (isStatic(d) && d === -1) { if (minus >= 0) c.error('more than one -1 in the target shape'); minus = i; dims.push(null); }
    else if (isStatic(d) && d < -1) { c.error(`invalid dimension ${d} in the target shape`); dims.push(null); }
    else dims.push(d);
  });
  if (minus >= 0 && input !== null) {
    const total = shapeProduct(input, true);
    const rest = shapeProduct(dims.filter((_, i) => i !== minus), true);
    if (isStatic(total) && isStatic(rest) && rest !== 0 && total % rest !== 0) c.error(`cannot reshape ${total} elements with ${countText(rest)} in the other dimensions`);
    dims[minus] = solveMinusOne(input.filter((_, i) => !copied.has(i)), dims.filter((_, i) => i !== minus && !copied.has(i)), true);
  } else if (minus < 0 && input !== null) {
    const a = shapeProduct(input, false);
    const b = shapeProduct(dims, false);
    if (isStatic(a) && isStatic(b) && a !== b) c.error(`cannot reshape ${a} elements into ${b}`);
  }
  return [out(c.elem(0), dims, c.value(0))];
};

const shapeOf: InferFn = (c) => {
  const s = c.shape(0);
  let elem = 'i64' as ReturnType<RuleContext['elem']>;
  if (c.version >= 3) {
    const t = fromIrElementType(strAttr(c, 'output_type', 'i64'));
    if (!t || (t.name !== 'i64' && t.name !== 'i32')) c.error(`output_type must be i64 or i32`);
    else elem = t.name;
  }
  return [out(elem, s === null ? [null] : [s.length], shapeAsValue(s))];
};

const concat: InferFn = (c) => {
  const shapes = Array.from({ length: c.numInputs }, (_, i) => c.shape(i));
  return [out(c.elem(0), concatShapes(c, shapes, intAttr(c, 'axis', 0), true), concatValues(c))];
};

function splitOutputs(c: RuleContext, sizes: (Dim | null)[] | null, axisInput: number) {
  const s = c.shape(0);
  const n = c.node.outputs.length;
  if (s === null) return c.node.outputs.map(() => out(c.elem(0), null));
  const axisV = c.ints(axisInput);
  if (!axisV) return c.node.outputs.map(() => out(c.elem(0), s.map(() => null)));
  const axis = axisOr(c, axisV[0]!, s.length);
  if (axis === undefined) return [];
  const parts = splitValue(c.value(0), s, sizes);
  return Array.from({ length: n }, (_, k) => out(c.elem(0), s.map((d, i) => (i === axis ? (sizes ? sizes[k] ?? null : null) : d)), parts?.[k] ?? null));
}

const split: InferFn = (c) => {
  const n = intAttr(c, 'num_splits', c.node.outputs.length);
  const s = c.shape(0);
  const axisV = c.ints(1);
  let sizes: Dim[] | null = null;
  if (s && axisV) {
    const axis = axisOr(c, axisV[0]!, s.length);
    if (axis !== undefined) {
      const d = s[axis]!;
      if (isStatic(d) && d % n !== 0) c.error(`dimension ${d} does not split into ${n} equal parts`);
      sizes = Array.from({ length: n }, () => divDims(d, n, true));
    }
  }
  return splitOutputs(c, sizes, 1);
};

const variadicSplit: InferFn = (c) => {
  const lengths = c.value(2);
  const s = c.shape(0);
  const axisV = c.ints(1);
  let sizes: Dim[] | null = lengths ? [...lengths] : null;
  if (sizes && s && axisV) {
    const axis = axisOr(c, axisV[0]!, s.length);
    const minus = sizes.findIndex((d) => d === -1);
    if (axis !== undefined && minus >= 0) {
      const rest = sizes.filter((_, i) => i !== minus).reduce<number | null>((a, d) => (a !== null && isStatic(d) ? a + d : null), 0);
      const d = s[axis]!;
      // OpenVINO gives the -1 part a size only when the split dim is static (an interval gives ?)
      sizes[minus] = rest !== null && isStatic(d) ? d - rest : null;
    }
  }
  return splitOutputs(c, sizes, 1);
};

const transpose: InferFn = (c) => {
  const s = c.shape(0);
  if (s === null) return [out(c.elem(0), null)];
  const order = c.ints(1);
  if (order === null) return [out(c.elem(0), s.map(() => null))];
  const perm = order.length === 0 ? s.map((_, i) => s.length - 1 - i) : order;
  const norm = normalizeAxes(perm, s.length);
  if (typeof norm === 'string' || perm.length !== s.length) { c.error(`order ${perm.join(',')} does not permute rank ${s.length}`); return [out(c.elem(0), s.map(() => null))]; }
  return [out(c.elem(0), norm.map((p) => s[p]!), transposeValue(c.value(0), s, norm))];
};

/** Known data of a Transpose of static dims, permuted (as constant folding gives). */
function transposeValue(v: PartialValue | null, s: readonly Dim[], perm: readonly number[]): PartialValue | null {
  if (!v || !s.every(isStatic)) return null;
  const dims = s as number[];
  if (v.length !== dims.reduce((p, d) => p * d, 1)) return null;
  const outDims = perm.map((p) => dims[p]!);
  const strides = dims.map((_, k) => dims.slice(k + 1).reduce((p, d) => p * d, 1));
  const res: Dim[] = [];
  for (let i = 0; i < v.length; i++) {
    let rest = i;
    let j = 0;
    for (let k = outDims.length - 1; k >= 0; k--) {
      const d = rest % outDims[k]!;
      rest = Math.floor(rest / outDims[k]!);
      j += d * strides[perm[k]!]!;
    }
    res.push(v[j]!);
  }
  return res;
}

const gather: InferFn = (c) => {
  const axisV = c.ints(2);
  const batch = c.version >= 7 ? intAttr(c, 'batch_dims', 0) : 0;
  if (!axisV) return [out(c.elem(0), null)];
  const idx = c.shape(1);
  const b = batch < 0 && idx ? batch + idx.length : batch;
  const shape = gatherShape(c, c.shape(0), c.shape(1), axisV[0]!, b);
  return [out(c.elem(0), shape, gatherValue(c.value(0), c.shape(0), c.ints(1), axisV[0]!))];
};

/** Broadcast-1 (numpy, explicit) and Broadcast-3 (adds bidirectional). */
const broadcast: InferFn = (c) => {
  const target = shapeFromInput(c, 1);
  const mode = strAttr(c, 'mode', 'numpy').toLowerCase();
  const data = c.shape(0);
  if (!target) return [out(c.elem(0), null)];
  if (mode === 'bidirectional') {
    const dims = broadcastOr(c, ovNumpyBroadcast(data, target.dims));
    return [out(c.elem(0), dims, broadcastValue(c.value(0), data, dims))];
  }
  if (mode === 'explicit' || data === null) return [out(c.elem(0), target.dims)];
  const t = target.dims;
  if (data.length > t.length) { c.error(`data rank ${data.length} exceeds target rank ${t.length}`); return [out(c.elem(0), t)]; }
  // numpy: the output is the target shape as known; the data's dims are only checked against it
  // (OpenVINO's validate_target_shape_numpy: a data dim of 2 under a target dim of ? stays ?)
  const off = t.length - data.length;
  data.forEach((d, i) => {
    const td = t[off + i]!;
    if (isStatic(d) && d === 1) return;
    if (mergeDim(td, d) === undefined && !(isStatic(td) && td === 1)) c.error(`data dim ${JSON.stringify(d)} cannot broadcast to ${JSON.stringify(td)} at axis ${off + i}`);
  });
  return [out(c.elem(0), t, broadcastValue(c.value(0), data, t))];
};

/** Known small data broadcast (numpy) to static `dims`: what constant folding of Broadcast gives. */
function broadcastValue(v: PartialValue | null, from: readonly Dim[] | null, dims: readonly Dim[] | null): PartialValue | null {
  if (!v || !from || !dims || !from.every(isStatic) || !dims.every(isStatic)) return null;
  const src = from as number[];
  const dst = dims as number[];
  const count = dst.reduce((p, d) => p * d, 1);
  if (count > 1024 || v.length !== src.reduce((p, d) => p * d, 1) || src.length > dst.length) return null;
  const off = dst.length - src.length;
  const out: Dim[] = [];
  for (let i = 0; i < count; i++) {
    let rest = i;
    let j = 0;
    let stride = 1;
    for (let k = dst.length - 1; k >= 0; k--) {
      const d = rest % dst[k]!;
      rest = Math.floor(rest / dst[k]!);
      if (k >= off) { const s = src[k - off]!; j += (s === 1 ? 0 : d) * stride; stride *= s; }
    }
    out.push(v[j]!);
  }
  return out;
}

const range: InferFn = (c) => {
  let elem = c.elem(0);
  if (c.version >= 4) {
    const t = fromIrElementType(strAttr(c, 'output_type', ''));
    if (!t) c.error('output_type is required'); else elem = t.name;
  }
  return [out(elem, [rangeLength(scalarOf(c, 0), scalarOf(c, 1), scalarOf(c, 2))])];
};

/** StridedSlice-1: begin/end/strides with begin/end/new_axis/shrink_axis/ellipsis masks. */
const stridedSlice: InferFn = (c) => {
  const s = c.shape(0);
  const bm = intsAttr(c, 'begin_mask') ?? [];
  const em = intsAttr(c, 'end_mask') ?? [];
  const nm = intsAttr(c, 'new_axis_mask') ?? [];
  const sm = intsAttr(c, 'shrink_axis_mask') ?? [];
  const el = intsAttr(c, 'ellipsis_mask') ?? [];
  let begin = c.value(1);
  let end = c.value(2);
  const strides = c.has(3) ? c.ints(3) : null;
  if (s === null) return [out(c.elem(0), null)];
  const n = Math.max(begin?.length ?? 0, end?.length ?? 0, c.shape(1)?.[0] as number ?? 0);
  // run-time bounds of a known count (x[i] in a TensorFlow loop body): the masks still decide the
  // rank and the axes they cover; an axis a run-time bound cuts is 0..d (OpenVINO 2026.4)
  const count = c.shape(1)?.length === 1 ? c.shape(1)![0]! : null;
  if ((!begin || !end) && isStatic(count) && count === n && count <= MAX_MATERIALIZED_RANK && (!c.has(3) || strides)) {
    begin ??= new Array<Dim>(n).fill(null);
    end ??= new Array<Dim>(n).fill(null);
  }
  if (!begin || !end || (c.has(3) && !strides)) {
    // bounds unknown: only the rank when no masks change it
    if ([...nm, ...sm, ...el].some((m) => m !== 0)) return [out(c.elem(0), null)];
    return [out(c.elem(0), s.map((d, i) => (i < n ? upTo(d) : d)))];
  }
  const dims: Dim[] = [];
  let k = 0;
  const newAfter = (i: number) => nm.slice(i + 1, n).filter((m) => m !== 0).length;
  for (let i = 0; i < n; i++) {
    if (nm[i]) { dims.push(1); continue; }
    if (el[i]) {
      const take = s.length - k - (n - i - 1 - newAfter(i));
      for (let j = 0; j < take; j++) dims.push(s[k++]!);
      continue;
    }
    if (k >= s.length) { c.error('more slice entries than input dimensions'); break; }
    const d = s[k++]!;
    const st = strides?.[i] ?? 1;
    if (st === 0) { c.error('stride 0'); dims.push(null); continue; }
    const b = begin[i]!;
    const e = end[i]!;
    if (sm[i]) continue;
    const bb = bm[i] ? (st > 0 ? 0 : -1) : b;
    const ee = em[i] ? (st > 0 ? Infinity : -Infinity) : e;
    if (!isStatic(bb) || !isStatic(ee)) { dims.push(upTo(d)); continue; }
    dims.push(sliceDim(bb, ee, st, d, true));
  }
  while (k < s.length) dims.push(s[k++]!);
  let value: PartialValue | null = null;
  const v = c.value(0);
  if (v && s.length === 1 && n === 1 && !nm[0] && !el[0] && isStatic(begin[0]!) && isStatic(end[0]!)) {
    const st = strides?.[0] ?? 1;
    const len = v.length;
    const norm = (x: number) => { const y = x < 0 ? x + len : x; return st > 0 ? Math.min(Math.max(y, 0), len) : Math.min(Math.max(y, -1), len - 1); };
    const from = bm[0] ? (st > 0 ? 0 : len - 1) : norm(begin[0] as number);
    const to = em[0] ? (st > 0 ? len : -1) : norm(end[0] as number);
    const picked: Dim[] = [];
    if (sm[0]) { if (from >= 0 && from < len) picked.push(v[from]!); }
    else for (let i = from; st > 0 ? i < to : i > to; i += st) picked.push(v[i]!);
    value = picked;
  }
  return [out(c.elem(0), dims, value)];
};

const tile: InferFn = (c) => {
  const s = c.shape(0);
  const reps = c.value(1) ?? shapeFromInput(c, 1)?.dims ?? null;
  if (s === null || reps === null) return [out(c.elem(0), null)];
  const rank = Math.max(s.length, reps.length);
  const pad = <T,>(xs: readonly T[], one: T) => [...Array.from({ length: rank - xs.length }, () => one), ...xs];
  const a = pad<Dim>(s, 1);
  const r = pad<Dim>(reps, 1);
  return [out(c.elem(0), a.map((d, i) => (isStatic(d) && isStatic(r[i]!) ? d * (r[i] as number) : null)), evaluateTile(c))];
};

export const ovMovementRules: Rule[] = [
  { dialect: 'ov', op: 'Squeeze', since: 1, infer: squeeze },
  { dialect: 'ov', op: 'Unsqueeze', since: 1, infer: unsqueeze },
  { dialect: 'ov', op: 'Reshape', since: 1, infer: reshape },
  { dialect: 'ov', op: 'ShapeOf', since: 1, infer: shapeOf },
  { dialect: 'ov', op: 'Concat', since: 1, infer: concat },
  { dialect: 'ov', op: 'Split', since: 1, infer: split },
  { dialect: 'ov', op: 'VariadicSplit', since: 1, infer: variadicSplit },
  { dialect: 'ov', op: 'Transpose', since: 1, infer: transpose },
  { dialect: 'ov', op: 'Gather', since: 1, infer: gather },
  { dialect: 'ov', op: 'Broadcast', since: 1, infer: broadcast },
  { dialect: 'ov', op: 'Range', since: 1, infer: range },
  { dialect: 'ov', op: 'StridedSlice', since: 1, infer: stridedSlice },
  { dialect: 'ov', op: 'Tile', since: 1, infer: tile },
];
