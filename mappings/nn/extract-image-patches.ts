import { A } from '../../src/graph/attr.js';
import { tensorFromInt64 } from '../../src/graph/tensor.js';
import { i64Const } from '../helpers.js';
import { irOnly, never, on } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { patchGeometry } from '../../src/shape/rules/ov/frontend-ops.js';

/**
 * ExtractImagePatches-3 (TensorFlow's extract_image_patches), which ONNX lacks, after OpenVINO's
 * reference (extract_image_patches.hpp): output [N, KH·KW·C, OH, OW], channel (kh·KW + kw)·C + c
 * at (oh, ow) = data[n, c, oh·SH + kh·RH − PT, ow·SW + kw·RW − PL], 0 outside. OH, OW and the
 * begin pads PT, PL are OpenVINO's (`patchGeometry`: valid, or same_upper / same_lower: ⌈I / S⌉
 * with the odd pad at the end / the begin). Written as Pad (zeros), a Gather of the rows
 * oh·SH + kh·RH ([KH, OH] indices) and of the columns ([KW, OW]), Transpose to
 * [N, KH, KW, C, OH, OW], Reshape. Needs static H and W; N and C may vary.
 */
function extractImagePatchesToOnnx(c: ConvertContext): void {
  const [sizes, strides, rates] = ['sizes', 'strides', 'rates'].map((a) => c.attr.ints(a)?.map(Number));
  const pad = (c.attr.string('auto_pad') ?? 'valid').trim().toLowerCase();
  for (const [name, v] of [['sizes', sizes], ['strides', strides], ['rates', rates]] as const) {
    if (!v || v.length !== 2 || v.some((d) => d < 1)) { c.unsupportedAttr(name, (v ?? []).join(','), 'two positive values'); return; }
  }
  if (pad !== 'valid' && pad !== 'same_upper' && pad !== 'same_lower') { c.unsupportedAttr('auto_pad', pad, 'valid, same_upper or same_lower'); return; }
  const t = c.type(0);
  const shape = t?.kind === 'tensor' ? t.shape : null;
  const [, , H, W] = shape ?? [];
  if (shape === null || shape.length !== 4 || typeof H !== 'number' || typeof W !== 'number') { c.error('ExtractImagePatches needs data of rank 4 with static H and W'); return; }
  const rows = patchGeometry(H, sizes![0]!, strides![0]!, rates![0]!, pad);
  const cols = patchGeometry(W, sizes![1]!, strides![1]!, rates![1]!, pad);
  if (rows.out < 1 || cols.out < 1) { c.error(`ExtractImagePatches: a ${sizes!.join('×')} patch (rates ${rates!.join(',')}) does not fit data [${shape.join(',')}]`); return; }
  const big = (v: number): bigint => BigInt(v);
  const padded = rows.begin + rows.end + cols.begin + cols.end === 0 ? c.input(0)!
    : on(c, 'Pad', [c.input(0)!, i64Const(c, [0n, 0n, big(rows.begin), big(cols.begin), 0n, 0n, big(rows.end), big(cols.end)])]);
  const index = (k: number, s: number, r: number, n: number): bigint[] =>
    Array.from({ length: k * n }, (_, i) => big(Math.floor(i / n) * r + (i % n) * s));
  const hIdx = c.constant(tensorFromInt64(index(sizes![0]!, strides![0]!, rates![0]!, rows.out), [sizes![0]!, rows.out]));
  const wIdx = c.constant(tensorFromInt64(index(sizes![1]!, strides![1]!, rates![1]!, cols.out), [sizes![1]!, cols.out]));
  const byRow = on(c, 'Gather', [padded, hIdx], { axis: A.int(2) }); // [N, C, KH, OH, W']
  const byCol = on(c, 'Gather', [byRow, wIdx], { axis: A.int(4) }); // [N, C, KH, OH, KW, OW]
  const moved = on(c, 'Transpose', [byCol], { perm: A.ints([0, 2, 4, 1, 3, 5]) }); // [N, KH, KW, C, OH, OW]
  c.output(0, on(c, 'Reshape', [moved, i64Const(c, [0n, -1n, big(rows.out), big(cols.out)])]));
}

export const EXTRACT_IMAGE_PATCHES: readonly OpMapping[] = [
  {
    onnx: { op: 'Gather', since: 13 },
    ir: { op: 'ExtractImagePatches', version: 'opset3' },
    when: never,
    handles: { ir: ['sizes', 'strides', 'rates', 'auto_pad'] },
    note: 'Pad, Gather of the patch rows and columns, Transpose, Reshape (OpenVINO\'s pads and output size)',
    toIr: irOnly,
    toOnnx: extractImagePatchesToOnnx,
  },
];
