import type { Node } from '../graph/node.js';

/**
 * For an op of the main graph that has no conversion but only makes model outputs (skl2onnx's
 * ZipMap after a classifier, a post-processing step at the end of a net): how ovc's `--output`
 * converts the rest — the model's other outputs and the op's inputs instead of its outputs. ''
 * when the op feeds anything else, sits in a body, has an input without a name to give, or when
 * the cut would leave no node to convert.
 */
export function cutBeforeHint(n: Node): string {
  const g = n.graph;
  if (g.owner) return '';
  const outputs = g.outputs;
  if (!n.outputs.length || n.outputs.some((v) => v.uses.length > 0 || !outputs.includes(v))) return '';
  const inputs = n.inputs.filter((v) => v !== null);
  if (!inputs.length || inputs.some((v) => !v.name)) return '';
  const keep = [...outputs.filter((o) => o.producer !== n), ...inputs];
  // a cut that leaves no node (the op reads only graph inputs and constants) converts nothing
  if (!keep.some((v) => v.producer !== null)) return '';
  const kept: string[] = [];
  for (const v of keep) if (v.name && !kept.includes(v.name)) kept.push(v.name);
  const made = n.outputs.map((v) => `'${v.name}'`).join(', ');
  return `it only makes the model's output${n.outputs.length > 1 ? 's' : ''} ${made}; \`--output ${kept.join(',')}\` converts the model without it`;
}
