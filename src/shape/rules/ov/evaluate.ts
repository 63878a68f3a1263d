import { attrBool, attrString } from '../../../graph/attr-read.js';
import { elementType, type ElementTypeName } from '../../../graph/element-type.js';
import { isStatic, type Dim } from '../../../graph/shape.js';
import { broadcastValues, fullyKnown, type Operand } from '../../partial.js';
import { zipValues } from '../common.js';
import type { PartialValue, RuleContext } from '../../rule.js';

/**
 * Small integer data through OpenVINO ops whose inputs' data is known, as OpenVINO's bound
 * evaluation (evaluate_lower / evaluate_upper) gives it during shape inference: this is how a
 * target shape computed with FloorMod, Select, Maximum… from ShapeOf data stays static.
 *
 * Binary arithmetic is evaluated element by element: an element whose two operands are known
 * exactly is computed with the op's integer semantics (OpenVINO's reference kernels), any other
 * element stays unknown (measured with openvino 2026.4: FloorMod, Mod, Maximum, Minimum, Power,
 * Divide of ShapeOf [?,5] by 4 all give [?,k]). Ops OpenVINO does not evaluate during shape
 * inference (SquaredDifference, the Bitwise ops: measured, [?,?]) have no kernel here, so a
 * result never says more than OpenVINO. A kernel says null where the op has no defined integer
 * result (division by zero); a result outside the element type's range (or JavaScript's exact
 * integers) is not propagated.
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
  FloorMod: () => (x, y) => (y === 0 ? null : x - Math.floor(x / y) * y),
  Mod: () => (x, y) => (y === 0 ? null : x % y),
  Power: () => intPow,
};

/** The integer kernel of the node's binary op, or null when it has none here. */
export const binaryKernel = (c: RuleContext): ((x: number, y: number) => number | null) | null => BINARY[c.node.op]?.(c) ?? null;

/** The range of exact values of an integer (or boolean) element type; null for other types. */
function rangeOf(elem: ElementTypeName): [number, number] | null {
  if (elem === 'boolean') return [0, 1];
  const t = elementType(elem);
  if (t.kind !== 'int' && t.kind !== 'uint') return null;
  if (t.bits >= 53) return t.kind === 'uint' ? [0, Number.MAX_SAFE_INTEGER] : [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
  return t.kind === 'uint' ? [0, 2 ** t.bits - 1] : [-(2 ** (t.bits - 1)), 2 ** (t.bits - 1) - 1];
}

/**
 * The node's binary op on one element of each operand, for data of element type `elem`: computed
 * when both are known exactly and the op has a kernel; null otherwise (then `otherwise`, when
 * given, decides: the bounds Add/Subtract/Multiply carry).
 */
export function binaryElement(c: RuleContext, elem: ElementTypeName, otherwise?: (x: Dim, y: Dim) => Dim): ((x: Dim, y: Dim) => Dim) | null {
  const f = binaryKernel(c);
  const range = rangeOf(elem);
  if (!range || (!f && !otherwise)) return null;
  return (x, y) => {
    if (f && isStatic(x) && isStatic(y) && Number.isFinite(x) && Number.isFinite(y)) {
      const r = f(x, y);
      return r !== null && Number.isSafeInteger(r) && r >= range[0] && r <= range[1] ? r : null;
    }
    return otherwise ? otherwise(x, y) : null;
  };
}

/** A binary elementwise op (numpy broadcast) on small integer data, element by element (binaryElement). */
export function evaluateBinary(c: RuleContext, elem: ElementTypeName, otherwise?: (x: Dim, y: Dim) => Dim): PartialValue | null {
  const g = binaryElement(c, elem, otherwise);
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
 * ScatterElementsUpdate-3/-12 (reduction none) on exactly known data, indices, updates and axis:
 * data with each update written where its own position, the axis coordinate replaced by its index
 * (negative counts from the end), points. How ovc writes ONNX Pad's pads computed in the graph.
 */
export function evaluateScatterElements(c: RuleContext): PartialValue | null {
  if (c.version >= 12 && (attrString(c.node, 'reduction') ?? 'none').toLowerCase() !== 'none') return null;
  const data = c.value(0);
  const indices = c.value(1);
  const updates = c.value(2);
  const axisV = c.value(3);
  const ds = c.shape(0);
  const is = c.shape(1);
  if (!fullyKnown(data) || !fullyKnown(indices) || !fullyKnown(updates) || !fullyKnown(axisV) || axisV.length !== 1) return null;
  if (!ds || !is || !ds.every(isStatic) || !is.every(isStatic) || is.length !== ds.length || updates.length !== indices.length) return null;
  const dims = ds as number[];
  const rank = dims.length;
  const axis = axisV[0]! < 0 ? axisV[0]! + rank : axisV[0]!;
  if (axis < 0 || axis >= rank || data.length !== dims.reduce((p, d) => p * d, 1)) return null;
  const result: Dim[] = [...data];
  const st = stridesOf(dims);
  const ist = stridesOf(is as number[]);
  for (let p = 0; p < indices.length; p++) {
    let at = 0;
    for (let k = 0; k < rank; k++) {
      let coord = Math.floor(p / ist[k]!) % (is[k] as number);
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
