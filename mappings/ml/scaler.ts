import type { ConvertContext, OpMapping } from '../spec.js';
import { typedTensor } from '../typed-consts.js';

/**
 * ai.onnx.ml Scaler (OpenVINO has no op): Y = float((X − offset) · scale), offset and scale one
 * value or one per feature (X's last axis, [N, F] or [F]), as onnxruntime (scaler.cc) computes it:
 * in double for double X, in float otherwise (integer X as float).
 */
function scaler(c: ConvertContext): void {
  const elem = c.elem(0);
  const rank = c.rank(0);
  if (elem !== 'f32' && elem !== 'f64' && elem !== 'i64' && elem !== 'i32') { c.error(`X of ${elem ?? 'unknown type'}: X is float, double, int64 or int32`); return; }
  const scale = c.attr.floats('scale') ?? [];
  const offset = c.attr.floats('offset') ?? [];
  if (!scale.length || scale.length !== offset.length) { c.error(`scale (${scale.length} values) and offset (${offset.length}) must both be one value or one per feature`); return; }
  if (scale.length > 1 && rank !== 1 && rank !== 2) { c.error(`one scale per feature needs X of rank 1 or 2; its rank is ${rank ?? 'unknown'}`); return; }
  const t = c.type(0);
  const f = t?.kind === 'tensor' && t.shape && t.shape.length ? t.shape[t.shape.length - 1] : null;
  if (scale.length > 1 && typeof f === 'number' && f !== scale.length) { c.error(`X has ${f} features, scale and offset ${scale.length}`); return; }
  const work = elem === 'f64' ? 'f64' : 'f32';
  const nb = { auto_broadcast: 'numpy' };
  const one = (op: string, inputs: Parameters<ConvertContext['emit']>[1], attrs: Record<string, string> = {}) => c.emit(op, inputs, attrs, 1, 'opset1')[0]!;
  let x = c.input(0)!;
  if (elem !== work) x = one('Convert', [x], { destination_type: work });
  const dims = scale.length > 1 ? [scale.length] : [];
  let y = one('Multiply', [one('Subtract', [x, c.constant(typedTensor(work, offset, dims)!)], nb), c.constant(typedTensor(work, scale, dims)!)], nb);
  if (work !== 'f32') y = one('Convert', [y], { destination_type: 'f32' });
  c.output(0, y);
}

export const SCALER: readonly OpMapping[] = [
  {
    onnx: { op: 'Scaler', domain: 'ai.onnx.ml', since: 1 },
    ir: null,
    decomposes: ['Convert', 'Subtract', 'Multiply'],
    handles: { onnx: ['scale', 'offset'] },
    note: 'IR: (X − offset) · scale, as float',
    toIr: scaler,
  },
];
