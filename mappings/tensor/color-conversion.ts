import { A } from '../../src/graph/attr.js';
import { elementType } from '../../src/graph/element-type.js';
import { tensorFromFloat32 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import { cast, irOnly, never, on } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * NV12toRGB-8, NV12toBGR-8, I420toRGB-8, I420toBGR-8 (preprocessing of the Open Model Zoo and
 * OpenVINO's PrePostProcessor), which ONNX lacks, after OpenVINO's reference
 * (convert_color_nv12.hpp): from NHWC planes — NV12: Y [N, H, W, 1] and interleaved UV
 * [N, H/2, W/2, 2], or one plane [N, 3H/2, W, 1]; I420: Y, U [N, H/2, W/2, 1], V, or one plane —
 * each pixel takes the U and V of its 2×2 block and, in f32, c = Y − 16, d = U − 128, e = V − 128,
 *   R = 1.164c + 1.596e, G = 1.164c − 0.391d − 0.813e, B = 1.164c + 2.018d,
 * clamped to [0, 255] (integer types: rounded half away from zero first); output [N, H, W, 3] in
 * RGB or BGR order, of the input's type. Written as Slice/Reshape of the planes, an Expand of the
 * chroma to 2×2 blocks, the formulas (Mul/Add/Sub), Clip, Floor + (x − ⌊x⌋ ≥ ½) (ONNX Round rounds
 * half to even), Concat, Cast. Needs static H and W.
 */
const f = (c: ConvertContext, v: number): Value => c.constant(tensorFromFloat32([v], []));

function colorToOnnx(c: ConvertContext, kind: 'nv12' | 'i420', bgr: boolean): void {
  const elem = c.elem(0);
  const t = c.type(0);
  const shape = t?.kind === 'tensor' ? t.shape : null;
  if (elem === null || elem === 'dynamic' || shape === null || shape.length !== 4 || typeof shape[1] !== 'number' || typeof shape[2] !== 'number') {
    c.error(`${c.node.op} needs NHWC input planes of a known element type with static H and W`);
    return;
  }
  const single = c.numInputs === 1;
  const H = single ? (shape[1] * 2) / 3 : shape[1];
  const W = shape[2];
  if (!Number.isInteger(H) || H % 2 !== 0 || W % 2 !== 0) { c.error(`${c.node.op}: image ${H}×${W} (H and W must be even)`); return; }
  const big = (v: number): bigint => BigInt(v);
  const f32 = (v: Value): Value => (elem === 'f32' ? v : cast(c, v, 'f32'));
  let y: Value;
  let u: Value;
  let v: Value;
  const half = [0n, big(H / 2), big(W / 2), 1n];
  if (single) {
    const flat = on(c, 'Reshape', [c.input(0)!, i64Const(c, [0n, -1n])]);
    const part = (from: number, to: number, dims: bigint[]): Value =>
      on(c, 'Reshape', [on(c, 'Slice', [flat, i64Const(c, [big(from)]), i64Const(c, [big(to)]), i64Const(c, [1n])]), i64Const(c, dims)]);
    const n = H * W;
    y = part(0, n, [0n, big(H), big(W), 1n]);
    if (kind === 'nv12') {
      const uv = part(n, (3 * n) / 2, [0n, big(H / 2), big(W / 2), 2n]);
      u = on(c, 'Slice', [uv, i64Const(c, [0n]), i64Const(c, [1n]), i64Const(c, [3n])]);
      v = on(c, 'Slice', [uv, i64Const(c, [1n]), i64Const(c, [2n]), i64Const(c, [3n])]);
    } else {
      u = part(n, (5 * n) / 4, half);
      v = part((5 * n) / 4, (3 * n) / 2, half);
    }
  } else if (kind === 'nv12') {
    y = c.input(0)!;
    const uv = c.input(1)!;
    u = on(c, 'Slice', [uv, i64Const(c, [0n]), i64Const(c, [1n]), i64Const(c, [3n])]);
    v = on(c, 'Slice', [uv, i64Const(c, [1n]), i64Const(c, [2n]), i64Const(c, [3n])]);
  } else {
    [y, u, v] = [c.input(0)!, c.input(1)!, c.input(2)!];
  }
  // each chroma sample to its 2×2 block: [N, H/2, 1, W/2, 1, 1] → [N, H/2, 2, W/2, 2, 1] → [N, H, W, 1]
  const blocks = (p: Value): Value => {
    const six = on(c, 'Reshape', [p, i64Const(c, [0n, big(H / 2), 1n, big(W / 2), 1n, 1n])]);
    const grown = on(c, 'Expand', [six, i64Const(c, [1n, 1n, 2n, 1n, 2n, 1n])]);
    return on(c, 'Reshape', [grown, i64Const(c, [0n, big(H), big(W), 1n])]);
  };
  const cy = on(c, 'Sub', [f32(y), f(c, 16)]);
  const d = on(c, 'Sub', [f32(blocks(u)), f(c, 128)]);
  const e = on(c, 'Sub', [f32(blocks(v)), f(c, 128)]);
  const mul = (k: number, x: Value): Value => on(c, 'Mul', [f(c, k), x]);
  const yc = mul(1.164, cy);
  const r = on(c, 'Add', [yc, mul(1.596, e)]);
  const g = on(c, 'Sub', [on(c, 'Sub', [yc, mul(0.391, d)]), mul(0.813, e)]);
  const b = on(c, 'Add', [yc, mul(2.018, d)]);
  const integral = elementType(elem).kind !== 'float';
  const clip = (x: Value): Value => {
    let k = x;
    if (integral) {
      // std::round (half away from zero) of a value that is then clamped to [0, 255]
      const fl = on(c, 'Floor', [x]);
      k = on(c, 'Add', [fl, cast(c, on(c, 'GreaterOrEqual', [on(c, 'Sub', [x, fl]), f(c, 0.5)]), 'f32')]);
    }
    return on(c, 'Clip', [k, f(c, 0), f(c, 255)]);
  };
  const rgb = on(c, 'Concat', (bgr ? [b, g, r] : [r, g, b]).map(clip), { axis: A.int(3) });
  c.output(0, elem === 'f32' ? rgb : cast(c, rgb, elem));
}

const entry = (op: string, kind: 'nv12' | 'i420', bgr: boolean): OpMapping => ({
  onnx: { op: 'Concat', since: 13 },
  ir: { op, version: 'opset8' },
  when: never,
  note: `${kind === 'nv12' ? 'NV12' : 'I420'} planes to ${bgr ? 'BGR' : 'RGB'} by OpenVINO's formulas (f32, clamped; integers rounded half away from zero)`,
  toIr: irOnly,
  toOnnx: (c) => colorToOnnx(c, kind, bgr),
});

/**
 * RGBtoNV12-17 / BGRtoNV12-17, the other way, after OpenVINO's reference (convert_color_to_nv12.hpp;
 * 2026.4's CPU plugin has no kernel and the op no evaluate, measured): from [N, H, W, 3], in f32,
 *   Y = 0.257R + 0.504G + 0.098B + 16, U = −0.148R − 0.291G + 0.439B + 128, V = 0.439R − 0.368G − 0.071B + 128,
 * each clamped to [0, 255] (integer types rounded half away from zero first) and stored in the
 * input's type; U and V of each 2×2 block are the sums of its four stored values (in the order
 * (0, 0), (0, 1), (1, 0), (1, 1)) divided by 4 (integer types rounded). Outputs: Y [N, H, W, 1] and
 * interleaved UV [N, H/2, W/2, 2], or one plane [N, 3H/2, W, 1] (single_plane). Static H and W.
 */
function toNv12(c: ConvertContext, bgr: boolean): void {
  const elem = c.elem(0);
  const t = c.type(0);
  const shape = t?.kind === 'tensor' ? t.shape : null;
  if (elem === null || elem === 'dynamic' || shape === null || shape.length !== 4 || typeof shape[1] !== 'number' || typeof shape[2] !== 'number') {
    c.error(`${c.node.op} needs an NHWC image of a known element type with static H and W`);
    return;
  }
  const [H, W] = [shape[1], shape[2]];
  if (H % 2 !== 0 || W % 2 !== 0) { c.error(`${c.node.op}: image ${H}×${W} (H and W must be even)`); return; }
  const big = (v: number): bigint => BigInt(v);
  const integral = elementType(elem).kind !== 'float';
  const x = elem === 'f32' ? c.input(0)! : cast(c, c.input(0)!, 'f32');
  const channel = (k: number): Value => on(c, 'Slice', [x, i64Const(c, [big(k)]), i64Const(c, [big(k + 1)]), i64Const(c, [3n])]);
  const [r, g, b] = bgr ? [channel(2), channel(1), channel(0)] : [channel(0), channel(1), channel(2)];
  const mul = (k: number, v: Value): Value => on(c, 'Mul', [f(c, k), v]);
  const add = (a: Value, v: Value): Value => on(c, 'Add', [a, v]);
  const round = (v: Value): Value => {
    // std::round of a value clamped to [0, 255] after: half away from zero where it matters (≥ 0)
    const fl = on(c, 'Floor', [v]);
    return add(fl, cast(c, on(c, 'GreaterOrEqual', [on(c, 'Sub', [v, fl]), f(c, 0.5)]), 'f32'));
  };
  const clip = (v: Value): Value => on(c, 'Clip', [integral ? round(v) : v, f(c, 0), f(c, 255)]);
  const stored = (v: Value): Value => (elem === 'f32' ? v : cast(c, cast(c, v, elem), 'f32'));
  const y = clip(add(add(add(mul(0.257, r), mul(0.504, g)), mul(0.098, b)), f(c, 16)));
  const u = stored(clip(add(add(on(c, 'Sub', [mul(-0.148, r), mul(0.291, g)]), mul(0.439, b)), f(c, 128))));
  const v = stored(clip(add(on(c, 'Sub', [on(c, 'Sub', [mul(0.439, r), mul(0.368, g)]), mul(0.071, b)]), f(c, 128))));
  // each 2×2 block's four values, summed in the reference's order, / 4: [N, H/2, W/2, 1]
  const block = (p: Value): Value => {
    const six = on(c, 'Reshape', [p, i64Const(c, [0n, big(H / 2), 2n, big(W / 2), 2n, 1n])]);
    const at = (dh: bigint, dw: bigint): Value => on(c, 'Slice', [six, i64Const(c, [dh, dw]), i64Const(c, [dh + 1n, dw + 1n]), i64Const(c, [2n, 4n])]);
    const sum = add(add(add(at(0n, 0n), at(0n, 1n)), at(1n, 0n)), at(1n, 1n));
    const mean = on(c, 'Div', [sum, f(c, 4)]);
    return on(c, 'Reshape', [integral ? round(mean) : mean, i64Const(c, [0n, big(H / 2), big(W / 2), 1n])]);
  };
  const back = (p: Value): Value => (elem === 'f32' ? p : cast(c, p, elem));
  const yPlane = back(y);
  const uv = back(on(c, 'Concat', [block(u), block(v)], { axis: A.int(3) }));
  if (c.attr.bool('single_plane', true)) {
    c.output(0, on(c, 'Concat', [yPlane, on(c, 'Reshape', [uv, i64Const(c, [0n, big(H / 2), big(W), 1n])])], { axis: A.int(1) }));
  } else {
    c.output(0, yPlane);
    c.output(1, uv);
  }
}

const toNv12Entry = (op: string, bgr: boolean): OpMapping => ({
  onnx: { op: 'Concat', since: 13 },
  ir: { op, version: 'opset17' },
  when: never,
  handles: { ir: ['single_plane'] },
  note: `${bgr ? 'BGR' : 'RGB'} to NV12 planes by OpenVINO's reference formulas (f32, clamped, 2×2 chroma means; integers rounded half away from zero)`,
  toIr: irOnly,
  toOnnx: (c) => toNv12(c, bgr),
});

export const COLOR_CONVERSION: readonly OpMapping[] = [
  entry('NV12toRGB', 'nv12', false), entry('NV12toBGR', 'nv12', true),
  entry('I420toRGB', 'i420', false), entry('I420toBGR', 'i420', true),
  toNv12Entry('RGBtoNV12', false), toNv12Entry('BGRtoNV12', true),
];
