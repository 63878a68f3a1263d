import type { OpMapping } from './spec.js';

/**
 * Unary elementwise ops: same semantics, no attributes (ONNX opset 1's `consumed_inputs` is an
 * unknown attribute and reported, never dropped; from opset 6 on these ops have none).
 */
const unary = (onnx: string, ir: string, since = 1, version = 'opset1'): OpMapping => ({
  onnx: { op: onnx, since },
  ir: { op: ir, version },
});

export const MATH: readonly OpMapping[] = [
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
];
