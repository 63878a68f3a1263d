import { f32ToF16Bits } from '../src/graph/f16.js';
import { elementType, type ElementTypeName } from '../src/graph/element-type.js';
import { makeTensor, type Tensor } from '../src/graph/tensor.js';

/**
 * Constants of any whole-byte numeric element type, for subgraphs that must match an operand's
 * type exactly (IR ops do not promote): integers of 8..64 bits (signed or not), f16/f32/f64, boolean.
 * Returns null for types not built here (sub-byte, f8, bf16, strings).
 */
export function typedTensor(elem: ElementTypeName, values: readonly number[], dims: readonly number[] = [values.length]): Tensor | null {
  const info = elementType(elem);
  const size = info.bits / 8;
  if (!Number.isInteger(size) || (info.kind !== 'int' && info.kind !== 'uint' && info.kind !== 'float' && info.kind !== 'bool')) return null;
  const buf = new ArrayBuffer(size * values.length);
  const dv = new DataView(buf);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const o = i * size;
    switch (elem) {
      case 'i8': dv.setInt8(o, v); break;
      case 'u8': dv.setUint8(o, v); break;
      case 'boolean': dv.setUint8(o, v ? 1 : 0); break;
      case 'i16': dv.setInt16(o, v, true); break;
      case 'u16': dv.setUint16(o, v, true); break;
      case 'i32': dv.setInt32(o, v, true); break;
      case 'u32': dv.setUint32(o, v, true); break;
      case 'i64': dv.setBigInt64(o, BigInt(Math.trunc(v)), true); break;
      case 'u64': dv.setBigUint64(o, BigInt(Math.trunc(v)), true); break;
      case 'f16': dv.setUint16(o, f32ToF16Bits(v), true); break;
      case 'f32': dv.setFloat32(o, v, true); break;
      case 'f64': dv.setFloat64(o, v, true); break;
      default: return null;
    }
  }
  return makeTensor(elem, dims, new Uint8Array(buf));
}

/** A rank-0 constant tensor of `elem` holding `v` (see typedTensor). */
export const typedScalar = (elem: ElementTypeName, v: number): Tensor | null => typedTensor(elem, [v], []);
