import { A, type Attr } from '../../src/graph/attr.js';
import { elementType, type ElementTypeName } from '../../src/graph/element-type.js';
import type { Graph } from '../../src/graph/graph.js';
import { tensorFromBool } from '../../src/graph/tensor.js';
import { tensorType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import type { LoopOperand } from '../body-ops.js';
import { i64Const, i64Scalar, onnxAxesOp } from '../helpers.js';
import type { ConvertContext } from '../spec.js';

/**
 * Small builders for IR → ONNX escape hatches that write an IR-only op as an ONNX subgraph
 * (mappings/ir-only/, tensor/scatter-update.ts, tensor/roll.ts, …). Such entries name the ONNX op
 * they stand on (`onnx`), never match an ONNX node (`when: never`) and refuse ONNX → IR (`irOnly`).
 */
export const never = (): boolean => false;
export const irOnly = (c: ConvertContext): void => c.error(`${c.entry.ir?.op ?? c.node.op} is written to ONNX only (no ONNX op maps to it here)`);

/** One ONNX node with one output. */
export const on = (c: ConvertContext, op: string, inputs: readonly (Value | null)[], attrs: Record<string, Attr> = {}): Value =>
  c.emit(op, inputs, attrs)[0]!;

/** ONNX Cast of `v` to `to`. */
export const cast = (c: ConvertContext, v: Value, to: ElementTypeName): Value => on(c, 'Cast', [v], { to: A.int(elementType(to).onnx!) });

/** `v` (input `i`, an integer tensor) as int64, as ONNX index operands want it. */
export const indexI64 = (c: ConvertContext, i: number): Value => (c.elem(i) === 'i64' ? c.input(i)! : cast(c, c.input(i)!, 'i64'));

/** ONNX Unsqueeze of constant axes in the form of the target opset (helpers.ts onnxAxesOp). */
export const unsqueeze = (c: ConvertContext, v: Value, axes: readonly bigint[]): Value => onnxAxesOp(c, 'Unsqueeze', v, axes);

/** ONNX ReduceSum / ReduceMean / ReduceMax / ReduceSumSquare with constant axes in the form of the target opset. */
export function reduce(c: ConvertContext, op: 'ReduceSum' | 'ReduceMean' | 'ReduceMax' | 'ReduceSumSquare', v: Value, axes: readonly bigint[], keepdims: boolean): Value {
  const inputSince = op === 'ReduceSum' ? 13 : 18;
  const keep = { keepdims: A.int(keepdims ? 1 : 0) };
  return c.opset >= inputSince ? on(c, op, [v, i64Const(c, axes)], keep) : on(c, op, [v], { ...keep, axes: A.ints(axes) });
}

/** Dim `axis` of `v` at run time, an int64 scalar. */
export const dimOf = (c: ConvertContext, v: Value, axis: bigint): Value =>
  on(c, 'Gather', [on(c, 'Shape', [v]), i64Scalar(c, axis)], { axis: A.int(0) });

/** The row-major flat position of every element of `v`, shaped like `v` (int64). */
export function positions(c: ConvertContext, v: Value): Value {
  const n = on(c, 'Size', [v]);
  const flat = on(c, 'Range', [i64Scalar(c, 0n), n, i64Scalar(c, 1n)]);
  return reshapeLike(c, flat, v);
}

/**
 * ONNX Reshape of `x` to the run-time shape of `like`: allowzero=1 from opset 14, so a 0 in it is
 * an empty dim, not "copy the input's dim" (which fails or misplaces dims of data without elements).
 */
export function reshapeLike(c: ConvertContext, x: Value, like: Value): Value {
  return on(c, 'Reshape', [x, on(c, 'Shape', [like])], c.opset >= 14 ? { allowzero: A.int(1) } : {});
}

/** ONNX Reshape of `v` to one dimension. */
export const flatten1d = (c: ConvertContext, v: Value): Value => on(c, 'Reshape', [v, i64Const(c, [-1n])]);


/** What a Loop body's builder gets: its graph, the iteration number, the carried values and the captures (in the order given). */
export interface LoopBody {
  readonly graph: Graph;
  readonly i: Value;
  readonly carried: readonly Value[];
  readonly captures: readonly Value[];
  /** One node of the body with one output, named `<node>/step/<op>_<k>`. */
  op(op: string, inputs: readonly Value[], attrs?: Record<string, Attr>): Value;
}

/**
 * An ONNX Loop of `trips` iterations (its condition always true) carrying `carried` and reading
 * `captures` from outside (ONNX scoping: body parameters bound to outer values, past the Loop's own
 * inputs). `step` builds one iteration from the body's values and returns the carried values'
 * next state and the scan outputs (stacked over the iterations). Returns the Loop's outputs: the
 * carried values' final state, then the scan outputs.
 */
export function onnxLoop(
  c: ConvertContext,
  spec: { readonly trips: Value; readonly iteration: string; readonly carried: readonly LoopOperand[]; readonly captures?: readonly LoopOperand[]; readonly scans?: number },
  step: (b: LoopBody) => { readonly carried: readonly Value[]; readonly scans?: readonly Value[] },
): Value[] {
  const captures = spec.captures ?? [];
  const scans = spec.scans ?? 0;
  const outs = c.emit('Loop', [spec.trips, c.constant(tensorFromBool([true], [])), ...spec.carried.map((o) => o.value), ...captures.map((o) => o.value)], {}, spec.carried.length + scans);
  const loop = c.lastNode!;
  loop.meta['onnxInputCount'] = 2 + spec.carried.length;
  const body = loop.graph.addBody(loop, 'body');
  const g = body.graph;
  const prefix = `${c.node.name || c.node.op}/step`;
  let made = 0;
  const op = (name: string, inputs: readonly Value[], attrs: Record<string, Attr> = {}): Value => {
    const n = g.addNode({ dialect: 'onnx', op: name, version: String(c.opset), name: `${prefix}/${name}_${made++}` });
    for (const v of inputs) n.addInput(v);
    for (const k in attrs) n.attrs.set(k, attrs[k]!);
    return n.addOutput(null);
  };
  const i = g.addInput(tensorType('i64', []), [spec.iteration]);
  const cond = g.addInput(tensorType('boolean', []), ['cond_in']);
  const carried = spec.carried.map((o) => g.addInput(o.type, [o.name]));
  const captured = captures.map((o) => {
    const q = g.addInput(o.type, [o.name]);
    q.meta['onnxCapture'] = true;
    return q;
  });
  const next = step({ graph: g, i, carried, captures: captured, op });
  if (next.carried.length !== carried.length || (next.scans?.length ?? 0) !== scans) {
    throw new Error(`onnxLoop: the step returned ${next.carried.length} carried and ${next.scans?.length ?? 0} scan values, not ${carried.length} and ${scans}`);
  }
  const results = [...next.carried, ...(next.scans ?? [])];
  g.outputs.push(op('Identity', [cond]), ...results);
  body.inputs = [i, cond, ...carried, ...captured].map((param, from) => ({ param, from }));
  body.outputs = results.map((_, k) => ({ result: k + 1, to: k }));
  return outs;
}
