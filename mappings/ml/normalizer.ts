import { i64Const } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { mlArith } from './post-transform.js';

/**
 * ai.onnx.ml Normalizer (OpenVINO has no op), as onnxruntime (normalizer.cc) computes it, along
 * axis 1 (axis 0 of a 1-D X), in float:
 * - MAX: x / max(x) (the max at least the least float); L1: x / Σ|x|; L2: ±√(x² / Σx²), the sign
 *   of x — each leaving a row (or column) as it is where the divisor is 0.
 */
const NORMS = ['MAX', 'L1', 'L2'] as const;

function normalizer(c: ConvertContext): void {
  const elem = c.elem(0);
  const rank = c.rank(0);
  if (elem !== 'f32' && elem !== 'f64' && elem !== 'i64' && elem !== 'i32') { c.error(`X of ${elem ?? 'unknown type'}: X is float, double, int64 or int32`); return; }
  if (rank === null || rank < 1) { c.error(`X needs a rank of at least 1; its rank is ${rank ?? 'unknown'}`); return; }
  const norm = c.attr.string('norm', 'MAX');
  if (!(NORMS as readonly string[]).includes(norm)) { c.unsupportedAttr('norm', norm, 'MAX, L1 or L2'); return; }
  const m = mlArith(c);
  const nb = { auto_broadcast: 'numpy' };
  const x = m.toF32(c.input(0)!, elem);
  const axis = i64Const(c, [rank === 1 ? 0n : 1n]);
  const keep = { keep_dims: 'true' };
  const zero = m.scalar(0);
  const divideUnlessZero = (num: ReturnType<typeof m.scalar>, den: ReturnType<typeof m.scalar>) =>
    m.op('Select', [m.op('Equal', [den, zero], nb), x, m.op('Divide', [num, den], { ...nb, m_pythondiv: 'true' })], nb);
  let y;
  if (norm === 'MAX') {
    const max = m.op('Maximum', [m.op('ReduceMax', [x, axis], keep), m.scalar(-3.4028234663852886e38)], nb);
    y = divideUnlessZero(x, max);
  } else if (norm === 'L1') {
    y = divideUnlessZero(x, m.op('ReduceSum', [m.op('Abs', [x]), axis], keep));
  } else {
    const sq = m.op('Multiply', [x, x], nb);
    const sum = m.op('ReduceSum', [sq, axis], keep);
    const r = m.op('Sqrt', [m.op('Divide', [sq, sum], { ...nb, m_pythondiv: 'true' })]);
    y = m.op('Select', [m.op('Equal', [sum, zero], nb), x, m.op('Select', [m.op('Less', [x, zero], nb), m.op('Negative', [r]), r], nb)], nb);
  }
  c.output(0, y);
}

export const NORMALIZER: readonly OpMapping[] = [
  {
    onnx: { op: 'Normalizer', domain: 'ai.onnx.ml', since: 1 },
    ir: null,
    decomposes: ['Convert', 'ReduceMax', 'Maximum', 'ReduceSum', 'Abs', 'Multiply', 'Divide', 'Sqrt', 'Equal', 'Less', 'Negative', 'Select'],
    handles: { onnx: ['norm'] },
    note: 'IR: X / max, / Σ|x| or ±√(x² / Σx²) along axis 1, as onnxruntime',
    toIr: normalizer,
  },
];
