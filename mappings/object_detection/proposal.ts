import { A } from '../../src/graph/attr.js';
import { tensorFromFloat32 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, irOnly, never, on, reduce, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { asF32, f32Const } from './nms-rows.js';

/**
 * Proposal-1/4 (Faster R-CNN IRs of the Open Model Zoo) as ONNX ops, following OpenVINO's CPU
 * plugin (intel_cpu/src/nodes/proposal.cpp, proposal_imp.cpp). framework "" (Caffe: coordinate
 * offset 1, ratios rounded) or "tensorflow" (offset 0, anchors shifted by half the base size,
 * clipped first, x along H). The anchors depend on attributes only: computed here in f32 as the
 * plugin does. Per batch, for each cell (h, w) and anchor a (ratio-major):
 *   x = w·feat_stride + anchor (x along h for tensorflow), the box moved by the deltas
 *   (dx, dy / box_coordinate_scale, d log w, d log h / box_size_scale) around its centre, clipped
 *   to [0, size − offset] (clip_before_nms), its score (the second half of class_probs) zeroed when
 *   narrower or lower than min_size × the image scale;
 *   the pre_nms_topn best (TopK), greedy NMS (IoU > nms_thresh, the areas +offset: ONNX
 *   NonMaxSuppression over x2 + offset, y2 + offset) up to post_nms_topn;
 *   rows (batch, x0, y0, x1, y1), clipped to the image (clip_after_nms), over its size (normalize),
 *   post_nms_topn per batch: after the kept ones a row (−1, 0, 0, 0, 0), then zeros, as the plugin
 *   writes them. Proposal-4's scores: the kept boxes' scores, 0 after them (the plugin leaves those
 *   unwritten).
 */
const f = Math.fround;

/** The anchors as proposal.cpp generates them: [4, A] (x0, y0, x1, y1 offsets), A = ratios × scales. */
function anchors(baseSize: number, ratios: readonly number[], scales: readonly number[], tensorflow: boolean): number[][] {
  const offset = tensorflow ? 0 : 1;
  const baseArea = f(baseSize * baseSize);
  const half = f(baseSize * 0.5);
  const center = f(0.5 * f(baseSize - offset));
  const out: number[][] = [[], [], [], []];
  for (const r of ratios) {
    const ratio = f(r);
    let w = f(Math.sqrt(f(baseArea / ratio)));
    let h = f(w * ratio);
    if (!tensorflow) { w = roundHalfAway(w); h = roundHalfAway(f(w * ratio)); }
    for (const s of scales) {
      const sw = f(0.5 * f(f(w * f(s)) - offset));
      const sh = f(0.5 * f(f(h * f(s)) - offset));
      const box = [f(center - sw), f(center - sh), f(center + sw), f(center + sh)];
      for (let k = 0; k < 4; k++) out[k]!.push(tensorflow ? f(box[k]! - half) : box[k]!);
    }
  }
  return out;
}

const roundHalfAway = (v: number): number => Math.sign(v) * Math.round(Math.abs(v));

function proposalToOnnx(c: ConvertContext): void {
  const framework = (c.attr.string('framework') ?? '').trim().toLowerCase();
  if (framework !== '' && framework !== 'caffe' && framework !== 'tensorflow') { c.unsupportedAttr('framework', framework, 'supported: "" (Caffe), tensorflow'); return; }
  const tf = framework === 'tensorflow';
  const offset = tf ? 0 : 1;
  const baseSize = Number(c.attr.int('base_size') ?? 0n);
  const preTop = c.attr.int('pre_nms_topn') ?? 0n;
  const postTop = c.attr.int('post_nms_topn') ?? 0n;
  const nmsThresh = c.attr.float('nms_thresh') ?? 0;
  const stride = c.attr.int('feat_stride') ?? 0n;
  const minSize = c.attr.int('min_size') ?? 0n;
  const ratios = c.attr.floats('ratio') ?? [];
  const scales = c.attr.floats('scale') ?? [];
  const clipBefore = c.attr.bool('clip_before_nms') ?? true;
  const clipAfter = c.attr.bool('clip_after_nms') ?? false;
  const normalize = c.attr.bool('normalize') ?? false;
  const sizeScale = c.attr.float('box_size_scale') ?? 1;
  const coordScale = c.attr.float('box_coordinate_scale') ?? 1;
  if (ratios.length === 0 || scales.length === 0) { c.unsupportedAttr('ratio', ratios.join(','), 'at least one ratio and one scale'); return; }
  if (postTop <= 0n || preTop <= 0n) { c.unsupportedAttr('post_nms_topn', String(postTop), 'pre_nms_topn and post_nms_topn must be positive'); return; }
  if (c.opset < 11) { c.error(`Proposal is written with ONNX Range, ScatterND and TopK-11 (opset 11 or later; target ${c.opset})`); return; }
  const nAnchors = ratios.length * scales.length;
  const [wm, hm, wp, hp] = anchors(baseSize, ratios, scales, tf).map((v) => c.constant(tensorFromFloat32(v, [nAnchors]))) as [Value, Value, Value, Value];
  const probs = asF32(c, 0); // [N, 2A, H, W]
  const deltas = asF32(c, 1); // [N, 4A, H, W]
  const info = asF32(c, 2); // [3] or [4]
  const at = (v: Value, i: bigint): Value => on(c, 'Gather', [v, i64Scalar(c, i)], { axis: A.int(0) });
  const imgH = at(info, tf ? 1n : 0n);
  const imgW = at(info, tf ? 0n : 1n);
  const scaleH = at(info, 2n);
  const scaleW = on(c, 'Gather', [info, on(c, 'Sub', [on(c, 'Shape', [info]), i64Const(c, [1n])])], { axis: A.int(0) }); // [3] → index 2, [4] → 3
  const shape = on(c, 'Shape', [probs]);
  const dim = (i: bigint): Value => at(shape, i);
  const grid = (d: Value, axes: bigint[]): Value => unsqueeze(c, cast(c, on(c, 'Mul', [on(c, 'Range', [i64Scalar(c, 0n), d, i64Scalar(c, 1n)]), i64Scalar(c, stride)]), 'f32'), axes);
  const hs = grid(dim(2n), [1n, 2n]); // [H, 1, 1]
  const ws = grid(dim(3n), [0n, 2n]); // [1, W, 1]
  const [gx, gy] = tf ? [hs, ws] : [ws, hs];
  const op = (name: string, a: Value, b: Value): Value => on(c, name, [a, b]);
  const clamp = (v: Value, hi: Value): Value => op('Max', f32Const(c, 0, []), op('Min', v, hi));
  let x0 = op('Add', gx, wm); let y0 = op('Add', gy, hm); let x1 = op('Add', gx, wp); let y1 = op('Add', gy, hp); // [H, W, A]
  if (tf) { x0 = clamp(x0, imgW); y0 = clamp(y0, imgH); x1 = clamp(x1, imgW); y1 = clamp(y1, imgH); }
  // deltas [N, 4A, H, W] → [N, H, W, A, 4]
  const d = on(c, 'Transpose', [on(c, 'Reshape', [deltas, on(c, 'Concat', [on(c, 'Slice', [shape, i64Const(c, [0n]), i64Const(c, [1n])]), i64Const(c, [BigInt(nAnchors), 4n]), on(c, 'Slice', [shape, i64Const(c, [2n]), i64Const(c, [4n])])], { axis: A.int(0) })])], { perm: A.ints([0n, 3n, 4n, 1n, 2n]) });
  const comp = (k: bigint, scale: number): Value => op('Div', on(c, 'Gather', [d, i64Scalar(c, k)], { axis: A.int(-1) }), f32Const(c, scale, []));
  const [dx, dy, dw, dh] = [comp(0n, coordScale), comp(1n, coordScale), comp(2n, sizeScale), comp(3n, sizeScale)];
  const off = f32Const(c, offset, []);
  const halfC = f32Const(c, 0.5, []);
  const ww = op('Add', op('Sub', x1, x0), off);
  const hh = op('Add', op('Sub', y1, y0), off);
  const cx = op('Add', op('Mul', dx, ww), op('Add', x0, op('Mul', halfC, ww)));
  const cy = op('Add', op('Mul', dy, hh), op('Add', y0, op('Mul', halfC, hh)));
  const pw = op('Mul', on(c, 'Exp', [dw]), ww);
  const ph = op('Mul', on(c, 'Exp', [dh]), hh);
  let bx0 = op('Sub', cx, op('Mul', halfC, pw)); let by0 = op('Sub', cy, op('Mul', halfC, ph));
  let bx1 = op('Add', cx, op('Mul', halfC, pw)); let by1 = op('Add', cy, op('Mul', halfC, ph)); // [N, H, W, A]
  if (clipBefore) {
    const wLim = op('Sub', imgW, off); const hLim = op('Sub', imgH, off);
    bx0 = clamp(bx0, wLim); by0 = clamp(by0, hLim); bx1 = clamp(bx1, wLim); by1 = clamp(by1, hLim);
  }
  const bw = op('Add', op('Sub', bx1, bx0), off);
  const bh = op('Add', op('Sub', by1, by0), off);
  const minSizeF = f32Const(c, Number(minSize), []);
  const atLeast = (v: Value, lo: Value): Value => on(c, 'Not', [op('Less', v, lo)]);
  const big = on(c, 'And', [atLeast(bw, op('Mul', minSizeF, scaleW)), atLeast(bh, op('Mul', minSizeF, scaleH))]);
  const fg = on(c, 'Transpose', [on(c, 'Slice', [probs, i64Const(c, [BigInt(nAnchors)]), i64Const(c, [BigInt(2 * nAnchors)]), i64Const(c, [1n])])], { perm: A.ints([0n, 2n, 3n, 1n]) }); // [N, H, W, A]
  const score = on(c, 'Where', [big, fg, f32Const(c, 0, [])]);
  // every proposal of a batch in (h, w, a) order: boxes [N, P, 4], scores [N, P]
  const flat = (v: Value): Value => on(c, 'Reshape', [v, i64Const(c, [0n, -1n, 1n])]);
  const boxes = on(c, 'Concat', [flat(bx0), flat(by0), flat(bx1), flat(by1)], { axis: A.int(2) });
  const scores = on(c, 'Reshape', [score, i64Const(c, [0n, -1n])]);
  const p = on(c, 'Slice', [on(c, 'Shape', [scores]), i64Const(c, [1n]), i64Const(c, [2n])]);
  const [topScores, topIdx] = c.emit('TopK', [scores, op('Min', p, i64Const(c, [preTop]))], { axis: A.int(1), largest: A.int(1), sorted: A.int(1) }, 2); // [N, k]
  const topBoxes = on(c, 'GatherElements', [boxes, on(c, 'Expand', [unsqueeze(c, topIdx!, [2n]), on(c, 'Concat', [on(c, 'Shape', [topIdx!]), i64Const(c, [4n])], { axis: A.int(0) })])], { axis: A.int(1) }); // [N, k, 4]
  const nmsBoxes = offset === 0 ? topBoxes : op('Add', topBoxes, c.constant(tensorFromFloat32([0, 0, 1, 1], [4])));
  const sel = on(c, 'NonMaxSuppression', [nmsBoxes, unsqueeze(c, topScores!, [1n]), i64Const(c, [postTop]), f32Const(c, nmsThresh)]); // [K, 3]
  const batch = on(c, 'Gather', [sel, i64Scalar(c, 0n)], { axis: A.int(1) });
  const pair = on(c, 'Gather', [sel, i64Const(c, [0n, 2n])], { axis: A.int(1) });
  let kept = on(c, 'GatherND', [topBoxes, pair]); // [K, 4]
  if (clipAfter) {
    const lim = on(c, 'Concat', [unsqueeze(c, imgW, [0n]), unsqueeze(c, imgH, [0n]), unsqueeze(c, imgW, [0n]), unsqueeze(c, imgH, [0n])], { axis: A.int(0) });
    kept = clamp(kept, lim);
  }
  if (normalize) kept = op('Div', kept, on(c, 'Concat', [unsqueeze(c, imgW, [0n]), unsqueeze(c, imgH, [0n]), unsqueeze(c, imgW, [0n]), unsqueeze(c, imgH, [0n])], { axis: A.int(0) }));
  const rows = on(c, 'Concat', [unsqueeze(c, cast(c, batch, 'f32'), [1n]), kept], { axis: A.int(1) }); // [K, 5]
  // row of each kept box: batch · post_nms_topn + its rank in the batch (NMS lists batch by batch)
  const n = dim(0n);
  const batches = on(c, 'Range', [i64Scalar(c, 0n), n, i64Scalar(c, 1n)]);
  const counts = reduce(c, 'ReduceSum', cast(c, op('Equal', unsqueeze(c, batch, [1n]), batches), 'i64'), [0n], false); // [N]
  const first = on(c, 'CumSum', [counts, i64Scalar(c, 0n)], { exclusive: A.int(1) });
  const k = on(c, 'Shape', [batch]);
  const rank = op('Sub', on(c, 'Range', [i64Scalar(c, 0n), on(c, 'Squeeze', [k]), i64Scalar(c, 1n)]), on(c, 'Gather', [first, batch], { axis: A.int(0) }));
  const slot = unsqueeze(c, op('Add', op('Mul', batch, i64Scalar(c, postTop)), rank), [1n]); // [K, 1]
  // the padding: (−1, 0, 0, 0, 0) right after each batch's kept rows, zeros after it
  const marker = op('Equal', unsqueeze(c, on(c, 'Range', [i64Scalar(c, 0n), i64Scalar(c, postTop), i64Scalar(c, 1n)]), [0n]), unsqueeze(c, counts, [1n])); // [N, post]
  const col0 = on(c, 'Reshape', [on(c, 'Where', [marker, f32Const(c, -1, []), f32Const(c, 0, [])]), i64Const(c, [-1n, 1n])]); // [N·post, 1]
  const zeros = (tail: bigint[]): Value => on(c, 'Expand', [f32Const(c, 0, []), on(c, 'Concat', [on(c, 'Slice', [on(c, 'Shape', [col0]), i64Const(c, [0n]), i64Const(c, [1n])]), ...(tail.length ? [i64Const(c, tail)] : [])], { axis: A.int(0) })]);
  const base = on(c, 'Concat', [col0, zeros([4n])], { axis: A.int(1) }); // [N·post, 5]
  const out = on(c, 'ScatterND', [base, slot, rows]);
  const elem = c.elem(0) ?? 'f32';
  c.output(0, elem === 'f32' ? out : cast(c, out, elem));
  if (c.node.outputs.length > 1) {
    const keptScores = on(c, 'GatherND', [topScores!, pair]);
    const probsOut = on(c, 'ScatterND', [zeros([]), slot, keptScores]);
    c.output(1, elem === 'f32' ? probsOut : cast(c, probsOut, elem));
  }
}

const ATTRS = ['base_size', 'pre_nms_topn', 'post_nms_topn', 'nms_thresh', 'feat_stride', 'min_size', 'ratio', 'scale', 'clip_before_nms', 'clip_after_nms', 'normalize', 'box_size_scale', 'box_coordinate_scale', 'framework'];

export const PROPOSAL: readonly OpMapping[] = [
  {
    onnx: { op: 'NonMaxSuppression', since: 11 },
    ir: { op: 'Proposal', version: 'opset4', reads: ['opset1'] },
    when: never,
    handles: { ir: ATTRS },
    note: 'anchors computed at conversion; box deltas, clipping, min_size, TopK, ONNX NonMaxSuppression and the padded rows as OpenVINO\'s CPU plugin writes them',
    toIr: irOnly,
    toOnnx: proposalToOnnx,
  },
];
