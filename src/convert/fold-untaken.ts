import type { Diagnostics } from '../diag/diagnostic.js';
import type { Graph } from '../graph/graph.js';
import type { Node } from '../graph/node.js';
import type { UntakenBranch } from '../shape/infer.js';
import { inlineIf } from './inline-if.js';

/**
 * ONNX → IR: an If whose condition inference knows and whose other branch does not infer (ONNX
 * lets a branch that never runs be inconsistent — the expanded AffineGrid function gathers a 2-D
 * theta in the branch a 3-D size never takes — while OpenVINO validates every body when it reads
 * an IR) is replaced by the branch it takes (inline-if.ts), as OpenVINO's own transformations fold
 * an If with a constant condition. Each fold is a CONVERT_IF_FOLDED warning naming the If, the
 * branch and the first error of the other one. An If whose branches both infer stays an If.
 * Walks the graphs from the main one with a work list (no recursion); Ifs inside an untaken branch
 * go with it; Ifs inside a taken one are looked at in turn. Returns how many Ifs it replaced.
 */
export function foldUntakenBranches(root: Graph, untaken: ReadonlyMap<Node, UntakenBranch>, diags: Diagnostics): number {
  let folded = 0;
  const work: Graph[] = [root];
  while (work.length) {
    const g = work.pop()!;
    const pending = [...g.nodes].reverse();
    const kept: Node[] = [];
    while (pending.length) {
      const node = pending.pop()!;
      const u = node.op === 'If' ? untaken.get(node) : undefined;
      if (u && u.errors.length) {
        const path = node.path;
        const moved = inlineIf(node, u.cond);
        if (moved) {
          folded++;
          diags.add('CONVERT_IF_FOLDED', path, {
            cond: String(u.cond), branch: u.cond ? 'then' : 'else', errors: u.errors.length,
            detail: `${u.errors[0]!.where}: ${u.errors[0]!.message}`,
          });
          for (let k = moved.length - 1; k >= 0; k--) pending.push(moved[k]!);
          continue;
        }
      }
      for (const b of node.bodies.values()) work.push(b.graph);
      kept.push(node);
    }
    g.nodes = kept;
  }
  return folded;
}
