import { attrBool, attrFloat, attrString } from '../../../graph/attr-read.js';
import { elementType, type ElementTypeName } from '../../../graph/element-type.js';
import { interval, isStatic, type Dim } from '../../../graph/shape.js';
import { dimRange } from '../../dim.js';
import { broadcastValues, fullyKnown, MAX_PARTIAL_ELEMENTS, type Operand } from '../../partial.js';
import { floorMod, truncMod, zipValues } from '../common.js';
import type { PartialValue, RuleContext } from '../../rule.js';

/**
 * Small integer data through OpenVINO ops whose inputs' data is known, as OpenVINO's bound
 * evaluation (evaluate_lower / evaluate_upper) gives it during shape inference: this is how a
 * target shape computed with FloorMod, Select, Maximum… from ShapeOf data stays static.
 *
 * Binary arithmetic is evaluated element by element (binaryElement): operands known exactly are
 * computed with the op's integer semantics (OpenVINO's reference kernels), bounded intervals give
 * the op's range over their bounds, anything else stays unknown (measured with openvino 2026.4:
 * FloorMod, Mod, Maximum, Minimum, Power, Divide of ShapeOf [?,5] by 4 all give [?,k]). Ops
 * OpenVINO does not evaluate during shape inference (SquaredDifference, the Bitwise ops: measured,
 * [?,?]) have no kernel here, so a result never says more than OpenVINO. A kernel says null where
 * the op has no defined integer result (division by zero); a result outside the element type's
 * range (or JavaScript's exact integers) is not propagated. Data-movement ops (Select, the
 * Scatters, Tile) move whatever is known of each element, bounds included.
 */
const floorDiv = (x: number, y: number): number | null => (y === 0 ? null : Math.floor(x / y));
const truncDiv = (x: number, y: number): number | null => (y === 0 ? null : Math.trunc(x / y));

/** Integer power as repeated multiplication; a negative exponent: 1 / x^-y truncated (0 unless |x| is 1). */
function intPow(x: number, y: number): number | null {
  if (y >= 0) return x ** y;
  if (x === 0) return null;
  if (x === 1) return 1;
  if (x === -1) return y % 2 === 0 ? 1 : -1;
  return 0;
}

/** Binary elementwise ops on integers, by op name; the context gives attributes (Divide's m_pythondiv). */
const BINARY: Record<string, (c: RuleContext) => (x: number, y: number) => number | null> = {
  Add: () => (x, y) => x + y,
  Subtract: () => (x, y) => x - y,
  Multiply: () => (x, y) => x * y,
  // integer Divide floors when m_pythondiv (the default), else truncates, as the reference does
  Divide: (c) => ((attrBool(c.node, 'm_pythondiv') ?? true) ? floorDiv : truncDiv),
  Maximum: () => Math.max,
  Minimum: () => Math.min,
  // FloorMod: the remainder has the divisor's sign; Mod: the dividend's (C's %)
  FloorMod: () => floorMod,
  Mod: () => truncMod,
  Power: () => intPow,
};

/** The integer kernel of the node's binary op, or null when it has none here. */
const binaryKernel = (c: RuleContext): ((x: number, y: number) => number | null) | null => BINARY[c.node.op]?.(c) ?? null;

