/**
 * Symbols (ONNX dim_params, or symbols made by inference) seen while comparing two models.
 *
 * A symbol is an unknown size with an identity: every dim carrying it has the same runtime value.
 * When a dim of A and the dim of B at the same place in the same tensor are compared, both denote
 * one runtime number, so the comparison *binds* them: a symbol meets a static size or an interval
 * (its range narrows), or another symbol (the two become one class, ranges intersected). The two
 * sides' symbols live in separate namespaces (`a:N` is not `b:N` until a comparison binds them).
 * A class whose range becomes empty is a contradiction: no runtime value satisfies both models.
 * Union-find with path halving; no recursion.
 */
export type Side = 'a' | 'b';

interface Range {
  lo: number;
  hi: number;
  /** What set `lo`/`hi` and where (`3 at main/x[0]`), for messages. */
  loAt: string;
  hiAt: string;
  /** Order in which the bounds were set, so that messages name the earlier place first. */
  loSeq: number;
  hiSeq: number;
}

export class SymbolBindings {
  private readonly parent = new Map<string, string>();
  private readonly range = new Map<string, Range>();
  /** Symbols of the other side each symbol has been compared with (bijection check). */
  private readonly partners = new Map<string, Set<string>>();
  private seq = 0;

  private find(key: string): string {
    if (!this.parent.has(key)) {
      this.parent.set(key, key);
      this.range.set(key, { lo: 0, hi: Infinity, loAt: '', hiAt: '', loSeq: 0, hiSeq: 0 });
    }
    let k = key;
    for (;;) {
      const p = this.parent.get(k)!;
      if (p === k) return k;
      const gp = this.parent.get(p)!;
      this.parent.set(k, gp);
      k = gp;
    }
  }

  private static conflict(key: string, r: Range): string {
    const [first, second] = r.loSeq < r.hiSeq ? [r.loAt, r.hiAt] : [r.hiAt, r.loAt];
    return `symbol '${key.slice(2)}' of ${key.slice(0, 1).toUpperCase()} is ${first} but ${second}: no size satisfies both`;
  }

  /** The range a class currently allows, or undefined for a symbol never seen. */
  rangeOf(side: Side, name: string): { lo: number; hi: number } | undefined {
    const key = `${side}:${name}`;
    if (!this.parent.has(key)) return undefined;
    const r = this.range.get(this.find(key))!;
    return { lo: r.lo, hi: r.hi };
  }

  /**
   * Narrows the symbol's class to [lo, hi] (a static size when lo == hi). Returns a message when
   * the class becomes empty (a contradiction), undefined otherwise.
   */
  constrain(side: Side, name: string, lo: number, hi: number, at: string): string | undefined {
    const key = `${side}:${name}`;
    const r = this.range.get(this.find(key))!;
    const what = `${lo === hi ? lo : `${lo}..${hi === Infinity ? '' : hi}`} at ${at}`;
    const seq = ++this.seq;
    if (lo > r.lo) { r.lo = lo; r.loAt = what; r.loSeq = seq; }
    if (hi < r.hi) { r.hi = hi; r.hiAt = what; r.hiSeq = seq; }
    return r.lo > r.hi ? SymbolBindings.conflict(key, r) : undefined;
  }

  /**
   * Binds symbol `a` (of A) and symbol `b` (of B) as one size. Returns whether the pairing is still
   * a bijection (each symbol met only its one partner), and a contradiction message if the joined
   * class has an empty range.
   */
  unite(aName: string, bName: string): { bijective: boolean; mergedBy?: Side; conflict?: string } {
    const ka = `a:${aName}`;
    const kb = `b:${bName}`;
    const pa = this.partnersOf(ka);
    const pb = this.partnersOf(kb);
    pa.add(kb);
    pb.add(ka);
    // A symbol with several partners on the other side says those are one size: that side is
    // more precise (it relates dims the other side keeps apart).
    const mergedBy: Side | undefined = pa.size > 1 && pb.size === 1 ? 'a' : pb.size > 1 && pa.size === 1 ? 'b' : undefined;
    const bijective = pa.size === 1 && pb.size === 1;
    const ra = this.find(ka);
    const rb = this.find(kb);
    if (ra === rb) return { bijective, mergedBy };
    const A = this.range.get(ra)!;
    const B = this.range.get(rb)!;
    this.parent.set(rb, ra);
    if (B.lo > A.lo) { A.lo = B.lo; A.loAt = B.loAt; A.loSeq = B.loSeq; }
    if (B.hi < A.hi) { A.hi = B.hi; A.hiAt = B.hiAt; A.hiSeq = B.hiSeq; }
    const conflict = A.lo > A.hi ? SymbolBindings.conflict(ka, A) : undefined;
    return conflict ? { bijective, mergedBy, conflict } : { bijective, mergedBy };
  }

  private partnersOf(key: string): Set<string> {
    let s = this.partners.get(key);
    if (!s) this.partners.set(key, (s = new Set()));
    return s;
  }
}
