import type { ElementTypeName } from '../../src/graph/element-type.js';
import { readFloats, tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedTensor } from '../typed-consts.js';
import { mlArith, POST_TRANSFORM_OPS, readPostTransform, type PostTransform } from './post-transform.js';
import { deepestPath, MODE, walkTrees, WALK_OPS, type NodeTable } from './tree-walk.js';

/**
 * ai.onnx.ml TreeEnsembleRegressor and TreeEnsembleClassifier (ml opsets 1 and 3; OpenVINO has
 * no op), as onnxruntime computes them (tree_ensemble_common.h, tree_ensemble_aggregator.h):
 * - Nodes are named by (nodes_treeids, nodes_nodeids); a tree is a run of one tree id in the
 *   listing, its root the run's first node. Modes BRANCH_LEQ/LT/GTE/GT/EQ/NEQ and LEAF; the walk
 *   is tree-walk.ts's. Thresholds are nodes_values (or nodes_values_as_tensor) in X's type for
 *   float and double X; integer X is compared as float (C++'s int64 ≤ float).
 * - Leaf weights (target_* / class_*) name their leaf by (tree, node); weights on a branch node are
 *   ignored, as onnxruntime ignores them. Per leaf and target the weights become one dense row,
 *   gathered at each tree's leaf and aggregated over the trees: SUM (AVERAGE then ÷ trees),
 *   MIN, MAX. A target no reached leaf weighs is 0 in the output ("has no score"), base values aside.
 * - Regressor, n_targets = 1: score (+ base_values[0] when it is the only base value); only PROBIT
 *   is applied (onnxruntime's one-target path ignores the other transforms). n_targets > 1:
 *   score + base_values[t] where a leaf weighs t (base values used when one per target), then
 *   post_transform over the targets.
 * - Classifier (always SUM): > 2 classes: base values added to every class (which then has a
 *   score), Y = the first class of the largest score among the classes that have one, Z the
 *   transformed scores. 2 classes: onnxruntime's binary rules, exactly (see `binary`).
 * Weights and scores are in X's type (double for double X) and converted to float for the
 * transform, as onnxruntime does. classlabels_strings: string labels cannot be held in IR.
 */
const MODES: Record<string, number> = { BRANCH_LEQ: MODE.LEQ, BRANCH_LT: MODE.LT, BRANCH_GTE: MODE.GTE, BRANCH_GT: MODE.GT, BRANCH_EQ: MODE.EQ, BRANCH_NEQ: MODE.NEQ };
const AGGREGATES = ['SUM', 'AVERAGE', 'MIN', 'MAX'] as const;
type Aggregate = (typeof AGGREGATES)[number];

interface Forest {
  readonly table: NodeTable;
  readonly roots: bigint[];
  /** Leaves (positions table.branches + j). */
  readonly leaves: number;
  /** Tree id of every leaf. */
  readonly leafTree: bigint[];
  /** Listing index → leaf number, or -1 for a branch node. */
  readonly leafOf: Int32Array;
  readonly index: Map<string, number>;
}

/** A numeric list attribute or its _as_tensor form (ml opset 3); [] when neither is set. */
function floatsOrTensor(c: ConvertContext, name: string): number[] | null {
  const list = c.attr.floats(name);
  const tensor = c.attr.tensor(`${name}_as_tensor`);
  if (list && tensor) { c.error(`${name} and ${name}_as_tensor are both set`); return null; }
  return tensor ? readFloats(tensor) : list ?? [];
}

