import type { ElementTypeName } from '../../src/graph/element-type.js';
import { makeTensor, scalarTensor, type Tensor } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * Ops that generate tensors from a shape. ConstantOfShape has no single IR op: it is a Broadcast
 * of its scalar. Broadcast in bidirectional mode, because that is the IR spelling of ONNX Expand,
 * which ConstantOfShape with a scalar is (and IR → ONNX goes back through the Expand entry).
 */

/** A scalar (rank 0) of element type `elem` holding `v`; null for types not built here. */
export const scalarOf = (elem: string, v: number): Tensor | null => scalarTensor(elem as ElementTypeName, v);

/** A scalar constant of the element type of source input `i`, or null after a diagnostic. */
export function scalarLike(c: ConvertContext, i: number, v: number, what: string): Value | null {
  const elem = c.elem(i);
  const t = elem === null ? null : scalarOf(elem, v);
  if (t === null) { c.error(`${what} needs a ${elem ?? 'unknown'} constant, which is not built (float and integer types only, integers in range)`); return null; }
  return c.constant(t);
}

export const CONSTANT_OF_SHAPE: readonly OpMapping[] = [
  {
    onnx: { op: 'ConstantOfShape', since: 9 },
    ir: null,
    decomposes: ['Broadcast'],
    handles: { onnx: ['value'] },
    note: 'IR: Broadcast(bidirectional) of a scalar Const; no IR op of this name exists',
    toIr: (c) => {
      const a = c.attr.tensor('value');
      let t: Tensor;
      if (!a) t = scalarOf('f32', 0)!;
      else if (a.strings === undefined && a.dims.reduce((p, d) => p * d, 1) === 1) t = makeTensor(a.elem, [], a.data);
      else { c.unsupportedAttr('value', `tensor of shape [${a.dims.join(',')}]`, 'must be a one-element tensor'); return; }
      c.output(0, c.emit('Broadcast', [c.constant(t), c.input(0)], { mode: 'bidirectional' }, 1, 'opset3')[0]!);
    },
  },
];
