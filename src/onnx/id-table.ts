import type { Graph } from '../graph/graph.js';
import type { Value } from '../graph/value.js';

/**
 * A map from ids (Value.id, Node.id: small integers handed out in creation order) to values, for
 * the encoder's per-value and per-node lookups: a plain array over the id range [base, base +
 * size) when the ids used fill it densely, and a Map for any id outside it. Values and nodes of a
 * model are mostly made together, so their ids are close; an array slot is one indexed load where
 * a Map of 100k entries was a hash probe and a cache miss (measured: the encoder's name and
 * position lookups were ~40 % of writing chain100k, as Maps keyed by id).
 * Holds no `undefined` value (get's undefined means "absent").
 */
export class IdTable<T> {
  private readonly slots: (T | undefined)[];
  private other: Map<number, T> | undefined;

  private constructor(private readonly base: number, size: number) {
    this.slots = new Array<T | undefined>(size).fill(undefined);
  }

  /**
   * A table for `count` ids between `min` and `max`: an array over that range when they fill at
   * least a quarter of it (or it is small), else only a map.
   */
  static over<T>(min: number, max: number, count: number): IdTable<T> {
    const range = max - min + 1;
    return new IdTable<T>(min, count > 0 && range > 0 && range <= 4 * count + 1024 ? range : 0);
  }

  /** A table for the ids of `items`. */
  static forIds<T>(items: readonly { readonly id: number }[]): IdTable<T> {
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < items.length; i++) {
      const id = items[i]!.id;
      if (id < min) min = id;
      if (id > max) max = id;
    }
    return IdTable.over<T>(min, max, items.length);
  }

  /** A table for the ids of the values of `graphs` (inputs, initializers, node outputs). */
  static forValuesOf<T>(graphs: readonly Graph[]): IdTable<T> {
    let min = Infinity;
    let max = -Infinity;
    let count = 0;
    const see = (vs: readonly Value[]): void => {
      for (let i = 0; i < vs.length; i++) {
        const id = vs[i]!.id;
        if (id < min) min = id;
        if (id > max) max = id;
      }
      count += vs.length;
    };
    for (let i = 0; i < graphs.length; i++) {
      const g = graphs[i]!;
      see(g.inputs);
      see(g.initializers);
      for (let k = 0; k < g.nodes.length; k++) see(g.nodes[k]!.outputs);
    }
    return IdTable.over<T>(min, max, count);
  }

  get(id: number): T | undefined {
    const i = id - this.base;
    return i >= 0 && i < this.slots.length ? this.slots[i] : this.other?.get(id);
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, value: T): void {
    const i = id - this.base;
    if (i >= 0 && i < this.slots.length) this.slots[i] = value;
    else (this.other ??= new Map()).set(id, value);
  }
}
