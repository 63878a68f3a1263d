import { A, type Attr } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar, normAxis } from '../helpers.js';
import { attrToInput, floatAttrToInput, type ConvertContext, type OpMapping } from '../spec.js';

/**
 * ONNX Pad ↔ IR Pad-12 (Pad-1 read alike; 12 allows negative pads, as ONNX does).
 * ONNX pads are one list [b_1..b_n, e_1..e_n] (attribute until opset 10, input from 11, with an
 * optional axes input from 18 naming the dims the list covers); IR takes pads_begin and pads_end.
 * Modes: constant/reflect/edge exist on both sides; ONNX wrap (19+) has no IR mode (written as
 * Tile + Slice, wrapPad), IR symmetric no ONNX mode. The pad value is ONNX attribute `value` until 10, input constant_value from 11.
 */
const MODES: ReadonlyArray<readonly [string, string]> = [['constant', 'constant'], ['reflect', 'reflect'], ['edge', 'edge']];

/**
 * Pad-18 axes computed at run time: each half of pads is scattered into zeros of x's rank at the
 * axes (negative ones counted from the end: FloorMod by the rank), as ScatterElementsUpdate.
 */
function runTimeAxes(c: ConvertContext, r: number | null): [Value, Value] | null {
  if (r === null) { c.error('Pad with axes computed at run time needs the rank of the data to be known'); return null; }
  const ax = c.elem(3) === 'i64' ? c.input(3)! : c.emit('Convert', [c.input(3)], { destination_type: 'i64' }, 1, 'opset1')[0]!;
  const norm = c.emit('FloorMod', [ax, i64Scalar(c, BigInt(r))], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const halves = c.emit('Split', [c.input(1), i64Scalar(c, 0n)], { num_splits: '2' }, 2, 'opset1');
  const zeros = new Array<bigint>(r).fill(0n);
  const full = (h: Value): Value => c.emit('ScatterElementsUpdate', [i64Const(c, zeros), norm, h, i64Scalar(c, 0n)], {}, 1, 'opset3')[0]!;
  return [full(halves[0]!), full(halves[1]!)];
}

/** Splits the ONNX pads operand into [begin, end] of full rank (null after a diagnostic). */
function splitPads(c: ConvertContext): [Value, Value] | null {
  let axes: bigint[] | null = null;
  const r = c.rank(0);
  if (c.opset >= 18 && c.numInputs > 3 && c.input(3)) {
    axes = c.constInts(3);
    if (axes === null) return runTimeAxes(c, r);
  }
  const known = c.constInts(1);
  if (axes === null) {
    if (known !== null) {
      const h = known.length / 2;
      return [i64Const(c, known.slice(0, h)), i64Const(c, known.slice(h))];
    }
    const halves = c.emit('Split', [c.input(1), i64Scalar(c, 0n)], { num_splits: '2' }, 2, 'opset1');
    return [halves[0]!, halves[1]!];
  }
  if (r === null) { c.error('Pad with axes needs the rank of the data to be known'); return null; }
  // Full-rank pads: dim d takes the entry of its position in axes, or a 0 appended at the end.
  const pos = Array.from({ length: r }, () => BigInt(axes.length));
  axes.forEach((a, k) => { pos[normAxis(a, r)] = BigInt(k); });
  const halves = c.emit('Split', [c.input(1), i64Scalar(c, 0n)], { num_splits: '2' }, 2, 'opset1');
  const full = (h: Value): Value => {
    const padded = c.emit('Concat', [h, i64Const(c, [0n])], { axis: '0' }, 1, 'opset1')[0]!;
    return c.emit('Gather', [padded, i64Const(c, pos), i64Scalar(c, 0n)], { batch_dims: '0' }, 1, 'opset8')[0]!;
  };
  return [full(halves[0]!), full(halves[1]!)];
}

/**
 * ONNX Pad-19 mode wrap (OpenVINO Pad has no such mode), as onnx's reference computes it: the
 * negative pads crop first; then along each axis i, with the cropped length n, b = begin[i] and
 * e = end[i] ≥ 0, the result is the window [k·n − b, k·n + n + e) of x tiled 2k + 1 times, where
 * k = ⌈max(b, e) / n⌉ (so pads longer than the axis wrap around again). Run-time pads are fine;
 * the rank must be known.
 */
function wrapPad(c: ConvertContext, [begin, end]: [Value, Value]): void {
  const r = c.rank(0);
  if (r === null) { c.unsupportedAttr('mode', 'wrap', 'needs the rank of the data to be known'); return; }
  const bin = (op: string, a: Value, b: Value): Value => c.emit(op, [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const given = c.constInts(1);
  const known = given?.length === 2 * r ? given : null; // full-rank constant pads (no axes input)
  const zero = i64Const(c, [0n]);
  const one = i64Const(c, [1n]);
  // crops first: Slice(x, max(−begin, 0), dims − max(−end, 0)) over every axis
  let x = c.input(0)!;
  if (!(known?.every((p) => p >= 0n))) {
    const dims = c.emit('ShapeOf', [x], { output_type: 'i64' }, 1, 'opset3')[0]!;
    const cut = (p: Value): Value => bin('Maximum', c.emit('Negative', [p], {}, 1, 'opset1')[0]!, zero);
    const all = i64Const(c, Array.from({ length: r }, (_, i) => BigInt(i)));
    x = c.emit('Slice', [x, cut(begin), bin('Subtract', dims, cut(end)), i64Const(c, new Array<bigint>(r).fill(1n)), all], {}, 1, 'opset8')[0]!;
  }
  const grow = (p: Value): Value => bin('Maximum', p, zero);
  const [b, e] = [grow(begin), grow(end)];
  for (let i = 0; i < r; i++) {
    if (known && known[i] === 0n && known[r + i] === 0n) continue;
    const at = (v: Value): Value => c.emit('Gather', [v, i64Const(c, [BigInt(i)]), i64Scalar(c, 0n)], { batch_dims: '0' }, 1, 'opset8')[0]!;
    const n = at(c.emit('ShapeOf', [x], { output_type: 'i64' }, 1, 'opset3')[0]!);
    const [bi, ei] = [at(b), at(e)];
    // k = ⌈max(b, e) / n⌉ (non-negative operands: Divide floors)
    const k = bin('Divide', bin('Subtract', bin('Add', bin('Maximum', bi, ei), n), one), n);
    const reps = bin('Add', bin('Multiply', k, i64Const(c, [2n])), one);
    const repeats = c.emit('Concat', [...Array.from({ length: i }, () => one), reps, ...Array.from({ length: r - i - 1 }, () => one)], { axis: '0' }, 1, 'opset1')[0]!;
    const tiled = c.emit('Tile', [x, repeats], {}, 1, 'opset1')[0]!;
    const start = bin('Subtract', bin('Multiply', k, n), bi);
    const stop = bin('Add', bin('Add', start, n), bin('Add', bi, ei));
    x = c.emit('Slice', [tiled, start, stop, one, i64Const(c, [BigInt(i)])], {}, 1, 'opset8')[0]!;
  }
  c.output(0, x);
}

const padToIr = (c: ConvertContext): void => {
  const mode = c.attr.string('mode') ?? 'constant';
  if (mode === 'wrap') {
    const pads = splitPads(c);
    if (pads) wrapPad(c, pads);
    return;
  }
  const irMode = MODES.find(([o]) => o === mode)?.[1];
  if (irMode === undefined) { c.unsupportedAttr('mode', mode, 'OpenVINO Pad has constant, reflect, edge (and symmetric) only'); return; }
  const pads = splitPads(c);
  if (!pads) return;
  const inputs: (Value | null)[] = [c.input(0), pads[0], pads[1]];
  if (mode === 'constant') {
    if (c.numInputs > 2 && c.input(2)) {
      // IR pad_value must be a scalar; ONNX models also give a one-element 1-D constant_value.
      const v = c.input(2)!;
      inputs.push(c.rank(2) === 0 ? v : c.emit('Reshape', [v, i64Const(c, [])], { special_zero: 'false' }, 1, 'opset1')[0]!);
    }
  }
  c.output(0, c.emit('Pad', inputs, { pad_mode: irMode }, 1, 'opset12')[0]!);
};

const padToOnnx = (c: ConvertContext): void => {
  const irMode = c.attr.string('pad_mode')?.trim() ?? 'constant';
  const mode = MODES.find(([, i]) => i === irMode)?.[0];
  if (mode === undefined) { c.unsupportedAttr('pad_mode', irMode, 'ONNX Pad has no symmetric mode'); return; }
  const attrs = new Map<string, Attr>();
  if (mode !== 'constant') attrs.set('mode', A.string(mode));
  const hasValue = mode === 'constant' && c.numInputs > 3 && c.input(3) !== null;
  const b = c.constInts(1);
  const e = c.constInts(2);
  let pads: Value;
  if (b !== null && e !== null) pads = i64Const(c, [...b, ...e]);
  else {
    const asI64 = (i: number): Value => (c.elem(i) === 'i64' ? c.input(i)! : c.emit('Cast', [c.input(i)], { to: A.int(7) })[0]!);
    pads = c.emit('Concat', [asI64(1), asI64(2)], { axis: A.int(0) })[0]!;
  }
  // Before ONNX opset 11, pads and value are attributes (the `moves` lines); constant_value is a
  // scalar (an IR pad_value of shape [1] is made one).
  const inputs: (Value | null)[] = [c.input(0), pads];
  if (hasValue) inputs.push(c.input(3));
  c.output(0, c.emitOwn(inputs, attrs)[0]!);
};

export const PAD: readonly OpMapping[] = [
  {
    onnx: { op: 'Pad', since: 2 },
    ir: { op: 'Pad', version: 'opset12', reads: ['opset1'] },
    moves: [attrToInput('pads', 1, 11, { required: true }), floatAttrToInput('value', 2, 11, 0)],
    handles: { onnx: ['mode'], ir: ['pad_mode'] },
    note: 'ONNX wrap mode is written as crops, Tile and Slice; IR symmetric mode has no ONNX counterpart',
    toIr: padToIr,
    toOnnx: padToOnnx,
  },
];
