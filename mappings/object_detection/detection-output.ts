import { A } from '../../src/graph/attr.js';
import { tensorFromBool, tensorFromFloat32, tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import { irOnly, never, on } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * DetectionOutput-1 and DetectionOutput-8 (the SSD head's last layer) as an ONNX subgraph that
 * computes what OpenVINO's CPU plugin computes (intel_cpu nodes/detection_output.cpp):
 * - decoding: each prior (the priors' first row, [xmin, ymin, xmax, ymax] after an image id when not
 *   normalized, then divided by input_width / input_height) with its variances (the second row,
 *   4 per prior) and the location offsets — CORNER: prior + variance·offset; CENTER_SIZE: centre
 *   variance·offset·size + centre, size exp(variance·offset)·size; variance_encoded_in_target: the
 *   variances are 1 — per class when share_location is false, clipped to [0, 1] if clip_before_nms;
 *   with the two extra inputs (arm confidence, arm location) the priors are first decoded by the arm
 *   location, and a prior whose arm objectness is below objectness_score gets confidence 1 for the
 *   background class and 0 for the others; a not-normalized prior list ends at an image id −1;
 * - candidates (Caffe style): per image and class other than background_label_id, the priors
 *   whose confidence is above confidence_threshold, the top_k best of them; (MXNet style,
 *   decrease_label_id): per prior its best class other than 0 when that score is at least the
 *   threshold, the top_k best priors of the image;
 * - NMS per image and class (ONNX NonMaxSuppression; a box OpenVINO's overlap counts as empty —
 *   xmax < xmin or ymax < ymin — as an empty box, which suppresses nothing), then the keep_top_k
 *   best detections of each image;
 * - the output [1, 1, rows, 7]: per image, per class, by descending score, the rows (image,
 *   label (less 1 with decrease_label_id), score, xmin, ymin, xmax, ymax), clipped if
 *   clip_after_nms; then, if rows remain, one row [−1, 0, …] and zeros (rows: images × keep_top_k,
 *   or images × top_k × classes, or images × classes × priors, as OpenVINO's shape inference).
 * f16 / bf16 inputs are computed in f32 (as the CPU plugin reads them) and the rows cast back.
 * The data sizes must be static, but for the number of images of the location and confidence. code_type CORNER_SIZE, which neither OpenVINO's CPU plugin nor its
 * reference decodes, is refused (CONVERT_UNSUPPORTED_ATTR), as is decrease_label_id with a
 * background other than 0 (the CPU plugin refuses it).
 */
const CORNER = 'caffe.PriorBoxParameter.CORNER';
const CENTER_SIZE = 'caffe.PriorBoxParameter.CENTER_SIZE';

/** Input i's dims, the first (the images) may be dynamic (null); null when another dim is not static. */
function knownShape(c: ConvertContext, i: number): (number | null)[] | null {
  const t = c.type(i);
  if (t?.kind !== 'tensor' || t.shape === null) return null;
  const dims = t.shape.map((d) => (typeof d === 'number' ? d : null));
  return dims.slice(1).every((d) => d !== null) ? dims : null;
}

function detectionOutputToOnnx(c: ConvertContext): void {
  const codeType = (c.attr.string('code_type') ?? CORNER).trim();
  const caseless = codeType.toLowerCase();
  if (caseless !== CORNER.toLowerCase() && caseless !== CENTER_SIZE.toLowerCase()) {
    c.unsupportedAttr('code_type', codeType, `supported: ${CORNER}, ${CENTER_SIZE} (OpenVINO's CPU plugin decodes no other)`);
    return;
  }
  const centerSize = caseless === CENTER_SIZE.toLowerCase();
  const shareLocation = c.attr.bool('share_location') ?? true;
  const varianceInTarget = c.attr.bool('variance_encoded_in_target') ?? false;
  const normalized = c.attr.bool('normalized') ?? false;
  const clipBefore = c.attr.bool('clip_before_nms') ?? false;
  const clipAfter = c.attr.bool('clip_after_nms') ?? false;
  const decreaseLabel = c.attr.bool('decrease_label_id') ?? false;
  const background = Number(c.attr.int('background_label_id') ?? 0n);
  const topK = Number(c.attr.int('top_k') ?? -1n);
  const keepTopKs = c.attr.ints('keep_top_k') ?? [];
  const nmsThreshold = c.attr.float('nms_threshold') ?? 0;
  const threshold = c.attr.float('confidence_threshold') ?? 0;
  const objectness = c.attr.float('objectness_score') ?? 0;
  const inputHeight = Number(c.attr.int('input_height') ?? 1n);
  const inputWidth = Number(c.attr.int('input_width') ?? 1n);
  if (keepTopKs.length === 0) { c.unsupportedAttr('keep_top_k', '', 'at least one value'); return; }
  const keepTopK = Number(keepTopKs[0]!);
  if (decreaseLabel && background !== 0) {
    c.unsupportedAttr('background_label_id', String(background), 'with decrease_label_id the background must be 0 (OpenVINO\'s CPU plugin refuses any other)');
    return;
  }
  const arm = c.numInputs >= 5 && c.input(3) !== null && c.input(4) !== null;
  const shapes = [0, 1, 2, ...(arm ? [3, 4] : [])].map((i) => knownShape(c, i));
  const bad = shapes.findIndex((s, i) => s === null || (i === 2 && s[0] === null));
  if (bad >= 0) { c.error(`DetectionOutput: input ${bad} needs a static shape${bad === 2 ? '' : ' (but for the images)'}`); return; }
  const FLOATS: ReadonlySet<string> = new Set(['f32', 'f16', 'bf16']);
  for (let i = 0; i < shapes.length; i++) if (!FLOATS.has(c.elem(i) ?? '')) { c.error(`DetectionOutput: input ${i} is ${c.elem(i) ?? 'of unknown type'}; supported: f32, f16, bf16`); return; }
  const [locShape, confShape, priorShape] = shapes as [(number | null)[], (number | null)[], number[]];
  const boxSize = normalized ? 4 : 5;
  const N = locShape[0] ?? confShape[0] ?? null;
  const Pb = priorShape[0]!;
  const rowsOfPriors = priorShape[1]!;
  const P = Math.floor(priorShape[2]! / boxSize);
  const C = c.node.version === 'opset1' ? Number(c.attr.int('num_classes') ?? -1n) : Math.floor(confShape[1]! / P);
  const Cl = shareLocation ? 1 : C;
  if (priorShape.length !== 3 || (Pb !== 1 && Pb !== N) || P < 1 || C < 1 || confShape[1] !== P * C || locShape[1] !== P * Cl * 4 || (confShape[0] !== null && confShape[0] !== N)
    || (!varianceInTarget && rowsOfPriors < 2) || (varianceInTarget && Pb > 1 && rowsOfPriors !== 1)) {
    c.error(`DetectionOutput: the shapes location [${locShape.join(',')}], confidence [${confShape.join(',')}] and priors [${priorShape.join(',')}] do not hold ${P} priors of ${C} classes`);
    return;
  }
  const perImage = keepTopK > 0 ? keepTopK : topK > 0 ? topK * C : C * P;

  const I = (v: readonly number[]): Value => i64Const(c, v.map(BigInt));
  // the CPU plugin reads f16 / bf16 inputs as f32 and computes in f32
  const asF32: Value[] = [];
  const input = (i: number): Value => (asF32[i] ??= c.elem(i) === 'f32' ? c.input(i)! : on(c, 'Cast', [c.input(i)!], { to: A.int(1) }));
  const F = (v: number): Value => c.constant(tensorFromFloat32([v], []));
  const slice = (v: Value, axis: number, from: number, to: number): Value => on(c, 'Slice', [v, I([from]), I([to]), I([axis])]);
  const reshape = (v: Value, dims: readonly number[]): Value => on(c, 'Reshape', [v, I(dims)]);
  const filledAs = (shape: Value, value: number): Value => on(c, 'ConstantOfShape', [shape], { value: A.tensor(tensorFromFloat32([value], [1])) });
  const filled = (like: Value, value: number): Value => filledAs(on(c, 'Shape', [like]), value);
  const bool = (v: Value): Value => on(c, 'Cast', [v], { to: A.int(9) });
  /** Where `mask` holds, the top `k` of `scores` along `axis` (as a mask of that shape). */
  const topMask = (scores: Value, mask: Value, k: number, axis: number): Value => {
    const masked = on(c, 'Where', [mask, scores, F(-Infinity)]);
    const [, idx] = c.emit('TopK', [masked, I([k])], { axis: A.int(axis), largest: A.int(1), sorted: A.int(1) }, 2);
    const hit = on(c, 'ScatterElements', [filled(masked, 0), idx!, filled(idx!, 1)], { axis: A.int(axis) });
    return on(c, 'And', [mask, bool(hit)]);
  };

  // priors [Pb, 1, P, 4] and variances [Pb, 1, P, 4]
  const priorRow = (r: number): Value => reshape(slice(input(2), 1, r, r + 1), [Pb, 1, -1]);
  const first = reshape(slice(priorRow(0), 2, 0, P * boxSize), [Pb, 1, P, boxSize]);
  const priors = normalized ? first : slice(first, 3, 1, 5);
  const variances = varianceInTarget ? null : reshape(slice(priorRow(1), 2, 0, 4 * P), [Pb, 1, P, 4]);
  const scale = normalized ? null : c.constant(tensorFromFloat32([inputWidth, inputHeight, inputWidth, inputHeight], [4]));
  const byClass = (i: number): Value => on(c, 'Transpose', [reshape(input(i), [0, P, Cl, 4])], { perm: A.ints([0n, 2n, 1n, 3n]) });
  const decode = (prior: Value, loc: Value): Value => {
    const p = scale ? on(c, 'Div', [prior, scale]) : prior;
    let out: Value;
    if (!centerSize) out = on(c, 'Add', [p, variances ? on(c, 'Mul', [variances, loc]) : loc]);
    else {
      const lo = slice(p, 3, 0, 2);
      const hi = slice(p, 3, 2, 4);
      const size = on(c, 'Sub', [hi, lo]);
      const center = on(c, 'Div', [on(c, 'Add', [lo, hi]), F(2)]);
      const scaled = (from: number): Value => (variances ? on(c, 'Mul', [slice(variances, 3, from, from + 2), slice(loc, 3, from, from + 2)]) : slice(loc, 3, from, from + 2));
      const mid = on(c, 'Add', [on(c, 'Mul', [scaled(0), size]), center]);
      const half = on(c, 'Div', [on(c, 'Mul', [on(c, 'Exp', [scaled(2)]), size]), F(2)]);
      out = on(c, 'Concat', [on(c, 'Sub', [mid, half]), on(c, 'Add', [mid, half])], { axis: A.int(3) });
    }
    return clipBefore ? on(c, 'Clip', [out, F(0), F(1)]) : out;
  };
  // decoded boxes [N, Cl, P, 4]
  const decoded = decode(arm ? decode(priors, byClass(4)) : priors, byClass(0));

  // confidences [N, C, P]
  let conf = on(c, 'Transpose', [reshape(input(1), [0, P, C])], { perm: A.ints([0n, 2n, 1n]) });
  if (arm) {
    const objectnessOf = on(c, 'Transpose', [slice(reshape(input(3), [0, P, 2]), 2, 1, 2)], { perm: A.ints([0n, 2n, 1n]) });
    const onlyBackground = c.constant(tensorFromFloat32(Array.from({ length: C }, (_, k) => (k === background ? 1 : 0)), [1, C, 1]));
    conf = on(c, 'Where', [on(c, 'Less', [objectnessOf, F(objectness)]), onlyBackground, conf]);
  }
  // priors after an image id −1 (not normalized) are no candidates
  const listed = normalized ? null : on(c, 'Equal', [
    on(c, 'CumSum', [reshape(on(c, 'Cast', [on(c, 'Equal', [slice(first, 3, 0, 1), F(-1)])], { to: A.int(1) }), [Pb, 1, P]), c.constant(tensorFromInt64([2], []))]),
    F(0),
  ]);
  const classIds = c.constant(tensorFromInt64(Array.from({ length: C }, (_, k) => k), [1, C, 1]));
  let candidates: Value;
  if (!decreaseLabel) {
    candidates = on(c, 'Greater', [conf, F(threshold)]);
    if (background >= 0 && background < C) candidates = on(c, 'And', [candidates, c.constant(tensorFromBool(Array.from({ length: C }, (_, k) => k !== background), [1, C, 1]))]);
    if (listed) candidates = on(c, 'And', [candidates, listed]);
    if (topK === 0) candidates = on(c, 'And', [candidates, c.constant(tensorFromBool([false], [1, 1, 1]))]);
    else if (topK > 0 && topK < P) candidates = topMask(conf, candidates, topK, 2);
  } else {
    const others = slice(conf, 1, 1, C);
    const best = on(c, 'ArgMax', [others], { axis: A.int(1), keepdims: A.int(1) });
    const score = on(c, 'GatherElements', [others, best], { axis: A.int(1) });
    let ok = on(c, 'And', [on(c, 'GreaterOrEqual', [score, F(threshold)]), on(c, 'Greater', [score, F(-1)])]);
    if (listed) ok = on(c, 'And', [ok, listed]);
    candidates = on(c, 'And', [on(c, 'Equal', [classIds, on(c, 'Add', [best, c.constant(tensorFromInt64([1], []))])]), ok]);
    // the top_k of the image, equal scores by class, then prior (the CPU plugin's order)
    if (topK === 0) candidates = on(c, 'And', [candidates, c.constant(tensorFromBool([false], [1, 1, 1]))]);
    else if (topK > 0 && topK < P) candidates = reshape(topMask(reshape(conf, [0, C * P]), reshape(candidates, [0, C * P]), topK, 1), [0, C, P]);
  }

  // NMS per image and class; OpenVINO finds no overlap with an inverted box
  const x = slice(decoded, 3, 0, 1);
  const y = slice(decoded, 3, 1, 2);
  const upright = on(c, 'And', [on(c, 'GreaterOrEqual', [slice(decoded, 3, 2, 3), x]), on(c, 'GreaterOrEqual', [slice(decoded, 3, 3, 4), y])]);
  const nmsBoxes = on(c, 'Where', [upright, decoded, F(0)]);
  const nmsScores = on(c, 'Where', [candidates, conf, F(-3.4e38)]);
  const [selected] = c.emit('NonMaxSuppression', [
    reshape(nmsBoxes, [-1, P, 4]),
    reshape(nmsScores, [-1, shareLocation ? C : 1, P]),
    I([P]), c.constant(tensorFromFloat32([nmsThreshold], [1])), c.constant(tensorFromFloat32([-1e38], [1])),
  ], { center_point_box: A.int(0) });
  const zeros = filled(reshape(nmsScores, [-1, shareLocation ? C : 1, P]), 0);
  let kept = bool(reshape(on(c, 'ScatterND', [zeros, selected!, filledAs(slice(on(c, 'Shape', [selected!]), 0, 0, 1), 1)]), [-1, C, P]));
  if (keepTopK === 0) kept = on(c, 'And', [kept, c.constant(tensorFromBool([false], [1, 1, 1]))]);
  else if (keepTopK > 0 && keepTopK < C * P) {
    // the keep_top_k of the image, equal scores by prior (the CPU plugin's order): prior-major
    const priorMajor = (v: Value): Value => reshape(on(c, 'Transpose', [v], { perm: A.ints([0n, 2n, 1n]) }), [0, P * C]);
    kept = on(c, 'Transpose', [reshape(topMask(priorMajor(conf), priorMajor(kept), keepTopK, 1), [0, P, C])], { perm: A.ints([0n, 2n, 1n]) });
  }

  // rows per image, per class, by descending score
  const [, order] = c.emit('TopK', [on(c, 'Where', [kept, conf, F(-Infinity)]), I([P])], { axis: A.int(2), largest: A.int(1), sorted: A.int(1) }, 2);
  const at = on(c, 'Transpose', [on(c, 'NonZero', [on(c, 'GatherElements', [kept, order!], { axis: A.int(2) })])], { perm: A.ints([1n, 0n]) });
  const image = slice(at, 1, 0, 1);
  const cls = slice(at, 1, 1, 2);
  const prior = reshape(on(c, 'GatherND', [order!, at]), [-1, 1]);
  const score = reshape(on(c, 'GatherND', [conf, on(c, 'Concat', [image, cls, prior], { axis: A.int(1) })]), [-1, 1]);
  const boxClass = shareLocation ? on(c, 'Mul', [cls, c.constant(tensorFromInt64([0], []))]) : cls;
  let box = on(c, 'GatherND', [decoded, on(c, 'Concat', [image, boxClass, prior], { axis: A.int(1) })]);
  if (clipAfter) box = on(c, 'Clip', [box, F(0), F(1)]);
  const label = decreaseLabel ? on(c, 'Sub', [cls, c.constant(tensorFromInt64([1], []))]) : cls;
  const float = (v: Value): Value => on(c, 'Cast', [v], { to: A.int(1) });
  const found = on(c, 'Concat', [float(image), float(label), score, box], { axis: A.int(1) });
  const end = c.constant(tensorFromFloat32([-1, 0, 0, 0, 0, 0, 0], [1, 7]));
  // images × perImage rows (known at run time only when the images are)
  const rows = N !== null ? I([N * perImage]) : on(c, 'Mul', [slice(on(c, 'Shape', [input(0)]), 0, 0, 1), I([perImage])]);
  const padding = filledAs(on(c, 'Concat', [rows, I([7])], { axis: A.int(0) }), 0);
  const all = on(c, 'Slice', [on(c, 'Concat', [found, end, padding], { axis: A.int(0) }), I([0]), rows, I([0])]);
  const result = reshape(all, [1, 1, -1, 7]);
  const outElem = c.elem(0);
  c.output(0, outElem === 'f32' ? result : on(c, 'Cast', [result], { to: A.int(outElem === 'f16' ? 10 : 16) }));
}

const HANDLES = ['num_classes', 'background_label_id', 'top_k', 'variance_encoded_in_target', 'keep_top_k', 'code_type', 'share_location', 'nms_threshold',
  'confidence_threshold', 'clip_after_nms', 'clip_before_nms', 'decrease_label_id', 'normalized', 'input_height', 'input_width', 'objectness_score'];

export const DETECTION_OUTPUT: readonly OpMapping[] = [
  {
    onnx: { op: 'NonMaxSuppression', since: 12 },
    ir: { op: 'DetectionOutput', version: 'opset8', reads: ['opset1'] },
    when: never,
    handles: { ir: HANDLES },
    note: 'an ONNX subgraph (decoding, NonMaxSuppression per image and class, keep_top_k, rows padded as OpenVINO\'s CPU plugin writes them)',
    toIr: irOnly,
    toOnnx: detectionOutputToOnnx,
  },
];
