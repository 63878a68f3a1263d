import { f32ToF16Bits } from '../graph/f16.js';
import { elementCount } from '../graph/shape.js';
import { makeTensor, type Tensor } from '../graph/tensor.js';
import type { Value } from '../graph/value.js';

/**
 * IR → ONNX: a constant of an IR element type ONNX has no counterpart for (u1, u3, u6, nf4: the
 * packed types of OpenVINO's weight compression), widened exactly to one it has. Only where every
 * reader is a Convert (the decompression form OpenVINO requires of these types): the Convert then
 * reads the same numbers from the wider type, so the model computes exactly what the IR does.
 *
 * Packings (OpenVINO 2026.4, measured by saving constants of known values and reading the .bin):
 * - u1: 8 per byte, element 0 in bit 7.
 * - u3: blocks of 8 elements in 3 bytes: bytes 0–1 hold the low 2 bits of elements 0–3 and 4–7
 *   (element 0 in bits 7–6), byte 2 the high bit of elements 0–7 (element 0 in bit 7).
 * - u6: blocks of 4 elements in 3 bytes: bytes 0–1 hold the low 4 bits of elements 0–1 and 2–3
 *   (element 0 in the high nibble), byte 2 the high 2 bits of elements 0–3 (element 0 in bits 7–6).
 * - nf4: 4-bit codes, element 0 in the low nibble, each standing for a value of NF4_VALUES; what
 *   OpenVINO's Convert gives for each code (measured: these f32 values, and their f16 rounding).
 */
export const NF4_VALUES: readonly number[] = [
  -1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635, -0.18477343022823334,
  -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725, 0.24611230194568634, 0.33791524171829224,
  0.44070982933044434, 0.5626170039176941, 0.7229568362236023, 1.0,
];

/** The element type the initializer `v` is widened to for ONNX; null when it is not widened (a graph output keeps its type). */
export function onnxWidening(v: Value): 'u8' | 'f16' | 'f32' | null {
  const elem = v.constant?.elem;
  if (elem !== 'u1' && elem !== 'u3' && elem !== 'u6' && elem !== 'nf4') return null;
  const uses = v.uses;
  if (!uses.length || !uses.every((u) => u.node.dialect === 'ov' && u.node.op === 'Convert') || v.graph.outputs.includes(v)) return null;
  if (elem !== 'nf4') return 'u8';
  // nf4 as f16 when every Convert makes f16 (OpenVINO's usual decompression, half the bytes of f32):
  // the f16 rounding of the code values is what OpenVINO's Convert gives, and a Cast f16 → f16 is exact.
  const dest = uses.map((u) => u.node.attrs.get('destination_type'));
  return dest.every((a) => (a?.type === 'string' || a?.type === 'raw') && a.value === 'f16') ? 'f16' : 'f32';
}

/** The constant `t` (u1, u3, u6 or nf4) as element type `to`, element by element. */
export function widenConstant(t: Tensor, to: 'u8' | 'f16' | 'f32'): Tensor {
  const n = elementCount(t.dims);
  const b = t.data;
  const code = CODES[t.elem as keyof typeof CODES];
  if (!code) throw new Error(`widenConstant: ${t.elem} is not widened`);
  if (to === 'u8') {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = code(b, i);
    return makeTensor('u8', t.dims, out);
  }
  if (to === 'f16') {
    const table = NF4_VALUES.map(f32ToF16Bits);
    const out = new Uint16Array(n);
    for (let i = 0; i < n; i++) out[i] = table[code(b, i)]!;
    return makeTensor('f16', t.dims, new Uint8Array(out.buffer));
  }
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = NF4_VALUES[code(b, i)]!;
  return makeTensor('f32', t.dims, new Uint8Array(out.buffer));
}

/** Element i's stored code of each packed type (see the packings above). */
const CODES = {
  u1: (b: Uint8Array, i: number): number => (b[i >> 3]! >> (7 - (i & 7))) & 1,
  u3: (b: Uint8Array, i: number): number => {
    const at = (i >> 3) * 3;
    const k = i & 7;
    const low = (b[at + (k >> 2)]! >> (6 - 2 * (k & 3))) & 3;
    const high = (b[at + 2]! >> (7 - k)) & 1;
    return (high << 2) | low;
  },
  u6: (b: Uint8Array, i: number): number => {
    const at = (i >> 2) * 3;
    const k = i & 3;
    const low = (b[at + (k >> 1)]! >> (4 - 4 * (k & 1))) & 15;
    const high = (b[at + 2]! >> (6 - 2 * k)) & 3;
    return (high << 4) | low;
  },
  nf4: (b: Uint8Array, i: number): number => (b[i >> 1]! >> (4 * (i & 1))) & 15,
};
