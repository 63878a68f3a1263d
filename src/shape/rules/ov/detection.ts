import { attrBool, attrFloats, attrInt, attrInts } from '../../../graph/attr-read.js';
import type { Dim } from '../../../graph/shape.js';
import { out, type InferFn, type Rule } from '../../rule.js';

/**
 * The SSD head of the Open Model Zoo: PriorBox-1/8 and DetectionOutput-1/8, after OpenVINO's
 * shape_infer (prior_box_shape_inference.hpp, detection_output_shape_inference.hpp).
 */

/** PriorBox's attributes that decide how many priors each cell has. */
export interface PriorBoxCountAttrs {
  readonly minSize: readonly number[];
  readonly maxSize: readonly number[];
  readonly aspectRatio: readonly number[];
  readonly flip: boolean;
  readonly scaleAllSizes: boolean;
  readonly fixedSize: readonly number[];
  readonly fixedRatio: readonly number[];
  readonly density: readonly number[];
}

/**
 * PriorBox::number_of_priors: the distinct aspect ratios (each rounded to 1e-6, with 1/ratio when
 * flip, and 1) times the min sizes plus the max sizes (scale_all_sizes), else the ratios plus the
 * min sizes less one; fixed sizes replace that by ratios × fixed sizes; each density d adds
 * (d² − 1) boxes per fixed ratio (or per aspect ratio).
 */
export function priorBoxCount(a: PriorBoxCountAttrs): number {
  const ratios = new Set<number>([1]);
  for (const r of a.aspectRatio) {
    ratios.add(Math.round(Math.fround(r) * 1e6) / 1e6);
    if (a.flip) ratios.add(Math.round(Math.fround(1 / Math.fround(r)) * 1e6) / 1e6);
  }
  let n = a.scaleAllSizes ? ratios.size * a.minSize.length + a.maxSize.length : ratios.size + a.minSize.length - 1;
  if (a.fixedSize.length > 0) n = ratios.size * a.fixedSize.length;
  for (const d of a.density) {
    const k = Math.trunc(d);
    n += (a.fixedRatio.length > 0 ? a.fixedRatio.length : ratios.size) * (k * k - 1);
  }
  return n;
}

export function priorBoxCountAttrs(read: { floats(name: string): number[] | undefined; bool(name: string): boolean | undefined }): PriorBoxCountAttrs {
  return {
    minSize: read.floats('min_size') ?? [],
    maxSize: read.floats('max_size') ?? [],
    aspectRatio: read.floats('aspect_ratio') ?? [],
    flip: read.bool('flip') ?? false,
    scaleAllSizes: read.bool('scale_all_sizes') ?? true,
    fixedSize: read.floats('fixed_size') ?? [],
    fixedRatio: read.floats('fixed_ratio') ?? [],
    density: read.floats('density') ?? [],
  };
}

/** PriorBox-1/8: f32 [2, 4·H·W·priors] (H, W the values of the first input). */
const priorBox: InferFn = (c) => {
  const hw = c.value(0);
  const n = priorBoxCount(priorBoxCountAttrs({ floats: (k) => attrFloats(c.node, k), bool: (k) => attrBool(c.node, k) }));
  const cells = hw !== null && hw.length === 2 && typeof hw[0] === 'number' && typeof hw[1] === 'number' ? hw[0] * hw[1] : null;
  return [out('f32', [2, cells === null ? null : 4 * cells * n])];
};

/**
 * DetectionOutput-1/8: [1, 1, rows, 7] of the location's type, rows = images × keep_top_k[0] when
 * that is positive, else images × top_k × classes when top_k is, else images × classes × priors
 * (priors: the priors' last dim over 4, or 5 when not normalized; classes: num_classes in opset1,
 * the confidence's dim 1 over the priors in opset8).
 */
const detectionOutput: InferFn = (c) => {
  const loc = c.shape(0);
  const conf = c.shape(1);
  const priors = c.shape(2);
  const images: Dim = loc?.[0] ?? conf?.[0] ?? null;
  const keepTopK = attrInts(c.node, 'keep_top_k')?.[0] ?? -1n;
  const topK = attrInt(c.node, 'top_k') ?? -1n;
  const boxSize = (attrBool(c.node, 'normalized') ?? false) ? 4 : 5;
  const last = priors?.[priors.length - 1];
  const numPriors = typeof last === 'number' ? Math.floor(last / boxSize) : null;
  let classes: number | null = null;
  if (c.version < 8) classes = Number(attrInt(c.node, 'num_classes') ?? -1n);
  else if (typeof conf?.[1] === 'number' && numPriors) classes = Math.floor(conf[1] / numPriors);
  let perImage: number | null = null;
  if (keepTopK > 0n) perImage = Number(keepTopK);
  else if (topK > 0n) perImage = classes === null ? null : Number(topK) * classes;
  else perImage = classes === null || numPriors === null ? null : classes * numPriors;
  const rows = typeof images === 'number' && perImage !== null ? images * perImage : null;
  return [out(c.elem(0), [1, 1, rows, 7])];
};

export const ovDetectionRules: Rule[] = [
  { dialect: 'ov', op: 'PriorBox', since: 1, infer: priorBox },
  { dialect: 'ov', op: 'DetectionOutput', since: 1, infer: detectionOutput },
];
