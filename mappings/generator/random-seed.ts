import { A, type Attr } from '../../src/graph/attr.js';
import type { ConvertContext } from '../spec.js';

/**
 * The seeds of the random ops. ONNX has one float `seed` (absent: a new sequence each session);
 * OpenVINO's RandomUniform-8 / Multinomial-13 two uint64 seeds `global_seed` / `op_seed` (both 0:
 * a new sequence each run). ONNX → IR writes the float's 32 bits as op_seed with global_seed 0, as
 * OpenVINO's ONNX frontend does (`convert_float_seed`), except seed 0.0: its bits are 0, which
 * OpenVINO reads as "no seed", so it is written as the bits of -0.0 (a fixed seed stays fixed).
 * A second stream of one op (RandomNormal's Box–Muller pair) takes global_seed `stream` (seeded
 * ops only: two unseeded RandomUniform draw independent sequences, measured).
 *
 * The generators differ: OpenVINO's Philox is not onnxruntime's nor numpy's, so the same seed
 * gives other numbers of the same distribution. A seed therefore says only "deterministic".
 */
const bits = new DataView(new ArrayBuffer(4));

/** ONNX → IR: the IR seed attributes for the source node's `seed` (stream 0, or a second stream). */
export function irSeeds(c: ConvertContext, stream = 0): Record<string, string> {
  const seed = c.attr.float('seed');
  if (seed === undefined) return { global_seed: '0', op_seed: '0' };
  bits.setFloat32(0, seed, true);
  const op = bits.getUint32(0, true) || 0x80000000;
  return { global_seed: String(stream), op_seed: String(op) };
}

/**
 * IR → ONNX: the ONNX `seed` for the layer's seeds, or none for two zeros. global_seed 0 with an
 * op_seed that is the bits of a finite float32 (what ONNX → IR writes, and ovc) gives that float
 * back; other pairs do not fit one float32: a deterministic seed derived from both (24 bits, a
 * whole float), still a fixed sequence, as the IR's is.
 */
export function onnxSeed(c: ConvertContext): Record<string, Attr> {
  const g = BigInt.asUintN(64, c.attr.int('global_seed', 0n));
  const o = BigInt.asUintN(64, c.attr.int('op_seed', 0n));
  if (g === 0n && o === 0n) return {};
  if (g === 0n && o < 1n << 32n) {
    bits.setUint32(0, Number(o), true);
    const f = bits.getFloat32(0, true);
    if (Number.isFinite(f)) return { seed: A.float(f) };
  }
  return { seed: A.float(Number((g * 1000003n + o) % (1n << 24n))) };
}

/** The seed attributes each side reads itself. */
export const SEED_HANDLES = { onnx: ['seed'], ir: ['global_seed', 'op_seed'] } as const;
