/** Runs `fn` over `items` with at most `n` in flight; results in item order. */
export async function mapPool<T, R>(items: readonly T[], n: number, fn: (item: T, worker: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (w: number): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!, w);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, (_, w) => worker(w)));
  return out;
}
