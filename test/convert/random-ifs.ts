import { A, tensorFromBool, tensorFromFloat32, tensorFromInt64, tensorType, type Graph, type Value } from '../../src/graph/index.js';
import { broadcastDims } from '../../src/convert/fold-ops.js';
import type { Builder } from './builder.js';

/**
 * Random nested If models, the same in either dialect, from a seed: Ifs nested up to four levels
 * deep whose branches read outer values of any enclosing scope (ONNX scoping: captures through
 * every level between; IR: Parameters bound level by level), give an outer value, an initializer
 * of their own or a computed value as a branch output, give outputs of different dims in their two
 * branches (the If's merge rules), and take their conditions from a graph input, its negation, or
 * the data (ReduceSum > 0, computed inside a branch too). Every op is shape-checked as it is
 * made, so each model is valid; which branches run is left to the inputs.
 */
export interface RandomIfsOptions {
  /** Deepest nesting of Ifs (main graph = 0). */
  readonly maxDepth?: number;
  /**
   * ONNX only: Loops too (2–3 iterations, one carried value of fixed dims, one scan output), in
   * any graph, with Ifs in their bodies and Loops in branches.
   */
  readonly loops?: boolean;
}

/** A value the generator may read, with its dims (null: its rank is known, its dims vary by branch). */
interface Known { readonly v: Value; readonly dims: readonly number[] | null; readonly rank: number }

const OPS = {
  onnx: { add: 'Add', sub: 'Sub', mul: 'Mul', neg: 'Neg', relu: 'Relu', tanh: 'Tanh', greater: 'Greater', not: 'Not', concat: 'Concat', reduceSum: 'ReduceSum' },
  ov: { add: 'Add', sub: 'Subtract', mul: 'Multiply', neg: 'Negative', relu: 'Relu', tanh: 'Tanh', greater: 'Greater', not: 'LogicalNot', concat: 'Concat', reduceSum: 'ReduceSum' },
} as const;

