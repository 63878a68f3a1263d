import { A, type Attr } from '../../src/graph/attr.js';
import type { Node } from '../../src/graph/node.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedScalar } from '../typed-consts.js';

/**
 * ONNX DFT (17: `axis` attribute, default 1; 20: `axis` input, default -2) ⇄ OpenVINO DFT-7,
 * IDFT-7, RDFT-9, IRDFT-9, as OpenVINO's frontend relates them:
 *   inverse=0 onesided=0 → DFT,  inverse=1 onesided=0 → IDFT,
 *   inverse=0 onesided=1 → RDFT, inverse=1 onesided=1 → IRDFT.
 * ONNX signals carry a trailing dim of 1 (real) or 2 (complex); OpenVINO's DFT/IDFT take complex
 * [..., 2] (a real signal gets zero imaginary parts, as the frontend does), RDFT takes the real
 * signal without the trailing dim and IRDFT returns it without one (ovir squeezes / unsqueezes it,
 * where ovc does not, which is why ovc's IR of the rfft / irfft backend tests has the wrong rank).
 * `dft_length` is the IR `signal_size` of the one axis. ONNX axes index the signal dims (the
 * trailing complex dim excluded; -2 is the last signal dim); a run-time ONNX-20 axis is
 * normalized to a non-negative one in the graph; OpenVINO's CPU plugin fails or crashes on RDFT /
 * IRDFT over run-time axes, so for those the axis is swapped with the last signal dim (Transpose
 * of a run-time order, before and after) and the transform runs over that constant one.
 *
 * IR → ONNX: one ONNX DFT per IR axis (the transform is separable; an inverse's 1/n factors
 * multiply to 1/N). RDFT: the one-sided transform on the last listed axis, then full ones;
 * IRDFT: full inverse transforms first, the one-sided inverse on the last listed axis last.
 * Axes and signal sizes must be constants there (ONNX's are a scalar attribute/input per node).
 */
type Kind = 'DFT' | 'IDFT' | 'RDFT' | 'IRDFT';
const KIND: Record<Kind, { inverse: boolean; onesided: boolean; version: string }> = {
  DFT: { inverse: false, onesided: false, version: 'opset7' },
  IDFT: { inverse: true, onesided: false, version: 'opset7' },
  RDFT: { inverse: false, onesided: true, version: 'opset9' },
  IRDFT: { inverse: true, onesided: true, version: 'opset9' },
};

const flag = (n: Node, name: string): boolean => {
  const a = n.attrs.get(name);
  return a?.type === 'int' && a.value !== 0n;
};
const kindOf = (n: Node): Kind => (flag(n, 'inverse') ? (flag(n, 'onesided') ? 'IRDFT' : 'IDFT') : (flag(n, 'onesided') ? 'RDFT' : 'DFT'));

/**
 * The ONNX DFT's axis: a non-negative index of the signal dims, constant, or (ONNX-20 input known
 * only at run time) an i64 scalar in the graph: (axis + r) mod r maps [-r, -2] ∪ [0, r - 2] onto
 * 0 … r - 2.
 */
