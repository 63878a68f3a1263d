import { attrInt } from '../../../graph/attr-read.js';
import { fromOnnxDataType, type ElementTypeName } from '../../../graph/element-type.js';
import { isStatic, type Dim } from '../../../graph/shape.js';
import { normalizeAxes, onnxBroadcast } from '../../broadcast.js';
import { mulDims, shapeProduct, sliceDim, solveMinusOne } from '../../dim.js';
import { partialFromTensor, toDimNumber } from '../../partial.js';
import { out, type InferFn, type PartialValue, type Rule, type RuleContext } from '../../rule.js';
import { axisOr, broadcastOr, convertedIntData, countText, intAttr, intsAttr, shapeAsValue, shapeFromInput } from '../common.js';
import { concatShapes, concatValues, gatherShape, gatherValue, rangeLength, scalarOf, splitValue } from '../shared.js';

/**
 * ONNX tensor-manipulation ops (onnx/defs/tensor), each following onnx's shape inference for
 * its opsets, with data propagation (Shape, Gather, Concat, Slice, Squeeze, Unsqueeze, Cast…)
 * so that shape computations give static shapes, as onnx's data_prop does.
 */

const constant: InferFn = (c) => {
  const a = (n: string) => c.node.attrs.get(n);
  const t = a('value');
  if (t && t.type === 'tensor') return [out(t.value.elem, t.value.dims, partialFromTensor(t.value))];
  const vi = a('value_int'); if (vi && vi.type === 'int') return [out('i64', [], [toDimNumber(vi.value)])];
  const vis = a('value_ints'); if (vis && vis.type === 'ints') return [out('i64', [vis.value.length], vis.value.map(toDimNumber))];
  const vf = a('value_float'); if (vf) return [out('f32', [])];
  const vfs = a('value_floats'); if (vfs && vfs.type === 'floats') return [out('f32', [vfs.value.length])];
  const vs = a('value_string'); if (vs) return [out('string', [])];
  const vss = a('value_strings'); if (vss && vss.type === 'strings') return [out('string', [vss.value.length])];
  c.error('Constant has none of value, value_float(s), value_int(s), value_string(s) (sparse_value is not inferred)');
  return [];
};

const castTo = (c: RuleContext): ElementTypeName => {
  const code = attrInt(c.node, 'to');
  const t = code === undefined ? undefined : fromOnnxDataType(Number(code));
  if (!t) { c.error(`unknown target type to=${code}`); return 'dynamic'; }
  return t.name;
};
const isIntLike = (e: ElementTypeName) => ['i64', 'i32', 'i16', 'i8', 'u8', 'u16', 'u32', 'u64'].includes(e);
const cast: InferFn = (c) => {
  const to = castTo(c);
  return [out(to, c.shape(0), isIntLike(to) && isIntLike(c.elem(0)) ? convertedIntData(c.value(0), to) : null)];
};
const castLike: InferFn = (c) => [out(c.elem(1), c.shape(0), isIntLike(c.elem(1)) && isIntLike(c.elem(0)) ? convertedIntData(c.value(0), c.elem(1)) : null)];

/** Shape-15: start/end slice the dims (clamped). */
const shapeOp: InferFn = (c) => {
  const s = c.shape(0);
  if (s === null) return [out('i64', [null])];
  let start = c.version >= 15 ? intAttr(c, 'start', 0) : 0;
  let end = c.version >= 15 ? intAttr(c, 'end', s.length) : s.length;
  const clamp = (x: number) => Math.min(Math.max(x < 0 ? x + s.length : x, 0), s.length);
  start = clamp(start); end = clamp(end);
  const dims = s.slice(start, Math.max(start, end));
  return [out('i64', [dims.length], shapeAsValue(dims))];
};

const size: InferFn = (c) => {
  const p = shapeProduct(c.shape(0), false);
  return [out('i64', [], p !== null && isStatic(p) ? [p] : null)];
};

