import { elementType, fromOnnxDataType } from '../../src/graph/element-type.js';
import type { OpMapping } from '../spec.js';

/**
 * ONNX BitCast-26 (the same bits read as another type of the same width; OpenVINO has no such op)
 * where an IR Convert gives those bits: between integer types of one width, signed or not (Convert
 * wraps modulo 2^bits, as C++'s static_cast in OpenVINO's reference and its CPU plugin: measured
 * for i8 → u8, u16 → i16, u32 → i32), and from boolean to an 8-bit integer (a boolean's byte is 0
 * or 1). Floats to or from integers need the bits themselves, which no IR op reads: refused, as is
 * an integer to boolean (a byte other than 0 or 1 is no boolean).
 */
export const BITCAST: readonly OpMapping[] = [
  {
    onnx: { op: 'BitCast', since: 26 },
    ir: null,
    decomposes: ['Convert'],
    handles: { onnx: ['to'] },
    note: 'IR: Convert between integer types of one width (it wraps), boolean to an 8-bit integer',
    toIr: (c) => {
      const from = c.elem(0);
      const code = Number(c.attr.int('to', 0n));
      const to = fromOnnxDataType(code);
      if (from === null || to === undefined) { c.error(`needs the element types of its input and of 'to' (${code})`); return; }
      const a = elementType(from);
      const b = elementType(to.name);
      if (a.bits !== b.bits) { c.error(`${from} is ${a.bits} bits and ${to.name} ${b.bits}: BitCast keeps the width`); return; }
      const ints = (k: string): boolean => k === 'int' || k === 'uint';
      if (!(ints(a.kind) && ints(b.kind) && a.bits >= 8) && !(a.kind === 'bool' && ints(b.kind) && b.bits === 8)) {
        c.unsupportedAttr('to', to.name, `reading the bits of ${from} as ${to.name} needs an op that reinterprets bits, which OpenVINO has not; it converts integers of one width, and booleans to 8-bit integers`);
        return;
      }
      c.output(0, from === to.name ? c.input(0)! : c.emit('Convert', [c.input(0)], { destination_type: to.name }, 1, 'opset1')[0]!);
    },
  },
];
