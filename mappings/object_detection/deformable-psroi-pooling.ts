import { A } from '../../src/graph/attr.js';
import { tensorFromFloat32, tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, dimOf, irOnly, never, on, reduce, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { roundAway } from './psroi-pooling.js';

/**
 * DeformablePSROIPooling-1 (R-FCN with deformable parts), which ONNX lacks, as OpenVINO's CPU plugin
 * computes it (psroi_pooling.cpp, bilinear_deformable; the only mode it runs). data
 * [N, output_dim·G·G, H, W] (G = group_size, also the pooled size), rois [R, 5] (batch, x1, y1, x2,
 * y2; a batch of −1 ends them: it and every later ROI 0), trans [R, 2·K, P, P] optional (K classes,
 * P = part_size). ROI corners round(x1)·s − ½ … (round(x2) + 1)·s − ½ (half away from zero), size at
 * least 0.1; output (d, h, w) starts its bin at w·bw + x1' + tx·width, h·bh + y1' + ty·height, where
 * (tx, ty) = trans_std·trans[roi, 2k (+1), ⌊h·P/G⌋, ⌊w·P/G⌋] for the class k = ⌊d / (output_dim / K)⌋,
 * and averages the samples (iy·bh/sy, ix·bw/sx from that start, iy < spatial_bins_y, ix <
 * spatial_bins_x) inside [−½, W − ½] × [−½, H − ½], clamped to the map, read bilinearly from channel
 * (d·G + h)·G + w (⌊·⌋ and ⌈·⌉ corners); no sample inside: 0.
 *
 * ONNX form: axes [R, output_dim, G, G, sy, sx] at once, the offsets one Gather of trans at constant
 * positions, the corners four Gathers of the flat data. Computed in f32 (f16 / bf16 data cast).
 */
const f32 = (c: ConvertContext, v: number): Value => c.constant(tensorFromFloat32([v], []));
const op = (c: ConvertContext, name: string, a: Value, b: Value): Value => on(c, name, [a, b]);
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

function deformablePsroiToOnnx(c: ConvertContext): void {
  const mode = (c.attr.string('mode') ?? 'bilinear_deformable').trim();
  if (mode !== 'bilinear_deformable') { c.unsupportedAttr('mode', mode, 'bilinear_deformable (the only mode OpenVINO\'s CPU plugin runs)'); return; }
  const D = Number(c.attr.int('output_dim') ?? 0n);
  const G = Number(c.attr.int('group_size') ?? 1n);
  const scale = c.attr.float('spatial_scale');
  const bx = Number(c.attr.int('spatial_bins_x') ?? 1n);
  const by = Number(c.attr.int('spatial_bins_y') ?? 1n);
  const transStd = c.attr.float('trans_std') ?? 1;
  const P = Number(c.attr.int('part_size') ?? 1n);
  for (const [name, v] of [['output_dim', D], ['group_size', G], ['spatial_bins_x', bx], ['spatial_bins_y', by], ['part_size', P]] as const) if (!(v >= 1)) { c.unsupportedAttr(name, String(v), 'a positive integer'); return; }
  if (scale === undefined) { c.unsupportedAttr('spatial_scale', '', 'a value (OpenVINO requires it)'); return; }
  const elem = c.elem(0);
  if (elem !== 'f32' && elem !== 'f16' && elem !== 'bf16') { c.error(`DeformablePSROIPooling needs f32, f16 or bf16 data, not ${elem ?? 'an unknown type'}`); return; }
  const hasTrans = c.numInputs > 2 && c.input(2) !== null;
  const transType = hasTrans ? c.type(2) : null;
  const classDim = transType?.kind === 'tensor' ? transType.shape?.[1] : undefined;
  const K = hasTrans ? (typeof classDim === 'number' ? classDim / 2 : null) : 1;
  if (K === null || !Number.isInteger(K) || K < 1 || D % K !== 0) { c.error(`DeformablePSROIPooling: the offsets' class count (dim 1 of trans / 2) must be known and divide output_dim ${D}`); return; }
  const data = elem === 'f32' ? c.input(0)! : cast(c, c.input(0)!, 'f32');
  const rois = c.elem(1) === 'f32' ? c.input(1)! : cast(c, c.input(1)!, 'f32');
  const col = (k: number): Value => on(c, 'Gather', [rois, i64Scalar(c, BigInt(k))], { axis: A.int(1) }); // [R]
  const id = cast(c, col(0), 'i64');
  const ended = on(c, 'CumSum', [cast(c, op(c, 'Equal', id, i64Scalar(c, -1n)), 'i64'), i64Scalar(c, 0n)]);
  const alive = op(c, 'Equal', ended, i64Scalar(c, 0n));
  const N = dimOf(c, data, 0n);
  const batch = op(c, 'Min', op(c, 'Max', id, i64Scalar(c, 0n)), op(c, 'Sub', N, i64Scalar(c, 1n)));
  const s = f32(c, scale);
  const half = f32(c, 0.5);
  const start = (k: number): Value => op(c, 'Sub', op(c, 'Mul', roundAway(c, col(k)), s), half);
  const end = (k: number): Value => op(c, 'Sub', op(c, 'Mul', op(c, 'Add', roundAway(c, col(k)), f32(c, 1)), s), half);
  const [x1, y1] = [start(1), start(2)];
  const width = op(c, 'Max', op(c, 'Sub', end(3), x1), f32(c, Math.fround(0.1)));
  const height = op(c, 'Max', op(c, 'Sub', end(4), y1), f32(c, Math.fround(0.1)));
  const binW = op(c, 'Div', width, f32(c, G));
  const binH = op(c, 'Div', height, f32(c, G));
  // axes [R, D, G(h), G(w), sy, sx]
  const r6 = (v: Value): Value => unsqueeze(c, v, [1n, 2n, 3n, 4n, 5n]);
  const konst = (values: number[], dims: number[]): Value => c.constant(tensorFromFloat32(values, dims));
  let tx: Value = f32(c, 0);
  let ty: Value = f32(c, 0);
  if (hasTrans) {
    const trans = on(c, 'Reshape', [c.elem(2) === 'f32' ? c.input(2)! : cast(c, c.input(2)!, 'f32'), i64Const(c, [0n, -1n])]); // [R, 2K·P·P]
    const per = D / K;
    const at = (dy: number): Value => c.constant(tensorFromInt64(range(D * G * G).map((i) => {
      const [d, h, w] = [Math.floor(i / (G * G)), Math.floor(i / G) % G, i % G];
      return ((2 * Math.floor(d / per) + dy) * P + Math.floor((h * P) / G)) * P + Math.floor((w * P) / G);
    }), [D, G, G]));
    const std = f32(c, transStd);
    tx = unsqueeze(c, op(c, 'Mul', on(c, 'Gather', [trans, at(0)], { axis: A.int(1) }), std), [4n, 5n]); // [R, D, G, G, 1, 1]
    ty = unsqueeze(c, op(c, 'Mul', on(c, 'Gather', [trans, at(1)], { axis: A.int(1) }), std), [4n, 5n]);
  }
  const wIdx = konst(range(G), [1, 1, 1, G, 1, 1]);
  const hIdx = konst(range(G), [1, 1, G, 1, 1, 1]);
  const wStart = op(c, 'Add', op(c, 'Add', op(c, 'Mul', wIdx, r6(binW)), r6(x1)), op(c, 'Mul', tx, r6(width)));
  const hStart = op(c, 'Add', op(c, 'Add', op(c, 'Mul', hIdx, r6(binH)), r6(y1)), op(c, 'Mul', ty, r6(height)));
  const xs = op(c, 'Add', wStart, op(c, 'Mul', konst(range(bx), [1, 1, 1, 1, 1, bx]), r6(op(c, 'Div', binW, f32(c, bx)))));
  const ys = op(c, 'Add', hStart, op(c, 'Mul', konst(range(by), [1, 1, 1, 1, by, 1]), r6(op(c, 'Div', binH, f32(c, by)))));
  const H = dimOf(c, data, 2n);
  const W = dimOf(c, data, 3n);
  const Hf = cast(c, H, 'f32');
  const Wf = cast(c, W, 'f32');
  const inside = (v: Value, size: Value): Value => on(c, 'Not', [on(c, 'Or', [op(c, 'Less', v, f32(c, -0.5)), op(c, 'Greater', v, op(c, 'Sub', size, half))])]);
  const valid = on(c, 'And', [inside(xs, Wf), inside(ys, Hf)]);
  const clamp = (v: Value, size: Value): Value => op(c, 'Min', op(c, 'Max', on(c, 'Where', [valid, v, f32(c, 0)]), f32(c, 0)), op(c, 'Sub', size, f32(c, 1)));
  const x = clamp(xs, Wf);
  const y = clamp(ys, Hf);
  const [xlo, xhi, ylo, yhi] = [on(c, 'Floor', [x]), on(c, 'Ceil', [x]), on(c, 'Floor', [y]), on(c, 'Ceil', [y])];
  const dx = op(c, 'Sub', x, xlo);
  const dy = op(c, 'Sub', y, ylo);
  const channel = c.constant(tensorFromInt64(range(D * G * G), [1, D, G, G, 1, 1])); // (d·G + h)·G + w
  const C = dimOf(c, data, 1n);
  const base = op(c, 'Mul', op(c, 'Add', op(c, 'Mul', r6(batch), C), channel), H);
  const flat = on(c, 'Reshape', [data, i64Const(c, [-1n])]);
  const read = (yy: Value, xx: Value): Value => on(c, 'Gather', [flat, op(c, 'Add', op(c, 'Mul', op(c, 'Add', base, cast(c, yy, 'i64')), W), cast(c, xx, 'i64'))], { axis: A.int(0) });
  const one = f32(c, 1);
  const [ndx, ndy] = [op(c, 'Sub', one, dx), op(c, 'Sub', one, dy)];
  const term = (a: Value, b: Value, v: Value): Value => op(c, 'Mul', op(c, 'Mul', a, b), v);
  const value = op(c, 'Add', op(c, 'Add', op(c, 'Add', term(ndx, ndy, read(ylo, xlo)), term(ndx, dy, read(yhi, xlo))), term(dx, ndy, read(ylo, xhi))), term(dx, dy, read(yhi, xhi)));
  const zero = f32(c, 0);
  const sum = reduce(c, 'ReduceSum', on(c, 'Where', [valid, value, zero]), [4n, 5n], false);
  const count = reduce(c, 'ReduceSum', cast(c, valid, 'f32'), [4n, 5n], false);
  const pooled = on(c, 'Where', [op(c, 'Greater', count, zero), op(c, 'Div', sum, op(c, 'Max', count, one)), zero]);
  const kept = on(c, 'Where', [unsqueeze(c, alive, [1n, 2n, 3n]), pooled, zero]);
  c.output(0, elem === 'f32' ? kept : cast(c, kept, elem));
}

export const DEFORMABLE_PSROI_POOLING: readonly OpMapping[] = [
  {
    onnx: { op: 'Gather', since: 13 },
    ir: { op: 'DeformablePSROIPooling', version: 'opset1' },
    when: never,
    handles: { ir: ['mode', 'output_dim', 'group_size', 'spatial_scale', 'spatial_bins_x', 'spatial_bins_y', 'trans_std', 'part_size'] },
    note: 'every sample of every bin at once, moved by the offsets (one Gather of trans at constant positions), four corner Gathers of the flat data, the mean of the samples inside the map, as OpenVINO\'s CPU plugin',
    toIr: irOnly,
    toOnnx: deformablePsroiToOnnx,
  },
];
