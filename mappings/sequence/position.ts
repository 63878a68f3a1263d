import type { ConvertContext } from '../spec.js';

/**
 * A sequence position operand, as ONNX's sequence ops define it: a scalar int32/int64 tensor;
 * negative counts from the back (`p + n`). SequenceInsert accepts [-n, n] (n: at the back),
 * SequenceAt and SequenceErase [-n, n-1]. IR has no sequence, so the position must be known at
 * conversion time. Absent (the operand is optional): `absent`. Null after a diagnostic.
 */
export function position(c: ConvertContext, index: number, n: number, kind: 'insert' | 'element', absent?: number): number | null {
  if (!c.node.inputs[index]) {
    if (absent === undefined) { c.error(`input ${index} (position) is required`); return null; }
    return absent;
  }
  const v = c.constInts(index);
  if (v === null) { c.needsConstant(index, 'position: a sequence is resolved at conversion time'); return null; }
  if (v.length !== 1) { c.error(`position must be a scalar, got ${v.length} values`); return null; }
  const p = Number(v[0]!);
  const hi = kind === 'insert' ? n : n - 1;
  if (p < -n || p > hi) {
    c.error(`position ${p} is out of range [${-n}, ${hi}] for a sequence of ${n} tensor${n === 1 ? '' : 's'}`);
    return null;
  }
  return p < 0 ? p + n : p;
}
