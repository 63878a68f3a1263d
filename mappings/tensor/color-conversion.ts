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

export const COLOR_CONVERSION: readonly OpMapping[] = [
  entry('NV12toRGB', 'nv12', false), entry('NV12toBGR', 'nv12', true),
  entry('I420toRGB', 'i420', false), entry('I420toBGR', 'i420', true),
];
