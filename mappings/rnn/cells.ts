import { A, type Attr } from '../../src/graph/attr.js';
import { attrInts } from '../../src/graph/attr-read.js';
import { byteSize, type ElementTypeName } from '../../src/graph/element-type.js';
import { makeTensor, type Tensor } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, onnxAxesOp } from '../helpers.js';
import { never } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { hiddenSize } from './hidden-size.js';
import { emitReadOutputs } from './read-outputs.js';

/**
 * IR LSTMCell-4 (and LSTMCell-1), GRUCell-3 and RNNCell-0 → ONNX LSTM / GRU / RNN over a sequence
 * of length 1 (IR → ONNX only: ONNX has no cell ops; ONNX LSTM/GRU/RNN go to the *Sequence ops,
 * mappings/rnn/rnn.ts). The cell computes one step of the sequence op:
 *  - X [batch, input] → Unsqueeze(0) → [seq 1, batch, input]; each state [batch, hidden] →
 *    Unsqueeze(0) → [dirs 1, batch, hidden]; Y_h (and Y_c) [1, batch, hidden] → Squeeze(0);
 *  - W [gates·hidden, input], R [gates·hidden, hidden] gain the direction axis; LSTM's gate blocks
 *    are f, i, c, o in IR and i, o, f, c in ONNX (GRU z, r, h and RNN's one gate are the same on
 *    both sides);
 *  - B [gates·hidden] is the sum Wb + Rb in IR; ONNX B is [Wb | Rb], so B goes to Wb and Rb is
 *    zero; GRU with linear_before_reset keeps Rb_h apart (IR B [z, r, Wb_h, Rb_h], 4·hidden):
 *    ONNX [Wb_z, Wb_r, Wb_h | 0, 0, Rb_h];
 *  - activations sigmoid, tanh, relu are ONNX Sigmoid, Tanh, Relu (those take no alpha/beta in
 *    either spec, so activations_alpha/beta do not change them); clip means the same on both sides.
 * Constant weights stay constants: the gate blocks are copied into place at conversion time (a
 * direction axis alone is a new shape over the same bytes); run-time weights get Gather/Concat.
 *
 * LSTMCell-1 (opset1) also has peepholes (input P), input_forget and weights_format. OpenVINO
 * 2026.4's CPU plugin ignores all three (measured: any P, input_forget=true and every
 * weights_format compute LSTMCell-4 with f, i, c, o blocks and no peepholes), so no engine
 * computes their definition: they are converted where they change nothing (P absent or a zero
 * constant, input_forget=false, weights_format=fico) and refused otherwise. hardsigmoid
 * activations are refused too: the CPU plugin cannot compile a cell with them (measured).
 */

const ACTS: Readonly<Record<string, string>> = { sigmoid: 'Sigmoid', tanh: 'Tanh', relu: 'Relu' };

interface Cell {
  readonly onnx: 'LSTM' | 'GRU' | 'RNN';
  readonly defaults: readonly string[];
  readonly states: number;
  /** ONNX W/R gate blocks, by their IR block index. */
  readonly rows: readonly number[];
  /** ONNX B = [Wb | Rb] blocks: an IR B block index, or null for zeros. */
  readonly bias: readonly (number | null)[];
  /** The same for GRU with linear_before_reset (IR B [z, r, Wb_h, Rb_h]). */
  readonly lbrBias?: readonly (number | null)[];
}

/**
 * LSTM gate blocks: ONNX orders them i, o, f, c, IR f, i, c, o. Target block k is source block
 * IOFC_TO_FICO[k] (ONNX → IR) or FICO_TO_IOFC[k] (IR → ONNX); rnn.ts uses the same two.
 */
export const IOFC_TO_FICO: readonly number[] = [2, 0, 3, 1];
export const FICO_TO_IOFC: readonly number[] = [1, 3, 0, 2];

