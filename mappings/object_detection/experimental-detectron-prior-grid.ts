import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, irOnly, never, on, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { asF32, f32Const } from './nms-rows.js';

/**
 * ExperimentalDetectronPriorGridGenerator-6 (Mask R-CNN IRs): the priors [P, 4] moved to every
 * cell of an H × W grid, as OpenVINO's CPU plugin (experimental_detectron_priorgridgenerator.cpp):
 * row (h, w, p) = prior p + (sx, sy, sx, sy), sx = step_w · (w + 0.5), sy = step_h · (h + 0.5);
 * H, W the attributes h, w or else the feature map's dims 2, 3; the steps stride_x, stride_y or
 * else the image's width (height) over W (H), in f32. Output [H·W·P, 4] (flatten) or [H, W, P, 4].
 * h or w other than the feature map's dim is refused (OpenVINO's shape follows the feature map,
 * its kernel the attribute).
 */
function priorGridToOnnx(c: ConvertContext): void {
  const flatten = c.attr.bool('flatten') ?? true;
  const gh = c.attr.int('h') ?? 0n;
  const gw = c.attr.int('w') ?? 0n;
  const strideX = c.attr.float('stride_x') ?? 0;
  const strideY = c.attr.float('stride_y') ?? 0;
  if (gh < 0n || gw < 0n) { c.unsupportedAttr(gh < 0n ? 'h' : 'w', String(gh < 0n ? gh : gw), 'must be ≥ 0'); return; }
  const t1 = c.type(1);
  const fm = t1 && t1.kind === 'tensor' ? t1.shape : null;
  for (const [attr, v, axis] of [['h', gh, 2], ['w', gw, 3]] as const) {
    const d = fm?.[axis];
    if (v > 0n && typeof d === 'number' && d !== Number(v)) { c.unsupportedAttr(attr, String(v), `differs from the feature map's dim ${axis} (${d}): OpenVINO's output shape follows the feature map, its CPU kernel the attribute`); return; }
  }
  if (c.opset < 11) { c.error(`ExperimentalDetectronPriorGridGenerator is written with ONNX Range (opset 11 or later; target ${c.opset})`); return; }
  const priors = asF32(c, 0);
  const dimOf = (v: Value, axis: bigint): Value => on(c, 'Gather', [on(c, 'Shape', [v]), i64Scalar(c, axis)], { axis: A.int(0) });
  const cells = (attr: bigint, axis: bigint): Value => (attr > 0n ? i64Scalar(c, attr) : dimOf(c.input(1)!, axis));
  const ch = cells(gh, 2n);
  const cw = cells(gw, 3n);
  const step = (stride: number, cellsV: Value, axis: bigint): Value =>
    (stride !== 0 ? f32Const(c, stride, []) : on(c, 'Div', [cast(c, dimOf(c.input(2)!, axis), 'f32'), cast(c, cellsV, 'f32')]));
  const centres = (n: Value, s: Value): Value => on(c, 'Mul', [on(c, 'Add', [cast(c, on(c, 'Range', [i64Scalar(c, 0n), n, i64Scalar(c, 1n)]), 'f32'), f32Const(c, 0.5, [])]), s]);
  const sx = centres(cw, step(strideX, cw, 3n)); // [W]
  const sy = centres(ch, step(strideY, ch, 2n)); // [H]
  const x = on(c, 'Expand', [unsqueeze(c, sx, [0n, 2n, 3n]), on(c, 'Concat', [unsqueeze(c, ch, [0n]), unsqueeze(c, cw, [0n]), i64Const(c, [1n, 1n])], { axis: A.int(0) })]); // [H, W, 1, 1]
  const y = on(c, 'Expand', [unsqueeze(c, sy, [1n, 2n, 3n]), on(c, 'Concat', [unsqueeze(c, ch, [0n]), unsqueeze(c, cw, [0n]), i64Const(c, [1n, 1n])], { axis: A.int(0) })]);
  const shift = on(c, 'Concat', [x, y, x, y], { axis: A.int(3) }); // [H, W, 1, 4]
  const grid = on(c, 'Add', [unsqueeze(c, priors, [0n, 1n]), shift]); // [H, W, P, 4]
  const out = flatten ? on(c, 'Reshape', [grid, i64Const(c, [-1n, 4n])]) : grid;
  const elem = c.elem(0) ?? 'f32';
  c.output(0, elem === 'f32' ? out : cast(c, out, elem));
}

export const EXPERIMENTAL_DETECTRON_PRIOR_GRID: readonly OpMapping[] = [
  {
    onnx: { op: 'Range', since: 11 },
    ir: { op: 'ExperimentalDetectronPriorGridGenerator', version: 'opset6' },
    when: never,
    handles: { ir: ['flatten', 'h', 'w', 'stride_x', 'stride_y'] },
    note: 'the priors plus the grid\'s cell centres (Range · step), as ONNX ops',
    toIr: irOnly,
    toOnnx: priorGridToOnnx,
  },
];
