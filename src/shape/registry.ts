import type { Dialect } from '../graph/node.js';
import { formatRange, inRange, rangesOverlap } from '../graph/version-range.js';
import type { Rule } from './rule.js';

/** Rules looked up by (dialect, domain, op) and the node's version. */
export interface Registry {
  lookup(dialect: Dialect, domain: string, op: string, version: number): Rule | undefined;
  /** Every op with at least one rule, as `dialect:domain:op`. */
  readonly keys: readonly string[];
}

const normDomain = (d: string | undefined): string => (d === undefined || d === 'ai.onnx' ? '' : d);
const keyOf = (dialect: Dialect, domain: string | undefined, op: string): string => `${dialect}:${normDomain(domain)}:${op}`;

/**
 * Builds the registry from a list of rules (pure). Overlapping version ranges for one op are a
 * programming error and throw, naming both rules.
 */
export function buildRegistry(rules: readonly Rule[]): Registry {
  const byKey = new Map<string, Rule[]>();
  for (const r of rules) {
    const k = keyOf(r.dialect, r.domain, r.op);
    const list = byKey.get(k) ?? [];
    for (const o of list) {
      if (rangesOverlap(o, r)) throw new Error(`shape rules overlap for ${k}: versions ${formatRange(o)} and ${formatRange(r)}`);
    }
    list.push(r);
    byKey.set(k, list);
  }
  for (const list of byKey.values()) list.sort((a, b) => a.since - b.since);
  // Looked up once per node: by dialect, then domain, then op, with no key string built per lookup.
  const nested = new Map<Dialect, Map<string, Map<string, Rule[]>>>();
  for (const r of rules) {
    let byDomain = nested.get(r.dialect);
    if (!byDomain) nested.set(r.dialect, (byDomain = new Map()));
    let byOp = byDomain.get(normDomain(r.domain));
    if (!byOp) byDomain.set(normDomain(r.domain), (byOp = new Map()));
    byOp.set(r.op, byKey.get(keyOf(r.dialect, r.domain, r.op))!);
  }
  return {
    keys: [...byKey.keys()].sort(),
    lookup(dialect, domain, op, version) {
      const list = nested.get(dialect)?.get(domain === 'ai.onnx' ? '' : domain)?.get(op);
      if (!list || !Number.isFinite(version)) return undefined;
      for (const r of list) if (inRange(r, version)) return r;
      return undefined;
    },
  };
}

export { nodeVersion } from '../graph/node.js';
