import type { TensorType, ValueType } from '../graph/types.js';

/** Ranks up to this are interned (the key is built per value; deeper shapes are rare). */
const MAX_RANK = 8;

/**
 * One object per distinct static-or-dynamic tensor type of an inference run. Rules make a new
 * type object for every value they infer (a 100k-node chain: 100k equal `f32[1,16]`), and the
 * inference result keeps them all alive past young-generation collections: the collector copies
 * each twice. Equal types given back as one shared object let the rules' objects die young.
 * Types are read-only (graph/types.ts), so sharing is safe. Shapes with symbols or intervals are
 * left as they are (a symbol's object may be told apart by identity).
 */
export class TypeInterner {
  private readonly byKey = new Map<string, TensorType>();
  /** The shared objects (a few per model): one given back again needs no key (rules pass input types on). */
  private readonly shared = new Set<ValueType>();

  intern(t: ValueType): ValueType {
    if (t.kind !== 'tensor' || this.shared.has(t)) return t;
    const shape = t.shape;
    let key: string = t.elem;
    if (shape === null) key += '|*';
    else {
      if (shape.length > MAX_RANK) return t;
      key += '|';
      for (let i = 0; i < shape.length; i++) {
        const d = shape[i];
        if (d === null) key += '?,';
        else if (typeof d === 'number') key += `${d},`;
        else return t;
      }
    }
    const known = this.byKey.get(key);
    if (known) return known;
    this.byKey.set(key, t);
    this.shared.add(t);
    return t;
  }
}