const LSTM: Cell = { onnx: 'LSTM', defaults: ['sigmoid', 'tanh', 'tanh'], states: 2, rows: FICO_TO_IOFC, bias: [...FICO_TO_IOFC, null, null, null, null] };
const GRU: Cell = { onnx: 'GRU', defaults: ['sigmoid', 'tanh'], states: 1, rows: [0, 1, 2], bias: [0, 1, 2, null, null, null], lbrBias: [0, 1, 2, null, null, 3] };
const RNN: Cell = { onnx: 'RNN', defaults: ['tanh'], states: 1, rows: [0], bias: [0, null] };

const axesOp = (c: ConvertContext, op: 'Unsqueeze' | 'Squeeze', v: Value): Value => onnxAxesOp(c, op, v, [0n]);

/**
 * Input `index` as `blockList` (source block index, or null for zeros) of `h` rows each, with a
 * leading axis of 1: from a constant by copying whole blocks (a reshape of the same bytes when
 * the blocks are the source in order), else with Gather/Concat at run time.
 */
function blocks(c: ConvertContext, index: number, blockList: readonly (number | null)[], h: number): Value | null {
  const src = c.input(index)!;
  const t = src.constant;
  const identity = blockList.every((b, k) => b === k);
  const sourceBlocks = blockList.filter((b) => b !== null).length;
  if (t && t.dims.length >= 1) {
    if (t.dims[0] !== sourceBlocks * h) {
      c.error(`input ${index} has ${t.dims[0]} rows where ${sourceBlocks} gate blocks of hidden_size ${h} are ${sourceBlocks * h}`);
      return null;
    }
    const blockBytes = (t.data.byteLength / t.dims[0]!) * h;
    const dims = [1, blockList.length * h, ...t.dims.slice(1)];
    if (identity) return c.constant(makeTensor(t.elem, dims, t.data));
    const data = new Uint8Array(blockBytes * blockList.length);
    blockList.forEach((b, k) => { if (b !== null) data.set(t.data.subarray(b * blockBytes, (b + 1) * blockBytes), k * blockBytes); });
    return c.constant(makeTensor(t.elem, dims, data));
  }
  const elem = c.elem(index);
  if (elem === null) { c.error(`input ${index} needs a known element type to be reordered`); return null; }
  const pieces: Value[] = [];
  for (let k = 0; k < blockList.length;) {
    let e = k + 1;
    const zero = blockList[k] === null;
    while (e < blockList.length && (blockList[e] === null) === zero) e++;
    const run = blockList.slice(k, e);
    if (zero) {
      // only biases (1-D) have zero blocks
      pieces.push(c.constant(zeroTensor(elem, [run.length * h])));
    } else if (identity) {
      pieces.push(src);
    } else {
      const rows = run.flatMap((b) => Array.from({ length: h }, (_, j) => BigInt(b! * h + j)));
      pieces.push(c.emit('Gather', [src, i64Const(c, rows)], { axis: A.int(0) })[0]!);
    }
    k = e;
  }
  const whole = pieces.length === 1 ? pieces[0]! : c.emit('Concat', pieces, { axis: A.int(0) })[0]!;
  return axesOp(c, 'Unsqueeze', whole);
}

/** A tensor of zeros (every element type's zero is all-zero bytes). */
export function zeroTensor(elem: ElementTypeName, dims: number[]): Tensor {
  return makeTensor(elem, dims, new Uint8Array(byteSize(elem, dims.reduce((p, d) => p * d, 1))));
}

/** LSTMCell-1's peepholes, input_forget and weights_format: convertible only where they change nothing. */
function lstmV1Extras(c: ConvertContext): boolean {
  if (c.attr.bool('input_forget') ?? false) {
    c.unsupportedAttr('input_forget', 'true', 'OpenVINO 2026.4 ignores it (measured), so no engine computes its definition');
    return false;
  }
  const format = c.attr.string('weights_format')?.trim().toLowerCase() ?? 'fico';
  if (format !== 'fico') {
    c.unsupportedAttr('weights_format', format, 'OpenVINO 2026.4 reads every format as fico (measured), so no engine computes its definition');
    return false;
  }
  if (c.numInputs > 6 && c.input(6)) {
    const p = c.constNumbers(6);
    if (p === null) { c.needsConstant(6, 'peephole weights P, convertible only when all zero'); return false; }
    if (p.some((v) => v !== 0)) {
      c.error('peephole weights P are not all zero: OpenVINO 2026.4 ignores them (measured), so no engine computes their definition');
      return false;
    }
  }
  return true;
}

