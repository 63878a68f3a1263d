import { attrFloat, attrFloats, attrInt, attrInts } from '../graph/attr-read.js';
import type { Node } from '../graph/node.js';
import { tensorFromFloat32, tensorFromInt64, type Tensor } from '../graph/tensor.js';

/**
 * The tensor an ONNX Constant node holds (`value`, `value_int(s)`, `value_float(s)`), or null
 * for the forms the folder does not read (sparse_value, strings).
 */
export function readConstantNode(node: Node): Tensor | null {
  const a = node.attrs.get('value');
  if (a?.type === 'tensor') return a.value.strings ? null : a.value;
  if (node.attrs.has('value_int')) return tensorFromInt64([attrInt(node, 'value_int')!], []);
  if (node.attrs.has('value_ints')) return tensorFromInt64(attrInts(node, 'value_ints')!);
  if (node.attrs.has('value_float')) return tensorFromFloat32([attrFloat(node, 'value_float')!], []);
  if (node.attrs.has('value_floats')) return tensorFromFloat32(attrFloats(node, 'value_floats')!);
  return null;
}
