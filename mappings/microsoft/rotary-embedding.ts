import type { Value } from '../../src/graph/value.js';
import { irBuilder } from '../nn/ir-build.js';
import { rotate } from '../nn/rotary-embedding.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * com.microsoft RotaryEmbedding (onnxruntime's, before ONNX had RotaryEmbedding-23), in IR ops as
 * onnxruntime's CPU kernel computes it; the rotation is ONNX RotaryEmbedding's (nn/rotary-embedding.ts):
 *   inputs: input [B, S, hidden] or [B, num_heads, S, head_size], position_ids, cos_cache, sin_cache
 *   position_ids [B, S]: cos / sin = cache[position_ids]; [1]: an offset, positions p₀ … p₀ + S - 1
 *   3-D input: heads of head_size = 2 · cos_cache's last dim (num_heads, when given, splits it)
 *   the first rotary_embedding_dim (0: all) of head_size rotate; interleaved: even / odd pairs
 * `scale` onnxruntime reads and never applies: the conversion does as it does, and warns.
 */
const MS = 'com.microsoft';

function rotaryToIr(c: ConvertContext): void {
  const rank = c.rank(0);
  if (rank !== 3 && rank !== 4) { c.error(`RotaryEmbedding takes 3-D or 4-D input of known rank (got ${rank ?? 'unknown'})`); return; }
  if (c.attr.int('is_packed_batching', 0n) !== 0n) { c.unsupportedAttr('is_packed_batching', '1', 'ragged (packed) batches are not converted'); return; }
  const heads = c.attr.int('num_heads', 0n);
  const dim = c.attr.int('rotary_embedding_dim', 0n);
  if (dim < 0n || dim % 2n !== 0n) { c.unsupportedAttr('rotary_embedding_dim', String(dim), 'an even number (0: all of head_size)'); return; }
  if (dim > 0n && rank === 3 && heads <= 0n) { c.unsupportedAttr('num_heads', String(heads), 'a 3-D input with rotary_embedding_dim needs num_heads (as onnxruntime requires)'); return; }
  const scale = c.attr.float('scale', 1);
  if (scale !== 1) c.warn(`scale ${scale} is ignored, as onnxruntime's RotaryEmbedding kernels ignore it`);
  const interleaved = c.attr.int('interleaved', 0n) !== 0n;
  const posRank = c.rank(1);
  if (posRank !== 1 && posRank !== 2) { c.error(`position_ids must be [1] (an offset) or [batch, sequence] (rank ${posRank ?? 'unknown'})`); return; }

  const b = irBuilder(c);
  const x = c.input(0)!;
  let x4: Value;
  if (rank === 4) x4 = b.transpose(x, [0n, 2n, 1n, 3n]);
  else if (heads > 0n) x4 = b.reshape(x, [0n, 0n, heads, -1n]);
  else {
    const t = c.type(2);
    const half = t?.kind === 'tensor' && t.shape ? t.shape[t.shape.length - 1] : null;
    if (typeof half !== 'number') { c.error('a 3-D input without num_heads needs cos_cache\'s last dim known (head_size is twice it)'); return; }
    x4 = b.reshape(x, [0n, 0n, -1n, BigInt(2 * half)]);
  }
  const seq = b.dim(x4, 1n);
  const perPosition = (cache: Value): Value => {
    const pos = c.input(1)!;
    // [B, S] → [B, S, d/2]; an offset p₀ → positions p₀ … p₀ + S - 1 → [1, S, d/2]
    const picked = posRank === 2 ? b.gather(cache, pos, 0n) : b.unsqueeze(b.gather(cache, b.add(b.range(seq), pos), 0n), [0n]);
    return b.unsqueeze(picked, [2n]);
  };
  const y4 = rotate(b, x4, perPosition(c.input(2)!), perPosition(c.input(3)!), dim, interleaved);
  c.output(0, rank === 4 ? b.transpose(y4, [0n, 2n, 1n, 3n]) : b.reshape(y4, b.shapeOf(x)));
}

export const MS_ROTARY_EMBEDDING: readonly OpMapping[] = [
  {
    onnx: { op: 'RotaryEmbedding', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Transpose', 'Reshape', 'Slice', 'Gather', 'Unsqueeze', 'Split', 'Squeeze', 'Multiply', 'Subtract', 'Add', 'Concat', 'ShapeOf', 'Range'],
    handles: { onnx: ['interleaved', 'num_heads', 'rotary_embedding_dim', 'scale', 'is_packed_batching'] },
    note: 'IR: ONNX RotaryEmbedding\'s rotation; position_ids [B, S] or an offset [1]; scale ignored as onnxruntime ignores it (warned)',
    toIr: rotaryToIr,
  },
];
