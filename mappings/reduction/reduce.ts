import { A, type Attr } from '../../src/graph/attr.js';
import { elementType } from '../../src/graph/element-type.js';
import type { Node } from '../../src/graph/node.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { irBuilder } from '../nn/ir-build.js';
import { attrToInput, type ConvertContext, type OpMapping } from '../spec.js';

/**
 * ONNX Reduce* ↔ IR Reduce*-1. ONNX takes axes as an attribute until opset 17 (ReduceSum until
 * 12) and as an optional input from 18 (13); absent axes reduce every dim (unless
 * noop_with_empty_axes), which IR spells as axes = range(rank). keepdims (default 1) is IR
 * keep_dims (default false). An IR Reduce with an empty axes constant reduces nothing.
 */
/** The rank of `x` as an i64 scalar. */
function rankOf(c: ConvertContext, x: Value): Value {
  const shape = c.emit('ShapeOf', [x], { output_type: 'i64' }, 1, 'opset3')[0]!;
  const rankVec = c.emit('ShapeOf', [shape], { output_type: 'i64' }, 1, 'opset3')[0]!;
  return c.emit('Squeeze', [rankVec, i64Const(c, [0n])], {}, 1, 'opset1')[0]!;
}

const range0 = (c: ConvertContext, end: Value): Value =>
  c.emit('Range', [i64Scalar(c, 0n), end, i64Scalar(c, 1n)], { output_type: 'i64' }, 1, 'opset4')[0]!;

function allAxes(c: ConvertContext, x: Value): Value {
  return range0(c, rankOf(c, x));
}

/**
 * Axes known only at run time, with noop_with_empty_axes=0: ONNX reduces every dim when they are
 * empty, IR reduces none. `axes ++ range(0, rank * (len(axes) == 0))` is the same axes when they
 * are not empty and every axis when they are.
 */