/** The range of exact values of an integer (or boolean) element type; null for other types. */
function rangeOf(elem: ElementTypeName): [number, number] | null {
  if (elem === 'boolean') return [0, 1];
  const t = elementType(elem);
  if (t.kind !== 'int' && t.kind !== 'uint') return null;
  if (t.bits >= 53) return t.kind === 'uint' ? [0, Number.MAX_SAFE_INTEGER] : [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
  return t.kind === 'uint' ? [0, 2 ** t.bits - 1] : [-(2 ** (t.bits - 1)), 2 ** (t.bits - 1) - 1];
}

/**
 * The node's binary op on one element of each operand, for data of element type `elem`, as
 * OpenVINO's bound evaluation gives it (measured, openvino 2026.4): two exactly known operands are
 * computed; bounded ones (intervals, both bounds finite) give the range of the op over the four
 * corners of their bounds (OpenVINO evaluates the op on each pair of lower/upper bounds: [2..5]
 * FloorMod 3 is 2, as 2 mod 3 and 5 mod 3 are; [2..5] Divide [1..3] is 0..5), kept only when it is
 * non-negative (a shape); an operand unbounded above (a dynamic dim, a symbol, 2..) gives unknown.
 * Mod has bound rules of its own in OpenVINO and is computed here only from exact operands.
 */
export function binaryElement(c: RuleContext, elem: ElementTypeName): ((x: Dim, y: Dim) => Dim) | null {
  const f = binaryKernel(c);
  const range = rangeOf(elem);
  if (!range || !f) return null;
  const exact = (x: number, y: number): number | null => {
    const r = f(x, y);
    return r !== null && Number.isSafeInteger(r) && r >= range[0] && r <= range[1] ? r : null;
  };
  const corners = c.node.op !== 'Mod';
  return (x, y) => {
    if (isStatic(x) && isStatic(y)) return Number.isFinite(x) && Number.isFinite(y) ? exact(x, y) : null;
    if (!corners) return null;
    const [xl, xh] = dimRange(x);
    const [yl, yh] = dimRange(y);
    if (xh === Infinity || yh === Infinity) return null;
    let lo = Infinity;
    let hi = -Infinity;
    for (const a of [xl, xh]) {
      for (const b of [yl, yh]) {
        const r = exact(a, b);
        if (r === null) return null;
        lo = Math.min(lo, r);
        hi = Math.max(hi, r);
      }
    }
    return lo < 0 ? null : interval(lo, hi);
  };
}

/** A binary elementwise op (numpy broadcast) on small integer data, element by element (binaryElement). */
export function evaluateBinary(c: RuleContext, elem: ElementTypeName): PartialValue | null {
  const g = binaryElement(c, elem);
  if (!g) return null;
  const ops: Operand[] = [0, 1].map((i) => ({ value: c.value(i), shape: c.shape(i) }));
  return broadcastValues(ops, (xs) => g(xs[0]!, xs[1]!)) ?? zipValues(c.value(0), c.value(1), g);
}

/**
 * Select-1 (Select::evaluate_lower/upper): with the condition known exactly, each element is the
 * then or else element, whatever is known of it (bounds pass through); otherwise nothing.
 */
export function evaluateSelect(c: RuleContext): PartialValue | null {
  const cond = c.value(0);
  if (!fullyKnown(cond)) return null;
  const ops: Operand[] = [0, 1, 2].map((i) => ({ value: c.value(i), shape: c.shape(i) }));
  return broadcastValues(ops, (xs: readonly Dim[]) => (isStatic(xs[0]!) && xs[0] !== 0 ? xs[1]! : xs[2]!));
}

/** Row-major strides of static dims. */
function stridesOf(dims: readonly number[]): number[] {
  const st: number[] = Array.from({ length: dims.length }, () => 1);
  for (let k = dims.length - 2; k >= 0; k--) st[k] = st[k + 1]! * dims[k + 1]!;
  return st;
}

/**
 * A scatter's operands (data, indices, updates, axis) when its indices and axis are known and its
 * data and indices have static shapes, the axis normalized; null otherwise.
 */
function scatterOperands(c: RuleContext): { data: PartialValue; indices: readonly number[]; updates: PartialValue; dims: number[]; idims: number[]; axis: number } | null {
  const data = c.value(0);
  const indices = c.value(1);
  const updates = c.value(2);
  const axisV = c.value(3);
  const ds = c.shape(0);
  const is = c.shape(1);
  if (!data || !updates || !fullyKnown(indices) || !fullyKnown(axisV) || axisV.length !== 1) return null;
  if (!ds || !is || !ds.every(isStatic) || !is.every(isStatic)) return null;
  const dims = ds as number[];
  const axis = axisV[0]! < 0 ? axisV[0]! + dims.length : axisV[0]!;
  if (axis < 0 || axis >= dims.length || data.length !== dims.reduce((p, d) => p * d, 1)) return null;
  return { data, indices, updates, dims, idims: is as number[], axis };
}

/**
 * ScatterElementsUpdate-3/-12 (reduction none) on known indices and axis: the data (bounds
 * included) with each update written where its own position, the axis coordinate replaced by its
 * index (negative counts from the end), points; bounds move with the elements (OpenVINO: ShapeOf
 * (?,3,4) with element 1 set to 9 is (?,9,4)). How ovc writes ONNX Pad's pads computed in the graph.
 */
export function evaluateScatterElements(c: RuleContext): PartialValue | null {
  if (c.version >= 12 && (attrString(c.node, 'reduction') ?? 'none').toLowerCase() !== 'none') return null;
  const s = scatterOperands(c);
  if (!s || s.idims.length !== s.dims.length || s.updates.length !== s.indices.length) return null;
  const { data, indices, updates, dims, idims, axis } = s;
  const rank = dims.length;
  const result: Dim[] = [...data];
  const st = stridesOf(dims);
  const ist = stridesOf(idims);
  for (let p = 0; p < indices.length; p++) {
    let at = 0;
    for (let k = 0; k < rank; k++) {
      let coord = Math.floor(p / ist[k]!) % idims[k]!;
      if (k === axis) {
        coord = indices[p]! < 0 ? indices[p]! + dims[axis]! : indices[p]!;
      }
      if (coord < 0 || coord >= dims[k]!) return null;
      at += coord * st[k]!;
    }
    result[at] = updates[p]!;
  }
  return result;
}

/**
 * Unary data as OpenVINO's bounds give it: Abs keeps non-negative bounds (shape data) and takes
 * |x| of known elements; Negative gives data only when every element is known (measured:
 * Negative(Negative(ShapeOf (?,3,4))) is unknown as a whole in OpenVINO).
 * Clamp-1 clamps each bound to [ceil(min), floor(max)] (integer data): a dynamic dim clamped to
 * [1, 3] is 1..3, as OpenVINO gives it.
 */
export function evaluateUnary(c: RuleContext): PartialValue | null {
  const v = c.value(0);
  if (!v) return null;
  switch (c.node.op) {
    case 'Abs': return v.map((x) => (isStatic(x) ? (Number.isFinite(x) ? Math.abs(x) : null) : x));
    case 'Negative': return fullyKnown(v) && v.every(Number.isFinite) ? v.map((x) => -x) : null;
    case 'Clamp': {
      const min = attrFloat(c.node, 'min');
      const max = attrFloat(c.node, 'max');
      if (min === undefined || max === undefined || Number.isNaN(min) || Number.isNaN(max)) return null;
      const lo = Math.ceil(min);
      const hi = Math.floor(max);
      if (lo > hi) return null;
      const clamp = (x: number) => Math.min(Math.max(x, lo), hi);
      return v.map((x) => {
        if (isStatic(x)) return Number.isFinite(x) ? clamp(x) : null;
        const [xl, xh] = dimRange(x);
        return clamp(xl) < 0 ? null : interval(clamp(xl), clamp(xh));
      });
    }
    default: return null;
  }
}

/** A flat row-major index into static `dims` from a coordinate list. */
function flatIndex(coord: readonly number[], strides: readonly number[]): number {
  let at = 0;
  for (let k = 0; k < coord.length; k++) at += coord[k]! * strides[k]!;
  return at;
}

/**
 * ScatterUpdate-3 on known indices and axis: the data (bounds included) with slices along `axis`
 * replaced by the updates' slices (updates shaped data[:axis] + indices + data[axis+1:]); bounds
 * move with the elements, as OpenVINO's bound evaluation scatters lower and upper bounds apart.
 */
export function evaluateScatterUpdate(c: RuleContext): PartialValue | null {
  const s = scatterOperands(c);
  if (!s) return null;
  const { data, indices, updates, dims, idims, axis } = s;
  const udims = [...dims.slice(0, axis), ...idims, ...dims.slice(axis + 1)];
  if (updates.length !== udims.reduce((p, d) => p * d, 1)) return null;
  const result: Dim[] = [...data];
  const st = stridesOf(dims);
  const ust = stridesOf(udims);
  for (let u = 0; u < updates.length; u++) {
    const ucoord = udims.map((d, k) => Math.floor(u / ust[k]!) % d);
    const icoord = ucoord.slice(axis, axis + idims.length);
    const raw = indices[flatIndex(icoord, stridesOf(idims))]!;
    const at = raw < 0 ? raw + dims[axis]! : raw;
    if (at < 0 || at >= dims[axis]!) return null;
    const coord = [...ucoord.slice(0, axis), at, ...ucoord.slice(axis + idims.length)];
    result[flatIndex(coord, st)] = updates[u]!;
  }
  return result;
}

/** Tile-1 of data with a static shape by known repeats: the data (bounds included) repeated. */
export function evaluateTile(c: RuleContext): PartialValue | null {
  const v = c.value(0);
  const s = c.shape(0);
  const reps = c.value(1);
  if (!v || !s || !s.every(isStatic) || !fullyKnown(reps) || reps.some((r) => r < 0)) return null;
  const rank = Math.max(s.length, reps.length);
  const src = [...Array.from({ length: rank - s.length }, () => 1), ...(s as number[])];
  const r = [...Array.from({ length: rank - reps.length }, () => 1), ...reps];
  const dims = src.map((d, k) => d * r[k]!);
  const count = dims.reduce((p, d) => p * d, 1);
  if (count > MAX_PARTIAL_ELEMENTS || v.length !== src.reduce((p, d) => p * d, 1)) return null;
  const st = stridesOf(dims);
  const sst = stridesOf(src);
  const result: Dim[] = [];
  for (let i = 0; i < count; i++) result.push(v[flatIndex(dims.map((d, k) => (Math.floor(i / st[k]!) % d) % src[k]!), sst)]!);
  return result;
}
