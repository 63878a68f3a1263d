import { A, type Attr } from '../src/graph/attr.js';
import type { Value } from '../src/graph/value.js';
import { i64Const, i64Scalar } from './helpers.js';
import { attrToInput, type ConvertContext, type OpMapping } from './spec.js';

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

/** ONNX → IR (axes as input 1 whatever the opset: the `moves` line turns the attribute into one). */
const reduceToIr = (c: ConvertContext): void => {
  const keep = c.attr.int('keepdims', 1n) !== 0n;
  const noop = c.attr.int('noop_with_empty_axes', 0n) !== 0n;
  const x = c.input(0)!;
  let axes = c.numInputs > 1 ? c.input(1) : null;
  const known = axes ? c.constInts(1) : null;
  if (known !== null && known.length === 0) axes = null;
  else if (axes && noop && known === null) { c.error('noop_with_empty_axes=1 with axes that are not constant has no IR form'); return; }
  else if (axes && known === null) {
    // Only axes that may be empty at run time need the run-time form: OpenVINO cannot bound the
    // output shape through it, so a length inference knows is used as it is.
    const t = c.type(1);
    const len = t?.kind === 'tensor' && t.shape?.length === 1 ? t.shape[0] : null;
    if (len === 0) axes = null;
    else if (typeof len !== 'number') axes = runtimeAxes(c, x, axes);
  }
  if (!axes && noop) { c.output(0, c.emit('Identity', [x], {}, 1, 'opset16')[0]!); return; }
  if (!axes) axes = allAxes(c, x);
  const keepDims = { keep_dims: keep ? 'true' : 'false' };
  if (c.elem(0) === 'boolean') {
    // OpenVINO's ReduceMax/Min take no booleans, and its CPU plugin has no kernel for
    // ReduceLogicalOr/And once booleans run as u8 (f32 precision hint): reduce them as i32.
    const asInt = c.emit('Convert', [x], { destination_type: 'i32' }, 1, 'opset1')[0]!;
    const reduced = c.emitOwn([asInt, axes], keepDims)[0]!;
    c.output(0, c.emit('Convert', [reduced], { destination_type: 'boolean' }, 1, 'opset1')[0]!);
    return;
  }
  c.output(0, c.emitOwn([x, axes], keepDims)[0]!);
};

/** IR → ONNX: axes go back to an attribute before the opset that made them an input (`moves`). */
const reduceToOnnx = (c: ConvertContext): void => {
  const keep = c.attr.bool('keep_dims', false);
  const axes = c.constInts(1);
  if (axes !== null && axes.length === 0) { c.output(0, c.emit('Identity', [c.input(0)])[0]!); return; }
  const attrs = new Map<string, Attr>();
  if (!keep) attrs.set('keepdims', A.int(0));
  c.output(0, c.emitOwn([c.input(0), c.input(1)], attrs)[0]!);
};

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
    const reduced = c.emitOwn([asInt, c.input(1)], attrs)[0]!;
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

export const REDUCE: readonly OpMapping[] = [
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
