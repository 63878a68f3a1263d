import { elementType, fromIrElementType, type ElementTypeName } from '../../../graph/element-type.js';
import { out, type InferFn, type Rule } from '../../rule.js';
import { family } from '../common.js';
import { attrBool, attrFloats, attrInt, attrInts, attrString } from '../../../graph/attr-read.js';
import type { Dim } from '../../../graph/shape.js';
import type { Node } from '../../../graph/node.js';

/**
 * OpenVINO ops of NNCF, the Open Model Zoo and the PyTorch / TensorFlow / PaddlePaddle frontends
 * that ovir writes to ONNX (mappings/tensor/convert-promote-types.ts, …), each after the op's
 * shape_infer / validate_and_infer_types.
 */

const PROMOTABLE = new Set<ElementTypeName>(['boolean', 'f16', 'f32', 'f64', 'i4', 'i8', 'i16', 'i32', 'i64', 'u1', 'u4', 'u8', 'u16', 'u32', 'u64', 'f8e4m3', 'f8e5m2', 'bf16']);
const real = (t: ElementTypeName): boolean => elementType(t).kind === 'float';
const signed = (t: ElementTypeName): boolean => elementType(t).kind === 'float' || elementType(t).kind === 'int';
const bits = (t: ElementTypeName): number => elementType(t).bits;
const SIGNED_OF_BITS: Partial<Record<number, ElementTypeName>> = { 4: 'i4', 8: 'i8', 16: 'i16', 32: 'i32', 64: 'i64' };

export type Promoted = { readonly elem: ElementTypeName } | { readonly why: string };

export interface PromoteAttrs { readonly unsafe: boolean; readonly pytorchScalar: boolean; readonly u64Target: ElementTypeName }

/**
 * ConvertPromoteTypes-14's common type (OpenVINO's evaluate_common_type): booleans take the other
 * type; float with integer the float (safe: at least twice the integer's bits); same kind: with
 * pytorch_scalar_promotion the non-scalar's type when one is a static scalar (safe: it must hold the
 * scalar's type), signed with unsigned the signed integer of twice the unsigned bits (u64:
 * u64_integer_promotion_target, unsafe only), else the wider; f8e4m3 with f8e5m2 f16 and f16 with
 * bf16 f32 (unsafe only). Otherwise why there is none.
 */
export function promotedType(a: ElementTypeName, b: ElementTypeName, aScalar: boolean, bScalar: boolean, o: PromoteAttrs): Promoted {
  const why = (s: string): Promoted => ({ why: s });
  const to = (elem: ElementTypeName): Promoted => ({ elem });
  if (!PROMOTABLE.has(a) || !PROMOTABLE.has(b)) return why(`element types ${a} and ${b} (ConvertPromoteTypes takes ${[...PROMOTABLE].join(', ')})`);
  if (a === b) return to(a);
  if (a === 'boolean') return to(b);
  if (b === 'boolean') return to(a);
  if (real(a) !== real(b)) {
    const [r, i] = real(a) ? [a, b] : [b, a];
    if (o.unsafe || bits(r) >= 2 * bits(i)) return to(r);
    return why(`integer input ${i} cannot be safely promoted to ${r} (promote_unsafe is false)`);
  }
  if (o.pytorchScalar && aScalar !== bScalar) {
    const [target, scalar] = aScalar ? [b, a] : [a, b];
    if (o.unsafe || (signed(target) === signed(scalar) && bits(target) >= bits(scalar)) || (signed(target) && !signed(scalar) && bits(target) * 2 >= bits(scalar))) return to(target);
    return why(`scalar input ${scalar} cannot be aligned to ${target} by the safe PyTorch rules (promote_unsafe is false)`);
  }
  if (signed(a) !== signed(b)) {
    const [u, s] = signed(a) ? [b, a] : [a, b];
    if (bits(u) <= 32 && (o.unsafe || bits(u) * 2 <= bits(s))) return to(SIGNED_OF_BITS[Math.max(bits(u) * 2, bits(s))]!);
    if (o.unsafe) return to(o.u64Target);
    return why(`unsigned ${u} cannot be safely promoted into a signed integer with ${s} (promote_unsafe is false)`);
  }
  if (bits(a) !== bits(b)) return to(bits(a) >= bits(b) ? a : b);
  if (o.unsafe && a.startsWith('f8') && b.startsWith('f8')) return to('f16');
  if (o.unsafe && (a === 'f16' || a === 'bf16') && (b === 'f16' || b === 'bf16')) return to('f32');
  return why(`no common type of ${a} and ${b} with these attributes`);
}

