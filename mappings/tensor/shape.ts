import { A, type Attr } from '../../src/graph/attr.js';
import { ELEMENT_TYPES } from '../../src/graph/element-type.js';
import { isStatic } from '../../src/graph/shape.js';
import type { Value } from '../../src/graph/value.js';
import { onnxInputTakes } from '../../src/onnx/op-schema.js';
import { asI64Vector, i64Const, i64Scalar } from '../helpers.js';
import { attrToInput, int, type ConvertContext, type OpMapping } from '../spec.js';
import { squeezeToOnnx } from './squeeze-skip.js';

/**
 * Shape-manipulating ops. The recurring difference is where an operand lives: ONNX moved
 * Squeeze/Unsqueeze axes from attribute to input at opset 13 (a `moves` line); IR always takes
 * them as inputs.
 */

/**
 * ONNX → IR of an op whose second operand, a constant with no elements, leaves the first as it is
 * (Expand to shape [], Tile of a scalar by repeats []): the first operand itself; else the entry's
 * own IR op. OpenVINO's CPU plugin mishandles both ops with such an operand (see their entries).
 */
function inputWhenSecondEmpty(c: ConvertContext): void {
  if (c.constInts(1)?.length === 0) { c.output(0, c.input(0)!); return; }
  c.output(0, c.emitOwn([c.input(0), c.input(1)], c.attrs())[0]!);
}

