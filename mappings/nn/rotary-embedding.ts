import type { Value } from '../../src/graph/value.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { irBuilder, type IrBuilder } from './ir-build.js';

/**
 * ONNX RotaryEmbedding-23 has no OpenVINO op of the ONNX form: IR writes its definition.
 *   X as [B, S, heads, head_size] (4-D [B, heads, S, D] transposed; 3-D split by num_heads)
 *   the first rotary_embedding_dim (default: all) of head_size rotate, the rest pass through
 *   cos / sin = cache[position_ids] (or the caches as given, [B, S, dim/2]), one per head
 *   halves x1, x2 (interleaved: even and odd elements)
 *   real = cos·x1 − sin·x2, imag = sin·x1 + cos·x2, put back where x1, x2 came from.
 */
function rotaryToIr(c: ConvertContext): void {
  const rank = c.rank(0);
  if (rank !== 3 && rank !== 4) { c.error(`RotaryEmbedding takes 3-D or 4-D input of known rank (got ${rank ?? 'unknown'})`); return; }
  const heads = c.attr.int('num_heads', 0n);
  if (rank === 3 && heads <= 0n) { c.unsupportedAttr('num_heads', String(heads), '3-D input needs num_heads > 0'); return; }
  const dim = c.attr.int('rotary_embedding_dim', 0n);
  if (dim < 0n || dim % 2n !== 0n) { c.unsupportedAttr('rotary_embedding_dim', String(dim), 'an even number (0: all of head_size)'); return; }
  const interleaved = c.attr.int('interleaved', 0n) !== 0n;

  const b = irBuilder(c);
  const x = c.input(0)!;
  const x4 = rank === 4 ? b.transpose(x, [0n, 2n, 1n, 3n]) : b.reshape(x, [0n, 0n, heads, -1n]);
  const perPosition = (cache: Value): Value => {
    const picked = c.numInputs > 3 && c.input(3) ? b.gather(cache, c.input(3)!, 0n) : cache;
    return b.unsqueeze(picked, [2n]); // [B, S, 1, dim/2]
  };
  const y4 = rotate(b, x4, perPosition(c.input(1)!), perPosition(c.input(2)!), dim, interleaved);
  c.output(0, rank === 4 ? b.transpose(y4, [0n, 2n, 1n, 3n]) : b.reshape(y4, b.shapeOf(x)));
}

/**
 * The rotation itself, on x4 [B, S, heads, head_size] with cos / sin [B or 1, S, 1, dim/2]: the
 * first `dim` (0: all) of head_size rotate in halves (interleaved: even and odd elements), the rest
 * pass through. Shared with com.microsoft RotaryEmbedding (mappings/microsoft/rotary-embedding.ts).
 */
export function rotate(b: IrBuilder, x4: Value, cos: Value, sin: Value, dim: bigint, interleaved: boolean): Value {
  const rotated = dim > 0n ? b.slice(x4, 0n, dim, 3n) : x4;
  const kept = dim > 0n ? b.slice(x4, dim, BigInt(Number.MAX_SAFE_INTEGER), 3n) : null;
  let x1: Value;
  let x2: Value;
  if (interleaved) {
    const pairs = b.split(b.reshape(rotated, [0n, 0n, 0n, -1n, 2n]), 4n, 2);
    x1 = b.squeeze(pairs[0]!, [4n]);
    x2 = b.squeeze(pairs[1]!, [4n]);
  } else {
    [x1, x2] = b.split(rotated, 3n, 2) as [Value, Value];
  }
  const real = b.sub(b.mul(cos, x1), b.mul(sin, x2));
  const imag = b.add(b.mul(sin, x1), b.mul(cos, x2));
  const turned = interleaved
    ? b.reshape(b.concat([b.unsqueeze(real, [4n]), b.unsqueeze(imag, [4n])], 4), [0n, 0n, 0n, -1n])
    : b.concat([real, imag], 3);
  return kept ? b.concat([turned, kept], 3) : turned;
}

export const ROTARY_EMBEDDING: readonly OpMapping[] = [
  {
    onnx: { op: 'RotaryEmbedding', since: 23 },
    ir: null,
    decomposes: ['Transpose', 'Reshape', 'Slice', 'Gather', 'Unsqueeze', 'Split', 'Squeeze', 'Multiply', 'Subtract', 'Add', 'Concat', 'ShapeOf'],
    handles: { onnx: ['interleaved', 'num_heads', 'rotary_embedding_dim'] },
    note: 'IR: x1·cos − x2·sin, x1·sin + x2·cos over the halves (or even/odd pairs) of the rotated part',
    toIr: rotaryToIr,
  },
];
