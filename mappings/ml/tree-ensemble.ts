import type { ElementTypeName } from '../../src/graph/element-type.js';
import { readFloats, readIntegers, tensorFromInt64, type Tensor } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedTensor } from '../typed-consts.js';
import { mlArith, POST_TRANSFORM_OPS, type PostTransform } from './post-transform.js';
import { deepestPath, MODE, walkTrees, WALK_OPS, type NodeTable } from './tree-walk.js';

/**
 * ai.onnx.ml TreeEnsemble-5 (OpenVINO has no op), walked as data: every (sample, tree) pair keeps
 * a position in one table of the nodes followed by the leaves (leaf j at nodes + j, whose true
 * and false successors are itself), starting at the tree's root. One step gathers, for every
 * pair, the node's feature of X (GatherElements), its split and mode, decides the branch as onnx's
 * reference does (LEQ x ≤ s, LT, GTE, GT, EQ, NEQ, MEMBER x ∈ its set; a NaN x goes true where
 * nodes_missing_value_tracks_true says so) and moves to the chosen successor. As many steps as the
 * deepest path has nodes leave every pair on its leaf. Then the leaf weights go to their targets
 * by aggregate_function (SUM; AVERAGE: each weight / trees, summed; MIN / MAX over the leaves of a
 * target, a target no leaf reaches keeping the type's largest / least value, as the reference).
 * post_transform as onnxruntime 1.31 computes it (onnx's reference ignores the attribute, so it is
 * the only judge): it reads the number as its own enum — 1 LOGISTIC, 2 SOFTMAX, 3 SOFTMAX_ZERO,
 * 4 PROBIT, where the spec says 1 SOFTMAX, 2 LOGISTIC (measured) — in float, and with one target
 * only PROBIT (its one-target path); post-transform.ts has the formulas. nodes_hitrates is a hint
 * of no effect on the result.
 */
const MODES = ['LEQ', 'LT', 'GTE', 'GT', 'EQ', 'NEQ', 'MEMBER'] as const;
const MEMBER = MODE.MEMBER;
/** post_transform numbers as onnxruntime reads them (its POST_EVAL_TRANSFORM enum). */
const ORT_POST_TRANSFORMS: readonly PostTransform[] = ['NONE', 'LOGISTIC', 'SOFTMAX', 'SOFTMAX_ZERO', 'PROBIT'];


