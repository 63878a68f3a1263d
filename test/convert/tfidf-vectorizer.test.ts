import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, verifyGraph, type Attr, type ElementTypeName, type Model } from '../../src/graph/index.js';
import { poolGrams } from '../../mappings/tensor/tfidf-vectorizer.js';
import { Builder } from './builder.js';

/**
 * ONNX TfIdfVectorizer → IR (mappings/tensor/tfidf-vectorizer.ts): OpenVINO has no op, so each
 * counted n-gram size and skip distance is a few strided Slices compared with the pool. Engines
 * judge it in test/conformance/ml-ops.test.ts (every mode, weights, skips, shared columns) and the
 * backend's test_tfidfvectorizer_* in convert-zoo.test.ts.
 */
function model(elem: ElementTypeName, shape: number[], attrs: Record<string, Attr>): Model {
  const b = new Builder('onnx', 17);
  const x = b.input('X', elem, shape);
  const n = b.graph.addNode({ dialect: 'onnx', op: 'TfIdfVectorizer', version: '17', name: 'tfidf' });
  n.addInput(x);
  for (const [name, a] of Object.entries(attrs)) n.attrs.set(name, a);
  b.output(n.addOutput(null, ['Y']));
  return b.model;
}
const refusal = (m: Model): string[] => {
  try { convertModel(m); return []; } catch (e) {
    return (e as OvirError).diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`);
  }
};
// the backend's pool: unigrams 2 3 5 4, bigrams (5,6) (7,8) (6,7); columns 0..6
const POOL = { ngram_counts: A.ints([0, 4]), ngram_indexes: A.ints([0, 1, 2, 3, 4, 5, 6]), pool_int64s: A.ints([2, 3, 5, 4, 5, 6, 7, 8, 6, 7]) };
const attrs = (mode: string, min: number, max: number, skip: number, more: Record<string, Attr> = {}): Record<string, Attr> =>
  ({ mode: A.string(mode), min_gram_length: A.int(min), max_gram_length: A.int(max), max_skip_count: A.int(skip), ...POOL, ...more });

describe('TfIdfVectorizer: the pool', () => {
  it('n-grams of size n start at ngram_counts[n - 1]; ids run over the whole pool, counted sizes or not', () => {
    const g = poolGrams([2n, 3n, 5n, 4n, 5n, 6n, 7n, 8n, 6n, 7n], [0n, 4n], [0n, 1n, 2n, 3n, 4n, 5n, 6n], 2, 2);
    expect(g).toEqual(new Map([[2, [
      { tokens: [5n, 6n], id: 4, column: 4 }, { tokens: [7n, 8n], id: 5, column: 5 }, { tokens: [6n, 7n], id: 6, column: 6 },
    ]]]));
  });
  it('a repeated n-gram is counted once, with its last id and column (onnx\'s reference trie keeps the last)', () => {
    const g = poolGrams([1n, 2n, 1n], [0n], [0n, 1n, 2n], 1, 1) as Map<number, unknown[]>;
    expect(g.get(1)).toEqual([{ tokens: [2n], id: 1, column: 1 }, { tokens: [1n], id: 2, column: 2 }]);
  });
  it('ngram_counts past the pool, or too few ngram_indexes, say so', () => {
    expect(poolGrams([1n, 2n], [0n, 5n], [0n, 1n], 1, 2)).toBe('ngram_counts 0,5 do not fit a pool of 2');
    expect(poolGrams([1n, 2n], [0n], [0n], 1, 1)).toBe('ngram_indexes has no column ≥ 0 for n-gram 1');
  });
});

describe('TfIdfVectorizer → IR', () => {
  it('unigrams and bigrams at skips 0..5: one Slice per n-gram token and skip distance, counted into [B, 7]', () => {
    const out = convertModel(model('i32', [2, 12], attrs('TF', 1, 2, 5)));
    expect(verifyGraph(out.graph)).toEqual([]);
    const ops = [...allNodes(out.graph)].map((n) => n.op);
    expect(ops.filter((o) => o === 'Slice')).toHaveLength(1 + 2 * 6); // unigrams once, bigrams at 6 distances
    expect(ops).toContain('MatMul');
    expect(out.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [2, 7] });
  });
  it('X of rank 1 gives a vector; no n-gram of a counted size gives zeros', () => {
    expect(convertModel(model('i64', [12], attrs('TF', 1, 1, 0))).graph.outputs[0]!.type).toMatchObject({ shape: [7] });
    const none = convertModel(model('i64', [3, 5], attrs('TF', 3, 3, 0)));
    expect([...allNodes(none.graph)].map((n) => n.op)).toContain('Broadcast');
    expect(none.graph.outputs[0]!.type).toMatchObject({ shape: [3, 7] });
  });
  it('string tokens, an unknown mode, weights of another length and IDF weights of a shared column are refused', () => {
    expect(refusal(model('string', [4], { ...attrs('TF', 1, 1, 0), pool_strings: A.strings(['a']) }))).toEqual([
      "CONVERT_UNSUPPORTED_ATTR main/tfidf: TfIdfVectorizer: attribute 'pool_strings' = strings is not supported (OpenVINO IR has no string element type)",
    ]);
    expect(refusal(model('i64', [4], attrs('BM25', 1, 1, 0)))[0]).toMatch(/CONVERT_UNSUPPORTED_ATTR main\/tfidf: TfIdfVectorizer: attribute 'mode' = BM25/);
    expect(refusal(model('i64', [4], attrs('TFIDF', 1, 2, 0, { weights: A.floats([1, 2]) })))).toEqual([
      'CONVERT_OP main/tfidf: TfIdfVectorizer: 2 weights for 7 n-grams (one each)',
    ]);
    const shared = { ngram_counts: A.ints([0]), pool_int64s: A.ints([1, 2]), ngram_indexes: A.ints([0, 0]), weights: A.floats([1, 2]) };
    expect(refusal(model('i64', [4], { ...attrs('IDF', 1, 1, 0), ...shared }))[0]).toMatch(/attribute 'weights'.*share an output column/);
  });
});
