import type { Node } from '../../src/graph/node.js';
import type { Value } from '../../src/graph/value.js';

/**
 * A list built by appending in a loop, then concatenated (PyTorch's `out = []; for …:
 * out.append(t); torch.cat(out)`), as ONNX writes it:
 *
 *   s0 = SequenceEmpty()
 *   …, s_final = Loop(M, cond, …, s0)        body: s_next = SequenceInsert(…SequenceInsert(s, t₁)…, tₖ)
 *   y = ConcatFromSequence(s_final, axis, new_axis)
 *
 * IR has no sequence, but the Loop-5 concatenated output is exactly this: each iteration's part
 * [t₁ … tₖ] concatenated along an axis (OpenVINO's frontend makes the same rewrite, its
 * SequenceConcatReplacer). The pattern is taken only where nothing else can see the difference:
 *  - the initial value is a SequenceEmpty;
 *  - in the body, the sequence parameter goes through SequenceInserts without a position (appends)
 *    to the body output, each step read by nothing else (so the body never reads what earlier
 *    iterations appended: it sees the sequence as empty, the parts are its appends);
 *  - after the loop, the final sequence is read only by ConcatFromSequence nodes, all with the same
 *    axis and new_axis, and is no graph output.
 * Anything else keeps the general rule: a sequence cannot cross a body boundary (refused).
 */
export interface AppendedSequence {
  /** Loop-carried index (the node's input 2 + carried, the body's input 2 + carried, output carried). */
  readonly carried: number;
  /** The body's sequence parameter and the tensors appended to it, in order. */
  readonly param: Value;
  readonly appended: readonly Value[];
  readonly axis: bigint;
  readonly newAxis: boolean;
}

/** The appended sequences of an ONNX Loop node, by the rules above (pure: the source graph only). */
export function appendedSequences(node: Node): AppendedSequence[] {
  const own = Number(node.metaView['onnxInputCount'] ?? node.inputs.length);
  const found: AppendedSequence[] = [];
  for (let i = 0; 2 + i < own; i++) {
    const a = appendedSequence(node, i);
    if (typeof a !== 'string') found.push(a);
  }
  return found;
}

/** Loop-carried value `i` as an appended sequence, or why it is not one. */
export function appendedSequence(node: Node, i: number): AppendedSequence | string {
  const g = node.bodies.get('body')?.graph;
  const formal = g ? g.inputs.filter((p) => p.metaView['onnxCapture'] !== true) : [];
  const init = node.inputs[2 + i];
  const param = formal[2 + i];
  const next = g?.outputs[1 + i];
  const out = node.outputs[i];
  if (!init || !param || !next || !out) return 'the loop has no such value';
  if (init.producer?.op !== 'SequenceEmpty') return `its initial value is ${init.producer ? `made by ${init.producer.op}` : 'no SequenceEmpty'}, not SequenceEmpty`;
  const appended = appendChain(param, next);
  if (typeof appended === 'string') return appended;
  const concat = concatenation(out, node);
  if (typeof concat === 'string') return concat;
  return { carried: i, param, appended, ...concat };
}

/** The tensors appended from `param` to `last` through position-less SequenceInserts, each step read once. */
function appendChain(param: Value, last: Value): Value[] | string {
  const appended: Value[] = [];
  let at = param;
  while (at !== last) {
    const use = at.uses.length === 1 ? at.uses[0]! : null;
    const n = use?.node;
    if (!n || n.op !== 'SequenceInsert' || use.index !== 0 || n.inputs[2] || !n.inputs[1] || at.graph.outputs.includes(at)) {
      const readers = at.uses.map((u) => `${u.node.op}${u.node.op === 'SequenceInsert' && u.node.inputs[2] ? ' at a position' : ''}`);
      return `in the body, '${at.label}' is read by ${readers.length ? readers.join(', ') : 'nothing'}${at.graph.outputs.includes(at) && at !== last ? ' and is a body output' : ''} (each step must be one position-less SequenceInsert, an append)`;
    }
    appended.push(n.inputs[1]);
    at = n.outputs[0]!;
  }
  if (!appended.length) return 'the body appends nothing to it';
  if (last.uses.length || last.graph.outputs.filter((v) => v === last).length !== 1) return `in the body, '${last.label}' is also read by another node or output`;
  return appended;
}

/** The one (axis, new_axis) every reader of the final sequence concatenates with, or why there is none. */
function concatenation(out: Value, loop: Node): { axis: bigint; newAxis: boolean } | string {
  if (out.graph.outputs.includes(out)) return `'${out.label}' is a graph output`;
  if (!out.uses.length) return `'${out.label}' is read by nothing`;
  let found: { axis: bigint; newAxis: boolean } | null = null;
  for (const u of out.uses) {
    if (u.node.op !== 'ConcatFromSequence' || u.node === loop) return `after the loop, '${out.label}' is read by ${u.node.op} (${u.node.path}), not only by ConcatFromSequence`;
    const axis = u.node.attrsView.get('axis');
    const newAxis = u.node.attrsView.get('new_axis');
    if (axis?.type !== 'int' || (newAxis && (newAxis.type !== 'int' || (newAxis.value !== 0n && newAxis.value !== 1n)))) return `${u.node.path} has no valid axis / new_axis`;
    const here = { axis: axis.value, newAxis: newAxis?.value === 1n };
    if (found && (found.axis !== here.axis || found.newAxis !== here.newAxis)) return `after the loop, '${out.label}' is concatenated with two different axes`;
    found = here;
  }
  return found!;
}
