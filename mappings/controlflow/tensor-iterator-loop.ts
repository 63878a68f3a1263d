import { A } from '../../src/graph/attr.js';
import type { Body, InputBinding } from '../../src/graph/body.js';
import type { Graph } from '../../src/graph/graph.js';
import { tensorFromBool, tensorFromInt64 } from '../../src/graph/tensor.js';
import { tensorType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
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

const INT64_MAX = (1n << 63n) - 1n;
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
  const label = (p: number): string => String(g.inputs[p]?.meta['layerName'] ?? g.inputs[p]?.label ?? p);
  if (c.opset < 11) {
    c.unsupportedAttr('port_map', 'a TensorIterator that is no Scan', 'its ONNX form is a Loop slicing the inputs at iteration_num (Loop-11, Slice-10): convert with --opset 11 or later', 11);
    return;
  }
  let ok = true;
  const fail = (m: string): void => { c.error(m); ok = false; };
  const stepOf = (what: string, s: Slicing): number | null => {
    if (s.stride === 0) { fail(`${what}: stride 0 (OpenVINO refuses it: no iteration advances)`); return null; }
    const step = Math.abs(s.stride);
    if (s.part !== step) {
      fail(`${what}: part_size ${s.part} with stride ${s.stride} (OpenVINO's CPU plugin moves parts of |stride| elements and checks them against part_size: it refuses this IR)`);
      return null;
    }
    return step;
  };

  const sliced: Sliced[] = [];
  for (const x of pm.sliced) {
    const what = `sliced input '${label(x.param)}'`;
    const step = stepOf(what, x.s);
    if (step === null) continue;
    const rank = c.rank(x.from);
    const axis = rank === null ? null : x.s.axis < 0 ? x.s.axis + rank : x.s.axis;
    if (axis === null || axis < 0 || (rank !== null && axis >= rank)) { fail(`${what}: axis ${x.s.axis} ${rank === null ? "needs the input's rank, which is not known" : `is out of range for rank ${rank}`}`); continue; }
    const { lo, hi } = range(x.s);
    if (hi.k === lo.k && hi.b - lo.b < step) { fail(`${what}: start ${x.s.start}, end ${x.s.end}, stride ${x.s.stride} cover no part (OpenVINO refuses it)`); continue; }
    if (hi.k < lo.k) { fail(`${what}: start ${x.s.start}, end ${x.s.end}, stride ${x.s.stride}: the range ends before it begins for every length but the shortest (OpenVINO refuses it)`); continue; }
    sliced.push({ param: x.param, from: x.from, axis, step, reverse: x.s.stride < 0 });
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
  for (const x of sliced) {
    if (!x.reverse) continue;
    const n = lengthOf(x);
    tops.set(x.param, x.step === 1 ? n : c.emit('Mul', [divide(n, x.step), i64Scalar(c, BigInt(x.step))])[0]!);
  }

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
  // Last values of Results that are no back-edge source: one scan output per Result.
  const lastScans = [...new Set(pm.last.map((o) => o.result).filter((r) => !pm.merged.some((m) => m.result === r)))];
  // Body outputs: cond (written in the body below; the slot names any Result), carried, scans.
  const order = [pm.merged[0]?.result ?? pm.concat[0]?.result ?? pm.last[0]?.result ?? 0, ...pm.merged.map((m) => m.result), ...joined.map((o) => o.result), ...lastScans];
  const nCarried = pm.merged.length;
  const outs = c.emit('Loop', inputs, {}, nCarried + joined.length + lastScans.length);
  const loop = c.lastNode!;
  loop.meta['onnxInputCount'] = 2 + nCarried;

  // The body: iteration_num, cond, carried values, captures.
  const onnx = (bg: Graph, op: string, ins: readonly Value[], name: string, attrs: Record<string, ReturnType<typeof A.int> | ReturnType<typeof A.ints>> = {}): Value => {
    const n = bg.addNode({ dialect: 'onnx', op, version: String(c.opset), name });
    for (const v of ins) n.addInput(v);
    for (const [k, a] of Object.entries(attrs)) n.attrs.set(k, a);
    return n.addOutput(null);
  };
  const i64s = (bg: Graph, values: number[]): Value => bg.addInitializer(tensorFromInt64(values.map(BigInt)));
  let iterQ: Value | null = null;
  let iter1: Value | null = null;
  const extra: InputBinding[] = [];
  const iteration = (bg: Graph): Value => {
    iterQ ??= bg.addInput(tensorType('i64', []), ['iteration_num']);
    iter1 ??= onnx(bg, 'Reshape', [iterQ, i64s(bg, [1])], 'iteration_num/as_1d');
    return iter1;
  };
  const slicedBy = new Map(sliced.map((x) => [x.param, x]));
  const params = new Map<number, Value>();
  const db = c.body(loop, 'body', 'body', (i) => i, {
    param: (i, q, bg) => {
      params.set(i, q);
      const x = slicedBy.get(i);
      if (!x) return q;
      // The whole input is captured; the part is cut at iteration_num.
      const partType = q.type;
      const whole = c.type(x.from);
      q.type = whole && whole.kind === 'tensor' ? whole : null;
      const name = q.name || label(i);
      const it = iteration(bg);
      let begin: Value;
      const scaled = (v: Value): Value => (x.step === 1 ? v : onnx(bg, 'Mul', [v, i64s(bg, [x.step])], `${name}/times_stride`));
      if (!x.reverse) begin = scaled(it);
      else {
        const top = bg.addInput(tensorType('i64', []), [`${name}/last_part_end`]);
        top.meta['onnxCapture'] = true;
        extra.push({ param: top, from: captureIndex.get(tops.get(i)!)! });
        const top1 = onnx(bg, 'Reshape', [top, i64s(bg, [1])], `${name}/last_part_end_1d`);
        begin = onnx(bg, 'Sub', [top1, scaled(onnx(bg, 'Add', [it, i64s(bg, [1])], `${name}/next`))], `${name}/begin`);
      }
      const end = onnx(bg, 'Add', [begin, i64s(bg, [x.step])], `${name}/end`);
      const part = onnx(bg, 'Slice', [q, begin, end, i64s(bg, [x.axis])], `${name}/part`);
      part.type = partType;
      // The part keeps the Parameter's names (`ovir check` pairs it with the TensorIterator's
      // part); the captured whole is written as a reference to the outer value.
      part.names = q.names;
      q.names = [`${name}/whole`];
      return part;
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
  joined.forEach((o, k) => {
    let v = outs[nCarried + k]!;
    if (o.reverse) v = c.emit('Slice', [v, i64Const(c, [-1n]), i64Const(c, [INT64_MIN]), i64Const(c, [0n]), i64Const(c, [-1n])])[0]!;
    if (o.rank > 0) {
      if (o.axis > 0) {
        const perm = [...Array.from({ length: o.axis }, (_, d) => BigInt(d + 1)), 0n, ...Array.from({ length: o.rank - o.axis }, (_, d) => BigInt(o.axis + 1 + d))];
        v = c.emit('Transpose', [v], { perm: A.ints(perm) })[0]!;
      }
      v = o.step === 1 ? squeeze(c, v, o.axis + 1) : mergeAt(c, v, o.axis);
    }
    c.output(o.to, v);
  });
  lastScans.forEach((r, k) => {
    const stacked = outs[nCarried + joined.length + k]!;
    const v = c.emit('Gather', [stacked, i64Scalar(c, -1n)], { axis: A.int(0n) })[0]!;
    for (const p of pm.last) if (p.result === r) c.output(p.to, v);
  });
  c.node.outputs.forEach((_, i) => {
    if (!pm.last.some((o) => o.to === i) && !pm.concat.some((o) => o.to === i)) c.unused(i);
  });
}

/** ONNX Squeeze of axis `a` in the form of the target opset (axes an input from 13). */
function squeeze(c: ConvertContext, v: Value, a: number): Value {
  return c.opset >= 13 ? c.emit('Squeeze', [v, i64Const(c, [BigInt(a)])])[0]! : c.emit('Squeeze', [v], { axes: A.ints([BigInt(a)]) })[0]!;
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
