import type { Value } from '../../src/graph/value.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { irSeeds, SEED_HANDLES } from './random-seed.js';
import { irUniform, randomTarget } from './random-uniform.js';

/**
 * ONNX RandomNormal-1 (shape attribute) / RandomNormalLike-1 (the input's shape) → IR: OpenVINO
 * has no normal generator, so (as its ONNX frontend does) two uniform streams u1, u2 in [0, 1)
 * become one normal by Box–Muller, z = √(−2 ln(1 − u1)) · cos(2π u2) (1 − u1 lies in (0, 1]: the
 * logarithm is finite), and y = mean + scale · z. Drawn and computed in f64 for f64, else in f32,
 * then converted to `dtype`. Same distribution as onnxruntime's, other numbers (random-seed.ts).
 */
function normalToIr(c: ConvertContext, like: boolean): void {
  const t = randomTarget(c, like);
  if (!t) return;
  const { elem, shape } = t;
  const gen = elem === 'f64' ? 'f64' : 'f32';
  const b = irBuilder(c);
  const k = (v: number): Value => b.scalar(gen, v);
  const u1 = irUniform(c, shape, gen, 0, 1, irSeeds(c, 0));
  const u2 = irUniform(c, shape, gen, 0, 1, irSeeds(c, 1));
  const unary = (op: string, x: Value): Value => c.emit(op, [x], {}, 1, 'opset1')[0]!;
  const radius = unary('Sqrt', b.mul(k(-2), unary('Log', b.sub(k(1), u1))));
  const z = b.mul(radius, unary('Cos', b.mul(k(2 * Math.PI), u2)));
  const y = b.add(b.mul(z, k(c.attr.float('scale', 1))), k(c.attr.float('mean', 0)));
  c.output(0, gen === elem ? y : b.convert(y, elem));
}

const DECOMPOSES = ['RandomUniform', 'Subtract', 'Log', 'Sqrt', 'Cos', 'Multiply', 'Add'];

export const RANDOM_NORMAL: readonly OpMapping[] = [
  {
    onnx: { op: 'RandomNormal', since: 1 },
    ir: null,
    decomposes: DECOMPOSES,
    handles: { onnx: ['dtype', 'mean', 'scale', 'shape', ...SEED_HANDLES.onnx] },
    note: 'Box–Muller over two RandomUniform streams (same distribution, other numbers)',
    toIr: (c) => normalToIr(c, false),
  },
  {
    onnx: { op: 'RandomNormalLike', since: 1 },
    ir: null,
    decomposes: ['ShapeOf', ...DECOMPOSES],
    handles: { onnx: ['dtype', 'mean', 'scale', ...SEED_HANDLES.onnx] },
    note: 'Box–Muller over two RandomUniform streams of the input\'s shape',
    toIr: (c) => normalToIr(c, true),
  },
];
