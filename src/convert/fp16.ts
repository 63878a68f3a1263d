import { allGraphs, type Graph } from '../graph/graph.js';
import { f32BitsToF16Bits } from '../graph/f16.js';
import { lazyTensor, makeTensor, rawData, type Tensor } from '../graph/tensor.js';
import { DerivedBytes } from '../fs/derived-bytes.js';
import { eachPieceOf, onDemand } from '../fs/sparse-file.js';
import { elementCount } from '../graph/shape.js';
import { tensorType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import type { Diagnostics } from '../diag/diagnostic.js';

export { f32ToF16Bits } from '../graph/f16.js';

/** The largest finite f16 (65504) and the smallest positive one (2^-24, a subnormal). */
const F16_MAX = 65504;
const F16_MIN_POSITIVE = 2 ** -24;
/** The f16 bits of 65504; the f32 bits of 65504, of +inf and of 2^-24. */
const F16_MAX_BITS = 0x7bff;
const F32_BITS_F16_MAX = 0x477fe000;
const F32_BITS_INF = 0x7f800000;
const F32_BITS_F16_MIN_POSITIVE = 0x33800000;

/** Whether f16 cannot hold `x` even approximately: beyond ±65504 (±inf included), or a non-zero closer to 0 than 2^-24. */
export function outOfF16Range(x: number): boolean {
  const a = Math.abs(x);
  return a > F16_MAX || (a < F16_MIN_POSITIVE && x !== 0);
}

/**
 * OpenVINO's share of out-of-range values at which a constant stays f32: "if more than 75% of a
 * FP32 constant do not fit into FP16 keep in FP32" (CompressFloatConstantsImpl).
 */
export const KEEP_F32_SHARE = 0.75;

/**
 * The f16 form of an f32 constant, or null when it stays f32: when at least KEEP_F32_SHARE of
 * its values are out of f16 range (a scalar 1048576 stays f32). Otherwise values beyond ±65504
 * are clamped to ±65504 (never inf), as OpenVINO's convert_from_f32_to_f16_with_clamp does, and
 * the rest round to nearest even.
 */
export function compressTensorToF16(t: Tensor, counts?: OutOfRange): Tensor | null {
  const n = elementCount(t.dims);
  const raw = rawData(t);
  if (raw.byteLength !== n * 4) return null; // not a well-formed f32 tensor (readers refuse such): left as it is
  const held = onDemand(raw);
  const c: OutOfRange = counts ?? { outside: 0, beyondMax: 0 };
  c.outside = 0;
  c.beyondMax = 0;
  if (held && !held.isFilled(raw.byteOffset, raw.byteOffset + raw.byteLength)) {
    // A weight of a big file, not read: counted piece by piece from the file, and if it becomes
    // f16, computed again piece by piece when written (DerivedBytes): the conversion holds neither form.
    eachPieceOf(raw, (piece) => { outsideF16(piece, c); });
    if (n === 0 || c.outside / n >= KEEP_F32_SHARE) return null;
    const f16 = new DerivedBytes(raw, 2, 2, (src, dst) => { toF16(src, dst, { outside: 0, beyondMax: 0 }); });
    return lazyTensor('f16', t.dims, f16.bytes, () => f16.fill(0, f16.size));
  }
  const out = new Uint8Array(n * 2);
  toF16(raw, out, c);
  if (n === 0 || c.outside / n >= KEEP_F32_SHARE) return null;
  return makeTensor('f16', t.dims, out);
}

/**
 * What f16 cannot hold among an f32 constant's values: `outside` out of its range (outOfF16Range:
 * what OpenVINO's 75% rule counts), of which `beyondMax` beyond ±65504 (stored as ±65504: other
 * numbers, not a rounding; the rest are non-zeros below 2^-24, stored as 0 or a subnormal, which
 * f16's precision allows).
 */
export interface OutOfRange { outside: number; beyondMax: number }

/**
 * The f16 bits of f32 bytes `src` into `dst` (half as many bytes), where an f16 infinity from a
 * finite or infinite f32 (beyond ±65504) is ±65504; adds to `c` how many were out of f16 range
 * (outOfF16Range as bit ranges: NaN is not) and beyond ±65504. One pass over the bits (through numbers, two passes
 * were most of compressing a 400 MB model).
 */
function toF16(src: Uint8Array, dst: Uint8Array, c: OutOfRange): void {
  // (lengths read once: `k < src.byteLength` in the loop, with Buffers and Uint8Arrays both
  // passed, cost 11 instead of 1.4 ns per element, measured)
  const n = src.byteLength;
  const from = new DataView(src.buffer, src.byteOffset, n);
  const to = new DataView(dst.buffer, dst.byteOffset, dst.byteLength);
  let outside = 0;
  let beyond = 0;
  for (let k = 0, j = 0; k < n; k += 4, j += 2) {
    const u = from.getUint32(k, true);
    const a = u & 0x7fffffff;
    if (outsideBits(a)) {
      outside++;
      if (a > F32_BITS_F16_MAX) beyond++;
    }
    const h = f32BitsToF16Bits(u);
    to.setUint16(j, (h & 0x7fff) === 0x7c00 ? (h & 0x8000) | F16_MAX_BITS : h, true);
  }
  c.outside += outside;
  c.beyondMax += beyond;
}

/** Adds to `c` what of the f32s of `src` f16 cannot hold (as toF16 counts them). */
function outsideF16(src: Uint8Array, c: OutOfRange): void {
  const n = src.byteLength;
  const from = new DataView(src.buffer, src.byteOffset, n);
  let outside = 0;
  let beyond = 0;
  for (let k = 0; k < n; k += 4) {
    const a = from.getUint32(k, true) & 0x7fffffff;
    if (outsideBits(a)) {
      outside++;
      if (a > F32_BITS_F16_MAX) beyond++;
    }
  }
  c.outside += outside;
  c.beyondMax += beyond;
}

/** outOfF16Range of the f32 whose bits without the sign are `a` (NaN is not out of range). */
const outsideBits = (a: number): boolean => (a > F32_BITS_F16_MAX && a <= F32_BITS_INF) || (a !== 0 && a < F32_BITS_F16_MIN_POSITIVE);

/**
 * compress_to_fp16 as ovc does it: every f32 constant of every graph is stored as f16 and
 * converted back to f32 by a Convert right after it, so the model computes in f32 as before.
 * A constant f16 cannot hold stays f32, by OpenVINO's rule (compressTensorToF16). Not mirrored:
 * OpenVINO's marking of precision-sensitive subgraphs (which keeps a few more constants f32).
 */
export function compressToFp16(root: Graph, diags?: Diagnostics): void {
  for (const g of allGraphs(root)) compressGraph(g, diags);
}

function compressGraph(g: Graph, diags: Diagnostics | undefined): void {
  const converts = [];
  const counts: OutOfRange = { outside: 0, beyondMax: 0 };
  for (let i = 0; i < g.initializers.length; i++) {
    const v = g.initializers[i]!;
    if (v.constant?.elem !== 'f32') continue;
    const f16 = compressTensorToF16(v.constant, counts);
    if (!f16) continue;
    // values clamped to ±65504 are other numbers (ovc clamps them without a word): said, not hidden
    if (counts.beyondMax > 0) {
      diags?.add('CONVERT_FP16_CLAMPED', `${g.path}/${String(v.metaView['layerName'] ?? v.label)}`, {
        value: v.label, count: counts.beyondMax, total: elementCount(v.constant.dims),
      });
    }
    const half = g.addInitializer(f16, []);
    half.meta['layerName'] = `${v.metaView['layerName'] ?? v.label}/compressed`;
    g.initializers.splice(g.initializers.length - 1, 1);
    g.initializers[i] = half;
    const cvt = g.addNode({ dialect: 'ov', op: 'Convert', version: 'opset1', name: `${v.metaView['layerName'] ?? v.label}/decompress` });
    g.nodes.pop();
    cvt.attrs.set('destination_type', { type: 'raw', value: 'f32' });
    cvt.addInput(half);
    const out = cvt.addOutput(tensorType('f32', v.constant.dims), v.names);
    out.meta = { ...v.meta };
    redirect(g, v, out);
    converts.push(cvt);
  }
  g.nodes.unshift(...converts);
}

function redirect(g: Graph, from: Value, to: Value): void {
  for (const u of [...from.uses]) u.node.setInput(u.index, to);
  for (let k = 0; k < g.outputs.length; k++) if (g.outputs[k] === from) g.outputs[k] = to;
}
