import { A } from '../../src/graph/attr.js';
import { elementType } from '../../src/graph/element-type.js';
import { cast, irOnly, never, on } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * FakeConvert-13 (NNCF's FP8 emulation), which ONNX lacks, as its definition (OpenVINO's spec and
 * reference fake_convert.hpp):
 *   y = (ConvertLike(Convert(x·scale − shift, destination_type), x) + shift) / scale
 * where OpenVINO converts to the 8-bit type from f16: the data goes to f16 first (round to nearest
 * even), then to f8e4m3 / f8e5m2 (round to nearest even, saturated to the largest finite value),
 * and back. Written as ONNX Mul, Sub, Cast → f16 → FLOAT8E4M3FN / FLOAT8E5M2 (saturate) → f16 →
 * the data's type, Add, Div (ONNX opset 19: the float8 Casts). Measured against OpenVINO 2026.4's
 * CPU plugin on 200 000 values spread over 2^-14 … 2^18 with both signs, ±0, ±inf and the
 * saturation and subnormal edges: the same numbers for every one, both types, but NaN, which
 * OpenVINO turns into −448 / −57344 and ONNX keeps. The double rounding (to f16, then to 8 bits) is
 * OpenVINO's and is kept: a direct Cast to 8 bits differs on ~0.2% of those values.
 * `shift` is optional (absent: 0, no Sub/Add).
 */
const DESTINATIONS = { f8e4m3: 'f8e4m3', f8e5m2: 'f8e5m2' } as const;

function fakeConvertToOnnx(c: ConvertContext): void {
  const dest = (c.attr.string('destination_type') ?? '').trim().toLowerCase();
  if (!(dest in DESTINATIONS)) { c.unsupportedAttr('destination_type', dest, 'f8e4m3 or f8e5m2'); return; }
  const apply = (c.attr.string('apply_scale') ?? 'true').trim().toLowerCase();
  if (apply !== 'true' && apply !== '1') { c.unsupportedAttr('apply_scale', apply, 'true (FakeConvert-13 as specified always scales)'); return; }
  const elem = c.elem(0);
  if (elem !== 'f32' && elem !== 'f16' && elem !== 'bf16') { c.error(`FakeConvert data of element type ${elem ?? 'unknown'} (f32, f16 or bf16 are specified)`); return; }
  const scale = c.input(1)!;
  const shift = c.numInputs > 2 ? c.input(2) : null;
  let v = on(c, 'Mul', [c.input(0)!, scale]);
  if (shift) v = on(c, 'Sub', [v, shift]);
  if (elem !== 'f16') v = cast(c, v, 'f16');
  v = on(c, 'Cast', [v], { to: A.int(elementType(DESTINATIONS[dest as keyof typeof DESTINATIONS]).onnx!), saturate: A.int(1) });
  v = cast(c, v, 'f16');
  if (elem !== 'f16') v = cast(c, v, elem);
  if (shift) v = on(c, 'Add', [v, shift]);
  c.output(0, on(c, 'Div', [v, scale]));
}

export const FAKE_CONVERT: readonly OpMapping[] = [
  {
    onnx: { op: 'Cast', since: 19 },
    ir: { op: 'FakeConvert', version: 'opset13' },
    when: never,
    handles: { ir: ['destination_type', 'apply_scale'] },
    note: 'x·scale − shift through f16 and a saturating float8 Cast and back, + shift, / scale',
    toIr: irOnly,
    toOnnx: fakeConvertToOnnx,
  },
];
