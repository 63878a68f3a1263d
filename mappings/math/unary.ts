import { attrInt } from '../../src/graph/attr-read.js';
import { A } from '../../src/graph/attr.js';
import { boolInt, float, int, irOnly, NUMPY_BROADCAST, type OpMapping } from '../spec.js';
import { floorModToIr, floorModToOnnx } from './floor-mod.js';
import { roundToOnnx } from './round.js';

/**
 * Unary elementwise ops: same semantics, no attributes (ONNX opset 1's `consumed_inputs` is an
 * unknown attribute and reported, never dropped; from opset 6 on these ops have none).
 */
const unary = (onnx: string, ir: string, since = 1, version = 'opset1'): OpMapping => ({
  onnx: { op: onnx, since },
  ir: { op: ir, version },
});

export const UNARY: readonly OpMapping[] = [
  unary('Abs', 'Abs'),
  unary('Neg', 'Negative'),
  unary('Not', 'LogicalNot'),
  unary('Relu', 'Relu'),
  unary('Sigmoid', 'Sigmoid'),
  unary('Tanh', 'Tanh'),
  unary('Exp', 'Exp'),
  unary('Log', 'Log'),
  unary('Sqrt', 'Sqrt'),
  unary('Floor', 'Floor'),
  unary('Ceil', 'Ceiling'),
  unary('Erf', 'Erf', 9),
  unary('Sin', 'Sin', 7),
  unary('Cos', 'Cos', 7),
  unary('Sign', 'Sign', 9),
  unary('Tan', 'Tan', 7),
  unary('Asin', 'Asin', 7),
  unary('Acos', 'Acos', 7),
  unary('Atan', 'Atan', 7),
  unary('Sinh', 'Sinh', 9),
  unary('Cosh', 'Cosh', 9),
  unary('Asinh', 'Asinh', 9, 'opset4'),
  unary('Acosh', 'Acosh', 9, 'opset4'),
  unary('Atanh', 'Atanh', 9, 'opset4'),
  unary('Softplus', 'SoftPlus', 1, 'opset4'),
  unary('HardSwish', 'HSwish', 14, 'opset4'),
  unary('Mish', 'Mish', 18, 'opset4'),
  unary('IsNaN', 'IsNaN', 9, 'opset10'),
  unary('BitwiseNot', 'BitwiseNot', 18, 'opset13'),
  {
    // ONNX rounds halves to even, as IR Round-5 mode half_to_even; half_away_from_zero goes to
    // ONNX as an exact subgraph (mappings/math/round.ts).
    onnx: { op: 'Round', since: 11 },
    ir: { op: 'Round', version: 'opset5' },
    attrs: [irOnly('mode', 'half_to_even')],
    handles: { ir: ['mode'] },
    note: 'IR mode half_away_from_zero: Sign(x)·(Floor(|x|) + (|x| − Floor(|x|) ≥ 0.5))',
    toOnnx: roundToOnnx,
  },
  {
    onnx: { op: 'IsInf', since: 10 },
    ir: { op: 'IsInf', version: 'opset10' },
    attrs: [boolInt('detect_negative').default(1n).irDefaultTo('true'), boolInt('detect_positive').default(1n).irDefaultTo('true')],
  },
  {
    onnx: { op: 'Elu', since: 6 },
    ir: { op: 'Elu', version: 'opset1' },
    attrs: [float('alpha').default(1)],
  },
  {
    // axis is an input on both sides; exclusive/reverse are ints in ONNX, booleans in IR.
    onnx: { op: 'CumSum', since: 11 },
    ir: { op: 'CumSum', version: 'opset3' },
    attrs: [boolInt('exclusive').default(0n).irDefaultTo('false'), boolInt('reverse').default(0n).irDefaultTo('false')],
  },
  {
    // ONNX Mod with fmod=0 (integers) takes the divisor's sign: IR FloorMod (of floats: its formula); fmod=1 truncates: IR Mod.
    onnx: { op: 'Mod', since: 10 },
    ir: { op: 'FloorMod', version: 'opset1' },
    when: (n) => (attrInt(n, 'fmod') ?? 0n) === 0n,
    attrs: [...NUMPY_BROADCAST, int('fmod').onnxOnly().default(0n).onlyValues(0n)],
    toIr: floorModToIr,
    toOnnx: floorModToOnnx,
  },
  {
    onnx: { op: 'Mod', since: 10 },
    ir: { op: 'Mod', version: 'opset1' },
    when: (n) => attrInt(n, 'fmod') === 1n,
    attrs: [...NUMPY_BROADCAST],
    handles: { onnx: ['fmod'] },
    toOnnx: (c) => { c.output(0, c.emit('Mod', [c.input(0), c.input(1)], { fmod: A.int(1) })[0]!); },
  },
];
