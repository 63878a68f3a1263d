import { backEdgeIndices, type Body } from '../../src/graph/body.js';
import type { ConvertContext } from '../spec.js';

/**
 * A TensorIterator's port map read as its spec lays it out (TensorIterator-1): each body
 * Parameter is sliced (`axis` …), merged (the target of a back edge: initial value + the Result of
 * the previous iteration) or invariant; each output is concatenated (`axis` …) or the last
 * iteration's value of a body Result. Read once, shared by the two ONNX forms of a TensorIterator
 * (Scan where it fits, `scan.ts`; Loop otherwise, `tensor-iterator-loop.ts`).
 */

/** A port-map entry's iteration attributes as written (`axis` not normalized). */
export interface Slicing { readonly axis: number; readonly start: number; readonly end: number; readonly stride: number; readonly part: number }

export interface TiPortMap {
  /** Body parameter index (in body.graph.inputs) and node input, in parameter order. */
  readonly sliced: { param: number; from: number; s: Slicing }[];
  readonly merged: { param: number; from: number; result: number }[];
  readonly invariant: { param: number; from: number }[];
  /** In port-map order. */
  readonly concat: { result: number; to: number; s: Slicing }[];
  readonly last: { result: number; to: number }[];
}

/** The entry's iteration attributes (defaults as the TensorIterator spec gives them); the reason otherwise. */
export function slicing(e: Readonly<Record<string, string>>): Slicing | string {
  const out: Record<string, number> = {};
  for (const [k, d] of [['axis', NaN], ['start', 0], ['end', -1], ['stride', 1], ['part_size', 1]] as const) {
    const v = e[k] === undefined ? d : Number(e[k]);
    if (!Number.isInteger(v)) return `${k} '${e[k] ?? ''}' is not an integer`;
    out[k] = v;
  }
  return { axis: out['axis']!, start: out['start']!, end: out['end']!, stride: out['stride']!, part: out['part_size']! };
}

/** The port map of TensorIterator body `body`, every problem reported (null then). */
export function tiPortMap(c: ConvertContext, body: Body): TiPortMap | null {
  const g = body.graph;
  let ok = true;
  const fail = (m: string): void => { c.error(m); ok = false; };
  const label = (p: number): string => String(g.inputs[p]?.metaView['layerName'] ?? g.inputs[p]?.label ?? p);
  const edgeTo = new Map<number, number>();
  for (const e of backEdgeIndices(body)) {
    if (!e) { fail('a back edge names a layer that is no body Parameter/Result'); continue; }
    if (edgeTo.has(e.param)) fail(`Parameter '${label(e.param)}' is the target of two back edges`);
    edgeTo.set(e.param, e.result);
  }
  const pm: TiPortMap = { sliced: [], merged: [], invariant: [], concat: [], last: [] };
  const bound = new Map(body.inputs.map((b) => [g.inputs.indexOf(b.param), b]));
  g.inputs.forEach((_, p) => {
    const b = bound.get(p);
    if (!b || b.from < 0) { fail(`body Parameter '${label(p)}' is not fed by an input of the node`); return; }
    if (b.extra?.['axis'] !== undefined) {
      if (edgeTo.has(p)) { fail(`Parameter '${label(p)}' is both sliced and a back-edge target`); return; }
      const s = slicing(b.extra);
      if (typeof s === 'string') { fail(`sliced input '${label(p)}': ${s}`); return; }
      pm.sliced.push({ param: p, from: b.from, s });
    } else if (edgeTo.has(p)) pm.merged.push({ param: p, from: b.from, result: edgeTo.get(p)! });
    else pm.invariant.push({ param: p, from: b.from });
  });
  for (const o of body.outputs) {
    if (o.to < 0) { fail('an output with a special purpose (Loop-only) in a TensorIterator'); continue; }
    if (o.extra?.['axis'] !== undefined) {
      const s = slicing(o.extra);
      if (typeof s === 'string') { fail(`concatenated output ${o.to}: ${s}`); continue; }
      pm.concat.push({ result: o.result, to: o.to, s });
    } else pm.last.push({ result: o.result, to: o.to });
  }
  return ok ? pm : null;
}
