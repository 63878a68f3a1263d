import { A } from '../../src/graph/attr.js';
import { attrInts } from '../../src/graph/attr-read.js';
import type { Node } from '../../src/graph/node.js';
import type { Value } from '../../src/graph/value.js';
import { INT64_MAX, asI64Vector, i64Const } from '../helpers.js';
import { never } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * IR-only slicing forms ovc writes (StridedSlice-1 for decomposed Flatten / LayerNormalization /
 * Softmax, Reverse-1 for ArgMax select_last_index), back to ONNX Slice (+ Squeeze / Unsqueeze for
 * shrink / new axes). ovir never writes them from ONNX: these entries never match an ONNX node.
 */
const INT64_MIN = -(1n << 63n);

interface SliceSpec { starts: bigint[]; ends: bigint[]; axes: bigint[]; steps: bigint[] }

/**
 * A start, end or step of a StridedSlice entry: a number known at conversion, or element `at` of a
 * run-time operand (`shrink`: the end one past that element, -1 meaning to the end).
 */
type Bound = bigint | { readonly from: Value; readonly at: number; readonly shrink?: true };
interface BoundSpec { starts: Bound[]; ends: Bound[]; axes: bigint[]; steps: Bound[] }

/**
 * ONNX Slice (opset 10+) by a spec some of whose bounds are run-time elements: each bound vector
 * is the Concat of one-element pieces (constants, or a Gather of the int64 operand at [i]).
 */
function emitRuntimeSlice(c: ConvertContext, data: Value, s: BoundSpec): Value {
  if (s.axes.length === 0) return data;
  const piece = (b: Bound): Value => {
    if (typeof b === 'bigint') return i64Const(c, [b]);
    const x = c.emit('Gather', [b.from, i64Const(c, [BigInt(b.at)])], { axis: A.int(0n) })[0]!;
    if (!b.shrink) return x;
    // one past x; past -1 is the end of the axis
    const next = c.emit('Add', [x, i64Const(c, [1n])])[0]!;
    return c.emit('Where', [c.emit('Equal', [x, i64Const(c, [-1n])])[0]!, i64Const(c, [INT64_MAX]), next])[0]!;
  };
  const vector = (bs: Bound[]): Value => (bs.every((b) => typeof b === 'bigint')
    ? i64Const(c, bs as bigint[]) : bs.length === 1 ? piece(bs[0]!) : c.emit('Concat', bs.map(piece), { axis: A.int(0n) })[0]!);
  const steps = s.steps.every((x) => x === 1n) ? [] : [vector(s.steps)];
  return c.emit('Slice', [data, vector(s.starts), vector(s.ends), i64Const(c, s.axes), ...steps])[0]!;
}

/** ONNX Slice of `data` by a constant spec, in the form of the target opset (attributes before 10). */
function emitSlice(c: ConvertContext, data: Value, s: SliceSpec): Value | null {
  if (s.axes.length === 0) return data;
  if (c.opset >= 10) {
    const steps = s.steps.every((x) => x === 1n) ? [] : [i64Const(c, s.steps)];
    return c.emit('Slice', [data, i64Const(c, s.starts), i64Const(c, s.ends), i64Const(c, s.axes), ...steps])[0]!;
  }
  if (s.steps.some((x) => x !== 1n)) { c.error(`ONNX Slice has steps from opset 10 (target opset ${c.opset})`); return null; }
  return c.emit('Slice', [data], { starts: A.ints(s.starts), ends: A.ints(s.ends), axes: A.ints(s.axes) })[0]!;
}

/** Squeeze / Unsqueeze with constant axes, as the target opset spells them (input from 13). */
function axesOp(c: ConvertContext, op: 'Squeeze' | 'Unsqueeze', data: Value, axes: bigint[]): Value {
  if (axes.length === 0) return data;
  if (c.opset >= 13) return c.emit(op, [data, i64Const(c, axes)])[0]!;
  return c.emit(op, [data], { axes: A.ints(axes) })[0]!;
}

const mask = (n: Node, name: string): bigint[] => attrInts(n, name) ?? [];
const bit = (m: bigint[], i: number): boolean => (m[i] ?? 0n) !== 0n;

/**
 * StridedSlice-1(data, begin, end, stride?): each spec entry i
 * addresses one input axis (or, ellipsis, the axes no other entry names; new axis, none). A set
 * begin_mask / end_mask bit means "from the start" / "to the end" in the stride's direction;
 * shrink_axis takes element begin[i] and drops the axis; new_axis inserts a 1. begin, end and
 * stride may be run-time values of a known length (TensorFlow's frontend writes x[i] in a
 * tf.while_loop body as a StridedSlice at the loop counter): the masks alone decide the form, and
 * the run-time elements go into the Slice's operands (opset 10+).
 */
