import { tensorFromBool } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { irSeeds } from '../generator/random-seed.js';
import { irShapeOf, irUniform } from '../generator/random-uniform.js';
import { irBuilder } from './ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * Dropout. At inference (Dropout-7..11 always; Dropout-1..6 with is_test = 1; Dropout-12+ with
 * training_mode absent or a constant false) it is the identity, the mask (when read) all true:
 * OpenVINO has no Dropout op, so the output is the input itself.
 * Training (is_test = 0; training_mode true or computed at run time) draws the mask as onnx
 * defines it: keep = u ≥ ratio for u uniform in [0, 1) (RandomUniform-8), y = keep ? x · s : 0
 * with s = 1 / (1 − ratio) in f32, the spec's formula (onnxruntime divides x by 1 − ratio instead,
 * and OpenVINO's CPU plugin runs a Divide as a product by the reciprocal: the two engines differ by
 * one ulp on some elements, measured). A run-time training_mode t selects: mask = ¬t ∨ keep,
 * s = t ? s : 1, so inference stays exactly x. ratio 0 keeps every element, x · 1 exactly; ratio 1
 * (outside onnx's [0, 1)) keeps none: zeros, where onnx's reference computes 0 · ∞ = NaN. ratio is an input from opset 12 (default 0.5), an
 * attribute before. The mask is bool from opset 10, x's type (1 / 0) before.
 */
function dropoutToIr(c: ConvertContext): void {
  let training: boolean | Value = false;
  if (c.opset < 7) training = (c.attr.int('is_test') ?? 0n) === 0n;
  else if (c.opset >= 12 && c.numInputs > 2 && c.input(2)) {
    const t = c.constNumbers(2);
    const r = c.rank(2);
    if (r !== null && r !== 0) { c.error(`training_mode must be a scalar (rank ${r})`); return; }
    training = t === null ? c.input(2)! : Number(t[0]) !== 0;
  }
  const x = c.input(0)!;
  const mask = c.node.outputs[1];
  const maskRead = mask !== undefined && (mask.uses.length > 0 || mask.graph.outputs.includes(mask));
  const b = irBuilder(c);
  const xElem = c.elem(0);
  if (mask && !maskRead) c.unused(1);
  /** The mask output, when read: bool from opset 10, x's type before. */
  const maskOut = (m: () => Value): void => {
    if (!maskRead) return;
    if (c.opset >= 10) { c.output(1, m()); return; }
    if (xElem === null) { c.error('Dropout before opset 10 needs the element type of its input to be known (its mask is of that type)'); return; }
    c.output(1, b.convert(m(), xElem));
  };
  if (training === false) {
    c.output(0, x);
    maskOut(() => c.emit('Broadcast', [c.constant(tensorFromBool([true], [])), irShapeOf(c, 0)], { mode: 'numpy' }, 1, 'opset3')[0]!);
    return;
  }
  if (xElem === null) { c.error('training Dropout needs the element type of its input to be known'); return; }
  // ratio as an f32 scalar
  let ratio: Value;
  if (c.opset >= 12 && c.numInputs > 1 && c.input(1)) {
    const r = c.rank(1);
    if (r !== null && r !== 0) { c.error(`ratio must be a scalar (rank ${r})`); return; }
    ratio = c.elem(1) === 'f32' ? c.input(1)! : b.convert(c.input(1)!, 'f32');
  } else ratio = b.scalar('f32', c.attr.float('ratio', 0.5));
  const u = irUniform(c, irShapeOf(c, 0), 'f32', 0, 1, irSeeds(c));
  let keep = b.compare('GreaterEqual', u, ratio);
  let scale = b.div(b.scalar('f32', 1), b.sub(b.scalar('f32', 1), ratio));
  if (training !== true) {
    const t = c.elem(2) === 'boolean' ? training : c.emit('Convert', [training], { destination_type: 'boolean' }, 1, 'opset1')[0]!;
    keep = c.emit('LogicalOr', [c.emit('LogicalNot', [t], {}, 1, 'opset1')[0]!, keep], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
    scale = b.select(t, scale, b.scalar('f32', 1));
  }
  const scaled = b.mul(x, xElem === 'f32' ? scale : b.convert(scale, xElem));
  c.output(0, b.select(keep, scaled, b.scalar(xElem, 0)));
  maskOut(() => keep);
}

export const DROPOUT: readonly OpMapping[] = [
  {
    onnx: { op: 'Dropout', since: 1 },
    ir: null,
    decomposes: ['ShapeOf', 'Broadcast', 'RandomUniform', 'GreaterEqual', 'Select', 'Multiply'],
    handles: { onnx: ['ratio', 'seed', 'is_test', 'consumed_inputs'] },
    note: 'inference: the identity (the mask all true); training: a RandomUniform mask u ≥ ratio, kept values · 1 / (1 − ratio)',
    toIr: dropoutToIr,
  },
];
