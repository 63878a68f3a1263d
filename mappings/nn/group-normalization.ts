import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ONNX GroupNormalization-21: X normalized over each of num_groups channel groups (mean and
 * variance over the group's channels and spatial dims, epsilon inside the square root), then
 * scale[C] and bias[C] per channel; stash_type 1: the statistics in f32.
 *
 * ONNX → IR writes it as onnx's function body does, in MVN-6 (which OpenVINO runs everywhere):
 *   Reshape X to [N, num_groups, -1] → MVN over axis 2 → Reshape back → · scale + bias (per channel).
 * OpenVINO's own GroupNormalization-12 computes the same, but its CPU plugin has no kernel for it
 * inside If bodies (measured, 2026.4: "Unsupported operation of type: GroupNormalization"), so it is
 * only read: IR → ONNX gives ONNX GroupNormalization-21 (ONNX 18-20 scale per group, not per channel).
 */
function toIr(c: ConvertContext): void {
  const groups = c.attr.int('num_groups');
  if (groups === undefined || groups <= 0n) { c.unsupportedAttr('num_groups', String(groups ?? 'absent'), 'a positive number of groups is required'); return; }
  const stash = c.attr.int('stash_type', 1n);
  if (stash !== 1n) { c.unsupportedAttr('stash_type', String(stash), 'only 1 (statistics in f32)'); return; }
  const elem = c.elem(0);
  const rank = c.rank(0);
  if (elem === null || rank === null || rank < 2) { c.error('GroupNormalization needs X of known element type and rank ≥ 2'); return; }
  const emit1 = (op: string, inputs: (Value | null)[], attrs: Record<string, string>, version = 'opset1'): Value => c.emit(op, inputs, attrs, 1, version)[0]!;
  const x = c.input(0)!;
  const x32 = elem === 'f32' ? x : emit1('Convert', [x], { destination_type: 'f32' });
  const grouped = emit1('Reshape', [x32, i64Const(c, [0n, groups, -1n])], { special_zero: 'true' });
  const normalized = emit1('MVN', [grouped, i64Const(c, [2n])], { normalize_variance: 'true', eps: String(c.attr.float('epsilon', 1e-5)), eps_mode: 'inside_sqrt' }, 'opset6');
  let y = emit1('Reshape', [normalized, emit1('ShapeOf', [x], { output_type: 'i64' }, 'opset3')], { special_zero: 'false' });
  if (elem !== 'f32') y = emit1('Convert', [y], { destination_type: elem });
  // scale and bias [C] → [C, 1, …] against [N, C, spatial…]
  const perChannel = (v: Value): Value => (rank > 2 ? emit1('Unsqueeze', [v, i64Const(c, Array.from({ length: rank - 2 }, (_, i) => BigInt(i + 1)))], {}) : v);
  y = emit1('Multiply', [y, perChannel(c.input(1)!)], { auto_broadcast: 'numpy' });
  c.output(0, emit1('Add', [y, perChannel(c.input(2)!)], { auto_broadcast: 'numpy' }));
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
    ir: null,
    decomposes: ['Convert', 'Reshape', 'MVN', 'ShapeOf', 'Unsqueeze', 'Multiply', 'Add'],
    handles: { onnx: ['num_groups', 'epsilon', 'stash_type'] },
    note: 'IR: MVN-6 over [N, num_groups, -1], reshaped back, · scale + bias per channel (statistics in f32)',
    toIr,
  },
  {
    // read only (ONNX → IR writes the MVN form above): `when` never holds for an ONNX node
    onnx: { op: 'GroupNormalization', since: 21 },
    ir: { op: 'GroupNormalization', version: 'opset12' },
    when: () => false,
    handles: { onnx: ['num_groups', 'epsilon', 'stash_type'], ir: ['num_groups', 'epsilon'] },
    note: 'IR GroupNormalization-12 read back as ONNX GroupNormalization-21 (scale and bias per channel)',
    toOnnx,
  },
];
