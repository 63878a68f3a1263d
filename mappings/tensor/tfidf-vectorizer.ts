import { tensorFromFloat32, tensorFromInt32, tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/** One n-gram of the pool that is counted: its tokens, its id (its place in the pool, from 0) and the output column its count adds to. */
interface PoolGram { tokens: bigint[]; id: number; column: number }

/**
 * The n-grams TfIdfVectorizer counts, by size (onnx's reference builds the same trie): the pool
 * holds, from `ngram_counts[n - 1]` on, the n-grams of size n one after another; each has the next
 * id (0, 1, …, over the whole pool, sizes outside [min_gram_length, max_gram_length] included) and
 * adds to column `ngram_indexes[id]`. A repeated n-gram keeps its last id (the trie's leaf is
 * overwritten), so it is counted once, in its last column.
 */
export function poolGrams(pool: readonly bigint[], counts: readonly bigint[], indexes: readonly bigint[], minN: number, maxN: number): Map<number, PoolGram[]> | string {
  const bySize = new Map<number, Map<string, PoolGram>>();
  let id = 0;
  for (let i = 0; i < counts.length; i++) {
    const n = i + 1;
    const start = Number(counts[i]!);
    const end = i + 1 < counts.length ? Number(counts[i + 1]!) : pool.length;
    if (start < 0 || end > pool.length || start > end) return `ngram_counts ${counts.join(',')} do not fit a pool of ${pool.length}`;
    for (let at = start; at + n <= end; at += n) {
      const column = indexes[id];
      if (column === undefined || column < 0n) return `ngram_indexes has no column ≥ 0 for n-gram ${id}`;
      id++;
      if (n < minN || n > maxN) continue;
      const tokens = pool.slice(at, at + n);
      let grams = bySize.get(n);
      if (!grams) bySize.set(n, (grams = new Map()));
      const key = tokens.join(',');
      grams.delete(key); // the last occurrence wins, in its own place
      grams.set(key, { tokens, id: id - 1, column: Number(column) });
    }
  }
  return new Map([...bySize].map(([n, g]) => [n, [...g.values()]]));
}

/**
 * Counts of the n-grams of one size `n` at skip distance `d` in the rows of `x` ([B, C]): the
 * tokens at s, s + d, …, s + (n − 1)d for every start s with s + (n − 1)d < C, each compared with
 * the k-th tokens of the pool's n-grams and the n comparisons ANDed, summed over s: [B, P] (f32).
 */
function countAt(c: ConvertContext, x: Value, grams: readonly PoolGram[], n: number, d: number, elem: 'i32' | 'i64'): Value {
  const b = irBuilder(c);
  let hit: Value | null = null;
  for (let k = 0; k < n; k++) {
    // x[:, k·d : C − (n − 1 − k)·d], every one of the n slices L = C − (n − 1)d long (empty when negative)
    const tail = (n - 1 - k) * d;
    const part = b.sliceStep(x, BigInt(k * d), tail ? BigInt(-tail) : BigInt(Number.MAX_SAFE_INTEGER), 1n, 1n);
    const kth = grams.map((g) => g.tokens[k]!);
    const pool = c.constant(elem === 'i64' ? tensorFromInt64(kth) : tensorFromInt32(kth.map(Number)));
    const eq = b.compare('Equal', b.unsqueeze(part, [2n]), pool); // [B, L, P]
    hit = hit ? b.and(hit, eq) : eq;
  }
  return c.emit('ReduceSum', [b.convert(hit!, 'f32'), i64Const(c, [1n])], { keep_dims: 'false' }, 1, 'opset1')[0]!;
}

/**
 * ONNX TfIdfVectorizer (OpenVINO has no op) of integer tokens: for every pool n-gram with
 * min_gram_length ≤ n ≤ max_gram_length, the number of its occurrences in each row at every skip
 * distance d = 1 … max_skip_count + 1 (unigrams at d = 1 only: skips do not change them), added
 * into its output column by a constant matrix (MatMul: exact in f32 for counts below 2^24). TF: the
 * counts; TFIDF: each n-gram's count times its weight (`weights[id]`, the i-th weight of the i-th
 * n-gram as the spec says and onnxruntime computes; plain counts without weights); IDF: where a
 * column's count is > 0, the weight of its n-gram (1 without weights). onnxruntime's IDF takes, for
 * a column that several weighted n-grams share, the weight of the one matched last in its scan
 * order, which no fixed IR form follows: refused. (onnx's reference evaluator reads the weights by
 * column instead; the two agree when ngram_indexes is 0, 1, 2, ….) X of rank 1 is one row.
 */
export const TFIDF_VECTORIZER: readonly OpMapping[] = [
  {
    onnx: { op: 'TfIdfVectorizer', since: 9 },
    ir: null,
    decomposes: ['Slice', 'Equal', 'LogicalAnd', 'ReduceSum', 'MatMul', 'Select', 'Multiply'],
    handles: { onnx: ['max_gram_length', 'max_skip_count', 'min_gram_length', 'mode', 'ngram_counts', 'ngram_indexes', 'pool_int64s', 'pool_strings', 'weights'] },
    note: 'IR: per pool n-gram size and skip distance, strided Slices compared with the pool and counted (ReduceSum); MatMul into the output columns; the mode\'s weighting',
    toIr: (c) => {
      if (c.attr.strings('pool_strings')?.length) { c.unsupportedAttr('pool_strings', 'strings', 'OpenVINO IR has no string element type'); return; }
      const elem = c.elem(0);
      if (elem !== 'i32' && elem !== 'i64') { c.error(`X of ${elem ?? 'unknown element type'}: the tokens must be int32 or int64`); return; }
      const rank = c.rank(0);
      if (rank === null || rank > 2) { c.error(`needs X of rank 0, 1 or 2 (${rank === null ? 'unknown' : rank})`); return; }
      const mode = c.attr.string('mode', '');
      if (mode !== 'TF' && mode !== 'IDF' && mode !== 'TFIDF') { c.unsupportedAttr('mode', mode, 'TF, IDF or TFIDF'); return; }
      const minN = Number(c.attr.int('min_gram_length', 1n));
      const maxN = Number(c.attr.int('max_gram_length', 1n));
      const maxSkip = Number(c.attr.int('max_skip_count', 0n));
      const indexes = c.attr.ints('ngram_indexes') ?? [];
      if (minN < 1 || maxN < minN || maxSkip < 0 || !indexes.length) {
        c.error(`min_gram_length ${minN}, max_gram_length ${maxN}, max_skip_count ${maxSkip} and ${indexes.length} ngram_indexes (1 ≤ min ≤ max, skips ≥ 0, some indexes)`);
        return;
      }
      const grams = poolGrams(c.attr.ints('pool_int64s') ?? [], c.attr.ints('ngram_counts') ?? [], indexes, minN, maxN);
      if (typeof grams === 'string') { c.error(grams); return; }
      const width = Number(indexes.reduce((m, v) => (v > m ? v : m), 0n)) + 1;
      const weights = mode === 'TF' ? [] : c.attr.floats('weights') ?? [];
      if (weights.length && weights.length !== indexes.length) {
        c.error(`${weights.length} weights for ${indexes.length} n-grams (one each)`);
        return;
      }
      const counted = [...grams.values()].flat();
      const byColumn = new Map<number, number>();
      for (const g of counted) byColumn.set(g.column, (byColumn.get(g.column) ?? 0) + 1);
      if (mode === 'IDF' && weights.length && [...byColumn.values()].some((k) => k > 1)) {
        c.unsupportedAttr('weights', `${weights.length} floats`, 'IDF weights of n-grams that share an output column (onnxruntime keeps the weight of the n-gram it matched last)');
        return;
      }

      const b = irBuilder(c);
      const x = b.reshape(c.input(0)!, rank === 2 ? [0n, -1n] : [1n, -1n]); // [B, C]
      const rows = b.dim(x, 0n);
      let counts: Value;
      const parts: Value[] = [];
      for (const [n, list] of grams) {
        let sum: Value | null = null;
        for (let d = 1; d <= (n === 1 ? 1 : maxSkip + 1); d++) {
          const at = countAt(c, x, list, n, d, elem);
          sum = sum ? b.add(sum, at) : at;
        }
        parts.push(sum!);
      }
      if (!parts.length) {
        // no n-gram of a counted size: zeros
        counts = c.emit('Broadcast', [b.scalar('f32', 0), b.concat([b.unsqueeze(rows, [0n]), i64Const(c, [BigInt(width)])], 0)], { mode: 'numpy' }, 1, 'opset3')[0]!;
      } else {
        // row p (the counted n-grams in the parts' order): 1, or for TFIDF the n-gram's weight, in its column
        const place = new Float32Array(counted.length * width);
        const weighted = mode === 'TFIDF' && weights.length > 0;
        counted.forEach((g, p) => { place[p * width + g.column] = weighted ? weights[g.id]! : 1; });
        counts = b.matmul(parts.length === 1 ? parts[0]! : b.concat(parts, 1), c.constant(tensorFromFloat32([...place], [counted.length, width])));
      }

      let y = counts;
      if (mode === 'IDF') {
        const perColumn = new Float32Array(width);
        for (const g of counted) perColumn[g.column] = weights[g.id]!;
        const w = weights.length ? c.constant(tensorFromFloat32([...perColumn])) : b.scalar('f32', 1);
        y = b.select(c.emit('Greater', [counts, b.scalar('f32', 0)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!, w, b.scalar('f32', 0));
      }
      c.output(0, rank === 2 ? y : b.reshape(y, [BigInt(width)]));
    },
  },
];
