import { elementType } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * com.microsoft EmbedLayerNormalization (BERT's embeddings and first LayerNorm, as onnxruntime's
 * transformers optimizer fuses them), in IR ops, as onnxruntime's CPU kernel computes it:
 *   e = word_embedding[input_ids] + position_embedding[position_ids]
 *       (position_ids absent: 0 … S-1; [1, S] broadcast over the batch) + segment_embedding[segment_ids]
 *   output = MVN(e over the hidden axis, epsilon inside the root; default 1e-12) · gamma + beta
 *   mask_index = ReduceSum(mask, axis 1) as int32 [B] (no mask: zeros [B]), whatever
 *                mask_index_type says (onnxruntime's CPU kernel writes the same for 0 and 1)
 *   embedding_sum = e (optional third output)
 * Inputs: input_ids, segment_ids?, word_embedding, position_embedding, segment_embedding?, gamma,
 * beta, mask?, position_ids?.
 */
const MS = 'com.microsoft';

const isWanted = (c: ConvertContext, i: number): boolean => {
  const o = c.node.outputs[i];
  return !!o && (o.uses.length > 0 || o.graph.outputs.includes(o));
};
const present = (c: ConvertContext, i: number): boolean => c.numInputs > i && c.input(i) !== null;

function embedToIr(c: ConvertContext): void {
  const elem = c.elem(2);
  if (elem === null || elementType(elem).kind !== 'float') { c.error(`EmbedLayerNormalization needs float word_embedding (got ${elem ?? 'unknown'})`); return; }
  if (present(c, 1) !== present(c, 4)) { c.error('segment_ids and segment_embedding must be given together (onnxruntime refuses one without the other)'); return; }
  const mit = c.attr.int('mask_index_type', 1n);
  if (mit !== 0n && mit !== 1n) { c.unsupportedAttr('mask_index_type', String(mit), '0 or 1'); return; }
  const b = irBuilder(c);
  const ids = c.input(0)!;
  let e = b.gather(c.input(2)!, ids, 0n);
  const positions: Value = present(c, 8)
    ? b.gather(c.input(3)!, c.input(8)!, 0n)
    : b.unsqueeze(b.gather(c.input(3)!, b.range(b.dim(ids, 1n)), 0n), [0n]);
  e = b.add(e, positions);
  if (present(c, 1)) e = b.add(e, b.gather(c.input(4)!, c.input(1)!, 0n));
  const eps = c.attr.float('epsilon', 1e-12);
  const normed = c.emit('MVN', [e, i64Const(c, [-1n])], { normalize_variance: 'true', eps: String(eps), eps_mode: 'inside_sqrt' }, 1, 'opset6')[0]!;
  c.output(0, b.add(b.mul(normed, c.input(5)!), c.input(6)!));
  if (c.node.outputs.length > 1) {
    if (!isWanted(c, 1)) c.unused(1);
    else if (present(c, 7)) {
      const mask = c.elem(7) === 'i32' ? c.input(7)! : b.convert(c.input(7)!, 'i32');
      c.output(1, c.emit('ReduceSum', [mask, i64Const(c, [1n])], { keep_dims: 'false' }, 1, 'opset1')[0]!);
    } else {
      const batch = b.reshape(b.dim(ids, 0n), [1n]);
      c.output(1, c.emit('Broadcast', [b.scalar('i32', 0), batch], { mode: 'numpy' }, 1, 'opset3')[0]!);
    }
  }
  if (c.node.outputs.length > 2) { if (isWanted(c, 2)) c.output(2, e); else c.unused(2); }
}

export const MS_EMBED_LAYER_NORM: readonly OpMapping[] = [
  {
    onnx: { op: 'EmbedLayerNormalization', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Gather', 'ShapeOf', 'Range', 'Unsqueeze', 'Add', 'MVN', 'Multiply', 'ReduceSum', 'Convert', 'Reshape', 'Broadcast'],
    handles: { onnx: ['epsilon', 'mask_index_type'] },
    note: 'IR: Gathers of the three embeddings summed, MVN-6 · gamma + beta; mask_index = ReduceSum(mask, 1); embedding_sum when read',
    toIr: embedToIr,
  },
];