function runtimeAxes(c: ConvertContext, x: Value, axes: Value): Value {
  const len = c.emit('ShapeOf', [axes], { output_type: 'i64' }, 1, 'opset3')[0]!;
  const empty = c.emit('Equal', [len, i64Const(c, [0n])], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const emptyI = c.emit('Convert', [empty], { destination_type: 'i64' }, 1, 'opset1')[0]!;
  const emptyScalar = c.emit('Squeeze', [emptyI, i64Const(c, [0n])], {}, 1, 'opset1')[0]!;
  const end = c.emit('Multiply', [emptyScalar, rankOf(c, x)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  return c.emit('Concat', [axes, range0(c, end)], { axis: '0' }, 1, 'opset1')[0]!;
}

/**
 * Axes known only at run time, with noop_with_empty_axes=1: empty axes reduce nothing. OpenVINO's
 * CPU plugin computes a Reduce with empty run-time axes wrongly (an empty tensor, measured on
 * 2026.4), so x gets a leading dim of 1 that is always reduced, with the axes shifted past it:
 *   Reduce(Unsqueeze(x, 0), [0] ++ (axes mod rank) + 1)   (keepdims: Squeeze the leading dim)
 * which is x when the axes are empty and the reduction over them otherwise (rank: a constant, or
 * the data's rank at run time where it is dynamic). Axes of a known, non-zero length go as they are.
 */
function noopRuntimeAxes(
  c: ConvertContext, x: Value, axes: Value, keep: boolean, reduceOver: (x: Value, axes: Value, keepDims: boolean) => Value,
): Value | null {
  const t = c.type(1);
  const len = t?.kind === 'tensor' && t.shape?.length === 1 ? t.shape[0] : null;
  if (typeof len === 'number' && len > 0) return reduceOver(x, axes, keep);
  if (c.elem(0) === 'boolean') { c.error('noop_with_empty_axes=1 with axes computed at run time is not converted for booleans'); return null; }
  // the rank as a constant where inference knows it, else taken at run time (data of a dynamic
  // rank: an If whose branches give different ranks, as OpenVINO's TensorFlow frontend writes tf.cond)
  const r = c.rank(0);
  const rank = r === null ? rankOf(c, x) : i64Scalar(c, BigInt(r));
  const ax = c.elem(1) === 'i64' ? axes : c.emit('Convert', [axes], { destination_type: 'i64' }, 1, 'opset1')[0]!;
  const shifted = c.emit('Add', [c.emit('FloorMod', [ax, rank], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!, i64Scalar(c, 1n)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const all = c.emit('Concat', [i64Const(c, [0n]), shifted], { axis: '0' }, 1, 'opset1')[0]!;
  const y = reduceOver(c.emit('Unsqueeze', [x, i64Const(c, [0n])], {}, 1, 'opset1')[0]!, all, keep);
  return keep ? c.emit('Squeeze', [y, i64Const(c, [0n])], {}, 1, 'opset1')[0]! : y;
}

/**
 * ONNX reductions IR has no op for, as their ONNX function bodies define them: an elementwise op
 * before (ReduceSumSquare: x·x; ReduceLogSumExp: exp x), an IR reduction, one after (log).
 */
interface Composite {
  readonly reduce: string;
  /** Every IR op it is written as. */
  readonly ops: readonly string[];
  readonly pre?: (c: ConvertContext, x: Value) => Value;
  readonly post?: (c: ConvertContext, y: Value) => Value;
  /**
   * ReduceLogSumExp of floats: shifted by the largest element m of each reduced set, as
   * onnxruntime computes it, log Σ exp(x − m) + m (m taken as 0 where it is ±inf): the function
   * body's form, whose Σ exp(x) ONNX computes in doubles, overflows or underflows in f32 (every
   * element below about −104 gives log 0 = −inf; skl2onnx's GaussianNB normalizes its
   * log-likelihoods so).
   */
  readonly shifted?: true;
}

/**
 * log Σ exp(x − m) + m over `axes`, m the largest element of each reduced set (0 where it is
 * ±inf: a set of −inf gives log 0 = −inf, one holding +inf gives +inf, as onnxruntime).
 */
function shiftedLogSumExp(c: ConvertContext, x: Value, axes: Value, keep: boolean, elem: Parameters<typeof elementType>[0]): Value {
  const nb = { auto_broadcast: 'numpy' };
  const one = (op: string, inputs: Value[], attrs: Record<string, string> = nb, version = 'opset1'): Value => c.emit(op, inputs, attrs, 1, version)[0]!;
  const finiteMax = (keepDims: boolean): Value => {
    const m = one('ReduceMax', [x, axes], { keep_dims: keepDims ? 'true' : 'false' });
    const inf = one('IsInf', [m], { detect_negative: 'true', detect_positive: 'true' }, 'opset10');
    return one('Select', [inf, irBuilder(c).scalar(elem, 0), m]);
  };
  const mKept = finiteMax(true);
  const sum = one('ReduceSum', [one('Exp', [one('Subtract', [x, mKept])], {}), axes], { keep_dims: keep ? 'true' : 'false' });
  return one('Add', [one('Log', [sum], {}), keep ? mKept : finiteMax(false)]);
}

/** ONNX → IR (axes as input 1 whatever the opset: the `moves` line turns the attribute into one). */
const reduceToIr = (c: ConvertContext): void => reduceToIrAs(c);

function reduceToIrAs(c: ConvertContext, composite?: Composite): void {
  const keep = c.attr.int('keepdims', 1n) !== 0n;
  const noop = c.attr.int('noop_with_empty_axes', 0n) !== 0n;
  const data = c.input(0)!;
  const elem = c.elem(0);
  const shifted = composite?.shifted && elem && elem !== 'dynamic' && elementType(elem).kind === 'float' ? elem : null;
  /** The reduction of `x` over `axes` (the composite's ops around the IR one, or the shifted form). */
  const reduceOver = (x: Value, axesV: Value, keepDims: boolean): Value => {
    if (shifted) return shiftedLogSumExp(c, x, axesV, keepDims, shifted);
    const attrs = { keep_dims: keepDims ? 'true' : 'false' };
    const input = composite?.pre ? composite.pre(c, x) : x;
    const y = (composite ? c.emit(composite.reduce, [input, axesV], attrs, 1, 'opset1') : c.emitOwn([input, axesV], attrs))[0]!;
    return composite?.post ? composite.post(c, y) : y;
  };
  let axes = c.numInputs > 1 ? c.input(1) : null;
  const known = axes ? c.constInts(1) : null;
  if (known !== null && known.length === 0) axes = null;
  else if (axes && noop && known === null) {
    const dummy = noopRuntimeAxes(c, data, axes, keep, reduceOver);
    if (dummy) c.output(0, dummy);
    return;
  }
  else if (axes && known === null) {
    // Only axes that may be empty at run time need the run-time form: OpenVINO cannot bound the
    // output shape through it, so a length inference knows is used as it is.
    const t = c.type(1);
    const len = t?.kind === 'tensor' && t.shape?.length === 1 ? t.shape[0] : null;
    if (len === 0) axes = null;
    else if (typeof len !== 'number') axes = runtimeAxes(c, data, axes);
  }
  if (!axes && noop) {
    // Nothing reduced: the composite's ops over each element (the shifted form's log exp(x − x) + x is x).
    const x = shifted ? data : composite?.pre ? composite.pre(c, data) : data;
    const id = c.emit('Identity', [x], {}, 1, 'opset16')[0]!;
    c.output(0, !shifted && composite?.post ? composite.post(c, id) : id);
    return;
  }
  // Every axis: a constant when the rank is known (as ovc writes it), else range(0, rank(x)),
  // which IR → ONNX reads back as absent axes.
  const rank = c.rank(0);
  if (!axes) axes = rank !== null ? i64Const(c, Array.from({ length: rank }, (_, i) => BigInt(i))) : allAxes(c, data);
  if (elem === 'boolean') {
    // OpenVINO's ReduceMax/Min take no booleans, and its CPU plugin has no kernel for
    // ReduceLogicalOr/And once booleans run as u8 (f32 precision hint): reduce them as i32.
    const asInt = c.emit('Convert', [data], { destination_type: 'i32' }, 1, 'opset1')[0]!;
    const reduced = reduceOver(asInt, axes, keep);
    c.output(0, c.emit('Convert', [reduced], { destination_type: 'boolean' }, 1, 'opset1')[0]!);
    return;
  }
  c.output(0, reduceOver(data, axes, keep));
}

// ── IR → ONNX: reading axes back, ovir's own decompositions included ─────────────────────────

/** The IR node that produces `v`, when it is op `op`. */
function producedBy(v: Value | null | undefined, op: string): Node | null {
  const p = v?.producer;
  return p && p.dialect === 'ov' && p.op === op ? p : null;
}

/** `v` with the Converts in front of it skipped (a Convert keeps the shape). */
function throughConverts(v: Value | null | undefined): Value | null {
  let x = v ?? null;
  for (let p = producedBy(x, 'Convert'); p; p = producedBy(x, 'Convert')) x = p.inputs[0] ?? null;
  return x;
}

const isInts = (c: ConvertContext, v: Value | null | undefined, want: readonly bigint[]): boolean => {
  const got = v ? c.intsOf(v) : null;
  return got !== null && got.length === want.length && got.every((g, i) => g === want[i]);
};

/** Whether `v` is rank(x) as rankOf writes it: Squeeze(ShapeOf(ShapeOf(x)), [0]). */
function isRankOf(c: ConvertContext, v: Value | null | undefined, x: Value | null): boolean {
  const sq = producedBy(v, 'Squeeze');
  const outer = producedBy(sq?.inputs[0], 'ShapeOf');
  const inner = producedBy(outer?.inputs[0], 'ShapeOf');
  return !!inner && !!sq && isInts(c, sq.inputs[1], [0n]) && throughConverts(inner.inputs[0]) === throughConverts(x);
}

/** Whether `v` is range(0, end, 1), returning `end`. */
function rangeFrom0(c: ConvertContext, v: Value | null | undefined): Value | null {
  const r = producedBy(v, 'Range');
  return r && isInts(c, r.inputs[0], [0n]) && isInts(c, r.inputs[2], [1n]) ? r.inputs[1] ?? null : null;
}

/**
 * The ONNX reading of an IR Reduce's axes operand, recognizing what ONNX → IR writes for forms IR
 * lacks: `all` for range(0, rank(x)) (ONNX axes absent), `runtime` with the original axes for
 * `axes ++ range(0, rank(x) * (len(axes) == 0))` (ONNX axes input, noop_with_empty_axes=0).
 */
function readAxes(c: ConvertContext): { kind: 'all' } | { kind: 'runtime'; axes: Value } | null {
  const axes = c.node.inputs[1];
  const x = c.node.inputs[0] ?? null;
  if (!axes) return null;
  if (isRankOf(c, rangeFrom0(c, axes), x)) return { kind: 'all' };
  const cat = producedBy(axes, 'Concat');
  if (!cat || cat.inputs.length !== 2) return null;
  const mul = producedBy(rangeFrom0(c, cat.inputs[1]), 'Multiply');
  const flag = producedBy(producedBy(mul?.inputs[0], 'Squeeze')?.inputs[0], 'Convert');
  const eq = producedBy(flag?.inputs[0], 'Equal');
  const len = producedBy(eq?.inputs[0], 'ShapeOf');
  const original = cat.inputs[0] ?? null;
  if (!mul || !eq || !len || !original || len.inputs[0] !== original || !isInts(c, eq.inputs[1], [0n]) || !isRankOf(c, mul.inputs[1], x)) return null;
  return { kind: 'runtime', axes: original };
}

/**
 * IR → ONNX axes operand of a Reduce: null for every axis (ONNX axes absent), the original axes
 * for the run-time form, else IR's axes. The `moves` line writes it as the target opset takes it
 * (an attribute before the opset that made it an input, constants only).
 */
function onnxAxes(c: ConvertContext): Value | null {
  const known = readAxes(c);
  if (known?.kind === 'all') return null;
  if (known?.kind === 'runtime') return c.converted(known.axes);
  return c.input(1);
}

/** IR → ONNX: axes go back to an attribute before the opset that made them an input (`moves`). */
const reduceToOnnx = (c: ConvertContext): void => {
  const keep = c.attr.bool('keep_dims', false);
  const axes = c.constInts(1);
  if (axes !== null && axes.length === 0) { c.output(0, c.emit('Identity', [c.input(0)])[0]!); return; }
  const attrs = new Map<string, Attr>();
  if (!keep) attrs.set('keepdims', A.int(0));
  if (axes === null && readAxes(c) === null && !surelyNonEmpty(c)) {
    // Run-time axes that may be empty: IR then reduces nothing, ONNX only with noop_with_empty_axes.
    attrs.set('noop_with_empty_axes', A.int(1));
  }
  c.output(0, c.emitOwn([c.input(0), onnxAxes(c)], attrs)[0]!);
};

/** Whether the IR axes operand is known to hold at least one axis (its length, from its type). */
function surelyNonEmpty(c: ConvertContext): boolean {
  const t = c.type(1);
  const len = t?.kind === 'tensor' ? (t.shape?.length === 0 ? 1 : t.shape?.[0]) : null;
  return typeof len === 'number' && len > 0;
}

/**
 * IR ReduceLogicalOr/And → ONNX ReduceMax/Min over the booleans cast to int32 (ONNX reductions
 * take bool only from opset 20), cast back to bool. ONNX → IR never picks these entries
 * (`when` is false): boolean ReduceMax/Min go to IR through i32 instead (see reduceToIr).
 */
const logicalReduce = (onnxOp: string, irOp: string): OpMapping => ({
  onnx: { op: onnxOp, since: 1 },
  ir: { op: irOp, version: 'opset1' },
  when: () => false,
  moves: [attrToInput('axes', 1, 18)],
  handles: { onnx: ['keepdims'], ir: ['keep_dims'] },
  toIr: (c) => c.error(`${irOp} is only emitted for boolean ${onnxOp}`),
  toOnnx: (c) => {
    const asInt = c.emit('Cast', [c.input(0)], { to: A.int(6) })[0]!;
    const attrs = new Map<string, Attr>();
    if (!c.attr.bool('keep_dims', false)) attrs.set('keepdims', A.int(0));
    const reduced = c.emitOwn([asInt, onnxAxes(c)], attrs)[0]!;
    c.output(0, c.emit('Cast', [reduced], { to: A.int(9) })[0]!);
  },
});

const reduce = (op: string, axesInputSince: number, version = 'opset1'): OpMapping => ({
  onnx: { op, since: 1 },
  ir: { op, version },
  moves: [attrToInput('axes', 1, axesInputSince)],
  handles: { onnx: ['keepdims', 'noop_with_empty_axes'], ir: ['keep_dims'] },
  toIr: reduceToIr,
  toOnnx: reduceToOnnx,
});

const composite = (op: string, axesInputSince: number, how: Composite): OpMapping => ({
  onnx: { op, since: 1 },
  ir: null,
  decomposes: how.ops,
  moves: [attrToInput('axes', 1, axesInputSince)],
  handles: { onnx: ['keepdims', 'noop_with_empty_axes'] },
  note: how.shifted
    ? `IR: ${how.ops.join(', ')} (floats: shifted by each set's largest element, as onnxruntime computes it; others the ONNX function body)`
    : `IR: ${how.ops.join(', ')} (the ONNX function body)`,
  toIr: (c) => reduceToIrAs(c, how),
});

const irUnary = (op: string) => (c: ConvertContext, v: Value): Value => c.emit(op, [v], {}, 1, 'opset1')[0]!;

export const REDUCE: readonly OpMapping[] = [
  composite('ReduceSumSquare', 18, { reduce: 'ReduceSum', ops: ['Multiply', 'ReduceSum'], pre: (c, x) => c.emit('Multiply', [x, x], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]! }),
  composite('ReduceLogSum', 18, { reduce: 'ReduceSum', ops: ['ReduceSum', 'Log'], post: irUnary('Log') }),
  composite('ReduceLogSumExp', 18, {
    reduce: 'ReduceSum', ops: ['Exp', 'ReduceSum', 'Log', 'ReduceMax', 'IsInf', 'Select', 'Subtract', 'Add'], pre: irUnary('Exp'), post: irUnary('Log'), shifted: true,
  }),
  reduce('ReduceMax', 18),
  reduce('ReduceMin', 18),
  reduce('ReduceMean', 18),
  reduce('ReduceProd', 18),
  reduce('ReduceSum', 13),
  reduce('ReduceL1', 18, 'opset4'),
  reduce('ReduceL2', 18, 'opset4'),
  logicalReduce('ReduceMax', 'ReduceLogicalOr'),
  logicalReduce('ReduceMin', 'ReduceLogicalAnd'),
];
