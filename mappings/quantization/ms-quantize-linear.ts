import type { OpMapping } from '../spec.js';
import { alongAxis, DEQUANTIZE } from './quantize-linear.js';
import { MS, opt, quantizeTo, RANGES } from './ms-requantize.js';

/**
 * onnxruntime's com.microsoft QuantizeLinear / DequantizeLinear (since 1), which quantize_static
 * writes for types or opsets ai.onnx lacked (int16, uint16, int4, uint4), with `axis` (default 1)
 * for a 1-D scale / zero point:
 *  - QuantizeLinear(x, y_scale, y_zero_point?) = Saturate(RoundHalfToEven(x / y_scale) + zp), of
 *    the zero point's type (u8 without one): Divide, Round, Add, Clamp, Convert (onnxruntime's
 *    MLAS formula; the ai.onnx entry writes OpenVINO's FakeQuantize form).
 *  - DequantizeLinear(x, x_scale, x_zero_point?) = (x - zp) · scale, as the ai.onnx entry writes it.
 */
export const MS_QUANTIZE_LINEAR: readonly OpMapping[] = [
  {
    onnx: { op: 'QuantizeLinear', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Unsqueeze', 'Convert', 'Divide', 'Round', 'Add', 'Clamp'],
    handles: { onnx: ['axis'] },
    note: 'IR: Divide, Round half to even, Add zero point, Clamp, Convert',
    toIr: (c) => {
      const fe = c.elem(1);
      if (fe !== 'f32' && fe !== 'f16') { c.error(`y_scale is ${fe ?? 'of unknown type'}: float or float16`); return; }
      if (c.elem(0) !== fe) { c.error(`x is ${c.elem(0) ?? 'of unknown type'} and y_scale ${fe}: one type`); return; }
      const zpRaw = opt(c, 2);
      const q = zpRaw ? c.elem(2) : 'u8';
      if (q === null || !RANGES[q]) { c.error(`y_zero_point is ${q ?? 'of unknown type'}: a 4-, 8- or 16-bit integer`); return; }
      const scale = alongAxis(c, c.input(1)!, 1);
      const zp = zpRaw ? alongAxis(c, zpRaw, 2) : null;
      if (!scale || (zpRaw && !zp)) return;
      const y = quantizeTo(c, c.input(0)!, scale, zp, q, fe);
      if (y) c.output(0, y);
    },
  },
  {
    onnx: { op: 'DequantizeLinear', domain: MS, since: 1 },
    ir: null,
    decomposes: DEQUANTIZE.decomposes!,
    handles: { onnx: ['axis'] },
    note: 'IR: Convert, Subtract, Multiply (as the ai.onnx DequantizeLinear)',
    toIr: DEQUANTIZE.toIr!,
  },
];
