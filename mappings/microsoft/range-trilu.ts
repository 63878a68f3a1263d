import { TRILU } from '../tensor/trilu.js';
import type { OpMapping } from '../spec.js';
import { typedScalar } from '../typed-consts.js';

/**
 * com.microsoft Range and Trilu, the contrib forms onnxruntime had before ONNX Range-11 / Trilu-14:
 *   Range(start, limit, delta?) = IR Range-4 of start's type, delta 1 when absent
 *   Trilu(X, k?) with `upper` = ONNX Trilu's band mask (mappings/tensor/trilu.ts)
 */
const MS = 'com.microsoft';

export const MS_RANGE_TRILU: readonly OpMapping[] = [
  {
    onnx: { op: 'Range', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Range'],
    note: 'IR: Range-4 of start\'s type (delta 1 when absent)',
    toIr: (c) => {
      const elem = c.elem(0);
      if (elem === null) { c.error('Range needs the element type of start'); return; }
      let delta = c.numInputs > 2 ? c.input(2) : null;
      if (!delta) {
        const one = typedScalar(elem, 1);
        if (!one) { c.error(`Range of ${elem}: onnxruntime's contrib Range takes int16, int32, int64, float or double`); return; }
        delta = c.constant(one);
      }
      c.output(0, c.emit('Range', [c.input(0), c.input(1), delta], { output_type: elem }, 1, 'opset4')[0]!);
    },
  },
  { ...TRILU, onnx: { op: 'Trilu', domain: MS, since: 1 }, note: 'IR: ONNX Trilu\'s Select of a Range-built band mask' },
];
