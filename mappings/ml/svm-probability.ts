import { tensorFromBool, tensorFromInt64 } from '../../src/graph/tensor.js';
import { tensorType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { bodyOps } from '../body-ops.js';
import { i64Const } from '../helpers.js';
import { irLoop } from '../ir-loop.js';
import type { ConvertContext } from '../spec.js';
import { irBuilder } from '../nn/ir-build.js';
import { typedTensor } from '../typed-consts.js';
import type { MlArith } from './post-transform.js';

/**
 * SVMClassifier's class probabilities (prob_a, prob_b) as onnxruntime computes them
 * (svmclassifier.cc, multiclass_probability and sigmoid_probability in ml_common.h: libsvm's
 * method, Wu, Lin and Weng 2004), in f32:
 * - each pair i < j's score s gives r = 1 − logistic(s · A + B) (onnxruntime's logistic, see
 *   post-transform.ts), held in [1e-7, 1 − 1e-7]; r[i][j] = r, r[j][i] = 1 − r, r[i][i] = 0;
 * - Q[i][i] = Σ_j r[j][i]², Q[i][j] = −r[j][i]·r[i][j]; p = 1/k;
 * - up to 100 rounds: Qp = Q·p, pQp = p·Qp; a sample stops for good once max |Qp − pQp| < 0.005/k;
 *   else, for i = 0 … k − 1 in turn, diff = (pQp − Qp[i]) / Q[i][i], p[i] += diff,
 *   pQp = (pQp + diff·(diff·Q[i][i] + 2·Qp[i])) / (1 + diff) / (1 + diff),
 *   Qp = (Qp + diff·Q[i]) / (1 + diff), p = p / (1 + diff).
 * onnxruntime stops each sample's loop on its own; here every sample runs the 100 rounds of an IR
 * Loop-5 and a sample that has stopped keeps its p (Select on a carried "stopped" mask), which is
 * the same arithmetic. The k updates of a round are written out one after the other (k is known).
 * Returns p [N, k]; the caller applies post_transform and takes the label from the votes, as
 * onnxruntime does.
 */
export function svmProbabilities(c: ConvertContext, m: MlArith, scores: Value, probA: readonly number[], probB: readonly number[], classes: number): Value {
  const k = classes;
  const pairs = (k * (k - 1)) / 2;
  const nb = { auto_broadcast: 'numpy' };
  const f = Math.fround;
  const b = irBuilder(c);
  const f32 = (values: readonly number[], dims: number[]): Value => c.constant(typedTensor('f32', values, dims)!);
  // r of each pair, clipped as onnxruntime clips it (1 − 1e-7 rounded to f32, as C++ computes it)
  const val = b.add(b.mul(scores, f32(probA.slice(0, pairs), [pairs])), f32(probB.slice(0, pairs), [pairs]));
  const r = m.op('Minimum', [m.op('Maximum', [b.sub(m.scalar(1), m.logistic(val)), m.scalar(f(1e-7))], nb), m.scalar(f(1 - f(1e-7)))], nb);
  // R [N, k, k]: r, 1 − r and 0 gathered into place
  const index: bigint[] = [];
  const pairOf = (i: number, j: number): number => i * k - (i * (i + 1)) / 2 + (j - i - 1); // pairs in onnxruntime's order: (0,1), (0,2)…, (1,2)…
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) index.push(BigInt(i < j ? pairOf(i, j) : i > j ? pairs + pairOf(j, i) : 2 * pairs));
  // zeros [N, 1] (from the batch size, not from r: a NaN score must not spread into other rows)
  const batch = b.gather(b.shapeOf(scores), i64Const(c, [0n]), 0n);
  const zero = m.op('Broadcast', [m.scalar(0), b.concat([batch, i64Const(c, [1n])], 0)], { mode: 'numpy' }, 'opset3');
  const table = b.concat([r, b.sub(m.scalar(1), r), zero], 1);
  const R = b.reshape(b.gather(table, c.constant(tensorFromInt64(index, [k * k])), 1n), [0n, BigInt(k), BigInt(k)]);
  // Q: −r[j][i]·r[i][j] off the diagonal, Σ_j r[j][i]² on it
  const off = b.unary('Negative', b.mul(b.transpose(R, [0n, 2n, 1n]), R));
  const diag = m.op('ReduceSum', [b.mul(R, R), i64Const(c, [1n])], { keep_dims: 'true' }); // [N, 1, k]
  const eye: boolean[] = [];
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) eye.push(i === j);
  const Q = b.select(c.constant(tensorFromBool(eye, [k, k])), diag, off);
  const Qdiag = b.squeeze(diag, [1n]); // [N, k]
  // the starting state: p = 1/k for every sample, none stopped
  const p0 = b.add(zero, f32(new Array<number>(k).fill(f(1 / k)), [k]));
  const stopped0 = m.op('Less', [b.squeeze(zero, [1n]), m.scalar(0)], nb); // [N], false
  const eps = f(0.005 / k);
  const [p] = irLoop(c, {
    trips: c.constant(tensorFromInt64([100n], [])),
    iteration: 'round',
    carried: [
      { value: p0, name: 'p', type: tensorType('f32', [null, k]) },
      { value: stopped0, name: 'stopped', type: tensorType('boolean', [null]) },
    ],
    invariant: [
      { value: Q, name: 'Q', type: tensorType('f32', [null, k, k]) },
      { value: Qdiag, name: 'Q_diagonal', type: tensorType('f32', [null, k]) },
    ],
    outputs: [{ last: 0 }],
  }, ({ graph: g, carried: [pIn, stoppedIn], invariant: [q, qd] }) => {
    const { op, i64 } = bodyOps(g, c.node.name || 'SVMClassifier');
    const s = (v: number): Value => g.addInitializer(typedTensor('f32', [v], [])!);
    const bin = (o: string, x: Value, y: Value): Value => op(o, [x, y], 'opset1', o === 'Divide' ? { ...nb, m_pythondiv: 'true' } : nb);
    const column = (x: Value, i: number): Value => op('Gather', [x, i64(BigInt(i)), i64(1n)], 'opset8', { batch_dims: '0' });
    const keep = (x: Value): Value => op('Unsqueeze', [x, i64(1n)]);
    let Qp = op('Squeeze', [op('MatMul', [q!, op('Unsqueeze', [pIn!, i64(-1n)])], 'opset1', { transpose_a: 'false', transpose_b: 'false' }), i64(-1n)]);
    let pQp = op('ReduceSum', [bin('Multiply', pIn!, Qp), i64(-1n)], 'opset1', { keep_dims: 'true' }); // [N, 1]
    const error = op('ReduceMax', [op('Abs', [bin('Subtract', Qp, pQp)]), i64(-1n)], 'opset1', { keep_dims: 'false' });
    const stopped = op('LogicalOr', [stoppedIn!, bin('Less', error, s(eps))], 'opset1', nb);
    let pNext = pIn!;
    for (let i = 0; i < k; i++) {
      const qpi = keep(column(Qp, i));
      const qii = keep(column(qd!, i));
      const diff = bin('Divide', bin('Subtract', pQp, qpi), qii);
      const onI = g.addInitializer(tensorFromBool(Array.from({ length: k }, (_, j) => j === i), [k]));
      pNext = op('Select', [onI, bin('Add', pNext, diff), pNext], 'opset1', nb);
      const d1 = bin('Add', s(1), diff);
      pQp = bin('Divide', bin('Divide', bin('Add', pQp, bin('Multiply', diff, bin('Add', bin('Multiply', diff, qii), bin('Multiply', s(2), qpi)))), d1), d1);
      const row = op('Gather', [q!, i64(BigInt(i)), i64(1n)], 'opset8', { batch_dims: '0' }); // Q[i] [N, k]
      Qp = bin('Divide', bin('Add', Qp, bin('Multiply', diff, row)), d1);
      pNext = bin('Divide', pNext, d1);
    }
    return { carried: [op('Select', [keep(stopped), pIn!, pNext], 'opset1', nb), stopped] };
  });
  return p!;
}
