import { allGraphs, type Graph } from './graph.js';
import type { Node } from './node.js';
import { valuesMade, type Value } from './value.js';

/** The ids of a set of keys: smallest, largest, and how many keys. */
export interface IdRange { readonly min: number; readonly max: number; readonly count: number }

/**
 * A map keyed by graph objects with ids (values, nodes) for passes that note something about
 * every one of a model's or a graph's (inference's types, the IR writer's layer ids). Ids are
 * dense per model (objects are numbered as they are made, and a model's are made together), so
 * the table is two arrays indexed by `id - min` over the keys' id range, given at creation: no
 * hashing, no rehashing as it grows, no hash-table memory per entry (a Map over a 100k-node
 * model's values allocated ~10 MB per pass and cost ~3× the time of the arrays). A key outside
 * that range (made after the table, or of another model) goes to a Map beside them; ids spread
 * out (more than SPREAD × the keys, as after heavy editing) get the Map alone.
 * Iteration is in id order, then the Map's insertion order.
 */
export class IdTable<K extends { readonly id: number }, T> implements ReadonlyMap<K, T> {
  private readonly min: number;
  private readonly keyAt: (K | undefined)[];
  private readonly valueAt: (T | undefined)[];
  private readonly others = new Map<K, T>();
  private inRange = 0;

  /** A table for keys of ids in `range` (null: a Map alone). */
  constructor(range: IdRange | null) {
    const span = range && range.count ? range.max - range.min + 1 : 0;
    const dense = span > 0 && span <= SPREAD * range!.count + 4096;
    this.min = dense ? range!.min : 0;
    this.keyAt = new Array(dense ? span : 0);
    this.valueAt = new Array(dense ? span : 0);
  }

  get size(): number {
    return this.inRange + this.others.size;
  }

  get(v: K): T | undefined {
    const i = v.id - this.min;
    if (i >= 0 && i < this.keyAt.length) return this.keyAt[i] === v ? this.valueAt[i] : undefined;
    return this.others.get(v);
  }

  has(v: K): boolean {
    const i = v.id - this.min;
    if (i >= 0 && i < this.keyAt.length) return this.keyAt[i] === v;
    return this.others.has(v);
  }

  set(v: K, t: T): this {
    const i = v.id - this.min;
    if (i >= 0 && i < this.keyAt.length) {
      if (this.keyAt[i] !== v) {
        this.keyAt[i] = v;
        this.inRange++;
      }
      this.valueAt[i] = t;
    } else this.others.set(v, t);
    return this;
  }

  delete(v: K): boolean {
    const i = v.id - this.min;
    if (i >= 0 && i < this.keyAt.length) {
      if (this.keyAt[i] !== v) return false;
      this.keyAt[i] = undefined;
      this.valueAt[i] = undefined;
      this.inRange--;
      return true;
    }
    return this.others.delete(v);
  }

  forEach(each: (t: T, v: K, table: ReadonlyMap<K, T>) => void): void {
    const keys = this.keyAt;
    for (let i = 0; i < keys.length; i++) {
      const v = keys[i];
      if (v !== undefined) each(this.valueAt[i] as T, v, this);
    }
    this.others.forEach((t, v) => each(t, v, this));
  }

  *entries(): MapIterator<[K, T]> {
    const keys = this.keyAt;
    for (let i = 0; i < keys.length; i++) {
      const v = keys[i];
      if (v !== undefined) yield [v, this.valueAt[i] as T];
    }
    yield* this.others.entries();
  }

  *keys(): MapIterator<K> {
    for (const [v] of this.entries()) yield v;
  }

  *values(): MapIterator<T> {
    for (const [, t] of this.entries()) yield t;
  }

  [Symbol.iterator](): MapIterator<[K, T]> {
    return this.entries();
  }
}

/** Ids spread over more than this many times a model's values: a Map serves better than the arrays. */
const SPREAD = 4;

/** An IdTable over the values of `root` and its bodies (null: a Map alone). */
export class ValueTable<T> extends IdTable<Value, T> {
  constructor(root: Graph | null) {
    super(root ? valueIds(root) : null);
  }
}

/**
 * The ranges found so far, by root graph, with the count of values made when each was found: while
 * no value has been made since, the range still holds (the passes of one conversion over the
 * source model — its inference, the converter's map — share one walk). Graphs edited without
 * making values may have a wider range than they need: harmless for a table.
 */
const RANGES = new WeakMap<Graph, { readonly made: number; readonly range: IdRange }>();

/** The id range of every value of `root` and its bodies (one walk, remembered while no value is made). */
export function valueIds(root: Graph): IdRange {
  const made = valuesMade();
  const known = RANGES.get(root);
  if (known && known.made === made) return known.range;
  const range = walkValueIds(root);
  RANGES.set(root, { made, range });
  return range;
}

/** valueIds' walk: plain loops, over every value of the model. */
function walkValueIds(root: Graph): IdRange {
  let min = Infinity;
  let max = -Infinity;
  let count = 0;
  for (const g of allGraphs(root)) {
    for (const list of [g.inputs, g.initializers]) {
      for (let i = 0; i < list.length; i++) {
        const id = list[i]!.id;
        if (id < min) min = id;
        if (id > max) max = id;
      }
      count += list.length;
    }
    const nodes = g.nodes;
    for (let k = 0; k < nodes.length; k++) {
      const outs = nodes[k]!.outputs;
      for (let i = 0; i < outs.length; i++) {
        const id = outs[i]!.id;
        if (id < min) min = id;
        if (id > max) max = id;
      }
      count += outs.length;
    }
  }
  return { min, max, count };
}

/** The id range of `nodes`. */
export function nodeIds(nodes: readonly Node[]): IdRange {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < nodes.length; i++) {
    const id = nodes[i]!.id;
    if (id < min) min = id;
    if (id > max) max = id;
  }
  return { min, max, count: nodes.length };
}