const cellToOnnx = (cell: Cell) => (c: ConvertContext): void => {
  const h = hiddenSize(c, cell.rows.length, 1 + cell.states, 2 + cell.states, 0);
  if (h === null) return;
  if (cell === LSTM && c.node.version === 'opset1' && !lstmV1Extras(c)) return;
  const irActs = (c.attr.strings('activations') ?? cell.defaults).map((a) => a.trim().toLowerCase());
  const acts = irActs.map((a) => ACTS[a]);
  if (acts.length !== cell.defaults.length || acts.some((a) => a === undefined)) {
    c.unsupportedAttr('activations', irActs.join(','), `ONNX ${cell.onnx} is written for ${cell.defaults.length} of sigmoid, tanh, relu (OpenVINO's CPU plugin runs no other)`);
    return;
  }
  const clip = c.attr.float('clip') ?? 0;
  const lbr = cell === GRU && (c.attr.bool('linear_before_reset') ?? false);

  const w = blocks(c, 1 + cell.states, cell.rows, h);
  const r = blocks(c, 2 + cell.states, cell.rows, h);
  const hasB = c.numInputs > 3 + cell.states && c.input(3 + cell.states);
  let b: Value | null = null;
  if (hasB) b = blocks(c, 3 + cell.states, lbr ? cell.lbrBias! : cell.bias, h);
  if (!w || !r || (hasB && !b)) return;
  const states = Array.from({ length: cell.states }, (_, k) => axesOp(c, 'Unsqueeze', c.input(1 + k)!));
  const inputs = [axesOp(c, 'Unsqueeze', c.input(0)!), w, r, b, null, ...states];
  const attrs: Record<string, Attr> = { hidden_size: A.int(h) };
  if (irActs.join() !== cell.defaults.join()) attrs['activations'] = A.strings(acts as string[]);
  if (clip !== 0) attrs['clip'] = A.float(clip);
  if (lbr) attrs['linear_before_reset'] = A.int(1);
  const outs = c.emit(cell.onnx, inputs, attrs, 1 + cell.states);
  for (let k = 0; k < cell.states; k++) c.output(k, axesOp(c, 'Squeeze', outs[1 + k]!));
};

const handles = { ir: ['hidden_size', 'activations', 'activations_alpha', 'activations_beta', 'clip'] };

export const RNN_CELLS: readonly OpMapping[] = [
  {
    // IR → ONNX only (`when` never holds: ONNX LSTM becomes LSTMSequence-5)
    onnx: { op: 'LSTM', since: 7 },
    ir: { op: 'LSTMCell', version: 'opset4', reads: ['opset1'] },
    when: never,
    handles: { ir: [...handles.ir, 'input_forget', 'weights_format'] },
    note: 'one step: LSTM over a sequence of 1 (Unsqueeze/Squeeze), gate blocks fico → iofc, B → [B | 0]; LSTMCell-1 with P all zero, input_forget=false, weights_format=fico',
    toOnnx: cellToOnnx(LSTM),
  },
  {
    onnx: { op: 'GRU', since: 7 },
    ir: { op: 'GRUCell', version: 'opset3' },
    when: never,
    handles: { ir: [...handles.ir, 'linear_before_reset'] },
    note: 'one step: GRU over a sequence of 1 (Unsqueeze/Squeeze), B → [B | 0]; linear_before_reset: [z, r, Wb_h, Rb_h] → [z, r, Wb_h | 0, 0, Rb_h]',
    toOnnx: cellToOnnx(GRU),
  },
  {
    onnx: { op: 'RNN', since: 7 },
    ir: { op: 'RNNCell', version: 'opset1', reads: ['opset3'] },
    when: never,
    handles,
    note: 'one step: RNN over a sequence of 1 (Unsqueeze/Squeeze), B → [B | 0]',
    toOnnx: cellToOnnx(RNN),
  },
];

