import { A } from '../../src/graph/attr.js';
import { elementType } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { scalarLike } from '../generator/constant-of-shape.js';
import type { ConvertContext } from '../spec.js';

/**
 * IR Round-5 → ONNX Round-11. ONNX Round rounds halves to even (IR mode half_to_even). IR's
 * half_away_from_zero has no ONNX op; it is written as a subgraph that is exact in every float
 * type:
 *
 *   a = |x|, f = Floor(a), frac = a − f      (exact: f ≤ a < f + 1, so the difference is representable)
 *   y = Sign(x) · (f + Cast(frac ≥ 0.5))
 *
 * (Floor(|x| + 0.5) is not exact: |x| + 0.5 rounds up to the next integer for the float just
 * below 0.5.) NaN and ±inf come out as themselves; integer inputs are already whole (Identity).
 */
export function roundToOnnx(c: ConvertContext): void {
  const mode = (c.attr.string('mode') ?? 'half_to_even').trim().toLowerCase();
  const x = c.input(0)!;
  const elem = c.elem(0);
  if (elem !== null && elementType(elem).kind !== 'float') {
    c.output(0, c.emit('Identity', [x])[0]!);
    return;
  }
  if (mode === 'half_to_even') { c.output(0, c.emit('Round', [x])[0]!); return; }
  if (mode !== 'half_away_from_zero') { c.unsupportedAttr('mode', mode, 'supported: half_to_even, half_away_from_zero'); return; }
  const code = elem === null ? null : elementType(elem).onnx;
  if (code === null) { c.error(`Round half_away_from_zero of element type ${elem ?? 'unknown'}: the element type must be known`); return; }
  const half = scalarLike(c, 0, 0.5, 'Round half_away_from_zero');
  if (!half) return;
  const un = (op: string, v: Value): Value => c.emit(op, [v])[0]!;
  const bin = (op: string, a: Value, b: Value): Value => c.emit(op, [a, b])[0]!;
  const a = un('Abs', x);
  const f = un('Floor', a);
  const frac = bin('Sub', a, f);
  const up = c.opset >= 12 ? bin('GreaterOrEqual', frac, half) : un('Not', bin('Less', frac, half));
  const step = c.emit('Cast', [up], { to: A.int(code) })[0]!;
  c.output(0, bin('Mul', un('Sign', x), bin('Add', f, step)));
}
