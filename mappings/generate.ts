import { f32ToF16Bits } from '../src/convert/fp16.js';
import { makeTensor, type Tensor } from '../src/graph/tensor.js';
import type { Value } from '../src/graph/value.js';
import type { ConvertContext, OpMapping } from './spec.js';

/**
 * Ops that generate tensors from a shape. ConstantOfShape has no single IR op: it is a Broadcast
 * of its scalar. Broadcast in bidirectional mode, because that is the IR spelling of ONNX Expand,
 * which ConstantOfShape with a scalar is (and IR → ONNX goes back through the Expand entry).
 */

/** A scalar (rank 0) of element type `elem` holding `v`; null for types not built here. */
export function scalarOf(elem: string, v: number): Tensor | null {
  const b = new ArrayBuffer(8);
  const dv = new DataView(b);
  switch (elem) {
    case 'f32': dv.setFloat32(0, v, true); return makeTensor('f32', [], new Uint8Array(b, 0, 4));
    case 'f16': dv.setUint16(0, f32ToF16Bits(v), true); return makeTensor('f16', [], new Uint8Array(b, 0, 2));
    case 'f64': dv.setFloat64(0, v, true); return makeTensor('f64', [], new Uint8Array(b, 0, 8));
    case 'i64': dv.setBigInt64(0, BigInt(Math.trunc(v)), true); return makeTensor('i64', [], new Uint8Array(b, 0, 8));
    case 'i32': dv.setInt32(0, Math.trunc(v), true); return makeTensor('i32', [], new Uint8Array(b, 0, 4));
    default: return null;
  }
}

/** A scalar constant of the element type of source input `i`, or null after a diagnostic. */
export function scalarLike(c: ConvertContext, i: number, v: number, what: string): Value | null {
  const elem = c.elem(i);
  const t = elem === null ? null : scalarOf(elem, v);
  if (t === null) { c.error(`${what} needs a ${elem ?? 'unknown'} constant, which is not built (f16/f32/f64/i32/i64 only)`); return null; }
  return c.constant(t);
}

/** IR → ONNX for ONNX ops that IR spells as several ops (converted back through those ops' entries). */
export const decomposedOnly = (c: ConvertContext): void => {
  c.error(`${c.entry.onnx.op} is not an OpenVINO op: ovir writes ONNX ${c.entry.onnx.op} as other IR ops, which convert back one by one`);
};

export const GENERATE: readonly OpMapping[] = [
  {
    onnx: { op: 'ConstantOfShape', since: 9 },
    ir: { op: 'ConstantOfShape', version: 'decomposed' },
    handles: { onnx: ['value'] },
    note: 'IR: Broadcast(bidirectional) of a scalar Const; no IR op of this name exists',
    toIr: (c) => {
      const a = c.node.attrs.get('value');
      let t: Tensor;
      if (!a) t = scalarOf('f32', 0)!;
      else if (a.type === 'tensor' && a.value.strings === undefined && a.value.dims.reduce((p, d) => p * d, 1) === 1) t = makeTensor(a.value.elem, [], a.value.data);
      else { c.unsupportedAttr('value', a.type, 'must be a one-element tensor'); return; }
      c.output(0, c.emit('Broadcast', [c.constant(t), c.input(0)], { mode: 'bidirectional' }, 1, 'opset3')[0]!);
    },
    toOnnx: decomposedOnly,
  },
];
