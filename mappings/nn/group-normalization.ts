import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ONNX GroupNormalization-21 = IR GroupNormalization-12: X normalized over each of num_groups
 * channel groups (mean and variance over the group's channels and spatial dims, epsilon inside
 * the square root), then scale[C] and bias[C] per channel. stash_type 1 (the only value ONNX
 * defines a computation for besides the input type): the statistics in f32, so inputs of other
 * float types are converted to f32 around the IR op. (GroupNormalization-18's per-group scale
 * has no IR form and stays refused.)
 */
function toIr(c: ConvertContext): void {
  const groups = c.attr.int('num_groups');
  if (groups === undefined || groups <= 0n) { c.unsupportedAttr('num_groups', String(groups ?? 'absent'), 'a positive number of groups is required'); return; }
  const stash = c.attr.int('stash_type', 1n);
  if (stash !== 1n) { c.unsupportedAttr('stash_type', String(stash), 'only 1 (statistics in f32)'); return; }
  const elem = c.elem(0);
  if (elem === null) { c.error('GroupNormalization needs the element type of X to be known'); return; }
  const attrs = { num_groups: String(groups), epsilon: String(c.attr.float('epsilon', 1e-5)) };
  const f32 = (i: number): Value => (c.elem(i) === 'f32' ? c.input(i)! : c.emit('Convert', [c.input(i)], { destination_type: 'f32' }, 1, 'opset1')[0]!);
  const y = c.emitOwn([f32(0), f32(1), f32(2)], attrs)[0]!;
  c.output(0, elem === 'f32' ? y : c.emit('Convert', [y], { destination_type: elem }, 1, 'opset1')[0]!);
}

function toOnnx(c: ConvertContext): void {
  const groups = c.attr.int('num_groups');
  if (groups === undefined) { c.error('GroupNormalization-12 needs its num_groups attribute'); return; }
  const eps = c.attr.float('epsilon', 1e-5);
  const attrs = { num_groups: A.int(groups), ...(Math.fround(eps) !== Math.fround(1e-5) ? { epsilon: A.float(eps) } : {}) };
  c.output(0, c.emitOwn([c.input(0), c.input(1), c.input(2)], attrs)[0]!);
}

export const GROUP_NORMALIZATION: readonly OpMapping[] = [
  {
    onnx: { op: 'GroupNormalization', since: 21 },
    ir: { op: 'GroupNormalization', version: 'opset12' },
    handles: { onnx: ['num_groups', 'epsilon', 'stash_type'], ir: ['num_groups', 'epsilon'] },
    note: 'scale and bias per channel (ONNX 21); statistics in f32 (stash_type 1)',
    toIr,
    toOnnx,
  },
];
