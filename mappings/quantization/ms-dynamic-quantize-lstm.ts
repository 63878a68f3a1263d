import type { Dim } from '../../src/graph/shape.js';
import { tensorType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { bodyOps, type BodyOps } from '../body-ops.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { irLoop, type IrLoopOutput } from '../ir-loop.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { dynamicQuantizeU8, MS, opt } from './ms-requantize.js';
import { emitReadOutputs } from '../rnn/read-outputs.js';

/**
 * com.microsoft DynamicQuantizeLSTM(X, W, R, B?, sequence_lens?, initial_h?, initial_c?, P?,
 * W_scale, W_zero_point, R_scale, R_zero_point), which quantize_dynamic writes for an LSTM, as
 * onnxruntime computes it (its LSTM with quantized GEMMs, rnn_helpers' ComputeGemm): W
 * [dirs, input, 4H] and R [dirs, H, 4H] are int8 / uint8 (gates i, o, f, c as ONNX stacks them),
 * with a scale per direction or per column and one zero point per direction; each GEMM quantizes
 * its float operand to uint8 over the whole operand first, as DynamicQuantizeMatMul does: X once
 * for all steps, H_{t-1} at every step. Then, per step and direction (⊙ elementwise, f g h the
 * activations):
 *   G = f(Σ (Xq - zx)(W - zw)) · (sx · sW) + f(Σ (Hq - zh)(R - zr)) · (sh · sR) + Wb + Rb
 *   i, o, f, c = split(G) (+ peepholes P ⊙ C as ONNX LSTM); C_t = f ⊙ C_{t-1} + i ⊙ c; H_t = o ⊙ h(C_t)
 * one Loop-5 over the steps per direction (the reverse direction over X reversed).
 * input_forget couples the gates as onnxruntime's LSTM does: f = 1 − i (i after its activation).
 * sequence_lens as onnxruntime's LSTM applies it (uni_directional_lstm.cc): X is quantized over its
 * first max(sequence_lens) steps (the rows its GEMM reads); a step t ≥ len[b] leaves row b's C as
 * it is and writes zeros to Y — and to the H the next step quantizes and multiplies when Y is an
 * output of the node, else row b's H is left as it is (the buffer is then the final state); Y_h /
 * Y_c are the row's states at its last step (zeros for a length 0); the reverse direction runs
 * over each sequence reversed within its length.
 * Refused: activations other than Sigmoid / Tanh / Relu, activation parameters. onnxruntime splits
 * the batch over its threads when batch > 4 or (batch ≥ 2 and hidden_size ≤ 256), quantizing H per
 * part: then its numbers depend on its thread count and ovir's (one part) may differ; a warning
 * says so.
 */
const ACTS = new Map([['Sigmoid', 'Sigmoid'], ['Tanh', 'Tanh'], ['Relu', 'Relu']]);

function lstm(c: ConvertContext): void {
  const direction = c.attr.string('direction', 'forward');
  if (!['forward', 'reverse', 'bidirectional'].includes(direction)) { c.unsupportedAttr('direction', direction); return; }
  const dirs = direction === 'bidirectional' ? 2 : 1;
  const acts = c.attr.strings('activations') ?? Array.from({ length: dirs }, () => ['Sigmoid', 'Tanh', 'Tanh']).flat();
  if (acts.length !== 3 * dirs || acts.some((a) => !ACTS.has(a))) { c.unsupportedAttr('activations', acts.join(','), `${3 * dirs} of ${[...ACTS.keys()].join(', ')}`); return; }
  for (const a of ['activation_alpha', 'activation_beta']) {
    const v = c.attr.floats(a);
    if (v && v.length) { c.unsupportedAttr(a, v.join(','), 'Sigmoid, Tanh and Relu take no parameters'); return; }
  }
  const inputForget = c.attr.int('input_forget', 0n) !== 0n;
  const clip = c.attr.float('clip');
  if (clip !== undefined && !(clip > 0)) { c.unsupportedAttr('clip', String(clip), 'a positive threshold'); return; }
  if (c.elem(0) !== 'f32') { c.error(`X is ${c.elem(0) ?? 'of unknown type'}: float`); return; }
  for (const [i, what] of [[1, 'W'], [2, 'R']] as const) {
    const e = c.elem(i);
    if (e !== 'u8' && e !== 'i8') { c.error(`${what} is ${e ?? 'of unknown type'}: uint8 or int8`); return; }
  }
  const rt = c.type(2);
  const rDims = rt?.kind === 'tensor' ? rt.shape : null;
  const hAttr = c.attr.int('hidden_size');
  const h = hAttr !== undefined ? Number(hAttr) : (rDims && typeof rDims[1] === 'number' ? rDims[1] : null);
  if (h === null || !(h > 0)) { c.error('hidden_size is needed (attribute, or R of static dims)'); return; }
  const xt = c.type(0);
  const xDims = xt?.kind === 'tensor' && xt.shape?.length === 3 ? xt.shape : null;
  const batch: Dim = xDims ? xDims[1]! : null;
  if (batch !== 1 && (batch === null || (typeof batch === 'number' && (batch > 4 || (batch >= 2 && h <= 256))))) {
    c.warn(`batch ${batch ?? 'unknown'}, hidden_size ${h}: onnxruntime may split the batch over its threads and quantize H per part (its numbers then depend on its thread count); ovir quantizes H over the whole batch`);
  }

  const b = irBuilder(c);
  const nb = { auto_broadcast: 'numpy' };
  const mainOp = (name: string, ins: Value[], attrs: Record<string, string> = {}, version = 'opset1'): Value => c.emit(name, ins, attrs, 1, version)[0]!;
  const f32 = (v: number): Value => b.scalar('f32', v);
  const x = c.input(0)!;
  const shape = b.shapeOf(x);
  const steps = b.gather(shape, i64Scalar(c, 0n), 0n);
  const batchV = b.gather(shape, i64Const(c, [1n]), 0n);
  const stateShape = b.concat([i64Const(c, [BigInt(dirs)]), batchV, i64Const(c, [BigInt(h)])], 0);
  const initial = (i: number): Value => opt(c, i) ?? c.emit('Broadcast', [f32(0), stateShape], { mode: 'numpy' }, 1, 'opset3')[0]!;
  const h0 = initial(5);
  const c0 = initial(6);
  const lens = opt(c, 4) ? b.convert(c.input(4)!, 'i64') : null;
  // Y an output of the node: onnxruntime then writes zeros to an ended row's H (else leaves it)
  const hasY = (c.node.outputs[0]?.names[0] ?? '') !== '';
  // X quantized once over all steps (and both directions: the same values); with sequence_lens
  // over the first max(len) steps, the rows onnxruntime's GEMM reads
  const xRange = lens
    ? c.emit('Slice', [x, i64Const(c, [0n]), b.reshape(c.emit('ReduceMax', [lens, i64Const(c, [0n])], { keep_dims: 'false' }, 1, 'opset1')[0]!, [1n]), i64Const(c, [1n]), i64Const(c, [0n])], {}, 1, 'opset8')[0]!
    : x;
  const xq = dynamicQuantizeU8(mainOp, f32, i64Const(c, [0n, 1n, 2n]), x, xRange);
  const at = (v: Value, d: number): Value => b.squeeze(b.slice(v, BigInt(d), BigInt(d + 1), 0n), [0n]);
  const i32 = (v: Value): Value => mainOp('Convert', [v], { destination_type: 'i32' });
  /** Scale (per direction [dirs] or per column [dirs, 4H]) of direction d, as [4H] or a scalar. */
  const scaleOf = (i: number, d: number): Value => (c.rank(i) === 2 ? at(c.input(i)!, d) : b.gather(c.input(i)!, i64Scalar(c, BigInt(d)), 0n));
  /** The zero point of direction d: its first element (onnxruntime reads one per direction). */
  const zpOf = (i: number, d: number): Value => {
    const flat = b.reshape(c.input(i)!, [BigInt(dirs), -1n]);
    return b.gather(b.gather(flat, i64Scalar(c, BigInt(d)), 0n), i64Scalar(c, 0n), 0n);
  };
  const bias = opt(c, 3);
  const p = opt(c, 7);
  const ys: Value[] = [];
  const hs: Value[] = [];
  const cs: Value[] = [];
  for (let d = 0; d < dirs; d++) {
    const reverse = direction === 'reverse' || d === 1;
    const flip = (v: Value): Value => (lens
      ? c.emit('ReverseSequence', [v, lens], { batch_axis: '1', seq_axis: '0' }, 1, 'opset1')[0]!
      : b.sliceStep(v, -1n, -(2n ** 63n), -1n, 0n));
    const xs = reverse ? flip(xq.shifted) : xq.shifted;
    const w = mainOp('Subtract', [i32(at(c.input(1)!, d)), i32(zpOf(9, d))], nb); // [I, 4H]
    const r = mainOp('Subtract', [i32(at(c.input(2)!, d)), i32(zpOf(11, d))], nb); // [H, 4H]
    const xw = mainOp('Multiply', [mainOp('Convert', [b.matmul(xs, w)], { destination_type: 'f32' }), mainOp('Multiply', [xq.scale, scaleOf(8, d)], nb)], nb);
    const wrb = bias ? (() => { const [wb, rb] = b.split(at(bias, d), 0n, 2); return b.add(wb!, rb!); })() : f32(0);
    const peep = p ? b.split(at(p, d), 0n, 3) : null;
    const dirActs = acts.slice(3 * d, 3 * d + 3).map((a) => ACTS.get(a)!) as [string, string, string];
    const { y, hLast, cLast } = recurrence(c, h, { steps: xDims ? xDims[0]! : null, batch }, dirActs, clip ?? null, inputForget, {
      xw, r, rScale: scaleOf(10, d), rScaleDims: c.rank(10) === 2 ? [4 * h] : [], wrb, wrbDims: bias ? [4 * h] : [], peep, h0: at(h0, d), c0: at(c0, d), steps,
      lens: lens ? { value: lens, zeroEnded: hasY } : null,
    });
    // a sequence of length 0: onnxruntime's final states are zeros
    const unlessEmpty = (v: Value): Value => (lens ? b.select(b.unsqueeze(b.compare('Equal', lens, i64Scalar(c, 0n)), [1n]), f32(0), v) : v);
    ys.push(b.unsqueeze(reverse ? flip(y) : y, [1n]));
    hs.push(b.unsqueeze(unlessEmpty(hLast), [0n]));
    cs.push(b.unsqueeze(unlessEmpty(cLast), [0n]));
  }
  const outs = [dirs === 1 ? ys[0]! : b.concat(ys, 1), dirs === 1 ? hs[0]! : b.concat(hs, 0), dirs === 1 ? cs[0]! : b.concat(cs, 0)];
  emitReadOutputs(c, (i) => outs[i]!);
}

interface Operands {
  /** Σ (Xq - zx)(W - zw) · (sx · sW) for all steps: [S, batch, 4H]. */
  xw: Value;
  /** R - zr of the direction (i32): [H, 4H]. */
  r: Value;
  /** R's scale: a scalar or [4H]. */
  rScale: Value;
  rScaleDims: number[];
  /** Wb + Rb: [4H] (or a scalar 0). */
  wrb: Value;
  wrbDims: number[];
  peep: Value[] | null;
  h0: Value; c0: Value;
  steps: Value;
  /** sequence_lens (i64 [batch]); zeroEnded: an ended row's H becomes zeros (else it is left). */
  lens: { value: Value; zeroEnded: boolean } | null;
}

function recurrence(c: ConvertContext, h: number, known: { steps: Dim; batch: Dim }, acts: [string, string, string], clip: number | null, inputForget: boolean, o: Operands): { y: Value; hLast: Value; cLast: Value } {
  const { steps: s, batch: n } = known;
  const invariant = [
    { value: o.xw, name: 'XW', type: tensorType('f32', [s, n, 4 * h]) },
    { value: o.r, name: 'R', type: tensorType('i32', [h, 4 * h]) },
    { value: o.rScale, name: 'R_scale', type: tensorType('f32', o.rScaleDims) },
    { value: o.wrb, name: 'WRb', type: tensorType('f32', o.wrbDims) },
    ...(o.peep ?? []).map((v, k) => ({ value: v, name: `P${'iof'[k]}`, type: tensorType('f32', [h]) })),
    ...(o.lens ? [{ value: o.lens.value, name: 'lens', type: tensorType('i64', [n]) }] : []),
  ];
  const state = (value: Value, name: string) => ({ value, name, type: tensorType('f32', [n, h]) });
  // with sequence_lens a third state: each row's H at its last step (Y_h)
  const outs: IrLoopOutput[] = [{ scan: 0, axis: 0 }, { last: o.lens ? 2 : 0 }, { last: 1 }];
  const [y, hLast, cLast] = irLoop(c, {
    trips: o.steps, iteration: 't',
    carried: [state(o.h0, 'H_prev'), state(o.c0, 'C_prev'), ...(o.lens ? [state(o.h0, 'H_last')] : [])],
    invariant,
    outputs: outs,
  }, ({ graph: g, iteration: t, carried: [hp, cp, hl], invariant: [xw, r, rScale, wrb, ...rest] }) => {
    const lens = o.lens ? rest[rest.length - 1]! : null;
    const peep = o.lens ? rest.slice(0, -1) : rest;
    const ops: BodyOps = bodyOps(g, `${c.node.name || 'DynamicQuantizeLSTM'}/step`);
    const nb = { auto_broadcast: 'numpy' };
    const op = (name: string, ins: Value[], attrs: Record<string, string> = {}, version = 'opset1'): Value => ops.op(name, ins, version, attrs);
    const add = (a: Value, v: Value): Value => op('Add', [a, v], nb);
    const mul = (a: Value, v: Value): Value => op('Multiply', [a, v], nb);
    const act = (name: string, v: Value): Value => op(name, [clip === null ? v : op('Clamp', [v], { min: String(-clip), max: String(clip) })]);
    const hq = dynamicQuantizeU8(op, (v) => ops.scalar('f32', v), ops.i64s([0n, 1n]), hp!);
    const hr = mul(op('Convert', [op('MatMul', [hq.shifted, r!], { transpose_a: 'false', transpose_b: 'false' })], { destination_type: 'f32' }), mul(hq.scale, rScale!));
    const gates = add(add(op('Gather', [xw!, t, ops.i64(0n)], { batch_dims: '0' }, 'opset8'), hr), wrb!); // [batch, 4H]
    const [gi, go, gf, gc] = ops.node('Split', [gates, ops.i64(1n)], 'opset1', { num_splits: '4' }, 4) as [Value, Value, Value, Value];
    const [pi, po, pf] = peep.length ? (peep as [Value, Value, Value]) : [null, null, null];
    const [f, gAct, hAct] = acts;
    const i = act(f, pi ? add(gi, mul(pi, cp!)) : gi);
    // input_forget: the forget gate is 1 − i
    const fg = inputForget ? op('Subtract', [ops.scalar('f32', 1), i], nb) : act(f, pf ? add(gf, mul(pf, cp!)) : gf);
    const cNew = add(mul(fg, cp!), mul(i, act(gAct, gc)));
    const oG = act(f, po ? add(go, mul(po, cNew)) : go);
    const hNew = mul(oG, op(hAct, [cNew]));
    if (!lens) return { carried: [hNew, cNew], scans: [op('Unsqueeze', [hNew, ops.i64(0n)])] };
    // steps past a row's length: C left, Y zeros, H zeros (Y an output) or left
    const live = op('Unsqueeze', [op('Less', [t, lens], nb), ops.i64(1n)]); // [batch, 1]
    const zero = ops.scalar('f32', 0);
    const yOut = op('Select', [live, hNew, zero], nb);
    return {
      carried: [o.lens!.zeroEnded ? yOut : op('Select', [live, hNew, hp!], nb), op('Select', [live, cNew, cp!], nb), op('Select', [live, hNew, hl!], nb)],
      scans: [op('Unsqueeze', [yOut, ops.i64(0n)])],
    };
  }) as [Value, Value, Value];
  return { y, hLast, cLast };
}

export const MS_DYNAMIC_QUANTIZE_LSTM: readonly OpMapping[] = [
  {
    onnx: { op: 'DynamicQuantizeLSTM', domain: MS, since: 1 },
    ir: null,
    decomposes: ['ReduceMin', 'ReduceMax', 'Minimum', 'Maximum', 'Divide', 'Equal', 'Select', 'Round', 'Clamp', 'Add', 'Subtract', 'Convert',
      'MatMul', 'Multiply', 'ShapeOf', 'Gather', 'Concat', 'Broadcast', 'Slice', 'Squeeze', 'Unsqueeze', 'Reshape', 'Split', 'Loop',
      'Sigmoid', 'Tanh', 'Relu', 'ReverseSequence', 'Less'],
    handles: { onnx: ['activation_alpha', 'activation_beta', 'activations', 'clip', 'direction', 'hidden_size', 'input_forget'] },
    note: 'IR: X and, every step, H quantized to uint8 as onnxruntime does, int32 MatMuls with W and R, LSTM gates (input_forget: f = 1 − i); sequence_lens as onnxruntime applies it; one Loop-5 per direction',
    toIr: lstm,
  },
];