function forest(c: ConvertContext): Forest | null {
  const trees = c.attr.ints('nodes_treeids') ?? [];
  const n = trees.length;
  if (n === 0) { c.error('the ensemble has no nodes (nodes_treeids is empty)'); return null; }
  const ints = (name: string): bigint[] | null => {
    const v = c.attr.ints(name);
    if (!v || v.length !== n) { c.error(`${name} must list ${n} values, one per node (nodes_treeids has ${n}); it has ${v?.length ?? 'none'}`); return null; }
    return v;
  };
  const nodeIds = ints('nodes_nodeids');
  const feature = ints('nodes_featureids');
  const trueIds = ints('nodes_truenodeids');
  const falseIds = ints('nodes_falsenodeids');
  const modeNames = c.attr.strings('nodes_modes');
  const values = floatsOrTensor(c, 'nodes_values');
  if (!nodeIds || !feature || !trueIds || !falseIds || !values) return null;
  if (!modeNames || modeNames.length !== n) { c.error(`nodes_modes must list ${n} values, one per node; it has ${modeNames?.length ?? 'none'}`); return null; }
  if (values.length !== n) { c.error(`nodes_values must list ${n} values, one per node; it has ${values.length}`); return null; }
  const tracks = c.attr.ints('nodes_missing_value_tracks_true') ?? [];
  const isLeaf = modeNames.map((m) => m === 'LEAF');
  const bad = modeNames.find((m) => m !== 'LEAF' && MODES[m] === undefined);
  if (bad !== undefined) { c.unsupportedAttr('nodes_modes', bad, `modes are ${[...Object.keys(MODES), 'LEAF'].join(', ')}`); return null; }
  const index = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const key = `${trees[i]}/${nodeIds[i]}`;
    if (index.has(key)) { c.error(`node ${nodeIds[i]} of tree ${trees[i]} is listed twice`); return null; }
    index.set(key, i);
  }
  // positions: branch nodes in listing order, then the leaves
  const pos = new Int32Array(n);
  const leafOf = new Int32Array(n).fill(-1);
  let branches = 0;
  for (let i = 0; i < n; i++) if (!isLeaf[i]) pos[i] = branches++;
  let leaves = 0;
  const leafTree: bigint[] = [];
  for (let i = 0; i < n; i++) if (isLeaf[i]) { leafOf[i] = leaves; pos[i] = branches + leaves++; leafTree.push(trees[i]!); }
  const size = branches + leaves;
  const nextTrue = new Array<bigint>(size);
  const nextFalse = new Array<bigint>(size);
  const feat = new Array<bigint>(size).fill(0n);
  const split = new Array<number>(size).fill(0);
  const mode = new Array<number>(size).fill(0);
  const track = new Array<boolean>(size).fill(false);
  for (let i = 0; i < n; i++) {
    const p = pos[i]!;
    if (isLeaf[i]) { nextTrue[p] = BigInt(p); nextFalse[p] = BigInt(p); continue; }
    const child = (id: bigint, side: string): bigint | null => {
      const k = index.get(`${trees[i]}/${id}`);
      if (k === undefined) { c.error(`node ${nodeIds[i]} of tree ${trees[i]}: nodes_${side}nodeids = ${id} names no node of that tree`); return null; }
      if (k === i) { c.error(`node ${nodeIds[i]} of tree ${trees[i]} is its own ${side} successor`); return null; }
      return BigInt(pos[k]!);
    };
    const t = child(trueIds[i]!, 'true');
    const f = child(falseIds[i]!, 'false');
    if (t === null || f === null) return null;
    if (feature[i]! < 0n) { c.unsupportedAttr('nodes_featureids', String(feature[i]), 'feature indices are ≥ 0'); return null; }
    nextTrue[p] = t; nextFalse[p] = f;
    feat[p] = feature[i]!; split[p] = values[i]!; mode[p] = MODES[modeNames[i]!]!; track[p] = tracks[i] === 1n;
  }
  const depth = deepestPath(branches, nextTrue, nextFalse, (k) => c.error(`the nodes reached from node ${k} of the branch listing form a cycle`));
  if (depth === null) return null;
  const roots: bigint[] = [];
  for (let i = 0; i < n; i++) if (i === 0 || trees[i] !== trees[i - 1]) roots.push(BigInt(pos[i]!));
  const table: NodeTable = { branches, next: { true: nextTrue, false: nextFalse }, feature: feat, split, mode, tracks: track, members: [], depth };
  return { table, roots, leaves, leafTree, leafOf, index };
}

interface LeafWeights {
  /** [leaves × targets], row-major: each leaf's combined weight per target (0 where none). */
  readonly w: number[];
  /** Whether the leaf weighs the target. */
  readonly has: boolean[];
  /** Per target: whether some tree weighs it at every one of its leaves (then every sample has a score for it). */
  readonly always: boolean[];
  readonly ids: bigint[];
  readonly weights: number[];
}

