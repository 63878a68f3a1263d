import { tensorFromFloat32 } from '../../src/graph/tensor.js';
import { priorBoxCount, priorBoxCountAttrs } from '../../src/shape/rules/ov/detection.js';
import { irOnly, never } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * PriorBox-1 and PriorBox-8 (SSD heads of the Open Model Zoo): like PriorBoxClustered its output
 * depends only on the two sizes it reads (the feature map's [H, W], the image's [H, W]) and its
 * attributes, so when inference knows both the priors are computed at conversion in f32 as
 * OpenVINO's reference (prior_box.hpp) computes them and written as a constant [2, 4·H·W·priors]:
 * row 0 the boxes of each cell (xmin, ymin, xmax, ymax over the image size), row 1 the variances.
 * Per cell, centred at (w + 0.5)·step (step 0: the image over the map, per axis) or
 * (offset + w)·step (a given step): the fixed sizes with their densities and fixed ratios (or
 * aspect ratios), then per min size its square box, the box of √(min·max) and the aspect-ratio boxes
 * (in that order when min_max_aspect_ratios_order, which PriorBox-1 always is; aspect ratios first
 * otherwise; with scale_all_sizes false only the last min size gets the aspect ratios, of the first
 * min size, and min sizes and a given step are fractions of the image height). Clip clamps the boxes
 * to [0, 1]; variance is none (0.1), one value or four. Sizes known only at run time:
 * CONVERT_NEEDS_CONSTANT naming the layer.
 */
const f = Math.fround;

