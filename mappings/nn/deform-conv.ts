import { A, type Attr } from '../../src/graph/attr.js';
import { tensorFromFloat32 } from '../../src/graph/tensor.js';
import type { Shape } from '../../src/graph/shape.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import { cast, on } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { spatialToIr, withChannelBias } from './conv.js';

/**
 * DeformConv-19/22 ⇄ DeformableConvolution-8 (2-D, as OpenVINO's op).
 *   ONNX (X, W, offset, B?, mask?)  ⇄  IR (data, offsets, filters, mask?) + Add of B as [1, C, 1, 1]
 * Both lay offsets out as [N, offset_group·kH·kW·2, oH, oW] with (Δy, Δx) pairs per kernel
 * position, and the mask as [N, offset_group·kH·kW, oH, oW]; group = group, offset_group =
 * deformable_group. ONNX samples outside the image bilinearly with zeros beyond the border, which is
 * OpenVINO's bilinear_interpolation_pad = true (false, OpenVINO's default, drops samples whose
 * corners are not all inside, see `withoutPad`). kernel_shape is implied by W.
 * DeformableConvolution-1 is -8 without mask and with bilinear_interpolation_pad = false.
 */
function deformToIr(c: ConvertContext): void {
  const wr = c.rank(1);
  if (wr !== 4) { c.error(`DeformConv weights of rank ${wr ?? 'unknown'}: OpenVINO DeformableConvolution-8 is 2-D only (weights [C_out, C_in/group, kH, kW])`); return; }
  const ks = c.attr.ints('kernel_shape');
  const wt = c.type(1);
  const wdims = wt?.kind === 'tensor' ? wt.shape : null;
  if (ks && wdims && ks.some((k, i) => typeof wdims[2 + i] === 'number' && BigInt(wdims[2 + i] as number) !== k)) {
    c.unsupportedAttr('kernel_shape', ks.join(','), `kernel_shape differs from the weights' spatial dims ${wdims.slice(2).join('x')}`);
    return;
  }
  const sp = spatialToIr(c, 2, true);
  if (!sp) return;
  delete sp['auto_pad'];
  const mask = c.numInputs > 4 ? c.input(4) : null;
  const attrs: Record<string, string> = {
    ...sp, auto_pad: 'explicit',
    group: String(c.attr.int('group', 1n)), deformable_group: String(c.attr.int('offset_group', 1n)),
    bilinear_interpolation_pad: 'true',
  };
  const y = c.emitOwn(mask ? [c.input(0), c.input(2), c.input(1), mask] : [c.input(0), c.input(2), c.input(1)], attrs)[0]!;
  c.output(0, withChannelBias(c, y, 2, 3));
}

/**
 * bilinear_interpolation_pad = false (DeformableConvolution-1, and -8's default), as OpenVINO's
 * reference and CPU plugin compute it (measured): a sampling point (y, x) counts only when
 * 0 ≤ y < H and 0 ≤ x < W, and is interpolated between rows ⌊y⌋ and min(⌈y⌉, H − 1) (columns
 * alike), so a point past H − 1 reads row H − 1. ONNX DeformConv interpolates with zeros beyond the
 * border; inside [0, H − 1] × [0, W − 1] the two agree. So the offsets are moved to clamp each
 * point at H − 1 / W − 1 (the offset (H − 1) − base where y > H − 1, base the point's undeformed
 * row oh·stride − pad_begin + kh·dilation; elsewhere the offset as given), and a mask of the
 * points inside [0, H) × [0, W) (times the IR mask) drops the others. Needs static H, W, kernel
 * and output size (the undeformed rows and columns are constants). Returns [offsets, mask].
 */