/** The weights (prefix target_ or class_) per leaf and target, combined by `agg`; null after a diagnostic. */
function leafWeights(c: ConvertContext, fo: Forest, prefix: 'target' | 'class', targets: number, agg: Aggregate | 'FIRST'): LeafWeights | null {
  const ids = c.attr.ints(`${prefix}_ids`) ?? [];
  const nodes = c.attr.ints(`${prefix}_nodeids`) ?? [];
  const trees = c.attr.ints(`${prefix}_treeids`) ?? [];
  const weights = floatsOrTensor(c, `${prefix}_weights`);
  if (!weights) return null;
  const k = ids.length;
  if (nodes.length !== k || trees.length !== k || weights.length !== k) {
    c.error(`${prefix}_ids, ${prefix}_nodeids, ${prefix}_treeids and ${prefix}_weights must have one value per weight (${k}, ${nodes.length}, ${trees.length}, ${weights.length})`);
    return null;
  }
  const w = new Array<number>(fo.leaves * targets).fill(0);
  const has = new Array<boolean>(fo.leaves * targets).fill(false);
  const seen = new Uint8Array(fo.leaves);
  for (let i = 0; i < k; i++) {
    const at = fo.index.get(`${trees[i]}/${nodes[i]}`);
    if (at === undefined) { c.error(`weight ${i}: node ${nodes[i]} of tree ${trees[i]} is not listed`); return null; }
    const leaf = fo.leafOf[at]!;
    if (leaf < 0) continue; // onnxruntime ignores weights on branch nodes
    const t = ids[i]!;
    if (t < 0n || t >= BigInt(targets)) { c.unsupportedAttr(`${prefix}_ids`, String(t), `${prefix === 'target' ? 'targets' : 'classes'} are 0..${targets - 1}`); return null; }
    const j = leaf * targets + Number(t);
    const v = weights[i]!;
    if (agg === 'FIRST') { if (!seen[leaf]) { w[leaf * targets] = v; has[leaf * targets] = true; } }
    else if (!has[j]) w[j] = v;
    else w[j] = agg === 'MIN' ? Math.min(w[j]!, v) : agg === 'MAX' ? Math.max(w[j]!, v) : w[j]! + v;
    if (agg !== 'FIRST') has[j] = true;
    seen[leaf] = 1;
  }
  const missing = seen.indexOf(0);
  if (missing >= 0) { c.error(`leaf ${missing} (in listing order) of tree ${fo.leafTree[missing]} has no ${prefix} weight`); return null; }
  // a target is always scored when some tree weighs it at every one of its leaves
  const always = new Array<boolean>(targets).fill(false);
  const byTree = new Map<bigint, number[]>();
  for (let j = 0; j < fo.leaves; j++) { const l = byTree.get(fo.leafTree[j]!) ?? []; l.push(j); byTree.set(fo.leafTree[j]!, l); }
  for (let t = 0; t < targets; t++) for (const ls of byTree.values()) if (ls.every((j) => has[j * targets + t])) { always[t] = true; break; }
  return { w, has, always, ids, weights };
}

interface Scores {
  /** [N, targets] aggregated scores in X's compute type (0 where no score). */
  readonly score: Value;
  /** [N, targets] boolean, null when every target always has a score. */
  readonly has: Value | null;
}

/** Walks the trees and aggregates the leaves' weights per target. */
function scores(c: ConvertContext, x: Value, elem: ElementTypeName, fo: Forest, lw: LeafWeights, targets: number, agg: Aggregate): Scores {
  const nb = { auto_broadcast: 'numpy' };
  const one = (op: string, inputs: (Value | null)[], attrs: Record<string, string> = {}, version = 'opset1'): Value => c.emit(op, inputs, attrs, 1, version)[0]!;
  const pos = walkTrees(c, x, elem, fo.table, fo.roots);
  const leaf = one('Subtract', [pos, i64Scalar(c, BigInt(fo.table.branches))], nb);
  const gather = (table: Value): Value => one('Gather', [table, leaf, i64Scalar(c, 0n)], { batch_dims: '0' }, 'opset8');
  const rows = gather(c.constant(typedTensor(elem, lw.w, [fo.leaves, targets])!)); // [N, trees, targets]
  const needHas = lw.always.some((a) => !a);
  const hasRows = needHas || agg === 'MIN' || agg === 'MAX' ? gather(c.constant(typedTensor('boolean', lw.has.map(Number), [fo.leaves, targets])!)) : null;
  const axis = i64Const(c, [1n]);
  let score: Value;
  if (agg === 'MIN' || agg === 'MAX') {
    const big = elem === 'f64' ? Number.MAX_VALUE : 3.4028234663852886e38;
    const masked = one('Select', [hasRows!, rows, c.constant(typedTensor(elem, [agg === 'MIN' ? big : -big], [])!)], nb);
    score = one(agg === 'MIN' ? 'ReduceMin' : 'ReduceMax', [masked, axis], { keep_dims: 'false' });
  } else {
    score = one('ReduceSum', [rows, axis], { keep_dims: 'false' });
  }
  const has = needHas ? one('ReduceLogicalOr', [hasRows!, axis], { keep_dims: 'false' }) : null;
  if (has && (agg === 'MIN' || agg === 'MAX')) score = one('Select', [has, score, c.constant(typedTensor(elem, [0], [])!)], nb);
  return { score, has };
}

