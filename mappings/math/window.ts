import { fromOnnxDataType } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedScalar } from '../typed-consts.js';

/**
 * The window functions of onnx/defs/math (HannWindow, HammingWindow, BlackmanWindow, opset 17),
 * as OpenVINO's frontend writes them (there is no IR op): with N = size (periodic = 1) or
 * size - 1 (periodic = 0) and n = 0 … size - 1,
 *   y[n] = a0 - a1·cos(2πn / N) + a2·cos(4πn / N),
 * computed in f32 (Range-4 over the size converted to f32, Cos, Multiply, Subtract, Add) and
 * converted to `output_datatype` (default f32).
 *   Hann: a0 = a1 = 0.5, a2 = 0;  Hamming: a0 = 25/46, a1 = 21/46, a2 = 0;
 *   Blackman: a0 = 0.42, a1 = 0.5, a2 = 0.08.
 */
type Coefficients = readonly [a0: number, a1: number, a2: number];

function window(c: ConvertContext, [a0, a1, a2]: Coefficients): void {
  const out = fromOnnxDataType(Number(c.attr.int('output_datatype', 1n)));
  if (!out || out.onnx === null || typedScalar(out.name, 0) === null) {
    c.unsupportedAttr('output_datatype', String(c.attr.int('output_datatype', 1n)), 'a numeric type of whole bytes');
    return;
  }
  const periodic = c.attr.int('periodic', 1n) !== 0n;
  if (c.rank(0) !== null && c.rank(0) !== 0) { c.error(`size must be a scalar (rank ${c.rank(0)})`); return; }
  const f = (v: number): Value => c.constant(typedScalar('f32', v)!);
  const bin = (op: string, a: Value, b: Value): Value => c.emit(op, [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const size = c.elem(0) === 'f32' ? c.input(0)! : c.emit('Convert', [c.input(0)], { destination_type: 'f32' }, 1, 'opset1')[0]!;
  const n = c.emit('Range', [f(0), size, f(1)], { output_type: 'f32' }, 1, 'opset4')[0]!;
  const period = periodic ? size : bin('Subtract', size, f(1));
  const angle = bin('Multiply', n, bin('Divide', f(2 * Math.PI), period));
  let y = bin('Subtract', f(a0), bin('Multiply', c.emit('Cos', [angle], {}, 1, 'opset1')[0]!, f(a1)));
  if (a2 !== 0) y = bin('Add', y, bin('Multiply', c.emit('Cos', [bin('Multiply', angle, f(2))], {}, 1, 'opset1')[0]!, f(a2)));
  c.output(0, out.name === 'f32' ? y : c.emit('Convert', [y], { destination_type: out.name }, 1, 'opset1')[0]!);
}

const entry = (op: string, a: Coefficients): OpMapping => ({
  onnx: { op, since: 17 },
  ir: null,
  decomposes: ['Convert', 'Range', 'Multiply', 'Divide', 'Subtract', 'Add', 'Cos'],
  handles: { onnx: ['output_datatype', 'periodic'] },
  note: 'IR: Range, Cos and arithmetic in f32 (as OpenVINO\'s frontend)',
  toIr: (c) => window(c, a),
});

export const WINDOW: readonly OpMapping[] = [
  entry('HannWindow', [0.5, 0.5, 0]),
  entry('HammingWindow', [25 / 46, 21 / 46, 0]),
  entry('BlackmanWindow', [0.42, 0.5, 0.08]),
];