// ── ONNX → IR: a one-step LSTM/GRU/RNN is the IR cell ───────────────────────────────────────────

/** What an ONNX recurrent op needs to be one IR cell step. */
export interface OneStep {
  readonly irOp: 'LSTMCell' | 'GRUCell' | 'RNNCell';
  readonly version: string;
  readonly gates: number;
  readonly states: number;
  /** IR W/R/B gate blocks, by ONNX block index. */
  readonly rows: readonly number[];
}
export const LSTM_STEP: OneStep = { irOp: 'LSTMCell', version: 'opset4', gates: 4, states: 2, rows: IOFC_TO_FICO };
export const GRU_STEP: OneStep = { irOp: 'GRUCell', version: 'opset3', gates: 3, states: 1, rows: [0, 1, 2] };
export const RNN_STEP: OneStep = { irOp: 'RNNCell', version: 'opset1', gates: 1, states: 1, rows: [0] };

/**
 * Whether an ONNX LSTM/GRU/RNN node is one step of one direction: X [1, batch, input] (static 1,
 * layout 0), no sequence_lens, the initial states given, no peepholes. Such a node is what IR → ONNX
 * writes for a cell (and what a recurrent step inside a Scan/Loop body is); IR writes it back as the
 * cell, which OpenVINO runs natively inside a TensorIterator too (a sequence op with clip or other
 * activations it runs as a TensorIterator of its own, which it refuses to nest: measured).
 */
export function isOneStep(c: ConvertContext, step: OneStep): boolean {
  const x = c.type(0);
  if (!x || x.kind !== 'tensor' || x.shape === null || x.shape.length !== 3 || x.shape[0] !== 1) return false;
  if ((c.attr.int('layout') ?? 0n) !== 0n || (c.attr.string('direction') ?? 'forward') === 'bidirectional') return false;
  if (c.numInputs > 4 && c.input(4)) return false;
  for (let k = 0; k < step.states; k++) if (!(c.numInputs > 5 + k && c.input(5 + k))) return false;
  if (step.irOp === 'LSTMCell' && c.numInputs > 7 && c.input(7)) return false;
  return (c.elem(1) === 'f32' || c.elem(1) === null) && (c.elem(0) === 'f32');
}

/** ONNX [1, rows, …] weights → IR [rows, …] with gate blocks `rows` (each of `h` rows): block copies for a constant. */
function irWeights(c: ConvertContext, index: number, rows: readonly number[], h: number): Value {
  const src = c.input(index)!;
  const t = src.constant;
  if (t && t.dims.length >= 2 && t.dims[0] === 1 && t.dims[1] === rows.length * h) {
    const dims = t.dims.slice(1);
    if (rows.every((b, k) => b === k)) return c.constant(makeTensor(t.elem, dims, t.data));
    const blockBytes = t.data.byteLength / rows.length;
    const data = new Uint8Array(t.data.byteLength);
    rows.forEach((b, k) => data.set(t.data.subarray(b * blockBytes, (b + 1) * blockBytes), k * blockBytes));
    return c.constant(makeTensor(t.elem, dims, data));
  }
  const squeezed = c.emit('Squeeze', [src, i64Const(c, [0n])], {}, 1, 'opset1')[0]!;
  if (rows.every((b, k) => b === k)) return squeezed;
  const idx = rows.flatMap((b) => Array.from({ length: h }, (_, j) => BigInt(b * h + j)));
  return c.emit('Gather', [squeezed, i64Const(c, idx), c.constant(makeTensor('i64', [], new Uint8Array(8)))], { batch_dims: '0' }, 1, 'opset8')[0]!;
}

