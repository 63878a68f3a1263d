import { ELEMENT_TYPES } from '../../src/graph/element-type.js';
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
    // Cast `to` (TensorProto code) ↔ Convert destination_type (IR element type name).
    onnx: { op: 'Cast', since: 6 },
    ir: { op: 'Convert', version: 'opset1' },
    attrs: [
      int('to').as('destination_type').map(CAST_TYPES),
      int('saturate').onnxOnly().default(1n).onlyValues(1n),
      string('round_mode').onnxOnly().default('up').onlyValues('up'),
    ],
  },
  {
    onnx: { op: 'CastLike', since: 15 },
    ir: { op: 'ConvertLike', version: 'opset1' },
    attrs: [int('saturate').onnxOnly().default(1n).onlyValues(1n), string('round_mode').onnxOnly().default('up').onlyValues('up')],
  },
];