function signalAxis(c: ConvertContext, r: number): number | Value | null {
  const fromInput = c.opset >= 20 && c.numInputs > 2 && c.input(2) !== null;
  let axis: bigint | undefined;
  if (fromInput) {
    const known = c.constInts(2);
    if (known === null) {
      const a = c.elem(2) === 'i64' ? c.input(2)! : c.emit('Convert', [c.input(2)], { destination_type: 'i64' }, 1, 'opset1')[0]!;
      const scalar = c.emit('Reshape', [a, i64Const(c, [])], { special_zero: 'false' }, 1, 'opset1')[0]!;
      const rank = i64Scalar(c, BigInt(r));
      return c.emit('FloorMod', [c.emit('Add', [scalar, rank], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!, rank], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
    }
    axis = known[0];
  } else {
    axis = c.opset >= 20 ? -2n : c.attr.int('axis', 1n);
  }
  const a = axis! < 0n ? Number(axis) + r : Number(axis);
  if (a < 0 || a > r - 2) { c.error(`axis ${axis} is not a signal dim of a rank-${r} input (the last dim holds the real and imaginary parts)`); return null; }
  return a;
}

/**
 * The order of a Transpose of a rank-`n` tensor that swaps run-time axis `a` with axis `b` (its
 * own inverse): Select(i = a, b, Select(i = b, a, i)) over i = 0 … n - 1.
 */
function swapOrder(c: ConvertContext, n: number, a: Value, b: number): Value {
  const nb = { auto_broadcast: 'numpy' };
  const idx = i64Const(c, Array.from({ length: n }, (_, i) => BigInt(i)));
  const bv = i64Scalar(c, BigInt(b));
  const eq = (x: Value, y: Value): Value => c.emit('Equal', [x, y], nb, 1, 'opset1')[0]!;
  const inner = c.emit('Select', [eq(idx, bv), a, idx], nb, 1, 'opset1')[0]!;
  return c.emit('Select', [eq(idx, a), bv, inner], nb, 1, 'opset1')[0]!;
}

function dftToIr(c: ConvertContext): void {
  const t = c.type(0);
  const shape = t?.kind === 'tensor' ? t.shape : null;
  const last = shape?.[shape.length - 1];
  if (!shape || (last !== 1 && last !== 2)) { c.error('DFT needs an input of known rank whose last dim is 1 (real) or 2 (complex)'); return; }
  const r = shape.length;
  const kind = kindOf(c.node);
  const axis = signalAxis(c, r);
  if (axis === null) return;
  // OpenVINO's CPU plugin cannot run RDFT / IRDFT over run-time axes (measured: an error, or a
  // crash), so a one-sided transform over a run-time axis swaps that axis with the last signal
  // axis (a Transpose of run-time order), transforms over that constant one and swaps back.
  const swapped = typeof axis !== 'number' && KIND[kind].onesided ? axis : null;
  const axes = typeof axis === 'number' ? i64Const(c, [BigInt(axis)])
    : swapped ? i64Const(c, [BigInt(r - 2)])
    : c.emit('Reshape', [axis, i64Const(c, [1n])], { special_zero: 'false' }, 1, 'opset1')[0]!;
  let size: Value | null = null;
  if (c.numInputs > 1 && c.input(1)) {
    const asI64 = c.elem(1) === 'i64' ? c.input(1)! : c.emit('Convert', [c.input(1)], { destination_type: 'i64' }, 1, 'opset1')[0]!;
    size = c.emit('Reshape', [asI64, i64Const(c, [1n])], { special_zero: 'false' }, 1, 'opset1')[0]!;
  }
  let x = c.input(0)!;
  const lastAxis = i64Const(c, [BigInt(r - 1)]);
  const swap = (v: Value, rank: number): Value => c.emit('Transpose', [v, swapOrder(c, rank, swapped!, r - 2)], {}, 1, 'opset1')[0]!;
  if (kind === 'RDFT') {
    if (last !== 1) { c.error('a one-sided forward DFT of a complex signal (OpenVINO\'s RDFT takes real signals)'); return; }
    x = c.emit('Squeeze', [x, lastAxis], {}, 1, 'opset1')[0]!;
    if (swapped) x = swap(x, r - 1);
  } else if (kind === 'IRDFT' && swapped && last === 2) {
    x = swap(x, r);
  } else if (last === 1) {
    if (kind === 'IRDFT') { c.error('a one-sided inverse DFT of a real signal (it takes the complex half spectrum)'); return; }
    const e = c.elem(0);
    const zero = e === null ? null : typedScalar(e, 0);
    if (zero === null) { c.error(`DFT of ${e ?? 'an unknown type'} (f16, f32, f64)`); return; }
    const shapeOf = c.emit('ShapeOf', [x], { output_type: 'i64' }, 1, 'opset3')[0]!;
    const imag = c.emit('Broadcast', [c.constant(zero), shapeOf], { mode: 'numpy' }, 1, 'opset3')[0]!;
    x = c.emit('Concat', [x, imag], { axis: String(r - 1) }, 1, 'opset1')[0]!;
  }
  let y = c.emit(kind, size ? [x, axes, size] : [x, axes], {}, 1, KIND[kind].version)[0]!;
  if (swapped) y = swap(y, kind === 'RDFT' ? r : r - 1); // RDFT appends the complex dim; IRDFT drops it
  if (kind === 'IRDFT') y = c.emit('Unsqueeze', [y, lastAxis], {}, 1, 'opset1')[0]!;
  c.output(0, y);
}

/** One ONNX DFT of `x` along signal axis `axis` (ONNX < 20: attribute; 20+: input). */
function onnxDft(c: ConvertContext, x: Value, axis: number, length: bigint | null, inverse: boolean, onesided: boolean): Value {
  const attrs: Record<string, Attr> = {};
  if (inverse) attrs['inverse'] = A.int(1);
  if (onesided) attrs['onesided'] = A.int(1);
  const len = length === null ? null : i64Scalar(c, length);
  if (c.opset >= 20) return c.emit('DFT', [x, len, i64Scalar(c, BigInt(axis))], attrs)[0]!;
  return c.emit('DFT', len ? [x, len] : [x], { ...attrs, axis: A.int(axis) })[0]!;
}

function dftToOnnx(c: ConvertContext, kind: Kind): void {
  const axes = c.constInts(1);
  if (axes === null) { c.needsConstant(1, 'axes (ONNX DFT takes one constant axis per node)'); return; }
  const sizes = c.numInputs > 2 && c.input(2) ? c.constInts(2) : null;
  if (c.numInputs > 2 && c.input(2) && (sizes === null || sizes.length !== axes.length)) { c.needsConstant(2, 'signal_size (ONNX dft_length is one scalar per axis)'); return; }
  const r = c.rank(0);
  if (r === null) { c.error(`${kind} needs the rank of its input`); return; }
  const signalRank = kind === 'RDFT' ? r : r - 1;
  const norm = axes.map((a) => (a < 0n ? Number(a) + signalRank : Number(a)));
  if (norm.some((a) => a < 0 || a >= signalRank)) { c.error(`axes [${axes.join(',')}] out of range for ${signalRank} signal dims`); return; }
  const len = (i: number): bigint | null => (sizes && sizes[i] !== -1n ? sizes[i]! : null);
  const { inverse } = KIND[kind];
  const trailing = i64Const(c, [BigInt(signalRank)]);
  const k = norm.length - 1;
  let y = c.input(0)!;
  if (kind === 'RDFT') {
    y = c.emit('Unsqueeze', [y, trailing])[0]!;
    y = onnxDft(c, y, norm[k]!, len(k), false, true);
    for (let i = 0; i < k; i++) y = onnxDft(c, y, norm[i]!, len(i), false, false);
  } else if (kind === 'IRDFT') {
    for (let i = 0; i < k; i++) y = onnxDft(c, y, norm[i]!, len(i), true, false);
    y = onnxDft(c, y, norm[k]!, len(k), true, true);
    y = c.emit('Squeeze', [y, trailing])[0]!;
  } else {
    norm.forEach((a, i) => { y = onnxDft(c, y, a, len(i), inverse, false); });
  }
  c.output(0, y);
}

const entry = (kind: Kind): OpMapping => ({
  onnx: { op: 'DFT', since: 17 },
  ir: { op: kind, version: KIND[kind].version },
  ...(kind === 'DFT' ? {} : { when: (n: Node) => kindOf(n) === kind }),
  handles: { onnx: ['axis', 'inverse', 'onesided'] },
  note: 'inverse / onesided pick DFT, IDFT, RDFT or IRDFT; the trailing real dim is squeezed / unsqueezed',
  toIr: dftToIr,
  toOnnx: (c) => dftToOnnx(c, kind),
});

export const DFT_OPS: readonly OpMapping[] = [entry('DFT'), entry('IDFT'), entry('RDFT'), entry('IRDFT')];
