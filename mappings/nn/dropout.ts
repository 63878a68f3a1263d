import { tensorFromBool } from '../../src/graph/tensor.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * Dropout at inference is the identity (and an all-true mask): OpenVINO has no Dropout op, so
 * the output is the input itself. Training (Dropout-1..6 with is_test = 0, Dropout-12+ with a
 * training_mode input that is true or computed) draws random masks and is refused.
 */
function dropoutToIr(c: ConvertContext): void {
  if (c.opset < 7 && (c.attr.int('is_test') ?? 0n) === 0n) {
    c.unsupportedAttr('is_test', '0', 'training-mode Dropout draws a random mask; only inference (is_test = 1) converts');
    return;
  }
  if (c.numInputs > 2 && c.input(2)) {
    const t = c.constNumbers(2);
    if (t === null) { c.needsConstant(2, 'training_mode (training draws a random mask)'); return; }
    if (t.some((v) => Number(v) !== 0)) { c.error('training_mode = true draws a random mask; only inference converts'); return; }
  }
  const x = c.input(0)!;
  c.output(0, x);
  const mask = c.node.outputs[1];
  if (!mask) return;
  if (mask.uses.length === 0 && !mask.graph.outputs.includes(mask)) { c.unused(1); return; }
  const shape = c.emit('ShapeOf', [x], { output_type: 'i64' }, 1, 'opset3')[0]!;
  c.output(1, c.emit('Broadcast', [c.constant(tensorFromBool([true], [])), shape], { mode: 'numpy' }, 1, 'opset3')[0]!);
}

export const DROPOUT: readonly OpMapping[] = [
  {
    onnx: { op: 'Dropout', since: 1 },
    ir: null,
    decomposes: ['ShapeOf', 'Broadcast'],
    handles: { onnx: ['ratio', 'seed', 'is_test', 'consumed_inputs'] },
    note: 'inference: the identity; the mask (when read) all true',
    toIr: dropoutToIr,
  },
];