/** The node tables with the leaves appended, checked; null after a diagnostic. */
function tables(c: ConvertContext, splits: Tensor): NodeTable | null {
  const n = splits.dims[0] ?? 0;
  const ints = (name: string): bigint[] | null => {
    const v = c.attr.ints(name);
    if (!v || v.length !== n) { c.error(`${name} must list ${n} values, one per node (nodes_splits has ${n}); it has ${v?.length ?? 'none'}`); return null; }
    return v;
  };
  const feature = ints('nodes_featureids');
  const trueIds = ints('nodes_truenodeids');
  const falseIds = ints('nodes_falsenodeids');
  const trueLeaf = ints('nodes_trueleafs');
  const falseLeaf = ints('nodes_falseleafs');
  const modesT = c.attr.tensor('nodes_modes');
  if (!feature || !trueIds || !falseIds || !trueLeaf || !falseLeaf) return null;
  const mode = modesT ? readIntegers(modesT).map(Number) : [];
  if (mode.length !== n) { c.error(`nodes_modes must list ${n} values, one per node`); return null; }
  const bad = mode.find((m) => m < 0 || m >= MODES.length);
  if (bad !== undefined) { c.unsupportedAttr('nodes_modes', String(bad), `modes are 0..6 (${MODES.join(', ')})`); return null; }
  const tracksAttr = c.attr.ints('nodes_missing_value_tracks_true');
  if (tracksAttr && tracksAttr.length !== n) { c.error(`nodes_missing_value_tracks_true must list ${n} values, one per node`); return null; }
  const leaves = c.attr.ints('leaf_targetids')?.length ?? 0;
  // membership sets, in the order MEMBER nodes appear in nodes_modes, each ended by a NaN
  const members: number[][] = Array.from({ length: n }, () => []);
  if (mode.includes(MEMBER)) {
    const m = c.attr.tensor('membership_values');
    if (!m) { c.error('a MEMBER node needs membership_values'); return null; }
    const values = readFloats(m);
    let at = 0;
    for (let i = 0; i < n; i++) {
      if (mode[i] !== MEMBER) continue;
      while (at < values.length && !Number.isNaN(values[at]!)) members[i]!.push(values[at++]!);
      if (at >= values.length) { c.error(`membership_values ends before the set of MEMBER node ${i} (each set ends with a NaN)`); return null; }
      at++;
    }
  }
  const at = (leaf: bigint, id: bigint, i: number, side: string): bigint | null => {
    const limit = leaf !== 0n ? leaves : n;
    if (id < 0n || id >= BigInt(limit)) { c.error(`node ${i}: nodes_${side}nodeids = ${id} is not a ${leaf !== 0n ? 'leaf' : 'node'} index (0..${limit - 1})`); return null; }
    return leaf !== 0n ? BigInt(n) + id : id;
  };
  const nextTrue: bigint[] = [];
  const nextFalse: bigint[] = [];
  for (let i = 0; i < n; i++) {
    const t = at(trueLeaf[i]!, trueIds[i]!, i, 'true');
    const f = at(falseLeaf[i]!, falseIds[i]!, i, 'false');
    if (t === null || f === null) return null;
    nextTrue.push(t);
    nextFalse.push(f);
  }
  for (let j = 0; j < leaves; j++) { nextTrue.push(BigInt(n + j)); nextFalse.push(BigInt(n + j)); }
  const depth = deepestPath(n, nextTrue, nextFalse, (i) => c.error(`the nodes reached from node ${i} form a cycle`));
  if (depth === null) return null;
  const pad = (xs: readonly number[], v: number): number[] => [...xs, ...new Array<number>(leaves).fill(v)];
  return {
    branches: n,
    next: { true: nextTrue, false: nextFalse },
    feature: [...feature, ...new Array<bigint>(leaves).fill(0n)],
    split: pad(readFloats(splits), 0),
    mode: pad(mode, 0),
    tracks: Array.from({ length: n + leaves }, (_, i) => i < n && tracksAttr !== undefined && tracksAttr[i] !== 0n),
    members: [...members, ...Array.from({ length: leaves }, () => [])],
    depth,
  };
}

