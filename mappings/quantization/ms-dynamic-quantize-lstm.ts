import type { Dim } from '../../src/graph/shape.js';
import { tensorType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { bodyOps, type BodyOps } from '../body-ops.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { irLoop } from '../ir-loop.js';
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
 * Refused: sequence_lens, input_forget, activations other than Sigmoid / Tanh / Relu, activation
 * parameters. onnxruntime splits the batch over its threads when batch > 4 or (batch ≥ 2 and
 * hidden_size ≤ 256), quantizing H per part: then its numbers depend on its thread count and
 * ovir's (one part) may differ; a warning says so.
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
  if (c.attr.int('input_forget', 0n) !== 0n) { c.unsupportedAttr('input_forget', '1', 'coupled input and forget gates are not converted'); return; }
  const clip = c.attr.float('clip');
  if (clip !== undefined && !(clip > 0)) { c.unsupportedAttr('clip', String(clip), 'a positive threshold'); return; }
  if (opt(c, 4)) { c.error('sequence_lens is not converted (onnxruntime quantizes the held states of ended sequences too)'); return; }
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
  // X quantized once over all steps (and both directions: the same values)
  const xq = dynamicQuantizeU8(mainOp, f32, i64Const(c, [0n, 1n, 2n]), x);
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
    const flip = (v: Value): Value => b.sliceStep(v, -1n, -(2n ** 63n), -1n, 0n);
    const xs = reverse ? flip(xq.shifted) : xq.shifted;
    const w = mainOp('Subtract', [i32(at(c.input(1)!, d)), i32(zpOf(9, d))], nb); // [I, 4H]
    const r = mainOp('Subtract', [i32(at(c.input(2)!, d)), i32(zpOf(11, d))], nb); // [H, 4H]
    const xw = mainOp('Multiply', [mainOp('Convert', [b.matmul(xs, w)], { destination_type: 'f32' }), mainOp('Multiply', [xq.scale, scaleOf(8, d)], nb)], nb);
    const wrb = bias ? (() => { const [wb, rb] = b.split(at(bias, d), 0n, 2); return b.add(wb!, rb!); })() : f32(0);
    const peep = p ? b.split(at(p, d), 0n, 3) : null;
    const dirActs = acts.slice(3 * d, 3 * d + 3).map((a) => ACTS.get(a)!) as [string, string, string];
    const { y, hLast, cLast } = recurrence(c, h, { steps: xDims ? xDims[0]! : null, batch }, dirActs, clip ?? null, {
      xw, r, rScale: scaleOf(10, d), rScaleDims: c.rank(10) === 2 ? [4 * h] : [], wrb, wrbDims: bias ? [4 * h] : [], peep, h0: at(h0, d), c0: at(c0, d), steps,
    });
    ys.push(b.unsqueeze(reverse ? flip(y) : y, [1n]));
    hs.push(b.unsqueeze(hLast, [0n]));
    cs.push(b.unsqueeze(cLast, [0n]));
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
}

function recurrence(c: ConvertContext, h: number, known: { steps: Dim; batch: Dim }, acts: [string, string, string], clip: number | null, o: Operands): { y: Value; hLast: Value; cLast: Value } {
  const { steps: s, batch: n } = known;
  const invariant = [
    { value: o.xw, name: 'XW', type: tensorType('f32', [s, n, 4 * h]) },
    { value: o.r, name: 'R', type: tensorType('i32', [h, 4 * h]) },
    { value: o.rScale, name: 'R_scale', type: tensorType('f32', o.rScaleDims) },
    { value: o.wrb, name: 'WRb', type: tensorType('f32', o.wrbDims) },
    ...(o.peep ?? []).map((v, k) => ({ value: v, name: `P${'iof'[k]}`, type: tensorType('f32', [h]) })),
  ];
  const [y, hLast, cLast] = irLoop(c, {
    trips: o.steps, iteration: 't',
    carried: [{ value: o.h0, name: 'H_prev', type: tensorType('f32', [n, h]) }, { value: o.c0, name: 'C_prev', type: tensorType('f32', [n, h]) }],
    invariant,
    outputs: [{ scan: 0, axis: 0 }, { last: 0 }, { last: 1 }],
  }, ({ graph: g, iteration: t, carried: [hp, cp], invariant: [xw, r, rScale, wrb, ...peep] }) => {
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
    const fg = act(f, pf ? add(gf, mul(pf, cp!)) : gf);
    const cNew = add(mul(fg, cp!), mul(i, act(gAct, gc)));
    const oG = act(f, po ? add(go, mul(po, cNew)) : go);
    const hNew = mul(oG, op(hAct, [cNew]));
    return { carried: [hNew, cNew], scans: [op('Unsqueeze', [hNew, ops.i64(0n)])] };
  }) as [Value, Value, Value];
  return { y, hLast, cLast };
}

export const MS_DYNAMIC_QUANTIZE_LSTM: readonly OpMapping[] = [
  {
    onnx: { op: 'DynamicQuantizeLSTM', domain: MS, since: 1 },
    ir: null,
    decomposes: ['ReduceMin', 'ReduceMax', 'Minimum', 'Maximum', 'Divide', 'Equal', 'Select', 'Round', 'Clamp', 'Add', 'Subtract', 'Convert',
      'MatMul', 'Multiply', 'ShapeOf', 'Gather', 'Concat', 'Broadcast', 'Slice', 'Squeeze', 'Unsqueeze', 'Reshape', 'Split', 'Loop',
      'Sigmoid', 'Tanh', 'Relu'],
    handles: { onnx: ['activation_alpha', 'activation_beta', 'activations', 'clip', 'direction', 'hidden_size', 'input_forget'] },
    note: 'IR: X and, every step, H quantized to uint8 as onnxruntime does, int32 MatMuls with W and R, LSTM gates; one Loop-5 per direction',
    toIr: lstm,
  },
];
