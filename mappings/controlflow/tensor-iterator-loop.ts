import { A } from '../../src/graph/attr.js';
import type { Body, InputBinding } from '../../src/graph/body.js';
import type { Graph } from '../../src/graph/graph.js';
import { tensorFromBool, tensorFromInt64 } from '../../src/graph/tensor.js';
import { tensorType, type ValueType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { INT64_MAX, i64Const, i64Scalar, onnxAxesOp } from '../helpers.js';
import type { ConvertContext } from '../spec.js';
import type { Slicing, TiPortMap } from './port-map.js';

/**
 * IR TensorIterator-1 → ONNX Loop, for the port maps ONNX Scan cannot express (`scan.ts` writes
 * the rest as Scan): parts of more than one element, partial ranges, strides other than ±1, no
 * sliced input, last values of Results that are no back-edge source.
 *
 * What a TensorIterator computes is what OpenVINO runs (its CPU plugin, measured on 2026.4 with
 * TensorIterators built by OpenVINO's Python API, test/conformance/tensor-iterator-loop.test.ts):
 * - a sliced input of length n along `axis` gives each iteration a part of |stride| elements
 *   (`part_size` must equal |stride|: otherwise the plugin refuses the IR); start and end count
 *   from n + 1 when negative; the iterations are (hi − lo) / |stride| over [lo, hi) =
 *   [start, end) for a positive stride and [end, start) for a negative one;
 * - the parts are read from index 0 upwards (stride > 0) or from the last whole part
 *   ⌊n / |stride|⌋ · |stride| − |stride| downwards (stride < 0): the plugin does not offset them by
 *   `start`, although the spec reads start as where iteration begins, so a range that does not
 *   begin at its end of the axis reads the parts OpenVINO reads, not the spec's;
 * - with no sliced input the count is |end − start| / part_size of the first concatenated output
 *   (TensorIterator::validate_and_infer_types), or 1 when there is none;
 * - a concatenated output joins the iterations' values (each |stride| along `axis`) in iteration
 *   order, or in reverse for a negative stride; its start/end only count iterations;
 * - any other output is the last iteration's value of its Result.
 *
 * The ONNX Loop gets that count as M (Shape/Gather/Add/Div of the first sliced input, computed
 * before the loop) and a constant true cond; each sliced input is captured whole and cut in the body with a
 * Slice at iteration_num; merged inputs are loop-carried values; concatenated outputs and last
 * values are scan outputs (stacked on axis 0), then reversed (negative stride), moved to `axis`
 * and merged with it (Transpose, then Squeeze or Reshape); a last value is Gather(-1) of its scan.
 */

const INT64_MIN = -(1n << 63n);

/** A linear form k · (n + 1) + b of a sliced input's length n (start and end count from n + 1 when negative). */
interface Lin { readonly k: number; readonly b: number }
const bound = (x: number): Lin => (x < 0 ? { k: 1, b: x } : { k: 0, b: x });

/** The half-open range [lo, hi) a sliced input's iterations cover, as OpenVINO's CPU plugin reads start/end. */
function range(s: Slicing): { lo: Lin; hi: Lin } {
  const start = bound(s.start);
  const end = bound(s.end);
  return s.stride > 0 ? { lo: start, hi: end } : { lo: end, hi: start };
}

interface Sliced { param: number; from: number; axis: number; step: number; reverse: boolean }
interface Joined { result: number; to: number; axis: number; step: number; reverse: boolean; rank: number }

export function tensorIteratorAsLoop(c: ConvertContext, body: Body, pm: TiPortMap): void {
  const g = body.graph;
  const label = (p: number): string => String(g.inputs[p]?.metaView['layerName'] ?? g.inputs[p]?.label ?? p);
  if (c.opset < 11) {
    c.unsupportedAttr('port_map', 'a TensorIterator that is no Scan', 'its ONNX form is a Loop slicing the inputs at iteration_num (Loop-11, Slice-10): convert with --opset 11 or later', 11);
    return;
  }
  let ok = true;
  const fail = (m: string): void => { c.error(m); ok = false; };
  const stepOf = (what: string, s: Slicing): number | null => partStep(what, s, fail);

  const sliced: Sliced[] = [];
  for (const x of pm.sliced) {
    const r = slicedPart(`sliced input '${label(x.param)}'`, x.s, c.rank(x.from), fail);
    if (r) sliced.push({ param: x.param, from: x.from, ...r });
  }
  const joined: Joined[] = [];
  for (const o of pm.concat) {
    const what = `concatenated output ${o.to}`;
    const step = stepOf(what, o.s);
    const t = c.typeOf(g.outputs[o.result]!);
    const shape = t && t.kind === 'tensor' ? t.shape : null;
    if (shape === null) { fail(`${what}: the body Result's rank is not known (the iterations are joined along one of its axes)`); continue; }
    const rank = shape.length;
    const axis = o.s.axis < 0 ? o.s.axis + Math.max(rank, 1) : o.s.axis;
    if (axis < 0 || axis >= Math.max(rank, 1)) { fail(`${what}: axis ${o.s.axis} is out of range for the body Result's rank ${rank}`); continue; }
    const d = rank === 0 ? 1 : shape[axis];
    if (step !== null && typeof d === 'number' && d !== step) { fail(`${what}: the body Result has ${d} elements along axis ${axis} per iteration, the port map joins parts of ${step} (OpenVINO refuses it)`); continue; }
    if (step !== null) joined.push({ result: o.result, to: o.to, axis, step, reverse: o.s.stride < 0, rank });
  }
  if (!ok) return;

  // The iteration count, and for a reverse slice the end of its last whole part, from the first
  // sliced input's run-time length (OpenVINO checks that every sliced input gives the same count).
  const lengths = new Map<Sliced, Value>();
  const lengthOf = (x: Sliced): Value => {
    let n = lengths.get(x);
    if (!n) {
      const shape = c.emit('Shape', [c.input(x.from)])[0]!;
      n = c.emit('Gather', [shape, i64Scalar(c, BigInt(x.axis))], { axis: A.int(0n) })[0]!;
      lengths.set(x, n);
    }
    return n;
  };
  const divide = (v: Value, step: number): Value => (step === 1 ? v : c.emit('Div', [v, i64Scalar(c, BigInt(step))])[0]!);
  let trip: Value;
  const first = sliced[0];
  const firstSlice = pm.sliced[0];
  if (first && firstSlice) {
    const { lo, hi } = range(firstSlice.s);
    const k = hi.k - lo.k;
    const b = hi.b - lo.b;
    if (k === 0) trip = i64Scalar(c, BigInt(Math.floor(b / first.step)));
    else {
      const n1 = b + 1 === 0 ? lengthOf(first) : c.emit('Add', [lengthOf(first), i64Scalar(c, BigInt(b + 1))])[0]!;
      trip = divide(n1, first.step);
    }
  } else {
    const o = pm.concat[0];
    trip = i64Scalar(c, o ? BigInt(Math.trunc(Math.abs(o.s.end - o.s.start) / o.s.part)) : 1n);
  }
  const tops = new Map<number, Value>();
  for (const x of sliced) if (x.reverse) tops.set(x.param, lastPartEnd(c, lengthOf(x), x.step));

  // Loop inputs: M, a constant true cond, the merged inputs' initial values, then every outer value the body
  // reads (invariant inputs, the sliced inputs whole, the reverse slices' ends), once each.
  const inputs: (Value | null)[] = [trip, c.constant(tensorFromBool([true], [])), ...pm.merged.map((m) => c.input(m.from))];
  const captureIndex = new Map<Value, number>();
  const captureOf = (v: Value): number => {
    let k = captureIndex.get(v);
    if (k === undefined) { k = inputs.length; inputs.push(v); captureIndex.set(v, k); }
    return k;
  };
  const outerOf = new Map<number, Value>();
  for (const x of [...pm.invariant, ...sliced]) {
    const v = c.input(x.from);
    if (!v) { c.error(`input ${x.from} is empty`); return; }
    outerOf.set(x.param, v);
    captureOf(v);
  }
  for (const v of tops.values()) captureOf(v);
  const nCarried = pm.merged.length;
  // Last values of Results that are no back-edge source: the last slice of a scan output.
  const lastScans = [...new Set(pm.last.map((o) => o.result).filter((r) => !pm.merged.some((m) => m.result === r)))];
  // One scan output per Result, however many outputs join or take the last of it.
  const scanned = [...new Set([...joined.map((o) => o.result), ...lastScans])];
  const stackedOf = (r: number): number => nCarried + scanned.indexOf(r);
  // Body outputs: cond (written in the body below; the slot names any Result), carried, scans.
  const order = [pm.merged[0]?.result ?? pm.concat[0]?.result ?? pm.last[0]?.result ?? 0, ...pm.merged.map((m) => m.result), ...scanned];
  const outs = c.emit('Loop', inputs, {}, nCarried + scanned.length);
  const loop = c.lastNode!;
  loop.meta['onnxInputCount'] = 2 + nCarried;

  // The body: iteration_num, cond, carried values, captures.
  const onnx = (bg: Graph, op: string, ins: readonly Value[], name: string, attrs: Record<string, ReturnType<typeof A.int> | ReturnType<typeof A.ints>> = {}): Value => {
    const n = bg.addNode({ dialect: 'onnx', op, version: String(c.opset), name });
    for (const v of ins) n.addInput(v);
    for (const [k, a] of Object.entries(attrs)) n.attrs.set(k, a);
    return n.addOutput(null);
  };
  let iterQ: Value | null = null;
  const extra: InputBinding[] = [];
  const iteration = (bg: Graph): Value => (iterQ ??= bg.addInput(tensorType('i64', []), ['iteration_num']));
  const slicedBy = new Map(sliced.map((x) => [x.param, x]));
  const params = new Map<number, Value>();
  const db = c.body(loop, 'body', 'body', (i) => i, {
    param: (i, q, bg) => {
      params.set(i, q);
      const x = slicedBy.get(i);
      if (!x) return q;
      let top: Value | null = null;
      if (x.reverse) {
        top = bg.addInput(tensorType('i64', []), [`${q.name || label(i)}/last_part_end`]);
        top.meta['onnxCapture'] = true;
        extra.push({ param: top, from: captureIndex.get(tops.get(i)!)! });
      }
      return cutPart(c, bg, q, iteration(bg), x, top, c.type(x.from), q.name || label(i));
    },
    results: order,
    result: (k, v, bg) => (k === 0 ? onnx(bg, 'Identity', [condQ!], 'cond_out') : v),
  });
  iteration(db.graph);
  const condQ: Value = db.graph.addInput(tensorType('boolean', []), ['cond_in']);
  const carried = pm.merged.map((m) => params.get(m.param)!);
  const formal = [iterQ!, condQ, ...carried];
  const formalSet = new Set(formal);
  const rest = db.graph.inputs.filter((q) => !formalSet.has(q));
  db.graph.inputs.splice(0, db.graph.inputs.length, ...formal, ...rest);
  db.inputs = [
    { param: iterQ!, from: 0 },
    { param: condQ, from: 1 },
    ...carried.map((q, j) => ({ param: q, from: 2 + j })),
    ...[...pm.invariant, ...sliced].map((x) => ({ param: params.get(x.param)!, from: captureOf(outerOf.get(x.param)!) })),
    ...extra,
  ];
  for (const b of db.inputs) if (b.from >= 2 + nCarried) b.param.meta['onnxCapture'] = true;
  db.outputs = order.slice(1).map((_, k) => ({ result: 1 + k, to: k }));

  // Outputs.
  pm.last.forEach((o) => {
    const j = pm.merged.findIndex((m) => m.result === o.result);
    if (j >= 0) c.output(o.to, outs[j]!);
  });
  joined.forEach((o) => {
    let v = outs[stackedOf(o.result)]!;
    if (o.reverse) v = c.emit('Slice', [v, i64Const(c, [-1n]), i64Const(c, [INT64_MIN]), i64Const(c, [0n]), i64Const(c, [-1n])])[0]!;
    if (o.rank > 0) {
      if (o.axis > 0) {
        const perm = [...Array.from({ length: o.axis }, (_, d) => BigInt(d + 1)), 0n, ...Array.from({ length: o.rank - o.axis }, (_, d) => BigInt(o.axis + 1 + d))];
        v = c.emit('Transpose', [v], { perm: A.ints(perm) })[0]!;
      }
      v = o.step === 1 ? onnxAxesOp(c, 'Squeeze', v, [BigInt(o.axis + 1)]) : mergeAt(c, v, o.axis);
    }
    c.output(o.to, v);
  });
  lastScans.forEach((r) => {
    const stacked = outs[stackedOf(r)]!;
    const v = c.emit('Gather', [stacked, i64Scalar(c, -1n)], { axis: A.int(0n) })[0]!;
    for (const p of pm.last) if (p.result === r) c.output(p.to, v);
  });
  c.node.outputs.forEach((_, i) => {
    if (!pm.last.some((o) => o.to === i) && !pm.concat.some((o) => o.to === i)) c.unused(i);
  });
}

/** `v` with dims a and a + 1 merged into one (a Reshape to the run-time shape). */
function mergeAt(c: ConvertContext, v: Value, a: number): Value {
  const shape = c.emit('Shape', [v])[0]!;
  const parts: Value[] = [];
  if (a > 0) parts.push(c.emit('Slice', [shape, i64Const(c, [0n]), i64Const(c, [BigInt(a)])])[0]!);
  parts.push(i64Const(c, [-1n]));
  parts.push(c.emit('Slice', [shape, i64Const(c, [BigInt(a + 2)]), i64Const(c, [INT64_MAX])])[0]!);
  return c.emit('Reshape', [v, c.emit('Concat', parts, { axis: A.int(0n) })[0]!])[0]!;
}

/** The step of a sliced or concatenated entry: |stride|, which part_size must equal (OpenVINO refuses the IR otherwise). */
export function partStep(what: string, s: Slicing, fail: (m: string) => void): number | null {
  if (s.stride === 0) { fail(`${what}: stride 0 (OpenVINO refuses it: no iteration advances)`); return null; }
  const step = Math.abs(s.stride);
  if (s.part !== step) {
    fail(`${what}: part_size ${s.part} with stride ${s.stride} (OpenVINO's CPU plugin moves parts of |stride| elements and checks them against part_size: it refuses this IR)`);
    return null;
  }
  return step;
}

/** A sliced input's part as OpenVINO cuts it (axis normalized for the input's rank); null after a diagnostic. */
export function slicedPart(what: string, s: Slicing, rank: number | null, fail: (m: string) => void): { axis: number; step: number; reverse: boolean } | null {
  const step = partStep(what, s, fail);
  if (step === null) return null;
  const axis = rank === null ? null : s.axis < 0 ? s.axis + rank : s.axis;
  if (axis === null || axis < 0 || (rank !== null && axis >= rank)) { fail(`${what}: axis ${s.axis} ${rank === null ? "needs the input's rank, which is not known" : `is out of range for rank ${rank}`}`); return null; }
  const { lo, hi } = range(s);
  if (hi.k === lo.k && hi.b - lo.b < step) { fail(`${what}: start ${s.start}, end ${s.end}, stride ${s.stride} cover no part (OpenVINO refuses it)`); return null; }
  if (hi.k < lo.k) { fail(`${what}: start ${s.start}, end ${s.end}, stride ${s.stride}: the range ends before it begins for every length but the shortest (OpenVINO refuses it)`); return null; }
  return { axis, step, reverse: s.stride < 0 };
}

/** Outside the loop: where the last whole part of a reverse slice ends, ⌊n / step⌋ · step for length n. */
export function lastPartEnd(c: ConvertContext, n: Value, step: number): Value {
  if (step === 1) return n;
  const parts = c.emit('Div', [n, i64Scalar(c, BigInt(step))])[0]!;
  return c.emit('Mul', [parts, i64Scalar(c, BigInt(step))])[0]!;
}

/**
 * In a loop body: the part of captured input `whole` that iteration `it` (an i64 scalar) reads —
 * from it · step (forward) or from top − (it + 1) · step (reverse, `top` from lastPartEnd) — a
 * Slice of `step` elements along `axis`. The part takes the Parameter's names (`ovir check`
 * pairs it with the IR's part); the whole, written as a reference to the outer value, is renamed.
 */
export function cutPart(c: ConvertContext, bg: Graph, whole: Value, it: Value, x: { axis: number; step: number; reverse: boolean }, top: Value | null, wholeType: ValueType | null, name: string): Value {
  const node = (op: string, ins: readonly Value[], suffix: string): Value => {
    const n = bg.addNode({ dialect: 'onnx', op, version: String(c.opset), name: `${name}/${suffix}` });
    for (const v of ins) n.addInput(v);
    return n.addOutput(null);
  };
  const i64s = (values: number[]): Value => bg.addInitializer(tensorFromInt64(values.map(BigInt)));
  const partType = whole.type;
  whole.type = wholeType && wholeType.kind === 'tensor' ? wholeType : null;
  const it1 = node('Reshape', [it, i64s([1])], 'iteration_1d');
  const scaled = (v: Value): Value => (x.step === 1 ? v : node('Mul', [v, i64s([x.step])], 'times_stride'));
  const begin = x.reverse && top
    ? node('Sub', [node('Reshape', [top, i64s([1])], 'last_part_end_1d'), scaled(node('Add', [it1, i64s([1])], 'next'))], 'begin')
    : scaled(it1);
  const end = node('Add', [begin, i64s([x.step])], 'end');
  const part = node('Slice', [whole, begin, end, i64s([x.axis])], 'part');
  part.type = partType;
  part.names = whole.names;
  whole.names = [`${name}/whole`];
  return part;
}
