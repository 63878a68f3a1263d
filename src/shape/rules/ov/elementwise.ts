import { fromIrElementType, type ElementTypeName } from '../../../graph/element-type.js';
import { isStatic, type Dim } from '../../../graph/shape.js';
import { ovAutoBroadcast, ovNumpyBroadcast } from '../../broadcast.js';
import { out, type InferFn, type Rule, type RuleContext } from '../../rule.js';
import { broadcastValues } from '../../partial.js';
import { broadcastOr, convertedIntData, family, intAttr, sharedOperandType, strAttr, zipValues } from '../common.js';
import { evaluateBinary, evaluateSelect, evaluateUnary } from './evaluate.js';

/**
 * OpenVINO elementwise ops: unary ops keep their input's type; binary arithmetic
 * (BinaryElementwiseArithmetic), comparison and logical ops broadcast by `auto_broadcast`
 * (numpy by default, none, pdpd with its axis) and merge the element types; comparisons and
 * logical ops give boolean. Small integer data: exactly known inputs are evaluated (evaluate.ts),
 * Add/Subtract/Multiply/Divide also carry bounds.
 */
const UNARY = [
  'Abs', 'Negative', 'Relu', 'Sigmoid', 'Tanh', 'Exp', 'Log', 'Sqrt', 'Floor', 'Ceiling', 'Sign', 'Sin', 'Cos',
  'Tan', 'Asin', 'Acos', 'Atan', 'Sinh', 'Cosh', 'Asinh', 'Acosh', 'Atanh', 'Erf', 'ErfInv', 'SoftPlus', 'SoftSign',
  'Elu', 'Clamp', 'HSwish', 'HSigmoid', 'Mish', 'Gelu', 'Swish', 'Selu',
  'HardSigmoid', 'GRN', 'MVN', 'NormalizeL2', 'Round', 'CumSum', 'BitwiseNot', 'PRelu', 'LRN', 'ReverseSequence',
];

/** Element types merge: equal, or dynamic with anything; otherwise an error. */
export function mergeElem(c: RuleContext, a: ElementTypeName, b: ElementTypeName): ElementTypeName {
  if (a === b || b === 'dynamic') return a;
  if (a === 'dynamic') return b;
  c.error(`arguments have different element types ${a} and ${b}`);
  return 'dynamic';
}


function binaryShape(c: RuleContext) {
  const spec = strAttr(c, 'auto_broadcast', 'numpy');
  return broadcastOr(c, ovAutoBroadcast(spec, c.shape(0), c.shape(1), intAttr(c, 'axis', -1)));
}

/** Whether the data of a binary op broadcasts as numpy (or not at all): pdpd's axis is not followed. */
const numpyData = (c: RuleContext): boolean => ['numpy', 'none'].includes(strAttr(c, 'auto_broadcast', 'numpy').toLowerCase());

/** Data, element by element, as OpenVINO's bound evaluation gives it (evaluate.ts). */
const arithmetic: InferFn = (c) => {
  const elem = mergeElem(c, c.elem(0), c.elem(1));
  const value = numpyData(c) ? evaluateBinary(c, elem) : null;
  // two operands of one type: the output is of that type
  const shared = sharedOperandType(c);
  return [shared ? { type: shared, value } : out(elem, binaryShape(c), value)];
};

/**
 * Comparison and logical ops on known small data give known data (0/1), as OpenVINO's constant
 * folding does during validation: an If whose condition is computed from shapes then takes one
 * branch (Silero's "rank is 3?" switches).
 */
const COMPARE: Record<string, (x: number, y: number) => boolean> = {
  Equal: (x, y) => x === y, NotEqual: (x, y) => x !== y, Greater: (x, y) => x > y, GreaterEqual: (x, y) => x >= y,
  Less: (x, y) => x < y, LessEqual: (x, y) => x <= y,
  LogicalAnd: (x, y) => x !== 0 && y !== 0, LogicalOr: (x, y) => x !== 0 || y !== 0, LogicalXor: (x, y) => (x !== 0) !== (y !== 0),
  Xor: (x, y) => (x !== 0) !== (y !== 0),
};

const comparison: InferFn = (c) => {
  mergeElem(c, c.elem(0), c.elem(1));
  const f = COMPARE[c.node.op] ?? (() => false);
  const g = (x: Dim, y: Dim) => (isStatic(x) && isStatic(y) ? (f(x, y) ? 1 : 0) : null);
  const ops = [0, 1].map((i) => ({ value: c.value(i), shape: c.shape(i) }));
  const value = numpyData(c) ? broadcastValues(ops, (xs) => g(xs[0]!, xs[1]!)) ?? zipValues(c.value(0), c.value(1), g) : null;
  return [out('boolean', binaryShape(c), value)];
};

const convert: InferFn = (c) => {
  const s = strAttr(c, 'destination_type', '');
  const t = fromIrElementType(s.trim().toLowerCase() === 'boolean' ? 'boolean' : s.trim());
  if (!t) { c.error(`unknown destination_type '${s}'`); return [out('dynamic', c.shape(0))]; }
  const ints = ['i64', 'i32', 'u64', 'u32', 'i16', 'u16', 'i8', 'u8', 'boolean'];
  const v = ints.includes(t.name) && ints.includes(c.elem(0)) ? c.value(0) : null;
  // to boolean: non-zero is true (known values only); to an integer type: the values it holds
  const value = t.name === 'boolean' ? (v && c.elem(0) !== 'boolean' ? v.map((x) => (isStatic(x) ? (x !== 0 ? 1 : 0) : null)) : v) : convertedIntData(v, t.name);
  return [out(t.name, c.shape(0), value)];
};

/** Select-1: cond broadcast with then/else (numpy), element type of then/else merged; data as evaluateSelect. */
const select: InferFn = (c) => {
  const elem = mergeElem(c, c.elem(1), c.elem(2));
  const spec = strAttr(c, 'auto_broadcast', 'numpy');
  const te = broadcastOr(c, ovAutoBroadcast(spec, c.shape(1), c.shape(2)));
  const shape = spec.toLowerCase() === 'pdpd' ? te : broadcastOr(c, ovNumpyBroadcast(c.shape(0), te));
  return [out(elem, shape, numpyData(c) ? evaluateSelect(c) : null)];
};

export const ovElementwiseRules: Rule[] = [
  ...family('ov', UNARY, 1, (c) => [{ type: c.type(0), value: evaluateUnary(c) }]),
  { dialect: 'ov', op: 'Convert', since: 1, infer: convert },
  { dialect: 'ov', op: 'ConvertLike', since: 1, infer: (c) => [out(c.elem(1), c.shape(0))] },
  ...family('ov', ['LogicalNot'], 1, (c) => [out('boolean', c.shape(0), c.value(0)?.map((x) => (isStatic(x) ? (x ? 0 : 1) : null)) ?? null)]),
  ...family('ov', ['IsNaN', 'IsInf', 'IsFinite'], 10, (c) => [out('boolean', c.shape(0))]),
  ...family('ov', ['Add', 'Subtract', 'Multiply', 'Divide', 'Maximum', 'Minimum', 'Power', 'FloorMod', 'Mod',
    'SquaredDifference', 'BitwiseAnd', 'BitwiseOr', 'BitwiseXor'], 1, arithmetic),
  ...family('ov', ['Equal', 'NotEqual', 'Greater', 'GreaterEqual', 'Less', 'LessEqual'], 1, comparison),
  ...family('ov', ['LogicalAnd', 'LogicalOr', 'LogicalXor', 'Xor'], 1, comparison),
  { dialect: 'ov', op: 'Select', since: 1, infer: select },
];