const STRIDED_SLICE: OpMapping = {
  onnx: { op: 'Slice', since: 1 },
  ir: { op: 'StridedSlice', version: 'opset1' },
  when: never,
  handles: { ir: ['begin_mask', 'end_mask', 'new_axis_mask', 'shrink_axis_mask', 'ellipsis_mask'] },
  note: 'IR only: ONNX Slice (+ Squeeze for shrink_axis_mask, Unsqueeze for new_axis_mask)',
  toIr: (c) => { c.error('StridedSlice is not written from ONNX'); },
  toOnnx: (c) => {
    const hasStride = c.numInputs > 3 && c.input(3) !== null;
    // each operand as numbers known at conversion, or as run-time elements of a known count
    const length = (i: number): number | null => {
      const t = c.type(i);
      const d = t?.kind === 'tensor' && t.shape?.length === 1 ? t.shape[0] : undefined;
      return typeof d === 'number' ? d : null;
    };
    const operand = (i: number, what: string): Bound[] | null | undefined => {
      const known = c.constInts(i);
      if (known !== null) return known;
      const k = length(i);
      if (c.opset < 10 || k === null) { c.needsConstant(i, `${what} (a run-time ${what} converts from opset 10 when its length is known)`, 10); return undefined; }
      const v = asI64Vector(c, i)!;
      return Array.from({ length: k }, (_, at) => ({ from: v, at }));
    };
    const begin = operand(1, 'begin');
    if (begin === undefined) return;
    const end = operand(2, 'end');
    if (end === undefined) return;
    const stride = hasStride ? operand(3, 'stride') : null;
    if (stride === undefined) return;
    if (begin === null || end === null) return;
    const n = c.node;
    const [bm, em, nm, sm, ellipsis] = ['begin_mask', 'end_mask', 'new_axis_mask', 'shrink_axis_mask', 'ellipsis_mask'].map((k) => mask(n, k));
    const entries = begin.length;
    if (nm!.some((b) => b !== 0n) && sm!.some((b) => b !== 0n)) {
      // measured (OpenVINO 2026.4 CPU): x[:, 1, None] as StridedSlice gives elements the spec's
      // reading does not, so there is no ONNX form we can vouch for
      c.error('new_axis_mask together with shrink_axis_mask: OpenVINO computes it differently from its spec; not converted');
      return;
    }
    const ell = Array.from({ length: entries }, (_, i) => i).filter((i) => bit(ellipsis!, i) && !bit(nm!, i));
    if (ell.length > 1) { c.error('more than one ellipsis in ellipsis_mask'); return; }
    const rank = c.rank(0);
    if (ell.length === 1 && rank === null) { c.error('an ellipsis needs the rank of the data to be known'); return; }
    const named = Array.from({ length: entries }, (_, i) => i).filter((i) => !bit(nm!, i) && !ell.includes(i)).length;
    const spec: BoundSpec = { starts: [], ends: [], axes: [], steps: [] };
    const squeeze: bigint[] = [];
    const unsqueeze: bigint[] = [];
    let axis = 0; // input axis
    let outAxis = 0; // output axis (after squeeze and unsqueeze)
    for (let i = 0; i < entries; i++) {
      if (bit(nm!, i)) { unsqueeze.push(BigInt(outAxis++)); continue; }
      if (ell.includes(i)) { const k = rank! - named; axis += k; outAxis += k; continue; }
      const step = stride?.[i] ?? 1n;
      if (step === 0n) { c.error(`stride ${i} is 0`); return; }
      if (bit(sm!, i)) {
        const b = begin[i]!;
        spec.starts.push(b); spec.ends.push(typeof b === 'bigint' ? (b === -1n ? INT64_MAX : b + 1n) : { ...b, shrink: true });
        spec.axes.push(BigInt(axis)); spec.steps.push(1n);
        squeeze.push(BigInt(axis++));
        continue;
      }
      // a run-time step: its sign (which masks need) is not known
      if (typeof step !== 'bigint' && (bit(bm!, i) || bit(em!, i) || end[i] === undefined)) {
        c.needsConstant(3, `stride (entry ${i} has a begin or end mask, whose meaning depends on the stride's sign)`);
        return;
      }
      const up = typeof step !== 'bigint' || step > 0n;
      const s = bit(bm!, i) ? (up ? 0n : INT64_MAX) : begin[i]!;
      const e = bit(em!, i) ? (up ? INT64_MAX : INT64_MIN) : end[i] ?? (up ? INT64_MAX : INT64_MIN);
      if (!(s === 0n && e === INT64_MAX && step === 1n)) { spec.starts.push(s); spec.ends.push(e); spec.axes.push(BigInt(axis)); spec.steps.push(step); }
      axis++; outAxis++;
    }
    const known = (bs: Bound[]): bs is bigint[] => bs.every((b) => typeof b === 'bigint');
    const { starts, ends, steps } = spec;
    const sliced = known(starts) && known(ends) && known(steps)
      ? emitSlice(c, c.input(0)!, { starts, ends, axes: spec.axes, steps })
      : emitRuntimeSlice(c, c.input(0)!, spec);
    if (sliced === null) return;
    const out = axesOp(c, 'Unsqueeze', axesOp(c, 'Squeeze', sliced, squeeze), unsqueeze);
    c.output(0, out);
  },
};

/** Reverse-1(data, axes; mode index | mask) = Slice from -1 to the front with step -1 on those axes. */
const REVERSE: OpMapping = {
  onnx: { op: 'Slice', since: 1 },
  ir: { op: 'Reverse', version: 'opset1' },
  when: never,
  handles: { ir: ['mode'] },
  note: 'IR only: ONNX Slice with steps -1 (opset 10+)',
  toIr: (c) => { c.error('Reverse is not written from ONNX'); },
  toOnnx: (c) => {
    const mode = (c.attr.string('mode') ?? 'index').trim().toLowerCase();
    const given = c.constInts(1);
    if (given === null) { c.needsConstant(1, 'axes'); return; }
    const rank = c.rank(0);
    let axes: bigint[];
    if (mode === 'mask') axes = given.flatMap((m, i) => (m !== 0n ? [BigInt(i)] : []));
    else if (mode === 'index') axes = given.map((a) => (a < 0n && rank !== null ? a + BigInt(rank) : a));
    else { c.unsupportedAttr('mode', mode, 'supported: index, mask'); return; }
    const spec: SliceSpec = { starts: axes.map(() => -1n), ends: axes.map(() => INT64_MIN), axes, steps: axes.map(() => -1n) };
    const out = emitSlice(c, c.input(0)!, spec);
    if (out === null) return;
    c.output(0, out);
  },
};

export const SLICE_IR: readonly OpMapping[] = [STRIDED_SLICE, REVERSE];