/** The layer's promotion attributes (OpenVINO's defaults: false, false, f32). */
export function promoteAttrs(node: Node): PromoteAttrs {
  const target = (attrString(node, 'u64_integer_promotion_target') ?? 'f32').trim();
  return {
    unsafe: attrBool(node, 'promote_unsafe') ?? false,
    pytorchScalar: attrBool(node, 'pytorch_scalar_promotion') ?? false,
    u64Target: fromIrElementType(target)?.name ?? 'f32',
  };
}

/** ConvertPromoteTypes-14: both inputs converted to their common type, shapes kept. */
const convertPromoteTypes: InferFn = (c) => {
  const [a, b] = [c.elem(0), c.elem(1)];
  if (a === 'dynamic' || b === 'dynamic') return [out('dynamic', c.shape(0)), out('dynamic', c.shape(1))];
  const scalar = (i: number): boolean => c.shape(i)?.length === 0;
  const t = promotedType(a, b, scalar(0), scalar(1), promoteAttrs(c.node));
  if ('why' in t) {
    c.error(t.why);
    return [out('dynamic', c.shape(0)), out('dynamic', c.shape(1))];
  }
  return [out(t.elem, c.shape(0)), out(t.elem, c.shape(1))];
};

/** ReorgYolo-2: [N, C·s², H / s, W / s] (H and W must be multiples of the stride s). */
const reorgYolo: InferFn = (c) => {
  const s = c.shape(0);
  const st = Number(attrInts(c.node, 'stride')?.[0] ?? 0n);
  if (s === null || st < 1) return [out(c.elem(0), s === null ? [null, null, null, null] : null)];
  if (s.length !== 4) { c.error(`data must have rank 4, got ${s.length}`); return [out(c.elem(0), null)]; }
  const [n, ch, h, w] = s;
  for (const d of [h, w]) if (typeof d === 'number' && d % st !== 0) c.error(`H and W must be multiples of the stride ${st}, got [${s.join(',')}]`);
  const div = (d: Dim): Dim => (typeof d === 'number' ? Math.floor(d / st) : null);
  return [out(c.elem(0), [n ?? null, typeof ch === 'number' ? ch * st * st : null, div(h ?? null), div(w ?? null)])];
};

/**
 * RegionYolo-0: do_softmax → the data with dims axis … end_axis flattened; otherwise
 * [N, |mask|·(coords + 1 + classes), H, W].
 */
const regionYolo: InferFn = (c) => {
  const s = c.shape(0);
  if (s === null) return [out(c.elem(0), null)];
  if (s.length !== 4) { c.error(`data must have rank 4, got ${s.length}`); return [out(c.elem(0), null)]; }
  if (attrBool(c.node, 'do_softmax') ?? true) {
    const norm = (a: number): number => (a < 0 ? a + 4 : a);
    const axis = norm(Number(attrInt(c.node, 'axis') ?? 1n));
    const end = norm(Number(attrInt(c.node, 'end_axis') ?? 3n));
    if (axis > end) return [out(c.elem(0), s)];
    const mid = s.slice(axis, end + 1);
    const prod: Dim = mid.every((d) => typeof d === 'number') ? (mid as number[]).reduce((a, b) => a * b, 1) : null;
    return [out(c.elem(0), [...s.slice(0, axis), prod, ...s.slice(end + 1)])];
  }
  const k = Number(attrInt(c.node, 'coords') ?? 4n) + 1 + Number(attrInt(c.node, 'classes') ?? 0n);
  return [out(c.elem(0), [s[0] ?? null, (attrInts(c.node, 'mask') ?? []).length * k, s[2] ?? null, s[3] ?? null])];
};

/**
 * One spatial axis of ExtractImagePatches-3 (OpenVINO's shape_infer and reference): a patch of k
 * taps `rate` apart spans k + (rate − 1)(k − 1); valid: ⌊(I − span) / S⌋ + 1 outputs, no pads;
 * same_upper / same_lower: ⌈I / S⌉ outputs, total pad P = (⌈I / S⌉ − 1)·S + span − I, at the begin
 * P / 2 (odd P: (P − 1) / 2 for same_upper, (P + 1) / 2 for same_lower; none unless 0 < P < span),
 * the rest at the end.
 */
export function patchGeometry(size: number, k: number, stride: number, rate: number, pad: string): { out: number; begin: number; end: number } {
  const span = k + (rate - 1) * (k - 1);
  if (pad === 'valid') return { out: Math.floor((size - span) / stride) + 1, begin: 0, end: 0 };
  const out = Math.ceil(size / stride);
  const total = (out - 1) * stride + span - size;
  let begin = 0;
  if (total > 0 && total < span) begin = total % 2 === 0 ? total / 2 : pad === 'same_lower' ? (total + 1) / 2 : (total - 1) / 2;
  return { out, begin, end: Math.max(0, (out - 1) * stride + span - size - begin) };
}

