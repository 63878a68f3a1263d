import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import type { ConvertContext } from '../spec.js';
import { typedTensor } from '../typed-consts.js';

/**
 * The post_transform of the classic ai.onnx.ml ops (tree ensembles, linear and SVM models) as
 * onnxruntime computes it (core/providers/cpu/ml/ml_common.h), in f32 over the last axis:
 * - LOGISTIC: v = 1 / (1 + exp(−|x|)), 1 − v for a negative x (so a very negative x gives 0, not
 *   the true sigmoid's tiny value; written the same way here).
 * - SOFTMAX: exp(x − max(x, −FLT_MAX)) / Σ.
 * - SOFTMAX_ZERO: as SOFTMAX, but a value within ±1e-7 of 0 becomes x · exp(−max) and is left out
 *   of the sum.
 * - PROBIT: √2 · erfinv(2x − 1) by onnxruntime's approximation of erfinv (Winitzki, a = 0.147):
 *   sgn · √(−(2/(πa) + ln(y)/2) + √((2/(πa) + ln(y)/2)² − ln(y)/a)), y = (1 − x)(1 + x).
 */
export const POST_TRANSFORMS = ['NONE', 'LOGISTIC', 'SOFTMAX', 'SOFTMAX_ZERO', 'PROBIT'] as const;
export type PostTransform = (typeof POST_TRANSFORMS)[number];

/** The IR ops the transforms write. */
export const POST_TRANSFORM_OPS = ['Abs', 'Negative', 'Exp', 'Add', 'Subtract', 'Multiply', 'Divide', 'Less', 'Greater', 'LogicalOr', 'Select',
  'ReduceMax', 'ReduceSum', 'Maximum', 'Log', 'Sqrt', 'Sigmoid', 'Convert'] as const;

const f = Math.fround;
const FLT_MAX = 3.4028234663852886e38;

/** The post_transform attribute read and checked; null after a diagnostic. */
export function readPostTransform(c: ConvertContext): PostTransform | null {
  const p = c.attr.string('post_transform', 'NONE');
  if (!(POST_TRANSFORMS as readonly string[]).includes(p)) { c.unsupportedAttr('post_transform', p, `one of ${POST_TRANSFORMS.join(', ')}`); return null; }
  return p as PostTransform;
}

export interface MlArith {
  scalar(v: number): Value;
  op(op: string, inputs: (Value | null)[], attrs?: Record<string, string>, version?: string): Value;
  logistic(x: Value): Value;
  softmax(x: Value): Value;
  softmaxZero(x: Value): Value;
  probit(x: Value): Value;
  /** `post` applied elementwise (LOGISTIC, PROBIT) or over the last axis (SOFTMAX, SOFTMAX_ZERO). */
  apply(post: PostTransform, x: Value): Value;
  /**
   * `post` as onnxruntime's batched_update_scores_inplace applies it to rows of 2+ scores (linear
   * models): LOGISTIC is MLAS's logistic there, a sigmoid within rounding (IR Sigmoid).
   */
  applyBatched(post: PostTransform, x: Value): Value;
  /** X as float: Convert from double and integers. */
  toF32(x: Value, elem: string): Value;
}

/** f32 arithmetic in the target graph, numpy-broadcast. */
export function mlArith(c: ConvertContext): MlArith {
  const nb = { auto_broadcast: 'numpy' };
  const op = (o: string, inputs: (Value | null)[], attrs: Record<string, string> = {}, version = 'opset1'): Value => c.emit(o, inputs, attrs, 1, version)[0]!;
  const scalar = (v: number): Value => c.constant(typedTensor('f32', [v], [])!);
  const bin = (o: string, a: Value, b: Value): Value => op(o, [a, b], o === 'Divide' ? { ...nb, m_pythondiv: 'true' } : nb);
  const exp = (x: Value): Value => op('Exp', [x]);
  const rowMax = (x: Value): Value => bin('Maximum', op('ReduceMax', [x, i64Const(c, [-1n])], { keep_dims: 'true' }), scalar(-FLT_MAX));
  const m: MlArith = {
    scalar,
    op,
    logistic: (x) => {
      const v = bin('Divide', scalar(1), bin('Add', scalar(1), exp(op('Negative', [op('Abs', [x])]))));
      return op('Select', [bin('Less', x, scalar(0)), bin('Subtract', scalar(1), v), v], nb);
    },
    softmax: (x) => {
      const e = exp(bin('Subtract', x, rowMax(x)));
      return bin('Divide', e, op('ReduceSum', [e, i64Const(c, [-1n])], { keep_dims: 'true' }));
    },
    softmaxZero: (x) => {
      const max = rowMax(x);
      const nonZero = op('LogicalOr', [bin('Greater', x, scalar(f(1e-7))), bin('Less', x, scalar(-f(1e-7)))], nb);
      const e = op('Select', [nonZero, exp(bin('Subtract', x, max)), bin('Multiply', x, exp(op('Negative', [max])))], nb);
      const sum = op('ReduceSum', [op('Select', [nonZero, e, scalar(0)], nb), i64Const(c, [-1n])], { keep_dims: 'true' });
      return bin('Divide', e, sum);
    },
    probit: (x) => {
      const t = bin('Subtract', bin('Multiply', scalar(2), x), scalar(1));
      const sgn = op('Select', [bin('Less', t, scalar(0)), scalar(-1), scalar(1)], nb);
      const ln = op('Log', [bin('Multiply', bin('Subtract', scalar(1), t), bin('Add', scalar(1), t))]);
      const v = bin('Add', scalar(f(2 / f(f(Math.PI) * f(0.147)))), bin('Multiply', scalar(0.5), ln));
      const v2 = bin('Multiply', scalar(f(1 / f(0.147))), ln);
      const v3 = bin('Add', op('Negative', [v]), op('Sqrt', [bin('Subtract', bin('Multiply', v, v), v2)]));
      return bin('Multiply', scalar(f(Math.SQRT2)), bin('Multiply', sgn, op('Sqrt', [v3])));
    },
    apply: (post, x) => {
      switch (post) {
        case 'NONE': return x;
        case 'LOGISTIC': return m.logistic(x);
        case 'SOFTMAX': return m.softmax(x);
        case 'SOFTMAX_ZERO': return m.softmaxZero(x);
        case 'PROBIT': return m.probit(x);
      }
    },
    applyBatched: (post, x) => (post === 'LOGISTIC' ? op('Sigmoid', [x]) : m.apply(post, x)),
    toF32: (x, elem) => (elem === 'f32' ? x : op('Convert', [x], { destination_type: 'f32' })),
  };
  return m;
}
