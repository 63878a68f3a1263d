import type { Graph } from '../graph/graph.js';
import type { Node } from '../graph/node.js';
import { elementCount } from '../graph/shape.js';
import type { Tensor } from '../graph/tensor.js';
import { tensorType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import { readConstantNode } from './constant-node.js';
import { kernelFor, shapeKernel } from './fold-ops.js';
import { fromHost, host, toHost, type HostTensor } from './host-tensor.js';
import { inlineIf } from './inline-if.js';

/** Folded results larger than this many elements are left to the engine (weights stay views). */
export const FOLD_MAX_ELEMENTS = 1 << 20;

export interface FoldStats {
  /** Nodes replaced by their constant outputs. */
  folded: number;
  /** If nodes replaced by their chosen branch. */
  inlined: number;
  /** Nodes removed because nothing reads their outputs any more. */
  removed: number;
}

/**
 * Constant folding over a whole model, in either dialect: every node whose inputs are all
 * constants and whose op has an exact kernel (fold-ops.ts) becomes constants; an If whose
 * condition is constant is replaced by the branch it selects (inline-if.ts), whose nodes are then
 * folded in turn; constants bound into the bodies of an If that stays are seen as constants there.
 * Then nodes whose outputs nobody reads are removed. Each graph is a work item (an explicit
 * list, no recursion), each node is visited once: linear in the number of nodes.
 */
export function foldConstants(
  root: Graph,
  disposable: Set<Value> = new Set(),
  /** The static shape inference proved for a value (never a declaration alone); Shape/ShapeOf folds from it. */
  staticShape: (v: Value) => readonly number[] | null = () => null,
): FoldStats {
  const stats: FoldStats = { folded: 0, inlined: 0, removed: 0 };
  const hosts = new Map<Tensor, HostTensor | null>();
  const hostOf = (v: Value | null): HostTensor | null => {
    if (!v?.constant) return null;
    let h = hosts.get(v.constant);
    if (h === undefined) { h = elementCount(v.constant.dims) <= FOLD_MAX_ELEMENTS ? toHost(v.constant) : null; hosts.set(v.constant, h); }
    return h;
  };
  const work: Graph[] = [root];
  const visited: Graph[] = [];
  while (work.length) {
    const g = work.pop()!;
    visited.push(g);
    const pending = [...g.nodes].reverse();
    const kept: Node[] = [];
    while (pending.length) {
      const node = pending.pop()!;
      if (node.op === 'If' && node.bodies.size > 0) {
        const cond = hostOf(node.inputs[0] ?? null);
        if (cond && cond.values.length === 1) {
          const taken = node.inputs.filter((v): v is Value => v !== null);
          for (const body of node.bodies.values()) for (const c of body.graph.initializers) taken.push(c);
          const moved = inlineIf(node, cond.values[0] !== 0 && cond.values[0] !== 0n);
          if (moved) {
            for (const v of taken) if (v.constant) disposable.add(v);
            stats.inlined++;
            for (let k = moved.length - 1; k >= 0; k--) pending.push(moved[k]!);
            continue;
          }
        }
        for (const c of seedBodyConstants(node)) disposable.add(c);
      }
      if (node.bodies.size > 0) {
        for (const b of node.bodies.values()) work.push(b.graph);
        kept.push(node);
        continue;
      }
      const outs = evaluate(node, hostOf, staticShape);
      if (outs && outs.length === node.outputs.length && outs.every((t) => t.values.length <= FOLD_MAX_ELEMENTS)) {
        node.outputs.forEach((o, k) => { makeConstant(g, o, outs[k]!, node); disposable.add(o); });
        release(node, disposable);
        stats.folded++;
        continue;
      }
      kept.push(node);
    }
    g.nodes = kept;
  }
  for (const g of visited) stats.removed += removeDead(g, disposable);
  return stats;
}

/** Drops the node's reads; constants it read may now be unread (removed at the end if so). */
function release(node: Node, disposable: Set<Value>): void {
  for (let k = 0; k < node.inputs.length; k++) {
    const v = node.inputs[k];
    if (v?.constant) disposable.add(v);
    node.setInput(k, null);
  }
}

function evaluate(node: Node, hostOf: (v: Value | null) => HostTensor | null, staticShape: (v: Value) => readonly number[] | null): HostTensor[] | null {
  if (node.dialect === 'onnx' && node.op === 'Constant' && (node.domain === '' || node.domain === 'ai.onnx')) {
    const t = readConstantNode(node);
    const h = t ? toHost(t) : null;
    return h ? [h] : null;
  }
  const shapeElem = shapeKernel(node);
  if (shapeElem) {
    const x = node.inputs[0];
    const dims = x ? x.constant?.dims ?? staticShape(x) : null;
    return dims ? [host(shapeElem, [dims.length], dims)] : null;
  }
  const kernel = kernelFor(node);
  if (!kernel) return null;
  const ins: (HostTensor | null)[] = [];
  for (const v of node.inputs) {
    if (v === null) { ins.push(null); continue; }
    const h = hostOf(v);
    if (!h) return null;
    ins.push(h);
  }
  try {
    return kernel(node, ins);
  } catch {
    return null; // an attribute of an unexpected kind: leave the node to the engine
  }
}

/** Output `o` of `node` becomes an initializer of `g` holding `h` (same Value: uses and names stay). */
function makeConstant(g: Graph, o: Value, h: HostTensor, node: Node): void {
  o.producer = null;
  o.outputIndex = -1;
  o.constant = fromHost(h);
  o.type = tensorType(h.elem, h.dims);
  if (node.dialect === 'ov') o.meta['layerName'] = o.meta['layerName'] ?? (node.name || `${node.op}_${node.ordinal}`);
  g.initializers.push(o);
}

/**
 * A constant bound into an If body is a constant there too: a body initializer (sharing the
 * payload) replaces the parameter's uses, so folding goes on inside (the parameter stays bound,
 * unread).
 */
function seedBodyConstants(node: Node): Value[] {
  const made: Value[] = [];
  for (const b of node.bodies.values()) {
    for (const bind of b.inputs) {
      const outer = node.inputs[bind.from];
      if (!outer?.constant || bind.param.uses.length === 0 && !b.graph.outputs.includes(bind.param)) continue;
      const c = b.graph.addInitializer(outer.constant, node.dialect === 'onnx' ? [] : [...bind.param.names]);
      made.push(c);
      if (node.dialect === 'ov') c.meta['layerName'] = `${bind.param.metaView['layerName'] ?? 'param'}/frozen`;
      for (const u of [...bind.param.uses]) u.node.setInput(u.index, c);
      for (let k = 0; k < b.graph.outputs.length; k++) if (b.graph.outputs[k] === bind.param) b.graph.outputs[k] = c;
    }
  }
  return made;
}

/**
 * Removes nodes (reverse order: one pass) whose outputs nobody reads, and the initializers in
 * `disposable` (made by folding or freezing) that nobody reads.
 */
function removeDead(g: Graph, disposable: Set<Value>): number {
  const live = new Set(g.outputs);
  let removed = 0;
  const kept: Node[] = [];
  for (let i = g.nodes.length - 1; i >= 0; i--) {
    const n = g.nodes[i]!;
    if (n.outputs.every((o) => o.uses.length === 0 && !live.has(o))) {
      release(n, disposable);
      removed++;
      continue;
    }
    kept.push(n);
  }
  g.nodes = kept.reverse();
  const inits = g.initializers.filter((v) => v.uses.length > 0 || live.has(v) || !disposable.has(v));
  g.initializers.splice(0, g.initializers.length, ...inits);
  return removed;
}

/**
 * The data of `v` when constants alone compute it: its own constant, or the ops below it folded
 * with the kernels above (each result at most FOLD_MAX_ELEMENTS elements, at most `maxNodes`
 * nodes in all; a node with bodies, a graph input or a run-time shape stops it). Reads the graph
 * and changes nothing: for a mapping that needs a value the target form holds only as data (an
 * OpenVINO state variable's initial value, an ONNX input's default). Iterative, linear in the
 * nodes visited.
 */
export function constantValue(v: Value, maxNodes = 256): Tensor | null {
  if (v.constant) return v.constant;
  const known = new Map<Value, HostTensor | null>();
  const hostOf = (x: Value | null): HostTensor | null => (x === null ? null : x.constant ? (elementCount(x.constant.dims) <= FOLD_MAX_ELEMENTS ? toHost(x.constant) : null) : known.get(x) ?? null);
  const stack: Value[] = [v];
  let visited = 0;
  while (stack.length) {
    const x = stack[stack.length - 1]!;
    if (known.has(x) || x.constant) { stack.pop(); continue; }
    const node = x.producer;
    if (!node || node.bodies.size > 0 || ++visited > maxNodes * 4) return null;
    const missing = node.inputs.filter((i): i is Value => i !== null && !i.constant && !known.has(i));
    if (missing.length) { stack.push(...missing); continue; }
    stack.pop();
    const outs = evaluate(node, hostOf, () => null);
    if (!outs || outs.length !== node.outputs.length || outs.some((t) => t.values.length > FOLD_MAX_ELEMENTS)) return null;
    node.outputs.forEach((o, k) => known.set(o, outs[k]!));
    if (known.size > maxNodes * 4) return null;
  }
  const h = known.get(v);
  return h ? fromHost(h) : null;
}