/**
 * ONNX B [1, 2·gates·h] = [Wb | Rb] → IR B: (Wb + Rb) by IR gate blocks; GRU with
 * linear_before_reset [Wb_z + Rb_z, Wb_r + Rb_r, Wb_h, Rb_h]. Absent: zeros. A constant f32 B is
 * summed at conversion time (f32 additions, as OpenVINO would at run time).
 */
function irBias(c: ConvertContext, step: OneStep, h: number, lbr: boolean): Value {
  const g = step.gates;
  const n = (lbr ? g + 1 : g) * h;
  if (!(c.numInputs > 3 && c.input(3))) return c.constant(zeroTensor('f32', [n]));
  const src = c.input(3)!;
  // IR block k = Wb block a + Rb block b (null: none)
  const plan: [number | null, number | null][] = lbr ? [[0, 0], [1, 1], [2, null], [null, 2]] : step.rows.map((b) => [b, b]);
  const t = src.constant;
  if (t && t.elem === 'f32' && t.dims.length === 2 && t.dims[1] === 2 * g * h) {
    const dv = new DataView(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    const v = Array.from({ length: 2 * g * h }, (_, i) => dv.getFloat32(i * 4, true));
    const out = new Float32Array(n);
    plan.forEach(([a, b], k) => {
      for (let j = 0; j < h; j++) {
        const wb = a === null ? 0 : v[a * h + j]!;
        const rb = b === null ? 0 : v[(g + b) * h + j]!;
        out[k * h + j] = a === null ? rb : b === null ? wb : Math.fround(wb + rb);
      }
    });
    return c.constant(makeTensor('f32', [n], new Uint8Array(out.buffer)));
  }
  const flat = c.emit('Squeeze', [src, i64Const(c, [0n])], {}, 1, 'opset1')[0]!;
  const parts = c.emit('Split', [flat, c.constant(makeTensor('i64', [], new Uint8Array(8)))], { num_splits: String(2 * g) }, 2 * g, 'opset1');
  const pieces = plan.map(([a, b]) => (a === null ? parts[g + b!]! : b === null ? parts[a]! : c.emit('Add', [parts[a], parts[g + b]!], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!));
  return c.emit('Concat', pieces, { axis: '0' }, 1, 'opset1')[0]!;
}

/** Writes a one-step ONNX LSTM/GRU/RNN (isOneStep) as the IR cell; `acts`, `alpha`, `beta`, `clip` already read as IR spells them. */
export function oneStepToIr(c: ConvertContext, step: OneStep, h: number, attrs: Record<string, string>, lbr: boolean): void {
  // X and the states without their leading 1: the value an ONNX Unsqueeze(·, 0) read, else a Squeeze
  const sq = (i: number): Value => {
    const p = c.node.inputs[i]?.producer;
    const axes = p?.op === 'Unsqueeze' && p.dialect === 'onnx' ? (p.inputs[1] ? c.intsOf(p.inputs[1]) : attrInts(p, 'axes') ?? null) : null;
    const before = axes?.length === 1 && axes[0] === 0n ? c.converted(p!.inputs[0] ?? null) : null;
    return before ?? c.emit('Squeeze', [c.input(i)!, i64Const(c, [0n])], {}, 1, 'opset1')[0]!;
  };
  const states = Array.from({ length: step.states }, (_, k) => sq(5 + k));
  const w = irWeights(c, 1, step.rows, h);
  const r = irWeights(c, 2, step.rows, h);
  const b = irBias(c, step, h, lbr);
  const cellAttrs: Record<string, string> = { hidden_size: String(h), ...attrs };
  if (step.irOp === 'GRUCell') cellAttrs['linear_before_reset'] = lbr ? 'true' : 'false';
  const outs = c.emit(step.irOp, [sq(0), ...states, w, r, b], cellAttrs, step.states, step.version);
  const un = (v: Value): Value => c.emit('Unsqueeze', [v, i64Const(c, [0n])], {}, 1, 'opset1')[0]!;
  const yh = outs.map(un);
  emitReadOutputs(c, (i) => (i === 0 ? un(yh[0]!) : yh[i - 1]!));
}
