import { A } from '../../src/graph/attr.js';
import { ELEMENT_TYPES, elementType } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { makeStringTensor, tensorFromFloat32, tensorFromInt64, type Tensor } from '../../src/graph/tensor.js';
import { int, string, type ConvertContext, type OpMapping } from '../spec.js';

/** ONNX TensorProto.DataType code ↔ IR element_type, for every type both formats hold. */
export const CAST_TYPES: ReadonlyArray<readonly [bigint, string]> = ELEMENT_TYPES
  .filter((t) => t.onnx !== null && t.onnx !== 0 && t.precision !== null)
  .map((t) => [BigInt(t.onnx!), t.name] as const);

/** The tensor an ONNX Constant node holds, from whichever value attribute it has. */
function constantTensor(c: ConvertContext): Tensor | null {
  const attrs = [...c.node.attrs.entries()];
  if (attrs.length !== 1) {
    c.error(`Constant must have exactly one value attribute, has ${attrs.map(([k]) => k).join(', ') || 'none'}`);
    return null;
  }
  const [name, a] = attrs[0]!;
  const enc = new TextEncoder();
  if (name === 'value' && a.type === 'tensor') return a.value;
  if (name === 'value_float' && a.type === 'float') return tensorFromFloat32([a.value], []);
  if (name === 'value_floats' && a.type === 'floats') return tensorFromFloat32(a.value);
  if (name === 'value_int' && a.type === 'int') return tensorFromInt64([a.value], []);
  if (name === 'value_ints' && a.type === 'ints') return tensorFromInt64(a.value);
  if (name === 'value_string' && a.type === 'string') return makeStringTensor([], [enc.encode(a.value)]);
  if (name === 'value_strings' && a.type === 'strings') return makeStringTensor([a.value.length], a.value.map((s) => enc.encode(s)));
  c.unsupportedAttr(name, a.type, 'IR Const holds dense tensors only');
  return null;
}

/**
 * Casts to float8 (onnx Cast-19+ `saturate`; measured on OpenVINO 2026.4): OpenVINO's Convert to
 * f8e4m3 / f8e5m2 is ONNX's saturate=0 (out of range → inf / NaN), bit for bit. saturate=1 (the
 * default) maps out-of-range values and infinities to ± the largest finite value and keeps NaN:
 * Select(IsNaN(x), x, Clamp(x, -max, max)) before the Convert (float sources; integer sources need
 * only the Clamp). IR → ONNX: a Convert to f8 is a Cast with saturate=0.
 */
const F8_MAX: ReadonlyMap<string, number> = new Map([['f8e4m3', 448], ['f8e5m2', 57344]]);

/** Cast / CastLike input 0, saturated to the range of float8 target `to` when the node asks for it. */
function saturating(c: ConvertContext, to: string | null): Value | null {
  const x = c.input(0)!;
  const max = to === null ? undefined : F8_MAX.get(to);
  if (max === undefined || c.attr.int('saturate', 1n) === 0n) return x;
  const from = c.elem(0);
  if (from === null || from === 'boolean') { c.error(`a saturating Cast to ${to} needs a numeric source of known type`); return null; }
  const clamped = c.emit('Clamp', [x], { min: String(-max), max: String(max) }, 1, 'opset1')[0]!;
  if (elementType(from).kind !== 'float') return clamped;
  const nan = c.emit('IsNaN', [x], {}, 1, 'opset10')[0]!;
  return c.emit('Select', [nan, x, clamped], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
}

export const CAST: readonly OpMapping[] = [
  {
    // IR Const is not a node but a constant value (graph.initializers); an ONNX Constant node
    // becomes one, and IR Consts go back as initializers (main graph and branches alike).
    onnx: { op: 'Constant', since: 1 },
    ir: { op: 'Const', version: 'opset1' },
    handles: { onnx: ['value', 'value_float', 'value_floats', 'value_int', 'value_ints', 'value_string', 'value_strings', 'sparse_value'] },
    toIr: (c) => {
      const t = constantTensor(c);
      if (t) c.output(0, c.constant(t));
    },
    toOnnx: (c) => {
      c.error('IR Const is a constant value, not a node: it converts as an initializer');
    },
  },
  {
    onnx: { op: 'Identity', since: 1 },
    ir: { op: 'Identity', version: 'opset16' },
  },
  {
    // Cast `to` (TensorProto code) ↔ Convert destination_type (IR element type name); saturate: see saturating().
    onnx: { op: 'Cast', since: 6 },
    ir: { op: 'Convert', version: 'opset1' },
    attrs: [
      int('to').as('destination_type').map(CAST_TYPES),
      string('round_mode').onnxOnly().default('up').onlyValues('up'),
    ],
    handles: { onnx: ['saturate'] },
    toIr: (c) => {
      const attrs = c.attrs();
      const to = attrs.get('destination_type');
      const x = saturating(c, to?.type === 'raw' ? to.value : null);
      if (x) c.output(0, c.emitOwn([x], attrs)[0]!);
    },
    toOnnx: (c) => {
      const attrs = c.attrs();
      const to = attrs.get('to');
      if (to?.type === 'int' && F8_MAX.has(CAST_TYPES.find(([code]) => code === to.value)?.[1] ?? '')) attrs.set('saturate', A.int(0));
      c.output(0, c.emitOwn([c.input(0)], attrs)[0]!);
    },
  },
  {
    onnx: { op: 'CastLike', since: 15 },
    ir: { op: 'ConvertLike', version: 'opset1' },
    attrs: [string('round_mode').onnxOnly().default('up').onlyValues('up')],
    handles: { onnx: ['saturate'] },
    toIr: (c) => {
      const x = saturating(c, c.elem(1));
      if (x) c.output(0, c.emitOwn([x, c.input(1)], c.attrs())[0]!);
    },
    toOnnx: (c) => {
      const attrs = c.attrs();
      if (F8_MAX.has(c.elem(1) ?? '')) attrs.set('saturate', A.int(0));
      c.output(0, c.emitOwn([c.input(0), c.input(1)], attrs)[0]!);
    },
  },
];
