import { setBackEdges } from '../src/graph/body.js';
import type { Graph } from '../src/graph/graph.js';
import { tensorFromBool } from '../src/graph/tensor.js';
import { tensorType } from '../src/graph/types.js';
import type { Value } from '../src/graph/value.js';
import type { LoopOperand } from './body-ops.js';
import type { ConvertContext } from './spec.js';

/**
 * An IR Loop-5 that an ONNX → IR decomposition lays out itself (Det's elimination, CumProd's
 * running product, LSTM's peephole cell, LinearAttention's recurrence): the IR counterpart of
 * onnxLoop (ir-only/onnx-build.ts). The Loop's inputs are the trip count, a true condition, the
 * carried values' initial states and the values every iteration reads unchanged; its body's
 * Parameters are the iteration number (port map: current_iteration), the carried values and the
 * invariants, in that order; its Results the condition (always true: execution_condition), the
 * carried values' next states (back edges to their Parameters) and the per-iteration results.
 */

/** What the body's builder gets: its graph and Parameters, in the order given. */
export interface IrLoopBody {
  readonly graph: Graph;
  /** The iteration number (an i64 scalar). */
  readonly iteration: Value;
  readonly carried: readonly Value[];
  readonly invariant: readonly Value[];
}

/**
 * One output of the Loop, by where it comes from: the last state of carried value `last`, or the
 * per-iteration result `scan` concatenated along `axis` over the iterations.
 */
export type IrLoopOutput = { readonly last: number } | { readonly scan: number; readonly axis: number };

export interface IrLoopSpec {
  /** The number of iterations (an i64 scalar). */
  readonly trips: Value;
  /** The name of the iteration-number Parameter. */
  readonly iteration: string;
  /** The carried values (`value`: the initial state). */
  readonly carried: readonly LoopOperand[];
  readonly invariant?: readonly LoopOperand[];
  /** The Loop's outputs, in order. */
  readonly outputs: readonly IrLoopOutput[];
}

/**
 * Emits the Loop and lays out its body: `step` builds one iteration and gives the carried values'
 * next states (in `carried`'s order) and the per-iteration results that `outputs` names. Returns
 * the Loop's outputs.
 */
export function irLoop(c: ConvertContext, spec: IrLoopSpec, step: (b: IrLoopBody) => { readonly carried: readonly Value[]; readonly scans?: readonly Value[] }): Value[] {
  const invariant = spec.invariant ?? [];
  const inputs = [spec.trips, c.constant(tensorFromBool([true])), ...spec.carried.map((o) => o.value), ...invariant.map((o) => o.value)];
  const outs = c.emit('Loop', inputs, {}, spec.outputs.length, 'opset5');
  const loop = c.lastNode!;
  const body = loop.graph.addBody(loop, 'body');
  const g = body.graph;
  const iteration = g.addInput(tensorType('i64', []), [spec.iteration]);
  const carried = spec.carried.map((o) => g.addInput(o.type, [o.name]));
  const fixed = invariant.map((o) => g.addInput(o.type, [o.name]));
  const next = step({ graph: g, iteration, carried, invariant: fixed });
  if (next.carried.length !== carried.length) throw new Error(`the Loop body gives ${next.carried.length} next states for ${carried.length} carried values`);
  g.outputs.push(g.addInitializer(tensorFromBool([true]), ['cond']), ...next.carried, ...(next.scans ?? []));
  body.inputs = [
    { param: iteration, from: -1, extra: { purpose: 'current_iteration' } },
    ...[...carried, ...fixed].map((param, k) => ({ param, from: k + 2 })),
  ];
  body.outputs = [
    ...spec.outputs.map((o, to) => ('last' in o
      ? { result: 1 + o.last, to }
      : { result: 1 + carried.length + o.scan, to, extra: { axis: String(o.axis), start: '0', end: '-1', stride: '1', part_size: '1' } })),
    { result: 0, to: -1, extra: { purpose: 'execution_condition' } },
  ];
  setBackEdges(body, carried.map((_, k) => ({ result: 1 + k, param: 1 + k })), g.inputs.length, g.outputs.length);
  return outs;
}
