import { tensorFromFloat32 } from '../../src/graph/tensor.js';
import { irOnly, never } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * PriorBoxClustered-1 (SSD heads of the Open Model Zoo): its output depends only on the two shapes
 * it reads (the feature map's [H, W] and the image's [H, W]) and its attributes, so when inference
 * knows both (constants, or ShapeOf of static shapes) the priors are computed at conversion, in f32
 * as OpenVINO's reference (prior_box_clustered.hpp) computes them, and written as a constant
 * [2, 4·H·W·priors]: row 0 the boxes (xmin, ymin, xmax, ymax of each width/height pair around each
 * cell centre (w + offset)·step_w, (h + offset)·step_h, over the image size, clipped to [0, 1] if
 * clip), row 1 the variances (one value repeated or four; 0.1 when none). Shapes known only at run
 * time are refused (CONVERT_NEEDS_CONSTANT).
 */
const f = Math.fround;

function priorBoxClusteredToOnnx(c: ConvertContext): void {
  const layer = c.intsOf(c.node.inputs[0]!);
  const image = c.intsOf(c.node.inputs[1]!);
  if (!layer || layer.length !== 2) { c.needsConstant(0, 'the feature map size [H, W]'); return; }
  if (!image || image.length !== 2) { c.needsConstant(1, 'the image size [H, W]'); return; }
  const widths = c.attr.floats('width') ?? [];
  const heights = c.attr.floats('height') ?? [];
  if (widths.length === 0 || widths.length !== heights.length) { c.unsupportedAttr('width', widths.join(','), `as many widths as heights (${heights.length}), at least one`); return; }
  let variances = c.attr.floats('variance') ?? [];
  if (variances.length !== 0 && variances.length !== 1 && variances.length !== 4) { c.unsupportedAttr('variance', variances.join(','), 'none, one or four values'); return; }
  if (variances.length === 0) variances = [0.1];
  const clip = c.attr.bool('clip') ?? true;
  const offset = f(c.attr.float('offset') ?? 0.5);
  const step = f(c.attr.float('step') ?? 0);
  const [lh, lw] = layer.map(Number) as [number, number];
  const [ih, iw] = image.map(Number) as [number, number];
  let stepW = f(c.attr.float('step_w') ?? 0) || step;
  let stepH = f(c.attr.float('step_h') ?? 0) || step;
  if (stepW === 0 && stepH === 0) { stepW = f(iw / lw); stepH = f(ih / lh); }
  const n = widths.length;
  const size = 4 * lh * lw * n;
  const out = new Float32Array(2 * size);
  const clamp = (v: number): number => (clip ? Math.min(Math.max(v, 0), 1) : v);
  for (let h = 0; h < lh; h++) for (let w = 0; w < lw; w++) {
    const cx = f(f(w + offset) * stepW);
    const cy = f(f(h + offset) * stepH);
    for (let s = 0; s < n; s++) {
      const bw = f(f(widths[s]!) / 2);
      const bh = f(f(heights[s]!) / 2);
      const at = ((h * lw + w) * n + s) * 4;
      out[at] = clamp(f(f(cx - bw) / iw));
      out[at + 1] = clamp(f(f(cy - bh) / ih));
      out[at + 2] = clamp(f(f(cx + bw) / iw));
      out[at + 3] = clamp(f(f(cy + bh) / ih));
      for (let j = 0; j < 4; j++) out[size + at + j] = variances.length === 1 ? variances[0]! : variances[j]!;
    }
  }
  c.output(0, c.constant(tensorFromFloat32([...out], [2, size])));
}

export const PRIOR_BOX_CLUSTERED: readonly OpMapping[] = [
  {
    onnx: { op: 'Constant', since: 1 },
    ir: { op: 'PriorBoxClustered', version: 'opset1' },
    when: never,
    handles: { ir: ['width', 'height', 'clip', 'step_w', 'step_h', 'step', 'offset', 'variance'] },
    note: 'computed at conversion (a constant) when the feature map and image sizes are known',
    toIr: irOnly,
    toOnnx: priorBoxClusteredToOnnx,
  },
];