/** Reshape-5/13/14/19/21: the target from the shape input's data; 0 copies (unless allowzero), one -1 solved. */
const reshape: InferFn = (c) => {
  const target = shapeFromInput(c, 1);
  if (!target) return [out(c.elem(0), null)];
  const allowzero = c.version >= 14 && intAttr(c, 'allowzero', 0) !== 0;
  const input = c.shape(0);
  const dims: Dim[] = [];
  let minus = -1;
  for (let i = 0; i < target.dims.length; i++) {
    const d = target.dims[i]!;
    if (isStatic(d)) {
      if (d === 0 && !allowzero) {
        if (input !== null && i >= input.length) { c.error(`shape[${i}] = 0 copies a dimension the input (rank ${input.length}) does not have`); dims.push(null); }
        else dims.push(input === null ? null : input[i]!);
      } else if (d === -1) {
        if (minus >= 0) c.error('more than one -1 in the target shape');
        minus = i;
        dims.push(null);
      } else if (d < -1) { c.error(`invalid dimension ${d} in the target shape`); dims.push(null); }
      else dims.push(d);
    } else dims.push(d);
  }
  if (minus >= 0 && input !== null) {
    const total = shapeProduct(input, false);
    const rest = shapeProduct(dims.filter((_, i) => i !== minus), false);
    if (isStatic(total) && isStatic(rest)) {
      if (rest === 0 || total % rest !== 0) c.error(`cannot reshape ${total} elements with ${countText(rest)} in the other dimensions`);
      else dims[minus] = total / rest;
    } else dims[minus] = solveMinusOne(input, dims.filter((_, i) => i !== minus), false);
  }
  return [out(c.elem(0), dims, c.value(0))];
};

function axesFrom(c: RuleContext, attrUntil: number, input: number): number[] | null | undefined {
  // undefined: no axes given; null: given but not known
  if (c.version <= attrUntil) return intsAttr(c, 'axes');
  if (!c.has(input)) return undefined;
  return c.ints(input);
}

/** Squeeze-1/11 (attribute axes), 13/21 (input axes): no axes → every static 1 (unknowns: unknown rank). */
const squeeze: InferFn = (c) => {
  const s = c.shape(0);
  const axes = axesFrom(c, 12, 1);
  if (s === null || axes === null) return [out(c.elem(0), null)];
  if (axes === undefined) {
    if (s.some((d) => !isStatic(d))) return [out(c.elem(0), null)];
    return [out(c.elem(0), s.filter((d) => d !== 1), c.value(0))];
  }
  const norm = normalizeAxes(axes, s.length);
  if (typeof norm === 'string') { c.error(norm); return [out(c.elem(0), null)]; }
  for (const a of norm) if (isStatic(s[a]!) && s[a] !== 1) c.error(`cannot squeeze axis ${a} of size ${s[a]}`);
  return [out(c.elem(0), s.filter((_, i) => !norm.includes(i)), c.value(0))];
};

/** Unsqueeze-1/11 (attribute axes), 13/21 (input axes): axes index the output. */
const unsqueeze: InferFn = (c) => {
  const s = c.shape(0);
  const axes = axesFrom(c, 12, 1);
  if (axes === undefined) { c.error('axes are required'); return [out(c.elem(0), null)]; }
  if (s === null || axes === null) return [out(c.elem(0), null)];
  const rank = s.length + axes.length;
  const norm = normalizeAxes(axes, rank);
  if (typeof norm === 'string') { c.error(norm); return [out(c.elem(0), null)]; }
  const dims: Dim[] = [];
  let k = 0;
  for (let i = 0; i < rank; i++) dims.push(norm.includes(i) ? 1 : s[k++]!);
  return [out(c.elem(0), dims, c.value(0))];
};

const flatten: InferFn = (c) => {
  const s = c.shape(0);
  if (s === null) return [out(c.elem(0), [null, null])];
  let axis = intAttr(c, 'axis', 1);
  if (axis < 0) axis += s.length;
  if (axis < 0 || axis > s.length) { c.error(`axis out of range for rank ${s.length}`); return [out(c.elem(0), [null, null])]; }
  return [out(c.elem(0), [shapeProduct(s.slice(0, axis), false), shapeProduct(s.slice(axis), false)])];
};



const concat: InferFn = (c) => {
  const shapes = Array.from({ length: c.numInputs }, (_, i) => c.shape(i));
  return [out(c.elem(0), concatShapes(c, shapes, intAttr(c, 'axis', 1), false), concatValues(c))];
};

