import { A, type Attr } from '../src/graph/attr.js';
import type { Node } from '../src/graph/node.js';
import type { Value } from '../src/graph/value.js';
import { i64Scalar } from './helpers.js';
import { attrToInput, type ConvertContext, type OpMapping } from './spec.js';

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
      if (lengths?.some((l) => l < 0n)) { c.error('split_lengths with -1 (the rest) has no ONNX form'); return; }
      // IR split_lengths (input 2) is ONNX split (input 1 from opset 13, an attribute before).
      outputsTo(c, c.emitOwn([c.input(0), c.input(2)], { axis: A.int(axis) }, c.node.outputs.length));
    },
  },
];
