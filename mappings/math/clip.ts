import type { ElementTypeName } from '../../src/graph/element-type.js';
import { makeTensor, type Tensor } from '../../src/graph/tensor.js';
import { scalarOf } from '../generator/constant-of-shape.js';
import { numberText } from '../../src/ir/attr-format.js';
import type { OpMapping } from '../spec.js';

const INT_RANGE: Record<string, readonly [number, number, number]> = {
  // [min, max, bytes]
  i8: [-128, 127, 1], u8: [0, 255, 1], i16: [-32768, 32767, 2], u16: [0, 65535, 2],
  i32: [-2147483648, 2147483647, 4], u32: [0, 4294967295, 4],
};

/**
 * A Clip bound of element type `elem` holding `v` (f32, f16, f64, integers). Integer bounds are
 * rounded inwards (as Clamp does: min up, max down) and held to the type's range.
 */
function boundOf(elem: string, v: number, isMin: boolean): Tensor | null {
  if (elem === 'f32' || elem === 'f16' || elem === 'f64') return scalarOf(elem, v);
  const b = new ArrayBuffer(8);
  const dv = new DataView(b);
  const r = isMin ? Math.ceil(v) : Math.floor(v);
  if (elem === 'i64' || elem === 'u64') {
    const lo = elem === 'i64' ? -(2n ** 63n) : 0n;
    const hi = elem === 'i64' ? 2n ** 63n - 1n : 2n ** 64n - 1n;
    let x = Number.isFinite(r) && Math.abs(r) < 2 ** 63 ? BigInt(r) : r < 0 ? lo : hi;
    if (x < lo) x = lo; if (x > hi) x = hi;
    if (elem === 'i64') dv.setBigInt64(0, x, true); else dv.setBigUint64(0, x, true);
    return makeTensor(elem, [], new Uint8Array(b, 0, 8));
  }
  const range = INT_RANGE[elem];
  if (!range) return null;
  const x = Math.min(Math.max(r, range[0]), range[1]);
  const bytes = range[2];
  const set = { i8: () => dv.setInt8(0, x), u8: () => dv.setUint8(0, x), i16: () => dv.setInt16(0, x, true), u16: () => dv.setUint16(0, x, true), i32: () => dv.setInt32(0, x, true), u32: () => dv.setUint32(0, x, true) }[elem as 'i8'];
  set();
  return makeTensor(elem as ElementTypeName, [], new Uint8Array(b, 0, bytes));
}

export const CLIP: readonly OpMapping[] = [
  {
    // Clip-11+: optional min/max inputs; IR Clamp: min/max attributes. Bounds computed at run
    // time are Maximum / Minimum (as OpenVINO's frontend writes them).
    onnx: { op: 'Clip', since: 11 },
    ir: { op: 'Clamp', version: 'opset1' },
    handles: { ir: ['min', 'max'] },
    toIr: (c) => {
      const given = (i: number): boolean => c.numInputs > i && !!c.input(i);
      if ((given(1) && c.constNumbers(1) === null) || (given(2) && c.constNumbers(2) === null)) {
        let y = c.input(0)!;
        if (given(1)) y = c.emit('Maximum', [y, c.input(1)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
        if (given(2)) y = c.emit('Minimum', [y, c.input(2)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
        c.output(0, y);
        return;
      }
      const bound = (i: number, dflt: number): number => (given(i) ? Number(c.constNumbers(i)![0]) : dflt);
      const lo = bound(1, -3.4028234663852886e38);
      const hi = bound(2, 3.4028234663852886e38);
      c.output(0, c.emit('Clamp', [c.input(0)], { min: numberText(lo), max: numberText(hi) })[0]!);
    },
    toOnnx: (c) => {
      const elem = c.elem(0);
      const lo = c.attr.float('min');
      const hi = c.attr.float('max');
      if (elem === null || lo === undefined || hi === undefined) { c.error('Clamp needs min, max and the element type of its input'); return; }
      const tl = boundOf(elem, lo, true);
      const th = boundOf(elem, hi, false);
      if (!tl || !th) { c.error(`Clamp of ${elem} values: no ONNX Clip bounds of that type are built`); return; }
      c.output(0, c.emit('Clip', [c.input(0), c.constant(tl), c.constant(th)])[0]!);
    },
  },
];