/** ExtractImagePatches-3: [N, C·KH·KW, OH, OW] (`patchGeometry` per spatial axis). */
const extractImagePatches: InferFn = (c) => {
  const s = c.shape(0);
  const sizes = attrInts(c.node, 'sizes')?.map(Number);
  const strides = attrInts(c.node, 'strides')?.map(Number);
  const rates = attrInts(c.node, 'rates')?.map(Number);
  const pad = (attrString(c.node, 'auto_pad') ?? 'valid').trim().toLowerCase();
  if (s === null) return [out(c.elem(0), [null, null, null, null])];
  if (s.length !== 4) { c.error(`data must have rank 4, got ${s.length}`); return [out(c.elem(0), null)]; }
  if (!sizes || !strides || !rates || sizes.length !== 2 || strides.length !== 2 || rates.length !== 2) return [out(c.elem(0), [s[0] ?? null, null, null, null])];
  const axis = (i: number): Dim => {
    const d = s[2 + i];
    return typeof d === 'number' ? Math.max(0, patchGeometry(d, sizes[i]!, strides[i]!, rates[i]!, pad).out) : null;
  };
  const ch = s[1];
  return [out(c.elem(0), [s[0] ?? null, typeof ch === 'number' ? ch * sizes[0]! * sizes[1]! : null, axis(0), axis(1)])];
};

/** CTCGreedyDecoderSeqLen-6: classes [N, T] (classes_index_type), lengths [N] (sequence_length_type). */
const ctcSeqLen: InferFn = (c) => {
  const s = c.shape(0);
  const t = (name: string): ElementTypeName => fromIrElementType((attrString(c.node, name) ?? 'i32').trim())?.name ?? 'i32';
  return [out(t('classes_index_type'), [s?.[0] ?? null, s?.[1] ?? null]), out(t('sequence_length_type'), [s?.[0] ?? null])];
};

/** CTCGreedyDecoder-1: [N, T, 1, 1] of the data's type (data is [T, N, C]). */
const ctcGreedy: InferFn = (c) => {
  const s = c.shape(0);
  return [out(c.elem(0), [s?.[1] ?? null, s?.[0] ?? null, 1, 1])];
};

/** ROIPooling-2: [num_rois, C, pooled_h, pooled_w] (spelled output_roi, output_size or pooled_h/pooled_w). */
const roiPooling: InferFn = (c) => {
  const p = (attrInts(c.node, 'output_roi') ?? attrInts(c.node, 'output_size') ?? (attrInt(c.node, 'pooled_h') !== undefined ? [attrInt(c.node, 'pooled_h')!, attrInt(c.node, 'pooled_w') ?? 0n] : undefined))?.map(Number);
  return [out(c.elem(0), [c.shape(1)?.[0] ?? null, c.shape(0)?.[1] ?? null, p?.[0] ?? null, p?.[1] ?? null])];
};

/** NV12toRGB/BGR-8, I420toRGB/BGR-8: [N, H, W, 3] (one plane: H is 2/3 of its rows). */
const colorConversion: InferFn = (c) => {
  const s = c.shape(0);
  if (s === null || s.length !== 4) return [out(c.elem(0), [null, null, null, 3])];
  const h = s[1];
  return [out(c.elem(0), [s[0] ?? null, c.numInputs === 1 ? (typeof h === 'number' ? (h * 2) / 3 : null) : h ?? null, s[2] ?? null, 3])];
};

/** RGBtoNV12-17 / BGRtoNV12-17: one plane [N, 3H/2, W, 1] (single_plane, the default), else Y [N, H, W, 1] and UV [N, H/2, W/2, 2]. */
const toNv12: InferFn = (c) => {
  const s = c.shape(0);
  const [n, h, w] = s !== null && s.length === 4 ? [s[0] ?? null, s[1] ?? null, s[2] ?? null] : [null, null, null];
  const half = (d: Dim): Dim => (typeof d === 'number' ? d / 2 : null);
  if (attrBool(c.node, 'single_plane') ?? true) return [out(c.elem(0), [n, typeof h === 'number' ? (h * 3) / 2 : null, w, 1])];
  return [out(c.elem(0), [n, h, w, 1]), out(c.elem(0), [n, half(h), half(w), 2])];
};

/** PriorBoxClustered-1: f32 [2, 4·H·W·priors] (H, W the values of the first input). */
const priorBoxClustered: InferFn = (c) => {
  const hw = c.value(0);
  const n = (attrFloats(c.node, 'width') ?? []).length;
  const cells = hw !== null && hw.length === 2 && typeof hw[0] === 'number' && typeof hw[1] === 'number' ? hw[0] * hw[1] : null;
  return [out('f32', [2, cells === null ? null : 4 * cells * n])];
};

