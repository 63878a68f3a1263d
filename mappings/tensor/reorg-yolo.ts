import { A } from '../../src/graph/attr.js';
import { i64Const } from '../helpers.js';
import { irOnly, never, on } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ReorgYolo-2 (YOLOv2 of the Open Model Zoo / Darknet), which ONNX lacks. OpenVINO's reference
 * (reorg_yolo.cpp) reads the [N, C, H, W] data as [N, C', H·s, W·s] (C' = C / s²) and writes, in
 * [N, C, H, W] order, out[n, (oy·s + ox)·C' + c', h, w] = in'[n, c', h·s + oy, w·s + ox]; those
 * elements, in that order, are the output [N, C·s², H / s, W / s]. So: Reshape to
 * [N, C', H, s, W, s], Transpose (0, 3, 5, 1, 2, 4), Reshape to the output shape. Needs static
 * C, H, W (C a multiple of s², H and W of s); N may vary.
 */
function strideOf(c: ConvertContext): number | null {
  const s = c.attr.ints('stride');
  if (!s || s.length === 0 || s.some((v) => v !== s[0]) || s[0]! < 1n) { c.unsupportedAttr('stride', (s ?? []).join(','), 'one positive stride (equal along both axes)'); return null; }
  return Number(s[0]);
}

function reorgYoloToOnnx(c: ConvertContext): void {
  const s = strideOf(c);
  if (s === null) return;
  const t = c.type(0);
  const shape = t?.kind === 'tensor' ? t.shape : null;
  const [, C, H, W] = shape ?? [];
  if (shape === null || shape.length !== 4 || typeof C !== 'number' || typeof H !== 'number' || typeof W !== 'number') {
    c.error('ReorgYolo needs data of rank 4 with static C, H and W');
    return;
  }
  if (C % (s * s) !== 0 || H % s !== 0 || W % s !== 0) { c.error(`ReorgYolo: data [${shape.join(',')}] is not divisible by stride ${s} (C by ${s * s}, H and W by ${s})`); return; }
  const big = (v: number): bigint => BigInt(v);
  const cs = C / (s * s);
  const view = on(c, 'Reshape', [c.input(0)!, i64Const(c, [-1n, big(cs), big(H), big(s), big(W), big(s)])]);
  const moved = on(c, 'Transpose', [view], { perm: A.ints([0, 3, 5, 1, 2, 4]) });
  c.output(0, on(c, 'Reshape', [moved, i64Const(c, [-1n, big(C * s * s), big(H / s), big(W / s)])]));
}

export const REORG_YOLO: readonly OpMapping[] = [
  {
    onnx: { op: 'Transpose', since: 13 },
    ir: { op: 'ReorgYolo', version: 'opset2' },
    when: never,
    handles: { ir: ['stride'] },
    note: 'Reshape to [N, C/s², H, s, W, s] (OpenVINO reads the data as [N, C/s², H·s, W·s]), Transpose, Reshape',
    toIr: irOnly,
    toOnnx: reorgYoloToOnnx,
  },
];