/** X as the trees compare it: float and double as they are, integers as float. */
function features(c: ConvertContext): { x: Value; elem: ElementTypeName } | null {
  const elem = c.elem(0);
  const rank = c.rank(0);
  if (elem !== 'f32' && elem !== 'f64' && elem !== 'i64' && elem !== 'i32') { c.error(`X of ${elem ?? 'unknown type'}: X is float, double, int64 or int32`); return null; }
  if (rank !== 1 && rank !== 2) { c.error(`X must be [N, F] or [F]; its rank is ${rank ?? 'unknown'}`); return null; }
  let x = c.input(0)!;
  if (elem === 'i64' || elem === 'i32') x = c.emit('Convert', [x], { destination_type: 'f32' }, 1, 'opset1')[0]!;
  if (rank === 1) x = c.emit('Unsqueeze', [x, i64Const(c, [0n])], {}, 1, 'opset1')[0]!;
  return { x, elem: elem === 'f64' ? 'f64' : 'f32' };
}

function checkFeatures(c: ConvertContext, fo: Forest): boolean {
  const dims = c.type(0);
  const f = dims?.kind === 'tensor' && dims.shape ? dims.shape[dims.shape.length - 1] : null;
  const most = fo.table.feature.reduce((a, b) => (b > a ? b : a), 0n);
  if (typeof f === 'number' && most >= BigInt(f)) { c.unsupportedAttr('nodes_featureids', String(most), `X has ${f} features`); return false; }
  return true;
}

const toF32 = (c: ConvertContext, v: Value, elem: ElementTypeName): Value => (elem === 'f32' ? v : c.emit('Convert', [v], { destination_type: 'f32' }, 1, 'opset1')[0]!);

function regressor(c: ConvertContext): void {
  const agg = c.attr.string('aggregate_function', 'SUM');
  if (!(AGGREGATES as readonly string[]).includes(agg)) { c.unsupportedAttr('aggregate_function', agg, 'AVERAGE, SUM, MIN or MAX'); return; }
  const post = readPostTransform(c);
  const targets = Number(c.attr.int('n_targets', 0n));
  if (targets < 1) { c.unsupportedAttr('n_targets', String(targets), 'at least one target'); return; }
  const base = floatsOrTensor(c, 'base_values');
  const x = features(c);
  const fo = forest(c);
  if (post === null || !base || !x || !fo || !checkFeatures(c, fo)) return;
  const lw = leafWeights(c, fo, 'target', targets, targets === 1 ? 'FIRST' : (agg as Aggregate));
  if (!lw) return;
  const m = mlArith(c);
  const typed = (values: number[], dims: number[]): Value => c.constant(typedTensor(x.elem, values, dims)!);
  const s = scores(c, x.x, x.elem, fo, lw, targets, agg as Aggregate);
  let y = agg === 'AVERAGE' ? m.op('Divide', [s.score, typed([fo.roots.length], [])], { auto_broadcast: 'numpy', m_pythondiv: 'true' }) : s.score;
  if (targets === 1) {
    if (base.length === 1) y = m.op('Add', [y, typed([base[0]!], [])], { auto_broadcast: 'numpy' });
    y = toF32(c, y, x.elem);
    c.output(0, post === 'PROBIT' ? m.probit(y) : y);
    return;
  }
  if (base.length === targets) y = m.op('Add', [y, typed(base, [targets])], { auto_broadcast: 'numpy' });
  if (s.has) y = m.op('Select', [s.has, y, typed([0], [])], { auto_broadcast: 'numpy' });
  c.output(0, m.apply(post, toF32(c, y, x.elem)));
}

