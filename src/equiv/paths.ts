import type { Graph } from '../graph/graph.js';
import type { Node } from '../graph/node.js';
import type { Value } from '../graph/value.js';

/**
 * Graph paths as src/graph spells them (`main/If_3/then/Conv_7`), cached: `Node.label` of an
 * unnamed node looks its position up in the node list, and `Graph.path` walks to the root, which
 * repeated for every value would cost O(nodes²) and O(values × depth). Here each graph's node
 * positions and each graph's path are computed once.
 */
export class Paths {
  private readonly graphPaths = new Map<Graph, string>();
  private readonly positions = new Map<Graph, Map<Node, number>>();

  label(n: Node): string {
    if (n.name) return n.name;
    let pos = this.positions.get(n.graph);
    if (!pos) {
      pos = new Map(n.graph.nodes.map((m, i) => [m, i]));
      this.positions.set(n.graph, pos);
    }
    return `${n.op}#${pos.get(n) ?? -1}`;
  }

  graph(g: Graph): string {
    const hit = this.graphPaths.get(g);
    if (hit !== undefined) return hit;
    // Walk up to the nearest cached (or root) graph, then fill the cache on the way down.
    const chain: Graph[] = [];
    let top: Graph = g;
    while (top.owner && !this.graphPaths.has(top)) { chain.push(top); top = top.owner.node.graph; }
    if (!this.graphPaths.has(top)) this.graphPaths.set(top, top.name || 'main');
    for (let i = chain.length - 1; i >= 0; i--) {
      const c = chain[i]!;
      const owner = c.owner!;
      this.graphPaths.set(c, `${this.graphPaths.get(owner.node.graph)!}/${this.label(owner.node)}/${owner.key.replace(/_(branch|body)$/, '')}`);
    }
    return this.graphPaths.get(g)!;
  }

  node(n: Node): string {
    return `${this.graph(n.graph)}/${this.label(n)}`;
  }

  /** `main/If_0/then/Add:0` for a node output, `main/If_0/then/x` for a parameter or constant. */
  value(v: Value): string {
    if (v.producer) return `${this.node(v.producer)}:${v.outputIndex}`;
    const layer = v.metaView['layerName'];
    const label = typeof layer === 'string' && layer !== '' ? layer : (v.name || `#${v.id}`);
    return `${this.graph(v.graph)}/${label}`;
  }

  /** The value's name, or `<node label>:<output>` when it has none. */
  valueLabel(v: Value): string {
    if (v.names[0]) return v.names[0];
    if (v.producer) return `${this.label(v.producer)}:${v.outputIndex}`;
    return `#${v.id}`;
  }
}
