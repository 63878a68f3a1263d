import type { ElementTypeName } from '../../src/graph/element-type.js';
import { tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext } from '../spec.js';
import { typedTensor } from '../typed-consts.js';

/**
 * The tree walk the ai.onnx.ml tree ensembles share (TreeEnsemble-5, TreeEnsembleRegressor,
 * TreeEnsembleClassifier). The nodes of every tree are one table: positions 0..branches-1 are the
 * branch nodes, the positions after them the leaves, each leaf its own true and false successor.
 * Every (sample, tree) pair holds a position, starting at the tree's root; one step gathers, for
 * every pair, the node's feature of X (GatherElements), its split and mode, decides the branch
 * (LEQ x ≤ s, LT, GTE, GT, EQ, NEQ, MEMBER x ∈ its set; a NaN x goes true where the node tracks
 * missing values as true; a NaN is never ≥ or > a split, which OpenVINO's CPU plugin needs spelled
 * out) and moves to the chosen successor. As many steps as the deepest path has
 * branch nodes leave every pair on its leaf.
 */
export const MODE = { LEQ: 0, LT: 1, GTE: 2, GT: 3, EQ: 4, NEQ: 5, MEMBER: 6 } as const;
const CMP: Record<number, string> = { 0: 'LessEqual', 1: 'Less', 2: 'GreaterEqual', 3: 'Greater', 4: 'Equal', 5: 'NotEqual' };

export interface NodeTable {
  /** Branch nodes; the leaves follow them. */
  readonly branches: number;
  /** Successors per position (branches, then leaves pointing at themselves). */
  readonly next: { readonly true: readonly bigint[]; readonly false: readonly bigint[] };
  readonly feature: readonly bigint[];
  readonly split: readonly number[];
  readonly mode: readonly number[];
  readonly tracks: readonly boolean[];
  /** MEMBER nodes' sets (empty elsewhere). */
  readonly members: readonly (readonly number[])[];
  /** Branch nodes on the deepest path. */
  readonly depth: number;
}

/**
 * Branch nodes on the deepest path from any node (a post-order walk with an explicit stack);
 * null after `onCycle` when the successors form a cycle. Positions ≥ branches are leaves.
 */
export function deepestPath(branches: number, nextTrue: readonly bigint[], nextFalse: readonly bigint[], onCycle: (node: number) => void): number | null {
  const depth = new Array<number>(branches).fill(-1);
  const state = new Uint8Array(branches);
  for (let r = 0; r < branches; r++) {
    if (state[r]) continue;
    const stack = [r];
    while (stack.length) {
      const i = stack[stack.length - 1]!;
      if (state[i] === 0) {
        state[i] = 1;
        for (const s of [nextTrue[i]!, nextFalse[i]!]) {
          const k = Number(s);
          if (k >= branches) continue;
          if (state[k] === 1) { onCycle(i); return null; }
          if (state[k] === 0) stack.push(k);
        }
      } else {
        stack.pop();
        if (state[i] === 2) continue;
        state[i] = 2;
        const d = (s: bigint) => (Number(s) >= branches ? 0 : depth[Number(s)]!);
        depth[i] = 1 + Math.max(d(nextTrue[i]!), d(nextFalse[i]!));
      }
    }
  }
  return Math.max(0, ...depth);
}

/** [N, trees] i64: the leaf position each (sample, tree) pair of X [N, F] (of type `elem`) ends on. */
export function walkTrees(c: ConvertContext, x: Value, elem: ElementTypeName, t: NodeTable, roots: readonly bigint[]): Value {
  const nb = { auto_broadcast: 'numpy' };
  const one = (op: string, inputs: (Value | null)[], attrs: Record<string, string> = {}, version = 'opset1'): Value => c.emit(op, inputs, attrs, 1, version)[0]!;
  const typed = (ty: ElementTypeName, values: readonly number[], dims: number[]): Value => c.constant(typedTensor(ty, values, dims)!);
  const gather = (table: Value, idx: Value): Value => one('Gather', [table, idx, i64Scalar(c, 0n)], { batch_dims: '0' }, 'opset8');
  const size = t.split.length;
  const batch = one('Gather', [one('ShapeOf', [x], { output_type: 'i64' }, 'opset3'), i64Const(c, [0n]), i64Scalar(c, 0n)], { batch_dims: '0' }, 'opset8');
  const shape = one('Concat', [batch, i64Const(c, [BigInt(roots.length)])], { axis: '0' });
  let pos = one('Broadcast', [c.constant(tensorFromInt64(roots, [roots.length])), shape], { mode: 'numpy' }, 'opset3');
  if (t.depth === 0) return pos;
  const featureT = c.constant(tensorFromInt64(t.feature, [size]));
  const splitT = typed(elem, t.split, [size]);
  const trueT = c.constant(tensorFromInt64(t.next.true, [size]));
  const falseT = c.constant(tensorFromInt64(t.next.false, [size]));
  const modes = [...new Set(t.mode.slice(0, t.branches))];
  const tracks = t.tracks.some(Boolean) ? typed('boolean', t.tracks.map(Number), [size]) : null;
  const width = Math.max(1, ...t.members.map((m) => m.length));
  const membersT = modes.includes(MODE.MEMBER) ? typed(elem, t.members.flatMap((m) => [...m, ...new Array<number>(width - m.length).fill(NaN)]), [size, width]) : null;
  const modeT = modes.length > 1 ? c.constant(tensorFromInt64(t.mode.map(BigInt), [size])) : null;
  for (let step = 0; step < t.depth; step++) {
    const xv = one('GatherElements', [x, gather(featureT, pos)], { axis: '1' }, 'opset6');
    const s = gather(splitT, pos);
    let nan: Value | null = null;
    const isNan = (): Value => (nan ??= one('IsNaN', [xv], {}, 'opset10'));
    // OpenVINO 2026.4's CPU plugin answers true for NaN ≥ s and NaN > s (measured): masked
    const test = (m: number): Value => m === MODE.MEMBER
      ? one('ReduceLogicalOr', [one('Equal', [one('Unsqueeze', [xv, i64Const(c, [-1n])]), gather(membersT!, pos)], nb), i64Const(c, [-1n])], { keep_dims: 'false' })
      : m === MODE.GTE || m === MODE.GT
        ? one('LogicalAnd', [one(CMP[m]!, [xv, s], nb), one('LogicalNot', [isNan()])], nb)
        : one(CMP[m]!, [xv, s], nb);
    let cond: Value = test(modes[0]!);
    if (modeT) {
      const m = gather(modeT, pos);
      for (const k of modes.slice(1)) cond = one('Select', [one('Equal', [m, i64Scalar(c, BigInt(k))], nb), test(k), cond], nb);
    }
    if (tracks) cond = one('LogicalOr', [cond, one('LogicalAnd', [gather(tracks, pos), isNan()], nb)], nb);
    pos = one('Select', [cond, gather(trueT, pos), gather(falseT, pos)], nb);
  }
  return pos;
}

/** The IR ops walkTrees writes. */
export const WALK_OPS = ['ShapeOf', 'Gather', 'Concat', 'Broadcast', 'GatherElements', 'LessEqual', 'Less', 'GreaterEqual', 'Greater', 'Equal', 'NotEqual',
  'Unsqueeze', 'ReduceLogicalOr', 'Select', 'LogicalOr', 'LogicalAnd', 'LogicalNot', 'IsNaN'] as const;