function classifier(c: ConvertContext): void {
  if ((c.attr.strings('classlabels_strings')?.length ?? 0) > 0) { c.unsupportedAttr('classlabels_strings', 'strings', 'OpenVINO IR has no string element type: the labels output cannot be held'); return; }
  const labels = c.attr.ints('classlabels_int64s') ?? [];
  if (labels.length < 2) { c.unsupportedAttr('classlabels_int64s', `${labels.length} labels`, 'a classifier has at least 2 classes'); return; }
  const post = readPostTransform(c);
  const base = floatsOrTensor(c, 'base_values');
  const x = features(c);
  const fo = forest(c);
  if (post === null || !base || !x || !fo || !checkFeatures(c, fo)) return;
  const classes = labels.length;
  if (base.length > classes) { c.error(`base_values has ${base.length} values for ${classes} classes`); return; }
  const lw = leafWeights(c, fo, 'class', classes, 'SUM');
  if (!lw) return;
  const s = scores(c, x.x, x.elem, fo, lw, classes, 'SUM');
  const m = mlArith(c);
  const nb = { auto_broadcast: 'numpy' };
  const typed = (values: number[], dims: number[]): Value => c.constant(typedTensor(x.elem, values, dims)!);
  if (classes > 2) {
    const score = base.length ? m.op('Add', [s.score, typed([...base, ...new Array<number>(classes - base.length).fill(0)], [classes])], nb) : s.score;
    // classes with a base value always have a score
    const hasAll = s.has === null || base.length === classes;
    const has = hasAll || base.length === 0 ? s.has : m.op('LogicalOr', [s.has!, c.constant(typedTensor('boolean', Array.from({ length: classes }, (_, k) => Number(k < base.length)), [classes])!)], nb);
    const big = x.elem === 'f64' ? Number.MAX_VALUE : 3.4028234663852886e38;
    const ranked = hasAll ? score : m.op('Select', [has!, score, typed([-big], [])], nb);
    const top = c.emit('TopK', [ranked, i64Scalar(c, 1n)], { axis: '-1', mode: 'max', sort: 'value', index_element_type: 'i64', stable: 'true' }, 2, 'opset11')[1]!;
    const idx = m.op('Squeeze', [top, i64Const(c, [-1n])]);
    c.output(0, m.op('Gather', [c.constant(tensorFromInt64(labels, [classes])), idx, i64Scalar(c, 0n)], { batch_dims: '0' }, 'opset8'));
    c.output(1, m.apply(post, toF32(c, score, x.elem)));
    return;
  }
  binary(c, { score: s.score, has: s.has, elem: x.elem, base, labels, lw, post });
}

/**
 * Two classes, as onnxruntime's TreeAggregatorClassifier::FinalizeScores: with s0, s1 the class
 * sums, h0, h1 whether a reached leaf weighs the class, B the base values, binary when every
 * weight names one class, positive when no weight is negative:
 * - B of 2: h1 ? p1 = B1 + s0 (onnxruntime adds class 0's sum), scores (h0 ? −p1 : 0, p1) : (h0 ? s0 + B0 : 0, 0)
 *   (a score without a weight reads as 0, whatever was assigned to it).
 *   B of 1: scores (h0 ? s0 + B0 : 0, s1) when h1, else one score h0 ? s0 + B0 : 0.
 *   B of 0: (s0, s1) when h1, else one score s0.
 * - The label decides on the positive weight w = h1 ? (score 1) : (h0 ? score 0 : 0): binary and
 *   positive → w > 0.5 ? label 1 : label 0; binary → w > 0 ? label 1 : label 0; otherwise w > 0 ?
 *   1 : 0 (the numbers 1 and 0, not the labels: onnxruntime's default positive / negative labels).
 * - Two scores are transformed as a row; one score v is written as (1 − v, v) for binary positive
 *   weights, else (−v, v) — (logistic(−v), logistic(v)) under LOGISTIC. Where onnxruntime writes
 *   only Z[0] (PROBIT on one score, or one base value and not binary) the second column is memory
 *   it never writes: refused when that case can occur.
 */
