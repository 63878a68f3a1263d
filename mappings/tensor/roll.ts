import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Scalar } from '../helpers.js';
import { dimOf, indexI64, irOnly, never, on } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * Element moves along one axis that ONNX writes as a Gather of computed positions (exact: a copy).
 * Roll-7: output[i] = data[(i − shift) mod d] along each listed axis in turn (a scalar shift is
 * every axis' shift; a repeated axis rolls again); `axes` must be a constant (ONNX Gather's axis
 * is an attribute), `shift` may be computed at run time. ShuffleChannels-1: channel j of the
 * output is channel (j mod group)·(C / group) + ⌊j / group⌋ of the input (the [group, C/group] →
 * [C/group, group] transpose of the spec), C read at run time.
 */
const range = (c: ConvertContext, n: Value): Value => on(c, 'Range', [i64Scalar(c, 0n), n, i64Scalar(c, 1n)]);

function rollToOnnx(c: ConvertContext): void {
  const axes = c.constInts(2);
  if (axes === null) { c.needsConstant(2, 'axes (ONNX Gather takes the axis as an attribute)'); return; }
  const shifts = c.constInts(1);
  const shiftRank = c.rank(1);
  if (shifts === null && shiftRank === null) { c.error('Roll with a run-time shift needs the rank of shift to be known'); return; }
  const scalarShift = shifts !== null ? shifts.length === 1 : shiftRank === 0;
  const shiftIn = shifts === null ? indexI64(c, 1) : null;
  let x = c.input(0)!;
  axes.forEach((axis, k) => {
    const s = shifts !== null ? i64Scalar(c, shifts[scalarShift ? 0 : k]!)
      : shiftRank === 0 ? shiftIn!
        : on(c, 'Gather', [shiftIn!, i64Scalar(c, BigInt(k))], { axis: A.int(0) });
    const d = dimOf(c, x, axis);
    // ONNX Mod of integers (fmod 0) takes the divisor's sign: a position in [0, d)
    const from = on(c, 'Mod', [on(c, 'Sub', [range(c, d), s]), d]);
    x = on(c, 'Gather', [x, from], { axis: A.int(axis) });
  });
  c.output(0, x);
}

function shuffleChannelsToOnnx(c: ConvertContext): void {
  const axis = c.attr.int('axis') ?? 1n;
  const group = c.attr.int('group') ?? 1n;
  if (group < 1n) { c.unsupportedAttr('group', String(group), 'a positive group count'); return; }
  const x = c.input(0)!;
  const channels = dimOf(c, x, axis);
  const g = i64Scalar(c, group);
  const j = range(c, channels);
  const from = on(c, 'Add', [on(c, 'Mul', [on(c, 'Mod', [j, g]), on(c, 'Div', [channels, g])]), on(c, 'Div', [j, g])]);
  c.output(0, on(c, 'Gather', [x, from], { axis: A.int(axis) }));
}

export const ROLL: readonly OpMapping[] = [
  {
    onnx: { op: 'Range', since: 11 },
    ir: { op: 'Roll', version: 'opset7' },
    when: never,
    note: 'a Gather along each axis at (Range(d) − shift) mod d',
    toIr: irOnly,
    toOnnx: rollToOnnx,
  },
  {
    onnx: { op: 'Range', since: 11 },
    ir: { op: 'ShuffleChannels', version: 'opset1' },
    when: never,
    handles: { ir: ['axis', 'group'] },
    note: 'a Gather along axis at (j mod group)·(C/group) + ⌊j/group⌋',
    toIr: irOnly,
    toOnnx: shuffleChannelsToOnnx,
  },
];
