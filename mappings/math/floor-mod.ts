import { elementType } from '../../src/graph/element-type.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext } from '../spec.js';

/**
 * ONNX Mod with fmod = 0 is Python's `%` (numpy.mod): the sign of the divisor. IR FloorMod
 * computes it, except for a finite x and an infinite divisor, where FloorMod gives NaN
 * (x - floor(x / ±inf)·±inf) and Python gives x when x and the divisor have the same sign (or x is
 * ±0), else the divisor: 3 % inf = 3, -3 % inf = inf, 1 % -inf = -inf (the backend's
 * test_mod_float_edge_cases_fmod_0_* check exactly these). Floats get a Select for that case;
 * integers are FloorMod as is.
 */
export function floorModToIr(c: ConvertContext): void {
  const [x, y] = [c.input(0)!, c.input(1)!];
  const nb = { auto_broadcast: 'numpy' };
  const one = (op: string, inputs: typeof x[], attrs: Record<string, string> = nb) => c.emit(op, inputs, attrs, 1, 'opset1')[0]!;
  const mod = one('FloorMod', [x, y]);
  const elem = c.elem(0);
  if (!elem || elem === 'dynamic' || elementType(elem).kind !== 'float') { c.output(0, mod); return; }
  const isInf = (v: typeof x) => c.emit('IsInf', [v], { detect_negative: 'true', detect_positive: 'true' }, 1, 'opset10')[0]!;
  const finiteByInfinite = one('LogicalAnd', [isInf(y), one('LogicalNot', [isInf(x)], {})]);
  const signsDiffer = one('Less', [one('Multiply', [x, y]), irBuilder(c).scalar(elem, 0)]);
  c.output(0, one('Select', [finiteByInfinite, one('Select', [signsDiffer, y, x]), mod]));
}

/**
 * IR → ONNX: FloorMod of integers is ONNX Mod (fmod = 0). ONNX allows fmod = 0 on integers only
 * (onnxruntime refuses a float Mod without fmod at run time: TensorFlow's frontend writes
 * tf.math.floormod of floats as FloorMod), so floats are what FloorMod computes in OpenVINO,
 * x − floor(x / y) · y (an infinite divisor gives NaN there as here; see floorModToIr).
 */
export function floorModToOnnx(c: ConvertContext): void {
  const [x, y] = [c.input(0)!, c.input(1)!];
  const elem = c.elem(0);
  if (!elem || elem === 'dynamic' || elementType(elem).kind !== 'float') { c.output(0, c.emit('Mod', [x, y])[0]!); return; }
  const one = (op: string, inputs: typeof x[]) => c.emit(op, inputs)[0]!;
  c.output(0, one('Sub', [x, one('Mul', [one('Floor', [one('Div', [x, y])]), y])]));
}
