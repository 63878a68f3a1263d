import { attrString } from '../../../graph/attr-read.js';
import type { Dim } from '../../../graph/shape.js';
import type { RuleContext } from '../../rule.js';
import { intsAttr } from '../common.js';

/**
 * OpenVINO's check of a sliding window (pooling_shape_inference_util.hpp, used by MaxPool, AvgPool,
 * Convolution and GroupConvolution): along each spatial axis, the dilated kernel (k − 1)·d + 1 must
 * fit in the padded input (explicit pads_begin + pads_end; none for `valid`). same_upper /
 * same_lower pad as needed, so nothing is checked there. Only static input dims are checked: a
 * dynamic dim is never refused. Reports one error per axis that does not fit.
 */
export function checkWindowFits(c: RuleContext, x: readonly Dim[], kernel: readonly Dim[]): void {
  const autoPad = (attrString(c.node, 'auto_pad') ?? 'explicit').toLowerCase();
  if (autoPad === 'same_upper' || autoPad === 'same_lower') return;
  const valid = autoPad === 'valid';
  const dil = intsAttr(c, 'dilations');
  const pb = valid ? undefined : intsAttr(c, 'pads_begin');
  const pe = valid ? undefined : intsAttr(c, 'pads_end');
  for (let i = 0; i < kernel.length; i++) {
    const d = x[i + 2];
    const k = kernel[i];
    if (typeof d !== 'number' || typeof k !== 'number' || k < 1) continue;
    const span = (k - 1) * (dil?.[i] ?? 1) + 1;
    const padded = d + (pb?.[i] ?? 0) + (pe?.[i] ?? 0);
    if (span > padded) {
      c.error(`spatial axis ${i}: the kernel spans ${span} (size ${k}, dilation ${dil?.[i] ?? 1}), more than the padded input's ${padded} (${d} + pads ${pb?.[i] ?? 0}, ${pe?.[i] ?? 0})`);
    }
  }
}