export const SHAPE: readonly OpMapping[] = [
  {
    // ONNX allowzero=0 (default): a 0 copies the input dim = IR special_zero=true.
    onnx: { op: 'Reshape', since: 5 },
    ir: { op: 'Reshape', version: 'opset1' },
    attrs: [int('allowzero').as('special_zero').default(0n).map([[0n, 'true'], [1n, 'false']]).irDefaultTo('false')],
    // IR → ONNX: allowzero exists only from opset 14. special_zero=false differs from ONNX's
    // default only where the shape holds a 0, so a shape known to hold none needs no attribute.
    toOnnx: (c) => {
      const special = c.attr.bool('special_zero') ?? false;
      const shape = c.constInts(1);
      const attrs: Record<string, Attr> = {};
      if (!special && (shape === null || shape.includes(0n))) {
        if (c.opset < 14) {
          c.unsupportedAttr('special_zero', 'false', `a 0 in ${shape === null ? 'a run-time' : 'the'} shape means an empty dim, which ONNX Reshape spells allowzero=1 only from opset 14: convert with --opset 14 or later`, 14);
          return;
        }
        attrs['allowzero'] = A.int(1);
      }
      c.output(0, c.emit('Reshape', [c.input(0), asI64Vector(c, 1)], attrs)[0]!);
    },
  },
  {
    onnx: { op: 'Squeeze', since: 1 },
    ir: { op: 'Squeeze', version: 'opset1', reads: ['opset15'] },
    moves: [attrToInput('axes', 1, 13)],
    handles: { ir: ['allow_axis_skip'] },
    note: 'IR Squeeze-15 allow_axis_skip: listed axes whose static dim is not 1 are left out',
    toOnnx: squeezeToOnnx,
  },
  {
    onnx: { op: 'Unsqueeze', since: 1 },
    ir: { op: 'Unsqueeze', version: 'opset1' },
    moves: [attrToInput('axes', 1, 13, { required: true })],
  },
  {
    // Shape-15 start/end select a slice of the shape: IR ShapeOf gives all of it, then a Slice.
    onnx: { op: 'Shape', since: 1 },
    ir: { op: 'ShapeOf', version: 'opset3', reads: ['opset1'] },
    handles: { onnx: ['start', 'end'], ir: ['output_type'] },
    toIr: (c) => {
      const shape = c.emit('ShapeOf', [c.input(0)], { output_type: 'i64' })[0]!;
      if (!c.attr.has('start') && !c.attr.has('end')) { c.output(0, shape); return; }
      const s = c.attr.int('start', 0n);
      const e = c.attr.int('end', 9223372036854775807n);
      const sliced = c.emit('Slice', [shape, i64Const(c, [s]), i64Const(c, [e]), i64Const(c, [1n]), i64Const(c, [0n])], {}, 1, 'opset8')[0]!;
      c.output(0, sliced);
    },
    toOnnx: (c) => {
      const v = c.attr.string('output_type', 'i64').trim();
      const shape = c.emit('Shape', [c.input(0)])[0]!;
      c.output(0, v === 'i64' ? shape : c.emit('Cast', [shape], { to: A.int(6) })[0]!);
    },
  },
  {
    onnx: { op: 'Concat', since: 4 },
    ir: { op: 'Concat', version: 'opset1' },
    attrs: [int('axis')],
  },
  {
    // ONNX perm absent = reverse the dims = IR Transpose with an empty input_order.
    onnx: { op: 'Transpose', since: 1 },
    ir: { op: 'Transpose', version: 'opset1' },
    handles: { onnx: ['perm'] },
    toIr: (c) => {
      // OpenVINO cannot load an empty input_order constant: no perm = the dims reversed.
      let order: Value;
      const perm = c.attr.ints('perm');
      const r = c.rank(0);
      if (perm) order = i64Const(c, perm);
      else if (r !== null) order = i64Const(c, Array.from({ length: r }, (_, i) => BigInt(r - 1 - i)));
      else {
        const shape = c.emit('ShapeOf', [c.input(0)], { output_type: 'i64' }, 1, 'opset3')[0]!;
        const rankVec = c.emit('ShapeOf', [shape], { output_type: 'i64' }, 1, 'opset3')[0]!;
        const rank = c.emit('Squeeze', [rankVec, i64Const(c, [0n])], {}, 1, 'opset1')[0]!;
        const last = c.emit('Subtract', [rank, i64Scalar(c, 1n)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
        order = c.emit('Range', [last, i64Scalar(c, -1n), i64Scalar(c, -1n)], { output_type: 'i64' }, 1, 'opset4')[0]!;
      }
      c.output(0, c.emit('Transpose', [c.input(0), order])[0]!);
    },
    toOnnx: (c) => {
      const perm = c.constInts(1);
      if (perm === null) { c.needsConstant(1, 'input_order (ONNX perm is an attribute)'); return; }
      const attrs: Record<string, Attr> = perm.length ? { perm: A.ints(perm) } : {};
      c.output(0, c.emit('Transpose', [c.input(0)], attrs)[0]!);
    },
  },
  {
    onnx: { op: 'Expand', since: 8 },
    ir: { op: 'Broadcast', version: 'opset3', reads: ['opset1'] },
    // Where numpy mode is valid (data broadcasts to the target shape) bidirectional gives the same.
    attrs: [{ ir: 'mode', kind: 'string', irValues: ['bidirectional', 'numpy'] }],
    // An Expand to shape [] is its input (broadcasting against rank 0 changes nothing). Not written
    // as a Broadcast: OpenVINO's CPU plugin crashes on one whose target shape is empty (2026.4).
    toIr: inputWhenSecondEmpty,
    // IR → ONNX: IR's target_shape is any integer type (ovc writes i32), ONNX Expand's shape int64.
    toOnnx: (c) => { c.output(0, c.emit('Expand', [c.input(0), asI64Vector(c, 1)])[0]!); },
    // An axes_mapping input (OpenVINO's Python API writes one for Broadcast-1 numpy too) means
    // nothing outside explicit mode: the Expand of data to target_shape alone.
    foldOnnx: (c) => {
      const mode = (c.attr.string('mode') ?? 'numpy').trim().toLowerCase();
      return c.numInputs > 2 && (mode === 'numpy' || mode === 'bidirectional') ? c.emitOwn([c.input(0), c.input(1)])[0]! : null;
    },
  },
  {
    onnx: { op: 'Tile', since: 6 },
    ir: { op: 'Tile', version: 'opset1' },
    // A scalar tiled by no repeats is itself. Not written as a Tile: OpenVINO's CPU plugin returns
    // uninitialized memory for a Tile of a scalar by empty repeats (2026.4, on its own IR too).
    toIr: inputWhenSecondEmpty,
    // IR → ONNX: IR's repeats are any integer type, ONNX Tile's int64.
    toOnnx: (c) => { c.output(0, c.emit('Tile', [c.input(0), asI64Vector(c, 1)])[0]!); },
  },
  {
    // Slice-10+ and IR Slice-8 take the same operands (data, starts, ends, axes?, steps?) except
    // their order: IR is (data, start, stop, step, axes).
    onnx: { op: 'Slice', since: 10 },
    ir: { op: 'Slice', version: 'opset8' },
    toIr: (c) => {
      const data = c.input(0);
      const starts = c.input(1);
      const ends = c.input(2);
      const axes = c.numInputs > 3 ? c.input(3) : null;
      let steps = c.numInputs > 4 ? c.input(4) : null;
      const n = c.type(1)?.kind === 'tensor' ? (c.type(1) as { shape: readonly unknown[] | null }).shape?.[0] : undefined;
      if (!steps) {
        if (typeof n !== 'number') { c.error('Slice without steps needs the length of starts to be known'); return; }
        // one step per sliced axis: never more than the data's rank (a declared length of 2^31 made 2^31 steps)
        const rank = c.rank(0);
        if (rank !== null && n > rank) { c.error(`starts has ${n} elements, more than the ${rank} axes of the data`); return; }
        steps = i64Const(c, new Array<bigint>(n).fill(1n));
      }
      const inputs = axes ? [data, starts, ends, steps, axes] : [data, starts, ends, steps];
      c.output(0, c.emit('Slice', inputs)[0]!);
    },
    toOnnx: (c) => {
      const inputs = [c.input(0), c.input(1), c.input(2), c.numInputs > 4 ? c.input(4) : null, c.input(3)];
      c.output(0, c.emit('Slice', inputs)[0]!);
    },
  },
  {
    onnx: { op: 'Range', since: 11 },
    ir: { op: 'Range', version: 'opset4', reads: ['opset1'] },
    handles: { ir: ['output_type'] },
    toIr: (c) => {
      const elem = c.elem(0);
      if (!elem) { c.error('Range needs the element type of start to be known'); return; }
      // ONNX wants scalars; onnxruntime also runs one-element 1-D operands (function bodies such
      // as AffineGrid's pass Split outputs), which OpenVINO's Range rejects: a 1-D operand of
      // length 1 or unknown is squeezed (Squeeze fails at run time on any other length).
      const scalar = (i: number): Value | null => {
        const t = c.type(i);
        const one = t?.kind === 'tensor' && t.shape?.length === 1 && (t.shape[0] === 1 || !isStatic(t.shape[0]!));
        return one ? c.emit('Squeeze', [c.input(i), i64Const(c, [0n])], {}, 1, 'opset1')[0]! : c.input(i);
      };
      c.output(0, c.emit('Range', [scalar(0), scalar(1), scalar(2)], { output_type: elem })[0]!);
    },
    toOnnx: (c) => {
      // IR Range-4 converts start, stop and step to output_type (they may each have their own
      // type); ONNX Range computes in the one type T of its operands: each operand is Cast to
      // output_type, which must be a type ONNX Range takes.
      const target = c.attr.string('output_type')?.trim() ?? c.elem(0);
      const inputs = [0, 1, 2].map((i) => c.input(i));
      if (target && [0, 1, 2].some((i) => c.elem(i) !== target)) {
        const info = ELEMENT_TYPES.find((t) => t.name === target);
        if (!info?.onnx || !onnxInputTakes('Range', c.opset, 0, info.name)) {
          c.unsupportedAttr('output_type', target, 'ONNX Range does not compute in that type');
          return;
        }
        [0, 1, 2].forEach((i) => { if (c.elem(i) !== target) inputs[i] = c.emit('Cast', [inputs[i]!], { to: A.int(info.onnx!) })[0]!; });
      }
      c.output(0, c.emit('Range', inputs)[0]!);
    },
  },
];
