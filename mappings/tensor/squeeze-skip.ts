import { i64Const } from '../helpers.js';
import type { ConvertContext } from '../spec.js';

/**
 * IR Squeeze-1/15 → ONNX Squeeze. Squeeze-15's allow_axis_skip=true leaves out a listed axis whose
 * dim is not 1 (instead of failing); ONNX Squeeze has no such option, so the axes ONNX gets are
 * the listed ones whose dim is statically 1. An axis of unknown size cannot be decided here and is
 * refused.
 */
export function squeezeToOnnx(c: ConvertContext): void {
  const skip = c.attr.bool('allow_axis_skip') ?? false;
  const data = c.input(0);
  if (!skip || c.numInputs < 2) { c.output(0, c.emitOwn(c.numInputs < 2 ? [data] : [data, c.input(1)])[0]!); return; }
  const axes = c.constInts(1);
  const t = c.type(0);
  const shape = t?.kind === 'tensor' ? t.shape : null;
  if (axes === null || shape === null) {
    c.unsupportedAttr('allow_axis_skip', 'true', 'ONNX Squeeze has no axis skipping: the axes and the rank of the data must be known to pick the axes of size 1');
    return;
  }
  const kept: bigint[] = [];
  for (const a of axes) {
    const i = Number(a < 0n ? a + BigInt(shape.length) : a);
    const d = shape[i];
    if (typeof d !== 'number') {
      c.unsupportedAttr('allow_axis_skip', 'true', `axis ${a} has no static size, so whether it is squeezed is decided at run time (ONNX Squeeze has no axis skipping)`);
      return;
    }
    if (d === 1) kept.push(BigInt(i));
  }
  c.output(0, kept.length ? c.emitOwn([data, i64Const(c, kept)])[0]! : c.emit('Identity', [data])[0]!);
}
