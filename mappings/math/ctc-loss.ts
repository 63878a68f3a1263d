import { A, type Attr } from '../../src/graph/attr.js';
import { tensorFromBool, tensorFromFloat32, tensorFromInt64 } from '../../src/graph/tensor.js';
import { tensorType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, dimOf, irOnly, never, on, onnxLoop, reduce, unsqueeze, type LoopBody } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * CTCLoss-4 (TensorFlow's ctc_loss), which ONNX lacks, as OpenVINO's CPU plugin computes it
 * (ctc_loss.cpp): logits [B, T, C], logit_length [B], labels [B, T], label_length [B], blank_index
 * (default C − 1). Each batch's labels (the first label_length) are decoded — unique: the first
 * occurrence of each label; else preprocess_collapse_repeated: a label equal to the previous one
 * dropped — and packed to the left (CumSum + ScatterElements), then interleaved with blanks:
 * ext = [blank, l0, blank, l1, …, blank] of E = 2·D + 1 states. The log-probabilities are the
 * logits less the log of their exponentials' sum (summed in f64, as the plugin). The backward
 * variables over t = L − 2 … 0 (an ONNX Loop carrying β [B, 2T + 1], a batch's β kept while
 * t ≥ L − 1; β at L − 1 is 0 at the last two states, −∞ elsewhere):
 *   β_t[s] = β_{t+1}[s] + lp_{t+1}[s] (if ctc_merge_repeated or ext[s] is blank)
 *          ⊕ β_{t+1}[s + 1] + lp_{t+1}[s + 1]
 *          ⊕ β_{t+1}[s + 2] + lp_{t+1}[s + 2] (if ext[s] is not blank and, with ctc_merge_repeated,
 *            ext[s] ≠ ext[s + 2]),
 * ⊕ the log-sum-exp max + log(1 + exp(min − max)); the loss is −(β_0[0] + lp_0[0] ⊕ β_0[1] + lp_0[1]).
 */
const NEG_INF = -Infinity;

function ctcLossToOnnx(c: ConvertContext): void {
  const elem = c.elem(0);
  if (elem !== 'f32' && elem !== 'f16' && elem !== 'bf16') { c.error(`CTCLoss takes f32, f16 or bf16 logits, not ${elem ?? 'an unknown type'}`); return; }
  const unique = c.attr.bool('unique') ?? false;
  const collapse = c.attr.bool('preprocess_collapse_repeated') ?? false;
  const merge = c.attr.bool('ctc_merge_repeated') ?? true;
  const idx = (i: number): Value => (c.elem(i) === 'i64' ? c.input(i)! : cast(c, c.input(i)!, 'i64'));
  const logits = elem === 'f32' ? c.input(0)! : cast(c, c.input(0)!, 'f32');
  const labels = idx(2);
  const T = dimOf(c, logits, 1n);
  const C = dimOf(c, logits, 2n);
  const blank = c.numInputs > 4 && c.input(4) ? on(c, 'Reshape', [idx(4), i64Const(c, [])]) : on(c, 'Sub', [C, i64Scalar(c, 1n)]);
  const steps = on(c, 'Range', [i64Scalar(c, 0n), T, i64Scalar(c, 1n)]); // [T]
  const valid = on(c, 'Less', [unsqueeze(c, steps, [0n]), unsqueeze(c, idx(3), [1n])]); // [B, T]
  let keep = valid;
  if (unique) {
    // an earlier valid position with the same label
    const same = on(c, 'Equal', [unsqueeze(c, labels, [2n]), unsqueeze(c, labels, [1n])]); // [B, t, t']
    const earlier = on(c, 'Less', [unsqueeze(c, steps, [0n]), unsqueeze(c, steps, [1n])]); // [t, t']: t' < t
    const seen = on(c, 'And', [on(c, 'And', [same, earlier]), unsqueeze(c, valid, [1n])]);
    keep = on(c, 'And', [valid, on(c, 'Not', [cast(c, reduce(c, 'ReduceMax', cast(c, seen, 'f32'), [2n], false), 'boolean')])]);
  } else if (collapse) {
    const previous = on(c, 'Concat', [on(c, 'Slice', [labels, i64Const(c, [0n]), i64Const(c, [1n]), i64Const(c, [1n])]), on(c, 'Slice', [labels, i64Const(c, [0n]), i64Const(c, [-1n]), i64Const(c, [1n])])], { axis: A.int(1) });
    const first = on(c, 'Equal', [unsqueeze(c, steps, [0n]), i64Scalar(c, 0n)]);
    keep = on(c, 'And', [valid, on(c, 'Or', [first, on(c, 'Not', [on(c, 'Equal', [labels, previous])])])]);
  }
  // pack the kept labels to the left of [B, T] (blanks after them)
  const kept = cast(c, keep, 'i64');
  const place = on(c, 'Where', [keep, on(c, 'Sub', [on(c, 'CumSum', [kept, i64Scalar(c, 1n)]), i64Scalar(c, 1n)]), T]);
  const spare = on(c, 'Pad', [labels, i64Const(c, [0n, 0n, 0n, 1n])]); // [B, T + 1]
  const blanks = on(c, 'Expand', [blank, on(c, 'Shape', [spare])]);
  const packed = on(c, 'Slice', [on(c, 'ScatterElements', [blanks, place, labels], { axis: A.int(1) }), i64Const(c, [0n]), unsqueeze(c, T, [0n]), i64Const(c, [1n])]);
  const D = reduce(c, 'ReduceSum', kept, [1n], true); // [B, 1]
  const E = on(c, 'Add', [on(c, 'Mul', [D, i64Scalar(c, 2n)]), i64Scalar(c, 1n)]);
  // ext [B, 2T + 1] = blank, l0, blank, l1, …, blank; two more blanks past it for the skip test
  const pairs = on(c, 'Concat', [unsqueeze(c, on(c, 'Expand', [blank, on(c, 'Shape', [packed])]), [2n]), unsqueeze(c, packed, [2n])], { axis: A.int(2) });
  const ext = on(c, 'Pad', [on(c, 'Reshape', [pairs, i64Const(c, [0n, -1n])]), i64Const(c, [0n, 0n, 0n, 1n]), blank]);
  const extPlus = on(c, 'Pad', [ext, i64Const(c, [0n, 0n, 0n, 2n]), blank]);
  const S = dimOf(c, ext, 1n);
  const isBlank = on(c, 'Equal', [ext, blank]);
  const allowSelf = merge ? on(c, 'Expand', [c.constant(tensorFromBool([true], [])), on(c, 'Shape', [ext])]) : isBlank;
  const ahead2 = on(c, 'Slice', [extPlus, i64Const(c, [2n]), unsqueeze(c, on(c, 'Add', [S, i64Scalar(c, 2n)]), [0n]), i64Const(c, [1n])]);
  const allowSkip = merge ? on(c, 'And', [on(c, 'Not', [isBlank]), on(c, 'Not', [on(c, 'Equal', [ext, ahead2])])]) : on(c, 'Not', [isBlank]);
  // log-probabilities of the states [B, T, S]
  const wide = cast(c, logits, 'f64');
  const logSum = on(c, 'Log', [reduce(c, 'ReduceSum', on(c, 'Exp', [wide]), [2n], true)]);
  const lp = cast(c, on(c, 'Sub', [wide, logSum]), 'f32');
  const lpExt = on(c, 'GatherElements', [lp, on(c, 'Expand', [unsqueeze(c, ext, [1n]), on(c, 'Concat', [on(c, 'Slice', [on(c, 'Shape', [lp]), i64Const(c, [0n]), i64Const(c, [2n])]), unsqueeze(c, S, [0n])], { axis: A.int(0) })])], { axis: A.int(2) });
  // β at L − 1
  const states = unsqueeze(c, on(c, 'Range', [i64Scalar(c, 0n), S, i64Scalar(c, 1n)]), [0n]); // [1, S]
  const negInf = c.constant(tensorFromFloat32([NEG_INF], []));
  const zero = c.constant(tensorFromFloat32([0], []));
  const last2 = on(c, 'And', [on(c, 'Not', [on(c, 'Less', [states, on(c, 'Sub', [E, i64Scalar(c, 2n)])])]), on(c, 'Less', [states, E])]);
  const beta0 = on(c, 'Where', [last2, zero, negInf]); // [B, S]
  const lastStep = unsqueeze(c, on(c, 'Sub', [idx(1), i64Scalar(c, 1n)]), [1n]); // [B, 1]
  const trips = on(c, 'Max', [on(c, 'Sub', [T, i64Scalar(c, 1n)]), i64Scalar(c, 0n)]);
  const [beta] = onnxLoop(c, {
    trips, iteration: 'i',
    carried: [{ value: beta0, name: 'beta', type: tensorType('f32', [null, null]) }],
    captures: [
      { value: lpExt, name: 'log_probs', type: tensorType('f32', [null, null, null]) },
      { value: allowSelf, name: 'allow_self', type: tensorType('boolean', [null, null]) }, { value: allowSkip, name: 'allow_skip', type: tensorType('boolean', [null, null]) },
      { value: lastStep, name: 'last_step', type: tensorType('i64', [null, 1]) }, { value: T, name: 'steps', type: tensorType('i64', []) },
    ],
  }, (b) => ({ carried: [backwardStep(b)] }));
  // −(β_0[0] + lp_0[0] ⊕ β_0[1] + lp_0[1])
  const at0 = on(c, 'Add', [beta!, on(c, 'Gather', [lpExt, i64Scalar(c, 0n)], { axis: A.int(1) })]);
  const first = (k: bigint): Value => on(c, 'Gather', [at0, i64Scalar(c, k)], { axis: A.int(1) });
  const loss = on(c, 'Neg', [logSumExp((op, ins) => on(c, op, ins), first(0n), first(1n), negInf, c.constant(tensorFromFloat32([1], [])))]);
  c.output(0, elem === 'f32' ? loss : cast(c, loss, elem));
}

type Emit = (op: string, ins: readonly Value[], attrs?: Record<string, Attr>) => Value;

/** a ⊕ b: max + log(1 + exp(min − max)), −∞ when both are. */
function logSumExp(op: Emit, a: Value, b: Value, negInf: Value, one: Value): Value {
  const hi = op('Max', [a, b]);
  const sum = op('Add', [hi, op('Log', [op('Add', [one, op('Exp', [op('Sub', [op('Min', [a, b]), hi])])])])]);
  return op('Where', [op('Equal', [hi, negInf]), negInf, sum]);
}

/** One backward step: (i, β; captured lp, allowSelf, allowSkip, L − 1, T) → β at t = T − 2 − i. */
function backwardStep({ graph: g, i, carried: [beta], captures: [lp, allowSelf, allowSkip, lastStep, T], op }: LoopBody): Value {
  const k = (v: bigint): Value => g.addInitializer(tensorFromInt64([v], []));
  const ks = (v: bigint[]): Value => g.addInitializer(tensorFromInt64(v));
  const negInf = g.addInitializer(tensorFromFloat32([NEG_INF], []));
  const t = op('Sub', [op('Sub', [T!, k(2n)]), i]);
  const a = op('Add', [beta!, op('Gather', [lp!, op('Add', [t, k(1n)])], { axis: A.int(1) })]); // β_{t+1} + lp_{t+1}, [B, S]
  const shifted = (by: bigint): Value => op('Pad', [op('Slice', [a, ks([by]), ks([BigInt(Number.MAX_SAFE_INTEGER)]), ks([1n])]), ks([0n, 0n, 0n, by]), negInf]);
  const self = op('Where', [allowSelf!, a, negInf]);
  const skip = op('Where', [allowSkip!, shifted(2n), negInf]);
  const one = g.addInitializer(tensorFromFloat32([1], []));
  const next = logSumExp(op, logSumExp(op, self, shifted(1n), negInf, one), skip, negInf, one);
  return op('Where', [op('Less', [t, lastStep!]), next, beta!]);
}

export const CTC_LOSS: readonly OpMapping[] = [
  {
    onnx: { op: 'Loop', since: 13 },
    ir: { op: 'CTCLoss', version: 'opset4' },
    when: never,
    handles: { ir: ['preprocess_collapse_repeated', 'ctc_merge_repeated', 'unique'] },
    note: 'labels decoded and packed (CumSum + ScatterElements), interleaved with blanks; the CTC backward variables in a Loop over the steps (log-sum-exp), per batch length',
    toIr: irOnly,
    toOnnx: ctcLossToOnnx,
  },
];
