import { A } from '../../src/graph/attr.js';
import { setBackEdges, type Body, type InputBinding, type OutputBinding } from '../../src/graph/body.js';
import type { Graph } from '../../src/graph/graph.js';
import { tensorFromInt64 } from '../../src/graph/tensor.js';
import type { ValueType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { tiPortMap, type Slicing, type TiPortMap } from './port-map.js';
import { tensorIteratorAsLoop } from './tensor-iterator-loop.js';

/**
 * ONNX Scan (8, 9 … 25) ⇄ OpenVINO TensorIterator-1, as OpenVINO's ONNX frontend (op/scan.cpp)
 * builds it.
 *
 * ONNX Scan: body inputs are N state variables then M scan inputs, each the slice of a node input
 * along its scan axis with that axis removed; body outputs are N states then K per-iteration scan
 * outputs, stacked along a new scan output axis. Directions 1 run backwards.
 *
 * TensorIterator: the port map says the same with three kinds of body Parameter — sliced (`axis`,
 * `start`, `end`, `stride`, `part_size`: a part that keeps its axis, of size part_size), merged
 * (an initial input plus a back edge from a body Result) and invariant (plain) — and two kinds of
 * output: concatenated (`axis` …) and the last iteration's value.
 *
 * So a scan input becomes a sliced input with part_size 1 (stride -1 from the end for direction
 * 1) whose body Parameter keeps the axis as 1 and is Squeezed inside the body; a scan output is
 * Unsqueezed inside the body and concatenated; a state is a merged input whose back edge comes from
 * the state's Result, which is also the node's final-state output; captures are invariant inputs.
 * Opset 8 has a batch axis 0 on every input and a sequence_lens input: OpenVINO's frontend treats
 * the batch axis wrongly (the scoreboard), so ovir converts it only where it is exact — batch 1
 * and no sequence_lens (or one equal to the sequence length) — and refuses otherwise; the states'
 * batch axis is squeezed before the TensorIterator and restored after it.
 *
 * Back to ONNX, a TensorIterator whose sliced inputs and concatenated outputs take parts of size
 * 1 over the full range with stride ±1, whose every last-value output is a loop-carried value, and
 * that slices at least one input becomes a Scan (the axis of a part is Unsqueezed in the body,
 * the concatenated values Squeezed). Other layouts become an ONNX Loop (tensor-iterator-loop.ts).
 */

const ONNX_ATTRS = ['num_scan_inputs', 'directions', 'scan_input_axes', 'scan_input_directions', 'scan_output_axes', 'scan_output_directions'];

const FORWARD = { start: '0', end: '-1', stride: '1', part_size: '1' } as const;
const BACKWARD = { start: '-1', end: '0', stride: '-1', part_size: '1' } as const;
const sliceExtra = (axis: number, reverse: boolean): Record<string, string> => ({ axis: String(axis), ...(reverse ? BACKWARD : FORWARD) });

/** `t` with a dim of 1 inserted at each of `axes` (ascending, in the result's numbering). */
function withOnes(t: ValueType | null, axes: readonly number[]): ValueType | null {
  if (!t || t.kind !== 'tensor') return t;
  if (t.shape === null) return t;
  const dims = [...t.shape];
  for (const a of axes) dims.splice(a, 0, 1);
  return { kind: 'tensor', elem: t.elem, shape: dims };
}

/** A node of `g` in the target dialect with one output. */
function bodyNode(g: Graph, c: ConvertContext, op: string, inputs: readonly Value[], name: string, attrs: Record<string, bigint[]> = {}): Value {
  const ov = c.node.dialect === 'onnx';
  const n = g.addNode({ dialect: ov ? 'ov' : 'onnx', op, version: ov ? 'opset1' : String(c.opset), name });
  for (const v of inputs) n.addInput(v);
  for (const [k, v] of Object.entries(attrs)) n.attrs.set(k, A.ints(v));
  return n.addOutput(null);
}

/** Squeeze / Unsqueeze of `v` at `axes` inside body `g` (ONNX before 13: the axes attribute). */
function axesOp(g: Graph, c: ConvertContext, op: 'Squeeze' | 'Unsqueeze', v: Value, axes: readonly number[], name: string): Value {
  const list = axes.map(BigInt);
  if (c.node.dialect === 'ov' && c.opset < 13) return bodyNode(g, c, op, [v], `${name}/${op}`, { axes: list });
  return bodyNode(g, c, op, [v, g.addInitializer(tensorFromInt64(list))], `${name}/${op}`);
}

const normalize = (a: number, rank: number | null): number | null => (a >= 0 ? a : rank === null ? null : a + rank);

// ── ONNX → IR ─────────────────────────────────────────────────────────────────────────────────

function scanToIr(c: ConvertContext): void {
  const body = c.node.bodies.get('body');
  if (!body) { c.error('missing body'); return; }
  const v8 = c.opset < 9;
  const off = v8 ? 1 : 0;
  const nScan = Number(c.attr.int('num_scan_inputs') ?? -1n);
  const formal = body.graph.inputs.filter((p) => p.metaView['onnxCapture'] !== true).length;
  const nState = formal - nScan;
  const nOut = body.graph.outputs.length;
  const nScanOut = nOut - nState;
  if (nScan < 1 || nState < 0 || nScanOut < 0) { c.error(`num_scan_inputs = ${nScan} does not fit a body of ${formal} inputs and ${nOut} outputs`); return; }
  if (c.node.outputs.length > nOut) { c.error(`the node has ${c.node.outputs.length} outputs but the body only ${nOut}`); return; }
  const inDirs = (v8 ? c.attr.ints('directions') : c.attr.ints('scan_input_directions'))?.map(Number) ?? Array(nScan).fill(0);
  const inAxes = v8 ? Array(nScan).fill(1) : c.attr.ints('scan_input_axes')?.map(Number) ?? Array(nScan).fill(0);
  const outAxes = v8 ? Array(nScanOut).fill(1) : c.attr.ints('scan_output_axes')?.map(Number) ?? Array(nScanOut).fill(0);
  const outDirs = v8 ? Array(nScanOut).fill(0) : c.attr.ints('scan_output_directions')?.map(Number) ?? Array(nScanOut).fill(0);
  for (const [name, list, n] of [['scan_input_directions', inDirs, nScan], ['scan_input_axes', inAxes, nScan], ['scan_output_axes', outAxes, nScanOut], ['scan_output_directions', outDirs, nScanOut]] as const) {
    if (list.length !== n) { c.error(`${v8 && name === 'scan_input_directions' ? 'directions' : name} has ${list.length} entries for ${n} ${name.includes('input') ? 'scan inputs' : 'scan outputs'}`); return; }
  }
  for (const [name, list] of [['scan_input_directions', inDirs], ['scan_output_directions', outDirs]] as const) {
    if (list.some((d) => d !== 0 && d !== 1)) { c.error(`${name} must hold 0 (forward) or 1 (reverse), got [${list.join(',')}]`); return; }
  }
  if (v8 && !batchOfOne(c, off, nState + nScan)) return;

  // Axes: scan inputs in the outer input's numbering, scan outputs in the stacked output's.
  const sliceAxes: number[] = [];
  for (let m = 0; m < nScan; m++) {
    const r = c.rank(off + nState + m);
    const a = normalize(inAxes[m]!, r);
    if (a === null) { c.error(`scan input ${m}: axis ${inAxes[m]} needs the input's rank, which is not known`); return; }
    sliceAxes.push(a);
  }
  const stackAxes: number[] = [];
  for (let k = 0; k < nScanOut; k++) {
    const t = c.typeOf(body.graph.outputs[nState + k]!);
    const r = t && t.kind === 'tensor' && t.shape ? t.shape.length + 1 : null;
    const a = normalize(outAxes[k]!, r);
    if (a === null) { c.error(`scan output ${k}: axis ${outAxes[k]} needs the body output's rank, which is not known`); return; }
    stackAxes.push(a);
  }

  // Opset 8: a state's batch axis 0 (of size 1) is squeezed before the loop and restored after it,
  // so the body sees the state as ONNX's body does; a scan input's part keeps it with the scan axis.
  const inputs: (Value | null)[] = [];
  for (let i = off; i < c.numInputs; i++) {
    const v = c.input(i);
    inputs.push(v8 && v && i < off + nState ? c.emit('Squeeze', [v, i64Const(c, [0n])], {}, 1, 'opset1')[0]! : v);
  }
  const ti = c.emit('TensorIterator', inputs, {}, c.node.outputs.length, 'opset1');
  const node = c.lastNode!;
  const extraAxes = (i: number): number[] => (i < nState || i >= formal ? [] : v8 ? [0, 1] : [sliceAxes[i - nState]!]);
  const resultAxes = (k: number): number[] => (k < nState ? [] : v8 ? [0, 1] : [stackAxes[k - nState]!]);
  const b = c.body(node, 'body', 'body', (i) => i - off, {
    results: body.graph.outputs.map((_, k) => k),
    param: (i, q, g) => {
      const axes = extraAxes(i);
      if (!axes.length) return q;
      const t = q.type;
      q.type = withOnes(t, axes);
      const s = axesOp(g, c, 'Squeeze', q, axes, q.name || `param_${i}`);
      s.type = t;
      return s;
    },
    result: (k, v, g) => {
      const axes = resultAxes(k);
      return axes.length ? axesOp(g, c, 'Unsqueeze', v, axes, v.name || `result_${k}`) : v;
    },
  });
  // Parameters keep the source's order: p is the ONNX body input index.
  b.inputs = b.inputs.map((x): InputBinding => {
    const p = b.graph.inputs.indexOf(x.param);
    if (p < nState || p >= formal) return x;
    const m = p - nState;
    return { ...x, extra: sliceExtra(v8 ? 1 : sliceAxes[m]!, inDirs[m] === 1) };
  });
  b.outputs = body.graph.outputs.flatMap((_, k): OutputBinding[] => {
    if (k >= c.node.outputs.length) return [];
    if (k < nState) return [{ result: k, to: k }];
    const j = k - nState;
    return [{ result: k, to: k, extra: sliceExtra(v8 ? 1 : stackAxes[j]!, outDirs[j] === 1) }];
  });
  setBackEdges(b, Array.from({ length: nState }, (_, j) => ({ result: j, param: j })), body.graph.inputs.length, nOut);
  ti.forEach((v, i) => c.output(i, v8 && i < nState ? c.emit('Unsqueeze', [v, i64Const(c, [0n])], {}, 1, 'opset1')[0]! : v));
}

/** Opset 8: every formal input has batch 1 and sequence_lens is absent or the full length. */
function batchOfOne(c: ConvertContext, off: number, formal: number): boolean {
  for (let i = off; i < off + formal; i++) {
    const t = c.type(i);
    const d = t && t.kind === 'tensor' && t.shape ? t.shape[0] : undefined;
    if (d !== 1) {
      c.error(`Scan-8 input ${i} has batch size ${d === undefined || d === null ? 'unknown' : String(d)}: only batch 1 converts exactly (OpenVINO's TensorIterator has no batch axis; OpenVINO's own frontend mishandles it)`);
      return false;
    }
  }
  if (c.input(0) !== null) {
    const lens = c.constInts(0);
    const t = c.type(off + formal - 1);
    const seq = t && t.kind === 'tensor' && t.shape ? t.shape[1] : null;
    if (lens === null || typeof seq !== 'number' || lens.some((l) => Number(l) !== seq)) {
      c.error('sequence_lens must be absent or a constant equal to the sequence length: a shorter sequence has no TensorIterator form');
      return false;
    }
  }
  return true;
}

// ── IR → ONNX ─────────────────────────────────────────────────────────────────────────────────

interface Layout {
  states: { param: number; result: number; from: number; to: number | null }[];
  scans: { param: number; from: number; axis: number; reverse: boolean }[];
  invariants: { param: number; from: number }[];
  stacked: { result: number; to: number; axis: number; reverse: boolean }[];
}

/** A part of size 1 over the full range, stride ±1; why not otherwise. */
function fullRange(s: Slicing): { reverse: boolean } | string {
  if (s.part !== 1) return `part_size ${s.part} (Scan takes parts of size 1)`;
  if (s.stride === 1 && s.start === 0 && s.end === -1) return { reverse: false };
  if (s.stride === -1 && s.start === -1 && s.end === 0) return { reverse: true };
  return `start ${s.start}, end ${s.end}, stride ${s.stride} (Scan runs over the full range with stride ±1)`;
}

/**
 * The Scan form of a TensorIterator's port map; `misfit` (why it is no Scan: the Loop form is
 * written instead) or null after a diagnostic.
 */
function layoutOf(c: ConvertContext, body: Body, pm: TiPortMap): Layout | { misfit: string } | null {
  const g = body.graph;
  const label = (p: number): string => String(g.inputs[p]?.metaView['layerName'] ?? g.inputs[p]?.label ?? p);
  const lay: Layout = { states: [], scans: [], invariants: [], stacked: [] };
  if (!pm.sliced.length) return { misfit: 'no input is sliced' };
  for (const x of pm.sliced) {
    const r = fullRange(x.s);
    if (typeof r === 'string') return { misfit: `sliced input '${label(x.param)}': ${r}` };
  }
  for (const x of pm.concat) {
    const r = fullRange(x.s);
    if (typeof r === 'string') return { misfit: `concatenated output ${x.to}: ${r}` };
  }
  const results = new Set(pm.merged.map((m) => m.result));
  const notCarried = pm.last.find((o) => !results.has(o.result));
  if (notCarried) return { misfit: `output ${notCarried.to} is the last value of a Result that is no back-edge source` };
  let ok = true;
  for (const x of pm.sliced) {
    const axis = normalize(x.s.axis, c.rank(x.from));
    if (axis === null) { c.error(`sliced input '${label(x.param)}': axis ${x.s.axis} needs the input's rank, which is not known`); ok = false; continue; }
    lay.scans.push({ param: x.param, from: x.from, axis, reverse: x.s.stride < 0 });
  }
  for (const m of pm.merged) lay.states.push({ param: m.param, result: m.result, from: m.from, to: null });
  for (const v of pm.invariant) lay.invariants.push(v);
  for (const o of pm.concat) {
    // Scan stacks one slice per iteration: the Result's part along the axis must be of size 1.
    const t = c.typeOf(g.outputs[o.result]!);
    const shape = t && t.kind === 'tensor' ? t.shape : null;
    const axis = normalize(o.s.axis, shape ? shape.length : null);
    if (axis === null) { c.error(`concatenated output ${o.to}: axis ${o.s.axis} needs the body Result's rank, which is not known`); ok = false; continue; }
    const d = shape?.[axis];
    if (typeof d === 'number' && d !== 1) return { misfit: `concatenated output ${o.to}: the body Result has ${d} elements along axis ${axis} per iteration (Scan stacks one)` };
    lay.stacked.push({ result: o.result, to: o.to, axis, reverse: o.s.stride < 0 });
  }
  for (const o of pm.last) {
    const s = lay.states.find((x) => x.result === o.result && x.to === null);
    if (s) s.to = o.to;
    else lay.states.push({ ...lay.states.find((x) => x.result === o.result)!, to: o.to, param: -1 });
  }
  return ok ? lay : null;
}

function tensorIteratorToOnnx(c: ConvertContext): void {
  const body = c.node.bodies.get('body');
  if (!body) { c.error('missing body'); return; }
  const pm = tiPortMap(c, body);
  if (!pm) return;
  const lay = layoutOf(c, body, pm);
  if (!lay) return;
  if ('misfit' in lay) { tensorIteratorAsLoop(c, body, pm); return; }
  const states = lay.states.filter((s) => s.param >= 0);
  const extraOutputs = lay.states.filter((s) => s.param < 0);
  // ONNX Scan: body inputs (states, scans, captures), outputs (states, stacked); node likewise.
  const paramOrder = [...states.map((s) => s.param), ...lay.scans.map((s) => s.param), ...lay.invariants.map((s) => s.param)];
  const resultOrder = [...states.map((s) => s.result), ...lay.stacked.map((s) => s.result)];
  const inputs = [...states.map((s) => c.input(s.from)), ...lay.scans.map((s) => c.input(s.from)), ...lay.invariants.map((s) => c.input(s.from))];
  const formal = states.length + lay.scans.length;
  const attrs: Record<string, ReturnType<typeof A.int>> = { num_scan_inputs: A.int(lay.scans.length) };
  const scanAxes = lay.scans.map((s) => BigInt(s.axis));
  const stackAxes = lay.stacked.map((s) => BigInt(s.axis));
  if (c.opset < 9) { c.unsupportedAttr('port_map', 'sliced inputs', 'a Scan before opset 9 has a batch axis: convert with --opset 9 or later', 9); return; }
  if (scanAxes.some((a) => a !== 0n)) attrs['scan_input_axes'] = A.ints(scanAxes);
  if (lay.scans.some((s) => s.reverse)) attrs['scan_input_directions'] = A.ints(lay.scans.map((s) => (s.reverse ? 1n : 0n)));
  if (stackAxes.some((a) => a !== 0n)) attrs['scan_output_axes'] = A.ints(stackAxes);
  if (lay.stacked.some((s) => s.reverse)) attrs['scan_output_directions'] = A.ints(lay.stacked.map((s) => (s.reverse ? 1n : 0n)));
  const outs = c.emit('Scan', inputs, attrs, resultOrder.length);
  const node = c.lastNode!;
  node.meta['onnxInputCount'] = formal;
  const slot = new Map(paramOrder.map((p, k) => [p, k]));
  const scanAxisOf = new Map(lay.scans.map((s) => [s.param, s.axis]));
  const b = c.body(node, 'body', 'body', (from) => from, {
    inputs: paramOrder,
    results: resultOrder,
    param: (i, q, bg) => {
      if (slot.get(i)! >= formal) { q.meta['onnxCapture'] = true; return q; }
      const axis = scanAxisOf.get(i);
      if (axis === undefined) return q;
      // The TensorIterator part keeps its axis (as 1); Scan's slice drops it.
      const t = q.type;
      if (t && t.kind === 'tensor' && t.shape) q.type = { kind: 'tensor', elem: t.elem, shape: t.shape.filter((_, d) => d !== axis) };
      const u = axesOp(bg, c, 'Unsqueeze', q, [axis], q.name || `param_${i}`);
      u.type = t;
      return u;
    },
    result: (k, v, bg) => {
      if (k < states.length) return v;
      return axesOp(bg, c, 'Squeeze', v, [lay.stacked[k - states.length]!.axis], v.name || `result_${k}`);
    },
  });
  // Each body parameter is bound to its own node input (the engine bound them by TI input).
  b.inputs = b.graph.inputs.map((param, k) => ({ param, from: k }));
  states.forEach((s, j) => { if (s.to !== null) c.output(s.to, outs[j]!); });
  lay.stacked.forEach((s, k) => c.output(s.to, outs[states.length + k]!));
  for (const e of extraOutputs) c.output(e.to!, outs[states.findIndex((s) => s.result === e.result)]!);
  c.node.outputs.forEach((_, i) => {
    const covered = states.some((s) => s.to === i) || lay.stacked.some((s) => s.to === i) || extraOutputs.some((s) => s.to === i);
    if (!covered) c.unused(i);
  });
}

export const SCAN: readonly OpMapping[] = [
  {
    onnx: { op: 'Scan', since: 8 },
    ir: { op: 'TensorIterator', version: 'opset1' },
    toIr: scanToIr,
    toOnnx: tensorIteratorToOnnx,
    handles: { onnx: ONNX_ATTRS },
    note: 'scan inputs/outputs ↔ sliced/concatenated port-map entries (part_size 1, stride ±1; Squeeze/Unsqueeze in the body); states ↔ back edges; captures ↔ invariant inputs; Scan-8 only for batch 1; a TensorIterator Scan cannot express (parts > 1, partial ranges, no sliced input, last values of uncarried Results) → ONNX Loop slicing at iteration_num',
  },
];
