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
const shapeOf = (c: ConvertContext, i: number) => {
  const t = c.type(i);
  return t && t.kind === 'tensor' ? t.shape : null;
};

/**
 * Embeddings summed, MVN · gamma + beta, mask_index, embedding_sum: what EmbedLayerNormalization and
 * QEmbedLayerNormalization share. `table(i)` is the float table (or gamma / beta) at input i;
 * `positionIds` the input of position_ids (null: none); `onesOnly`: mask_index counts the mask's 1s.
 */
function embedCore(c: ConvertContext, table: (i: number) => Value, positionIds: number | null, onesOnly: boolean): void {
  if (present(c, 1) !== present(c, 4)) { c.error('segment_ids and segment_embedding must be given together (onnxruntime refuses one without the other)'); return; }
  const b = irBuilder(c);
  const ids = c.input(0)!;
  let e = b.gather(table(2), ids, 0n);
  const positions: Value = positionIds !== null && present(c, positionIds)
    ? b.gather(table(3), c.input(positionIds)!, 0n)
    : b.unsqueeze(b.gather(table(3), b.range(b.dim(ids, 1n)), 0n), [0n]);
  e = b.add(e, positions);
  if (present(c, 1)) e = b.add(e, b.gather(table(4), c.input(1)!, 0n));
  const eps = c.attr.float('epsilon', 1e-12);
  const normed = c.emit('MVN', [e, i64Const(c, [-1n])], { normalize_variance: 'true', eps: String(eps), eps_mode: 'inside_sqrt' }, 1, 'opset6')[0]!;
  c.output(0, b.add(b.mul(normed, table(5)), table(6)));
  if (c.node.outputs.length > 1) {
    if (!isWanted(c, 1)) c.unused(1);
    else if (present(c, 7)) {
      let mask = c.elem(7) === 'i32' ? c.input(7)! : b.convert(c.input(7)!, 'i32');
      if (onesOnly) mask = b.convert(b.compare('Equal', mask, b.scalar('i32', 1)), 'i32');
      c.output(1, c.emit('ReduceSum', [mask, i64Const(c, [1n])], { keep_dims: 'false' }, 1, 'opset1')[0]!);
    } else {
      const batch = b.reshape(b.dim(ids, 0n), [1n]);
      c.output(1, c.emit('Broadcast', [b.scalar('i32', 0), batch], { mode: 'numpy' }, 1, 'opset3')[0]!);
    }
  }
  if (c.node.outputs.length > 2) { if (isWanted(c, 2)) c.output(2, e); else c.unused(2); }
}

function embedToIr(c: ConvertContext): void {
  const elem = c.elem(2);
  if (elem === null || elementType(elem).kind !== 'float') { c.error(`EmbedLayerNormalization needs float word_embedding (got ${elem ?? 'unknown'})`); return; }
  const mit = c.attr.int('mask_index_type', 1n);
  if (mit !== 0n && mit !== 1n) { c.unsupportedAttr('mask_index_type', String(mit), '0 or 1'); return; }
  embedCore(c, (i) => c.input(i)!, 8, false);
}

/**
 * QEmbedLayerNormalization (quantize_dynamic's BERT embeddings; onnxruntime's CPU kernel,
 * contrib_ops/cpu/quantization/qembed_layer_norm.cc): EmbedLayerNormalization of the dequantized
 * tables — word, position, segment embeddings, gamma and beta, each (q − zero_point) · scale with
 * its own per-tensor scale (inputs 8–12) and zero point (13–17) — positions 0 … S−1 (no
 * position_ids), epsilon 1e-12 by default; mask_index counts the mask's elements equal to 1 (zeros
 * without a mask). Two outputs (no embedding_sum).
 */
function qEmbedToIr(c: ConvertContext): void {
  const q = c.elem(2);
  if (q !== 'u8' && q !== 'i8') { c.error(`word_embedding_quant (input 2) is ${q ?? 'of unknown type'}: QEmbedLayerNormalization takes uint8 or int8`); return; }
  const tables: [number, number, number][] = [[2, 8, 13], [3, 9, 14], [5, 11, 16], [6, 12, 17]];
  if (present(c, 4)) tables.push([4, 10, 15]);
  for (const [t, sc, zp] of tables) {
    if (c.elem(t) !== q) { c.error(`input ${t} is ${c.elem(t) ?? 'of unknown type'} and word_embedding_quant ${q}: QEmbedLayerNormalization takes one quantized type`); return; }
    if (!present(c, sc) || c.elem(sc) !== 'f32') { c.error(`input ${sc} (the scale of input ${t}) must be a float scalar`); return; }
    if (!present(c, zp) || c.elem(zp) !== q) { c.error(`input ${zp} (the zero point of input ${t}) must be given, of ${q}`); return; }
    for (const i of [sc, zp]) {
      const s = shapeOf(c, i);
      if (s === null || s.length > 1 || (s.length === 1 && s[0] !== 1)) { c.error(`input ${i} must be a scalar or of one element (per tensor)`); return; }
    }
  }
  const b = irBuilder(c);
  const done = new Map<number, Value>();
  const table = (i: number): Value => {
    const [, sc, zp] = tables.find(([t]) => t === i)!;
    let v = done.get(i);
    if (!v) {
      v = b.mul(b.sub(b.convert(c.input(i)!, 'f32'), b.convert(c.input(zp)!, 'f32')), c.input(sc)!);
      done.set(i, v);
    }
    return v;
  };
  embedCore(c, table, null, true);
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
  {
    onnx: { op: 'QEmbedLayerNormalization', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Convert', 'Subtract', 'Gather', 'ShapeOf', 'Range', 'Unsqueeze', 'Add', 'MVN', 'Multiply', 'Equal', 'ReduceSum', 'Reshape', 'Broadcast'],
    handles: { onnx: ['epsilon'] },
    note: 'IR: the five tables dequantized ((q − zp) · scale), then EmbedLayerNormalization\'s Gathers, MVN-6 · gamma + beta; mask_index = count of mask = 1',
    toIr: qEmbedToIr,
  },
];
