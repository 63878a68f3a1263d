import { A } from '../../src/graph/attr.js';
import { tensorFromFloat32, tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, dimOf, irOnly, never, on, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ISTFT-16 (vocoders, speech enhancement), which ONNX lacks, as OpenVINO computes it (istft.cpp,
 * measured on 2026.4: the frames windowed before the overlap-add, the sum divided by the window's
 * squares): data [B, K, N, 2] (or [K, N, 2]) holds N one-sided spectra of K = ⌊F/2⌋ + 1 bins
 * (real, imaginary), F = frame_size. Each frame's inverse real DFT (the imaginary parts of the DC
 * and, F even, Nyquist bins ignored, as a Hermitian spectrum's) is a MatMul with the constant basis
 * c_k/F·cos(2πkn/F), −c_k/F·sin(2πkn/F) (c_k = 1 for DC and Nyquist, else 2); it is multiplied by
 * the window zero-padded to F on both sides (the odd sample at the end), and the frames are
 * overlap-added at n·frame_step by a ScatterElements add into [B, (N − 1)·frame_step + F], as
 * are the window's squares; y = sum·(√F if normalized) / window-square sum, 0 where that is 0.
 * The signal starts at F/2 if center; its length is signal_length when given and positive, else
 * the full length (less F if center), zero-filled past the frames. frame_size must be a constant
 * (the basis); frame_step, the window and signal_length may be computed at run time.
 */
function istftToOnnx(c: ConvertContext): void {
  const fs = c.intsOf(c.node.inputs[2]!);
  if (!fs || fs.length !== 1 || fs[0]! < 1n) { c.needsConstant(2, 'frame_size, a positive integer (the DFT basis is a constant)', 16); return; }
  const rank = c.rank(0);
  if (rank !== 3 && rank !== 4) { c.error(`ISTFT needs data of rank 3 or 4 ([batch,] bins, frames, 2), not ${rank ?? 'an unknown rank'}`); return; }
  const elem = c.elem(0);
  if (elem !== 'f32' && elem !== 'f16' && elem !== 'bf16') { c.error(`ISTFT takes f32, f16 or bf16 data, not ${elem ?? 'an unknown type'}`); return; }
  const center = c.attr.bool('center') ?? false;
  const normalized = c.attr.bool('normalized') ?? false;
  const F = Number(fs[0]!);
  const K = Math.floor(F / 2) + 1;
  const f32 = (v: Value, i: number): Value => (c.elem(i) === 'f32' ? v : cast(c, v, 'f32'));
  let data = f32(c.input(0)!, 0);
  if (rank === 3) data = unsqueeze(c, data, [0n]);
  // [B, K, N, 2] → real and imaginary [B, N, K]
  const part = (k: bigint): Value => on(c, 'Transpose', [on(c, 'Gather', [data, i64Scalar(c, k)], { axis: A.int(3) })], { perm: A.ints([0, 2, 1]) });
  const cosBasis: number[] = [];
  const sinBasis: number[] = [];
  for (let k = 0; k < K; k++) {
    const weight = k === 0 || (F % 2 === 0 && k === F / 2) ? 1 : 2;
    for (let n = 0; n < F; n++) {
      const angle = (2 * Math.PI * ((k * n) % F)) / F;
      cosBasis.push((weight * Math.cos(angle)) / F);
      sinBasis.push(k === 0 || (F % 2 === 0 && k === F / 2) ? 0 : (-weight * Math.sin(angle)) / F);
    }
  }
  const frames = on(c, 'Add', [
    on(c, 'MatMul', [part(0n), c.constant(tensorFromFloat32(cosBasis, [K, F]))]),
    on(c, 'MatMul', [part(1n), c.constant(tensorFromFloat32(sinBasis, [K, F]))]),
  ]); // [B, N, F]
  // the window, centred in F samples
  const window = f32(c.input(1)!, 1);
  const wl = dimOf(c, window, 0n);
  const FF = i64Scalar(c, BigInt(F));
  const before = on(c, 'Div', [on(c, 'Sub', [FF, wl]), i64Scalar(c, 2n)]);
  const after = on(c, 'Sub', [on(c, 'Sub', [FF, wl]), before]);
  const padded = on(c, 'Pad', [window, on(c, 'Concat', [unsqueeze(c, before, [0n]), unsqueeze(c, after, [0n])], { axis: A.int(0) })]); // [F]
  // overlap-add positions n·step + f, [N·F]
  const N = dimOf(c, data, 2n);
  const step = on(c, 'Reshape', [c.elem(3) === 'i64' ? c.input(3)! : cast(c, c.input(3)!, 'i64'), i64Const(c, [])]);
  const starts = on(c, 'Mul', [on(c, 'Range', [i64Scalar(c, 0n), N, i64Scalar(c, 1n)]), step]);
  const at = on(c, 'Reshape', [on(c, 'Add', [unsqueeze(c, starts, [1n]), c.constant(tensorFromInt64(Array.from({ length: F }, (_, i) => BigInt(i)), [1, F]))]), i64Const(c, [1n, -1n])]);
  const L = on(c, 'Add', [on(c, 'Mul', [on(c, 'Sub', [N, i64Scalar(c, 1n)]), step]), FF]);
  const B = dimOf(c, data, 0n);
  const overlapAdd = (rows: Value, batch: Value): Value => { // rows [b, N, F] → [b, L]
    const flat = on(c, 'Reshape', [rows, on(c, 'Concat', [unsqueeze(c, batch, [0n]), i64Const(c, [-1n])], { axis: A.int(0) })]);
    const shape = on(c, 'Concat', [unsqueeze(c, batch, [0n]), unsqueeze(c, L, [0n])], { axis: A.int(0) });
    const zeros = on(c, 'ConstantOfShape', [shape], { value: A.tensor(tensorFromFloat32([0], [1])) });
    const index = on(c, 'Expand', [at, on(c, 'Shape', [flat])]);
    return on(c, 'ScatterElements', [zeros, index, flat], { axis: A.int(1), reduction: A.string('add') });
  };
  const sum = overlapAdd(on(c, 'Mul', [frames, padded]), B);
  const squares = on(c, 'Expand', [on(c, 'Mul', [padded, padded]), on(c, 'Concat', [i64Const(c, [1n]), unsqueeze(c, N, [0n]), i64Const(c, [BigInt(F)])], { axis: A.int(0) })]);
  const norm = overlapAdd(squares, i64Scalar(c, 1n)); // [1, L]
  const zero = c.constant(tensorFromFloat32([0], []));
  const empty = on(c, 'Equal', [norm, zero]);
  const scaled = normalized ? on(c, 'Mul', [sum, c.constant(tensorFromFloat32([Math.fround(Math.sqrt(F))], []))]) : sum;
  const y = on(c, 'Where', [empty, zero, on(c, 'Div', [scaled, on(c, 'Where', [empty, c.constant(tensorFromFloat32([1], [])), norm])])]);
  // the signal: from F/2 if center, signal_length (when given and positive) or the default length
  const margin = BigInt(center ? Math.floor(F / 2) : 0);
  const full = center ? on(c, 'Sub', [L, FF]) : L;
  let length = full;
  if (c.numInputs > 4 && c.input(4)) {
    const given = on(c, 'Reshape', [c.elem(4) === 'i64' ? c.input(4)! : cast(c, c.input(4)!, 'i64'), i64Const(c, [])]);
    length = on(c, 'Where', [on(c, 'Greater', [given, i64Scalar(c, 0n)]), given, full]);
  }
  const available = on(c, 'Sub', [L, i64Scalar(c, margin)]);
  const short = on(c, 'Max', [on(c, 'Sub', [length, available]), i64Scalar(c, 0n)]);
  const extended = on(c, 'Pad', [y, on(c, 'Concat', [i64Const(c, [0n, 0n, 0n]), unsqueeze(c, short, [0n])], { axis: A.int(0) })]);
  let out = on(c, 'Slice', [extended, i64Const(c, [margin]), unsqueeze(c, on(c, 'Add', [length, i64Scalar(c, margin)]), [0n]), i64Const(c, [1n])]);
  if (rank === 3) out = on(c, 'Squeeze', [out, i64Const(c, [0n])]);
  c.output(0, elem === 'f32' ? out : cast(c, out, elem));
}

export const ISTFT: readonly OpMapping[] = [
  {
    onnx: { op: 'ScatterElements', since: 16 },
    ir: { op: 'ISTFT', version: 'opset16' },
    when: never,
    handles: { ir: ['center', 'normalized'] },
    note: 'inverse real DFT as a MatMul with a constant basis, window, overlap-add of the frames and of the window\'s squares by ScatterElements add, divided, cut',
    toIr: irOnly,
    toOnnx: istftToOnnx,
  },
];
