import { fromIrElementType, type ElementTypeName } from '../../../graph/element-type.js';
import { interval, isStatic, type Dim, type Shape } from '../../../graph/shape.js';
import { dimRange, mulDims, normAxis } from '../../dim.js';
import { out, type InferFn, type Rule, type RuleContext } from '../../rule.js';
import { intAttr, shapeFromInput, strAttr } from '../common.js';

/** OpenVINO generators and gathers: Eye-9, RandomUniform-8, Multinomial-13, GatherND-5/8. */
function outputType(c: RuleContext, fallback: ElementTypeName): ElementTypeName {
  const s = strAttr(c, 'output_type', '');
  return s ? fromIrElementType(s)?.name ?? fallback : fallback;
}

const eye: InferFn = (c) => {
  const rows = c.value(0)?.[0] ?? null;
  const cols = c.value(1)?.[0] ?? null;
  const batch = c.has(3) ? shapeFromInput(c, 3)?.dims ?? null : [];
  return [out(outputType(c, 'f32'), batch === null ? null : [...batch, rows, cols])];
};

const randomUniform: InferFn = (c) => {
  const s = shapeFromInput(c, 0);
  return [out(outputType(c, c.elem(1)), s ? s.dims : null)];
};

/** Multinomial-13: [batch, num_samples] for 2-D probs, [num_samples] for 1-D; convert_type. */
const multinomial: InferFn = (c) => {
  const p = c.shape(0);
  const n = c.value(1)?.[0] ?? null;
  const convert = strAttr(c, 'convert_type', '');
  const elem = convert ? fromIrElementType(convert)?.name ?? 'dynamic' : 'dynamic';
  if (p === null) return [out(elem, null)];
  return [out(elem, p.length === 1 ? [n] : [p[0] ?? null, n])];
};

/** GatherND: indices[:-1] + data[batch_dims + indices[-1]:]; v5 flattens the batch dims into one. */
const gatherNd: InferFn = (c) => {
  const data = c.shape(0);
  const idx = c.shape(1);
  const b = intAttr(c, 'batch_dims', 0);
  if (data === null || idx === null || idx.length === 0) return [out(c.elem(0), null)];
  const last = idx[idx.length - 1]!;
  if (!isStatic(last)) return [out(c.elem(0), null)];
  const tail = data.slice(b + last);
  if (c.version >= 8 || b === 0) return [out(c.elem(0), [...idx.slice(0, -1), ...tail])];
  const batch = idx.slice(0, b).reduce<Dim>((a, d) => mulDims(a, d, true), 1);
  return [out(c.elem(0), [batch, ...idx.slice(b, -1), ...tail])];
};

/**
 * Unique-10: unique elements [1..n] (n = element count; along `axis`: that dim becomes 1..d), and
 * indices / counts [1..n]; the reverse indices have one entry per element (per slice along axis).
 */
const unique: InferFn = (c) => {
  const x = c.shape(0);
  const idx = fromIrElementType(strAttr(c, 'index_element_type', 'i64'))?.name ?? 'i64';
  const cnt = fromIrElementType(strAttr(c, 'count_element_type', 'i64'))?.name ?? 'i64';
  const numel = x === null ? null : x.reduce<Dim>((a, d) => mulDims(a, d, true), 1);
  const atLeastOne = (d: Dim): Dim => (isStatic(d) ? (d === 0 ? 0 : interval(1, d)) : d === null ? null : interval(Math.min(1, dimRange(d)[0]), dimRange(d)[1]));
  const axisV = c.has(1) ? c.ints(1) : undefined;
  let first: Shape = x === null ? null : [atLeastOne(numel)];
  let rev: Shape = x === null ? null : [numel];
  if (axisV !== undefined) {
    const a = x === null || axisV === null ? undefined : normAxis(axisV[0]!, x.length);
    first = x === null || a === undefined ? null : x.map((d, i) => (i === a ? atLeastOne(d) : d));
    rev = x === null || a === undefined ? [null] : [x[a]!];
  }
  return [out(c.elem(0), first), out(idx, [atLeastOne(numel)]), out(idx, rev), out(cnt, [atLeastOne(numel)])];
};

export const ovGeneratorRules: Rule[] = [
  { dialect: 'ov', op: 'Unique', since: 10, infer: unique },
  { dialect: 'ov', op: 'Eye', since: 9, infer: eye },
  { dialect: 'ov', op: 'RandomUniform', since: 8, infer: randomUniform },
  { dialect: 'ov', op: 'Multinomial', since: 13, infer: multinomial },
  { dialect: 'ov', op: 'GatherND', since: 5, infer: gatherNd },
];
