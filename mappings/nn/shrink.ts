import { elementType } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedScalar } from '../typed-consts.js';

/**
 * ONNX Shrink (OpenVINO has no op), as OpenVINO's frontend computes it:
 *   Shrink(x) = x + bias where x < -lambd, x - bias where x > lambd, else 0
 */

const bin = (c: ConvertContext, op: string, a: Value, b: Value): Value =>
  c.emit(op, [a, b], op === 'Divide' ? { auto_broadcast: 'numpy', m_pythondiv: 'true' } : { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;

function shrinkToIr(c: ConvertContext): void {
  const elem = c.elem(0);
  const lambd = c.attr.float('lambd', 0.5);
  const bias = c.attr.float('bias', 0);
  if (elem === null) { c.error('Shrink needs the element type of its input'); return; }
  if (lambd < 0) { c.unsupportedAttr('lambd', String(lambd), 'lambd must not be negative'); return; }
  const info = elementType(elem);
  const integral = info.kind === 'int' || info.kind === 'uint';
  // On integers, x < -lambd ⇔ x < trunc(-lambd) and x > lambd ⇔ x > trunc(lambd) (lambd ≥ 0);
  // a fractional bias has no integer value to add.
  if (integral && !Number.isInteger(bias)) { c.unsupportedAttr('bias', String(bias), `a fractional bias on ${elem} values has no exact IR form`); return; }
  const k = (v: number): Value | null => {
    const t = typedScalar(elem, integral ? Math.trunc(v) : v);
    if (!t) { c.error(`Shrink of ${elem} values: no constant of that type is built`); return null; }
    return c.constant(t);
  };
  const lo = k(info.kind === 'uint' ? 0 : -lambd);
  const hi = k(lambd);
  const b = k(bias);
  const zero = k(0);
  if (!lo || !hi || !b || !zero) return;
  const x = c.input(0)!;
  const below = bin(c, 'Less', x, lo);
  const above = bin(c, 'Greater', x, hi);
  const inner = c.emit('Select', [above, bin(c, 'Subtract', x, b), zero], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  c.output(0, c.emit('Select', [below, bin(c, 'Add', x, b), inner], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!);
}

export const SHRINK: readonly OpMapping[] = [
  {
    onnx: { op: 'Shrink', since: 9 },
    ir: null,
    decomposes: ['Less', 'Greater', 'Add', 'Subtract', 'Select'],
    handles: { onnx: ['lambd', 'bias'] },
    note: 'IR: Select(x < -lambd, x + bias, Select(x > lambd, x - bias, 0))',
    toIr: shrinkToIr,
  },
];
