import { describe, expect, it } from 'vitest';
import { parseShard, selectShard } from '../../src/batch/shard.js';

describe('--shard i/n', () => {
  it.each([
    ['1/1', { index: 1, count: 1 }],
    ['2/8', { index: 2, count: 8 }],
    ['8/8', { index: 8, count: 8 }],
  ])('parses %s', (text, want) => {
    expect(parseShard(text)).toEqual(want);
  });

  it.each(['0/4', '5/4', '1/0', '1', 'a/b', '1/2/3', '-1/2'])('rejects %s with a message', (text) => {
    expect(typeof parseShard(text)).toBe('string');
  });

  const items = Array.from({ length: 23 }, (_, i) => `m${String(i).padStart(2, '0')}.onnx`);

  it.each([1, 2, 3, 5, 23, 30])('partitions %i ways: disjoint, union = all, sizes differ by at most one', (n) => {
    const shards = Array.from({ length: n }, (_, k) => selectShard(items, { index: k + 1, count: n }));
    const union = shards.flat();
    expect(union.length).toBe(items.length);
    expect(new Set(union)).toEqual(new Set(items));
    const sizes = shards.map((s) => s.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it('is deterministic: the same sorted inputs give the same shard', () => {
    expect(selectShard(items, { index: 2, count: 4 })).toEqual(selectShard([...items], { index: 2, count: 4 }));
    expect(selectShard(items, { index: 2, count: 4 })).toEqual(['m01.onnx', 'm05.onnx', 'm09.onnx', 'm13.onnx', 'm17.onnx', 'm21.onnx']);
  });

  it('without a shard keeps everything', () => {
    expect(selectShard(items, undefined)).toEqual(items);
  });
});
