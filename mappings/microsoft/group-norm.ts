import { elementType } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * onnxruntime's group normalizations of diffusion models (diffusion_defs.cc; kernels in CUDA,
 * ROCm and WebGPU — its CPU EP has none), written in IR ops:
 *   GroupNorm(X, gamma, beta): X is [N, H, W, C] (channels_last 1, the default) or [N, C, H, W]
 *     (channels_last 0); the C channels fall in `groups` groups, each normalized over its channels
 *     and the spatial dims (mean and variance of the group, epsilon inside the square root, 1e-5 by
 *     default), then · gamma[C] + beta[C] per channel; activation 1 is SiLU (y · sigmoid(y)),
 *     0 none. The statistics in f32 (the kernels accumulate in float; gamma and beta may be f32
 *     for f16 X), the result in X's type.
 *   SkipGroupNorm(X, gamma, beta, skip, bias?): s = X + skip (+ bias[C]), skip of X's shape,
 *     [N, 1, 1, C] or [N, C] (broadcast over the spatial dims); Y = GroupNorm(s); output S = s.
 * IR: the channels moved first where channels_last, Reshape [N, groups, -1] → MVN-6 over axis 2
 * → Reshape back (as ONNX GroupNormalization-21's mapping), moved back, · gamma + beta.
 */
const MS = 'com.microsoft';

const present = (c: ConvertContext, i: number): boolean => c.numInputs > i && c.input(i) !== null;
const isWanted = (c: ConvertContext, i: number): boolean => {
  const o = c.node.outputs[i];
  return !!o && (o.uses.length > 0 || o.graph.outputs.includes(o));
};

function groupNormToIr(c: ConvertContext, skip: boolean): void {
  const elem = c.elem(0);
  if (elem === null || elementType(elem).kind !== 'float') { c.error(`${c.node.op} needs X of a float type (onnxruntime defines it on float16 and float)`); return; }
  const rank = c.rank(0);
  // the schema's X is [N, H, W, C] or [N, C, H, W]; onnxruntime's kernels refuse other ranks
  if (rank !== 4) { c.error(`${c.node.op} needs a 4-D X ([N, H, W, C] or [N, C, H, W]), got ${rank === null ? 'an unknown rank' : `rank ${rank}`}`); return; }
  const groups = c.attr.int('groups');
  if (groups === undefined || groups <= 0n) { c.unsupportedAttr('groups', String(groups ?? 'absent'), 'a positive number of groups is required'); return; }
  const activation = c.attr.int('activation');
  if (activation !== 0n && activation !== 1n) { c.unsupportedAttr('activation', String(activation ?? 'absent'), 'required: 0 (none) or 1 (SiLU)'); return; }
  const last = c.attr.int('channels_last', 1n) !== 0n;
  const eps = c.attr.float('epsilon', 1e-5);
  const b = irBuilder(c);
  const f32 = (v: Value, from: string | null): Value => (from === 'f32' ? v : b.convert(v, 'f32'));
  let x = c.input(0)!;
  if (skip) {
    let k = c.input(3)!;
    // a [N, C] skip is per image and channel: broadcast over the spatial dims
    if (c.rank(3) === 2) k = b.unsqueeze(k, last ? range(1, rank - 1) : range(2, rank));
    x = b.add(x, k);
    if (present(c, 4)) {
      const bias = c.input(4)!;
      x = b.add(x, last ? bias : b.unsqueeze(bias, range(1, rank - 1)));
    }
    if (isWanted(c, 1)) c.output(1, x);
    else c.unused(1);
  }
  // channels first: [N, C, spatial…]
  const toFirst = [0n, BigInt(rank - 1), ...range(1, rank - 1)];
  const toLast = [0n, ...range(2, rank), 1n];
  const first = last ? b.transpose(f32(x, elem), toFirst) : f32(x, elem);
  const grouped = b.reshape(first, [0n, groups, -1n]);
  const normalized = c.emit('MVN', [grouped, i64Const(c, [2n])], { normalize_variance: 'true', eps: String(eps), eps_mode: 'inside_sqrt' }, 1, 'opset6')[0]!;
  let y = c.emit('Reshape', [normalized, b.shapeOf(first)], { special_zero: 'false' }, 1, 'opset1')[0]!;
  if (last) y = b.transpose(y, toLast);
  const perChannel = (i: number): Value => (last ? f32(c.input(i)!, c.elem(i)) : b.unsqueeze(f32(c.input(i)!, c.elem(i)), range(1, rank - 1)));
  y = b.add(b.mul(y, perChannel(1)), perChannel(2));
  if (activation === 1n) y = b.mul(y, c.emit('Sigmoid', [y], {}, 1, 'opset1')[0]!);
  c.output(0, elem === 'f32' ? y : b.convert(y, elem));
}

/** [from, to) as bigints. */
const range = (from: number, to: number): bigint[] => Array.from({ length: Math.max(0, to - from) }, (_, i) => BigInt(from + i));

const OPS = ['Convert', 'Transpose', 'Reshape', 'MVN', 'ShapeOf', 'Unsqueeze', 'Multiply', 'Add', 'Sigmoid'];

export const MS_GROUP_NORM: readonly OpMapping[] = [
  {
    onnx: { op: 'GroupNorm', domain: MS, since: 1 },
    ir: null,
    decomposes: OPS,
    handles: { onnx: ['epsilon', 'groups', 'activation', 'channels_last'] },
    note: 'IR: channels moved first (channels_last), MVN-6 over [N, groups, -1] in f32, · gamma + beta per channel, SiLU for activation 1',
    toIr: (c) => groupNormToIr(c, false),
  },
  {
    onnx: { op: 'SkipGroupNorm', domain: MS, since: 1 },
    ir: null,
    decomposes: OPS,
    handles: { onnx: ['epsilon', 'groups', 'activation', 'channels_last'] },
    note: 'IR: s = X + skip (+ bias), [N, C] skip broadcast over the spatial dims; GroupNorm of s; S = s when read',
    toIr: (c) => groupNormToIr(c, true),
  },
];
