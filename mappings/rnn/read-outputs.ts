import type { Value } from '../../src/graph/value.js';
import type { ConvertContext } from '../spec.js';

/**
 * The outputs of a recurrent node (Y, Y_h, Y_c…) that anything reads or the graph returns, each
 * from `value(i)`; an output nobody reads is left unconverted (c.unused), so its subgraph is not
 * built for nothing.
 */
export function emitReadOutputs(c: ConvertContext, value: (i: number) => Value): void {
  c.node.outputs.forEach((o, i) => {
    if (o.uses.length === 0 && !o.graph.outputs.includes(o)) c.unused(i);
    else c.output(i, value(i));
  });
}