function withoutPad(c: ConvertContext, strides: readonly bigint[], dil: readonly bigint[], padsBegin: readonly bigint[]): [Value, Value] | null {
  const st = c.type(0);
  const wt = c.type(2);
  const ot = c.type(1);
  const xs = st?.kind === 'tensor' ? st.shape : null;
  const ws = wt?.kind === 'tensor' ? wt.shape : null;
  const os = ot?.kind === 'tensor' ? ot.shape : null;
  const nums = (s: Shape | undefined, from: number): number[] | null =>
    s && s.length === 4 && s.slice(from).every((d) => typeof d === 'number') ? (s.slice(from) as number[]) : null;
  const hw = nums(xs, 2);
  const k = nums(ws, 2);
  const o = nums(os, 1);
  if (!hw || !k || !o || c.elem(1) !== 'f32') {
    c.error(`${c.node.op} with bilinear_interpolation_pad = false needs static data H and W, kernel and offsets dims and f32 offsets (its sampling points are clamped to the border by constants)`);
    return null;
  }
  const [H, W] = hw as [number, number];
  const [kh, kw] = k as [number, number];
  const [ch, oh, ow] = o as [number, number, number];
  const K = kh * kw;
  const dg = ch / (2 * K);
  // undeformed sampling rows [1, 1, K, 1, oh, 1] and columns [1, 1, K, 1, 1, ow]
  const rows: number[] = [];
  const cols: number[] = [];
  for (let i = 0; i < K; i++) {
    for (let y = 0; y < oh; y++) rows.push(y * Number(strides[0] ?? 1n) - Number(padsBegin[0] ?? 0n) + Math.floor(i / kw) * Number(dil[0] ?? 1n));
    for (let x = 0; x < ow; x++) cols.push(x * Number(strides[1] ?? 1n) - Number(padsBegin[1] ?? 0n) + (i % kw) * Number(dil[1] ?? 1n));
  }
  const f = (v: number): Value => c.constant(tensorFromFloat32([v], []));
  const baseY = c.constant(tensorFromFloat32(rows, [1, 1, K, 1, oh, 1]));
  const baseX = c.constant(tensorFromFloat32(cols, [1, 1, K, 1, 1, ow]));
  const split = on(c, 'Reshape', [c.input(1)!, i64Const(c, [0n, BigInt(dg), BigInt(K), 2n, BigInt(oh), BigInt(ow)])]);
  const part = (j: bigint): Value => on(c, 'Slice', [split, i64Const(c, [j]), i64Const(c, [j + 1n]), i64Const(c, [3n])]);
  const [dy, dx] = [part(0n), part(1n)];
  const [y, x] = [on(c, 'Add', [baseY, dy]), on(c, 'Add', [baseX, dx])];
  const inside = (v: Value, n: number): Value => on(c, 'And', [on(c, 'GreaterOrEqual', [v, f(0)]), on(c, 'Less', [v, f(n)])]);
  const clamp = (v: Value, d: Value, base: Value, n: number): Value => on(c, 'Where', [on(c, 'Greater', [v, f(n - 1)]), on(c, 'Sub', [f(n - 1), base]), d]);
  const offsets = on(c, 'Reshape', [on(c, 'Concat', [clamp(y, dy, baseY, H), clamp(x, dx, baseX, W)], { axis: A.int(3) }), i64Const(c, [0n, BigInt(ch), BigInt(oh), BigInt(ow)])]);
  let mask = on(c, 'Reshape', [cast(c, on(c, 'And', [inside(y, H), inside(x, W)]), 'f32'), i64Const(c, [0n, BigInt(dg * K), BigInt(oh), BigInt(ow)])]);
  if (c.numInputs > 3) mask = on(c, 'Mul', [mask, c.input(3)!]);
  return [offsets, mask];
}

function deformToOnnx(c: ConvertContext): void {
  const pad = c.attr.bool('bilinear_interpolation_pad', false);
  const ap = c.attr.string('auto_pad', 'explicit').trim().toLowerCase();
  if (ap !== 'explicit' && ap !== 'notset') { c.unsupportedAttr('auto_pad', ap, 'ONNX DeformConv has explicit pads only'); return; }
  const attrs: Record<string, Attr> = {};
  const strides = c.attr.ints('strides') ?? [];
  const dil = c.attr.ints('dilations') ?? [];
  const padsBegin = c.attr.ints('pads_begin') ?? [];
  const pads = [...padsBegin, ...(c.attr.ints('pads_end') ?? [])];
  if (strides.some((v) => v !== 1n)) attrs['strides'] = A.ints(strides);
  if (dil.some((v) => v !== 1n)) attrs['dilations'] = A.ints(dil);
  if (pads.some((v) => v !== 0n)) attrs['pads'] = A.ints(pads);
  const group = c.attr.int('group', 1n);
  const dg = c.attr.int('deformable_group', 1n);
  if (group !== 1n) attrs['group'] = A.int(group);
  if (dg !== 1n) attrs['offset_group'] = A.int(dg);
  if (!pad) {
    const moved = withoutPad(c, strides, dil, padsBegin);
    if (moved) c.output(0, c.emitOwn([c.input(0), c.input(2), moved[0], null, moved[1]], attrs)[0]!);
    return;
  }
  const mask = c.numInputs > 3 ? c.input(3) : null;
  c.output(0, c.emitOwn(mask ? [c.input(0), c.input(2), c.input(1), null, mask] : [c.input(0), c.input(2), c.input(1)], attrs)[0]!);
}

export const DEFORM_CONV: readonly OpMapping[] = [
  {
    onnx: { op: 'DeformConv', since: 19 },
    ir: { op: 'DeformableConvolution', version: 'opset8', reads: ['opset1'] },
    handles: {
      onnx: ['strides', 'dilations', 'pads', 'kernel_shape', 'group', 'offset_group'],
      ir: ['strides', 'dilations', 'pads_begin', 'pads_end', 'auto_pad', 'group', 'deformable_group', 'bilinear_interpolation_pad'],
    },
    note: 'IR inputs (X, offset, W, mask); bias B an Add; bilinear_interpolation_pad = false (and v1) as offsets clamped to the border and a mask of the points inside',
    toIr: deformToIr,
    toOnnx: deformToOnnx,
  },
];
