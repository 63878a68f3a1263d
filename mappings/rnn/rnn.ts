import { A, type Attr } from '../../src/graph/attr.js';
import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { scalarLike } from '../generator/constant-of-shape.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { lstmPeepholeToIr } from './lstm-peephole.js';
import { hiddenSize } from './hidden-size.js';
import { FICO_TO_IOFC, GRU_STEP, IOFC_TO_FICO, isOneStep, LSTM_STEP, oneStepToIr, RNN_STEP, zeroTensor } from './cells.js';
import { emitReadOutputs } from './read-outputs.js';

/**
 * ONNX LSTM-7/14 ↔ IR LSTMSequence-5 and GRU-7/14 ↔ GRUSequence-5. What differs (LSTM; GRU alike
 * with gates z, r, h in the same order on both sides and one state):
 *  - gate order: ONNX stacks W/R/B rows as i,o,f,c; IR as f,i,c,o (a Gather of rows reorders);
 *  - bias: ONNX B is [Wb | Rb] ([dirs, 8H]); IR B is their sum ([dirs, 4H]);
 *  - layout: IR is batch-major (X [batch, seq, in], H/C [batch, dirs, H], Y [batch, dirs, seq, H]);
 *    ONNX layout=0 is seq-major (X [seq, batch, in], initial_h [dirs, batch, H],
 *    Y [seq, dirs, batch, H]); layout=1 (14+) has X [batch, seq, in], Y [batch, seq, dirs, H];
 *  - ONNX initial_h/initial_c default to zeros and sequence_lens to the full length: IR takes all;
 *  - activation names: ONNX Sigmoid/Tanh/Relu per direction, IR sigmoid/tanh/relu once.
 * Peepholes (ONNX input P) have no IR counterpart: the recurrence is written out (lstm-peephole.ts);
 * input_forget=1 is refused.
 */
const ACTS: ReadonlyArray<readonly [string, string]> = [['Sigmoid', 'sigmoid'], ['Tanh', 'tanh'], ['Relu', 'relu']];
const DIRECTIONS = ['forward', 'reverse', 'bidirectional'];

/** Row indices that reorder the 4 stacked gate blocks of height h: result block k = source block order[k]. */
function gateRows(order: readonly number[], h: number): bigint[] {
  const out: bigint[] = [];
  for (const g of order) for (let j = 0; j < h; j++) out.push(BigInt(g * h + j));
  return out;
}

/** A zero tensor constant of element type `elem`. */
function zeros(c: ConvertContext, elem: string, dims: number[]): Value | null {
  try {
    return c.constant(zeroTensor(elem as ElementTypeName, dims));
  } catch {
    c.error(`no zero constant of type ${elem}`);
    return null;
  }
}

/** What differs per cell kind: ONNX ↔ IR gate order, activation count, states, bias layout. */
interface Cell {
  readonly onnx: string;
  readonly ir: string;
  readonly gates: number;
  readonly acts: readonly string[];
  /** ONNX input index of each IR state (LSTM: initial_h, initial_c). */
  readonly states: readonly number[];
  /** Row order of IR gate blocks in terms of ONNX blocks (and back). */
  readonly toIrRows: readonly number[];
  readonly toOnnxRows: readonly number[];
}
const LSTM: Cell = { onnx: 'LSTM', ir: 'LSTMSequence', gates: 4, acts: ['Sigmoid', 'Tanh', 'Tanh'], states: [5, 6], toIrRows: IOFC_TO_FICO, toOnnxRows: FICO_TO_IOFC };
const GRU: Cell = { onnx: 'GRU', ir: 'GRUSequence', gates: 3, acts: ['Sigmoid', 'Tanh'], states: [5], toIrRows: [0, 1, 2], toOnnxRows: [0, 1, 2] };
const RNN_CELL: Cell = { onnx: 'RNN', ir: 'RNNSequence', gates: 1, acts: ['Tanh'], states: [5], toIrRows: [0], toOnnxRows: [0] };

