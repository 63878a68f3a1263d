import { A } from '../../src/graph/attr.js';
import { backEdgeIndices, setBackEdges, type Body, type InputBinding } from '../../src/graph/body.js';
import type { Graph } from '../../src/graph/graph.js';
import { expectedByteLength, makeTensor, tensorFromBool, tensorFromInt64 } from '../../src/graph/tensor.js';
import { describeType, tensorType, type ValueType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { INT64_MAX, i64Const, i64Scalar, normAxis, onnxAxesOp } from '../helpers.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping, SequenceElement } from '../spec.js';
import { appendedSequence, appendedSequences, type AppendedSequence } from './loop-append.js';
import { notOneElement, typeProblem } from './body-types.js';
import { slicing } from './port-map.js';
import { cutPart, lastPartEnd, slicedPart } from './tensor-iterator-loop.js';

/**
 * ONNX Loop (every opset, 1…25) ↔ OpenVINO Loop-5, as OpenVINO's ONNX frontend relates them.
 *
 *   ONNX node   (M, cond, v_initial…)          → (v_final…, scan…)
 *   ONNX body   (iteration_num, cond, v…)      → (cond, v…, scan…)
 *   IR Loop     inputs 0 trip count, 1 execution condition, then data;
 *               port map: current_iteration Parameter (external -1), execution_condition Result
 *               (external -1), merged inputs (initial value + back edge from a Result),
 *               invariant inputs (no back edge), outputs either the last iteration's value or the
 *               iterations' values concatenated along `axis` (the last iteration's value of a Result
 *               without a back edge, where no iteration runs: zeros, as OpenVINO gives).
 *
 * An empty M is trip count -1 (and INT64_MAX, ONNX's "no limit", too); an empty cond is true. The
 * loop-carried values are merged inputs with back edges; each scan output is unsqueezed at axis 0
 * in the body and concatenated along axis 0. Outer values the body reads (captures, at any depth:
 * the decoder made them explicit inputs) are invariant inputs, one per distinct outer value.
 * The converter converts the body like any graph, from its queue (no recursion over nesting).
 */

const CONCAT_AXIS0: Readonly<Record<string, string>> = { axis: '0', start: '0', end: '-1', stride: '1', part_size: '1' };

/** Whether ONNX body output `out` is the body's cond input passed through (OpenVINO then uses a constant true). */
function passesCondThrough(out: Value | undefined, condIn: Value | undefined): boolean {
  if (!out || !condIn) return false;
  if (out === condIn) return true;
  const p = out.producer;
  return p !== null && p.op === 'Identity' && p.inputs[0] === condIn;
}

/** Appends an OpenVINO node to a converted body graph (after its own nodes). */
function addOv(g: Graph, op: string, inputs: Value[], type: ValueType | null, name: string): Value {
  const n = g.addNode({ dialect: 'ov', op, version: 'opset1', name });
  for (const v of inputs) n.addInput(v);
  return n.addOutput(type);
}

function unsqueezed(t: ValueType | null): ValueType | null {
  return t && t.kind === 'tensor' && t.shape !== null ? tensorType(t.elem, [1, ...t.shape]) : null;
}

/** ONNX Loop → IR Loop-5. */
function loopToIr(c: ConvertContext): void {
  const node = c.node;
  const sb = node.bodies.get('body');
  if (!sb) { c.error('missing body'); return; }
  const g = sb.graph;
  const own = node.metaView['onnxInputCount'] ?? node.inputs.length;
  const nCarried = own - 2;
  const formal = g.inputs.filter((p) => p.metaView['onnxCapture'] !== true);
  if (nCarried < 0) { c.error(`has ${own} inputs; Loop takes M, cond and the loop-carried values`); return; }
  if (formal.length !== nCarried + 2) {
    c.error(`the body has ${formal.length} inputs; with ${nCarried} loop-carried values it needs ${nCarried + 2} (iteration_num, cond, then one per value)`);
    return;
  }
  const nScan = g.outputs.length - 1 - nCarried;
  if (nScan < 0) { c.error(`the body has ${g.outputs.length} outputs; with ${nCarried} loop-carried values it needs at least ${nCarried + 1} (cond, then one per value)`); return; }
  if (node.outputs.length > nCarried + nScan) { c.error(`has ${node.outputs.length} outputs; the body gives ${nCarried} loop-carried values and ${nScan} scan outputs`); return; }
  // Sequences appended to in every iteration and concatenated after the loop (loop-append.ts)
  // become concatenated outputs; the other loop-carried values are merged inputs.
  const appended = new Map(appendedSequences(node).map((a) => [a.carried, a]));
  const plain = Array.from({ length: nCarried }, (_, i) => i).filter((i) => !appended.has(i));
  let ok = true;
  for (const [i, what] of [[0, 'the trip count M'], [1, 'the condition']] as const) {
    const many = notOneElement(node.inputs[i] ? c.typeOf(node.inputs[i]!) : null);
    if (many) { c.error(`${what} is ${many}; it holds exactly one element`); ok = false; }
  }
  const needsTensor = (what: string, v: Value | null | undefined) => {
    const bad = v ? typeProblem(c.typeOf(v), 'ov') : null;
    if (bad) { c.error(`${what} ('${v!.label}') has type ${bad}, which OpenVINO IR cannot hold (IR has tensors only)`); ok = false; }
  };
  // A sequence that is not an appended one is refused once, saying why (not again for its
  // parameter, result and output).
  const refused = new Set<number>();
  for (const i of plain) {
    const v = node.inputs[2 + i];
    if (!v) { c.error(`loop-carried value ${i} has no initial value (input ${2 + i} is empty)`); ok = false; continue; }
    const why = c.typeOf(v)?.kind === 'sequence' ? appendedSequence(node, i) : null;
    if (typeof why === 'string') {
      c.error(`loop-carried value ${i} ('${v.label}') is a sequence: it converts where the body only appends to it and only ConcatFromSequence (one axis) reads it after the loop (OpenVINO IR has tensors only); here ${why}`);
      refused.add(i);
      ok = false;
      continue;
    }
    needsTensor(`loop-carried value ${i}`, v);
  }
  const ownCheck = (i: number) => appended.has(i) || refused.has(i);
  formal.forEach((p, k) => { if (k >= 2 && !ownCheck(k - 2)) needsTensor(`body input ${k}`, p); });
  g.outputs.forEach((v, k) => { if (k === 0 || !ownCheck(k - 1)) needsTensor(`body output ${k}`, v); });
  node.outputs.forEach((v, k) => { if (!ownCheck(k)) needsTensor(`output ${k}`, v); });
  const concatAxis = new Map<number, number>();
  for (const [i, a] of appended) {
    const axis = appendAxis(c, a);
    if (axis === null) ok = false;
    else concatAxis.set(i, axis);
  }
  if (!ok) return;

  const mConst = node.inputs[0] ? c.constInts(0) : null;
  const trip = !node.inputs[0] || (mConst?.length === 1 && mConst[0] === INT64_MAX) ? i64Const(c, [-1n]) : c.input(0);
  // No condition given: a scalar true, as the body's cond input is a scalar (ONNX Loop), which
  // the body Parameter bound to it is then too.
  const cond = node.inputs[1] ? c.input(1) : c.constant(tensorFromBool([true], []));
  const inputs: (Value | null)[] = [trip, cond];
  for (const i of plain) inputs.push(c.input(2 + i));
  // One invariant input per distinct outer value the body reads.
  const capture = new Map<number, number>();
  const index = new Map<Value, number>();
  for (const b of sb.inputs) {
    if (b.from < own || capture.has(b.from)) continue;
    const v = c.input(b.from);
    if (!v) { c.error(`capture input ${b.from} is empty`); return; }
    let k = index.get(v);
    if (k === undefined) { k = inputs.length; inputs.push(v); index.set(v, k); }
    capture.set(b.from, k);
  }
  const outs = c.emit('Loop', inputs, {}, node.outputs.length, 'opset5');
  const loop = c.lastNode!;
  const scans = Array.from({ length: Math.max(0, node.outputs.length - nCarried) }, (_, k) => 1 + nCarried + k);
  // Body results: the condition, the merged values, the appended parts, the scan outputs; each
  // with the Loop output it feeds (-1: the condition).
  const keep = [0, ...plain.map((i) => 1 + i), ...[...appended.keys()].map((i) => 1 + i), ...scans];
  const feeds = keep.map((r) => r - 1);
  const condThrough = passesCondThrough(g.outputs[0], formal[1]);
  const scanAt = new Set(scans);
  const position = new Map(g.inputs.map((p, k) => [p, k]));
  const appendedParams = [...appended.values()].map((a) => position.get(a.param)!);
  const kept = g.inputs.map((_, k) => k).filter((k) => !appendedParams.includes(k));
  const db: Body = c.body(loop, 'body', 'body', (i) => capture.get(i) ?? i, {
    inputs: kept,
    results: keep,
    emptySequences: appendedParams,
    result: (k, v, bg) => {
      // Scan outputs: each iteration's value gets the axis it is concatenated along.
      if (scanAt.has(keep[k]!)) return addOv(bg, 'Unsqueeze', [v, bg.addInitializer(tensorFromInt64([0n]))], unsqueezed(v.type), `${v.name || 'scan'}/unsqueeze`);
      // A condition passed through unchanged: a constant true, as OpenVINO's frontend writes it
      // (OpenVINO's shape inference then knows the iteration count from the trip count); a
      // scalar, the type of the ONNX body output it stands for and of the cond Parameter it feeds.
      if (k === 0 && condThrough) return bg.addInitializer(tensorFromBool([true], []), [`${v.name || 'cond'}/always_true`]);
      return v;
    },
    // An appended sequence's part of one iteration: its tensors, each with the concatenation axis.
    sequenceResult: (k, elems, bg) => appendedPart(bg, elems, concatAxis.get(feeds[k]!)!, `${node.name || 'loop'}/appended_${feeds[k]}`),
  });
  const param = (p: Value): Value => db.graph.inputs[kept.indexOf(position.get(p)!)]!;
  // Back edges: the condition Result → cond, each merged value's Result → its Parameter.
  const merged = [1, ...plain.map((i) => 2 + i)];
  setBackEdges(db, merged.map((f, r) => ({ result: r, param: kept.indexOf(position.get(formal[f]!)!) })), kept.length, keep.length);
  // Loop-carried Parameters start from their initial values' types, as OpenVINO's frontend sets
  // them; a dimension the body changes is dynamic (OpenVINO relaxes it the same way).
  for (const i of plain) {
    const q = param(formal[2 + i]!);
    const init = c.typeOf(node.inputs[2 + i]!);
    const next = c.typeOf(g.outputs[1 + i]!);
    if (!init || init.kind !== 'tensor' || init.shape === null) continue;
    if (!next || next.kind !== 'tensor') { q.type = init; continue; }
    const same = next.shape !== null && next.shape.length === init.shape.length;
    q.type = tensorType(init.elem, same ? init.shape.map((d, k) => (d === next.shape![k] ? d : null)) : null);
  }
  const bindings: InputBinding[] = [
    { param: param(formal[0]!), from: -1, extra: { purpose: 'current_iteration' } },
    { param: param(formal[1]!), from: 1 },
    ...plain.map((i, j) => ({ param: param(formal[2 + i]!), from: 2 + j })),
    ...sb.inputs.filter((b) => b.from >= own).map((b) => ({ param: param(b.param), from: capture.get(b.from)! })),
  ];
  db.inputs = bindings;
  const along = (axis: number): Readonly<Record<string, string>> => ({ ...CONCAT_AXIS0, axis: String(axis) });
  db.outputs = [
    ...feeds.map((to, r) => ({ r, to })).filter(({ r, to }) => r > 0 && to < node.outputs.length).map(({ r, to }) => (
      scanAt.has(keep[r]!) ? { result: r, to, extra: CONCAT_AXIS0 }
        : appended.has(to) ? { result: r, to, extra: along(concatAxis.get(to)!) }
          : { result: r, to })),
    { result: 0, to: -1, extra: { purpose: 'execution_condition' } },
  ];
  outs.forEach((v, i) => {
    const a = appended.get(i);
    if (!a) { c.output(i, v); return; }
    // merged with the concatenated axis: the parts' own axis of several appends, the tensors' own without new_axis
    const dims = 1 + (a.appended.length > 1 ? 1 : 0) + (a.newAxis ? 0 : 1);
    const concatenated = dims > 1 ? mergeDims(c, v, concatAxis.get(i)!, dims) : v;
    c.outputSequence(i, [{ value: concatenated, type: null, stacked: { axis: a.axis, newAxis: a.newAxis } }]);
  });
}

/**
 * The axis the iterations' parts are concatenated along, of the parts' rank r + 1 (each appended
 * tensor gets a new axis there): ConcatFromSequence's axis in [-r-1, r] with new_axis, else in
 * [-r, r-1] (the new axis then goes before the tensors' own, which it is merged with after the
 * loop). Null after a diagnostic: the rank must be known and the same for every appended tensor.
 */
function appendAxis(c: ConvertContext, a: AppendedSequence): number | null {
  const ranks = new Set(a.appended.map((t) => { const ty = c.typeOf(t); return ty && ty.kind === 'tensor' && ty.shape ? ty.shape.length : null; }));
  const r = ranks.size === 1 ? [...ranks][0]! : null;
  const what = `the sequence appended to in the body (loop-carried value ${a.carried}, read by ConcatFromSequence with axis ${a.axis}${a.newAxis ? ', new_axis 1' : ''})`;
  if (r === null) { c.error(`${what}: the appended tensors' rank must be known and the same for all to concatenate them in OpenVINO IR`); return null; }
  const top = a.newAxis ? r + 1 : r;
  if (a.axis < BigInt(-top) || a.axis >= BigInt(top)) { c.error(`${what}: axis ${a.axis} is out of range [${-top}, ${top - 1}] for tensors of rank ${r}`); return null; }
  return normAxis(a.axis, top);
}

/**
 * One iteration's part of an appended sequence, with a new axis at `axis` to concatenate along:
 * its one tensor unsqueezed there, or its several tensors stacked at `axis` and then unsqueezed
 * (so the Loop's parts are all 1 along `axis`, which OpenVINO's CPU plugin requires, and the
 * stacking axis is merged with it after the loop: iteration-major, as the appends were made).
 */
function appendedPart(bg: Graph, elems: readonly SequenceElement[], axis: number, name: string): Value {
  const unsqueeze = (v: Value, j: string) => addOv(bg, 'Unsqueeze', [v, bg.addInitializer(tensorFromInt64([BigInt(axis)]))], null, `${name}/unsqueeze${j}`);
  const parts = elems.map((e, j) => unsqueeze(e.value, `_${j}`));
  if (parts.length === 1) return parts[0]!;
  const concat = bg.addNode({ dialect: 'ov', op: 'Concat', version: 'opset1', name: `${name}/concat` });
  concat.attrs.set('axis', A.raw(String(axis)));
  for (const p of parts) concat.addInput(p);
  return unsqueeze(concat.addOutput(null), '');
}

/** `v` with its `count` dims from `axis` on merged into one (Reshape of its run-time shape: [..., -1, ...]). */
function mergeDims(c: ConvertContext, v: Value, axis: number, count: number): Value {
  const b = irBuilder(c);
  const shape = b.shapeOf(v);
  const pieces = [...(axis > 0 ? [b.slice(shape, 0n, BigInt(axis), 0n)] : []), i64Const(c, [-1n]), b.slice(shape, BigInt(axis + count), INT64_MAX, 0n)];
  return c.emit('Reshape', [v, b.concat(pieces, 0)], { special_zero: 'false' }, 1, 'opset1')[0]!;
}

// ── IR → ONNX ──────────────────────────────────────────────────────────────────────────────────

interface Carried { readonly param: Value; readonly from: number; readonly result: number }

/** IR Loop-5 → ONNX Loop. */
function loopToOnnx(c: ConvertContext): void {
  const node = c.node;
  const sb = node.bodies.get('body');
  if (!sb) { c.error('missing body'); return; }
  const g = sb.graph;
  const edges = new Map<Value, number>();
  for (const e of backEdgeIndices(sb)) if (e && g.inputs[e.param]) edges.set(g.inputs[e.param]!, e.result);
  let ok = true;
  const fail = (detail: string) => { c.error(detail); ok = false; };
  const label = (p: Value) => String(p.metaView['layerName'] ?? p.label);
  let iter: InputBinding | undefined;
  for (const b of sb.inputs) {
    if (b.from >= 0) continue;
    if (b.extra?.['purpose'] === 'current_iteration' && !iter) iter = b;
    else fail(`port_map maps body Parameter '${label(b.param)}' to external port -1 without purpose="current_iteration"`);
  }
  const condOut = sb.outputs.find((o) => o.to < 0 && o.extra?.['purpose'] === 'execution_condition');
  if (!condOut) fail('the body has no execution_condition Result (special_body_ports body_condition_output_idx); ONNX Loop needs the body to compute the condition');
  for (const o of sb.outputs) if (o.to < 0 && o !== condOut) fail(`port_map maps a Result to external port -1 without purpose="execution_condition"`);
  if (condOut) {
    // OpenVINO's CPU plugin reads the condition as one boolean (measured on 2026.4: an f32[2]
    // condition Result is read, then refused at compile time); ONNX Loop's cond output is a
    // bool scalar (onnxruntime fails at run time on any other type).
    const t = c.typeOf(g.outputs[condOut.result]!);
    if (t && t.kind === 'tensor' && ((t.elem !== 'boolean' && t.elem !== 'dynamic') || notOneElement(t) !== null)) {
      fail(`the execution_condition Result is ${describeType(t)}; the condition is one boolean`);
    }
  }
  // ONNX's iteration_num is an int64 scalar; OpenVINO also takes an i32 and a shape [1] (the
  // body reads a Cast / Reshape of iteration_num then).
  let iterAs: { elem: 'i32' | 'i64'; rank: 0 | 1 } = { elem: 'i64', rank: 0 };
  if (iter) {
    const t = c.typeOf(iter.param);
    if (t && t.kind === 'tensor') {
      const rank = t.shape === null ? 0 : t.shape.length === 1 && t.shape[0] === 1 ? 1 : t.shape.length === 0 ? 0 : null;
      const elem = t.elem === 'i32' || t.elem === 'i64' ? t.elem : t.elem === 'dynamic' ? 'i64' : null;
      if (rank === null || elem === null) fail(`the current_iteration Parameter '${label(iter.param)}' is ${describeType(t)}; OpenVINO counts iterations in an i32 or i64 scalar or [1]`);
      else iterAs = { elem, rank };
    }
  }
  // Merged inputs (a back edge) are loop-carried values; the one merged from the execution
  // condition with the condition Result as back edge is ONNX's cond input; the rest are invariant.
  let condParam: Value | undefined;
  const carried: Carried[] = [];
  const invariant: InputBinding[] = [];
  // Sliced inputs (TensorIterator's form, which Loop-5 also takes): captured whole, cut in the
  // body at iteration_num as OpenVINO cuts them (tensor-iterator-loop.ts).
  const sliced: { b: InputBinding; part: { axis: number; step: number; reverse: boolean } }[] = [];
  for (const b of sb.inputs) {
    if (b.from < 0) continue;
    if (b.extra && 'axis' in b.extra) {
      const what = `sliced input '${label(b.param)}'`;
      const s = slicing(b.extra);
      if (typeof s === 'string') { fail(`${what}: ${s}`); continue; }
      if (edges.has(b.param)) { fail(`${what} is also the target of a back edge`); continue; }
      const part = slicedPart(what, s, c.rank(b.from), fail);
      if (part) sliced.push({ b, part });
      continue;
    }
    const r = edges.get(b.param);
    if (r === undefined) invariant.push(b);
    else if (b.from === 1 && condOut && r === condOut.result && !condParam) condParam = b.param;
    else carried.push({ param: b.param, from: b.from, result: r });
  }
  // Outputs: the last iteration's value of a carried Result is its final value; of any other
  // Result, the last slice of a scan output; concatenated outputs are scan outputs.
  const carriedOf = new Map<number, number>();
  carried.forEach((x, i) => { if (!carriedOf.has(x.result)) carriedOf.set(x.result, i); });
  const finals: { to: number; carried: number }[] = [];
  const concat: { to: number; result: number; axis: number; direct: boolean }[] = [];
  const last: { to: number; result: number }[] = [];
  const covered = new Set<number>();
  for (const o of sb.outputs) {
    if (o.to < 0) continue;
    covered.add(o.to);
    const e = o.extra ?? {};
    if (!('axis' in e)) {
      const i = carriedOf.get(o.result);
      if (i !== undefined) finals.push({ to: o.to, carried: i });
      else last.push({ to: o.to, result: o.result });
      continue;
    }
    const odd = ([['start', '0'], ['end', '-1'], ['stride', '1'], ['part_size', '1']] as const)
      .filter(([k, d]) => e[k] !== undefined && e[k] !== d).map(([k]) => `${k}=${e[k]}`);
    if (odd.length) { fail(`output ${o.to} concatenates with ${odd.join(', ')}; ONNX Loop stacks every iteration in order (start 0, end -1, stride 1, part_size 1)`); continue; }
    const res = g.outputs[o.result]!;
    const t = c.typeOf(res);
    const rank = t && t.kind === 'tensor' && t.shape !== null ? t.shape.length : null;
    let axis = Number(e['axis']);
    // The body's own Unsqueeze at axis 0 (OpenVINO's frontend writes Loop scan outputs so):
    // ONNX stacks the value before it.
    const p = res.producer;
    const direct = axis === 0 && p !== null && p.op === 'Unsqueeze' && p.inputs[1] != null && String(c.intsOf(p.inputs[1])) === '0';
    if (rank !== null && axis < 0) axis += rank;
    if (!direct && (!Number.isInteger(axis) || axis < 0 || (rank !== null && axis >= rank))) { fail(`output ${o.to} concatenates along axis ${e['axis']}, which the Result (${describeType(t)}) does not have`); continue; }
    if (!direct && (rank === null || t!.kind !== 'tensor' || t!.shape![axis] !== 1)) {
      fail(`output ${o.to} concatenates along axis ${axis} slices of type ${describeType(t)}; ONNX Loop stacks along a new axis, which equals it only where that dimension is known to be 1`);
      continue;
    }
    concat.push({ to: o.to, result: o.result, axis, direct });
  }
  if (sliced.length && c.opset < 10) c.unsupportedAttr('port_map', 'sliced inputs', 'the body cuts them with Slice-10: convert with --opset 10 or later', 10);
  node.outputs.forEach((_, k) => { if (!covered.has(k)) fail(`output ${k} is not in the port_map`); });
  node.outputs.forEach((v, k) => {
    const bad = typeProblem(c.typeOf(v), 'onnx');
    if (bad) fail(`output ${k} ('${v.label}') has type ${bad}, which ONNX cannot hold`);
  });
  if (!ok || !condOut) return;

  // M: absent for a constant negative trip count (no limit); int64 as ONNX requires.
  const trip = c.constInts(0);
  let m: Value | null = null;
  if (!(trip && trip.length === 1 && trip[0]! < 0n)) {
    m = c.input(0);
    if (m && c.elem(0) !== 'i64') m = c.emit('Cast', [m], { to: A.int(7n) })[0]!;
  }
  let cond = c.input(1);
  if (cond && c.elem(1) !== 'boolean') cond = c.emit('Cast', [cond], { to: A.int(9n) })[0]!;
  const nCarried = carried.length;
  const inputs: (Value | null)[] = [m, cond, ...carried.map((x) => c.input(x.from))];
  const capture = new Map<number, number>();
  for (const b of [...invariant, ...sliced.map((x) => x.b)]) {
    if (capture.has(b.from)) continue;
    capture.set(b.from, inputs.length);
    inputs.push(c.input(b.from));
  }
  // A reverse slice reads down from the end of its last whole part, computed before the loop.
  const tops = new Map<Value, number>();
  for (const { b, part } of sliced) {
    if (!part.reverse) continue;
    const n = c.emit('Gather', [c.emit('Shape', [c.input(b.from)])[0]!, i64Scalar(c, BigInt(part.axis))], { axis: A.int(0n) })[0]!;
    tops.set(b.param, inputs.length);
    inputs.push(lastPartEnd(c, n, part.step));
  }
  const scanResults = [...concat.map((x) => x.result), ...last.map((x) => x.result)];
  const outs = c.emit('Loop', inputs, {}, nCarried + scanResults.length);
  const loop = c.lastNode!;
  loop.meta['onnxInputCount'] = 2 + nCarried;
  const order = [condOut.result, ...carried.map((x) => x.result), ...scanResults];
  const direct = new Set(concat.flatMap((x, k) => (x.direct ? [1 + nCarried + k] : [])));
  const iterIndex = iter ? g.inputs.indexOf(iter.param) : -1;
  const onnxOp = (bg: Graph, op: string, ins: Value[], name: string, attrs: Record<string, ReturnType<typeof A.int>> = {}): Value => {
    const n = bg.addNode({ dialect: 'onnx', op, version: String(c.opset), name });
    for (const x of ins) n.addInput(x);
    for (const [key, a] of Object.entries(attrs)) n.attrs.set(key, a);
    return n.addOutput(null);
  };
  const params = new Map<Value, Value>();
  const slicedAt = new Map(sliced.map((x) => [g.inputs.indexOf(x.b.param), x]));
  const topParams: InputBinding[] = [];
  let iterationNum: Value | null = null;
  const db = c.body(loop, 'body', 'body', (i) => i, {
    // iteration_num first: the sliced inputs' parts are cut at it.
    inputs: [...(iterIndex >= 0 ? [iterIndex] : []), ...g.inputs.map((_, i) => i).filter((i) => i !== iterIndex)],
    param: (i, q, bg) => {
      params.set(g.inputs[i]!, q);
      const x = slicedAt.get(i);
      if (x) {
        iterationNum ??= bg.addInput(tensorType('i64', []), ['iteration_num']);
        let top: Value | null = null;
        if (x.part.reverse) {
          top = bg.addInput(tensorType('i64', []), [`${q.name || label(x.b.param)}/last_part_end`]);
          top.meta['onnxCapture'] = true;
          topParams.push({ param: top, from: tops.get(x.b.param)! });
        }
        return cutPart(c, bg, q, iterationNum, x.part, top, c.type(x.b.from), q.name || label(x.b.param));
      }
      if (i !== iterIndex) return q;
      iterationNum = q;
      if (iterAs.elem === 'i64' && iterAs.rank === 0) return q;
      const t = q.type;
      q.type = tensorType('i64', []);
      let v = iterAs.elem === 'i32' ? onnxOp(bg, 'Cast', [q], `${q.name || 'iteration_num'}/as_i32`, { to: A.int(6n) }) : q;
      if (iterAs.rank === 1) v = onnxOp(bg, 'Reshape', [v, bg.addInitializer(tensorFromInt64([1n]))], `${q.name || 'iteration_num'}/as_1d`);
      v.type = t;
      // The IR Parameter's names go to the value of its type (`ovir check` pairs them).
      v.names = q.names;
      q.names = [`${q.name || 'iteration'}/iteration_num`];
      return v;
    },
    results: order,
    result: (k, v, bg) => {
      if (!direct.has(k)) return v;
      // Stack the value the Unsqueeze took (the Unsqueeze itself then feeds nothing and is pruned).
      const p = v.producer;
      const x = p?.op === 'Unsqueeze' ? p.inputs[0] : null;
      if (!x) {
        // not an Unsqueeze on the ONNX side after all: take the added axis away in the body
        const sq = bg.addNode({ dialect: 'onnx', op: 'Squeeze', version: String(c.opset), name: `${v.name || 'scan'}/Squeeze` });
        sq.addInput(v);
        if (c.opset >= 13) sq.addInput(bg.addInitializer(tensorFromInt64([0n])));
        else sq.attrs.set('axes', A.ints([0n]));
        return sq.addOutput(null);
      }
      return x; // (a body input, or a value already written, gets an Identity from the converter)
    },
  });
  const P = (p: Value): Value => params.get(p)!;
  const iterQ = iterationNum ?? db.graph.addInput(tensorType('i64', []), ['iteration_num']);
  const condQ = condParam ? P(condParam) : db.graph.addInput(tensorType('boolean', []), ['cond_in']);
  // cond_in has the type of the execution condition (OpenVINO gives a merged Parameter its input's
  // shape; onnx's Loop inference checks the body's cond input against the node's).
  const condType = c.type(1);
  if (condType && condType.kind === 'tensor' && condType.shape !== null) condQ.type = tensorType('boolean', condType.shape);
  const formal = [iterQ, condQ, ...carried.map((x) => P(x.param))];
  const formalSet = new Set(formal);
  const rest = db.graph.inputs.filter((q) => !formalSet.has(q));
  db.graph.inputs.splice(0, db.graph.inputs.length, ...formal, ...rest);
  db.inputs = [
    ...(m ? [{ param: iterQ, from: 0 }] : []),
    { param: condQ, from: 1 },
    ...carried.map((x, i) => ({ param: P(x.param), from: 2 + i })),
    ...[...invariant, ...sliced.map((x) => x.b)].map((b) => ({ param: P(b.param), from: capture.get(b.from)! })),
    ...topParams,
  ];
  for (const b of [...invariant, ...sliced.map((x) => x.b)]) P(b.param).meta['onnxCapture'] = true;
  db.outputs = order.slice(1).map((_, k) => ({ result: 1 + k, to: k }));
  for (const f of finals) c.output(f.to, outs[f.carried]!);
  concat.forEach((x, k) => {
    let v = outs[nCarried + k]!;
    if (!x.direct) {
      v = onnxAxesOp(c, 'Squeeze', v, [BigInt(x.axis + 1)]);
      if (x.axis > 0) {
        const t = c.typeOf(g.outputs[x.result]!);
        const rank = t && t.kind === 'tensor' && t.shape ? t.shape.length : 0;
        const perm = [...Array.from({ length: x.axis }, (_, i) => BigInt(i + 1)), 0n, ...Array.from({ length: rank - 1 - x.axis }, (_, i) => BigInt(x.axis + 1 + i))];
        v = c.emit('Transpose', [v], { perm: A.ints(perm) })[0]!;
      }
    }
    c.output(x.to, v);
  });
  last.forEach((x, k) => {
    let stacked = outs[nCarried + concat.length + k]!;
    // A loop that runs no iteration gives such an output zeros of the Result's shape in OpenVINO
    // (as OpenVINO's TensorFlow frontend writes a tf.while_loop value the body never reads: no back
    // edge). ONNX has no last slice then: a slice of zeros goes before the iterations' values.
    const t = c.typeOf(g.outputs[x.result]!);
    const dims = t?.kind === 'tensor' && t.shape?.every((d): d is number => typeof d === 'number') ? [1, ...t.shape] : null;
    if (t?.kind === 'tensor' && dims && t.elem !== 'dynamic' && t.elem !== 'string') {
      const zeros = makeTensor(t.elem, dims, new Uint8Array(expectedByteLength({ elem: t.elem, dims })));
      stacked = c.emit('Concat', [c.constant(zeros), stacked], { axis: A.int(0n) })[0]!;
    }
    c.output(x.to, c.emit('Gather', [stacked, i64Scalar(c, -1n)], { axis: A.int(0n) })[0]!);
  });
}

export const LOOP: readonly OpMapping[] = [
  {
    onnx: { op: 'Loop', since: 1 },
    ir: { op: 'Loop', version: 'opset5' },
    toIr: loopToIr,
    toOnnx: loopToOnnx,
    // the loop-carried values: loopToIr converts the appended sequences and refuses the others, saying why
    sequenceInputs: (n) => Array.from({ length: Math.max(0, Number(n.metaView['onnxInputCount'] ?? n.inputs.length) - 2) }, (_, i) => 2 + i),
    note: 'loop-carried values ↔ merged inputs + back edges; scan outputs ↔ concatenated outputs (axis 0); a sequence appended to in each iteration and read by ConcatFromSequence → a concatenated output (ONNX → IR); iteration_num/cond ↔ special_body_ports; IR sliced inputs → a Slice at iteration_num',
  },
];
