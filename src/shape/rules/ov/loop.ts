import { backEdgeIndices } from '../../../graph/body.js';
import type { Dim } from '../../../graph/shape.js';
import { readIntegers } from '../../../graph/tensor.js';
import type { ValueType } from '../../../graph/types.js';
import { out, type InferFn, type OutputInfo, type Rule, type RuleContext } from '../../rule.js';

/**
 * OpenVINO Loop-5, as Loop::validate_and_infer_types: an output that takes the last iteration's
 * value has the body Result's type; a concatenated output (`axis` in its port map entry) has the
 * Result's type with the axis grown by the iteration count — exact when the count is known (a
 * constant trip count ≥ 0, the execution condition a constant true and the body's condition a
 * constant true), unknown otherwise. A last-iteration output has the body Result's type (inference
 * relaxes a loop-carried Parameter until its Result fits it, as OpenVINO: src/shape/infer.ts
 * closeLoopRound). A back edge must keep the element type of the value it carries
 * (SHAPE_LOOP_BACK_EDGE).
 */

/** Whether a constant holds only non-zero (true) elements. */
const allTrue = (v: readonly (number | bigint)[] | null | undefined): boolean => !!v && v.length > 0 && v.every((x) => BigInt(x) !== 0n);

function iterations(c: RuleContext): number | null {
  const body = c.node.bodies.get('body')!;
  const trip = c.ints(0);
  if (!trip || trip.length !== 1 || trip[0]! < 0) return null;
  if (!allTrue(c.ints(1))) return null;
  const condOut = body.outputs.find((o) => o.to < 0 && o.extra?.['purpose'] === 'execution_condition');
  const v = condOut ? body.graph.outputs[condOut.result] : undefined;
  return v?.constant && allTrue(readIntegers(v.constant)) ? trip[0]! : null;
}

function concatenated(t: ValueType | null, extra: Readonly<Record<string, string>>, count: number | null): OutputInfo {
  if (!t || t.kind !== 'tensor') return { type: null };
  if (t.shape === null) return out(t.elem, null);
  const rank = t.shape.length;
  let axis = Number(extra['axis']);
  if (axis < 0) axis += rank;
  if (!Number.isInteger(axis) || axis < 0 || axis >= rank) return out(t.elem, null);
  const plain = (extra['start'] ?? '0') === '0' && (extra['end'] ?? '-1') === '-1' && (extra['stride'] ?? '1') === '1' && (extra['part_size'] ?? '1') === '1';
  const d = t.shape[axis];
  const grown: Dim = plain && count !== null && typeof d === 'number' ? d * count : null;
  const dims = [...t.shape];
  dims[axis] = grown;
  return out(t.elem, dims);
}

const loop: InferFn = (c) => {
  const body = c.node.bodies.get('body');
  if (!body) { c.error('missing body'); return []; }
  const binding = new Map(body.inputs.map((x) => [x.param, x]));
  const edges = backEdgeIndices(body).flatMap((e) => {
    const param = e ? body.graph.inputs[e.param] : undefined;
    return e && param ? [{ result: e.result, param }] : [];
  });
  for (const e of edges) {
    const b = binding.get(e.param);
    const init = b && b.from >= 0 ? c.tensor(b.from) : null;
    const res = c.bodyResult('body', e.result);
    if (init && res && res.kind === 'tensor' && init.elem !== 'dynamic' && res.elem !== 'dynamic' && init.elem !== res.elem) {
      c.report('SHAPE_LOOP_BACK_EDGE', { result: e.result, param: String(e.param.metaView['layerName'] ?? e.param.label), from: init.elem, to: res.elem });
    }
  }
  const count = iterations(c);
  const outs: (OutputInfo | null)[] = c.node.outputs.map(() => null);
  for (const o of body.outputs) {
    if (o.to < 0 || o.to >= outs.length) continue;
    const t = c.bodyResult('body', o.result);
    if (o.extra && 'axis' in o.extra) outs[o.to] = concatenated(t, o.extra, count);
    // the last iteration's value: the body Result's type, its loop-carried Parameter relaxed
    // by inference until the Result fits it (src/shape/infer.ts closeLoopRound), as OpenVINO
    else outs[o.to] = { type: t };
  }
  return outs;
};

export const ovLoopRules: Rule[] = [
  { dialect: 'ov', op: 'Loop', since: 5, infer: loop },
];