/** Split-1/2/11/13/18: explicit sizes, or equal parts (18: num_outputs, last part smaller). */
const split: InferFn = (c) => {
  const s = c.shape(0);
  const n = c.node.outputs.length;
  const unknownAll = () => c.node.outputs.map(() => out(c.elem(0), s === null ? null : s.map(() => null)));
  if (s === null) return c.node.outputs.map(() => out(c.elem(0), null));
  const axis = axisOr(c, intAttr(c, 'axis', 0), s.length);
  if (axis === undefined) return unknownAll();
  let sizes: number[] | null | undefined;
  if (c.version >= 13) sizes = c.has(1) ? c.ints(1) : undefined;
  else sizes = intsAttr(c, 'split') ?? (c.version < 2 && c.has(1) ? c.ints(1) : undefined);
  if (sizes === null) return unknownAll();
  const d = s[axis]!;
  if (sizes === undefined) {
    if (!isStatic(d)) return c.node.outputs.map(() => out(c.elem(0), s.map((x, i) => (i === axis ? null : x))));
    if (c.version >= 18 && c.node.attrs.has('num_outputs')) {
      const chunk = Math.ceil(d / n);
      sizes = Array.from({ length: n }, (_, i) => Math.max(0, Math.min(chunk, d - chunk * i)));
    } else {
      if (d % n !== 0) c.error(`dimension ${d} does not split into ${n} equal parts`);
      sizes = Array.from({ length: n }, () => Math.floor(d / n));
    }
  }
  if (sizes.length !== n) c.error(`split has ${sizes.length} sizes for ${n} outputs`);
  if (isStatic(d) && sizes.reduce((a, b) => a + b, 0) !== d) c.error(`split sizes sum to ${sizes.reduce((a, b) => a + b, 0)}, dimension is ${d}`);
  const parts = splitValue(c.value(0), s, sizes);
  return c.node.outputs.map((_, k) => out(c.elem(0), s.map((x, i) => (i === axis ? sizes![k] ?? null : x)), parts?.[k] ?? null));
};

const transpose: InferFn = (c) => {
  const s = c.shape(0);
  if (s === null) return [out(c.elem(0), null)];
  const perm = intsAttr(c, 'perm') ?? s.map((_, i) => s.length - 1 - i);
  const norm = normalizeAxes(perm, s.length);
  if (typeof norm === 'string' || perm.length !== s.length) { c.error(`perm ${perm.join(',')} does not permute rank ${s.length}`); return [out(c.elem(0), s.map(() => null))]; }
  return [out(c.elem(0), norm.map((p) => s[p]!))];
};



const gather: InferFn = (c) => {
  const axis = intAttr(c, 'axis', 0);
  return [out(c.elem(0), gatherShape(c, c.shape(0), c.shape(1), axis), gatherValue(c.value(0), c.shape(0), c.ints(1), axis))];
};

/** Slice-1 (attributes) and 10/11/13 (inputs starts, ends, axes, steps). */
const SLICE_OPERANDS = ['data', 'starts', 'ends', 'axes', 'steps'];

const slice: InferFn = (c) => {
  const s = c.shape(0);
  if (s === null) return [out(c.elem(0), null)];
  let starts: number[] | null | undefined;
  let ends: number[] | null | undefined;
  let axes: number[] | null | undefined;
  let steps: number[] | null | undefined;
  if (c.version < 10) {
    starts = intsAttr(c, 'starts'); ends = intsAttr(c, 'ends'); axes = intsAttr(c, 'axes');
  } else {
    // starts, ends, axes and steps: one element per sliced axis, as many as each other, at most the rank
    const lengths = [1, 2, 3, 4].filter((i) => c.has(i)).map((i) => [i, c.shape(i)?.length === 1 ? c.shape(i)![0] : null] as const)
      .filter((l): l is readonly [number, number] => typeof l[1] === 'number');
    const bad = lengths.find(([, n]) => n > s.length || n !== lengths[0]![1]);
    if (bad) {
      c.error(`${SLICE_OPERANDS[bad[0]]} has ${bad[1]} elements; ${lengths.map(([i, n]) => `${SLICE_OPERANDS[i]} ${n}`).join(', ')}, data of rank ${s.length} (one per sliced axis, as many as each other)`);
      return [out(c.elem(0), s.map(() => null))];
    }
    starts = c.ints(1); ends = c.ints(2);
    axes = c.has(3) ? c.ints(3) : undefined;
    steps = c.has(4) ? c.ints(4) : undefined;
  }
  if (!starts || !ends || axes === null || steps === null) {
    // onnx: bounds unknown → only the rank (axes known: those dims unknown)
    if (axes) {
      const norm = normalizeAxes(axes, s.length);
      if (typeof norm !== 'string') return [out(c.elem(0), s.map((d, i) => (norm.includes(i) ? null : d)))];
    }
    return [out(c.elem(0), s.map(() => null))];
  }
  const ax = axes ?? starts.map((_, i) => i);
  const norm = normalizeAxes(ax, s.length);
  if (typeof norm === 'string') { c.error(norm); return [out(c.elem(0), s.map(() => null))]; }
  const dims: Dim[] = [...s];
  norm.forEach((a, k) => {
    const step = steps?.[k] ?? 1;
    if (step === 0) { c.error('step 0'); dims[a] = null; return; }
    dims[a] = sliceDim(starts![k]!, ends![k]!, step, s[a]!, false);
  });
  let value: PartialValue | null = null;
  const v = c.value(0);
  if (v && s.length === 1 && norm.length === 1) {
    const n = v.length;
    const step = steps?.[0] ?? 1;
    const lo = starts[0]!, hi = ends[0]!;
    const idx: Dim[] = [];
    const clampS = (x: number) => { const y = x < 0 ? x + n : x; return step > 0 ? Math.min(Math.max(y, 0), n) : Math.min(Math.max(y, -1), n - 1); };
    for (let i = clampS(lo); step > 0 ? i < clampS(hi) : i > clampS(hi); i += step) idx.push(v[i]!);
    value = idx;
  }
  return [out(c.elem(0), dims, value)];
};