/** PSROIPooling-1: [num_rois, output_dim, group_size, group_size] of the data's type. */
const psroiPooling: InferFn = (c) => {
  const g = Number(attrInt(c.node, 'group_size') ?? 1n);
  const d = attrInt(c.node, 'output_dim');
  return [out(c.elem(0), [c.shape(1)?.[0] ?? null, d === undefined ? null : Number(d), g, g])];
};

/** DeformablePSROIPooling-1: [num_rois, output_dim, group_size, group_size] of the data's type. */
const deformablePsroiPooling: InferFn = psroiPooling;

/** GatherTree-1: step_ids' type and shape [T, B, W]. */
const gatherTree: InferFn = (c) => [out(c.elem(0), c.shape(0))];

/** Inverse-14: the input's type and shape. */
const inverse: InferFn = (c) => [out(c.elem(0), c.shape(0))];

/** SparseFillEmptyRows-16: indices [M, 2] (the indices' type), values [M], empty_row_indicator [rows] boolean. */
const sparseFillEmptyRows: InferFn = (c) => {
  const rows = c.ints(1)?.[0] ?? null;
  return [out(c.elem(2), [null, 2]), out(c.elem(0), [null]), out('boolean', [rows])];
};

/** CTCLoss-4: [B] of the logits' type. */
const ctcLoss: InferFn = (c) => [out(c.elem(0), [c.shape(0)?.[0] ?? null])];

/**
 * GroupedMatMul-17 as OpenVINO 2026.4's shape_infer: mat_b is [G, N, K]; 3-D × 3-D [G, M, K] →
 * [G, M, N], 2-D × 3-D with offsets [T, K] → [T, N] (G and K merged where both are known).
 */
const groupedMatMul: InferFn = (c) => {
  const [a, b] = [c.shape(0), c.shape(1)];
  if (a === null || b === null) return [out(c.elem(0), null)];
  const merge = (x: Dim | undefined, y: Dim | undefined, what: string): Dim => {
    if (typeof x === 'number' && typeof y === 'number' && x !== y) c.error(`GroupedMatMul: ${what} ${x} of mat_a and ${y} of mat_b differ`);
    return typeof x === 'number' ? x : y ?? null;
  };
  if (a.length === 3 && b.length === 3) {
    merge(a[2], b[2], 'inner dimension');
    return [out(c.elem(0), [merge(a[0], b[0], 'group count'), a[1] ?? null, b[1] ?? null])];
  }
  if (a.length === 2 && b.length === 3) {
    if (c.numInputs < 3) c.error('GroupedMatMul of a 2-D mat_a needs the offsets input');
    merge(a[1], b[2], 'inner dimension');
    return [out(c.elem(0), [a[0] ?? null, b[1] ?? null])];
  }
  c.error(`GroupedMatMul of a ${a.length}-D mat_a and a ${b.length}-D mat_b: OpenVINO 2026.4 takes 3-D × 3-D and 2-D × 3-D`);
  return [out(c.elem(0), null)];
};

export const ovFrontendOpsRules: Rule[] = [
  { dialect: 'ov', op: 'GroupedMatMul', since: 17, infer: groupedMatMul },
  { dialect: 'ov', op: 'CTCLoss', since: 4, infer: ctcLoss },
  { dialect: 'ov', op: 'SparseFillEmptyRows', since: 16, infer: sparseFillEmptyRows },
  { dialect: 'ov', op: 'Inverse', since: 14, infer: inverse },
  { dialect: 'ov', op: 'GatherTree', since: 1, infer: gatherTree },
  { dialect: 'ov', op: 'PSROIPooling', since: 1, infer: psroiPooling },
  { dialect: 'ov', op: 'DeformablePSROIPooling', since: 1, infer: deformablePsroiPooling },
  { dialect: 'ov', op: 'PriorBoxClustered', since: 1, infer: priorBoxClustered },
  ...family('ov', ['NV12toRGB', 'NV12toBGR', 'I420toRGB', 'I420toBGR'], 8, colorConversion),
  ...family('ov', ['RGBtoNV12', 'BGRtoNV12'], 17, toNv12),
  { dialect: 'ov', op: 'ROIPooling', since: 2, infer: roiPooling },
  { dialect: 'ov', op: 'ExtractImagePatches', since: 3, infer: extractImagePatches },
  { dialect: 'ov', op: 'CTCGreedyDecoderSeqLen', since: 6, infer: ctcSeqLen },
  { dialect: 'ov', op: 'CTCGreedyDecoder', since: 1, infer: ctcGreedy },
  { dialect: 'ov', op: 'RegionYolo', since: 1, infer: regionYolo },
  { dialect: 'ov', op: 'ReorgYolo', since: 2, infer: reorgYolo },
  { dialect: 'ov', op: 'ConvertPromoteTypes', since: 14, infer: convertPromoteTypes },
];
