import type { Diagnostics } from '../diag/diagnostic.js';
import { A } from '../graph/attr.js';
import { allGraphs, type Graph } from '../graph/graph.js';
import type { Node } from '../graph/node.js';
import { tensorFromInt64 } from '../graph/tensor.js';
import { tensorType, type ValueType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import type { InferenceResult, RelaxedBranch } from '../shape/infer.js';

/**
 * ONNX → IR: an If-8 branch that infers only with its captures relaxed (src/shape/infer.ts
 * `relaxed`: the condition is not known, and with the shapes the captures have the branch would
 * fail if it ran — onnxruntime runs such a model and fails only when the branch is taken). OpenVINO
 * types every body of an If with the types of the If's inputs when it reads the IR (a body
 * Parameter written with dynamic dims is typed again from the input: measured, openvino 2026.4),
 * so the branch is fed its own If input for each relaxed capture: the captured value reshaped to
 * `Select(cond, zeros, ShapeOf(value))` with `special_zero`. At run time that is the value itself
 * (a 0 copies the dim, and the other side is the dims), whatever the condition; OpenVINO's shape
 * inference and constant folding cannot see through a Select on the run-time condition, so the
 * branch is typed with dynamic dims and validated as for any input. Taken with shapes it cannot
 * take, it fails at run time as in onnxruntime. The other branch keeps reading the value itself.
 *
 * Relaxing the rank (level 'rank') has no such form: that branch is left as it is, and inferring
 * the IR again reports its errors. Each relaxed branch is a SHAPE_BRANCH_RELAXED warning. Returns
 * how many Ifs changed.
 */
export function relaxBranchCaptures(relaxed: ReadonlyMap<Node, RelaxedBranch>, diags: Diagnostics): number {
  let changed = 0;
  for (const [node, r] of relaxed) {
    const body = node.bodies.get(r.key);
    const cond = node.inputs[0];
    if (!body || !cond || node.dialect !== 'ov') continue;
    if (r.level === 'rank') continue; // inferred again as written: its errors stand
    const params = new Set(r.params);
    const erased = new Map<Value, number>();
    body.inputs = body.inputs.map((b) => {
      const outer = node.inputs[b.from];
      if (!params.has(b.param) || !outer) return b;
      let k = erased.get(outer);
      if (k === undefined) {
        const v = eraseDims(node, outer, cond);
        if (!v) return b;
        k = node.addInput(v);
        erased.set(outer, k);
      }
      return { ...b, from: k };
    });
    if (erased.size) changed++;
    body.graph.meta.relaxedBranch = true;
    const e = r.errors[0]!;
    diags.add('SHAPE_BRANCH_RELAXED', node.path, {
      branch: r.key.replace(/_(branch|body)$/, ''), errors: r.errors.length, detail: `${e.where}: ${e.message}`,
      relaxed: `${[...erased.keys()].map((v) => v.label).join(', ')} fed as Reshape(·, Select(cond, 0, ShapeOf(·)), special_zero) of dynamic dims`,
    });
  }
  return changed;
}

/**
 * `Reshape(v, Select(cond, zeros, ShapeOf(v)), special_zero=true)` placed before `ifNode` in its
 * graph: v at run time, of v's rank with dims OpenVINO cannot infer. Null for a value of unknown
 * or zero rank (no dims to hide).
 */
function eraseDims(ifNode: Node, v: Value, cond: Value): Value | null {
  const t = v.type;
  if (!t || t.kind !== 'tensor' || t.shape === null || t.shape.length === 0) return null;
  const rank = t.shape.length;
  const g = ifNode.graph;
  const base = `${ifNode.name || 'If'}/relaxed/${v.name || 'capture'}`;
  const nodes: Node[] = [];
  const add = (op: string, version: string, name: string, inputs: Value[], attrs: Record<string, string>, type: ReturnType<typeof tensorType>): Value => {
    const n = g.addNode({ dialect: 'ov', op, version, name: `${base}/${name}` });
    g.nodes.pop();
    for (const [k, a] of Object.entries(attrs)) n.attrs.set(k, A.raw(a));
    for (const x of inputs) n.addInput(x);
    nodes.push(n);
    return n.addOutput(type);
  };
  const zeros = g.addInitializer(tensorFromInt64(new Array<bigint>(rank).fill(0n), [rank]), [`${base}/zeros`]);
  const shape = add('ShapeOf', 'opset3', 'ShapeOf', [v], { output_type: 'i64' }, tensorType('i64', [rank]));
  const target = add('Select', 'opset1', 'Select', [cond, zeros, shape], { auto_broadcast: 'numpy' }, tensorType('i64', [rank]));
  const out = add('Reshape', 'opset1', 'Reshape', [v, target], { special_zero: 'true' }, tensorType(t.elem, t.shape.map(() => null)));
  insertBefore(g, ifNode, nodes);
  return out;
}

/**
 * After relaxation an If output may have a dynamic rank — the relaxed If's own (its branches then
 * differ in rank) or that of an If inside the branch that squeezes or not by a dim no longer known
 * — which OpenVINO's CPU plugin refuses ("doesn't support If operation with dynamic rank", measured
 * on Silero v5). Each such output gets a rank back through the results of its If's bodies: the
 * relaxed If the rank of its other branch; an If inside the branch, in order, the first rank one of
 * its branches gives with which the IR still infers without error — the rank it had with the
 * captured types comes last, as that is what made the branch fail. A result is pinned as
 * `Reshape(r, Gather(Concat(ShapeOf(r), ones), [0 … rank-1]))`: r itself whenever r has that
 * rank, its leading dims or r with 1-dims appended otherwise — or a run-time failure; either way
 * nothing anyone sees, as with the shapes given the relaxed branch never completes.
 * `infer` infers the model again; returns the last inference.
 */
export function pinRelaxedRanks(relaxed: ReadonlyMap<Node, RelaxedBranch>, infer: () => InferenceResult): InferenceResult {
  let result = infer();
  let types = result.types;
  const rankOf = (v: Value | undefined): number | null => {
    const t = v ? types.get(v) ?? v.type : null;
    return t?.kind === 'tensor' && t.shape !== null ? t.shape.length : null;
  };
  const clean = (r: InferenceResult) => !r.diagnostics.some((d) => d.severity === 'error');
  if (!clean(result)) return result;
  for (const [node, r] of relaxed) {
    const body = node.bodies.get(r.key);
    const other = [...node.bodies.entries()].find(([k]) => k !== r.key)?.[1];
    if (!body || !other || node.dialect !== 'ov') continue;
    // the Ifs inside the branch, outer ones first
    const ifs: Node[] = [];
    for (const g of allGraphs(body.graph)) for (const n of g.nodes) if (n.op === 'If') ifs.push(n);
    for (const inner of ifs) {
      for (let k = 0; k < inner.outputs.length; k++) {
        if (rankOf(inner.outputs[k]) !== null) continue;
        const given = r.ranks.get(inner.outputs[k]!);
        const ranks = new Set<number>();
        for (const b of inner.bodies.values()) {
          for (const ob of b.outputs) {
            const rank = ob.to === k ? rankOf(b.graph.outputs[ob.result]) : null;
            if (rank !== null && rank !== given) ranks.add(rank);
          }
        }
        if (given !== undefined) ranks.add(given);
        for (const rank of ranks) {
          const undo = pinOutput(inner, k, rank, rankOf);
          const next = infer();
          if (clean(next)) { result = next; types = next.types; break; }
          undo();
        }
      }
    }
    // the relaxed If: its outputs take the other branch's ranks
    for (let k = 0; k < node.outputs.length; k++) {
      if (rankOf(node.outputs[k]) !== null) continue;
      const theirs = other.outputs.find((o) => o.to === k);
      const rank = theirs ? rankOf(other.graph.outputs[theirs.result]) : null;
      if (rank === null) continue;
      const undo = pinOutput(node, k, rank, rankOf);
      const next = infer();
      if (clean(next)) { result = next; types = next.types; } else undo();
    }
  }
  return result;
}

/**
 * Pins the results feeding output `k` of If `node` in each of its bodies to `rank` where theirs is
 * another or not known. Returns what undoes it.
 */
function pinOutput(node: Node, k: number, rank: number, rankOf: (v: Value | undefined) => number | null): () => void {
  const undo: (() => void)[] = [];
  for (const body of node.bodies.values()) {
    const g = body.graph;
    for (const ob of body.outputs) {
      if (ob.to !== k) continue;
      const res = g.outputs[ob.result];
      if (!res || rankOf(res) === rank) continue;
      const elem = res.type?.kind === 'tensor' ? res.type.elem : 'dynamic';
      const base = `${node.name || 'If'}/pinned/${res.name || `result_${ob.result}`}`;
      const nodes: Node[] = [];
      const add = (op: string, version: string, name: string, inputs: Value[], attrs: Record<string, string>, type: ValueType): Value => {
        const n = g.addNode({ dialect: 'ov', op, version, name: `${base}/${name}` });
        g.nodes.pop();
        for (const [a, v] of Object.entries(attrs)) n.attrs.set(a, A.raw(v));
        for (const x of inputs) n.addInput(x);
        nodes.push(n);
        return n.addOutput(type);
      };
      const before = g.initializers.length;
      const ones = g.addInitializer(tensorFromInt64(new Array<bigint>(rank).fill(1n), [rank]), [`${base}/ones`]);
      const indices = g.addInitializer(tensorFromInt64(Array.from({ length: rank }, (_, i) => BigInt(i)), [rank]), [`${base}/dims`]);
      const axis = g.addInitializer(tensorFromInt64([0n], []), [`${base}/axis`]);
      const shape = add('ShapeOf', 'opset3', 'ShapeOf', [res], { output_type: 'i64' }, tensorType('i64', [null]));
      const padded = add('Concat', 'opset1', 'Concat', [shape, ones], { axis: '0' }, tensorType('i64', [null]));
      const dims = add('Gather', 'opset8', 'Gather', [padded, indices, axis], { batch_dims: '0' }, tensorType('i64', [rank]));
      const out = add('Reshape', 'opset1', 'Reshape', [res, dims], { special_zero: 'false' }, tensorType(elem, new Array<null>(rank).fill(null)));
      g.nodes.push(...nodes);
      g.outputs[ob.result] = out;
      // the result keeps its names (the branch output as the source names it)
      const names = res.names;
      const move = !g.inputs.includes(res) && !g.outputs.includes(res);
      if (move) { out.names = names; res.names = []; }
      undo.push(() => {
        g.outputs[ob.result] = res;
        if (move) res.names = names;
        g.nodes = g.nodes.filter((n) => !nodes.includes(n));
        for (const n of nodes) for (let i = 0; i < n.inputs.length; i++) n.setInput(i, null);
        g.initializers.splice(before, 3);
      });
    }
  }
  return () => { for (const u of undo.reverse()) u(); };
}

function insertBefore(g: Graph, at: Node, nodes: Node[]): void {
  const i = g.nodes.indexOf(at);
  g.nodes.splice(i < 0 ? g.nodes.length : i, 0, ...nodes);
}
