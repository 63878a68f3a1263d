/** `--shard i/n`: shard i (1-based) of n. */
export interface Shard {
  index: number;
  count: number;
}

/** Parses `i/n` with 1 ≤ i ≤ n; returns an error message for anything else. */
export function parseShard(text: string): Shard | string {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) return `--shard expects i/n (e.g. 2/8), got '${text}'`;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) return `--shard ${text}: need 1 <= i <= n`;
  return { index, count };
}

/**
 * The models of shard `index` of `count`: every count-th item of the sorted list, starting at
 * position index-1. Deterministic for the same inputs on every machine, the shards are disjoint
 * and together hold every item, and their sizes differ by at most one.
 */
export function selectShard<T>(sorted: readonly T[], shard: Shard | undefined): T[] {
  if (!shard) return [...sorted];
  return sorted.filter((_, k) => k % shard.count === shard.index - 1);
}
