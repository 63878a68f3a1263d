import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { qlinearConvOf } from './integer-ops.js';
import { MS } from './ms-requantize.js';

/**
 * com.microsoft QLinearConv: the ai.onnx QLinearConv (integer-ops.ts) plus `channels_last`, which
 * onnxruntime's layout optimizer sets when it saves a quantized model optimized at level ALL (X
 * and Y [N, D1.., C]; the weights stay [M, C / group, k1..]): a Transpose to channels first
 * before, and back after.
 */
function qlinearConv(c: ConvertContext): void {
  const last = c.attr.int('channels_last', 0n);
  if (last !== 0n && last !== 1n) { c.unsupportedAttr('channels_last', String(last), 'must be 0 or 1'); return; }
  const r = c.rank(0);
  if (last === 1n && (r === null || r < 3)) { c.error(`channels_last needs X of known rank ≥ 3 (${r === null ? 'unknown' : r})`); return; }
  const perm = (p: number[]): Value => i64Const(c, p.map(BigInt));
  const n = r ?? 0;
  const x = last ? c.emit('Transpose', [c.input(0), perm([0, n - 1, ...Array.from({ length: n - 2 }, (_, k) => k + 1)])], {}, 1, 'opset1')[0]! : c.input(0)!;
  const y = qlinearConvOf(c, x);
  if (!y) return;
  c.output(0, last ? c.emit('Transpose', [y, perm([0, ...Array.from({ length: n - 2 }, (_, k) => k + 2), 1])], {}, 1, 'opset1')[0]! : y);
}

export const MS_QLINEAR_CONV: readonly OpMapping[] = [
  {
    onnx: { op: 'QLinearConv', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Transpose', 'Convert', 'Subtract', 'Multiply', 'Add', 'Unsqueeze', 'Reshape', 'Convolution', 'GroupConvolution', 'FakeQuantize'],
    handles: { onnx: ['auto_pad', 'dilations', 'group', 'kernel_shape', 'pads', 'strides', 'channels_last'] },
    note: 'IR: the ai.onnx QLinearConv; channels_last between Transposes',
    toIr: qlinearConv,
  },
];