function binary(c: ConvertContext, a: { score: Value; has: Value | null; elem: ElementTypeName; base: number[]; labels: bigint[]; lw: LeafWeights; post: PostTransform }): void {
  const m = mlArith(c);
  const nb = { auto_broadcast: 'numpy' };
  const typed = (v: number): Value => c.constant(typedTensor(a.elem, [v], [])!);
  const col = (v: Value, k: number): Value => m.op('Gather', [v, i64Scalar(c, BigInt(k)), i64Scalar(c, 1n)], { batch_dims: '0' }, 'opset8');
  const s0 = col(a.score, 0);
  const s1 = col(a.score, 1);
  const yes = c.constant(typedTensor('boolean', [1], [])!);
  const h0 = a.lw.always[0] || !a.has ? yes : col(a.has, 0);
  const h1 = a.lw.always[1] || !a.has ? yes : col(a.has, 1);
  const h1Always = a.lw.always[1]!;
  const isBinary = new Set(a.lw.ids).size === 1;
  const positive = a.lw.weights.every((w) => !(w < 0));
  const sel = (cond: Value, p: Value, q: Value): Value => m.op('Select', [cond, p, q], nb);
  const add = (p: Value, q: Value): Value => m.op('Add', [p, q], nb);
  const zero = typed(0);
  const nbase = a.base.length;
  if (!h1Always && (a.post === 'PROBIT' || (nbase === 1 && !isBinary))) {
    c.unsupportedAttr(a.post === 'PROBIT' ? 'post_transform' : 'base_values', a.post === 'PROBIT' ? 'PROBIT' : `[${a.base.join(', ')}]`,
      'with two classes and a sample no leaf of class 1 reaches, onnxruntime writes one score and leaves the second column of Z unwritten');
    return;
  }
  const s0b = nbase >= 1 ? sel(h0, add(s0, typed(a.base[0]!)), zero) : s0;
  let z0: Value; let z1: Value; let w: Value;
  if (nbase === 2) {
    const p1 = add(typed(a.base[1]!), s0);
    z0 = sel(h1, sel(h0, m.op('Negative', [p1]), zero), s0b);
    z1 = sel(h1, p1, zero);
    w = sel(h1, p1, s0b);
  } else {
    z0 = s0b; z1 = s1;
    w = sel(h1, s1, s0b);
  }
  const label = (k: number): Value => c.constant(tensorFromInt64([a.labels[k]!], []));
  const lit = (k: number): Value => c.constant(tensorFromInt64([BigInt(k)], []));
  const threshold = isBinary && positive ? 0.5 : 0;
  const above = m.op('Greater', [w, typed(threshold)], nb);
  c.output(0, isBinary ? sel(above, label(1), label(0)) : sel(above, lit(1), lit(0)));
  const pair = (p: Value, q: Value): Value => m.op('Concat', [m.op('Unsqueeze', [p, i64Const(c, [-1n])]), m.op('Unsqueeze', [q, i64Const(c, [-1n])])], { axis: '-1' });
  const two = m.apply(a.post, pair(toF32(c, z0, a.elem), toF32(c, z1, a.elem)));
  if (h1Always || nbase === 2) { c.output(1, two); return; }
  // one score v (no leaf of class 1 reached)
  const v = toF32(c, s0b, a.elem);
  const one = isBinary && positive
    ? pair(m.op('Subtract', [m.scalar(1), v], nb), v)
    : a.post === 'LOGISTIC' ? pair(m.logistic(m.op('Negative', [v])), m.logistic(v)) : pair(m.op('Negative', [v]), v);
  c.output(1, sel(m.op('Unsqueeze', [h1, i64Const(c, [-1n])]), two, one));
}

const NODE_ATTRS = ['nodes_treeids', 'nodes_nodeids', 'nodes_featureids', 'nodes_modes', 'nodes_values', 'nodes_values_as_tensor', 'nodes_truenodeids',
  'nodes_falsenodeids', 'nodes_missing_value_tracks_true', 'nodes_hitrates', 'nodes_hitrates_as_tensor', 'post_transform', 'base_values', 'base_values_as_tensor'];
const OPS = [...WALK_OPS, ...POST_TRANSFORM_OPS, 'Convert', 'Subtract', 'ReduceSum', 'ReduceMin', 'ReduceMax', 'Squeeze', 'TopK'];

export const TREE_ENSEMBLE_CLASSIC: readonly OpMapping[] = [
  {
    onnx: { op: 'TreeEnsembleRegressor', domain: 'ai.onnx.ml', since: 1 },
    ir: null,
    decomposes: OPS,
    handles: { onnx: [...NODE_ATTRS, 'aggregate_function', 'n_targets', 'target_ids', 'target_nodeids', 'target_treeids', 'target_weights', 'target_weights_as_tensor'] },
    note: 'IR: the tree walk of TreeEnsemble-5; leaf weights per target aggregated as onnxruntime does, its post_transform formulas',
    toIr: regressor,
  },
  {
    onnx: { op: 'TreeEnsembleClassifier', domain: 'ai.onnx.ml', since: 1 },
    ir: null,
    decomposes: OPS,
    handles: { onnx: [...NODE_ATTRS, 'class_ids', 'class_nodeids', 'class_treeids', 'class_weights', 'class_weights_as_tensor', 'classlabels_int64s', 'classlabels_strings'] },
    note: 'IR: the tree walk of TreeEnsemble-5; class sums, label by the first largest score (onnxruntime\'s binary rules for two classes)',
    toIr: classifier,
  },
];
