import { Annotated } from './meta.js';
import type { Graph } from './graph.js';
import type { Node } from './node.js';
import type { Tensor } from './tensor.js';
import type { ValueType } from './types.js';

let nextValueId = 1;

/** How many values were ever made (ids are 1 up to this): a value made since a count changes it. */
export const valuesMade = (): number => nextValueId - 1;

/**
 * Appends `x` to `list`, returning the list to keep. V8 gives an empty array 16 slots on its first
 * push (about 150 bytes): short lists (most inputs, outputs and uses have 1–3 entries) are instead
 * copied at their exact size, longer ones grow in place (so appending stays amortized O(1)).
 */
export function append<T>(list: T[], x: T): T[] {
  if (list.length >= 4) {
    list.push(x);
    return list;
  }
  const out = new Array<T>(list.length + 1);
  for (let i = 0; i < list.length; i++) out[i] = list[i]!;
  out[list.length] = x;
  return out;
}

/** A place where a value is read: input `index` of `node`. */
export interface Use { readonly node: Node; readonly index: number }

/**
 * One SSA value, linked by identity. It is a graph input (no producer, listed in graph.inputs),
 * an initializer/constant (no producer, `constant` set, listed in graph.initializers), or output
 * `outputIndex` of `producer`. Names are the tensor names both formats know it by (ONNX: exactly
 * one; IR: the port's `names` set, possibly empty).
 */
export class Value extends Annotated {
  readonly id = nextValueId++;
  graph: Graph;
  producer: Node | null = null;
  outputIndex = -1;
  /** null: not known (to be inferred). */
  type: ValueType | null;
  names: string[];
  /** A constant payload (initializers, IR Const). */
  constant: Tensor | null = null;
  /** Where the value is read (kept by Node.addInput/setInput; the array may be replaced as it grows). */
  uses: Use[] = [];

  constructor(graph: Graph, type: ValueType | null, names: string[] = []) {
    super();
    this.graph = graph;
    this.type = type;
    this.names = names;
  }

  /** The primary name ('' if none). */
  get name(): string {
    return this.names[0] ?? '';
  }

  /** A label for messages: the name, or `<op>:<output index>`, or `#id`. */
  get label(): string {
    if (this.names[0]) return this.names[0];
    if (this.producer) return `${this.producer.label}:${this.outputIndex}`;
    return `#${this.id}`;
  }
}
