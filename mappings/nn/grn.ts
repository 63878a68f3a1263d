import { scalarLike } from '../generator/constant-of-shape.js';
import { irOnly, never, on, reduce } from '../ir-only/onnx-build.js';
import type { OpMapping } from '../spec.js';

/**
 * GRN-1 (global response normalization), which ONNX lacks: x / √(Σ_channels x² + bias), the sum
 * over axis 1 with the dims kept (the spec's formula).
 */
export const GRN: readonly OpMapping[] = [
  {
    onnx: { op: 'ReduceSumSquare', since: 1 },
    ir: { op: 'GRN', version: 'opset1' },
    when: never,
    handles: { ir: ['bias'] },
    note: 'x / sqrt(ReduceSumSquare(x, [1]) + bias)',
    toIr: irOnly,
    toOnnx: (c) => {
      const x = c.input(0)!;
      const bias = scalarLike(c, 0, c.attr.float('bias') ?? 0, 'GRN bias');
      if (!bias) return;
      c.output(0, on(c, 'Div', [x, on(c, 'Sqrt', [on(c, 'Add', [reduce(c, 'ReduceSumSquare', x, [1n], true), bias])])]));
    },
  },
];
