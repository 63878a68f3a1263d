import { allGraphs, type Graph } from './graph.js';
import type { Value } from './value.js';

/**
 * A map from the values of one model to T, for passes that note something about every value
 * (inference's types). Values carry ids that are dense per model (they are numbered as they are
 * made, and a model's values are made together), so the table is two arrays indexed by
 * `id - min` over the model's id range, found by one walk at creation: no hashing, no rehashing
 * as it grows, no hash-table memory per entry (a Map over a 100k-node model's values allocated
 * ~10 MB per pass and cost ~3× the time of the arrays). A value outside that range (made after
 * the table, or of another model) goes to a Map beside them. A model whose ids are spread out
 * (more than SPREAD × its values, as after heavy editing) gets the Map alone.
 * Iteration is in id order, then the Map's insertion order.
 */
export class ValueTable<T> implements ReadonlyMap<Value, T> {
  private readonly min: number;
  private readonly keyAt: (Value | undefined)[];
  private readonly valueAt: (T | undefined)[];
  private readonly others = new Map<Value, T>();
  private inRange = 0;

  /** A table for the values of `root` and its bodies (`root` null: a Map alone). */
  constructor(root: Graph | null) {
    let min = Infinity;
    let max = -Infinity;
    let count = 0;
    // plain loops: this walk runs once per table over every value of the model
    if (root) {
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
    }
    const span = count ? max - min + 1 : 0;
    const dense = span > 0 && span <= SPREAD * count + 4096;
    this.min = dense ? min : 0;
    this.keyAt = new Array(dense ? span : 0);
    this.valueAt = new Array(dense ? span : 0);
  }

  get size(): number {
    return this.inRange + this.others.size;
  }

  get(v: Value): T | undefined {
    const i = v.id - this.min;
    if (i >= 0 && i < this.keyAt.length) return this.keyAt[i] === v ? this.valueAt[i] : undefined;
    return this.others.get(v);
  }

  has(v: Value): boolean {
    const i = v.id - this.min;
    if (i >= 0 && i < this.keyAt.length) return this.keyAt[i] === v;
    return this.others.has(v);
  }

  set(v: Value, t: T): this {
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

  delete(v: Value): boolean {
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

  forEach(each: (t: T, v: Value, table: ReadonlyMap<Value, T>) => void): void {
    const keys = this.keyAt;
    for (let i = 0; i < keys.length; i++) {
      const v = keys[i];
      if (v !== undefined) each(this.valueAt[i] as T, v, this);
    }
    this.others.forEach((t, v) => each(t, v, this));
  }

  *entries(): MapIterator<[Value, T]> {
    const keys = this.keyAt;
    for (let i = 0; i < keys.length; i++) {
      const v = keys[i];
      if (v !== undefined) yield [v, this.valueAt[i] as T];
    }
    yield* this.others.entries();
  }

  *keys(): MapIterator<Value> {
    for (const [v] of this.entries()) yield v;
  }

  *values(): MapIterator<T> {
    for (const [, t] of this.entries()) yield t;
  }

  [Symbol.iterator](): MapIterator<[Value, T]> {
    return this.entries();
  }
}

/** Ids spread over more than this many times a model's values: a Map serves better than the arrays. */
const SPREAD = 4;
