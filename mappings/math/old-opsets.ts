import { A, type Attr } from '../../src/graph/attr.js';
import { i64Const } from '../helpers.js';
import { numberText } from '../../src/ir/attr-format.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ONNX ops in the form they had before an attribute became an input (pytorch and paddle exports
 * stamped opset 6–10 use them): Clip-1/6 (min/max attributes), Slice-1 (starts/ends/axes
 * attributes). Each computes what its current form computes, so it maps to the same IR op; IR →
 * ONNX at those opsets writes the attributes back from constant operands.
 */

const F32_MAX = 3.4028234663852886e38;

/** Clip-1..10: min/max attributes (defaults: the float range) ⇄ IR Clamp min/max. */
function clipToIr(c: ConvertContext): void {
  const lo = c.attr.float('min') ?? -F32_MAX;
  const hi = c.attr.float('max') ?? F32_MAX;
  c.output(0, c.emit('Clamp', [c.input(0)], { min: numberText(lo), max: numberText(hi) }, 1, 'opset1')[0]!);
}

function clipToOnnx(c: ConvertContext): void {
  const lo = c.attr.float('min');
  const hi = c.attr.float('max');
  if (lo === undefined || hi === undefined) { c.error('Clamp needs its min and max attributes'); return; }
  const attrs = new Map<string, Attr>();
  // Float attributes: an IR bound beyond the float range is "no bound" (the ONNX default).
  if (lo > -F32_MAX) attrs.set('min', A.float(lo));
  if (hi < F32_MAX) attrs.set('max', A.float(hi));
  c.output(0, c.emit('Clip', [c.input(0)], attrs)[0]!);
}

/** Slice-1..9: starts/ends/axes attributes, steps 1 ⇄ IR Slice-8 with constant operands. */
function sliceToIr(c: ConvertContext): void {
  const starts = c.attr.ints('starts');
  const ends = c.attr.ints('ends');
  if (!starts || !ends || starts.length !== ends.length) { c.error('Slice-1 needs starts and ends of equal length'); return; }
  const axes = c.attr.ints('axes') ?? starts.map((_, i) => BigInt(i));
  if (axes.length !== starts.length) { c.error('Slice-1 axes must have the length of starts'); return; }
  const ones = starts.map(() => 1n);
  c.output(0, c.emit('Slice', [c.input(0), i64Const(c, starts), i64Const(c, ends), i64Const(c, ones), i64Const(c, axes)], {}, 1, 'opset8')[0]!);
}

function sliceToOnnx(c: ConvertContext): void {
  const starts = c.constInts(1);
  const ends = c.constInts(2);
  const steps = c.constInts(3);
  const axes = c.numInputs > 4 && c.input(4) ? c.constInts(4) : undefined;
  if (starts === null) { c.needsConstant(1, 'start, an attribute before opset 10'); return; }
  if (ends === null) { c.needsConstant(2, 'stop, an attribute before opset 10'); return; }
  if (steps === null) { c.needsConstant(3, 'step, which must be all 1 before opset 10'); return; }
  if (axes === null) { c.needsConstant(4, 'axes, an attribute before opset 10'); return; }
  if (steps.some((s) => s !== 1n)) { c.error(`steps ${steps.join(',')}: ONNX Slice before opset 10 has no steps (use --opset 10 or later)`); return; }
  const attrs = new Map<string, Attr>([['starts', A.ints(starts)], ['ends', A.ints(ends)]]);
  if (axes) attrs.set('axes', A.ints(axes));
  c.output(0, c.emit('Slice', [c.input(0)], attrs)[0]!);
}

export const OLD_OPSETS: readonly OpMapping[] = [
  {
    onnx: { op: 'Clip', since: 1, until: 10 },
    ir: { op: 'Clamp', version: 'opset1' },
    handles: { onnx: ['min', 'max', 'consumed_inputs'], ir: ['min', 'max'] },
    note: 'min/max attributes (absent: no bound); consumed_inputs (opset 1) is a legacy optimization hint',
    toIr: clipToIr,
    toOnnx: clipToOnnx,
  },
  {
    onnx: { op: 'Slice', since: 1, until: 9 },
    ir: { op: 'Slice', version: 'opset8' },
    handles: { onnx: ['starts', 'ends', 'axes'] },
    note: 'starts/ends/axes attributes become constant operands (steps 1)',
    toIr: sliceToIr,
    toOnnx: sliceToOnnx,
  },
];