export function randomIfs(b: Builder, seed: number, opts: RandomIfsOptions = {}): void {
  let s = (seed * 2654435761) >>> 0 || 1;
  const rnd = (): number => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 2 ** 32; };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const ops = OPS[b.dialect];
  const maxDepth = opts.maxDepth ?? 4;
  const loops = opts.loops === true && b.dialect === 'onnx';
  let made = 0;
  const name = (what: string): string => `${what}_${made++}`;

  const cond = b.input('cond', 'boolean', []);
  const data: Known[] = [
    { v: b.input('x', 'f32', [2, 3]), dims: [2, 3], rank: 2 },
    { v: b.input('y', 'f32', [3]), dims: [3], rank: 1 },
    { v: b.input('z', 'f32', [2, 1]), dims: [2, 1], rank: 2 },
  ];

  /** A constant of `dims` with seeded values, in graph `g`. */
  const constant = (g: Graph, dims: readonly number[]): Known => {
    const n = dims.reduce((p, d) => p * d, 1);
    const values = Array.from({ length: n }, () => Math.round((rnd() * 4 - 2) * 8) / 8);
    return { v: b.init(name('c'), tensorFromFloat32(values, [...dims]), g), dims, rank: dims.length };
  };

  /** Neg, Relu or Tanh of `k` in `g` (its dims kept). */
  const unary = (g: Graph, k: Known): Known => {
    const kind = pick([ops.neg, ops.relu, ops.tanh]);
    return { v: b.op(g, kind, [k.v], name(kind)), dims: k.dims, rank: k.rank };
  };

  const sameDims = (x: readonly number[] | null, y: readonly number[]): boolean => x !== null && x.length === y.length && x.every((d, i) => d === y[i]);

  /** A constant i64 vector in `g` (axes, perm). */
  const ints = (g: Graph, values: readonly number[]): Value => b.init(name('i'), tensorFromInt64(values.map(BigInt)), g);

  /**
   * One op in `g` from the values visible there (`scope`): unary, binary (broadcast), Concat,
   * Transpose, MatMul or ReduceMax (keepdims) — ops whose output dims follow from their inputs'.
   */
  const op = (g: Graph, scope: Known[]): Known => {
    const r = rnd();
    const a = pick(scope);
    if (r < 0.3 || a.dims === null) return unary(g, a);
    if (r < 0.65) {
      const partners = scope.filter((k) => k.dims !== null && broadcastDims(a.dims!, k.dims) !== null);
      const other = partners.length && rnd() < 0.8 ? pick(partners) : constant(g, a.dims.slice(Math.floor(rnd() * a.dims.length)));
      const dims = broadcastDims(a.dims, other.dims!)!;
      const kind = pick([ops.add, ops.sub, ops.mul]);
      const [l, rr] = rnd() < 0.5 ? [a, other] : [other, a];
      return { v: b.op(g, kind, [l.v, rr.v], name(kind)), dims, rank: dims.length };
    }
    if (r < 0.75 || a.rank !== 2) {
      if (r >= 0.9) {
        // ReduceMax over one axis, kept
        const axis = Math.floor(rnd() * a.rank);
        const dims = a.dims.map((d, i) => (i === axis ? 1 : d));
        const v = b.dialect === 'onnx'
          ? b.op(g, 'ReduceMax', [a.v], name('ReduceMax'), { axes: A.ints([axis]), keepdims: A.int(1) })
          : b.op(g, 'ReduceMax', [a.v, ints(g, [axis])], name('ReduceMax'), { keep_dims: A.raw('true') });
        return { v, dims, rank: dims.length };
      }
      const same = scope.filter((k) => k.dims !== null && k.rank === a.rank && k.dims.slice(1).every((d, i) => d === a.dims![i + 1]));
      const other = pick(same);
      const dims = [a.dims[0]! + other.dims![0]!, ...a.dims.slice(1)];
      return { v: b.op(g, ops.concat, [a.v, other.v], name('Concat'), { axis: A.int(0) }), dims, rank: dims.length };
    }
    const [m, k] = a.dims as [number, number];
    if (r < 0.85) {
      const v = b.dialect === 'onnx'
        ? b.op(g, 'Transpose', [a.v], name('Transpose'), { perm: A.ints([1, 0]) })
        : b.op(g, 'Transpose', [a.v, ints(g, [1, 0])], name('Transpose'));
      return { v, dims: [k, m], rank: 2 };
    }
    // MatMul [m, k] × [k] or [k, n]
    const partners = scope.filter((x) => x.dims !== null && (x.rank === 1 || x.rank === 2) && x.dims[0] === k);
    const other = partners.length && rnd() < 0.7 ? pick(partners) : constant(g, rnd() < 0.5 ? [k] : [k, 1 + Math.floor(rnd() * 3)]);
    const dims = other.rank === 1 ? [m] : [m, other.dims![1]!];
    return { v: b.op(g, 'MatMul', [a.v, other.v], name('MatMul')), dims, rank: dims.length };
  };

  /** An If condition in `g`: the graph input, its negation, or ReduceSum(data) > 0. */
  const condition = (g: Graph, scope: Known[]): Value => {
    const r = rnd();
    if (r < 0.35) return cond;
    if (r < 0.55) return b.op(g, ops.not, [cond], name('Not'));
    const a = pick(scope.filter((k) => k.dims !== null));
    const sum = b.dialect === 'onnx'
      ? b.op(g, ops.reduceSum, [a.v], name('ReduceSum'), { keepdims: A.int(0) })
      : b.op(g, ops.reduceSum, [a.v, b.init(name('axes'), tensorFromInt64(Array.from({ length: a.rank }, (_, i) => BigInt(i))), g)], name('ReduceSum'), { keep_dims: A.raw('false') });
    return b.op(g, ops.greater, [sum, b.init(name('zero'), tensorFromFloat32([0], []), g)], name('Greater'));
  };

  /** The value a branch gives for an output that must have `rank`: outer, own initializer, or computed. */
  const branchOutput = (g: Graph, scope: Known[], own: Known[], rank: number): Known => {
    const r = rnd();
    const ofRank = (ks: Known[]) => ks.filter((k) => k.rank === rank);
    if (r < 0.2 && ofRank(scope).length) {
      // an outer value (or an own one) as it is: no node — except with Loops, where an outer value
      // goes through an Identity: onnxruntime refuses a subgraph output naming an outer value, and
      // the fallback reference (onnx's evaluator) stacks Loop scan outputs of rank ≥ 2 wrongly (np.vstack)
      const k = pick(ofRank(scope));
      return loops && k.v.graph !== g ? { ...k, v: b.op(g, 'Identity', [k.v], name('Identity')) } : k;
    }
    if (r < 0.3) return constant(g, pick(rank === 1 ? [[3], [1], [4]] : [[2, 3], [1, 3], [2, 1]]));
    const candidates = ofRank(own);
    if (candidates.length) return pick(candidates);
    // a unary op of a visible value of that rank (an op of two may broadcast to another rank)
    const visible = ofRank(scope);
    if (!visible.length) return constant(g, rank === 1 ? [3] : [2, 3]);
    return unary(g, pick(visible));
  };

  /** Fills graph `g` (depth `depth`) with a few ops and Ifs; returns what it computed. */
  const fill = (g: Graph, outer: Known[], depth: number): Known[] => {
    const own: Known[] = [];
    const steps = 1 + Math.floor(rnd() * 3);
    for (let i = 0; i < steps; i++) {
      const scope = [...outer, ...own];
      if (depth < maxDepth && ((depth === 0 && i === 0) || rnd() < (depth === 0 ? 0.8 : 0.45))) {
        own.push(...(loops && rnd() < 0.35 ? loopNode(g, scope, depth) : ifNode(g, scope, depth)));
      } else own.push(op(g, scope));
    }
    return own;
  };

  /** An If in `g` with 1–2 outputs; each output's rank is fixed, its dims may differ by branch. */
  const ifNode = (g: Graph, scope: Known[], depth: number): Known[] => {
    const c = condition(g, scope);
    const ranks = Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => pick([1, 2]));
    const n = b.ifNode(g, c, ranks.map(() => name('out')), name('If'));
    const results: Known[][] = [];
    for (const key of b.dialect === 'onnx' ? ['then_branch', 'else_branch'] : ['then_body', 'else_body']) {
      const body = b.body(n, key);
      const own = fill(body, scope, depth + 1);
      // distinct values (a value given twice is given once more through a Relu)
      const given = new Set<Value>();
      const outs = ranks.map((rank) => {
        const k = branchOutput(body, [...scope, ...own], own, rank);
        const out = given.has(k.v) ? { v: b.op(body, ops.relu, [k.v], name('Relu')), dims: k.dims, rank } : k;
        given.add(out.v);
        return out;
      });
      b.results(body, outs.map((k) => k.v));
      results.push(outs);
    }
    return ranks.map((rank, k) => {
      const [t, e] = [results[0]![k]!, results[1]![k]!];
      const same = e.dims !== null && sameDims(t.dims, e.dims);
      return { v: n.outputs[k]!, dims: same ? t.dims : null, rank };
    });
  };

  /**
   * An ONNX Loop in `g`: a constant trip count, condition true, one carried value (next = carried +
   * something of its dims computed in the body) and one scan output; its body is filled like a branch.
   */
  const loopNode = (g: Graph, scope: Known[], depth: number): Known[] => {
    const trips = 2 + Math.floor(rnd() * 2);
    const carried = pick(scope.filter((k) => k.dims !== null));
    const dims = carried.dims!;
    const n = b.node(g, 'Loop', [b.init(name('trips'), tensorFromInt64([BigInt(trips)], []), g), b.init(name('go'), tensorFromBool([true], []), g), carried.v], [name('final'), name('scan')], {}, { name: name('Loop') });
    n.meta['onnxInputCount'] = 3;
    const body = g.addBody(n, 'body');
    const bg = body.graph;
    const iter = bg.addInput(tensorType('i64', []), [name('iter')]);
    const go = bg.addInput(tensorType('boolean', []), [name('go_in')]);
    const param = bg.addInput(tensorType('f32', [...dims]), [name('carried')]);
    body.inputs.push({ param: iter, from: 0 }, { param: go, from: 1 }, { param, from: 2 });
    const here: Known = { v: param, dims, rank: dims.length };
    const own = fill(bg, [...scope, here], depth + 1);
    const like = own.filter((k) => sameDims(k.dims, dims));
    const next = b.op(bg, ops.add, [param, (like.length ? pick(like) : constant(bg, dims)).v], name('Add'));
    const scanned = pick([...own, here].filter((k) => k.dims !== null));
    bg.outputs.push(b.op(bg, 'Identity', [go], name('Identity')), next, scanned.v === param ? b.op(bg, ops.relu, [param], name('Relu')) : scanned.v);
    body.outputs.push({ result: 1, to: 0 }, { result: 2, to: 1 });
    return [{ v: n.outputs[0]!, dims, rank: dims.length }, { v: n.outputs[1]!, dims: [trips, ...scanned.dims!], rank: scanned.rank + 1 }];
  };

  const computed = fill(b.graph, data, 0);
  // every If output of the main graph, and the last value computed
  const outs = new Set(computed.filter((k) => k.v.producer?.op === 'If').map((k) => k.v));
  outs.add(computed[computed.length - 1]!.v);
  for (const v of outs) b.output(v);
}