function priorBoxToOnnx(c: ConvertContext): void {
  const layer = c.intsOf(c.node.inputs[0]!);
  const image = c.intsOf(c.node.inputs[1]!);
  if (!layer || layer.length !== 2) { c.needsConstant(0, 'the feature map size [H, W]'); return; }
  if (!image || image.length !== 2) { c.needsConstant(1, 'the image size [H, W]'); return; }
  const counts = priorBoxCountAttrs(c.attr);
  let variances = c.attr.floats('variance') ?? [];
  if (variances.length > 1 && variances.length !== 4) { c.unsupportedAttr('variance', variances.join(','), 'none, one or four values'); return; }
  if (variances.length === 0) variances = [0.1];
  if (counts.fixedSize.length > 0 && counts.density.length !== counts.fixedSize.length) {
    c.unsupportedAttr('density', counts.density.join(','), `one density per fixed size (${counts.fixedSize.length})`);
    return;
  }
  const order = c.node.version === 'opset1' || (c.attr.bool('min_max_aspect_ratios_order') ?? true);
  const clip = c.attr.bool('clip') ?? false;
  const offset = f(c.attr.float('offset') ?? 0);
  const [H, W] = layer.map(Number) as [number, number];
  const [IH, IW] = image.map(Number) as [number, number];

  // the aspect ratios as the reference lists them: 1, then each new one (and 1/ratio with flip)
  const ratios: number[] = [1];
  for (const r of counts.aspectRatio) {
    const ar = f(r);
    if (ratios.some((e) => Math.abs(ar - e) < 1e-6)) continue;
    ratios.push(ar);
    if (counts.flip) ratios.push(f(1 / ar));
  }
  let step = f(c.attr.float('step') ?? 0);
  let minSize = counts.minSize.map(f);
  if (!counts.scaleAllSizes) {
    step = step === -1 ? f(IH / H) : f(step * IH);
    minSize = minSize.map((s) => f(s * IH));
  }
  const stepX = step === 0 ? f(IW / W) : step;
  const stepY = step === 0 ? f(IH / H) : step;
  const iwi = f(1 / IW);
  const ihi = f(1 / IH);
  const boxes: number[] = [];
  const box = (cx: number, cy: number, bw: number, bh: number, clamp: boolean): void => {
    const v = [f(f(cx - bw) * iwi), f(f(cy - bh) * ihi), f(f(cx + bw) * iwi), f(f(cy + bh) * ihi)];
    boxes.push(...(clamp ? [Math.max(v[0]!, 0), Math.max(v[1]!, 0), Math.min(v[2]!, 1), Math.min(v[3]!, 1)] : v));
  };
  const dense = (cx: number, cy: number, fixed: number, density: number, bw: number, bh: number): void => {
    const sizeHalf = Math.trunc(Math.trunc(fixed) / 2);
    const shift = Math.trunc(f(fixed / density));
    for (let r = 0; r < density; r++) for (let col = 0; col < density; col++) {
      box(f(f(f(cx - sizeHalf) + f(shift / 2)) + col * shift), f(f(f(cy - sizeHalf) + f(shift / 2)) + r * shift), bw, bh, true);
    }
  };
  for (let h = 0; h < H; h++) for (let w = 0; w < W; w++) {
    const cx = step === 0 ? f(f(w + 0.5) * stepX) : f(f(offset + w) * step);
    const cy = step === 0 ? f(f(h + 0.5) * stepY) : f(f(offset + h) * step);
    counts.fixedSize.forEach((fixedRaw, s) => {
      const fixed = f(fixedRaw);
      const density = Math.trunc(counts.density[s]!);
      const half = f(Math.trunc(fixed) * 0.5);
      const ratioBoxes = (list: readonly number[]): void => {
        for (const r of list) {
          const ar = f(Math.sqrt(r));
          dense(cx, cy, fixed, density, f(f(fixed * 0.5) * ar), f(f(fixed * 0.5) / ar));
        }
      };
      if (counts.fixedRatio.length > 0) ratioBoxes(counts.fixedRatio.map(f));
      else {
        dense(cx, cy, fixed, density, half, half);
        ratioBoxes(ratios.filter((r) => Math.abs(r - 1) >= 1e-6));
      }
    });
    minSize.forEach((min, i) => {
      const square = (): void => box(cx, cy, f(min * 0.5), f(min * 0.5), false);
      const maxBox = (): void => {
        if (counts.maxSize.length <= i) return;
        const half = f(f(Math.sqrt(f(min * f(counts.maxSize[i]!)))) * 0.5);
        box(cx, cy, half, half, false);
      };
      const ratioBoxes = (): void => {
        if (!counts.scaleAllSizes && i !== minSize.length - 1) return;
        const base = minSize[counts.scaleAllSizes ? i : 0]!;
        for (const r of ratios) {
          if (Math.abs(r - 1) < 1e-6) continue;
          const ar = f(Math.sqrt(r));
          box(cx, cy, f(f(base * 0.5) * ar), f(f(base * 0.5) / ar), false);
        }
      };
      square();
      if (order) { maxBox(); ratioBoxes(); } else { ratioBoxes(); maxBox(); }
    });
  }
  const size = 4 * H * W * priorBoxCount(counts);
  if (boxes.length !== size) {
    const attr = counts.density.length > 0 ? 'density' : 'fixed_size';
    c.unsupportedAttr(attr, (attr === 'density' ? counts.density : counts.fixedSize).join(','), `these sizes give ${boxes.length / (4 * H * W)} priors per cell where OpenVINO's output holds ${size / (4 * H * W)}`);
    return;
  }
  const outData = new Float32Array(2 * size);
  for (let i = 0; i < size; i++) outData[i] = clip ? Math.min(Math.max(boxes[i]!, 0), 1) : boxes[i]!;
  for (let i = 0; i < size; i++) outData[size + i] = variances.length === 1 ? variances[0]! : variances[i % 4]!;
  c.output(0, c.constant(tensorFromFloat32([...outData], [2, size])));
}

const HANDLES = ['min_size', 'max_size', 'aspect_ratio', 'flip', 'clip', 'step', 'offset', 'variance', 'scale_all_sizes', 'fixed_ratio', 'fixed_size', 'density'];

export const PRIOR_BOX: readonly OpMapping[] = [
  {
    onnx: { op: 'Constant', since: 1 },
    ir: { op: 'PriorBox', version: 'opset8', reads: ['opset1'] },
    when: never,
    handles: { ir: [...HANDLES, 'min_max_aspect_ratios_order'] },
    note: 'computed at conversion (a constant) when the feature map and image sizes are known',
    toIr: irOnly,
    toOnnx: priorBoxToOnnx,
  },
];