const expand: InferFn = (c) => {
  const target = shapeFromInput(c, 1);
  if (!target) return [out(c.elem(0), null)];
  return [out(c.elem(0), broadcastOr(c, onnxBroadcast([c.shape(0), target.dims])))];
};

const tile: InferFn = (c) => {
  const s = c.shape(0);
  const reps = c.value(1);
  if (s === null) return [out(c.elem(0), null)];
  if (!reps) return [out(c.elem(0), s.map(() => null))];
  if (reps.length !== s.length) c.error(`repeats has ${reps.length} elements for rank ${s.length}`);
  return [out(c.elem(0), s.map((d, i) => mulDims(d, reps[i] ?? null, false)))];
};

const constantOfShape: InferFn = (c) => {
  const v = c.node.attrs.get('value');
  const elem = v && v.type === 'tensor' ? v.value.elem : 'f32';
  const target = shapeFromInput(c, 0);
  if (target?.dims.some((d) => isStatic(d) && d < 0)) { c.error(`negative dimension in shape ${JSON.stringify(target.dims)}`); return [out(elem, null)]; }
  // data: the fill value repeated, for small integer results (onnx propagates it)
  const fill = v && v.type === 'tensor' ? partialFromTensor(v.value) : [0];
  const n = target && target.dims.every(isStatic) ? (target.dims as number[]).reduce((a, b) => a * b, 1) : -1;
  const value = fill && fill.length === 1 && n >= 0 && n <= 64 && target!.dims.length <= 1 ? Array.from({ length: n }, () => fill[0]!) : null;
  return [out(elem, target ? target.dims : null, value)];
};



const range: InferFn = (c) => [out(c.elem(0), [rangeLength(scalarOf(c, 0), scalarOf(c, 1), scalarOf(c, 2))])];

export const onnxTensorRules: Rule[] = [
  { dialect: 'onnx', op: 'Constant', since: 1, infer: constant },
  { dialect: 'onnx', op: 'Cast', since: 1, infer: cast },
  { dialect: 'onnx', op: 'CastLike', since: 15, infer: castLike },
  { dialect: 'onnx', op: 'Shape', since: 1, infer: shapeOp },
  { dialect: 'onnx', op: 'Size', since: 1, infer: size },
  { dialect: 'onnx', op: 'Reshape', since: 5, infer: reshape },
  { dialect: 'onnx', op: 'Squeeze', since: 1, infer: squeeze },
  { dialect: 'onnx', op: 'Unsqueeze', since: 1, infer: unsqueeze },
  { dialect: 'onnx', op: 'Flatten', since: 1, infer: flatten },
  { dialect: 'onnx', op: 'Concat', since: 1, infer: concat },
  { dialect: 'onnx', op: 'Split', since: 1, infer: split },
  { dialect: 'onnx', op: 'Transpose', since: 1, infer: transpose },
  { dialect: 'onnx', op: 'Gather', since: 1, infer: gather },
  { dialect: 'onnx', op: 'Slice', since: 1, infer: slice },
  { dialect: 'onnx', op: 'Expand', since: 8, infer: expand },
  { dialect: 'onnx', op: 'Tile', since: 6, infer: tile },
  { dialect: 'onnx', op: 'ConstantOfShape', since: 9, infer: constantOfShape },
  { dialect: 'onnx', op: 'Range', since: 11, infer: range },
];

