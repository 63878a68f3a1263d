import { A, type Attr } from '../../src/graph/attr.js';
import type { Node } from '../../src/graph/node.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { attrToInput, type ConvertContext, type OpMapping } from '../spec.js';

/**
 * ONNX Split has three forms: `split` attribute (2–12), `split` input (13+, a `moves` line),
 * `num_outputs` attribute (18+). Explicit lengths are IR VariadicSplit; equal parts are IR Split (num_splits).
 */
const hasLengths = (n: Node): boolean => n.attrs.has('split') || (n.inputs.length > 1 && n.inputs[1] !== null);

const axisOf = (c: ConvertContext): bigint => c.attr.int('axis', 0n);

function outputsTo(c: ConvertContext, outs: Value[]): void {
  outs.forEach((v, i) => c.output(i, v));
}

/** IR → ONNX: the constant IR `axis` operand (input 1). */
function irAxis(c: ConvertContext): bigint | null {
  const a = c.constInts(1);
  if (a === null || a.length !== 1) { c.needsConstant(1, 'axis (ONNX axis is an attribute)'); return null; }
  return a[0]!;
}

/**
 * IR → ONNX: VariadicSplit lengths with one -1 ("the rest"), which ONNX Split lacks: the rest is
 * the axis length minus the others — a constant when that length is known, else computed
 * (Shape → Gather → Sub, concatenated with the known lengths; a `split` input, opset 13+).
 */
function restOfAxis(c: ConvertContext, axis: bigint, lengths: bigint[]): bigint[] | Value | null {
  const at = lengths.findIndex((l) => l < 0n);
  if (lengths.filter((l) => l < 0n).length > 1 || lengths[at] !== -1n) { c.error(`split_lengths ${lengths.join(',')}: at most one -1 and no other negative length`); return null; }
  const known = lengths.reduce((a, l) => (l < 0n ? a : a + l), 0n);
  const t = c.type(0);
  const shape = t?.kind === 'tensor' ? t.shape : null;
  const ax = shape === null ? null : axis < 0n ? Number(axis) + shape.length : Number(axis);
  const dim = shape === null || ax === null ? null : shape[ax];
  if (typeof dim === 'number') return lengths.map((l) => (l < 0n ? BigInt(dim) - known : l));
  if (c.opset < 13) { c.error(`split_lengths with -1 on an axis of unknown length needs a run-time split input (ONNX opset 13+, target ${c.opset})`); return null; }
  const size = c.emit('Gather', [c.emit('Shape', [c.input(0)])[0]!, i64Const(c, [axis])])[0]!;
  const rest = c.emit('Sub', [size, i64Const(c, [known])])[0]!;
  const parts = [lengths.slice(0, at), lengths.slice(at + 1)];
  const pieces = [parts[0]!.length ? i64Const(c, parts[0]!) : null, rest, parts[1]!.length ? i64Const(c, parts[1]!) : null].filter((v): v is Value => v !== null);
  return pieces.length === 1 ? rest : c.emit('Concat', pieces, { axis: A.int(0) })[0]!;
}

/**
 * Split-18 num_outputs on an axis it does not divide: parts of ⌈d/n⌉, the last ones smaller (as
 * onnx's shape inference sizes them), which IR Split (equal parts only) cannot say: the lengths of
 * a VariadicSplit. Null when the axis length is unknown or divisible (IR Split then).
 */
function unevenParts(c: ConvertContext, n: number): bigint[] | null {
  const t = c.type(0);
  const shape = t?.kind === 'tensor' ? t.shape : null;
  if (!shape) return null;
  const a = axisOf(c);
  const d = shape[a < 0n ? Number(a) + shape.length : Number(a)];
  if (typeof d !== 'number' || d % n === 0) return null;
  const chunk = Math.ceil(d / n);
  return Array.from({ length: n }, (_, i) => BigInt(Math.max(0, Math.min(chunk, d - chunk * i))));
}

export const SPLIT: readonly OpMapping[] = [
  {
    onnx: { op: 'Split', since: 2 },
    ir: { op: 'Split', version: 'opset1' },
    when: (n) => !hasLengths(n),
    handles: { onnx: ['axis', 'num_outputs'], ir: ['num_splits'] },
    toIr: (c) => {
      const n = c.node.outputs.length;
      const num = c.attr.int('num_outputs');
      if (num !== undefined && num !== BigInt(n)) { c.unsupportedAttr('num_outputs', String(num), `differs from the node's ${n} outputs`); return; }
      const uneven = num !== undefined ? unevenParts(c, n) : null;
      if (uneven) { outputsTo(c, c.emit('VariadicSplit', [c.input(0), i64Scalar(c, axisOf(c)), i64Const(c, uneven)], {}, n, 'opset1')); return; }
      outputsTo(c, c.emit('Split', [c.input(0), i64Scalar(c, axisOf(c))], { num_splits: String(n) }, n));
    },
    toOnnx: (c) => {
      const axis = irAxis(c);
      if (axis === null) return;
      const n = c.node.outputs.length;
      const attrs: Record<string, Attr> = { axis: A.int(axis) };
      if (c.opset >= 18) attrs['num_outputs'] = A.int(n);
      outputsTo(c, c.emit('Split', [c.input(0)], attrs, n));
    },
  },
  {
    onnx: { op: 'Split', since: 2 },
    ir: { op: 'VariadicSplit', version: 'opset1' },
    when: hasLengths,
    moves: [attrToInput('split', 1, 13)],
    handles: { onnx: ['axis'] },
    toIr: (c) => {
      const n = c.node.outputs.length;
      outputsTo(c, c.emit('VariadicSplit', [c.input(0), i64Scalar(c, axisOf(c)), c.input(1)], {}, n));
    },
    toOnnx: (c) => {
      const axis = irAxis(c);
      if (axis === null) return;
      const lengths = c.constInts(2);
      // IR split_lengths (input 2) is ONNX split (input 1 from opset 13, an attribute before:
      // the `moves` line); a -1 (the rest) is computed first.
      let lengthsOperand = c.input(2);
      if (lengths?.some((l) => l < 0n)) {
        const rest = restOfAxis(c, axis, lengths);
        if (rest === null) return;
        lengthsOperand = rest instanceof Array ? i64Const(c, rest) : rest;
      }
      outputsTo(c, c.emitOwn([c.input(0), lengthsOperand], { axis: A.int(axis) }, c.node.outputs.length));
    },
  },
];
