import { attrInt } from '../../../graph/attr-read.js';
import type { ElementTypeName } from '../../../graph/element-type.js';
import { isStatic, type Dim, type Shape } from '../../../graph/shape.js';
import { onnxBroadcast } from '../../broadcast.js';
import { mergeShape } from '../../dim.js';
import { broadcastValues, type Operand } from '../../partial.js';
import { out, type InferFn, type PartialValue, type Rule, type RuleContext } from '../../rule.js';
import { ARITH, broadcastOr, family, floorMod, sameAsInput, sharedOperandType, truncMod, unaryData, zipValues } from '../common.js';

/**
 * ONNX elementwise ops (onnx/defs/math, logical, nn): unary ops keep their input's type; binary
 * ops broadcast multidirectionally from opset 7 (before: `broadcast`/`axis` attributes, output
 * shaped as A); comparisons and logical ops give bool. Add/Sub/Mul/Div also propagate data on
 * small integer tensors, as onnx's data propagation does; Mod, Max, Min, comparisons, logical
 * ops and Where propagate data known exactly (DATA_NARY).
 */

const UNARY = [
  'Abs', 'Neg', 'Relu', 'Sigmoid', 'Tanh', 'Exp', 'Log', 'Sqrt', 'Reciprocal', 'Floor', 'Ceil', 'Round',
  'Sign', 'Sin', 'Cos', 'Tan', 'Asin', 'Acos', 'Atan', 'Sinh', 'Cosh', 'Asinh', 'Acosh', 'Atanh',
  'Erf', 'Softplus', 'Softsign', 'Elu', 'Selu', 'LeakyRelu', 'ThresholdedRelu', 'HardSigmoid',
  'HardSwish', 'Mish', 'Gelu', 'Celu', 'Shrink', 'BitwiseNot',
  'Clip', 'Dropout', 'LRN', 'MeanVarianceNormalization', 'InstanceNormalization',
  'LpNormalization', 'CumSum', 'CumProd', 'Trilu', 'ReverseSequence', 'Swish',
];

/** Unary ops whose data onnx propagates (shape arithmetic). */
const DATA_UNARY: Record<string, ((x: number) => number) | null> = { Neg: (x) => -x, Abs: (x) => Math.abs(x) };

/** Output 0: input 0's type; Dropout's optional mask output is of the same shape, bool from opset 10 (before: input 0's type). */
const unary: InferFn = (c) => {
  const first = c.node.op === 'Identity' ? sameAsInput(c)[0]! : unaryData(DATA_UNARY[c.node.op] ?? null)(c)[0]!;
  if (c.node.op === 'Dropout' && c.node.outputs.length > 1) return [first, out(c.version >= 10 ? 'boolean' : c.elem(0), c.shape(0))];
  return [first];
};

const isNot = (c: RuleContext): boolean => c.node.op === 'Not';

/** The broadcast shape of all inputs (opset ≥ 7), or A's shape under legacy broadcast rules. */
function binaryShape(c: RuleContext): Shape {
  const present = Array.from({ length: c.numInputs }, (_, i) => i).filter((i) => c.has(i));
  if (c.version < 7 && ['Add', 'Sub', 'Mul', 'Div', 'Pow', 'And', 'Or', 'Xor', 'Equal', 'Greater', 'Less'].includes(c.node.op)) {
    const legacy = attrInt(c.node, 'broadcast');
    if (legacy !== undefined && legacy !== 0n) return c.shape(0);
    const m = mergeShape(c.shape(0), c.shape(1));
    if (m === undefined) { c.error('inputs must have the same shape when broadcast=0'); return null; }
    return m;
  }
  return broadcastOr(c, onnxBroadcast(present.map((i) => c.shape(i))));
}

const ARITH_OPS: Record<string, keyof typeof ARITH> = { Add: 'add', Sub: 'sub', Mul: 'mul', Div: 'div' };

/**
 * Integer and boolean data of the other elementwise ops whose inputs are small known tensors
 * (shape arithmetic the ONNX Attention function body does: Mod, Equal, Not, And, Where): an
 * element whose operands are all known exactly is computed as the op defines it, any other stays
 * unknown. Mod follows `fmod` (0: the divisor's sign, as a floor mod; 1: the dividend's).
 */
