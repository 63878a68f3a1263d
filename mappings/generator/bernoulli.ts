import { fromOnnxDataType } from '../../src/graph/element-type.js';
import type { OpMapping } from '../spec.js';
import { irSeeds, SEED_HANDLES } from './random-seed.js';
import { irShapeOf, irUniform } from './random-uniform.js';

/**
 * ONNX Bernoulli-15(input p; dtype?, seed?) → IR: 1 where u < p for u uniform in [0, 1) (f64 for
 * f64 p, else f32, p converted to it), else 0, converted to `dtype` (default: p's type). p = 0 gives 0 and p = 1 gives 1 exactly
 * (u < 1 always). Same distribution as onnxruntime's, other numbers (random-seed.ts).
 */
export const BERNOULLI: readonly OpMapping[] = [
  {
    onnx: { op: 'Bernoulli', since: 15 },
    ir: null,
    decomposes: ['ShapeOf', 'RandomUniform', 'Less', 'Convert'],
    handles: { onnx: ['dtype', ...SEED_HANDLES.onnx] },
    note: 'Less(RandomUniform [0, 1), p) converted to dtype',
    toIr: (c) => {
      const p = c.elem(0);
      if (p === null) { c.error('Bernoulli needs the element type of its input to be known'); return; }
      const d = c.attr.int('dtype');
      const out = d === undefined ? p : fromOnnxDataType(Number(d))?.name ?? null;
      if (out === null) { c.unsupportedAttr('dtype', String(d), 'an ONNX element type'); return; }
      const gen = p === 'f64' ? 'f64' : 'f32';
      const u = irUniform(c, irShapeOf(c, 0), gen, 0, 1, irSeeds(c));
      const prob = p === gen ? c.input(0) : c.emit('Convert', [c.input(0)], { destination_type: gen }, 1, 'opset1')[0]!;
      const hit = c.emit('Less', [u, prob], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
      c.output(0, out === 'boolean' ? hit : c.emit('Convert', [hit], { destination_type: out }, 1, 'opset1')[0]!);
    },
  },
];