function treeEnsemble(c: ConvertContext): void {
  const elem = c.elem(0);
  if (elem !== 'f32' && elem !== 'f64' && elem !== 'f16') { c.error(`TreeEnsemble of ${elem ?? 'unknown'} X: X is float, double or float16`); return; }
  if (c.rank(0) !== 2) { c.error(`X must be [N, F]; its rank is ${c.rank(0) ?? 'unknown'}`); return; }
  const aggregate = Number(c.attr.int('aggregate_function', 1n));
  if (aggregate < 0 || aggregate > 3) { c.unsupportedAttr('aggregate_function', String(aggregate), 'AVERAGE 0, SUM 1, MIN 2, MAX 3'); return; }
  const postNumber = Number(c.attr.int('post_transform', 0n));
  const post = ORT_POST_TRANSFORMS[postNumber];
  if (post === undefined) { c.unsupportedAttr('post_transform', String(postNumber), 'post_transform is 0..4'); return; }
  if (postNumber === 1 || postNumber === 2) {
    c.warn(`post_transform ${postNumber} converts as ${post}, as onnxruntime computes it; the ONNX spec reads ${postNumber} as ${postNumber === 1 ? 'SOFTMAX' : 'LOGISTIC'}`);
  }
  const splits = c.attr.tensor('nodes_splits');
  const weightsT = c.attr.tensor('leaf_weights');
  const targets = c.attr.ints('leaf_targetids');
  const roots = c.attr.ints('tree_roots');
  const nTargets = c.attr.int('n_targets');
  if (!splits || !weightsT || !targets || !roots || nTargets === undefined) {
    c.error(`TreeEnsemble needs ${[['nodes_splits', splits], ['leaf_weights', weightsT], ['leaf_targetids', targets], ['tree_roots', roots], ['n_targets', nTargets]].filter(([, v]) => v === undefined).map(([k]) => k).join(', ')}`);
    return;
  }
  if (splits.elem !== elem || weightsT.elem !== elem) { c.error(`nodes_splits (${splits.elem}) and leaf_weights (${weightsT.elem}) must have X's type ${elem}`); return; }
  if (weightsT.dims.length !== 1 || weightsT.dims[0] !== targets.length) { c.error(`leaf_weights has ${weightsT.dims.join('×')} values and leaf_targetids ${targets.length}: one of each per leaf`); return; }
  const e = Number(nTargets);
  const badTarget = targets.find((t) => t < 0n || t >= nTargets);
  if (badTarget !== undefined) { c.unsupportedAttr('leaf_targetids', String(badTarget), `targets are 0..${e - 1} (n_targets = ${e})`); return; }
  const t = tables(c, splits);
  if (!t) return;
  const badRoot = roots.find((r) => r < 0n || r >= BigInt(t.branches));
  if (badRoot !== undefined) { c.unsupportedAttr('tree_roots', String(badRoot), `roots are node indices 0..${t.branches - 1}`); return; }

  const nb = { auto_broadcast: 'numpy' };
  const one = (op: string, inputs: (Value | null)[], attrs: Record<string, string> = {}, version = 'opset1'): Value => c.emit(op, inputs, attrs, 1, version)[0]!;
  const typed = (ty: ElementTypeName, values: readonly number[], dims: number[]): Value => c.constant(typedTensor(ty, values, dims)!);
  const gather = (table: Value, idx: Value): Value => one('Gather', [table, idx, i64Scalar(c, 0n)], { batch_dims: '0' }, 'opset8');
  const x = c.input(0)!;
  const pos = walkTrees(c, x, elem, t, roots);
  const leaf = one('Subtract', [pos, i64Scalar(c, BigInt(t.branches))], nb);
  const w = gather(c.constant(weightsT), leaf);
  const target = gather(c.constant(tensorFromInt64(targets, [targets.length])), leaf);
  // [N, trees, targets]: which target each tree's leaf feeds
  const hit = one('Equal', [one('Unsqueeze', [target, i64Const(c, [-1n])]), c.constant(tensorFromInt64(Array.from({ length: e }, (_, i) => i), [e]))], nb);
  const w3 = one('Unsqueeze', [aggregate === 0 ? one('Divide', [w, typed(elem, [roots.length], [])], { ...nb, m_pythondiv: 'true' }) : w, i64Const(c, [-1n])]);
  const largest = elem === 'f16' ? 65504 : elem === 'f32' ? 3.4028234663852886e38 : Number.MAX_VALUE;
  const fill = aggregate === 2 ? largest : aggregate === 3 ? -largest : 0;
  const spread = one('Select', [hit, w3, typed(elem, [fill], [])], nb);
  const reduce = aggregate === 2 ? 'ReduceMin' : aggregate === 3 ? 'ReduceMax' : 'ReduceSum';
  let y = one(reduce, [spread, i64Const(c, [1n])], { keep_dims: 'false' });
  if (roots.length === 0) y = one('Broadcast', [typed(elem, [fill], []), one('Concat', [gather(one('ShapeOf', [x], { output_type: 'i64' }, 'opset3'), i64Const(c, [0n])), i64Const(c, [BigInt(e)])], { axis: '0' })], { mode: 'numpy' }, 'opset3');
  if (post === 'PROBIT' || (post !== 'NONE' && e > 1)) {
    const m = mlArith(c);
    const z = m.apply(post, m.toF32(y, elem));
    y = elem === 'f32' ? z : one('Convert', [z], { destination_type: elem });
  }
  c.output(0, y);
}

export const TREE_ENSEMBLE: readonly OpMapping[] = [
  {
    onnx: { op: 'TreeEnsemble', domain: 'ai.onnx.ml', since: 5 },
    ir: null,
    decomposes: [...WALK_OPS, ...POST_TRANSFORM_OPS, 'Subtract', 'Divide', 'ReduceSum', 'ReduceMin', 'ReduceMax'],
    handles: { onnx: ['aggregate_function', 'post_transform', 'tree_roots', 'nodes_splits', 'nodes_featureids', 'nodes_modes', 'nodes_truenodeids',
      'nodes_falsenodeids', 'nodes_trueleafs', 'nodes_falseleafs', 'nodes_missing_value_tracks_true', 'nodes_hitrates', 'membership_values',
      'leaf_targetids', 'leaf_weights', 'n_targets'] },
    note: 'IR: each (sample, tree) walks the node table by Gathers, as many steps as the deepest path; leaf weights aggregated per target',
    toIr: treeEnsemble,
  },
];
