import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Dim } from '../../src/graph/shape.js';
import { tensorType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { bodyOps } from '../body-ops.js';
import { irLoop } from '../ir-loop.js';
import { scalarLike } from '../generator/constant-of-shape.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext } from '../spec.js';
import { emitReadOutputs } from './read-outputs.js';

/**
 * ONNX LSTM with peephole weights (input P) → IR. LSTMSequence-5 has no peepholes (and
 * LSTMCell-1's are ignored by the CPU plugin), so the recurrence is written out as ONNX defines it,
 * one Loop-5 per direction over the time steps (gates i, o, f, c as ONNX stacks them; f, g, h the
 * direction's activations; ⊙ elementwise):
 *   it = f(Xt·Wiᵀ + Ht-1·Riᵀ + Wbi + Rbi + Pi ⊙ Ct-1)
 *   ft = f(Xt·Wfᵀ + Ht-1·Rfᵀ + Wbf + Rbf + Pf ⊙ Ct-1)
 *   ct = g(Xt·Wcᵀ + Ht-1·Rcᵀ + Wbc + Rbc)
 *   Ct = ft ⊙ Ct-1 + it ⊙ ct
 *   ot = f(Xt·Woᵀ + Ht-1·Roᵀ + Wbo + Rbo + Po ⊙ Ct)
 *   Ht = ot ⊙ h(Ct)
 * X·Wᵀ + B is computed for all steps before the loop. sequence_lens as onnxruntime applies it: a
 * step t ≥ len[b] keeps batch b's states and writes zeros to Y; the reverse direction runs over
 * each sequence reversed within its length (ReverseSequence before and after the loop).
 * Supported: the activations the LSTMSequence mapping supports (Sigmoid, Tanh, Relu), per
 * direction; clip bounds each gate's activation input (peephole term and biases included), not
 * h's input Ct, as onnxruntime computes (measured: the other reading differs by up to 0.33);
 * input_forget is refused (rnn.ts).
 */
const ACTS = new Map([['Sigmoid', 'Sigmoid'], ['Tanh', 'Tanh'], ['Relu', 'Relu']]);

export function lstmPeepholeToIr(c: ConvertContext, h: number, direction: string, layout: bigint): void {
  const dirs = direction === 'bidirectional' ? 2 : 1;
  const acts = c.attr.strings('activations') ?? Array.from({ length: dirs }, () => ['Sigmoid', 'Tanh', 'Tanh']).flat();
  if (acts.length !== 3 * dirs || acts.some((a) => !ACTS.has(a))) {
    c.unsupportedAttr('activations', acts.join(','), `with peepholes, ${3 * dirs} of ${[...ACTS.keys()].join(', ')}`);
    return;
  }
  for (const a of ['activation_alpha', 'activation_beta']) {
    const v = c.attr.floats(a);
    if (v && v.length) { c.unsupportedAttr(a, v.join(','), 'Sigmoid, Tanh and Relu take no parameters'); return; }
  }
  const clip = c.attr.float('clip');
  if (clip !== undefined && !(clip > 0)) { c.unsupportedAttr('clip', String(clip), 'a positive threshold'); return; }
  const elem = c.elem(0);
  if (!elem || elem === 'dynamic') { c.error('LSTM needs the element type of X to be known'); return; }

  const b = irBuilder(c);
  const seqMajor = layout === 0n;
  const xt = c.type(0);
  const xDims = xt && xt.kind === 'tensor' && xt.shape && xt.shape.length === 3 ? xt.shape : null;
  const known = { steps: xDims ? xDims[seqMajor ? 0 : 1]! : null, batch: xDims ? xDims[seqMajor ? 1 : 0]! : null };
  const tr = (v: Value, perm: bigint[]): Value => b.transpose(v, perm);
  const x = seqMajor ? c.input(0)! : tr(c.input(0)!, [1n, 0n, 2n]); // [S, batch, I]
  const shape = b.shapeOf(x);
  const steps = b.gather(shape, i64Scalar(c, 0n), 0n);
  const batch = b.gather(shape, i64Const(c, [1n]), 0n);
  const given = (i: number): Value | null => (c.numInputs > i ? c.input(i) : null);
  const zero = scalarLike(c, 0, 0, 'a zero');
  if (!zero) return;
  // [dirs, batch, H] initial states (zeros when absent)
  const stateShape = b.concat([i64Const(c, [BigInt(dirs)]), batch, i64Const(c, [BigInt(h)])], 0);
  const initial = (i: number): Value => {
    const v = given(i);
    if (v) return seqMajor ? v : tr(v, [1n, 0n, 2n]);
    return c.emit('Broadcast', [zero, stateShape], { mode: 'numpy' }, 1, 'opset3')[0]!;
  };
  const h0 = initial(5);
  const c0 = initial(6);
  const lens = given(4)
    ? b.convert(given(4)!, 'i64')
    : c.emit('Broadcast', [steps, batch], { mode: 'numpy' }, 1, 'opset3')[0]!;
  const w = c.input(1)!;
  const r = c.input(2)!;
  const bias = given(3);
  const p = c.input(7)!;
  const ys: Value[] = [];
  const hs: Value[] = [];
  const cs: Value[] = [];
  for (let d = 0; d < dirs; d++) {
    const at = (v: Value): Value => b.squeeze(b.slice(v, BigInt(d), BigInt(d + 1), 0n), [0n]);
    const reverse = direction === 'reverse' || d === 1;
    const xs = reverse ? c.emit('ReverseSequence', [x, lens], { batch_axis: '1', seq_axis: '0' }, 1, 'opset1')[0]! : x;
    // X·Wᵀ + Wb + Rb for every step: [S, batch, 4H]
    let xw = b.matmul(xs, at(w), true);
    if (bias) {
      const [wb, rb] = b.split(at(bias), 0n, 2);
      xw = b.add(xw, b.add(wb!, rb!));
    }
    const [pi, po, pf] = b.split(at(p), 0n, 3);
    const dirActs = acts.slice(3 * d, 3 * d + 3).map((a) => ACTS.get(a)!);
    const out = recurrence(c, elem, h, dirActs, clip ?? null, known, { xw, r: at(r), pi: pi!, po: po!, pf: pf!, h0: at(h0), c0: at(c0), lens, steps });
    ys.push(b.unsqueeze(reverse ? c.emit('ReverseSequence', [out.y, lens], { batch_axis: '1', seq_axis: '0' }, 1, 'opset1')[0]! : out.y, [1n]));
    hs.push(b.unsqueeze(out.h, [0n]));
    cs.push(b.unsqueeze(out.c, [0n]));
  }
  const y = dirs === 1 ? ys[0]! : b.concat(ys, 1); // [S, dirs, batch, H]
  const yh = dirs === 1 ? hs[0]! : b.concat(hs, 0); // [dirs, batch, H]
  const yc = dirs === 1 ? cs[0]! : b.concat(cs, 0);
  const outs = seqMajor ? [y, yh, yc] : [tr(y, [2n, 0n, 1n, 3n]), tr(yh, [1n, 0n, 2n]), tr(yc, [1n, 0n, 2n])];
  emitReadOutputs(c, (i) => outs[i]!);
}

interface Operands {
  /** X·Wᵀ + B, all steps: [S, batch, 4H]. */
  xw: Value;
  /** R of the direction: [4H, H]. */
  r: Value;
  pi: Value; po: Value; pf: Value;
  h0: Value; c0: Value;
  /** Each sequence's length: [batch] i64. */
  lens: Value;
  /** S: i64 scalar. */
  steps: Value;
}

/** One direction: the Loop-5 over the steps; Y [S, batch, H] (zeros past a sequence's length), the last H and C. */
function recurrence(c: ConvertContext, elem: ElementTypeName, h: number, acts: string[], clip: number | null, known: { steps: Dim; batch: Dim }, o: Operands): { y: Value; h: Value; c: Value } {
  const { steps: s, batch: n } = known;
  const [y, hLast, cLast] = irLoop(c, {
    trips: o.steps, iteration: 't',
    carried: [{ value: o.h0, name: 'H_prev', type: tensorType(elem, [n, h]) }, { value: o.c0, name: 'C_prev', type: tensorType(elem, [n, h]) }],
    invariant: [
      { value: o.xw, name: 'XW', type: tensorType(elem, [s, n, 4 * h]) }, { value: o.r, name: 'R', type: tensorType(elem, [4 * h, h]) },
      { value: o.pi, name: 'Pi', type: tensorType(elem, [h]) }, { value: o.po, name: 'Po', type: tensorType(elem, [h]) },
      { value: o.pf, name: 'Pf', type: tensorType(elem, [h]) }, { value: o.lens, name: 'lens', type: tensorType('i64', [n]) },
    ],
    outputs: [{ scan: 0, axis: 0 }, { last: 0 }, { last: 1 }],
  }, ({ graph: g, iteration: t, carried: [hp, cp], invariant: [xw, r, pi, po, pf, lens] }) => {
    const ops = bodyOps(g, `${c.node.name || 'LSTM'}/step`);
    const { op, i64 } = ops;
    const nb = { auto_broadcast: 'numpy' };
    const add = (a: Value, v: Value) => op('Add', [a, v], 'opset1', nb);
    const mul = (a: Value, v: Value) => op('Multiply', [a, v], 'opset1', nb);
    // clip bounds the input of each gate's activation (f, g) to [-clip, clip]; h(Ct) is not clipped
    const act = (name: string, v: Value) => op(name, [clip === null ? v : op('Clamp', [v], 'opset1', { min: String(-clip), max: String(clip) })]);
    const [f, gAct, hAct] = acts as [string, string, string];
    const gates = add(op('Gather', [xw, t, i64(0n)], 'opset8', { batch_dims: '0' }),
      op('MatMul', [hp, r], 'opset1', { transpose_a: 'false', transpose_b: 'true' })); // [batch, 4H]
    const [gi, go, gf, gc] = ops.node('Split', [gates, i64(1n)], 'opset1', { num_splits: '4' }, 4) as [Value, Value, Value, Value];
    const i = act(f, add(gi, mul(pi, cp)));
    const fg = act(f, add(gf, mul(pf, cp)));
    const cand = act(gAct, gc);
    const cNew = add(mul(fg, cp), mul(i, cand));
    const oG = act(f, add(go, mul(po, cNew)));
    const hNew = mul(oG, op(hAct, [cNew]));
    // steps past a sequence's length keep the states and write zeros
    const live = op('Unsqueeze', [op('Less', [t, lens], 'opset1', nb), i64(1n)]); // [batch, 1]
    const hOut = op('Select', [live, hNew, hp], 'opset1', nb);
    const cOut = op('Select', [live, cNew, cp], 'opset1', nb);
    const yOut = op('Unsqueeze', [op('Select', [live, hNew, ops.scalar(elem, 0)], 'opset1', nb), i64(0n)]);
    return { carried: [hOut, cOut], scans: [yOut] };
  }) as [Value, Value, Value];
  return { y, h: hLast, c: cLast };
}
