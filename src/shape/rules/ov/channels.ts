import { isStatic, type Dim, type Shape } from '../../../graph/shape.js';
import type { RuleContext } from '../../rule.js';

/**
 * Channel agreement OpenVINO validates when it reads a model:
 * - Convolution: data [N, C, …] and filters [C_out, C_in, …] with C = C_in
 *   ("Data batch channel count … does not match filter input channel count");
 * - GroupConvolution: filters [G, C_out/G, C_in/G, …] with C = G · C_in/G;
 * - BatchNormInference: data of rank ≥ 2, and gamma, beta, mean, variance each of rank 1 with the
 *   data's channel count C = data[1] (batch_norm_shape_inference.hpp merges them into one [C]).
 * Only static dims are compared: a dynamic one is never refused.
 */
export function checkConvChannels(c: RuleContext, x: Shape, w: Shape, group: boolean): void {
  if (x === null || w === null || x.length < 2) return;
  const ch = x[1]!;
  const cin = w[group ? 2 : 1];
  if (!isStatic(ch) || cin === undefined || !isStatic(cin)) return;
  if (!group) {
    if (ch !== cin) c.error(`the data has ${ch} channels, the filters ${cin} input channels`);
    return;
  }
  const g = w[0]!;
  if (isStatic(g) && ch !== g * cin) c.error(`the data has ${ch} channels, the filters ${g} groups of ${cin} input channels (${g * cin})`);
}

/** BatchNormInference: `data` and the four per-channel operands (gamma, beta, mean, variance), by input index. */
export function checkBatchNormOperands(c: RuleContext, data: number, perChannel: readonly number[], names: readonly string[]): void {
  const x = c.shape(data);
  if (x !== null && x.length < 2) { c.error(`the data has rank ${x.length}; it needs at least 2 (batch, channels, …)`); return; }
  let ch: Dim = x === null ? null : x[1]!;
  perChannel.forEach((i, k) => {
    const s = c.shape(i);
    if (s === null) return;
    if (s.length !== 1) { c.error(`${names[k]} has rank ${s.length}; it must be 1-D (one value per channel)`); return; }
    const d = s[0]!;
    if (isStatic(d) && isStatic(ch) && d !== ch) c.error(`${names[k]} has ${d} values for ${ch} channels`);
    else if (isStatic(d) && !isStatic(ch)) ch = d;
  });
}
