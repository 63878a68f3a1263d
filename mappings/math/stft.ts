import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedScalar } from '../typed-consts.js';

/**
 * ONNX STFT-17(signal [B, L, 1], frame_step, window?, frame_length?; onesided = 1) ⇄ OpenVINO
 * STFT-15(signal [B, L], window, frame_size, frame_step; transpose_frames = false), both giving
 * [B, frames, frame_length / 2 + 1, 2] with frames = ⌊(L - frame_length) / frame_step⌋ + 1.
 * ONNX → IR: the real signal loses its trailing dim; an absent window is ones of frame_length, an
 * absent frame_length the window's length. A complex signal or onesided = 0 has no OpenVINO form
 * (STFT-15 is real and one-sided) and is refused.
 * IR → ONNX: the signal gains the trailing dim (and a batch dim when 1-D), transpose_frames is a
 * Transpose; OpenVINO centres a window shorter than frame_size, ONNX does not, so the window
 * length and frame_size must be known equal.
 */
const scalarI64 = (c: ConvertContext, i: number): Value =>
  (c.elem(i) === 'i64' ? c.input(i)! : c.emit('Convert', [c.input(i)], { destination_type: 'i64' }, 1, 'opset1')[0]!);

function stftToIr(c: ConvertContext): void {
  const t = c.type(0);
  const s = t?.kind === 'tensor' ? t.shape : null;
  if (!s || s.length !== 3 || s[2] !== 1) { c.error('STFT converts a real signal [batch, length, 1] (OpenVINO\'s STFT takes no complex signal)'); return; }
  if (c.attr.int('onesided', 1n) === 0n) { c.unsupportedAttr('onesided', '0', 'OpenVINO\'s STFT is one-sided'); return; }
  const fe = c.elem(0);
  const one = fe === null ? null : typedScalar(fe, 1);
  if (one === null) { c.error(`STFT of ${fe ?? 'an unknown type'} signal`); return; }
  const hasWindow = c.numInputs > 2 && c.input(2) !== null;
  const hasLength = c.numInputs > 3 && c.input(3) !== null;
  if (!hasWindow && !hasLength) { c.error('STFT needs a window or a frame_length'); return; }
  const signal = c.emit('Squeeze', [c.input(0), i64Const(c, [2n])], {}, 1, 'opset1')[0]!;
  let frameSize: Value;
  if (hasLength) frameSize = c.emit('Reshape', [scalarI64(c, 3), i64Const(c, [])], { special_zero: 'false' }, 1, 'opset1')[0]!;
  else {
    const len = c.emit('ShapeOf', [c.input(2)], { output_type: 'i64' }, 1, 'opset3')[0]!;
    frameSize = c.emit('Reshape', [len, i64Const(c, [])], { special_zero: 'false' }, 1, 'opset1')[0]!;
  }
  const window = hasWindow ? c.input(2)! : c.emit('Broadcast', [c.constant(one),
    c.emit('Reshape', [frameSize, i64Const(c, [1n])], { special_zero: 'false' }, 1, 'opset1')[0]!], { mode: 'numpy' }, 1, 'opset3')[0]!;
  const step = c.emit('Reshape', [scalarI64(c, 1), i64Const(c, [])], { special_zero: 'false' }, 1, 'opset1')[0]!;
  c.output(0, c.emit('STFT', [signal, window, frameSize, step], { transpose_frames: 'false' }, 1, 'opset15')[0]!);
}

function stftToOnnx(c: ConvertContext): void {
  const r = c.rank(0);
  if (r !== 1 && r !== 2) { c.error('STFT needs a signal of rank 1 or 2'); return; }
  const size = c.constInts(2);
  const wt = c.type(1);
  const w = wt?.kind === 'tensor' && wt.shape?.length === 1 ? wt.shape[0] : null;
  if (size === null || typeof w !== 'number' || Number(size[0]) !== w) {
    c.error('STFT: the window length and frame_size must be known equal (OpenVINO centres a shorter window in the frame, ONNX does not)');
    return;
  }
  const signal = c.emit('Unsqueeze', [c.input(0), i64Const(c, r === 1 ? [0n, 2n] : [2n])])[0]!;
  const asI64 = (i: number): Value => (c.elem(i) === 'i64' ? c.input(i)! : c.emit('Cast', [c.input(i)], { to: A.int(7) })[0]!);
  let y = c.emit('STFT', [signal, asI64(3), c.input(1), asI64(2)])[0]!;
  if ((c.attr.string('transpose_frames') ?? 'false').trim().toLowerCase() === 'true') y = c.emit('Transpose', [y], { perm: A.ints([0, 2, 1, 3]) })[0]!;
  if (r === 1) y = c.emit('Squeeze', [y, i64Const(c, [0n])])[0]!;
  c.output(0, y);
}

export const STFT: readonly OpMapping[] = [
  {
    onnx: { op: 'STFT', since: 17 },
    ir: { op: 'STFT', version: 'opset15' },
    handles: { onnx: ['onesided'], ir: ['transpose_frames'] },
    note: 'the real signal\'s trailing dim is squeezed / unsqueezed; an absent window is ones',
    toIr: stftToIr,
    toOnnx: stftToOnnx,
  },
];