const DATA_NARY: Record<string, (c: RuleContext) => (xs: readonly number[]) => number | null> = {
  Mod: (c) => (attrInt(c.node, 'fmod') === 1n ? ([x, y]) => truncMod(x!, y!) : ([x, y]) => floorMod(x!, y!)),
  Max: () => (xs) => Math.max(...xs),
  Min: () => (xs) => Math.min(...xs),
  Equal: () => ([x, y]) => (x === y ? 1 : 0),
  Greater: () => ([x, y]) => (x! > y! ? 1 : 0),
  Less: () => ([x, y]) => (x! < y! ? 1 : 0),
  GreaterOrEqual: () => ([x, y]) => (x! >= y! ? 1 : 0),
  LessOrEqual: () => ([x, y]) => (x! <= y! ? 1 : 0),
  And: () => ([x, y]) => (x !== 0 && y !== 0 ? 1 : 0),
  Or: () => ([x, y]) => (x !== 0 || y !== 0 ? 1 : 0),
  Xor: () => ([x, y]) => ((x !== 0) !== (y !== 0) ? 1 : 0),
  Not: () => ([x]) => (x === 0 ? 1 : 0),
};

/** Data of the node's inputs combined element by element (multidirectional broadcast, opset ≥ 7). */
function elementData(c: RuleContext, f: (xs: readonly Dim[]) => Dim): PartialValue | null {
  if (c.version < 7 && c.node.op !== 'Not') return null; // legacy broadcast attributes: not followed
  const ops: Operand[] = [];
  for (let i = 0; i < c.numInputs; i++) ops.push({ value: c.value(i), shape: c.shape(i) });
  return broadcastValues(ops, f) ?? (ops.length === 2 ? zipValues(ops[0]!.value, ops[1]!.value, (x, y) => f([x, y])) : null);
}

/** DATA_NARY's kernel on exactly known (finite) operands, unknown otherwise; results must be exact integers. */
function knownData(c: RuleContext): PartialValue | null {
  const make = DATA_NARY[c.node.op];
  if (!make) return null;
  const k = make(c);
  return elementData(c, (xs) => {
    if (!xs.every((x) => isStatic(x) && Number.isFinite(x))) return null;
    const r = k(xs as readonly number[]);
    return r !== null && Number.isSafeInteger(r) ? r : null;
  });
}

const binary = (elem?: ElementTypeName): InferFn => (c) => {
  // two operands of one type (opset 7 on): the output is of that type
  const shared = elem === undefined && c.version >= 7 && c.numInputs === 2 ? sharedOperandType(c) : null;
  const shape = shared ? null : binaryShape(c);
  const e = elem ?? c.elem(0);
  const op = ARITH_OPS[c.node.op];
  const value = op && (e === 'i64' || e === 'i32') ? zipValues(c.value(0), c.value(1), ARITH[op]!(false)) : knownData(c);
  return [shared ? { type: shared, value } : out(e, shape, value)];
};

/** Where: each element is X's or Y's as the known condition element says (unknown where it is not known). */
const where: InferFn = (c) => {
  const value = elementData(c, ([cond, x, y]) => (isStatic(cond!) ? (cond !== 0 ? x! : y!) : null));
  return [out(c.elem(1), broadcastOr(c, onnxBroadcast([c.shape(0), c.shape(1), c.shape(2)])), value)];
};

const prelu: InferFn = (c) => [out(c.elem(0), c.version >= 7 ? broadcastOr(c, onnxBroadcast([c.shape(0), c.shape(1)])) : c.shape(0))];

export const onnxElementwiseRules: Rule[] = [
  ...family('onnx', [...UNARY, 'Identity'], 1, unary),
  ...family('onnx', ['Not'], 1, (c) => [out('boolean', isNot(c) ? c.shape(0) : null, knownData(c))]),
  ...family('onnx', ['IsNaN', 'IsInf'], 9, (c) => [out('boolean', c.shape(0))]),
  ...family('onnx', ['Add', 'Sub', 'Mul', 'Div', 'Pow', 'Mod', 'BitShift', 'BitwiseAnd', 'BitwiseOr', 'BitwiseXor'], 1, binary()),
  ...family('onnx', ['Max', 'Min', 'Sum', 'Mean'], 1, binary()),
  ...family('onnx', ['Equal', 'Greater', 'Less', 'GreaterOrEqual', 'LessOrEqual', 'And', 'Or', 'Xor'], 1, binary('boolean')),
  { dialect: 'onnx', op: 'Where', since: 9, infer: where },
  { dialect: 'onnx', op: 'PRelu', since: 1, infer: prelu },
];
