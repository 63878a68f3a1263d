import { attrInt } from '../../../graph/attr-read.js';
import { fromOnnxDataType } from '../../../graph/element-type.js';
import { isStatic, isSymbol, type Dim, type Shape } from '../../../graph/shape.js';
import { tensorType, type ValueType } from '../../../graph/types.js';
import type { InferFn, Rule, RuleContext } from '../../rule.js';
import { intAttr } from '../common.js';

/**
 * ONNX sequence ops, typed as onnx's own shape inference types them: a sequence's type is one
 * tensor type holding every tensor it may contain (the union: element types must agree; a dim
 * is kept where all agree, unknown otherwise; different ranks give an unknown rank). The number
 * of tensors is not part of the type (the converter knows it where it resolves the sequence).
 */
const seq = (elem: ValueType | null): ValueType => ({ kind: 'sequence', elem });
const elemOf = (t: ValueType | null): ValueType | null => (t?.kind === 'sequence' ? t.elem : null);

const sameDim = (a: Dim, b: Dim): boolean =>
  (isStatic(a) && a === b) || (isSymbol(a) && isSymbol(b) && a.sym === b.sym);

/** The type holding both tensor types (onnx's UnionShapeInfo); null where nothing is known. */
function union(c: RuleContext, a: ValueType | null, b: ValueType | null): ValueType | null {
  if (a === null || b === null || a.kind !== 'tensor' || b.kind !== 'tensor') return a === null ? b : b === null ? a : null;
  if (a.elem !== 'dynamic' && b.elem !== 'dynamic' && a.elem !== b.elem) {
    c.error(`a sequence holds tensors of one element type, got ${a.elem} and ${b.elem}`);
    return null;
  }
  const elem = a.elem === 'dynamic' ? b.elem : a.elem;
  const shape: Shape = a.shape === null || b.shape === null || a.shape.length !== b.shape.length ? null
    : a.shape.map((d, i) => (sameDim(d, b.shape![i]!) ? d : null));
  return tensorType(elem, shape);
}

const empty: InferFn = (c) => {
  const d = attrInt(c.node, 'dtype');
  const t = d === undefined ? { name: 'f32' as const } : fromOnnxDataType(Number(d));
  if (!t) { c.error(`unknown dtype ${d}`); return [{ type: seq(null) }]; }
  return [{ type: seq(tensorType(t.name, null)) }];
};

const construct: InferFn = (c) => {
  let t: ValueType | null = c.type(0);
  for (let i = 1; i < c.numInputs; i++) t = union(c, t, c.type(i));
  return [{ type: seq(t) }];
};

const insert: InferFn = (c) => [{ type: seq(union(c, elemOf(c.type(0)), c.type(1))) }];
const erase: InferFn = (c) => [{ type: c.type(0) }];
const at: InferFn = (c) => [{ type: elemOf(c.type(0)) }];

/** SplitToSequence: every part has the input's shape, the split axis of the parts' length (or squeezed). */
const splitToSequence: InferFn = (c) => {
  const t = c.tensor(0);
  if (!t || t.shape === null) return [{ type: seq(t ? tensorType(t.elem, null) : null) }];
  const r = t.shape.length;
  const a = intAttr(c, 'axis', 0);
  if (a < -r || a >= r) { c.error(`axis ${a} is out of range for rank ${r}`); return [{ type: seq(null) }]; }
  const axis = a < 0 ? a + r : a;
  const d = t.shape[axis]!;
  let part: Dim = null;
  if (!c.has(1)) {
    if (intAttr(c, 'keepdims', 1) === 0) return [{ type: seq(tensorType(t.elem, t.shape.filter((_, i) => i !== axis))) }];
    part = 1;
  } else {
    const split = c.ints(1);
    // all parts of one known length (a scalar dividing the axis, or equal lengths)
    if (split && split.length === 1 && c.shape(1)?.length === 0) part = isStatic(d) && d % split[0]! === 0 ? split[0]! : null;
    else if (split && split.length > 0 && split.every((s) => s === split[0])) part = split[0]!;
  }
  return [{ type: seq(tensorType(t.elem, t.shape.map((x, i) => (i === axis ? part : x)))) }];
};

/** ConcatFromSequence: the element's shape, the concatenation axis (inserted with new_axis) of unknown length. */
const concatFromSequence: InferFn = (c) => {
  const t = elemOf(c.type(0));
  if (t?.kind !== 'tensor') return [{ type: null }];
  if (t.shape === null) return [{ type: tensorType(t.elem, null) }];
  const newAxis = intAttr(c, 'new_axis', 0) === 1;
  const r = t.shape.length + (newAxis ? 1 : 0);
  const a = attrInt(c.node, 'axis');
  if (a === undefined) { c.error("attribute 'axis' is required"); return [null]; }
  if (a < -r || a >= r) { c.error(`axis ${a} is out of range for rank ${r}`); return [null]; }
  const axis = Number(a < 0 ? a + BigInt(r) : a);
  const shape: Dim[] = [...t.shape];
  if (newAxis) shape.splice(axis, 0, null);
  else shape[axis] = null;
  return [{ type: tensorType(t.elem, shape) }];
};

export const onnxSequenceRules: Rule[] = [
  { dialect: 'onnx', op: 'SequenceEmpty', since: 11, infer: empty },
  { dialect: 'onnx', op: 'SequenceConstruct', since: 11, infer: construct },
  { dialect: 'onnx', op: 'SequenceInsert', since: 11, infer: insert },
  { dialect: 'onnx', op: 'SequenceErase', since: 11, infer: erase },
  { dialect: 'onnx', op: 'SequenceAt', since: 11, infer: at },
  { dialect: 'onnx', op: 'SplitToSequence', since: 11, infer: splitToSequence },
  { dialect: 'onnx', op: 'ConcatFromSequence', since: 11, infer: concatFromSequence },
];