const seqToIr = (cell: Cell) => (c: ConvertContext): void => {
  const h = hiddenSize(c, cell.gates, 1, 2, 1);
  if (h === null) return;
  const g = cell.gates;
  const direction = c.attr.string('direction') ?? 'forward';
  if (!DIRECTIONS.includes(direction)) { c.unsupportedAttr('direction', direction); return; }
  const dirs = direction === 'bidirectional' ? 2 : 1;
  const layout = c.attr.int('layout') ?? 0n;
  if (layout !== 0n && layout !== 1n) { c.unsupportedAttr('layout', String(layout)); return; }
  if ((c.attr.int('input_forget') ?? 0n) !== 0n) { c.unsupportedAttr('input_forget', '1', 'IR LSTMSequence does not couple input and forget gates'); return; }
  // peepholes: LSTMSequence has none; the recurrence written out (lstm-peephole.ts)
  if (cell === LSTM && c.numInputs > 7 && c.input(7)) { lstmPeepholeToIr(c, h, direction, layout); return; }
  const n = cell.acts.length;
  const acts = c.attr.strings('activations') ?? [...cell.acts, ...(dirs === 2 ? cell.acts : [])];
  if (acts.length !== n * dirs || (dirs === 2 && acts.slice(0, n).join() !== acts.slice(n).join())) {
    c.unsupportedAttr('activations', acts.join(','), `IR ${cell.ir} takes one set of ${n} activations for all directions`);
    return;
  }
  const irActs = acts.slice(0, n).map((a) => ACTS.find(([o]) => o === a)?.[1]);
  if (irActs.some((a) => a === undefined)) { c.unsupportedAttr('activations', acts.join(','), `IR ${cell.ir} has sigmoid, tanh, relu`); return; }
  const alpha = c.attr.floats('activation_alpha');
  const beta = c.attr.floats('activation_beta');
  const clip = c.attr.float('clip');
  const lbr = c.attr.int('linear_before_reset') ?? 0n;
  const step = cell === LSTM ? LSTM_STEP : cell === GRU ? GRU_STEP : RNN_STEP;
  if (isOneStep(c, step)) {
    const stepAttrs = { activations: irActs.join(','), activations_alpha: (alpha ?? []).join(','), activations_beta: (beta ?? []).join(','), clip: String(clip ?? 0) };
    oneStepToIr(c, step, h, stepAttrs, lbr !== 0n);
    return;
  }
  const elem = c.elem(0) ?? c.elem(1);
  if (elem === null) { c.error(`${cell.onnx} needs the element type of X or W to be known`); return; }

  const tr = (v: Value, perm: bigint[]): Value => c.emit('Transpose', [v, i64Const(c, perm)], {}, 1, 'opset1')[0]!;
  const seqMajor = layout === 0n;
  const x = seqMajor ? tr(c.input(0)!, [1n, 0n, 2n]) : c.input(0)!;
  const shape = c.emit('ShapeOf', [x], { output_type: 'i64' }, 1, 'opset3')[0]!;
  const dim = (i: bigint): Value => c.emit('Gather', [shape, i64Const(c, [i]), i64Scalar(c, 0n)], { batch_dims: '0' }, 1, 'opset8')[0]!;
  const batch = dim(0n);
  const state = (i: number): Value | null => {
    if (c.numInputs > i && c.input(i)) return seqMajor ? tr(c.input(i)!, [1n, 0n, 2n]) : c.input(i)!;
    const zero = scalarLike(c, c.elem(0) === null ? 1 : 0, 0, 'a zero initial state');
    if (!zero) return null;
    const target = c.emit('Concat', [batch, i64Const(c, [BigInt(dirs), BigInt(h)])], { axis: '0' }, 1, 'opset1')[0]!;
    return c.emit('Broadcast', [zero, target], { mode: 'numpy' }, 1, 'opset3')[0]!;
  };
  const states: Value[] = [];
  for (const i of cell.states) { const v = state(i); if (!v) return; states.push(v); }
  const lens = c.numInputs > 4 && c.input(4)
    ? c.input(4)!
    : c.emit('Broadcast', [dim(1n), batch], { mode: 'numpy' }, 1, 'opset3')[0]!;
  const rows = i64Const(c, gateRows(cell.toIrRows, h));
  const reorder = (v: Value): Value => c.emit('Gather', [v, rows, i64Scalar(c, 1n)], { batch_dims: '0' }, 1, 'opset8')[0]!;
  const w = reorder(c.input(1)!);
  const r = reorder(c.input(2)!);
  let b: Value | null;
  if (c.numInputs > 3 && c.input(3)) {
    const halves = c.emit('Split', [c.input(3), i64Scalar(c, 1n)], { num_splits: '2' }, 2, 'opset1');
    if (cell === GRU && lbr !== 0n) {
      // IR GRU with linear_before_reset: [Wb_z + Rb_z, Wb_r + Rb_r, Wb_h, Rb_h].
      const wb = c.emit('Split', [halves[0], i64Scalar(c, 1n)], { num_splits: '3' }, 3, 'opset1');
      const rb = c.emit('Split', [halves[1], i64Scalar(c, 1n)], { num_splits: '3' }, 3, 'opset1');
      const add = (i: number): Value => c.emit('Add', [wb[i]!, rb[i]!], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
      b = c.emit('Concat', [add(0), add(1), wb[2]!, rb[2]!], { axis: '1' }, 1, 'opset1')[0]!;
    } else {
      b = reorder(c.emit('Add', [halves[0]!, halves[1]!], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!);
    }
  } else {
    b = zeros(c, elem, [dirs, (g + (cell === GRU && lbr !== 0n ? 1 : 0)) * h]);
  }
  if (!b) return;
  const attrs: Record<string, string> = { hidden_size: String(h), direction, activations: irActs.join(','), activations_alpha: (alpha ?? []).join(','), activations_beta: (beta ?? []).join(','), clip: String(clip ?? 0) };
  if (cell === GRU) attrs['linear_before_reset'] = lbr !== 0n ? 'true' : 'false';
  const outs = c.emit(cell.ir, [x, ...states, lens, w, r, b], attrs, 1 + states.length, 'opset5');
  const mapped = [seqMajor ? tr(outs[0]!, [2n, 1n, 0n, 3n]) : tr(outs[0]!, [0n, 2n, 1n, 3n])];
  for (const s of outs.slice(1)) mapped.push(seqMajor ? tr(s, [1n, 0n, 2n]) : s);
  emitReadOutputs(c, (i) => mapped[i]!);
};

const seqToOnnx = (cell: Cell) => (c: ConvertContext): void => {
  const ns = cell.states.length;
  const h = hiddenSize(c, cell.gates, 2 + ns, 3 + ns, 1);
  if (h === null) return;
  const g = cell.gates;
  const direction = c.attr.string('direction')?.trim() ?? 'forward';
  if (!DIRECTIONS.includes(direction)) { c.unsupportedAttr('direction', direction); return; }
  const dirs = direction === 'bidirectional' ? 2 : 1;
  const defaults = cell.acts.map((a) => a.toLowerCase());
  const irActs = c.attr.strings('activations')?.map((s) => s.trim()) ?? defaults;
  const acts = irActs.map((a) => ACTS.find(([, i]) => i === a)?.[0]);
  if (acts.length !== cell.acts.length || acts.some((a) => a === undefined)) {
    c.unsupportedAttr('activations', irActs.join(','), `ONNX ${cell.onnx} takes ${cell.acts.length} of Sigmoid, Tanh, Relu here`);
    return;
  }
  const alpha = c.attr.floats('activations_alpha') ?? [];
  const beta = c.attr.floats('activations_beta') ?? [];
  const clip = c.attr.float('clip') ?? 0;
  const lbr = cell === GRU && (c.attr.bool('linear_before_reset') ?? false);
  const elem = c.elem(0);
  if (elem === null) { c.error(`${cell.ir} needs the element type of X to be known`); return; }

  const tr = (v: Value, perm: number[]): Value => c.emit('Transpose', [v], { perm: A.ints(perm) })[0]!;
  const rows = i64Const(c, gateRows(cell.toOnnxRows, h));
  const reorder = (v: Value): Value => c.emit('Gather', [v, rows], { axis: A.int(1) })[0]!;
  const bIn = c.input(4 + ns)!;
  let b: Value;
  if (lbr) {
    // IR [z, r, Wb_h, Rb_h] (sums for z and r): ONNX [Wb_z, Wb_r, Wb_h | 0, 0, Rb_h].
    const pick = (lo: number, hi: number): Value => c.emit('Gather', [bIn, i64Const(c, Array.from({ length: (hi - lo) * h }, (_, j) => BigInt(lo * h + j)))], { axis: A.int(1) })[0]!;
    const zero = zeros(c, elem, [dirs, 2 * h]);
    if (!zero) return;
    b = c.emit('Concat', [pick(0, 3), zero, pick(3, 4)], { axis: A.int(1) })[0]!;
  } else {
    const zero = zeros(c, elem, [dirs, g * h]);
    if (!zero) return;
    b = c.emit('Concat', [reorder(bIn), zero], { axis: A.int(1) })[0]!;
  }
  const lensIdx = 1 + ns;
  const lens = c.elem(lensIdx) === 'i32' ? c.input(lensIdx)! : c.emit('Cast', [c.input(lensIdx)], { to: A.int(6) })[0]!;
  const states = cell.states.map((_, k) => tr(c.input(1 + k)!, [1, 0, 2]));
  const inputs = [tr(c.input(0)!, [1, 0, 2]), reorder(c.input(2 + ns)!), reorder(c.input(3 + ns)!), b, lens, ...states];
  const attrs = new Map<string, Attr>([['hidden_size', A.int(h)]]);
  if (direction !== 'forward') attrs.set('direction', A.string(direction));
  if (irActs.join() !== defaults.join()) attrs.set('activations', A.strings(Array.from({ length: dirs }, () => acts as string[]).flat()));
  if (alpha.length) attrs.set('activation_alpha', A.floats(alpha));
  if (beta.length) attrs.set('activation_beta', A.floats(beta));
  if (clip !== 0) attrs.set('clip', A.float(clip));
  if (lbr) attrs.set('linear_before_reset', A.int(1));
  const outs = c.emit(cell.onnx, inputs, attrs, 1 + ns);
  c.output(0, tr(outs[0]!, [2, 1, 0, 3]));
  outs.slice(1).forEach((v, k) => c.output(1 + k, tr(v, [1, 0, 2])));
};

export const RNN: readonly OpMapping[] = [
  {
    onnx: { op: 'LSTM', since: 7 },
    ir: { op: 'LSTMSequence', version: 'opset5' },
    handles: {
      onnx: ['hidden_size', 'direction', 'layout', 'input_forget', 'activations', 'activation_alpha', 'activation_beta', 'clip'],
      ir: ['hidden_size', 'direction', 'activations', 'activations_alpha', 'activations_beta', 'clip'],
    },
    note: 'gate order iofc ↔ fico, B = Wb + Rb, seq-major ↔ batch-major (Transposes), default states/lengths made explicit',
    toIr: seqToIr(LSTM),
    toOnnx: seqToOnnx(LSTM),
  },
  {
    // Same gate order (z, r, h) on both sides; with linear_before_reset IR keeps Wb_h and Rb_h apart.
    onnx: { op: 'GRU', since: 7 },
    ir: { op: 'GRUSequence', version: 'opset5' },
    handles: {
      onnx: ['hidden_size', 'direction', 'layout', 'activations', 'activation_alpha', 'activation_beta', 'clip', 'linear_before_reset'],
      ir: ['hidden_size', 'direction', 'activations', 'activations_alpha', 'activations_beta', 'clip', 'linear_before_reset'],
    },
    note: 'B = Wb + Rb (z, r; and h unless linear_before_reset), seq-major ↔ batch-major (Transposes)',
    toIr: seqToIr(GRU),
    toOnnx: seqToOnnx(GRU),
  },
  {
    onnx: { op: 'RNN', since: 7 },
    ir: { op: 'RNNSequence', version: 'opset5' },
    handles: {
      onnx: ['hidden_size', 'direction', 'layout', 'activations', 'activation_alpha', 'activation_beta', 'clip'],
      ir: ['hidden_size', 'direction', 'activations', 'activations_alpha', 'activations_beta', 'clip'],
    },
    note: 'B = Wb + Rb, seq-major ↔ batch-major (Transposes)',
    toIr: seqToIr(RNN_CELL),
    toOnnx: seqToOnnx(RNN_CELL),
  },
];
