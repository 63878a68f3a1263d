import type { Value } from '../graph/value.js';

/**
 * Re-layouts a converter may put around one value without changing what it holds: a reshape of an
 * If's or a loop's condition (IR takes [] or [1]), the moves that join a loop's stacked output.
 */

/** Ops that only reshape their input 0 (a conversion may wrap a loop's outputs in one: Scan-8's batch axis). */
const RESHAPING = new Set(['squeeze', 'unsqueeze', 'reshape', 'identity']);
/**
 * Ops that only move, select or re-lay a loop's stacked output (IR TensorIterator → ONNX Loop:
 * a reverse Slice, a Transpose to the concatenation axis, a Squeeze/Reshape merging it, a
 * Gather of the last iteration), walked through from data input 0.
 */
const RELAYOUT = new Set([...RESHAPING, 'transpose', 'slice', 'gather']);
/** What `v` is a reshape of, through any chain of reshaping ops (v itself when none makes it). */
export function throughReshapes(v: Value): Value {
  let x = v;
  for (let q = x.producer; q && RESHAPING.has(q.op.toLowerCase()) && q.inputs[0]; q = x.producer) x = q.inputs[0];
  return x;
}

/** v, and what it reshapes when a reshaping op makes it; through a chain of re-layouts of a loop's output. */
export function reshaped(v: Value): Value[] {
  const out = [v];
  for (let q = v.producer; q && RELAYOUT.has(q.op.toLowerCase()) && q.inputs[0]; q = q.inputs[0].producer) out.push(q.inputs[0]);
  return out;
}
